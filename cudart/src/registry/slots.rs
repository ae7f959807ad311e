//! Open slots: each thread's hold on the fatbin it is registering, between
//! `__cudaRegisterFatBinary` and `__cudaRegisterFatBinaryEnd`, with the
//! write position in that fatbin's
//! [`AppendLog`](super::append_log::AppendLog), in a thread-local
//! ([`OPEN`]).

use super::append_log::Staged;
use super::{Fatbin, Registry};
use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The registering thread's hold on a fatbin between
/// `__cudaRegisterFatBinary` and `__cudaRegisterFatBinaryEnd`: the one
/// writer of its [`AppendLog`](super::append_log::AppendLog). Made once
/// per fatbin, never cloned; kept in the thread's [`OPEN`] slot in
/// between.
pub(super) struct Open {
    pub(super) key: usize,
    pub(super) fatbin: Arc<Fatbin>,
}

impl Open {
    /// The registration is over and published: the staging chunks go back
    /// to the allocator (the next fatbin's list reuses them).
    pub(super) fn release(self, _exclusive: &mut Registry) {
        // SAFETY: no writer: `self` is the fatbin's one `Open`, consumed
        // here. No reader: readers hold the registry (`AppendLog::get`
        // takes `&Registry`), and the caller holds it exclusively.
        unsafe { self.fatbin.staged.free_chunks() }
    }
}

/// A thread's [`Open`], in a thread-local without a destructor (so the
/// look-up is a plain thread-local access, and works in exit handlers
/// too): `key` 0 when empty, else `fatbin` is the `Arc`'s raw pointer,
/// whose strong count the slot holds. A thread that ends with a
/// registration open leaves that count behind (the fatbin then stays
/// allocated for the process).
pub(super) struct OpenSlot {
    key: Cell<usize>,
    fatbin: Cell<*const Fatbin>,
    /// The writer's place in the log: the next free element of the current
    /// chunk, the room left there, and the length written.
    cursor: Cell<*mut Staged>,
    room: Cell<usize>,
    len: Cell<usize>,
}

impl OpenSlot {
    pub(super) fn put(&self, open: Open) {
        debug_assert_eq!(self.key.get(), 0);
        self.key.set(open.key);
        self.fatbin.set(Arc::into_raw(open.fatbin));
        self.cursor.set(std::ptr::null_mut());
        self.room.set(0);
        self.len.set(0);
    }

    /// The slot's `Open` if it is `key`'s (any when `None`), emptying it.
    pub(super) fn take(&self, key: Option<usize>) -> Option<Open> {
        let k = self.key.get();
        if k == 0 || key.is_some_and(|want| want != k) {
            return None;
        }
        self.key.set(0);
        self.cursor.set(std::ptr::null_mut());
        self.room.set(0);
        let p = self.fatbin.replace(std::ptr::null());
        // SAFETY: `p` came from `Arc::into_raw` in `put`, and the count it
        // carries is taken back once (the slot is emptied above).
        Some(Open {
            key: k,
            fatbin: unsafe { Arc::from_raw(p) },
        })
    }

    /// Appends to the open fatbin's list if it is `key`'s: two stores and
    /// the length's release store.
    #[inline(always)]
    pub(super) fn push(&self, key: usize, v: Staged) -> bool {
        if self.key.get() != key || key == 0 {
            return false;
        }
        // SAFETY: a non-empty slot holds a strong count of the fatbin
        // (`put`), so it is alive.
        let log = unsafe { &(*self.fatbin.get()).staged };
        let n = self.len.get();
        let mut room = self.room.get();
        if room == 0 {
            let Some((chunk, size)) = log.new_chunk(n) else {
                return false; // past the last chunk: the locked path
            };
            self.cursor.set(chunk);
            room = size;
        }
        let p = self.cursor.get();
        // SAFETY: single writer: a fatbin's `Open` is made once
        // (`register_fatbin`) and put in one thread's slot; only that
        // thread writes, until it takes the `Open` out for good. `p` is the
        // next element of the current chunk (`room` > 0 left in it), not
        // yet published, so no reader reads it.
        unsafe { p.write(v) };
        self.cursor.set(p.wrapping_add(1));
        self.room.set(room - 1);
        self.len.set(n + 1);
        log.len.store(n + 1, Ordering::Release);
        true
    }
}

thread_local! {
    /// The fatbin this thread is registering (between
    /// `__cudaRegisterFatBinary` and `__cudaRegisterFatBinaryEnd`).
    pub(super) static OPEN: OpenSlot = const {
        OpenSlot {
            key: Cell::new(0),
            fatbin: Cell::new(std::ptr::null()),
            cursor: Cell::new(std::ptr::null_mut()),
            room: Cell::new(0),
            len: Cell::new(0),
        }
    };
}
