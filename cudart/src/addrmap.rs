//! Maps and sets keyed by addresses (host stubs, variables, fatbin
//! handles, kernel, stream and event handles): the runtime's own tables
//! hash them with one folded multiply instead of the standard library's
//! SipHash, which would cost more than the work around it. The keys are
//! handed over by the program or the driver, not text an adversary
//! chooses.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A folded multiply: good in the low bits tables index with and in the
/// high bits they tag with.
#[inline(always)]
pub fn mix(x: u64) -> u64 {
    let m = u128::from(x) * 0x9E37_79B9_7F4A_7C15;
    (m as u64) ^ ((m >> 64) as u64)
}

/// [`mix`] as a `Hasher` (keys are `usize`).
#[derive(Default, Clone, Copy)]
pub struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    #[inline(always)]
    fn write_usize(&mut self, n: usize) {
        self.0 = mix(self.0 ^ n as u64);
    }

    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by addresses.
pub type AddrMap<V> = HashMap<usize, V, BuildHasherDefault<AddrHasher>>;
/// A set of addresses.
pub type AddrSet = HashSet<usize, BuildHasherDefault<AddrHasher>>;

/// An entry of a [`Slots`] table: its key, a nonzero address (key 0 marks
/// an empty slot, which `Default` makes).
pub trait Keyed: Copy + Default {
    /// Slots of a table's first allocation (a power of two).
    const FIRST_SLOTS: usize = 64;
    fn key(&self) -> usize;
    /// Whether the entry holds nothing any more and may be dropped when
    /// the table is rebuilt (an owners page entry whose handles are all
    /// gone, kept so that the page's next handle finds it).
    #[inline(always)]
    fn is_spent(&self) -> bool {
        false
    }
}

impl<V: Copy + Default> Keyed for (usize, V) {
    #[inline(always)]
    fn key(&self) -> usize {
        self.0
    }
}

/// Open addressing by a nonzero address key, each entry holding its own
/// key: linear probing from the slot [`mix`] picks, at most three quarters
/// full, backward-shift deletion (no tombstones). The core of
/// [`AddrTable`] and of the owners map's page entries
/// ([`crate::owners`]), which the callers read and change in place by slot.
pub struct Slots<E> {
    slots: Vec<E>,
    len: usize,
}

impl<E: Keyed> Slots<E> {
    pub const fn new() -> Self {
        Slots {
            slots: Vec::new(),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn home(&self, key: usize) -> usize {
        mix(key as u64) as usize & (self.slots.len() - 1)
    }

    /// The slot holding `key`, if it is present.
    #[inline]
    pub fn find(&self, key: usize) -> Option<usize> {
        if self.len == 0 || key == 0 {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i].key() {
                k if k == key => return Some(i),
                0 => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// `Ok` with the slot holding `key` (nonzero), or `Err` with the empty
    /// slot where it goes ([`Slots::fill`]); the table first grows if one
    /// more entry would make it more than three quarters full.
    #[inline]
    pub fn slot(&mut self, key: usize) -> Result<usize, usize> {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i].key() {
                k if k == key => return Ok(i),
                0 => return Err(i),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Writes `entry` into the empty slot `i` that [`Slots::slot`] gave
    /// for its key.
    pub fn fill(&mut self, i: usize, entry: E) {
        self.slots[i] = entry;
        self.len += 1;
    }

    /// The number of slots (a power of two, or 0 before the first entry).
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn at(&self, i: usize) -> &E {
        &self.slots[i]
    }

    pub fn at_mut(&mut self, i: usize) -> &mut E {
        &mut self.slots[i]
    }

    /// Empties slot `hole`. The entries after it in its run move back, so
    /// every key stays reachable from its home.
    pub fn take(&mut self, mut hole: usize) {
        let mask = self.slots.len() - 1;
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let k = self.slots[j].key();
            if k == 0 {
                break;
            }
            // The entry at j may fill the hole unless its home lies
            // cyclically in (hole, j].
            let h = self.home(k);
            let stays = if hole <= j {
                hole < h && h <= j
            } else {
                hole < h || h <= j
            };
            if !stays {
                self.slots[hole] = self.slots[j];
                hole = j;
            }
        }
        self.slots[hole] = E::default();
        self.len -= 1;
    }

    /// Empties the table; its entries.
    pub fn drain(&mut self) -> impl Iterator<Item = E> {
        self.len = 0;
        std::mem::take(&mut self.slots)
            .into_iter()
            .filter(|e| e.key() != 0)
    }

    /// The mean distance of the entries from their home slots: what a
    /// look-up walks past a present key.
    #[cfg(test)]
    pub fn mean_displacement(&self) -> f64 {
        let size = self.slots.len();
        let total: usize = (0..size)
            .filter(|&i| self.slots[i].key() != 0)
            .map(|i| (i + size - self.home(self.slots[i].key())) & (size - 1))
            .sum();
        total as f64 / self.len.max(1) as f64
    }

    /// Rebuilds the table without its spent entries, doubled as often as
    /// it takes to be at most half full, and places every entry again (no
    /// key is there twice, so each goes to the first empty slot from its
    /// home). A table without spent entries doubles once.
    fn grow(&mut self) {
        let kept = |e: &E| e.key() != 0 && !e.is_spent();
        let live = self.slots.iter().filter(|e| kept(e)).count();
        let mut size = self.slots.len().max(E::FIRST_SLOTS);
        while (live + 1) * 2 > size {
            size *= 2;
        }
        let old = std::mem::replace(&mut self.slots, vec![E::default(); size]);
        self.len = live;
        let mask = size - 1;
        for e in old.into_iter().filter(kept) {
            let mut i = self.home(e.key());
            while self.slots[i].key() != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
        }
    }
}

impl<E: Keyed> Default for Slots<E> {
    fn default() -> Self {
        Self::new()
    }
}

/// A map from nonzero addresses to small `Copy` values with each key and
/// its value side by side: a look-up of a key that is present touches one
/// slot, so in a large map it costs one cache miss where [`AddrMap`] pays
/// two (its control bytes, then its bucket). Key 0 is never stored.
pub struct AddrTable<V> {
    slots: Slots<(usize, V)>,
}

impl<V: Copy + Default> AddrTable<V> {
    pub const fn new() -> Self {
        AddrTable {
            slots: Slots::new(),
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.len() == 0
    }

    pub fn get(&self, key: usize) -> Option<V> {
        self.slots.find(key).map(|i| self.slots.at(i).1)
    }

    #[inline]
    pub fn contains_key(&self, key: usize) -> bool {
        self.slots.find(key).is_some()
    }

    /// Sets `key` to `value`; the value it had, if any. Key 0 is ignored.
    pub fn insert(&mut self, key: usize, value: V) -> Option<V> {
        if key == 0 {
            return None;
        }
        match self.slots.slot(key) {
            Ok(i) => Some(std::mem::replace(&mut self.slots.at_mut(i).1, value)),
            Err(i) => {
                self.slots.fill(i, (key, value));
                None
            }
        }
    }

    /// Takes `key` out; its value, if it was present.
    pub fn remove(&mut self, key: usize) -> Option<V> {
        let i = self.slots.find(key)?;
        let value = self.slots.at(i).1;
        self.slots.take(i);
        Some(value)
    }

    /// Keeps the entries for which `keep` says true (rebuilds the table).
    pub fn retain(&mut self, mut keep: impl FnMut(usize, V) -> bool) {
        let kept: Vec<(usize, V)> = self.slots.drain().filter(|&(k, v)| keep(k, v)).collect();
        for (k, v) in kept {
            self.insert(k, v);
        }
    }
}

impl<V: Copy + Default> Default for AddrTable<V> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_a_hash_map_through_inserts_and_removes() {
        // Keys that collide often (a small table, clustered addresses) and
        // removes from the middle of runs, checked against AddrMap.
        let mut t = AddrTable::<usize>::new();
        let mut m: AddrMap<usize> = AddrMap::default();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for step in 0..200_000usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = 0x7f00_0000_0000 + (x % 5000) as usize * 64;
            if x.is_multiple_of(3) {
                assert_eq!(t.remove(key), m.remove(&key), "remove {key:#x} at {step}");
            } else {
                assert_eq!(t.insert(key, step), m.insert(key, step), "insert at {step}");
            }
            assert_eq!(t.len(), m.len());
        }
        for (&k, &v) in &m {
            assert_eq!(t.get(k), Some(v));
        }
        assert!(!t.contains_key(0x1000) && t.get(0).is_none() && t.insert(0, 1).is_none());
        t.retain(|k, _| k.is_multiple_of(128));
        m.retain(|&k, _| k.is_multiple_of(128));
        assert_eq!(t.len(), m.len());
        for (&k, &v) in &m {
            assert_eq!(t.get(k), Some(v));
        }
        for k in m.keys().copied().collect::<Vec<_>>() {
            assert_eq!(t.remove(k), m.remove(&k));
        }
        assert!(t.is_empty());
    }

    #[test]
    fn aligned_addresses_spread_over_the_low_and_high_bits() {
        // Handles are 16- or 64-byte aligned: neighbours must not share
        // their low bits (bucket index) or their top 7 bits (tag).
        let hashes: Vec<u64> = (0..1024u64)
            .map(|i| mix(0x7f00_0000_0000 + i * 64))
            .collect();
        let low: HashSet<u64> = hashes.iter().map(|h| h & 1023).collect();
        let high: HashSet<u64> = hashes.iter().map(|h| h >> 57).collect();
        assert!(
            low.len() > 600,
            "{} distinct low 10-bit values of 1024",
            low.len()
        );
        assert_eq!(high.len(), 128, "every top-7-bit tag is used");
        let mut m = AddrMap::default();
        m.insert(0x1000, 1);
        assert_eq!(m.get(&0x1000), Some(&1));
        let mut s = AddrSet::default();
        assert!(s.insert(0x2000) && !s.insert(0x2000));
    }
}
