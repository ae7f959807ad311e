//! The insight features' record of what the program holds: live
//! allocations by base address (size, kind, origin), live objects by
//! handle, recently freed allocations and destroyed objects (with who made
//! and who ended them), the bytes held of each memory kind with their
//! peaks, and whether a stream capture is under way. Kept only while a
//! feature is on; every call that changes it holds one lock.

use super::calls::{Call, Fact, MemKind, ObjKind};
use parking_lot::Mutex;
use std::backtrace::Backtrace;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Who made (or ended) something: the call, the thread, and, with
/// `CUDART_LEAKS=stack`, where in the program.
#[derive(Clone, Debug)]
pub(crate) struct Origin {
    pub(crate) api: &'static str,
    pub(crate) thread: i32,
    pub(crate) stack: Option<Arc<Backtrace>>,
}

impl Origin {
    pub(crate) fn here(api: &'static str) -> Origin {
        let stack = super::settings()
            .leaks
            .is_some_and(|m| m == super::leaks::Mode::Stack)
            .then(|| Arc::new(Backtrace::force_capture()));
        Origin {
            api,
            thread: super::thread_id(),
            stack,
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on thread {}", self.api, self.thread)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub(crate) size: usize,
    pub(crate) kind: MemKind,
    pub(crate) made: Origin,
}

/// An allocation that was freed: what it was and who freed it.
#[derive(Clone, Debug)]
pub(crate) struct Freed {
    pub(crate) block: Block,
    pub(crate) freed: Origin,
}

#[derive(Clone, Debug)]
pub(crate) struct Object {
    pub(crate) kind: ObjKind,
    pub(crate) made: Origin,
}

/// How many freed allocations and destroyed objects are remembered (the
/// oldest are forgotten first).
const REMEMBERED: usize = 1 << 16;

/// Bytes held of one memory kind.
#[derive(Copy, Clone, Default, Debug)]
pub(crate) struct Held {
    pub(crate) current: usize,
    pub(crate) peak: usize,
}

#[derive(Default)]
struct Ledger {
    blocks: BTreeMap<usize, Block>,
    objects: HashMap<usize, Object>,
    freed: BTreeMap<usize, Freed>,
    freed_order: VecDeque<usize>,
    destroyed: HashMap<usize, (Object, Origin)>,
    destroyed_order: VecDeque<usize>,
    held: [Held; 3],
}

static LEDGER: Mutex<Option<Ledger>> = Mutex::new(None);

/// Stream captures under way (begun and not ended) in the process.
static CAPTURES: AtomicUsize = AtomicUsize::new(0);

fn with<T>(f: impl FnOnce(&mut Ledger) -> T) -> T {
    f(LEDGER.lock().get_or_insert_with(Default::default))
}

fn slot(kind: MemKind) -> usize {
    match kind {
        MemKind::Device => 0,
        MemKind::Pinned => 1,
        MemKind::Managed => 2,
    }
}

/// Records what a call that succeeded made or ended.
pub(crate) fn after(call: &Call<'_>, fact: &Fact) {
    match *fact {
        Fact::Alloc {
            out,
            size,
            kind,
            pitch_out,
            rows,
        } => {
            let Some(ptr) = Fact::made(out) else { return };
            let size = if pitch_out != 0 {
                Fact::made(pitch_out).unwrap_or(0).saturating_mul(rows)
            } else {
                size
            };
            allocated(ptr, size, kind, Origin::here(call.name));
        }
        Fact::Free { ptr, .. } if ptr != 0 => {
            freed(ptr, Origin::here(call.name));
        }
        Fact::Make { out, kind } => {
            if let Some(h) = Fact::made(out) {
                made(h, kind, Origin::here(call.name));
            }
        }
        Fact::Destroy { handle, kind } if handle != 0 => {
            destroyed(handle, kind, Origin::here(call.name));
        }
        Fact::CaptureBegin => {
            CAPTURES.fetch_add(1, Ordering::Relaxed);
        }
        Fact::CaptureEnd => {
            let _ =
                CAPTURES.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
            let graph_out = call.args.get(1).map_or(0, |a| a.word());
            if let Some(g) = Fact::made(graph_out) {
                made(g, ObjKind::Graph, Origin::here(call.name));
            }
        }
        Fact::Reset => reset(),
        _ => {}
    }
}

pub(crate) fn allocated(ptr: usize, size: usize, kind: MemKind, made: Origin) {
    with(|l| {
        if let Some(old) = l.blocks.insert(ptr, Block { size, kind, made }) {
            // An address handed out again without a free seen (freed by
            // another runtime, or a pool): the old block is gone.
            let h = &mut l.held[slot(old.kind)];
            h.current = h.current.saturating_sub(old.size);
        }
        l.freed.remove(&ptr);
        let h = &mut l.held[slot(kind)];
        h.current += size;
        h.peak = h.peak.max(h.current);
    });
}

fn freed(ptr: usize, by: Origin) {
    with(|l| {
        let Some(block) = l.blocks.remove(&ptr) else {
            return;
        };
        let h = &mut l.held[slot(block.kind)];
        h.current = h.current.saturating_sub(block.size);
        if l.freed.insert(ptr, Freed { block, freed: by }).is_none() {
            l.freed_order.push_back(ptr);
        }
        while l.freed_order.len() > REMEMBERED {
            if let Some(old) = l.freed_order.pop_front() {
                if !l.blocks.contains_key(&old) {
                    l.freed.remove(&old);
                }
            }
        }
    });
}

fn made(handle: usize, kind: ObjKind, made: Origin) {
    with(|l| {
        l.objects.insert(handle, Object { kind, made });
        l.destroyed.remove(&handle);
    });
}

fn destroyed(handle: usize, kind: ObjKind, by: Origin) {
    with(|l| {
        if l.objects.get(&handle).is_none_or(|o| o.kind != kind) {
            return;
        }
        let Some(obj) = l.objects.remove(&handle) else {
            return;
        };
        if l.destroyed.insert(handle, (obj, by)).is_none() {
            l.destroyed_order.push_back(handle);
        }
        while l.destroyed_order.len() > REMEMBERED {
            if let Some(old) = l.destroyed_order.pop_front() {
                l.destroyed.remove(&old);
            }
        }
    });
}

/// `cudaDeviceReset`: the device's memory and objects are gone with its
/// context. (One device's reset forgets every device's record: the
/// ledger does not keep devices apart.)
fn reset() {
    with(|l| {
        l.blocks.retain(|_, b| b.kind == MemKind::Pinned);
        l.objects.clear();
        l.held[slot(MemKind::Device)].current = 0;
        l.held[slot(MemKind::Managed)].current = 0;
    });
    CAPTURES.store(0, Ordering::Relaxed);
}

/// Whether a stream capture is under way somewhere in the process.
pub(crate) fn capturing() -> bool {
    CAPTURES.load(Ordering::Relaxed) != 0
}

/// The live allocation holding `addr`: its base and what it is.
pub(crate) fn block_at(addr: usize) -> Option<(usize, Block)> {
    with(|l| {
        let (&base, b) = l.blocks.range(..=addr).next_back()?;
        (addr < base.saturating_add(b.size.max(1))).then(|| (base, b.clone()))
    })
}

/// The freed allocation that held `addr` (and holds no live one now).
pub(crate) fn freed_at(addr: usize) -> Option<(usize, Freed)> {
    with(|l| {
        if let Some((&base, b)) = l.blocks.range(..=addr).next_back() {
            if addr < base.saturating_add(b.size.max(1)) {
                return None;
            }
        }
        let (&base, f) = l.freed.range(..=addr).next_back()?;
        (addr < base.saturating_add(f.block.size.max(1))).then(|| (base, f.clone()))
    })
}

/// The object the runtime destroyed at `handle`, and who destroyed it.
pub(crate) fn destroyed_at(handle: usize) -> Option<(Object, Origin)> {
    with(|l| l.destroyed.get(&handle).cloned())
}

/// Live allocations and objects by address.
pub(crate) type Alive = (Vec<(usize, Block)>, Vec<(usize, Object)>);

/// Every live allocation and object (for the leak report), lowest
/// address first.
pub(crate) fn alive() -> Alive {
    with(|l| {
        let blocks = l.blocks.iter().map(|(&a, b)| (a, b.clone())).collect();
        let mut objects: Vec<_> = l.objects.iter().map(|(&h, o)| (h, o.clone())).collect();
        objects.sort_by_key(|(h, _)| *h);
        (blocks, objects)
    })
}

/// The live streams (for the check at exit).
pub(crate) fn streams() -> Vec<(usize, Origin)> {
    with(|l| {
        l.objects
            .iter()
            .filter(|(_, o)| o.kind == ObjKind::Stream)
            .map(|(&h, o)| (h, o.made.clone()))
            .collect()
    })
}

/// Bytes held now and at peak: device, pinned, managed.
pub(crate) fn held() -> [Held; 3] {
    with(|l| l.held)
}

/// Without blocking: the live allocation holding `addr` (for the fault
/// handler, which must not wait on a lock its own thread may hold).
/// `None`: the ledger was busy; `Some(None)`: no allocation there.
pub(crate) fn try_block_at(addr: usize) -> Option<Option<Seen>> {
    let guard = LEDGER.try_lock()?;
    let l = guard.as_ref()?;
    Some(l.blocks.range(..=addr).next_back().and_then(|(&base, b)| {
        (addr < base.saturating_add(b.size.max(1))).then_some(Seen {
            base,
            size: b.size,
            kind: b.kind,
            api: b.made.api,
            thread: b.made.thread,
        })
    }))
}

/// An allocation as the fault handler sees it (nothing to free).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Seen {
    pub(crate) base: usize,
    pub(crate) size: usize,
    pub(crate) kind: MemKind,
    pub(crate) api: &'static str,
    pub(crate) thread: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin {
            api: "cudaMalloc",
            thread: 1,
            stack: None,
        }
    }

    #[test]
    fn blocks_are_found_by_any_address_inside() {
        allocated(0x7000_0000, 1024, MemKind::Device, origin());
        assert_eq!(block_at(0x7000_0000).map(|b| b.0), Some(0x7000_0000));
        assert_eq!(block_at(0x7000_03ff).map(|b| b.0), Some(0x7000_0000));
        assert!(block_at(0x7000_0400).is_none());
        freed(0x7000_0000, origin());
        assert!(block_at(0x7000_0010).is_none());
        assert_eq!(freed_at(0x7000_0010).map(|f| f.1.block.size), Some(1024));
        allocated(0x7000_0000, 512, MemKind::Device, origin());
        assert!(freed_at(0x7000_0010).is_none(), "live again");
        freed(0x7000_0000, origin());
    }
}
