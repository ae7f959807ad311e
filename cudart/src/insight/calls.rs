//! The calls the insight features look into, read from their arguments:
//! which one allocates or frees memory, makes or destroys an object,
//! launches a kernel, copies or sets memory, waits, or starts and ends a
//! stream capture ([`Fact`]). Arguments are read as the C caller passed
//! them ([`Arg`]); what a call writes (the new pointer or handle) is read
//! after it succeeded ([`Fact::made`]).

use super::{peek, Arg};
use crate::driver::{CUkernel, CUresult};
use crate::handles::{Kind, State};
use std::ffi::{c_char, c_void, CStr};

/// A call: its export's name without the `_ptds`/`_ptsz` suffix, whether
/// it was that per-thread form, and its arguments.
pub(crate) struct Call<'a> {
    pub(crate) name: &'static str,
    pub(crate) per_thread: bool,
    pub(crate) args: &'a [Arg],
}

impl<'a> Call<'a> {
    pub(crate) fn new(api: &'static str, args: &'a [Arg]) -> Call<'a> {
        let base = api
            .strip_suffix("_ptsz")
            .or_else(|| api.strip_suffix("_ptds"));
        Call {
            name: base.unwrap_or(api),
            per_thread: base.is_some(),
            args,
        }
    }

    fn arg(&self, i: usize) -> Arg {
        self.args.get(i).copied().unwrap_or_default()
    }

    /// The stream argument at `i` as the driver takes it: the null stream
    /// of a per-thread form is the per-thread stream (`cudaStreamPerThread`).
    fn stream(&self, i: usize) -> usize {
        self.stream_value(self.arg(i).word())
    }

    fn stream_value(&self, s: usize) -> usize {
        if s == 0 && self.per_thread {
            PER_THREAD_STREAM
        } else {
            s
        }
    }

    /// The null stream of this call's form (for the synchronous copies).
    fn null_stream(&self) -> usize {
        self.stream_value(0)
    }
}

/// `cudaStreamPerThread`.
pub(crate) const PER_THREAD_STREAM: usize = 0x2;

/// What memory an allocation is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum MemKind {
    Device,
    Pinned,
    Managed,
}

impl MemKind {
    pub(crate) fn label(self) -> &'static str {
        match self {
            MemKind::Device => "device memory",
            MemKind::Pinned => "pinned memory",
            MemKind::Managed => "managed memory",
        }
    }
}

/// What kind of object a handle is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ObjKind {
    Stream,
    Event,
    Graph,
    GraphExec,
    Library,
    MemPool,
    Array,
    Texture,
}

impl ObjKind {
    pub(crate) fn label(self) -> &'static str {
        match self {
            ObjKind::Stream => "stream",
            ObjKind::Event => "event",
            ObjKind::Graph => "graph",
            ObjKind::GraphExec => "graph exec",
            ObjKind::Library => "library",
            ObjKind::MemPool => "memory pool",
            ObjKind::Array => "array",
            ObjKind::Texture => "texture object",
        }
    }
}

/// A launch's arguments.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Launch {
    /// The host stub (or `cudaKernel_t`).
    pub(crate) func: usize,
    pub(crate) grid: [u32; 3],
    pub(crate) block: [u32; 3],
    /// The `void**` of kernel parameters.
    pub(crate) params: usize,
    pub(crate) stream: usize,
}

/// A copy or a set of one range.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Transfer {
    pub(crate) dst: usize,
    /// 0 for a set.
    pub(crate) src: usize,
    pub(crate) bytes: usize,
    /// The `cudaMemcpyKind` (or -1 for a set).
    pub(crate) kind: i32,
    pub(crate) stream: usize,
    /// The call returns before the work is done (`...Async`).
    pub(crate) asynchronous: bool,
}

/// What a call does, as far as the insight features care.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Fact {
    Other,
    /// Allocates: the out-pointer's address, and the size (for a pitched
    /// allocation, the pitch is read after the call: `pitch_out`, rows).
    Alloc {
        out: usize,
        size: usize,
        kind: MemKind,
        pitch_out: usize,
        rows: usize,
    },
    Free {
        ptr: usize,
        kind: MemKind,
    },
    /// Makes an object whose handle the call writes at `out`.
    Make {
        out: usize,
        kind: ObjKind,
    },
    Destroy {
        handle: usize,
        kind: ObjKind,
    },
    Launch(Launch),
    Transfer(Transfer),
    /// Uses a stream (and an event, where not 0).
    Use {
        stream: Option<usize>,
        event: Option<usize>,
    },
    /// Waits for the device (host time counted as blocked).
    Wait,
    CaptureBegin,
    CaptureEnd,
    Reset,
}

impl Fact {
    /// The host stub a launch runs.
    pub(crate) fn launched(&self) -> Option<usize> {
        match self {
            Fact::Launch(l) => Some(l.func),
            _ => None,
        }
    }

    /// The pointer or handle a successful call wrote at `out`.
    pub(crate) fn made(out: usize) -> Option<usize> {
        peek::<usize>(out).filter(|&v| v != 0)
    }
}

/// The registered host stub behind what a launch hands over: the stub
/// itself, or the stub of a kernel's driver handle. nvcc's `<<<...>>>` code
/// asks `__cudaGetKernel` once per launch site and passes the `CUkernel` it
/// got to `__cudaLaunchKernel`; those handles are not in the handle table
/// (`launch::get_kernel_for_stub`), so the registry's scan finds them (the
/// features are opt-in; the plain launch path never asks).
fn stub_of(func: usize) -> Option<usize> {
    if crate::registry::kernel_for_stub(func as *const c_void).is_some() {
        return Some(func);
    }
    crate::registry::stub_for_kernel(crate::driver::CUfunction::from_raw(func as *mut c_void))
        .map(|s| s as usize)
}

/// Whether `func` is a kernel handle the runtime handed out and recorded
/// (`cudaGetKernel`, a library's kernels).
fn handed_out(func: usize) -> bool {
    crate::handles::state(func as *const c_void) == Some(State::Live(Kind::Kernel))
}

/// The driver kernel behind what a launch hands over, where the runtime
/// knows it: a registered host stub or a handle of one, or a kernel handle
/// it handed out. Anything else is never passed to the driver from here.
pub(crate) fn known_kernel(func: usize) -> Option<CUkernel> {
    let known = if handed_out(func) {
        func
    } else {
        stub_of(func)?
    };
    crate::registry::launch_handle(known as *const c_void).ok()
}

/// The registered (mangled) name of the kernel a launch hands over; for a
/// handed-out handle of no registered stub, the driver's name.
pub(crate) fn kernel_name(func: usize) -> Option<String> {
    if let Some(k) =
        stub_of(func).and_then(|s| crate::registry::kernel_for_stub(s as *const c_void))
    {
        return Some(k.name().to_string_lossy().into_owned());
    }
    if !handed_out(func) {
        return None;
    }
    let k = crate::registry::launch_handle(func as *const c_void).ok()?;
    let mut name: *const c_char = std::ptr::null();
    let drv = crate::driver::get().ok()?;
    if drv.cuKernelGetName(&mut name, k) != CUresult::SUCCESS || name.is_null() {
        return None;
    }
    // SAFETY: the driver returned a NUL-terminated name it keeps while the
    // kernel's library is loaded; it is copied at once.
    Some(
        unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned(),
    )
}

const H2D: i32 = 1;

/// Reads what `call` does from its arguments.
pub(crate) fn read(call: &Call<'_>) -> Fact {
    use Fact::*;
    let a = |i: usize| call.arg(i);
    let alloc = |size: usize, kind: MemKind| Alloc {
        out: a(0).word(),
        size,
        kind,
        pitch_out: 0,
        rows: 0,
    };
    let make = |kind: ObjKind| Make {
        out: a(0).word(),
        kind,
    };
    let destroy = |kind: ObjKind| Destroy {
        handle: a(0).word(),
        kind,
    };
    let copy = |dst: usize, src: usize, bytes: usize, kind: i32, stream: Option<usize>| {
        Transfer(self::Transfer {
            dst,
            src,
            bytes,
            kind,
            stream: stream.unwrap_or_else(|| call.null_stream()),
            asynchronous: stream.is_some(),
        })
    };
    match call.name {
        "cudaMalloc" => alloc(a(1).word(), MemKind::Device),
        "cudaMallocAsync" | "cudaMallocFromPoolAsync" => alloc(a(1).word(), MemKind::Device),
        "cudaMallocHost" | "cudaHostAlloc" => alloc(a(1).word(), MemKind::Pinned),
        "cudaMallocManaged" => alloc(a(1).word(), MemKind::Managed),
        "cudaMallocPitch" => Alloc {
            out: a(0).word(),
            size: 0,
            kind: MemKind::Device,
            pitch_out: a(1).word(),
            rows: a(3).word(),
        },
        "cudaMalloc3D" => {
            // The out-parameter is a cudaPitchedPtr: the pointer, then the
            // pitch; the extent is (width, height, depth) by value.
            let [_, height, depth] = a(1).words();
            Alloc {
                out: a(0).word(),
                size: 0,
                kind: MemKind::Device,
                pitch_out: a(0).word() + std::mem::size_of::<usize>(),
                rows: height.max(1).saturating_mul(depth.max(1)),
            }
        }
        "cudaFree" | "cudaFreeAsync" => Free {
            ptr: a(0).word(),
            kind: MemKind::Device,
        },
        "cudaFreeHost" => Free {
            ptr: a(0).word(),
            kind: MemKind::Pinned,
        },
        "cudaStreamCreate" | "cudaStreamCreateWithFlags" | "cudaStreamCreateWithPriority" => {
            make(ObjKind::Stream)
        }
        "cudaStreamDestroy" => destroy(ObjKind::Stream),
        "cudaEventCreate" | "cudaEventCreateWithFlags" => make(ObjKind::Event),
        "cudaEventDestroy" => destroy(ObjKind::Event),
        "cudaGraphCreate" => make(ObjKind::Graph),
        "cudaGraphDestroy" => destroy(ObjKind::Graph),
        "cudaGraphInstantiate"
        | "cudaGraphInstantiateWithFlags"
        | "cudaGraphInstantiateWithParams" => make(ObjKind::GraphExec),
        "cudaGraphExecDestroy" => destroy(ObjKind::GraphExec),
        "cudaLibraryLoadData" | "cudaLibraryLoadFromFile" => make(ObjKind::Library),
        "cudaLibraryUnload" => destroy(ObjKind::Library),
        "cudaMemPoolCreate" => make(ObjKind::MemPool),
        "cudaMemPoolDestroy" => destroy(ObjKind::MemPool),
        "cudaMallocArray" | "cudaMalloc3DArray" | "cudaMallocMipmappedArray" => {
            make(ObjKind::Array)
        }
        "cudaFreeArray" | "cudaFreeMipmappedArray" => destroy(ObjKind::Array),
        "cudaCreateTextureObject" => make(ObjKind::Texture),
        "cudaDestroyTextureObject" => destroy(ObjKind::Texture),
        "cudaLaunchKernel" | "__cudaLaunchKernel" | "cudaLaunchCooperativeKernel" => {
            Launch(self::Launch {
                func: a(0).word(),
                grid: a(1).dim3(),
                block: a(2).dim3(),
                params: a(3).word(),
                stream: call.stream(5),
            })
        }
        "cudaLaunchKernelExC" => launch_ex(call),
        "cudaMemcpy" => copy(a(0).word(), a(1).word(), a(2).word(), a(3).int(), None),
        "cudaMemcpyAsync" => copy(
            a(0).word(),
            a(1).word(),
            a(2).word(),
            a(3).int(),
            Some(call.stream(4)),
        ),
        "cudaMemcpyPeer" => copy(a(0).word(), a(2).word(), a(4).word(), 3, None),
        "cudaMemcpyPeerAsync" => copy(
            a(0).word(),
            a(2).word(),
            a(4).word(),
            3,
            Some(call.stream(5)),
        ),
        "cudaMemset" => copy(a(0).word(), 0, a(2).word(), -1, None),
        "cudaMemsetAsync" => copy(a(0).word(), 0, a(2).word(), -1, Some(call.stream(3))),
        "cudaStreamSynchronize" | "cudaStreamQuery" => Use {
            stream: Some(call.stream(0)),
            event: None,
        },
        "cudaEventRecord" | "cudaEventRecordWithFlags" => Use {
            stream: Some(call.stream(1)),
            event: Some(a(0).word()),
        },
        "cudaStreamWaitEvent" => Use {
            stream: Some(call.stream(0)),
            event: Some(a(1).word()),
        },
        "cudaEventSynchronize" | "cudaEventQuery" => Use {
            stream: None,
            event: Some(a(0).word()),
        },
        "cudaStreamBeginCapture" | "cudaStreamBeginCaptureToGraph" => CaptureBegin,
        "cudaStreamEndCapture" => CaptureEnd,
        "cudaDeviceReset" => Reset,
        _ if is_wait(call.name) => Wait,
        _ => Other,
    }
}

/// `cudaLaunchKernelExC(config, func, args)`: the configuration is read
/// from the caller's structure.
fn launch_ex(call: &Call<'_>) -> Fact {
    let config = call.arg(0).word();
    // cudaLaunchConfig_t: gridDim, blockDim (3 x u32 each), then
    // dynamicSmemBytes and the stream (8-byte aligned).
    let dims: Option<[u32; 6]> = peek(config);
    let stream: Option<usize> = peek(config + 32);
    let (Some(d), Some(s)) = (dims, stream) else {
        return Fact::Other;
    };
    Fact::Launch(Launch {
        func: call.arg(1).word(),
        grid: [d[0], d[1], d[2]],
        block: [d[3], d[4], d[5]],
        params: call.arg(2).word(),
        stream: call.stream_value(s),
    })
}

/// Calls that block the host until work on the device is done (their host
/// time is what the profile counts as blocked).
pub(crate) fn is_wait(name: &str) -> bool {
    matches!(
        name,
        "cudaDeviceSynchronize"
            | "cudaStreamSynchronize"
            | "cudaEventSynchronize"
            | "cudaMemcpy"
            | "cudaMemcpy2D"
            | "cudaMemcpy3D"
            | "cudaMemcpyPeer"
            | "cudaMemcpyToSymbol"
            | "cudaMemcpyFromSymbol"
            | "cudaMemcpy2DToArray"
            | "cudaMemcpy2DFromArray"
            | "cudaMemset"
            | "cudaMemset2D"
            | "cudaMemset3D"
            | "cudaFree"
            | "cudaFreeHost"
            | "cudaDeviceReset"
    )
}

/// Whether a copy kind moves data from the host.
pub(crate) fn from_host(kind: i32) -> bool {
    kind == H2D || kind == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::dim3;

    #[test]
    fn names_lose_the_per_thread_suffix() {
        let c = Call::new("cudaMemcpyAsync_ptsz", &[]);
        assert_eq!((c.name, c.per_thread), ("cudaMemcpyAsync", true));
        let c = Call::new("cudaMemcpy", &[]);
        assert_eq!((c.name, c.per_thread), ("cudaMemcpy", false));
    }

    #[test]
    fn launch_arguments_are_read_as_passed() {
        let grid = dim3 { x: 7, y: 2, z: 3 };
        let block = dim3 { x: 128, y: 1, z: 1 };
        let args = [
            Arg::of(&0x1234usize),
            Arg::of(&grid),
            Arg::of(&block),
            Arg::of(&0usize),
            Arg::of(&0usize),
            Arg::of(&0usize),
        ];
        let Fact::Launch(l) = read(&Call::new("cudaLaunchKernel_ptsz", &args)) else {
            panic!("not a launch");
        };
        assert_eq!((l.func, l.grid, l.block), (0x1234, [7, 2, 3], [128, 1, 1]));
        assert_eq!(l.stream, PER_THREAD_STREAM, "null stream of _ptsz");
    }

    #[test]
    fn config_of_launch_ex_is_read_from_memory() {
        let config: [u64; 6] = [7 | (2 << 32), 3 | (64 << 32), 1 | (1 << 32), 0, 0xabc0, 0];
        let args = [
            Arg::of(&config.as_ptr()),
            Arg::of(&0x99usize),
            Arg::of(&0usize),
        ];
        let Fact::Launch(l) = read(&Call::new("cudaLaunchKernelExC", &args)) else {
            panic!("not a launch");
        };
        assert_eq!((l.grid, l.block, l.stream), ([7, 2, 3], [64, 1, 1], 0xabc0));
        let bad = [Arg::of(&8usize), Arg::of(&0x99usize), Arg::of(&0usize)];
        assert!(matches!(
            read(&Call::new("cudaLaunchKernelExC", &bad)),
            Fact::Other
        ));
    }

    #[test]
    fn copies_know_their_stream_and_whether_they_wait() {
        let args = [
            Arg::of(&0x10usize),
            Arg::of(&0x20usize),
            Arg::of(&4096usize),
            Arg::of(&1i32),
        ];
        let Fact::Transfer(t) = read(&Call::new("cudaMemcpy", &args)) else {
            panic!("not a copy");
        };
        assert_eq!(
            (t.bytes, t.kind, t.stream, t.asynchronous),
            (4096, 1, 0, false)
        );
        assert!(is_wait("cudaMemcpy") && !is_wait("cudaMemcpyAsync"));
    }
}
