//! GPU time of single pieces of work (a kernel, a copy), measured as NVIDIA
//! documents for programs: a pair of events recorded on the work's stream
//! before and after it, read once the second is done. The runtime records
//! them only while the profile is on, from a pool of events per context,
//! and reads them later ([`settle`]), so the host never waits for them
//! except at exit and before a reset.
//!
//! No events are recorded while a stream capture is under way in the
//! process: an event recorded into a capturing stream would become a node
//! of the program's graph.
//!
//! Each context also gets one reference event, waited for once when it is
//! recorded, which ties GPU times to the host's clock (for the trace's GPU
//! track).

use crate::driver::{self, CUcontext, CUevent, CUresult, CUstream};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::time::Instant;

/// A piece of work being timed: its two events and their context.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Timing {
    start: usize,
    end: usize,
    ctx: usize,
}

/// A timed piece of work, done: what the caller tagged it with, its GPU
/// time, and when it started on the host's clock (if known).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Done {
    pub(crate) tag: u64,
    pub(crate) ms: f32,
    pub(crate) started: Option<Instant>,
}

struct Pending {
    tag: u64,
    t: Timing,
}

/// A context's reference event and the host time at which it was done.
struct Reference {
    event: usize,
    at: Instant,
}

#[derive(Default)]
struct Clock {
    free: HashMap<usize, Vec<usize>>,
    pending: Vec<Pending>,
    references: HashMap<usize, Reference>,
    done: Vec<Done>,
    /// Pending work at which [`finish`] next reads what is done.
    settle_at: usize,
}

static CLOCK: Mutex<Option<Clock>> = Mutex::new(None);

/// Work waiting to be read beyond which [`finish`] reads what is done.
const SETTLE_AT: usize = 512;
/// Work waiting beyond which no more is timed until some is read.
const MOST_PENDING: usize = 1 << 16;

fn with<T>(f: impl FnOnce(&mut Clock) -> T) -> T {
    f(CLOCK.lock().get_or_insert_with(Default::default))
}

fn event(drv: &driver::Driver, clock: &mut Clock, ctx: usize) -> Option<usize> {
    if let Some(e) = clock.free.get_mut(&ctx).and_then(|v| v.pop()) {
        return Some(e);
    }
    let mut e = CUevent::null();
    (drv.cuEventCreate(&mut e, 0) == CUresult::SUCCESS).then_some(e.as_raw() as usize)
}

fn ev(e: usize) -> CUevent {
    CUevent::from_raw(e as *mut std::ffi::c_void)
}

fn st(s: usize) -> CUstream {
    CUstream::from_raw(s as *mut std::ffi::c_void)
}

/// Records the start of a piece of work on `stream` (a driver stream
/// value: 0 the legacy stream, `cudaStreamPerThread`, or a handle), in the
/// calling thread's current context. `None`: not timed.
pub(crate) fn start(stream: usize) -> Option<Timing> {
    if super::ledger::capturing() {
        return None;
    }
    let drv = driver::loaded()?;
    let mut cur = CUcontext::null();
    if drv.cuCtxGetCurrent(&mut cur) != CUresult::SUCCESS || cur.is_null() {
        return None;
    }
    let ctx = cur.as_raw() as usize;
    with(|c| {
        if c.pending.len() >= MOST_PENDING {
            return None;
        }
        if !c.references.contains_key(&ctx) {
            let r = event(drv, c, ctx)?;
            if drv.cuEventRecord(ev(r), st(stream)) == CUresult::SUCCESS
                && drv.cuEventSynchronize(ev(r)) == CUresult::SUCCESS
            {
                c.references.insert(
                    ctx,
                    Reference {
                        event: r,
                        at: Instant::now(),
                    },
                );
            }
        }
        let start = event(drv, c, ctx)?;
        let Some(end) = event(drv, c, ctx) else {
            c.free.entry(ctx).or_default().push(start);
            return None;
        };
        let t = Timing { start, end, ctx };
        if drv.cuEventRecord(ev(start), st(stream)) != CUresult::SUCCESS {
            give_back(c, t);
            return None;
        }
        Some(t)
    })
}

fn give_back(c: &mut Clock, t: Timing) {
    let free = c.free.entry(t.ctx).or_default();
    free.push(t.start);
    free.push(t.end);
}

/// Records the end of the work `t` started (when the call succeeded) and
/// keeps it to be read, tagged `tag`; a failed call gives its events back.
pub(crate) fn finish(t: Timing, stream: usize, ok: bool, tag: u64) {
    let Some(drv) = driver::loaded() else { return };
    with(|c| {
        if !ok || drv.cuEventRecord(ev(t.end), st(stream)) != CUresult::SUCCESS {
            give_back(c, t);
            return;
        }
        c.pending.push(Pending { tag, t });
        if c.pending.len() >= c.settle_at.max(SETTLE_AT) {
            read_done(drv, c, false);
            c.settle_at = c.pending.len() + SETTLE_AT;
        }
    });
}

/// Reads the work that is done (waiting for all of it with `wait`).
fn read_done(drv: &driver::Driver, c: &mut Clock, wait: bool) {
    let pending = std::mem::take(&mut c.pending);
    for p in pending {
        let ready = if wait {
            drv.cuEventSynchronize(ev(p.t.end)) == CUresult::SUCCESS
        } else {
            drv.cuEventQuery(ev(p.t.end)) == CUresult::SUCCESS
        };
        if !ready {
            if !wait {
                c.pending.push(p);
            }
            continue;
        }
        let mut ms = 0f32;
        if drv.cuEventElapsedTime(&mut ms, ev(p.t.start), ev(p.t.end)) == CUresult::SUCCESS {
            let started = c.references.get(&p.t.ctx).and_then(|r| {
                let mut off = 0f32;
                (drv.cuEventElapsedTime(&mut off, ev(r.event), ev(p.t.start)) == CUresult::SUCCESS)
                    .then(|| {
                        r.at + std::time::Duration::from_secs_f64(f64::from(off.max(0.0)) / 1e3)
                    })
            });
            c.done.push(Done {
                tag: p.tag,
                ms,
                started,
            });
        }
        give_back(c, p.t);
    }
}

/// The timed work read so far, taken (reads and waits for nothing).
pub(crate) fn take_done() -> Vec<Done> {
    with(|c| std::mem::take(&mut c.done))
}

/// Waits for all timed work and reads it (at exit, and before a reset,
/// which destroys the events with their context).
pub(crate) fn settle_all() {
    let Some(drv) = driver::loaded() else { return };
    with(|c| read_done(drv, c, true));
}

/// A reset destroys the current context's events: forget them (after
/// [`settle_all`]).
pub(crate) fn forget_context() {
    let Some(drv) = driver::loaded() else { return };
    let mut cur = CUcontext::null();
    if drv.cuCtxGetCurrent(&mut cur) != CUresult::SUCCESS {
        return;
    }
    let ctx = cur.as_raw() as usize;
    with(|c| {
        c.free.remove(&ctx);
        c.references.remove(&ctx);
        c.pending.retain(|p| p.t.ctx != ctx);
    });
}
