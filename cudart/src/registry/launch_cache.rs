//! The launch cache: per thread, launch handle (host stub or kernel
//! handle) -> driver kernel and its `CUfunction` in one context, and the
//! launch entry points that read it ([`launch_handle`], [`launch_function`]);
//! misses go to the registry ([`super::kernel_for_stub`]).

use super::kernel_for_stub;
use super::kernel_handles::RESOLVED;
use crate::abi::cudaError_t;
use crate::addrmap::{mix, AddrMap};
use crate::driver::{self, CUfunction, CUkernel};
use once_cell::sync::Lazy;
use parking_lot::Mutex;
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bumped whenever records go away, so thread-local caches drop theirs.
pub(super) static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Sets of the thread-local launch cache (two entries each).
const CACHE_SETS: usize = 64;

/// One entry of the launch cache: what a launch handle resolved to, and
/// the kernel's function in the context it last launched in.
#[derive(Copy, Clone)]
struct Slot {
    /// The launch handle (host stub or kernel handle); 0: empty.
    key: usize,
    /// The driver kernel (`CUkernel`).
    kernel: usize,
    /// The id of the context `func` belongs to (`cuCtxGetId`); 0: none;
    /// [`UNKNOWN`]: `kernel` is no kernel handle the driver gave.
    ctx: u64,
    /// The kernel's `CUfunction` in that context.
    func: usize,
}

/// [`Slot::ctx`] of a handle that is neither a registered stub's kernel
/// nor a kernel handle the driver gave (the registry resolved it, or the
/// runtime handed it out): the driver is never asked for its function,
/// and it goes to `cuLaunchKernel` as it came, as before. Not a context
/// id (the driver counts them up from 1). Kept in `ctx`, not a field of
/// its own: a larger entry costs the launch's look-up 9 instructions.
const UNKNOWN: u64 = u64::MAX;

impl Slot {
    /// The driver kernel the entry holds.
    #[inline(always)]
    fn kernel(&self) -> CUkernel {
        CUkernel::from(self.kernel as *mut c_void)
    }
}

const EMPTY: Slot = Slot {
    key: 0,
    kernel: 0,
    ctx: 0,
    func: 0,
};

/// Launch handle (host stub or kernel handle) -> driver kernel and its
/// function in one context, per thread: 64 sets of 2, no destructor
/// (launches from exit handlers and static destructors use it too),
/// emptied when [`GENERATION`] moves.
struct LaunchCache {
    generation: Cell<u64>,
    sets: [[Cell<Slot>; 2]; CACHE_SETS],
}

impl LaunchCache {
    #[inline(always)]
    fn set_of(&self, key: usize) -> &[Cell<Slot>; 2] {
        &self.sets[(mix(key as u64) >> (64 - CACHE_SETS.trailing_zeros())) as usize]
    }

    #[inline(always)]
    fn get(&self, key: usize, generation: u64) -> Option<Slot> {
        if self.generation.get() != generation {
            return None;
        }
        let set = self.set_of(key);
        let s0 = set[0].get();
        if s0.key == key {
            return Some(s0);
        }
        let s1 = set[1].get();
        (s1.key == key).then_some(s1)
    }

    fn insert(&self, slot: Slot, generation: u64) {
        if self.generation.get() != generation {
            for set in &self.sets {
                set[0].set(EMPTY);
                set[1].set(EMPTY);
            }
            self.generation.set(generation);
        }
        let set = self.set_of(slot.key);
        if set[0].get().key != slot.key {
            set[1].set(set[0].get());
        }
        set[0].set(slot);
    }
}

thread_local! {
    static LAUNCH_CACHE: LaunchCache = const {
        LaunchCache {
            generation: Cell::new(0),
            sets: [const { [const { Cell::new(EMPTY) }; 2] }; CACHE_SETS],
        }
    };
}

/// The kernel behind each function a launch resolved (`CUfunction` ->
/// `CUkernel`): a kernel node captured from a launch holds the function,
/// and its parameters report the host stub (see
/// [`stub_for_kernel`](super::stub_for_kernel)).
/// Emptied with the launch caches.
pub(super) static FUNCTIONS: Lazy<Mutex<AddrMap<usize>>> = Lazy::new(Default::default);

/// The driver kernel to launch for what a program hands over: a host stub
/// (registered), or a kernel handle (`__cudaGetKernel`, `cudaGetKernel`,
/// `cudaLibraryGetKernel`) passed through to the driver as it is. The
/// thread's launch cache answers after the first time: one atomic load,
/// one multiply, one or two compares.
#[inline]
pub fn launch_handle(h: *const c_void) -> Result<CUkernel, cudaError_t> {
    if h.is_null() {
        return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
    }
    let generation = GENERATION.load(Ordering::Acquire);
    let key = h as usize;
    if let Some(s) = LAUNCH_CACHE.with(|c| c.get(key, generation)) {
        return Ok(s.kernel());
    }
    launch_handle_miss(key, generation).map(|s| s.kernel())
}

/// What a launch hands to `cuLaunchKernel` in the context with id `ctx`
/// ([`crate::context::ensure_id`]): the kernel's `CUfunction` there. The
/// driver resolves a `CUkernel` to the current context's function on
/// every launch (60-80 ns on the H200, `bench/experiments/
/// kernel_vs_function.cu`); the thread's launch cache does it once per
/// kernel and context. Context ids are never reused, so a function of a
/// destroyed context is never found again; library unloads empty the
/// caches ([`GENERATION`]). Where the driver gives no function the kernel
/// is launched as before, and the driver answers.
#[inline]
pub fn launch_function(h: *const c_void, ctx: u64) -> Result<CUfunction, cudaError_t> {
    if h.is_null() {
        return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
    }
    let generation = GENERATION.load(Ordering::Acquire);
    let key = h as usize;
    let slot = match LAUNCH_CACHE.with(|c| c.get(key, generation)) {
        Some(s) if s.ctx == ctx && s.func != 0 => {
            return Ok(CUfunction::from(s.func as *mut c_void))
        }
        Some(s) => s,
        None => launch_handle_miss(key, generation)?,
    };
    if slot.ctx == UNKNOWN {
        return Ok(CUfunction::of_kernel(slot.kernel()));
    }
    Ok(function_miss(slot, ctx, generation))
}

/// The kernel behind what a launch handed the driver (a function from
/// [`launch_function`], or the kernel itself): for the calls that take a
/// kernel, such as the diagnostics' attribute queries after a failure.
pub fn kernel_of_launched(f: CUfunction) -> CUkernel {
    let kernel = FUNCTIONS.lock().get(&(f.as_raw() as usize)).copied();
    // Not a function a launch resolved: the kernel itself went to the
    // driver in its place (`CUfunction::of_kernel`).
    CUkernel::from(kernel.map_or(f.as_raw(), |k| k as *mut c_void))
}

/// Kernel handles went away outside the registry (`cudaLibraryUnload`):
/// the threads' launch caches drop what they resolved.
pub fn kernels_went_away() {
    GENERATION.fetch_add(1, Ordering::Release);
    FUNCTIONS.lock().clear();
}

/// [`launch_handle`] on a miss: the registry, then the cache. The
/// generation is the one read before the look-up, so records that went
/// away meanwhile empty the cache at the next launch.
#[cold]
#[inline(never)]
fn launch_handle_miss(key: usize, generation: u64) -> Result<Slot, cudaError_t> {
    let (k, known) = match kernel_for_stub(key as *const c_void) {
        Some(kernel) => (kernel.handle()?, true),
        // A kernel of a library unloaded through the runtime, or a live
        // library passed as a kernel, is refused (the driver crashed on
        // both under NVIDIA's runtime on the H200).
        None => {
            use crate::handles::{self, Kind, State};
            handles::check(key as *const c_void, Kind::Kernel)?;
            let known = RESOLVED.read().contains(&key)
                || handles::state(key as *const c_void) == Some(State::Live(Kind::Kernel));
            (CUkernel::from(key as *mut c_void), known)
        }
    };
    let slot = Slot {
        key,
        kernel: k.as_raw() as usize,
        ctx: if known { 0 } else { UNKNOWN },
        ..EMPTY
    };
    LAUNCH_CACHE.with(|c| c.insert(slot, generation));
    Ok(slot)
}

/// [`launch_function`] for a kernel not yet resolved in context `ctx` on
/// this thread: `cuKernelGetFunction` (which loads the kernel's module
/// into the context if it is not there yet), then the cache. If the
/// driver gives no function, the kernel itself, uncached: its launch
/// then fails (or succeeds) as the driver decides, as before.
#[cold]
#[inline(never)]
fn function_miss(slot: Slot, ctx: u64, generation: u64) -> CUfunction {
    let kernel = slot.kernel();
    let Ok(drv) = driver::get() else {
        return CUfunction::of_kernel(kernel);
    };
    let mut f = CUfunction::null();
    if drv.cuKernelGetFunction(&mut f, kernel) != driver::CUresult::SUCCESS || f.is_null() {
        return CUfunction::of_kernel(kernel);
    }
    let func = f.as_raw() as usize;
    FUNCTIONS.lock().insert(func, slot.kernel);
    LAUNCH_CACHE.with(|c| c.insert(Slot { ctx, func, ..slot }, generation));
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launch_cache_keeps_two_per_set_and_empties_on_a_new_generation() {
        let c = LaunchCache {
            generation: Cell::new(0),
            sets: [const { [const { Cell::new(EMPTY) }; 2] }; CACHE_SETS],
        };
        let slot = |key: usize, kernel: usize| Slot {
            key,
            kernel,
            ..EMPTY
        };
        let kernel = |s: Option<Slot>| s.map(|s| s.kernel);
        // Keys of one set.
        let set = |k: usize| (mix(k as u64) >> (64 - CACHE_SETS.trailing_zeros())) as usize;
        let mut same = (1usize..).filter(|&k| set(k) == set(1));
        let (k1, k2, k3) = (
            same.next().unwrap(),
            same.next().unwrap(),
            same.next().unwrap(),
        );
        c.insert(slot(k1, 11), 5);
        c.insert(slot(k2, 22), 5);
        assert_eq!(
            (kernel(c.get(k1, 5)), kernel(c.get(k2, 5))),
            (Some(11), Some(22))
        );
        c.insert(slot(k3, 33), 5);
        assert_eq!(
            (
                kernel(c.get(k1, 5)),
                kernel(c.get(k2, 5)),
                kernel(c.get(k3, 5))
            ),
            (None, Some(22), Some(33))
        );
        assert!(c.get(k3, 6).is_none(), "another generation misses");
        c.insert(slot(k1, 11), 6);
        assert_eq!(
            (kernel(c.get(k1, 6)), kernel(c.get(k3, 6))),
            (Some(11), None)
        );
        // A function for a context replaces the key's entry in place.
        c.insert(
            Slot {
                ctx: 7,
                func: 0x77,
                ..slot(k1, 11)
            },
            6,
        );
        let s = c.get(k1, 6).unwrap();
        assert_eq!((s.kernel, s.ctx, s.func), (11, 7, 0x77));
    }
}
