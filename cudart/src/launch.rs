//! Launches: the `<<<>>>` configuration stack, nvcc's CUDA 13 launch entry
//! points, `cudaLaunchKernel` and `cudaLaunchKernelExC`, and the function
//! attribute calls.

use crate::abi::{cudaError_t, cudaFuncAttributes, cudaLaunchConfig_t, cudaStream_t, dim3};
use crate::boundary::{In, Out};
use crate::driver::{self, CUfunction, CUkernel, CUlaunchConfig, CUstream};
use crate::registry;
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_uint, c_void};

/// One `<<<grid, block, shared, stream>>>` configuration.
#[derive(Copy, Clone)]
struct Config {
    grid: dim3,
    block: dim3,
    shared: usize,
    stream: cudaStream_t,
}

/// How deep `<<<>>>` configurations may nest on one thread (a launch whose
/// arguments launch kernels themselves); deeper pushes are refused.
const MAX_NESTED: usize = 16;

const NO_CONFIG: Config = Config {
    grid: dim3 { x: 0, y: 0, z: 0 },
    block: dim3 { x: 0, y: 0, z: 0 },
    shared: 0,
    stream: std::ptr::null_mut(),
};

/// A fixed-size stack with no destructor: thread-locals that need one are
/// destroyed at `exit` before the exit handlers run (glibc), and kernels
/// launched from exit handlers and static destructors need this stack.
struct ConfigStack {
    len: Cell<usize>,
    items: [Cell<Config>; MAX_NESTED],
}

thread_local! {
    /// Pushed by `__cudaPushCallConfiguration` at the call site, popped by
    /// the kernel's host stub: per thread, like NVIDIA's.
    static CONFIGS: ConfigStack = const {
        ConfigStack {
            len: Cell::new(0),
            items: [const { Cell::new(NO_CONFIG) }; MAX_NESTED],
        }
    };
}

/// `__cudaPushCallConfiguration`: 0 lets the stub run.
#[inline]
pub fn push_config(
    grid: dim3,
    block: dim3,
    shared: usize,
    stream: cudaStream_t,
) -> Result<u32, cudaError_t> {
    CONFIGS.with(|c| {
        let n = c.len.get();
        let slot = c
            .items
            .get(n)
            .ok_or(cudaError_t::cudaErrorInvalidConfiguration)?;
        slot.set(Config {
            grid,
            block,
            shared,
            stream,
        });
        c.len.set(n + 1);
        Ok(0)
    })
}

/// `__cudaPopCallConfiguration`.
#[inline]
pub fn pop_config(
    grid: Out<dim3>,
    block: Out<dim3>,
    shared: Out<usize>,
    stream: Out<cudaStream_t>,
) -> Result<(), cudaError_t> {
    let c = CONFIGS
        .with(|c| {
            let n = c.len.get().checked_sub(1)?;
            c.len.set(n);
            Some(c.items[n].get())
        })
        .ok_or(cudaError_t::cudaErrorMissingConfiguration)?;
    grid.write(c.grid)?;
    block.write(c.block)?;
    shared.write(c.shared)?;
    stream.write(c.stream)?;
    Ok(())
}

/// The driver stream for a runtime stream handle (the one conversion every
/// call that hands a stream to the driver makes): the null stream of a
/// per-thread-default-stream export is the per-thread stream; a stream the
/// runtime destroyed, or whose context a reset destroyed, is refused
/// (`cudaErrorInvalidResourceHandle`) before the driver sees it.
#[inline]
pub fn driver_stream(stream: cudaStream_t, per_thread: bool) -> Result<CUstream, cudaError_t> {
    if !(per_thread && stream.is_null()) {
        crate::context::check_stream(stream.cast())?;
    }
    Ok(unchecked_driver_stream(stream, per_thread))
}

/// [`driver_stream`]'s conversion alone, for a stream already checked.
#[inline(always)]
fn unchecked_driver_stream(stream: cudaStream_t, per_thread: bool) -> CUstream {
    if per_thread && stream.is_null() {
        driver::CU_STREAM_PER_THREAD
    } else {
        CUstream::from(stream)
    }
}

/// Every launch ends here, after [`launch`] checked the stream. The
/// configuration is not checked here: NVIDIA's
/// runtime leaves that to the driver (2048 threads per block is the
/// driver's `cudaErrorInvalidValue`, measured on the H200), and so do we.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn launch_kernel(
    f: CUfunction,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let shared = c_uint::try_from(shared).map_err(|_| cudaError_t::cudaErrorInvalidValue)?;
    driver::get()?
        .cuLaunchKernel(
            f,
            grid.x,
            grid.y,
            grid.z,
            block.x,
            block.y,
            block.z,
            shared,
            // Checked by `launch` already (once per launch).
            unchecked_driver_stream(stream, per_thread),
            args,
            std::ptr::null_mut(),
        )
        .ok()
}

/// What a launch hands to the driver for `func` (a kernel handle or a host
/// stub) in the context `ctx` from [`crate::context::ensure_id`] (the
/// context step of every launch: the current context, or the primary
/// context bound lazily): the kernel's function there
/// ([`registry::launch_function`]); the kernel handle in the function's
/// place where the driver gives no context id.
#[inline(always)]
fn launch_target(func: *const c_void, ctx: Option<u64>) -> Result<CUfunction, cudaError_t> {
    match ctx {
        Some(ctx) => registry::launch_function(func, ctx),
        None => registry::launch_handle(func).map(CUfunction::of_kernel),
    }
}

/// For the profile, before it records the event that starts a launch's
/// GPU clock: resolves what a launch of `func` runs in the current context
/// (binding the primary context, loading the kernel's library and its
/// function on the first launch), so the event pair holds the kernel and
/// not the first launch's loading. Errors are left to the launch itself,
/// which meets them again; nothing is done while calls are refused.
pub(crate) fn resolve_before_timing(func: *const c_void) {
    if crate::boundary::refused().is_err() {
        return;
    }
    if let Ok(ctx) = crate::context::ensure_id() {
        let _ = launch_target(func, ctx);
    }
}

/// `__cudaLaunchKernel` (nvcc's stubs) and `cudaLaunchKernel`: `func` is a
/// kernel handle or a host stub. Inlined into each export: a launch is the
/// context's id (one driver call), two relaxed loads (dead streams, the
/// registry's generation), the thread's launch cache, and the driver's
/// `cuLaunchKernel` on the kernel's function; no lock, no allocation.
#[inline(always)]
pub fn launch(
    func: *const c_void,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let ctx = crate::context::ensure_id()?;
    // A stream that died with a reset context never reaches the driver.
    crate::context::check_stream(stream)?;
    let f = launch_target(func, ctx)
        .inspect_err(|&e| explain_failure(func, CUfunction::null(), grid, block, shared, e))?;
    launch_kernel(f, grid, block, args, shared, stream, per_thread)
        .inspect_err(|&e| explain_failure(func, f, grid, block, shared, e))
}

/// With `CUDART_DIAGNOSTICS` on, says why a launch failed (the error path
/// only): an unknown host function, or the limit the configuration
/// exceeds. Load failures explain themselves where the library loads.
#[cold]
#[inline(never)]
fn explain_failure(
    func: *const c_void,
    f: CUfunction,
    grid: dim3,
    block: dim3,
    shared: usize,
    e: cudaError_t,
) {
    if !crate::diagnose::enabled() {
        return;
    }
    // `func` is a host stub, or the kernel handle nvcc's stubs pass.
    let kernel = registry::kernel_for_stub(func).or_else(|| {
        let handle = CUfunction::of_kernel(CUkernel::from(func.cast_mut()));
        registry::stub_for_kernel(handle).and_then(|s| registry::kernel_for_stub(s))
    });
    match (&kernel, e) {
        // An image the driver refused when the launch itself loaded it.
        (Some(k), _) if crate::diagnose::is_image_refusal(e) => k.explain_load_failure(e),
        (None, _) if crate::diagnose::is_image_refusal(e) => {}
        // No driver, or it is gone: explained where that was found.
        (
            _,
            cudaError_t::cudaErrorInsufficientDriver
            | cudaError_t::cudaErrorInitializationError
            | cudaError_t::cudaErrorCudartUnloading
            | cudaError_t::cudaErrorDevicesUnavailable,
        ) => {}
        (None, _)
            if f.is_null()
                || e == cudaError_t::cudaErrorInvalidDeviceFunction
                || e == cudaError_t::cudaErrorInvalidResourceHandle =>
        {
            crate::diagnose::unknown_function(func, &registry::unloaded_origins())
        }
        _ => crate::diagnose::launch_failed(
            registry::kernel_of_launched(f),
            kernel.as_ref().map(|k| k.name()),
            grid,
            block,
            shared,
        ),
    }
}

/// `__cudaGetKernel`: the handle nvcc's stub caches for its call site.
/// Without a driver the stub pointer itself is stored (and the error
/// returned), exactly as NVIDIA's runtime does: launches accept both.
pub fn get_kernel_for_stub(out: Out<*mut c_void>, stub: *const c_void) -> Result<(), cudaError_t> {
    out.check()?;
    if stub.is_null() {
        // NVIDIA's answer before it loads the driver, `*out` untouched
        // (the bad-input matrix).
        return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
    }
    match crate::context::ensure().and_then(|_| registry::kernel_of_stub(stub)) {
        // Not recorded in the handle table (cudaGetKernel's are): every
        // launch site of a program passes here once, and thousands of
        // kernels would crowd the destroyed handles out of it.
        Ok(k) => out.write(k.as_raw()),
        Err(e) => {
            out.write(stub as *mut c_void)?;
            Err(e)
        }
    }
}

/// `cudaGetKernel`. The handle is recorded as a kernel (passed where a
/// library is due it is refused: the driver crashed on one).
pub fn get_kernel(out: Out<*mut c_void>, stub: *const c_void) -> Result<(), cudaError_t> {
    out.check()?;
    let k = registry::kernel_of_stub(stub)?;
    crate::handles::made(k.as_raw(), crate::handles::Kind::Kernel);
    out.write(k.as_raw())
}

/// `cudaGetFuncBySymbol`: the kernel's `CUfunction` in the current context.
/// What NVIDIA's answers, measured on the H200 (two runs): a NULL output is
/// success with nothing written, and a symbol that is no kernel
/// `cudaErrorInvalidDeviceFunction`.
pub fn get_func_by_symbol(out: Out<*mut c_void>, stub: *const c_void) -> Result<(), cudaError_t> {
    if out.is_null() {
        return Ok(());
    }
    let k = registry::launch_handle(stub)?;
    let mut f = CUfunction::null();
    driver::get()?
        .cuKernelGetFunction(&mut f, k)
        .ok()
        .map_err(|_| cudaError_t::cudaErrorInvalidDeviceFunction)?;
    out.write(f.as_raw())
}

/// `cudaFuncGetName`: the registered (mangled) name of a host stub, or
/// the driver's name for a kernel handle.
pub fn func_get_name(out: Out<*const c_char>, func: *const c_void) -> Result<(), cudaError_t> {
    out.check()?;
    if let Some(k) = registry::kernel_for_stub(func) {
        return out.write(k.name().as_ptr());
    }
    let k = registry::launch_handle(func)?;
    let mut name: *const c_char = std::ptr::null();
    // A handle the driver does not know as a kernel: NVIDIA's answers
    // cudaErrorInvalidResourceHandle (the H200, two runs).
    driver::get()?
        .cuKernelGetName(&mut name, k)
        .ok()
        .map_err(|_| cudaError_t::cudaErrorInvalidResourceHandle)?;
    out.write(name)
}

/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags]`.
pub fn max_active_blocks(
    out: Out<c_int>,
    func: *const c_void,
    block: c_int,
    smem: usize,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    if flags & !1 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let k = registry::launch_handle(func)?;
    let drv = driver::get()?;
    let mut f = CUfunction::null();
    drv.cuKernelGetFunction(&mut f, k).ok()?;
    let mut n = 0;
    drv.cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&mut n, f, block, smem, flags)
        .ok()?;
    out.write(n)
}

/// `cudaLaunchKernelExC`.
#[inline(always)]
pub fn launch_ex(
    config: In<cudaLaunchConfig_t>,
    func: *const c_void,
    args: *mut *mut c_void,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let ctx = crate::context::ensure_id()?;
    let c = config.read()?;
    check_attributes(&c)?;
    let f = launch_target(func, ctx)?;
    let cfg = driver_config(&c, per_thread)?;
    driver::get()?
        .cuLaunchKernelEx(&cfg, f, args, std::ptr::null_mut())
        .ok()
}

/// A launch configuration's attribute records: present if counted.
#[inline(always)]
pub(crate) fn check_attributes(c: &cudaLaunchConfig_t) -> Result<(), cudaError_t> {
    if c.numAttrs > 0 && c.attrs.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    Ok(())
}

/// The driver's launch configuration for a runtime one (attribute records
/// share their layout, so the array is passed as it is); the shared-memory
/// size must fit the driver's `unsigned`.
#[inline(always)]
pub(crate) fn driver_config(
    c: &cudaLaunchConfig_t,
    per_thread: bool,
) -> Result<CUlaunchConfig, cudaError_t> {
    Ok(CUlaunchConfig {
        gridDimX: c.gridDim.x,
        gridDimY: c.gridDim.y,
        gridDimZ: c.gridDim.z,
        blockDimX: c.blockDim.x,
        blockDimY: c.blockDim.y,
        blockDimZ: c.blockDim.z,
        sharedMemBytes: c_uint::try_from(c.dynamicSmemBytes)
            .map_err(|_| cudaError_t::cudaErrorInvalidValue)?,
        hStream: driver_stream(c.stream, per_thread)?,
        attrs: c.attrs,
        numAttrs: c.numAttrs,
    })
}

/// The kernel handle and device for the function-attribute calls.
fn kernel_and_device(func: *const c_void) -> Result<(CUkernel, c_int), cudaError_t> {
    let k = registry::launch_handle(func)?;
    Ok((k, crate::context::current_device()))
}

/// `cudaFuncGetAttributes`.
pub fn func_get_attributes(
    out: Out<cudaFuncAttributes>,
    func: *const c_void,
) -> Result<(), cudaError_t> {
    out.check()?;
    let (k, dev) = kernel_and_device(func)?;
    let drv = driver::get()?;
    let get = |attr: c_int| -> Result<c_int, cudaError_t> {
        let mut v = 0;
        drv.cuKernelGetAttribute(&mut v, attr, k, dev).ok()?;
        Ok(v)
    };
    // CUfunction_attribute numbers.
    let mut a = cudaFuncAttributes {
        maxThreadsPerBlock: get(0)?,
        sharedSizeBytes: get(1)? as usize,
        constSizeBytes: get(2)? as usize,
        localSizeBytes: get(3)? as usize,
        numRegs: get(4)?,
        ptxVersion: get(5)?,
        binaryVersion: get(6)?,
        cacheModeCA: get(7)?,
        maxDynamicSharedSizeBytes: get(8)?,
        preferredShmemCarveout: get(9)?,
        clusterDimMustBeSet: get(10).unwrap_or(0),
        requiredClusterWidth: get(11).unwrap_or(0),
        requiredClusterHeight: get(12).unwrap_or(0),
        requiredClusterDepth: get(13).unwrap_or(0),
        nonPortableClusterSizeAllowed: get(14).unwrap_or(0),
        clusterSchedulingPolicyPreference: get(15).unwrap_or(0),
        ..Default::default()
    };
    // The 13.5 headers name the first two ints of 13.0's `reserved[16]`:
    // `deviceNodeUpdateStatus` and `sharedMemoryMode`, each the driver's
    // answer where it knows the attribute. From an older driver,
    // deviceNodeUpdateStatus is 0 and sharedMemoryMode repeats
    // maxDynamicSharedSizeBytes, as NVIDIA's 13.5 runtime answers on
    // driver 580 (measured with 49152 and 65536: docs/versions.md).
    a.reserved[0] = get(driver::CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED).unwrap_or(0);
    a.reserved[1] =
        get(driver::CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE).unwrap_or(a.maxDynamicSharedSizeBytes);
    out.write(a)
}

/// `cudaFuncSetAttribute`: `cudaFuncAttribute` values are the driver's
/// `CUfunction_attribute` numbers for the settable ones.
pub fn func_set_attribute(
    func: *const c_void,
    attr: c_int,
    value: c_int,
) -> Result<(), cudaError_t> {
    let (k, dev) = kernel_and_device(func)?;
    // cudaFuncAttributeMaxDynamicSharedMemorySize = 8 -> CU 8, PreferredSharedMemoryCarveout = 9 -> 9,
    // ClusterDimMustBeSet 10, RequiredClusterWidth.. 11-13, NonPortableClusterSizeAllowed 14,
    // ClusterSchedulingPolicyPreference 15.
    if !(8..=15).contains(&attr) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    driver::get()?
        .cuKernelSetAttribute(attr, value, k, dev)
        .ok()
}

/// `cudaFuncSetCacheConfig`: `cudaFuncCache` equals `CUfunc_cache`.
pub fn func_set_cache_config(func: *const c_void, config: c_int) -> Result<(), cudaError_t> {
    if !(0..=3).contains(&config) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let (k, dev) = kernel_and_device(func)?;
    driver::get()?.cuKernelSetCacheConfig(k, config, dev).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: u32, y: u32, z: u32) -> dim3 {
        dim3 { x, y, z }
    }

    #[test]
    fn configurations_pop_in_reverse_order_per_thread() {
        push_config(d(1, 2, 3), d(4, 5, 6), 7, 8 as cudaStream_t).unwrap();
        push_config(d(9, 1, 1), d(32, 1, 1), 0, std::ptr::null_mut()).unwrap();
        let (mut g, mut b, mut s, mut st) = (d(0, 0, 0), d(0, 0, 0), 0usize, std::ptr::null_mut());
        pop_config(Out(&mut g), Out(&mut b), Out(&mut s), Out(&mut st)).unwrap();
        assert_eq!((g.x, b.x, s, st as usize), (9, 32, 0, 0));
        // Another thread has its own stack.
        std::thread::spawn(|| {
            let (mut g, mut b, mut s, mut st) =
                (d(0, 0, 0), d(0, 0, 0), 0usize, std::ptr::null_mut());
            assert_eq!(
                pop_config(Out(&mut g), Out(&mut b), Out(&mut s), Out(&mut st)),
                Err(cudaError_t::cudaErrorMissingConfiguration)
            );
        })
        .join()
        .unwrap();
        pop_config(Out(&mut g), Out(&mut b), Out(&mut s), Out(&mut st)).unwrap();
        assert_eq!((g.x, g.y, g.z, b.z, s, st as usize), (1, 2, 3, 6, 7, 8));
    }

    #[test]
    fn per_thread_exports_map_the_null_stream() {
        assert_eq!(
            driver_stream(std::ptr::null_mut(), true),
            Ok(driver::CU_STREAM_PER_THREAD)
        );
        assert_eq!(
            driver_stream(std::ptr::null_mut(), false),
            Ok(CUstream::null())
        );
        // A stream the runtime never saw must be readable memory.
        static STREAM: u64 = 0;
        let s = std::ptr::addr_of!(STREAM) as cudaStream_t;
        assert_eq!(driver_stream(s, true), Ok(CUstream::from(s)));
        let garbage = 0x1234 as cudaStream_t;
        assert_eq!(
            driver_stream(garbage, false),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
        // A stream the runtime destroyed never reaches the driver.
        crate::handles::gone(s.cast(), crate::handles::Kind::Stream);
        assert_eq!(
            driver_stream(s, false),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
        crate::handles::made(s.cast(), crate::handles::Kind::Stream);
        assert_eq!(driver_stream(s, false), Ok(CUstream::from(s)));
    }
}
