//! The kernel index: a fatbin's published kernels, sorted by host stub,
//! in 8 bytes a kernel where they lie close together ([`Kernels`]); the
//! look-up of a host stub's kernel through the granules' owners, the
//! fatbins' kernels and the logs still open ([`find_kernel`]); and the
//! publication of a fatbin's append log into its kernels ([`publish`]).

use super::append_log::{Staged, CHUNKS};
use super::kernel_handles::KernelHandles;
use super::owners::{granule, index_granules, Owners};
use super::{Kernel, Registry};

/// A fatbin's published kernels, sorted by host stub, one per stub (the
/// last registration of it). Kept as offsets from its lowest stub and from
/// one of its names: 8 bytes a kernel (one unit's stubs, and its names, lie
/// within a few MiB), 16 otherwise. Registration's cost is largely the
/// fresh memory it touches (a page fault per 4 KiB), so this halves it.
pub(super) enum Kernels {
    Narrow {
        stub0: usize,
        name0: usize,
        v: Vec<(u32, i32)>,
    },
    Wide(Vec<Staged>),
}

impl Default for Kernels {
    fn default() -> Kernels {
        Kernels::Wide(Vec::new())
    }
}

impl Kernels {
    /// From kernels sorted by stub, one per stub (allocated exactly).
    pub(super) fn from_sorted(v: &[Staged]) -> Kernels {
        Kernels::narrow(&[v], v.len()).unwrap_or_else(|| Kernels::Wide(v.to_vec()))
    }

    /// The narrow form of `n` kernels given in runs (a log's chunks, in
    /// order) whose stubs strictly increase or strictly decrease (nvcc
    /// registers a unit's kernels in reverse address order), in one pass
    /// and allocated exactly; `None` when they do not, or lie too far apart.
    pub(super) fn narrow(runs: &[&[Staged]], n: usize) -> Option<Kernels> {
        let first = *runs.first()?.first()?;
        let last = *runs.last()?.last()?;
        let descending = first.stub > last.stub;
        let stub0 = first.stub.min(last.stub);
        let name0 = first.name;
        let mut v: Vec<(u32, i32)> = Vec::with_capacity(n);
        // Offsets must strictly increase: the next one is at least `next`.
        let mut next = 0usize;
        let mut ok = true;
        let mut add = |k: &Staged| {
            let off = k.stub.wrapping_sub(stub0);
            let name = (k.name as isize).wrapping_sub(name0 as isize);
            ok &= off >= next && off <= u32::MAX as usize && name == name as i32 as isize;
            // A stub below the lowest end wraps to an offset near
            // `usize::MAX` (refused just above): no overflow here.
            next = off.saturating_add(1);
            v.push((off as u32, name as i32));
        };
        if descending {
            for run in runs.iter().rev() {
                for k in run.iter().rev() {
                    add(k);
                }
            }
        } else {
            for run in runs {
                for k in run.iter() {
                    add(k);
                }
            }
        }
        if !ok {
            return None;
        }
        Some(Kernels::Narrow { stub0, name0, v })
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Kernels::Narrow { v, .. } => v.len(),
            Kernels::Wide(v) => v.len(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn get(&self, i: usize) -> Staged {
        match self {
            Kernels::Narrow { stub0, name0, v } => Staged {
                stub: stub0 + v[i].0 as usize,
                name: name0.wrapping_add_signed(v[i].1 as isize),
            },
            Kernels::Wide(v) => v[i],
        }
    }

    pub(super) fn find(&self, stub: usize) -> Option<usize> {
        match self {
            Kernels::Narrow { stub0, v, .. } => {
                let off = u32::try_from(stub.checked_sub(*stub0)?).ok()?;
                v.binary_search_by_key(&off, |k| k.0).ok()
            }
            Kernels::Wide(v) => v.binary_search_by_key(&stub, |k| k.stub).ok(),
        }
    }

    pub(super) fn to_vec(&self) -> Vec<Staged> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// The granules the kernels cover, each once: a binary search per
    /// granule, not a step per kernel.
    pub(super) fn granules(&self) -> impl Iterator<Item = usize> + '_ {
        let mut i = 0;
        std::iter::from_fn(move || {
            if i >= self.len() {
                return None;
            }
            let g = granule(self.get(i).stub);
            let (mut lo, mut hi) = (i + 1, self.len());
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if granule(self.get(mid).stub) == g {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            i = lo;
            Some(g)
        })
    }
}

/// The kernel registered for `stub`: of the newest fatbin that has it,
/// published or still being registered (within one fatbin, a registration
/// not yet published is the later one).
pub(super) fn find_kernel(reg: &Registry, stub: usize) -> Option<Kernel> {
    let mut best: Option<Kernel> = None;
    let mut consider = |k: Kernel| {
        if best.as_ref().is_none_or(|b| k.fatbin.id >= b.fatbin.id) {
            best = Some(k);
        }
    };
    for key in reg
        .granules
        .get(&granule(stub))
        .into_iter()
        .flat_map(Owners::iter)
    {
        let Some(rec) = reg.fatbins.get(key) else {
            continue;
        };
        if let Some(i) = rec.find(stub) {
            consider(Kernel {
                fatbin: rec.fatbin.clone(),
                stub,
                name: rec.kernels.get(i).name,
                resolved: rec.handles.get(i),
            });
        }
    }
    for key in &reg.open {
        let Some(rec) = reg.fatbins.get(key) else {
            continue;
        };
        let log = &rec.fatbin.staged;
        let unpublished = (rec.published..log.len()).rev();
        if let Some(k) = unpublished
            .filter_map(|i| log.get(reg, i))
            .find(|k| k.stub == stub)
        {
            consider(Kernel {
                fatbin: rec.fatbin.clone(),
                stub,
                name: k.name,
                resolved: crate::driver::CUkernel::null(),
            });
        }
    }
    best
}

/// Publishes the fatbin's staged kernels (under the registry's write
/// lock): its sorted kernel array and the granules it covers.
pub(super) fn publish(reg: &mut Registry, key: usize) {
    let Some(rec) = reg.fatbins.get(&key) else {
        return; // unregistered meanwhile: its records are gone
    };
    let log = &rec.fatbin.staged;
    let to = log.len();
    if to <= rec.published {
        return;
    }
    let from = rec.published;
    let mut buf: [&[Staged]; CHUNKS] = [&[]; CHUNKS];
    let (runs, n) = log.runs(reg, from, &mut buf);
    let to = from + n;
    let mut fresh = Vec::new();
    let fresh_kernels = if rec.kernels.is_empty() {
        Kernels::narrow(runs, n)
    } else {
        None
    };
    if fresh_kernels.is_none() {
        for run in runs {
            fresh.extend_from_slice(run);
        }
    }
    let Registry {
        fatbins, granules, ..
    } = reg;
    let Some(rec) = fatbins.get_mut(&key) else {
        return;
    };
    rec.published = to;
    if let Some(k) = fresh_kernels {
        rec.kernels = k;
    } else {
        let mut all = rec.kernels.to_vec();
        all.extend_from_slice(&fresh);
        // Stable: of two registrations of a stub the later one stays.
        all.sort_by_key(|k| k.stub);
        all.dedup_by(|later, kept| {
            if later.stub == kept.stub {
                *kept = *later;
                true
            } else {
                false
            }
        });
        rec.kernels = Kernels::from_sorted(&all);
        // Handles are found again (by name) when next needed.
        rec.handles = KernelHandles::default();
    }
    index_granules(granules, key, rec.kernels.granules());
}
