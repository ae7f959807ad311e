//! The append log: the kernels of a fatbin being registered, as its
//! registering thread appends them (`__cudaRegisterFunction`), without a
//! lock, until `__cudaRegisterFatBinaryEnd` publishes them into the
//! fatbin's [`Kernels`](super::kernel_index::Kernels).
//!
//! Readers prove they hold the registry's lock with a `&Registry`
//! ([`super::Registry`]); the one writer is the thread holding the
//! fatbin's [`Open`](super::slots::Open).

use super::Registry;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// A kernel as `__cudaRegisterFunction` gave it: host stub and the address
/// of its (mangled) device name.
#[derive(Copy, Clone)]
pub(super) struct Staged {
    pub(super) stub: usize,
    pub(super) name: usize,
}

/// Elements of chunk 0 of an [`AppendLog`]; chunk `c` holds `FIRST << c`.
const FIRST: usize = 64;
/// Chunks of an [`AppendLog`]: `FIRST * (2^CHUNKS - 1)` (4 million)
/// kernels for one fatbin, far more than a cubin can hold (past them,
/// kernels take the locked path).
pub(super) const CHUNKS: usize = 16;

/// Chunk and offset of element `i` of an [`AppendLog`].
#[inline]
fn locate(i: usize) -> (usize, usize) {
    let j = i / FIRST + 1;
    let c = (usize::BITS - 1 - j.leading_zeros()) as usize;
    (c, i - FIRST * ((1 << c) - 1))
}

/// An append-only list with one writer and readers that hold the
/// registry's lock, the writer taking none: each element is written once
/// into a chunk that never moves, then published by a release store of the
/// length. The writer is the thread holding the fatbin's
/// [`Open`](super::slots::Open) (one per fatbin), whose
/// [`OpenSlot`](super::slots::OpenSlot) keeps the write position; readers prove
/// they hold the registry with a `&Registry`.
pub(super) struct AppendLog {
    pub(super) len: AtomicUsize,
    chunks: [AtomicPtr<Staged>; CHUNKS],
}

impl AppendLog {
    pub(super) fn new() -> AppendLog {
        AppendLog {
            len: AtomicUsize::new(0),
            chunks: std::array::from_fn(|_| AtomicPtr::new(std::ptr::null_mut())),
        }
    }

    fn layout(c: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Staged>(FIRST << c).expect("chunk size fits")
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Element `i`, if published (the caller holds the registry).
    #[inline]
    pub(super) fn get(&self, _holding: &Registry, i: usize) -> Option<Staged> {
        if i >= self.len() {
            return None;
        }
        let (c, off) = locate(i);
        let chunk = self.chunks[c].load(Ordering::Acquire);
        // SAFETY: element `i` < len was written (and its chunk pointer
        // stored) by the writer before the release store of a length past
        // it, which the acquire load above saw; written elements are never
        // changed; chunks are freed only by `Open::release`, which needs
        // the registry exclusively (`&mut Registry`), while the caller
        // holds it (`&Registry`), or when the log is dropped.
        Some(unsafe { chunk.add(off).read() })
    }

    /// The writer's next chunk, for element `i` (the first of a chunk):
    /// its start and its length, `None` past the last chunk.
    #[cold]
    #[inline(never)]
    pub(super) fn new_chunk(&self, i: usize) -> Option<(*mut Staged, usize)> {
        let (c, off) = locate(i);
        if c >= CHUNKS || off != 0 {
            return None;
        }
        let layout = Self::layout(c);
        // SAFETY: the layout has a non-zero size.
        let chunk = unsafe { std::alloc::alloc(layout) }.cast::<Staged>();
        if chunk.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        self.chunks[c].store(chunk, Ordering::Release);
        Some((chunk, FIRST << c))
    }

    /// The published elements `from..` as runs (one per chunk), in `out`;
    /// returns the runs and how many elements they hold (the caller holds
    /// the registry).
    pub(super) fn runs<'a>(
        &'a self,
        _holding: &'a Registry,
        from: usize,
        out: &'a mut [&'a [Staged]; CHUNKS],
    ) -> (&'a [&'a [Staged]], usize) {
        let to = self.len();
        let (mut i, mut k) = (from, 0);
        while i < to {
            let (c, off) = locate(i);
            let n = ((FIRST << c) - off).min(to - i);
            let chunk = self.chunks[c].load(Ordering::Acquire);
            // SAFETY: as in `get`: elements `i..i + n` < len are written,
            // never changed, and lie in chunk `c` (`locate`), which stays
            // allocated while the caller holds the registry.
            out[k] = unsafe { std::slice::from_raw_parts(chunk.add(off), n) };
            i += n;
            k += 1;
        }
        (&out[..k], to.saturating_sub(from))
    }

    /// Frees every chunk and empties the log.
    ///
    /// # Safety
    /// No writer may push any more and no reader may read concurrently.
    pub(super) unsafe fn free_chunks(&self) {
        self.len.store(0, Ordering::Release);
        for (c, chunk) in self.chunks.iter().enumerate() {
            let p = chunk.swap(std::ptr::null_mut(), Ordering::AcqRel);
            if !p.is_null() {
                // SAFETY: `p` came from `alloc` with this very layout and is
                // freed once (swapped out); `Staged` needs no drop; by the
                // caller's promise nobody reads or writes it any more.
                unsafe { std::alloc::dealloc(p.cast(), Self::layout(c)) };
            }
        }
    }
}

impl Drop for AppendLog {
    fn drop(&mut self) {
        // SAFETY: `&mut self`: nobody else can read or write the log.
        unsafe { self.free_chunks() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_log_chunks_cover_every_index_once() {
        let mut expect = (0, 0);
        for i in 0..100_000 {
            assert_eq!(locate(i), expect, "index {i}");
            expect.1 += 1;
            if expect.1 == FIRST << expect.0 {
                expect = (expect.0 + 1, 0);
            }
        }
    }
}
