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

#[cfg(test)]
mod tests {
    use super::*;

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
