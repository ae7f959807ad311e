//! Kernel handles: the driver's `CUkernel` of each of a fatbin's published
//! kernels once resolved ([`KernelHandles`], one per fatbin), and the set
//! of every handle the registry resolved ([`RESOLVED`]).

use crate::addrmap::AddrSet;
use crate::driver::CUkernel;
use once_cell::sync::Lazy;
use parking_lot::RwLock;
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// Slots per chunk of [`KernelHandles`].
pub(super) const HANDLE_CHUNK: usize = 64;

/// The driver's handle of each of a fatbin's published kernels once
/// resolved, by the kernel's index: chunks of [`HANDLE_CHUNK`] slots, each
/// made (zeroed) when the first of its kernels resolves. A fatbin of 2,000
/// kernels made 16 KiB of zeroed slots at its first launch before, 16,370
/// instructions of zeroing on the first launch's path (callgrind; finding
/// 13 of docs/first-launch.md); now 32 empty cells and one chunk.
#[derive(Default)]
pub(super) struct KernelHandles {
    chunks: Box<[OnceLock<Box<HandleChunk>>]>,
}

/// One chunk of [`KernelHandles`]: null until its kernel resolves.
type HandleChunk = [AtomicPtr<c_void>; HANDLE_CHUNK];

impl KernelHandles {
    /// Room for `n` kernels, no chunk made yet.
    pub(super) fn new(n: usize) -> Self {
        Self {
            chunks: (0..n.div_ceil(HANDLE_CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    /// Whether it has room for no kernel (not made yet, or dropped).
    pub(super) fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// The handle of kernel `i`; null when not resolved (or out of room).
    pub(super) fn get(&self, i: usize) -> CUkernel {
        CUkernel::from(
            self.chunks
                .get(i / HANDLE_CHUNK)
                .and_then(OnceLock::get)
                .map_or(std::ptr::null_mut(), |c| {
                    c[i % HANDLE_CHUNK].load(Ordering::Acquire)
                }),
        )
    }

    /// Keeps `h` for kernel `i` (its chunk made if needed); false when
    /// there is no room for `i`.
    pub(super) fn set(&self, i: usize, h: CUkernel) -> bool {
        let Some(cell) = self.chunks.get(i / HANDLE_CHUNK) else {
            return false;
        };
        let chunk = cell.get_or_init(|| {
            Box::new(std::array::from_fn(
                |_| AtomicPtr::new(std::ptr::null_mut()),
            ))
        });
        chunk[i % HANDLE_CHUNK].store(h.as_raw(), Ordering::Release);
        true
    }

    /// Every resolved handle.
    pub(super) fn resolved(&self) -> impl Iterator<Item = CUkernel> + '_ {
        self.chunks
            .iter()
            .filter_map(OnceLock::get)
            .flat_map(|c| c.iter().map(|h| CUkernel::from(h.load(Ordering::Acquire))))
            .filter(|h| !h.is_null())
    }

    /// The index of the kernel whose handle is `k`.
    pub(super) fn position(&self, k: CUkernel) -> Option<usize> {
        self.chunks.iter().enumerate().find_map(|(c, cell)| {
            let slots = cell.get()?;
            let j = slots
                .iter()
                .position(|h| h.load(Ordering::Acquire) == k.as_raw())?;
            Some(c * HANDLE_CHUNK + j)
        })
    }
}

/// The kernel handles the registry resolved (`cuLibraryGetKernel`), while
/// their fatbins are registered: what `__cudaGetKernel` hands nvcc's stubs,
/// which launch with them. Read on launch-cache misses only.
pub(super) static RESOLVED: Lazy<RwLock<AddrSet>> = Lazy::new(Default::default);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_come_in_chunks_made_on_first_use() {
        let k = |n: usize| CUkernel::from(n as *mut std::ffi::c_void);
        let empty = KernelHandles::default();
        assert!(empty.is_empty());
        assert!(!empty.set(0, k(1)), "no room before new()");
        assert!(empty.get(0).is_null());

        let n = 2 * HANDLE_CHUNK + 5;
        let h = KernelHandles::new(n);
        assert!(!h.is_empty());
        assert!(
            h.chunks.iter().all(|c| c.get().is_none()),
            "no chunk made yet"
        );
        // The last kernel: only its chunk is made.
        assert!(h.set(n - 1, k(0x10)));
        let made = h.chunks.iter().filter(|c| c.get().is_some()).count();
        assert_eq!(made, 1);
        assert_eq!(h.get(n - 1), k(0x10));
        assert!(h.get(n - 2).is_null(), "a neighbour stays unresolved");
        assert!(
            h.get(0).is_null(),
            "another chunk's kernel stays unresolved"
        );
        // A chunk boundary on both sides.
        assert!(h.set(HANDLE_CHUNK - 1, k(0x20)));
        assert!(h.set(HANDLE_CHUNK, k(0x30)));
        assert_eq!(h.get(HANDLE_CHUNK - 1), k(0x20));
        assert_eq!(h.get(HANDLE_CHUNK), k(0x30));
        assert_eq!(h.position(k(0x30)), Some(HANDLE_CHUNK));
        assert_eq!(h.position(k(0x10)), Some(n - 1));
        assert_eq!(h.position(k(0x99)), None);
        // Out of room: refused, nothing written.
        assert!(!h.set(3 * HANDLE_CHUNK, k(0x40)));
        assert!(h.get(3 * HANDLE_CHUNK).is_null());
        assert_eq!(h.position(k(0x40)), None);
        // Every resolved handle, none of the unresolved slots.
        let mut all: Vec<usize> = h.resolved().map(|p| p.as_raw() as usize).collect();
        all.sort_unstable();
        assert_eq!(all, [0x10, 0x20, 0x30]);
        assert_eq!(empty.resolved().count(), 0);
    }
}
