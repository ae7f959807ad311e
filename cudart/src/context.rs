//! Contexts: which device each thread works on, the primary context each
//! device lends the runtime, and the lazy step that binds one to a thread.
//!
//! The rules (NVIDIA's documented contract, our implementation; each one
//! is a `c-samples/life_*` program run against both runtimes):
//! - A thread's runtime calls run on the driver context current on that
//!   thread. If the program made one current itself (`cuCtxCreate`,
//!   `cuCtxPushCurrent`, ...), the runtime uses it as it is and never
//!   retains or releases it.
//! - Otherwise, the first call that needs a context retains the primary
//!   context of the thread's device (device 0, the first device given to
//!   `cudaSetValidDevices`, or what `cudaSetDevice` said) once per device
//!   for the whole process, and makes it current on the calling thread with
//!   `cuCtxSetCurrent`. Calls that only need the driver (device count,
//!   properties, `cudaGetDevice`, versions) bind nothing.
//! - `cudaSetDevice` and `cudaSetDeviceFlags` bind the device's primary
//!   context at once (`cudaSetDeviceFlags` answers
//!   `cudaErrorIncompatibleDriverContext` while a context of the program's
//!   own is current); `cudaInitDevice` activates it (retain) without making
//!   it current. Pointer attributes bind nothing.
//! - `cudaDeviceReset` releases and resets the device's primary context and
//!   leaves the thread's current handle as it is (NVIDIA does too): the
//!   next call that needs a context sees the released handle and binds the
//!   primary context again (retained anew). A reset from a thread with no
//!   context current retains the primary context again at once, for the
//!   threads that still have it current. With a context of the program's
//!   own current, only the runtime's state for that context goes (the
//!   runtime keeps none: libraries are context-independent).
//! - Dead handles: the runtime notes the events and streams it creates with
//!   their context. A reset marks those of the reset context dead; a dead
//!   handle never reaches the driver again (it would use freed memory):
//!   event calls answer `cudaErrorDeviceUninitialized`, stream calls
//!   `cudaErrorInvalidResourceHandle`, as NVIDIA's runtime does (H200,
//!   driver 580).
//! - No exit handler: calls from exit handlers and static destructors work
//!   while the driver does; once the driver has shut down they get its
//!   answer (`cudaErrorCudartUnloading`). Teardown begins when the library
//!   is unloaded; the driver releases what is left.

use crate::abi::{cudaDeviceAttr, cudaDeviceProp, cudaError_t};
use crate::boundary::{In, Out};
use crate::driver::{self, CUcontext, CUdevice, CUresult, Driver};
use crate::{handles, trace};
use once_cell::sync::OnceCell;
use parking_lot::Mutex;
use std::cell::Cell;
use std::ffi::{c_int, c_uint};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU32, Ordering};

/// `cudaDeviceScheduleMask`: the three scheduling bits of the device flags.
const SCHEDULE_MASK: c_uint = 0x07;
/// `cudaDeviceMapHost`: implicit for primary contexts.
const MAP_HOST: c_uint = 0x08;
/// `cudaDeviceMask`: every device flag.
const DEVICE_MASK: c_uint = 0xff;
/// `cudaInitDeviceFlagsAreValid`.
const INIT_FLAGS_ARE_VALID: c_uint = 0x01;

/// The runtime's view of one device.
struct DeviceSlot {
    /// The primary context while the runtime holds a retain on it.
    primary: AtomicPtr<std::ffi::c_void>,
    /// The handle the last `cudaDeviceReset` (or the exit handler)
    /// released: a thread that still has it current must be bound again.
    released: AtomicPtr<std::ffi::c_void>,
    /// Serializes retain, release and reset of this device's primary context.
    lock: Mutex<()>,
    /// Flags asked for with `cudaSetDeviceFlags`/`cudaInitDevice`.
    flags: AtomicU32,
}

static DEVICES: OnceCell<Box<[DeviceSlot]>> = OnceCell::new();

/// Set once any primary context was released: only then is the "released
/// handle" check on the hot path needed.
static ANY_RESET: AtomicBool = AtomicBool::new(false);

/// Set when the runtime first retains a primary context.
static HAS_CONTEXT: AtomicBool = AtomicBool::new(false);

/// The device of threads that never called `cudaSetDevice`: 0, or the
/// first device of the `cudaSetValidDevices` list.
static DEFAULT_DEVICE: AtomicI32 = AtomicI32::new(0);

/// The `cudaSetValidDevices` list (empty: every device, in order).
static VALID_DEVICES: Mutex<Vec<c_int>> = Mutex::new(Vec::new());

thread_local! {
    /// The thread's current device for the runtime (`cudaSetDevice`);
    /// -1 until the thread sets one.
    static DEVICE: Cell<c_int> = const { Cell::new(-1) };
}

/// The number of devices the driver shows (after `cuInit`).
pub fn device_count() -> Result<c_int, cudaError_t> {
    Ok(slots()?.len() as c_int)
}

#[inline]
fn slots() -> Result<&'static [DeviceSlot], cudaError_t> {
    DEVICES
        .get_or_try_init(|| {
            let drv = driver::get()?;
            let mut n: c_int = 0;
            drv.cuDeviceGetCount(&mut n).ok()?;
            trace::event!("driver", "device count", "the driver shows {n} device(s)");
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

#[inline]
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

/// The thread's current device ordinal (no driver call): what
/// `cudaSetDevice` said, else the default device (0 unless
/// `cudaSetValidDevices` named another).
#[inline]
pub fn current_device() -> c_int {
    let d = DEVICE.with(|d| d.get());
    if d >= 0 {
        d
    } else {
        DEFAULT_DEVICE.load(Ordering::Relaxed)
    }
}

/// Checks an ordinal against the devices the driver shows.
pub fn check_device(dev: c_int) -> Result<CUdevice, cudaError_t> {
    slot(dev).map(|_| dev)
}

/// The context the calling thread's runtime calls run on, binding the
/// primary context of its device first if none is current. This is the
/// lazy initialization step every context-needing call goes through
/// (inlined into each: a driver call and two loads when bound).
#[inline(always)]
pub fn ensure() -> Result<CUcontext, cudaError_t> {
    let drv = driver::get()?;
    let mut cur = CUcontext::null();
    drv.cuCtxGetCurrent(&mut cur).ok()?;
    let stale = ANY_RESET.load(Ordering::Relaxed) && was_released(cur);
    if !cur.is_null() && !stale {
        return Ok(cur);
    }
    bind_lazily(drv)
}

/// The id of the context a launch runs in (`cuCtxGetId`: unique for the
/// process's life, where a context's handle is not: a primary context
/// reset and retained again keeps its handle), binding the primary
/// context first if none is current: [`ensure`] for launches, whose
/// function cache is keyed by it. One driver call when a context is
/// current and the runtime never released one; else [`ensure`] first.
/// `None` when this driver has no `cuCtxGetId`: the launch then takes the
/// kernel handle.
#[inline(always)]
pub fn ensure_id() -> Result<Option<u64>, cudaError_t> {
    let drv = driver::get()?;
    let mut id = 0u64;
    if !ANY_RESET.load(Ordering::Relaxed)
        && drv.cuCtxGetId(CUcontext::null(), &mut id) == CUresult::SUCCESS
    {
        return Ok(Some(id));
    }
    ensure_id_slow(drv)
}

/// [`ensure_id`] without a live current context, or after a release.
#[cold]
#[inline(never)]
fn ensure_id_slow(drv: &'static Driver) -> Result<Option<u64>, cudaError_t> {
    ensure()?;
    let mut id = 0u64;
    Ok((drv.cuCtxGetId(CUcontext::null(), &mut id) == CUresult::SUCCESS).then_some(id))
}

/// No usable context on this thread: the primary context of the thread's
/// device becomes current (retained first if the runtime holds none).
#[cold]
#[inline(never)]
fn bind_lazily(drv: &'static Driver) -> Result<CUcontext, cudaError_t> {
    crate::boundary::refused()?;
    let dev = current_device();
    trace::event!(
        "context",
        format!("lazy init: {} needs a context", crate::boundary::current_api()),
        "{} on thread {} needs a context and none is current: binding device {dev}'s primary context",
        crate::boundary::current_api(),
        trace::thread_label()
    );
    bind_primary(drv, dev)
}

fn was_released(ctx: CUcontext) -> bool {
    DEVICES.get().is_some_and(|slots| {
        slots.iter().any(|s| {
            s.released.load(Ordering::Relaxed) == ctx.as_raw()
                && s.primary.load(Ordering::Acquire) != ctx.as_raw()
        })
    })
}

/// Whether `ctx` is a primary context the runtime holds or held.
fn is_runtime_primary(ctx: CUcontext) -> bool {
    DEVICES.get().is_some_and(|slots| {
        slots.iter().any(|s| {
            s.primary.load(Ordering::Acquire) == ctx.as_raw()
                || s.released.load(Ordering::Relaxed) == ctx.as_raw()
        })
    })
}

/// Retains (once per device) the device's primary context.
fn primary(drv: &Driver, dev: c_int) -> Result<CUcontext, cudaError_t> {
    let slot = slot(dev)?;
    let ctx = slot.primary.load(Ordering::Acquire);
    if !ctx.is_null() {
        return Ok(CUcontext::from(ctx));
    }
    let _guard = slot.lock.lock();
    let ctx = slot.primary.load(Ordering::Acquire);
    if !ctx.is_null() {
        return Ok(CUcontext::from(ctx));
    }
    let span = trace::start();
    let mut ctx = CUcontext::null();
    drv.cuDevicePrimaryCtxRetain(&mut ctx, dev)
        .ok()
        .map_err(|e| {
            // A context that cannot be made because the device is still
            // recovering from a fault: NVIDIA's runtime answers "devices
            // unavailable" (measured on the H200: cudaMalloc after a fault
            // and cudaDeviceReset), not the fault's code.
            if crate::diagnose::is_fault(e) {
                cudaError_t::cudaErrorDevicesUnavailable
            } else {
                e
            }
        })?;
    trace::end!(
        span,
        "context",
        format!("retain primary context (device {dev})"),
        "cuDevicePrimaryCtxRetain: primary context {ctx:p} of device {dev} retained (triggered by {} on thread {})",
        crate::boundary::current_api(),
        trace::thread_label()
    );
    slot.primary.store(ctx.as_raw(), Ordering::Release);
    HAS_CONTEXT.store(true, Ordering::Relaxed);
    if crate::registry::eager() {
        crate::registry::load_all_eagerly();
    }
    Ok(ctx)
}

/// The primary context of `dev`, retained by the runtime if it holds
/// none yet; not made current (`cudaDeviceGetExecutionCtx`).
pub fn primary_context(dev: c_int) -> Result<CUcontext, cudaError_t> {
    crate::boundary::refused()?;
    primary(driver::get()?, dev)
}

/// Whether the runtime has retained a primary context yet (for eager
/// loading of fatbins registered afterwards).
pub fn has_context() -> bool {
    HAS_CONTEXT.load(Ordering::Relaxed)
}

/// Makes the device's primary context current on this thread.
fn bind_primary(drv: &Driver, dev: c_int) -> Result<CUcontext, cudaError_t> {
    crate::boundary::refused()?;
    let ctx = primary(drv, dev)?;
    let span = trace::start();
    drv.cuCtxSetCurrent(ctx).ok()?;
    trace::end!(
        span,
        "context",
        format!("make current (device {dev})"),
        "cuCtxSetCurrent: primary context {ctx:p} of device {dev} made current on thread {} (by {})",
        trace::thread_label(),
        crate::boundary::current_api()
    );
    Ok(ctx)
}

/// `cudaSetDevice`: since CUDA 12 this binds the device's primary context
/// to the thread at once (replacing whatever context was current).
/// To the device already bound: one driver call (`cuCtxGetCurrent`), one
/// thread-local store, no lock.
#[inline(always)]
pub fn set_device(dev: c_int) -> Result<(), cudaError_t> {
    let drv = driver::get()?;
    let slot = slot(dev)?;
    DEVICE.with(|d| d.set(dev));
    let mut cur = CUcontext::null();
    drv.cuCtxGetCurrent(&mut cur).ok()?;
    let p = slot.primary.load(Ordering::Acquire);
    if !p.is_null() && cur == CUcontext::from(p) {
        return Ok(());
    }
    bind_device(drv, dev)
}

/// [`set_device`] to a device whose primary context is not current.
#[cold]
#[inline(never)]
fn bind_device(drv: &Driver, dev: c_int) -> Result<(), cudaError_t> {
    bind_primary(drv, dev).map(|_| ())
}

/// `cudaGetDevice`.
pub fn get_device() -> Result<c_int, cudaError_t> {
    Ok(current_device())
}

/// The device whose primary context `ctx` is, if it is one (checked
/// without creating any context: an inactive primary context cannot be
/// current).
fn primary_device_of(drv: &Driver, ctx: CUcontext) -> Option<c_int> {
    let mut dev: CUdevice = -1;
    drv.cuCtxGetDevice(&mut dev, ctx).ok().ok()?;
    let (mut flags, mut active) = (0, 0);
    drv.cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active)
        .ok()
        .ok()?;
    if active == 0 {
        return None;
    }
    let mut p = CUcontext::null();
    drv.cuDevicePrimaryCtxRetain(&mut p, dev).ok().ok()?;
    let _ = drv.cuDevicePrimaryCtxRelease(dev);
    (p == ctx).then_some(dev)
}

/// `cudaDeviceReset`: releases and resets the current device's primary
/// context. Allocations, streams and events of it are gone; registered
/// kernels load again lazily into the next context. With a non-primary
/// context of the program's own current, only the runtime's state for
/// that context is dropped (documented; we keep none) and nothing is reset.
pub fn reset_device() -> Result<(), cudaError_t> {
    let drv = driver::get()?;
    let mut cur = CUcontext::null();
    let _ = drv.cuCtxGetCurrent(&mut cur);
    if ANY_RESET.load(Ordering::Relaxed) && was_released(cur) {
        // A handle an earlier reset released: as good as none.
        cur = CUcontext::null();
    }
    let mut dev = current_device();
    if !cur.is_null() && !is_runtime_primary(cur) {
        match primary_device_of(drv, cur) {
            Some(d) => dev = d,
            None => {
                trace::event!(
                    "context",
                    "cudaDeviceReset (own context)",
                    "cudaDeviceReset with the program's own context {cur:p} current: only the runtime's state for it is dropped; no primary context is reset"
                );
                return Ok(());
            }
        }
    }
    let slot = slot(dev)?;
    let span = trace::start();
    let _guard = slot.lock.lock();
    let ctx = slot.primary.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if ctx.is_null() && cur.is_null() {
        trace::end!(
            span,
            "context",
            format!("cudaDeviceReset (device {dev})"),
            "cudaDeviceReset on device {dev}: no primary context held, nothing to do"
        );
        return Ok(());
    }
    if cur == CUcontext::from(ctx) || ctx.is_null() {
        let _ = drv.cuCtxSynchronize(CUcontext::null());
    }
    crate::registry::before_context_reset(ctx);
    if !ctx.is_null() {
        slot.released.store(ctx, Ordering::Relaxed);
        ANY_RESET.store(true, Ordering::Relaxed);
        handles::die_with(ctx);
        // After a device fault the release reports the fault too; the reset
        // must happen regardless, so the release's status is not an answer.
        let _ = drv.cuDevicePrimaryCtxRelease(dev);
    } else if !cur.is_null() {
        handles::die_with(cur.as_raw());
    }
    let r = drv.cuDevicePrimaryCtxReset(dev);
    // The thread keeps its current handle (now released): the next call
    // that needs a context binds the primary context again.
    crate::error::clear_sticky();
    crate::diagnose::after_reset();
    if cur.is_null() && !ctx.is_null() && r == driver::CUresult::SUCCESS {
        // A reset from a thread with nothing current: other threads still
        // have the primary context current, and NVIDIA's runtime activates
        // it again at once (measured: "primary active" after it).
        drop(_guard);
        let _ = primary(drv, dev);
    }
    trace::end!(
        span,
        "context",
        format!("cudaDeviceReset (device {dev})"),
        "cudaDeviceReset: primary context {ctx:p} of device {dev} released and reset (thread {}); the next call that needs it retains it again",
        trace::thread_label()
    );
    r.ok()
}

/// After a call failed with "context is destroyed": whether the context
/// current on this thread is the runtime's primary context, released to
/// nothing by someone else (the program called `cuDevicePrimaryCtxRelease`
/// once more than it retained). If so the runtime forgets it, as after a
/// reset, so the next call retains the primary context again.
#[cold]
pub fn primary_taken_away() -> bool {
    let Ok(drv) = driver::get() else {
        return false;
    };
    let mut cur = CUcontext::null();
    if drv.cuCtxGetCurrent(&mut cur).ok().is_err() || cur.is_null() {
        return false;
    }
    let Some(slots) = DEVICES.get() else {
        return false;
    };
    for (dev, slot) in slots.iter().enumerate() {
        if slot.primary.load(Ordering::Acquire) != cur.as_raw() {
            continue;
        }
        let (mut flags, mut active) = (0, 0);
        if drv
            .cuDevicePrimaryCtxGetState(dev as c_int, &mut flags, &mut active)
            .ok()
            .is_err()
            || active != 0
        {
            return false;
        }
        let _guard = slot.lock.lock();
        if slot
            .primary
            .compare_exchange(
                cur.as_raw(),
                std::ptr::null_mut(),
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_err()
        {
            return true; // another thread saw it first
        }
        slot.released.store(cur.as_raw(), Ordering::Relaxed);
        ANY_RESET.store(true, Ordering::Relaxed);
        handles::die_with(cur.as_raw());
        trace::event!(
            "context",
            "primary context taken away",
            "device {dev}'s primary context {cur:p} is inactive: the program released the runtime's reference; it is retained again by the next call"
        );
        return true;
    }
    false
}

/// For the event room: an event whose context a reset destroyed answers
/// `cudaErrorDeviceUninitialized`, one destroyed through the runtime
/// `cudaErrorInvalidResourceHandle`, without reaching the driver.
/// A handle the runtime never saw must be readable memory
/// ([`handles::unreadable`]); NULL goes on to the driver, which answers it.
#[inline]
pub fn check_event(event: *mut std::ffi::c_void) -> Result<(), cudaError_t> {
    if handles::died_with_context(event) {
        return Err(cudaError_t::cudaErrorDeviceUninitialized);
    }
    match handles::state(event) {
        Some(handles::State::Gone(handles::Kind::Event)) if handles::record_stands() => {
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        }
        None if !event.is_null() && handles::unreadable(event) => {
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        }
        _ => Ok(()),
    }
}

/// For the stream room and launches: a stream whose context a reset
/// destroyed, or one destroyed through the runtime, answers
/// `cudaErrorInvalidResourceHandle` without reaching the driver.
/// A handle the runtime never saw must be readable memory
/// ([`handles::unreadable`]); the null, legacy (1) and per-thread (2)
/// streams are the driver's own.
#[inline]
pub fn check_stream(stream: *mut std::ffi::c_void) -> Result<(), cudaError_t> {
    if handles::died_with_context(stream) {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    match handles::state(stream) {
        Some(handles::State::Gone(handles::Kind::Stream)) if handles::record_stands() => {
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        }
        None if stream as usize > 2 && handles::unreadable(stream) => {
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        }
        _ => Ok(()),
    }
}

/// `cudaGetDeviceCount`: once the runtime has counted the devices, the
/// count is answered in every phase (at teardown and in a forked child
/// too, as NVIDIA's does); before that the call needs the driver.
pub fn count_devices(out: Out<c_int>) -> Result<(), cudaError_t> {
    // The pointer is checked when written, after the driver loaded: with no
    // driver NVIDIA's answers cudaErrorInsufficientDriver even for NULL
    // (the differential harness, null-outs mode).
    if let Some(slots) = DEVICES.get() {
        return out.write(slots.len() as c_int);
    }
    crate::boundary::refused()?;
    driver::get()?;
    out.write(device_count()?)
}

/// Checks device flags as `cudaSetDeviceFlags` takes them: within
/// `cudaDeviceMask`, and at most one scheduling policy.
fn check_flags(flags: c_uint) -> Result<(), cudaError_t> {
    let schedule = flags & SCHEDULE_MASK;
    if flags & !DEVICE_MASK != 0 || !matches!(schedule, 0 | 1 | 2 | 4) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    Ok(())
}

/// Records `flags` on the device's primary context (the driver applies
/// them to the active context, or at its next activation).
fn apply_flags(drv: &Driver, dev: c_int, flags: c_uint) -> Result<(), cudaError_t> {
    let slot = slot(dev)?;
    // Host mapping is always on for primary contexts; the driver does not
    // need to hear about it.
    drv.cuDevicePrimaryCtxSetFlags(dev, flags & !MAP_HOST)
        .ok()?;
    slot.flags.store(flags, Ordering::Relaxed);
    trace::event!(
        "context",
        format!("device flags 0x{flags:x} (device {dev})"),
        "{}: flags 0x{flags:x} set on device {dev}'s primary context",
        crate::boundary::current_api()
    );
    Ok(())
}

/// `cudaSetDeviceFlags`: sets the current device's primary-context flags
/// and binds the primary context to the calling thread (retained, active,
/// current), as NVIDIA's does. With a context of the program's own current
/// the flags cannot apply: `cudaErrorIncompatibleDriverContext`, nothing
/// changes.
pub fn set_device_flags(flags: c_uint) -> Result<(), cudaError_t> {
    check_flags(flags)?;
    let drv = driver::get()?;
    let mut cur = CUcontext::null();
    let _ = drv.cuCtxGetCurrent(&mut cur);
    if !cur.is_null() && !is_runtime_primary(cur) && primary_device_of(drv, cur).is_none() {
        return Err(cudaError_t::cudaErrorIncompatibleDriverContext);
    }
    let dev = current_device();
    apply_flags(drv, dev, flags)?;
    bind_primary(drv, dev).map(|_| ())
}

/// `cudaGetDeviceFlags`: the flags of the program's own context when one
/// is current; else the current device's primary-context flags, with
/// `cudaDeviceMapHost`, which primary contexts always have.
pub fn get_device_flags() -> Result<c_uint, cudaError_t> {
    let drv = driver::get()?;
    let mut cur = CUcontext::null();
    let _ = drv.cuCtxGetCurrent(&mut cur);
    if !cur.is_null() && !is_runtime_primary(cur) && primary_device_of(drv, cur).is_none() {
        let mut flags: c_uint = 0;
        drv.cuCtxGetFlags(&mut flags).ok()?;
        return Ok(flags);
    }
    let dev = current_device();
    check_device(dev)?;
    let mut flags: c_uint = 0;
    let mut active: c_int = 0;
    drv.cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active)
        .ok()?;
    Ok(flags | MAP_HOST)
}

/// `cudaInitDevice`: initializes `dev` (retains its primary context, with
/// `device_flags` applied first when `flags` says they are valid) without
/// making it current or changing the thread's device. Other bits of
/// `flags` are ignored (NVIDIA's answers `cudaInitDevice(0, 0, 2)` with
/// success, measured on the H200).
pub fn init_device(dev: c_int, device_flags: c_uint, flags: c_uint) -> Result<(), cudaError_t> {
    let drv = driver::get()?;
    check_device(dev)?;
    if flags & INIT_FLAGS_ARE_VALID != 0 {
        check_flags(device_flags)?;
        apply_flags(drv, dev, device_flags)?;
    }
    primary(drv, dev).map(|_| ())
}

/// `cudaSetValidDevices`: the devices a thread that never called
/// `cudaSetDevice` may use, in order of preference; `len` 0 clears the
/// list. The first device of the list becomes the default device.
pub fn set_valid_devices(list: *const c_int, len: c_int) -> Result<(), cudaError_t> {
    if len < 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    if len == 0 {
        VALID_DEVICES.lock().clear();
        DEFAULT_DEVICE.store(0, Ordering::Relaxed);
        return Ok(());
    }
    let n = device_count()?;
    if list.is_null() || len > n {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut devices = Vec::with_capacity(len as usize);
    for i in 0..len as usize {
        let d = In(list.wrapping_add(i)).read()?;
        if !(0..n).contains(&d) {
            return Err(cudaError_t::cudaErrorInvalidDevice);
        }
        devices.push(d);
    }
    DEFAULT_DEVICE.store(devices[0], Ordering::Relaxed);
    *VALID_DEVICES.lock() = devices;
    Ok(())
}

/// `cudaChooseDevice`: the device that best matches `prop`. A device
/// scores for a compute capability at least the one asked for (more for
/// the exact one), at least the global memory and the multiprocessors
/// asked for; the highest score wins, the lowest ordinal among equals.
/// Only devices of the `cudaSetValidDevices` list compete when it is set.
pub fn choose_device(out: Out<c_int>, prop: In<cudaDeviceProp>) -> Result<(), cudaError_t> {
    out.check()?;
    let want = prop.read()?;
    let drv = driver::get()?;
    let n = device_count()?;
    if n == 0 {
        return Err(cudaError_t::cudaErrorNoDevice);
    }
    let valid = VALID_DEVICES.lock().clone();
    let candidates: Vec<c_int> = if valid.is_empty() {
        (0..n).collect()
    } else {
        valid
    };
    let attr = |a: cudaDeviceAttr, d: c_int| -> Result<c_int, cudaError_t> {
        let mut v = 0;
        drv.cuDeviceGetAttribute(&mut v, a.0 as c_int, d).ok()?;
        Ok(v)
    };
    let mut best: Option<(u32, c_int)> = None;
    for d in candidates {
        let cc = (
            attr(cudaDeviceAttr::cudaDevAttrComputeCapabilityMajor, d)?,
            attr(cudaDeviceAttr::cudaDevAttrComputeCapabilityMinor, d)?,
        );
        let sms = attr(cudaDeviceAttr::cudaDevAttrMultiProcessorCount, d)?;
        let mut mem = 0usize;
        drv.cuDeviceTotalMem(&mut mem, d).ok()?;
        let asked = (want.major, want.minor);
        let score = 8 * u32::from(cc >= asked)
            + 4 * u32::from(cc == asked)
            + 2 * u32::from(mem >= want.totalGlobalMem)
            + u32::from(sms >= want.multiProcessorCount);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, d));
        }
    }
    out.write(best.map_or(0, |(_, d)| d))
}

/// `cudaDeviceSynchronize`.
pub fn synchronize() -> Result<(), cudaError_t> {
    driver::get()?.cuCtxSynchronize(CUcontext::null()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_flags_are_checked() {
        for ok in [0, 1, 2, 4, 0x08, 0x10, 0x80, 0x1c, 0xf8] {
            assert_eq!(check_flags(ok), Ok(()), "{ok:#x}");
        }
        for bad in [3, 5, 6, 7, 0x100, 0x8000_0000] {
            assert_eq!(
                check_flags(bad),
                Err(cudaError_t::cudaErrorInvalidValue),
                "{bad:#x}"
            );
        }
    }

    #[test]
    fn threads_start_on_the_default_device() {
        assert_eq!(current_device(), 0);
        std::thread::spawn(|| {
            DEVICE.with(|d| d.set(3));
            assert_eq!(current_device(), 3);
        })
        .join()
        .unwrap();
        std::thread::spawn(|| assert_eq!(current_device(), 0))
            .join()
            .unwrap();
    }
}
