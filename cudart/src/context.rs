//! Contexts: which device each thread works on, the primary context each
//! device lends the runtime, and the lazy step that binds one to a thread.
//!
//! The rule (NVIDIA's documented contract, our implementation):
//! - A thread's runtime calls run on the driver context current on that
//!   thread. If the program made one current itself (`cuCtxCreate`,
//!   `cuCtxPushCurrent`, ...), the runtime uses it as it is and never
//!   retains or releases it.
//! - Otherwise, the first call that needs a context retains the primary
//!   context of the thread's device (device 0 unless `cudaSetDevice` said
//!   otherwise) once per device for the whole process, and makes it current
//!   on the calling thread with `cuCtxSetCurrent`.
//! - `cudaDeviceReset` releases and resets the device's primary context; the
//!   next call that needs it retains it again.

use crate::abi::cudaError_t;
use crate::driver::{self, CUcontext, CUdevice, Driver};
use once_cell::sync::OnceCell;
use parking_lot::Mutex;
use std::cell::Cell;
use std::ffi::{c_int, c_uint};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

/// The runtime's view of one device.
struct DeviceSlot {
    /// The primary context while the runtime holds a retain on it.
    primary: AtomicPtr<std::ffi::c_void>,
    /// The handle the last `cudaDeviceReset` released: a thread that still
    /// has it current must be bound again.
    released: AtomicPtr<std::ffi::c_void>,
    /// Serializes retain, release and reset of this device's primary context.
    lock: Mutex<()>,
    /// Flags asked for with `cudaSetDeviceFlags` (for `cudaGetDeviceFlags`).
    flags: AtomicU32,
}

static DEVICES: OnceCell<Box<[DeviceSlot]>> = OnceCell::new();

/// Set once any device was reset: only then is the "released handle" check
/// on the hot path needed.
static ANY_RESET: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The thread's current device for the runtime (`cudaSetDevice`).
    static DEVICE: Cell<c_int> = const { Cell::new(0) };
}

/// The number of devices the driver shows (after `cuInit`).
pub fn device_count() -> Result<c_int, cudaError_t> {
    Ok(slots()?.len() as c_int)
}

fn slots() -> Result<&'static [DeviceSlot], cudaError_t> {
    DEVICES
        .get_or_try_init(|| {
            let drv = driver::get()?;
            let mut n: c_int = 0;
            drv.cuDeviceGetCount(&mut n).ok()?;
            log::info!(target: "cudart::lifecycle", "devices: the driver shows {n}");
            Ok((0..n.max(0))
                .map(|_| DeviceSlot {
                    primary: AtomicPtr::new(std::ptr::null_mut()),
                    released: AtomicPtr::new(std::ptr::null_mut()),
                    lock: Mutex::new(()),
                    flags: AtomicU32::new(0),
                })
                .collect())
        })
        .map(|b| &**b)
}

fn slot(dev: c_int) -> Result<&'static DeviceSlot, cudaError_t> {
    let slots = slots()?;
    if slots.is_empty() {
        return Err(cudaError_t::cudaErrorNoDevice);
    }
    usize::try_from(dev)
        .ok()
        .and_then(|i| slots.get(i))
        .ok_or(cudaError_t::cudaErrorInvalidDevice)
}

/// The thread's current device ordinal (no driver call).
#[inline]
pub fn current_device() -> c_int {
    DEVICE.with(|d| d.get())
}

/// Checks an ordinal against the devices the driver shows.
pub fn check_device(dev: c_int) -> Result<CUdevice, cudaError_t> {
    slot(dev).map(|_| dev)
}

/// The context the calling thread's runtime calls run on, binding the
/// primary context of its device first if none is current. This is the
/// lazy initialization step every context-needing call goes through.
#[inline]
pub fn ensure() -> Result<CUcontext, cudaError_t> {
    let drv = driver::get()?;
    let mut cur: CUcontext = std::ptr::null_mut();
    drv.cuCtxGetCurrent(&mut cur).ok()?;
    let stale = ANY_RESET.load(Ordering::Relaxed) && was_released(cur);
    if !cur.is_null() && !stale {
        return Ok(cur);
    }
    bind_primary(drv, current_device())
}

fn was_released(ctx: CUcontext) -> bool {
    DEVICES.get().is_some_and(|slots| {
        slots.iter().any(|s| {
            s.released.load(Ordering::Relaxed) == ctx && s.primary.load(Ordering::Acquire) != ctx
        })
    })
}

/// Retains (once per device) the device's primary context.
fn primary(drv: &Driver, dev: c_int) -> Result<CUcontext, cudaError_t> {
    let slot = slot(dev)?;
    let ctx = slot.primary.load(Ordering::Acquire);
    if !ctx.is_null() {
        return Ok(ctx);
    }
    let _guard = slot.lock.lock();
    let ctx = slot.primary.load(Ordering::Acquire);
    if !ctx.is_null() {
        return Ok(ctx);
    }
    let mut ctx: CUcontext = std::ptr::null_mut();
    drv.cuDevicePrimaryCtxRetain(&mut ctx, dev).ok()?;
    log::info!(
        target: "cudart::lifecycle",
        "context: retained primary context {ctx:p} of device {dev} (triggered by {} on thread {})",
        crate::boundary::current_api(),
        crate::trace::thread_label()
    );
    slot.primary.store(ctx, Ordering::Release);
    Ok(ctx)
}

/// Makes the device's primary context current on this thread.
fn bind_primary(drv: &Driver, dev: c_int) -> Result<CUcontext, cudaError_t> {
    let ctx = primary(drv, dev)?;
    drv.cuCtxSetCurrent(ctx).ok()?;
    log::info!(
        target: "cudart::lifecycle",
        "context: primary context {ctx:p} of device {dev} made current on thread {} (by {})",
        crate::trace::thread_label(),
        crate::boundary::current_api()
    );
    Ok(ctx)
}

/// `cudaSetDevice`: since CUDA 12 this binds the device's primary context
/// to the thread at once.
pub fn set_device(dev: c_int) -> Result<(), cudaError_t> {
    let drv = driver::get()?;
    check_device(dev)?;
    DEVICE.with(|d| d.set(dev));
    let mut cur: CUcontext = std::ptr::null_mut();
    drv.cuCtxGetCurrent(&mut cur).ok()?;
    let slot = slot(dev)?;
    let p = slot.primary.load(Ordering::Acquire);
    if !p.is_null() && cur == p {
        return Ok(());
    }
    bind_primary(drv, dev).map(|_| ())
}

/// `cudaGetDevice`.
pub fn get_device() -> Result<c_int, cudaError_t> {
    Ok(current_device())
}

/// `cudaDeviceReset`: releases and resets the current device's primary
/// context. Allocations, streams and events of it are gone; registered
/// kernels load again lazily into the next context.
pub fn reset_device() -> Result<(), cudaError_t> {
    let drv = driver::get()?;
    let dev = current_device();
    let slot = slot(dev)?;
    let _guard = slot.lock.lock();
    let ctx = slot.primary.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if ctx.is_null() {
        log::info!(target: "cudart::lifecycle", "context: cudaDeviceReset on device {dev}: no primary context held, nothing to do");
        return Ok(());
    }
    let mut cur: CUcontext = std::ptr::null_mut();
    let _ = drv.cuCtxGetCurrent(&mut cur);
    if cur == ctx {
        let _ = drv.cuCtxSynchronize(std::ptr::null_mut());
    }
    crate::registry::before_context_reset(ctx);
    slot.released.store(ctx, Ordering::Relaxed);
    ANY_RESET.store(true, Ordering::Relaxed);
    // After a device fault the release reports the fault too; the reset
    // must happen regardless, so the release's status is not an answer.
    let _ = drv.cuDevicePrimaryCtxRelease(dev);
    let r = drv.cuDevicePrimaryCtxReset(dev);
    if cur == ctx {
        let _ = drv.cuCtxSetCurrent(std::ptr::null_mut());
    }
    crate::error::clear_sticky();
    log::info!(
        target: "cudart::lifecycle",
        "context: cudaDeviceReset released and reset primary context {ctx:p} of device {dev} (thread {})",
        crate::trace::thread_label()
    );
    r.ok()
}

/// `cudaSetDeviceFlags`: records the flags on the device's primary context
/// (the driver keeps them for its next activation).
pub fn set_device_flags(flags: c_uint) -> Result<(), cudaError_t> {
    const SCHEDULE_MASK: c_uint = 0x07;
    const KNOWN: c_uint = SCHEDULE_MASK | 0x08 | 0x10 | 0x20;
    if flags & !KNOWN != 0
        || (flags & SCHEDULE_MASK).count_ones() > 1 && flags & SCHEDULE_MASK != 0x04
    {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let drv = driver::get()?;
    let dev = current_device();
    let slot = slot(dev)?;
    // cudaDeviceMapHost is always on for the driver's primary contexts.
    let driver_flags = flags & !0x08;
    drv.cuDevicePrimaryCtxSetFlags(dev, driver_flags).ok()?;
    slot.flags.store(flags, Ordering::Relaxed);
    bind_primary(drv, dev).map(|_| ())
}

/// `cudaGetDeviceFlags`: the current device's primary-context flags.
pub fn get_device_flags() -> Result<c_uint, cudaError_t> {
    let drv = driver::get()?;
    let dev = current_device();
    check_device(dev)?;
    let mut flags: c_uint = 0;
    let mut active: c_int = 0;
    drv.cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active)
        .ok()?;
    // The runtime always reports host mapping, which primary contexts have.
    Ok(flags | 0x08)
}

/// `cudaDeviceSynchronize`.
pub fn synchronize() -> Result<(), cudaError_t> {
    driver::get()?.cuCtxSynchronize(std::ptr::null_mut()).ok()
}
