//! The context each live event and stream was made in, by handle
//! ([`Owners`]), for the handle record ([`crate::handles`]): a reset
//! declares a context's events and streams dead, and a handle the bounded
//! record forgot is known to be the runtime's without a system call.
//!
//! The driver hands out events and streams from pools, in increasing
//! address order, several to a 4 KiB page (`bench/experiments/
//! handle_layout.c` measures it). A map that hashes each handle to its own
//! slot sends every insert to a cache line no recent insert touched: with
//! a million alive, a cache miss per create and per destroy. This map
//! keeps the handles of one page together in one 64-byte entry (the page,
//! its context, and a bit for each 16-byte-aligned address in the page),
//! so handles made one after another share an entry and a cache line, and
//! finding one is a bit test. An entry whose handles are all gone stays
//! until the table next grows, so that a program making and destroying
//! one event at a time sets and clears a bit rather than adding and
//! removing an entry. A handle that is not 16-byte aligned, or whose
//! context differs from the one its page's entry holds, goes to an
//! [`AddrTable`] beside it.

use crate::addrmap::{AddrTable, Keyed, Slots};

/// The driver's pages of handles: 4 KiB.
pub const PAGE_SHIFT: u32 = 12;
/// Handles are told apart in 16-byte units: 256 to a page.
pub const GRAIN_SHIFT: u32 = 4;

/// One page's handles: the page number (0: an empty entry), the context
/// they were made in, and bit `k` set where the handle at byte `16 * k` of
/// the page is present. 64 bytes, aligned to a cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Page {
    page: usize,
    ctx: usize,
    bits: [u64; 4],
}

impl Page {
    fn has(&self, k: usize) -> bool {
        self.bits[k / 64] >> (k % 64) & 1 != 0
    }

    fn set(&mut self, k: usize) {
        self.bits[k / 64] |= 1 << (k % 64);
    }

    fn clear(&mut self, k: usize) {
        self.bits[k / 64] &= !(1 << (k % 64));
    }

    fn is_unused(&self) -> bool {
        self.bits == [0; 4]
    }

    /// The 16-byte units whose bit is set, in order (one step per set bit).
    fn units(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(j, &w)| {
            std::iter::successors((w != 0).then_some(w), |&w| {
                let rest = w & (w - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |w| j * 64 + w.trailing_zeros() as usize)
        })
    }
}

impl Keyed for Page {
    /// 1 KiB, as an [`AddrTable`]'s first allocation.
    const FIRST_SLOTS: usize = 16;

    fn key(&self) -> usize {
        self.page
    }

    fn is_spent(&self) -> bool {
        self.is_unused()
    }
}

/// A handle's page number and its 16-byte unit in the page, where a page
/// entry can hold it (nonzero page, 16-byte aligned).
#[inline(always)]
fn split(handle: usize) -> Option<(usize, usize)> {
    let page = handle >> PAGE_SHIFT;
    let aligned = handle & ((1 << GRAIN_SHIFT) - 1) == 0;
    (page != 0 && aligned).then_some((
        page,
        (handle >> GRAIN_SHIFT) & ((1 << (PAGE_SHIFT - GRAIN_SHIFT)) - 1),
    ))
}

/// Handle to context, for nonzero handles.
pub struct Owners {
    /// The page entries, by page number.
    pages: Slots<Page>,
    /// Handles no page entry holds.
    rest: AddrTable<usize>,
    len: usize,
}

impl Owners {
    pub const fn new() -> Self {
        Owners {
            pages: Slots::new(),
            rest: AddrTable::new(),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn contains_key(&self, handle: usize) -> bool {
        self.get(handle).is_some()
    }

    pub fn get(&self, handle: usize) -> Option<usize> {
        if let Some((page, k)) = split(handle) {
            if let Some(i) = self.pages.find(page) {
                let p = self.pages.at(i);
                if p.has(k) {
                    return Some(p.ctx);
                }
            }
        }
        self.rest.get(handle)
    }

    /// Sets `handle`'s context to `ctx`. Handle 0 is ignored.
    pub fn insert(&mut self, handle: usize, ctx: usize) {
        if handle == 0 {
            return;
        }
        if let Some((page, k)) = split(handle) {
            let i = match self.pages.slot(page) {
                Ok(i) => i,
                Err(i) => {
                    let entry = Page {
                        page,
                        ctx,
                        bits: [0; 4],
                    };
                    self.pages.fill(i, entry);
                    i
                }
            };
            let p = self.pages.at_mut(i);
            if p.has(k) {
                if p.ctx == ctx {
                    return;
                }
                // Made again in another context: it leaves its page's
                // entry (which takes the new context if it is left empty).
                p.clear(k);
                self.len -= 1;
            }
            if p.is_unused() {
                p.ctx = ctx;
            }
            if p.ctx == ctx {
                p.set(k);
                self.len += 1;
                self.take_from_rest(handle);
                return;
            }
        }
        if self.rest.insert(handle, ctx).is_none() {
            self.len += 1;
        }
    }

    /// Takes `handle` out of [`Owners::rest`], if it is there.
    #[inline(always)]
    fn take_from_rest(&mut self, handle: usize) {
        if !self.rest.is_empty() && self.rest.remove(handle).is_some() {
            self.len -= 1;
        }
    }

    /// Takes `handle` out; the context it had, if it was present.
    pub fn remove(&mut self, handle: usize) -> Option<usize> {
        if let Some((page, k)) = split(handle) {
            if let Some(i) = self.pages.find(page) {
                let p = self.pages.at_mut(i);
                if p.has(k) {
                    // An entry left empty stays for the page's next handle
                    // (the driver hands the same addresses out again); the
                    // table drops it when it next grows.
                    p.clear(k);
                    self.len -= 1;
                    return Some(p.ctx);
                }
            }
        }
        if self.rest.is_empty() {
            return None;
        }
        let ctx = self.rest.remove(handle)?;
        self.len -= 1;
        Some(ctx)
    }

    /// Keeps the handles for which `keep` says true (rebuilds the map).
    pub fn retain(&mut self, mut keep: impl FnMut(usize, usize) -> bool) {
        let mut kept = Vec::new();
        for p in self.pages.drain() {
            for k in p.units() {
                let handle = p.page << PAGE_SHIFT | k << GRAIN_SHIFT;
                if keep(handle, p.ctx) {
                    kept.push((handle, p.ctx));
                }
            }
        }
        self.rest.retain(|handle, ctx| {
            if keep(handle, ctx) {
                kept.push((handle, ctx));
            }
            false
        });
        self.len = 0;
        for (handle, ctx) in kept {
            self.insert(handle, ctx);
        }
    }

    /// The mean distance of the page entries from their home slots.
    #[cfg(test)]
    pub fn mean_displacement(&self) -> f64 {
        self.pages.mean_displacement()
    }

    /// How many handles the page entries hold (the rest are in `rest`).
    #[cfg(test)]
    fn in_pages(&self) -> usize {
        self.len - self.rest.len()
    }

    /// How many page entries hold a handle (the others are spent).
    #[cfg(test)]
    fn pages_in_use(&self) -> usize {
        (0..self.pages.capacity())
            .filter(|&i| !self.pages.at(i).is_unused())
            .count()
    }
}

impl Default for Owners {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrmap::AddrMap;

    #[test]
    fn a_page_entry_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Page>(), 64);
        assert_eq!(std::mem::align_of::<Page>(), 64);
    }

    #[test]
    fn a_pages_units_are_its_set_bits_in_order() {
        let mut p = Page::default();
        let units = [0usize, 1, 63, 64, 130, 200, 255];
        for &k in &units {
            p.set(k);
        }
        assert_eq!(p.units().collect::<Vec<_>>(), units);
        assert_eq!(Page::default().units().count(), 0);
    }

    #[test]
    fn the_map_matches_a_hash_map_through_inserts_removes_and_retain() {
        // Handles packed closer than a page entry holds (16 bytes apart:
        // 256 to a page), spread ones, and low ones (page 0), under two
        // contexts, against AddrMap.
        let mut o = Owners::new();
        let mut m: AddrMap<usize> = AddrMap::default();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for step in 0..300_000usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let handle = match x % 3 {
                0 => 0x7f00_0000_0000 + (x >> 8) as usize % 20_000 * 16,
                1 => 0x5500_0000_0000 + (x >> 8) as usize % 3_000 * 592,
                _ => 1 + (x >> 8) as usize % 4000,
            };
            let ctx = 0x7e00_0000_0000 + (x >> 40) as usize % 2 * 0x1000;
            if (x >> 20).is_multiple_of(3) {
                assert_eq!(o.remove(handle), m.remove(&handle), "remove at {step}");
            } else {
                o.insert(handle, ctx);
                m.insert(handle, ctx);
            }
            assert_eq!(o.len(), m.len(), "len at {step}");
        }
        for (&h, &c) in &m {
            assert_eq!(o.get(h), Some(c), "{h:#x}");
        }
        assert!(o.in_pages() > 0 && !o.rest.is_empty(), "both parts used");
        assert!(!o.contains_key(0x1234_5000) && o.remove(0x1234_5000).is_none());
        o.insert(0, 1);
        assert!(!o.contains_key(0));
        o.retain(|h, c| h % 32 == 0 && c == 0x7e00_0000_0000);
        m.retain(|&h, &mut c| h % 32 == 0 && c == 0x7e00_0000_0000);
        assert_eq!(o.len(), m.len());
        for (&h, &c) in &m {
            assert_eq!(o.get(h), Some(c));
        }
        for h in m.keys().copied().collect::<Vec<_>>() {
            assert_eq!(o.remove(h), m.remove(&h));
        }
        assert_eq!((o.len(), o.pages_in_use(), o.rest.len()), (0, 0, 0));
    }

    #[test]
    fn a_handle_made_again_in_another_context_moves() {
        let mut o = Owners::new();
        let (a, b) = (0x7f00_0000_1000usize, 0x7f00_0000_1250usize);
        o.insert(a, 1);
        o.insert(b, 1);
        o.insert(a, 2);
        assert_eq!((o.get(a), o.get(b), o.len()), (Some(2), Some(1), 2));
        assert_eq!(o.remove(b), Some(1));
        // The page's entry holds nothing now: it takes the other context.
        o.insert(b, 2);
        assert_eq!(o.rest.len(), 1, "a is still apart; b took the entry");
        assert_eq!((o.remove(a), o.remove(b), o.len()), (Some(2), Some(2), 0));
    }

    #[test]
    fn an_emptied_page_keeps_its_entry_until_the_table_grows() {
        // One handle at a time on page after page: each page's entry is
        // left empty when its handle goes, the next handle of the same page
        // finds it, and growth drops the empty ones, so the table stays as
        // small as the pages in use need.
        let mut o = Owners::new();
        let h = 0x7f00_0000_1000usize;
        o.insert(h, 1);
        assert_eq!(o.remove(h), Some(1));
        assert_eq!((o.pages.len(), o.pages_in_use()), (1, 0));
        o.insert(h + 592, 1);
        assert_eq!((o.pages.len(), o.pages_in_use(), o.in_pages()), (1, 1, 1));
        assert_eq!(o.remove(h + 592), Some(1));
        let kept = 0x5500_0000_0000usize;
        o.insert(kept, 3);
        for page in 1..100_000usize {
            let handle = h + page * 4096;
            o.insert(handle, 1);
            assert_eq!(o.remove(handle), Some(1));
        }
        assert_eq!((o.len(), o.get(kept), o.pages_in_use()), (1, Some(3), 1));
        assert!(o.pages.capacity() <= 64, "{} slots", o.pages.capacity());
    }

    #[test]
    fn pool_handles_share_their_pages_entries() {
        // 10^5 handles 592 bytes apart (the driver's events): about 6.9 to
        // a page, every one held by a page entry, the entries spread over
        // their table as random keys would.
        let mut o = Owners::new();
        let handles: Vec<usize> = (0..100_000).map(|i| 0x5631_8317_9460 + i * 592).collect();
        for &h in &handles {
            o.insert(h, 7);
        }
        assert_eq!((o.len(), o.in_pages()), (handles.len(), handles.len()));
        assert!(
            o.pages.len() <= handles.len() * 592 / 4096 + 2,
            "{} entries",
            o.pages.len()
        );
        let d = o.mean_displacement();
        assert!(d < 1.5, "mean probe distance {d:.2}");
        for &h in handles.iter().step_by(2) {
            assert_eq!(o.remove(h), Some(7));
        }
        for &h in handles.iter().skip(1).step_by(2) {
            assert_eq!(o.get(h), Some(7));
        }
    }
}
