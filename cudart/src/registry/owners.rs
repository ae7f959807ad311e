//! Owners: the index of host stub addresses by 16 KiB granule, each
//! granule with the fatbins that have published kernels there (a few
//! entries per fatbin, not one per kernel).

use crate::addrmap::AddrMap;

/// Host stubs are indexed by granules of `1 << GRANULE_BITS` bytes.
pub(super) const GRANULE_BITS: u32 = 14;

/// The granule of a host stub address.
#[inline]
pub(super) fn granule(stub: usize) -> usize {
    stub >> GRANULE_BITS
}

/// The fatbins with published kernels in one granule: nearly always one
/// (kept inline), a few where units meet.
#[derive(Default)]
pub(super) struct Owners {
    /// 0: none.
    first: usize,
    more: Vec<usize>,
}

impl Owners {
    pub(super) fn iter(&self) -> impl Iterator<Item = &usize> {
        std::iter::once(&self.first)
            .filter(|&&k| k != 0)
            .chain(&self.more)
    }

    pub(super) fn add(&mut self, key: usize) {
        if self.first == 0 {
            self.first = key;
        } else if self.first != key && !self.more.contains(&key) {
            self.more.push(key);
        }
    }

    /// Removes `key`; whether none is left.
    pub(super) fn remove(&mut self, key: usize) -> bool {
        if self.first == key {
            self.first = self.more.pop().unwrap_or(0);
        } else {
            self.more.retain(|&k| k != key);
        }
        self.first == 0
    }
}

/// Enters `granules` (of its kernels) for fatbin `key`.
pub(super) fn index_granules(
    index: &mut AddrMap<Owners>,
    key: usize,
    granules: impl Iterator<Item = usize>,
) {
    for g in granules {
        index.entry(g).or_default().add(key);
    }
}
