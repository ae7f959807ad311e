//! The bad-input matrix (issue #9) and the calls that run alone in batch
//! mode ([`ISOLATED`]).

use super::*;

// The bad-input matrix (issue #9): besides its ordinary call, every export is
// called once per bad argument that applies to one of its parameters, all
// other arguments ordinary. What applies is decided from the parameter's
// type and name by the tables below; every case has a stable id,
// `FUNCTION#PARAM=WHAT` (`cudaMemcpy#dst=host-stack`), so that two runs can be
// compared line by line.

/// One bad-argument case: parameter `param` receives `value` (a C expression
/// of its type, evaluated after the ordinary arguments are ready, `h` the
/// runner's context) instead of its ordinary argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCase {
    pub param: usize,
    /// What the parameter receives: the part of the id after `=`.
    pub what: String,
    pub value: String,
}

impl BadCase {
    /// `FUNCTION#PARAM=WHAT`.
    pub fn id(&self, proto: &Proto) -> String {
        format!(
            "{}#{}={}",
            proto.name, proto.params[self.param].name, self.what
        )
    }
}

/// Handles passed by value: (type, its fixture, whether the matrix passes a
/// destroyed one, the fixture passed as a handle of the wrong kind).
/// `freed`: made and destroyed in the child just before the call
/// (runner.h, `h_freed`). `wrong:KIND`: a live object of another kind
/// (`h_wrong`). Without a driver (nothing can be made) both are stand-ins:
/// an address in a page that cannot be read, and a zeroed host buffer.
/// Texture and surface objects are integers, not void*-like: no wrong kind.
pub(super) const HANDLE_CASES: &[(&str, &str, bool, Option<&str>)] = &[
    ("cudaStream_t", "STREAM", true, Some("EVENT")),
    ("cudaEvent_t", "EVENT", true, Some("STREAM")),
    ("cudaGraph_t", "GRAPH", true, Some("GRAPHEXEC")),
    ("cudaGraphNode_t", "NODE", true, Some("GRAPH")),
    ("cudaGraphExec_t", "GRAPHEXEC", true, Some("GRAPH")),
    ("cudaArray_t", "ARRAY", true, Some("MIPMAP")),
    ("cudaArray_const_t", "ARRAY", true, Some("MIPMAP")),
    ("cudaMipmappedArray_t", "MIPMAP", true, Some("ARRAY")),
    ("cudaMipmappedArray_const_t", "MIPMAP", true, Some("ARRAY")),
    ("cudaMemPool_t", "MEMPOOL", true, Some("STREAM")),
    ("cudaKernel_t", "KERNEL", true, Some("LIBRARY")),
    ("cudaLibrary_t", "LIBRARY", true, Some("KERNEL")),
    ("cudaUserObject_t", "USEROBJ", true, Some("GRAPH")),
    ("cudaTextureObject_t", "TEXOBJ", true, None),
    ("cudaSurfaceObject_t", "SURFOBJ", true, None),
    // Objects of other APIs (none can be made here; NULL is their ordinary
    // argument): a stream as the wrong kind.
    ("cudaExternalMemory_t", "", false, Some("STREAM")),
    ("cudaExternalSemaphore_t", "", false, Some("STREAM")),
    ("cudaGraphicsResource_t", "", false, Some("STREAM")),
    ("cudaAsyncCallbackHandle_t", "", false, Some("STREAM")),
    ("cudaLogsCallbackHandle", "", false, Some("STREAM")),
];

/// Handle types that are integers, not addresses.
pub(super) const INTEGER_HANDLES: &[&str] = &["cudaTextureObject_t", "cudaSurfaceObject_t"];

/// The garbage handle of the matrix: an address no mapping of these
/// processes covers (below the loader's, the heap's and mmap's ranges), as
/// `(cudaEvent_t)0xdeadbeef` crashed both runtimes in an independent probe
/// on the H200.
pub(super) const GARBAGE_HANDLE: &str = "(uintptr_t)0xdeadbeef";

/// Function-pointer types: NULL applies.
pub(super) const CALLBACK_TYPES: &[&str] = &[
    "cudaStreamCallback_t",
    "cudaHostFn_t",
    "cudaAsyncCallback",
    "cudaLogsCallback_t",
];

/// Device memory (the DEVBUF fixture): NULL, the address + 1, an address
/// in the lowest page nothing maps, host memory (the child's stack,
/// malloc), a freed allocation.
pub(super) const DEVPTR_CASES: &[(&str, &str)] = &[
    ("dev+1", "(uintptr_t)h_fixture(h, HF_DEVBUF) + 1"),
    // Nothing is mapped there: the driver takes it for host memory.
    ("unmapped-low", "(uintptr_t)0x1000"),
    ("host-stack", "h_stack"),
    ("host-malloc", "h_heap(h)"),
    ("freed", "h_freed(h, HF_DEVBUF)"),
];

/// Page-locked host memory (the PINNED fixture): NULL, pageable host memory,
/// device memory.
pub(super) const PINNED_CASES: &[(&str, &str)] = &[
    ("host-stack", "h_stack"),
    ("host-malloc", "h_heap(h)"),
    ("dev", "h_fixture(h, HF_DEVBUF)"),
];

/// The registration handle of nvcc's internals (the FATHANDLE fixture): a
/// zeroed host buffer that no registration returned.
pub(super) const FATHANDLE_CASES: &[(&str, &str)] = &[("not-a-handle", "h_foreign")];

/// Objects passed by host address (their ordinary argument -> the case): a
/// function that is no kernel, a variable that is no symbol, a fatbin
/// wrapper that is zeroed memory.
pub(super) const ADDRESS_CASES: &[(&str, &str, &str)] = &[
    ("h_wrapper()", "not-a-wrapper", "h_foreign"),
    (
        "(const void *)harness_kernel",
        "not-a-kernel",
        "(const void *)harness_noop",
    ),
    (
        "(const void *)&harness_symbol",
        "not-a-symbol",
        "(const void *)&h_not_a_symbol",
    ),
];

/// Enums (by value, any enum type of the headers): one past the largest
/// enumerator (from the headers, `max+1`), and 0x7fffffff.
pub(super) const BAD_ENUM: &str = "0x7fffffff";

/// `int` parameters that are device ordinals, and the bad ordinals.
pub(super) const DEVICE_PARAMS: &[&str] = &["device", "srcDevice", "dstDevice", "peerDevice"];
pub(super) const BAD_DEVICES: &[&str] = &["-1", "9999"];

/// Flag words (any integer type), and the bad words: every bit below the
/// sign bit, and one bit no flag uses.
pub(super) const FLAG_PARAMS: &[&str] = &["flags", "deviceFlags"];
pub(super) const BAD_FLAGS: &[&str] = &["0x7fffffff", "0x40000000"];

/// `size_t` sizes (bytes, extents, shared memory): 0 (unless that is the
/// ordinary value) and 2^62.
pub(super) const SIZE_PARAMS: &[&str] = &[
    "count",
    "size",
    "width",
    "height",
    "pitch",
    "dpitch",
    "spitch",
    "length",
    "dataSize",
    "sharedMem",
    "dynamicSMemSize",
];
/// `size_t` offsets (ordinarily 0): 2^62.
pub(super) const OFFSET_PARAMS: &[&str] = &[
    "offset",
    "wOffset",
    "hOffset",
    "wOffsetDst",
    "hOffsetDst",
    "wOffsetSrc",
    "hOffsetSrc",
];
pub(super) const HUGE: (&str, &str) = ("2^62", "(size_t)1 << 62");

/// Sizes that are the length of an input array the harness fills with one
/// element: 0 only (a huge length would make the callee read past it, a
/// bug of the caller, not a bad argument).
pub(super) const ARRAY_LENGTHS: &[(&str, &str)] = &[
    ("cudaMemcpyBatchAsync", "count"),
    ("cudaMemPrefetchBatchAsync", "count"),
    ("cudaMemDiscardBatchAsync", "count"),
    ("cudaMemDiscardAndPrefetchBatchAsync", "count"),
];

/// Parameters left out of the matrix: (function, parameter or `*`, why).
pub(super) const NO_BAD_CASES: &[(&str, &str, &str)] = &[
    (
        "__cudaRegisterUnifiedTable",
        "*",
        "no public signature: called with six zero arguments only",
    ),
    (
        "__cudaGetProcAddress",
        "*",
        "no public signature: called with six zero arguments only",
    ),
];

pub(super) fn base_name(func: &str) -> &str {
    func.strip_suffix("_ptds")
        .or_else(|| func.strip_suffix("_ptsz"))
        .unwrap_or(func)
}

/// The bad-argument cases of one call, in parameter order.
pub fn bad_cases(proto: &Proto, args: &[Arg], enums: &Enums) -> Result<Vec<BadCase>, String> {
    let base = base_name(&proto.name);
    let mut out = Vec::new();
    for (k, (p, a)) in proto.params.iter().zip(args).enumerate() {
        if NO_BAD_CASES
            .iter()
            .any(|(f, q, _)| *f == base && (*q == "*" || *q == p.name))
        {
            continue;
        }
        let (ty, name) = (p.ty.as_str(), p.name.as_str());
        let mut add = |what: &str, value: String| {
            out.push(BadCase {
                param: k,
                what: what.to_string(),
                value,
            })
        };
        let cast = |v: &str| format!("({ty})({v})");
        let handle = HANDLE_CASES.iter().find(|hc| hc.0 == ty);
        let ordinary = match a {
            Arg::Expr(x) => x.as_str(),
            Arg::Null => "0",
            _ => "",
        };
        // NULL: every pointer, handle and callback not NULL already.
        if (ty.ends_with('*') || handle.is_some() || CALLBACK_TYPES.contains(&ty))
            && ordinary != "0"
        {
            if matches!(a, Arg::Out { .. }) {
                add("null", cast(&format!("h_no_out(h, {k})")));
            } else {
                add("null", cast("0"));
            }
        }
        if let Some((_, fix, freed, wrong)) = handle {
            // A handle nobody made: an address where nothing is mapped
            // (the driver reads the object behind a handle). Texture and
            // surface objects are integers the driver looks up.
            if !INTEGER_HANDLES.contains(&ty) {
                add("garbage", cast(GARBAGE_HANDLE));
            }
            if *freed {
                add("freed", cast(&format!("(uintptr_t)h_freed(h, HF_{fix})")));
            }
            if let Some(w) = wrong {
                let what = format!("wrong:{}", w.to_lowercase());
                add(&what, cast(&format!("(uintptr_t)h_wrong(h, HF_{w})")));
            }
        }
        let memory = match a {
            Arg::Fix("DEVBUF") => DEVPTR_CASES,
            Arg::Fix("PINNED") => PINNED_CASES,
            Arg::Fix("FATHANDLE") => FATHANDLE_CASES,
            _ => &[],
        };
        for (what, v) in memory {
            add(what, cast(v));
        }
        for (from, what, v) in ADDRESS_CASES {
            if ordinary == *from {
                add(what, cast(v));
            }
        }
        if let Some(max) = enums.max_of(ty) {
            let max = max.ok_or_else(|| {
                format!(
                    "{}({ty} {name}): an enumerator of {ty} has a value the generator cannot evaluate",
                    proto.name
                )
            })?;
            if max + 1 < 0x7fff_ffff {
                add("max+1", cast(&(max + 1).to_string()));
            }
            add(BAD_ENUM, cast(BAD_ENUM));
        }
        let integer = matches!(
            ty,
            "int" | "unsigned int" | "unsigned" | "unsigned long long" | "size_t"
        );
        if integer && FLAG_PARAMS.contains(&name) {
            for f in BAD_FLAGS {
                add(f, cast(f));
            }
        }
        if ty == "int" && DEVICE_PARAMS.contains(&name) {
            for d in BAD_DEVICES {
                add(d, cast(d));
            }
        }
        if ty == "size_t" && SIZE_PARAMS.contains(&name) {
            if ordinary != "0" {
                add("0", cast("0"));
            }
            if !ARRAY_LENGTHS.contains(&(base, name)) {
                add(HUGE.0, cast(HUGE.1));
            }
        }
        if ty == "size_t" && OFFSET_PARAMS.contains(&name) {
            add(HUGE.0, cast(HUGE.1));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Batch mode (runner.h, `--batch`): calls that run alone.

/// Exports whose every call, ordinary or a case of the bad-input matrix,
/// runs in a fresh child of its own even in batch mode (runner.h), with the
/// reason. Batch mode runs many cases in one process and checks after each
/// that the context works and no error is sticky; these change what that
/// check cannot see (the context's or the process's configuration, the
/// current device, registrations, callbacks, the launch-configuration
/// stack, an open capture), tear the context down, or answer differently
/// when they are not the process's first calls. The name is the base name:
/// the `_ptds`/`_ptsz` forms follow it. Not here, because the check after
/// each case sees what they leave: a capture left open (cudaStreamBeginCapture*:
/// the follow-up cudaMalloc and cudaDeviceSynchronize fail during a global
/// capture); and the kernel attribute setters (their ordinary values are
/// the defaults, and no later case prints an attribute's value).
pub const ISOLATED: &[(&str, &str)] = &[
    ("cudaDeviceReset", "destroys the primary context"),
    (
        "cudaInitDevice",
        "initializes the primary context with flags: a fresh process's call",
    ),
    ("cudaSetDevice", "the thread's current device"),
    ("cudaSetDeviceFlags", "the device's flags"),
    ("cudaSetValidDevices", "the devices the runtime may choose"),
    ("cudaGLSetGLDevice", "the current device"),
    ("cudaVDPAUSetVDPAUDevice", "the current device"),
    ("cudaDeviceSetLimit", "the context's limits"),
    (
        "cudaDeviceSetCacheConfig",
        "the context's cache configuration",
    ),
    (
        "cudaDeviceSetSharedMemConfig",
        "the context's shared memory configuration",
    ),
    ("cudaCtxResetPersistingL2Cache", "the device's L2 cache"),
    ("cudaDeviceSetMemPool", "the device's current memory pool"),
    ("cudaMemSetMemPool", "a location's current memory pool"),
    (
        "cudaDeviceSetGraphMemAttribute",
        "the device's graph memory",
    ),
    ("cudaDeviceEnablePeerAccess", "peer access of the context"),
    ("cudaDeviceDisablePeerAccess", "peer access of the context"),
    (
        "cudaThreadExchangeStreamCaptureMode",
        "the thread's capture mode",
    ),
    (
        "__cudaPushCallConfiguration",
        "the thread's launch-configuration stack",
    ),
    (
        "__cudaPopCallConfiguration",
        "the thread's launch-configuration stack",
    ),
    ("__cudaRegisterFatBinary", "the process's registrations"),
    ("__cudaRegisterFatBinaryEnd", "the process's registrations"),
    ("__cudaUnregisterFatBinary", "the process's registrations"),
    ("__cudaRegisterFunction", "the process's registrations"),
    ("__cudaRegisterVar", "the process's registrations"),
    ("__cudaRegisterManagedVar", "the process's registrations"),
    ("__cudaRegisterHostVar", "the process's registrations"),
    ("__cudaRegisterUnifiedTable", "the process's registrations"),
    ("__cudaInitModule", "the process's registrations"),
    (
        "cudaHostRegister",
        "registers the harness's own host buffer",
    ),
    (
        "cudaHostUnregister",
        "unregisters the harness's own host buffer",
    ),
    ("cudaLogsRegisterCallback", "a process-wide callback"),
    ("cudaLogsUnregisterCallback", "a process-wide callback"),
    (
        "cudaDeviceRegisterAsyncNotification",
        "a device-wide callback",
    ),
    (
        "cudaDeviceUnregisterAsyncNotification",
        "a device-wide callback",
    ),
];

/// Whether every call of `func` runs alone ([`ISOLATED`]).
pub fn isolated(func: &str) -> bool {
    let base = base_name(func);
    ISOLATED.iter().any(|(f, _)| *f == base)
}
