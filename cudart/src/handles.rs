//! Handles the runtime made and destroyed, by kind. The driver dereferences
//! a handle it is given: one whose object is gone, or an object of another
//! kind (a stream passed as a memory pool), makes it read memory that is
//! not what it expects and, often, crash the process. NVIDIA's runtime
//! passes such handles on and crashes with it (the bad-input matrix on the
//! H200). This room remembers, per address, what the runtime last did
//! there: made an object of a kind ("live") or destroyed one ("gone"). A
//! call that takes a handle of kind K refuses, without reaching the driver,
//! one the runtime destroyed as a K, and one that is a live object of
//! another kind. A stream or event handle the table does not know goes to
//! the driver once it is found to be readable memory ([`unreadable`]):
//! handles made through the driver directly or by another runtime in the
//! process, or forgotten ones; a garbage address is refused.
//!
//! Freed device memory is kept here too ([`Kind::DeviceMemory`], the base
//! address `cudaFree` was given). A copy whose pointer the driver cannot
//! place runs as a host copy inside the driver and faults on a freed
//! device address; a pointer recorded as freed is checked with the driver
//! (a pointer query, which reads nothing at the address) before a copy.
//!
//! The record is a fixed table of [`SLOTS`] words, read without a lock: one
//! relaxed load while nothing was ever recorded, else a hash and a few
//! probes. Each word holds the address (low 55 bits), whether the object is
//! gone (bit 55) and its kind (the top byte), so a reader sees one
//! consistent entry. Writers (the calls that make and destroy objects,
//! which call the driver anyway) take a lock once per call, that of the
//! address's shard ([`SHARDS`] of them, chosen by the address's 4 KiB
//! page, so threads making objects in different pages rarely wait for
//! each other): under it the table's word and, for events and streams,
//! the context each was made in ([`made_in`], [`crate::owners`]), so that
//! a reset can declare them dead with their context ([`die_with`]). The
//! table is bounded: when
//! the probe window of an address is full, the oldest entry there is
//! overwritten, and the address is forgotten (its calls go to the driver).
//!
//! A record can be wrong in one way: the driver may hand an address the
//! runtime saw destroyed as a K to a new K made outside the runtime, and a
//! refusal would then refuse a live handle, which NVIDIA's runtime accepts.
//! Two rules keep refusals exact:
//! - handles the driver makes behind calls that hand them out (added
//!   nodes, node lists, clone look-ups; the arrays of mipmap levels,
//!   planes, graphics and external-memory mappings) are taken out of the
//!   table;
//! - a refusal that rests on the record (gone, live as another kind, dead
//!   with its context) stands only while no other maker of driver handles
//!   is loaded in the process ([`record_stands`]): another CUDA runtime
//!   (NVIDIA's static one inside cuBLAS, cuDNN, NCCL or CuPy's wheel), or a
//!   library that calls the driver. With one present, such handles go on
//!   to the driver, as under NVIDIA's runtime.
//!
//! Handles that are not readable memory are refused whatever is loaded:
//! no live object is there. The remaining hole: a program that calls the
//! driver only through names it builds at run time (ctypes from Python,
//! with the names in Python strings) is not seen, and a handle its
//! driver calls got at an address the runtime saw destroyed is refused.

use crate::abi::cudaError_t;
use crate::addrmap::{mix, AddrTable};
use crate::owners::{Owners, GRAIN_SHIFT, PAGE_SHIFT};
use parking_lot::{Mutex, MutexGuard};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The kinds of object the runtime tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    Stream = 1,
    Event,
    Array,
    Mipmap,
    Graph,
    Node,
    GraphExec,
    Library,
    Kernel,
    MemPool,
    AsyncCallback,
    LogsCallback,
    ExternalMemory,
    ExternalSemaphore,
    GraphicsResource,
    DeviceMemory,
    /// A handle made outside the runtime (by another runtime in the
    /// process, or through the driver) that was found to be readable
    /// memory ([`unreadable`]): passed on to the driver as any kind.
    Foreign,
}

impl Kind {
    const ALL: [Kind; 17] = [
        Kind::Stream,
        Kind::Event,
        Kind::Array,
        Kind::Mipmap,
        Kind::Graph,
        Kind::Node,
        Kind::GraphExec,
        Kind::Library,
        Kind::Kernel,
        Kind::MemPool,
        Kind::AsyncCallback,
        Kind::LogsCallback,
        Kind::ExternalMemory,
        Kind::ExternalSemaphore,
        Kind::GraphicsResource,
        Kind::DeviceMemory,
        Kind::Foreign,
    ];

    fn from_tag(tag: u8) -> Option<Kind> {
        Kind::ALL.get(usize::from(tag).checked_sub(1)?).copied()
    }
}

/// What the table knows of an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Live(Kind),
    Gone(Kind),
}

/// Table size (a power of two): 32 KiB of words.
const SLOTS: usize = 4096;
/// Slots probed from an address's home slot, within its shard.
const WINDOW: usize = 8;
/// Shards of the table (a power of two): each owns [`SHARD_SLOTS`]
/// consecutive slots and has its own writers' lock. An address's probe
/// window wraps within its home slot's shard, so one lock covers every
/// slot a write to it touches.
const SHARDS: usize = 16;
const SHARD_SLOTS: usize = SLOTS / SHARDS;
/// Addresses are the low bits of a word (user-space addresses are below
/// 2^47 on x86-64, 2^52 on AArch64); larger ones are not recorded.
const ADDR_BITS: u32 = 55;
const ADDR_MASK: u64 = (1 << ADDR_BITS) - 1;
const GONE_BIT: u64 = 1 << ADDR_BITS;
/// A slot whose address was taken out (probing goes on past it).
const TOMBSTONE: u64 = 1;

static TABLE: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
/// Set at the first record: until then no call looks anything up.
static ANY: AtomicBool = AtomicBool::new(false);
/// Serialize the writers of each shard, and hold what only they touch.
static WRITERS: [Mutex<Writers>; SHARDS] = [const {
    Mutex::new(Writers {
        evict: 0,
        owners: Owners::new(),
        dead: AddrTable::new(),
    })
}; SHARDS];
/// Set once a reset left a dead event or stream: only then do the event
/// and stream calls look their handle up in [`Writers::dead`].
static ANY_DEAD: AtomicBool = AtomicBool::new(false);

/// A shard's writers' state: the next slot to evict within a window; for
/// the events and streams the runtime made at its addresses, the context
/// each was made in ([`Owners`], which keeps the handles of one page
/// together, as the driver hands them out); and those a reset destroyed
/// with their context (an [`AddrTable`], indexed by the low bits of the
/// handle's own hash, which the shard leaves free). One lock for all, so
/// making or destroying an object takes it once.
struct Writers {
    evict: usize,
    owners: Owners,
    dead: AddrTable<()>,
}

/// Bits of [`home`] that name the shard, and those that name the slot in it.
const SHARD_BITS: u32 = SHARDS.trailing_zeros();
const SLOT_BITS: u32 = SHARD_SLOTS.trailing_zeros();
// A page's 16-byte units fill one shard's slots exactly (see [`home`]).
const _: () = assert!(SHARD_SLOTS == 1 << (PAGE_SHIFT - GRAIN_SHIFT));

#[inline(always)]
fn home(addr: u64) -> usize {
    // The shard from the top bits of the hash of the handle's 4 KiB page,
    // so that the handles the driver makes one after another (several to
    // a page) go to one shard's owners map, whose entries hold a page's
    // handles together. The slot in the shard from the handle's offset in
    // its page (in 16-byte units: one slot each) scrambled by other bits
    // of the page's hash, so that the handles of one page never share a
    // home slot and those of different pages spread. Neither the owners
    // map (the low bits of the page's hash) nor the dead set (the low bits
    // of the handle's own hash) indexes with bits the shard fixes.
    let m = mix(addr >> PAGE_SHIFT);
    let shard = (m >> (u64::BITS - SHARD_BITS)) as usize;
    let slot = ((addr >> GRAIN_SHIFT) ^ (m >> (u64::BITS - SHARD_BITS - SLOT_BITS))) as usize;
    shard << SLOT_BITS | slot & (SHARD_SLOTS - 1)
}

/// The `i`th slot of the probe window from home slot `h`: it wraps within
/// `h`'s shard.
#[inline(always)]
fn probe(h: usize, i: usize) -> usize {
    (h & !(SHARD_SLOTS - 1)) | ((h + i) & (SHARD_SLOTS - 1))
}

/// The writers' lock of `handle`'s shard.
fn writers(handle: *const c_void) -> MutexGuard<'static, Writers> {
    WRITERS[home(handle as usize as u64) / SHARD_SLOTS].lock()
}

fn address(handle: *const c_void) -> Option<u64> {
    let a = handle as usize as u64;
    (a > TOMBSTONE && a <= ADDR_MASK).then_some(a)
}

/// What the table knows of `handle`, if anything.
#[inline(always)]
pub fn state(handle: *const c_void) -> Option<State> {
    if !ANY.load(Ordering::Relaxed) {
        return None;
    }
    lookup(handle)
}

#[inline(never)]
fn lookup(handle: *const c_void) -> Option<State> {
    let addr = address(handle)?;
    let h = home(addr);
    for i in 0..WINDOW {
        match TABLE[probe(h, i)].load(Ordering::Acquire) {
            0 => return None,
            w if w & ADDR_MASK == addr => return decode(w),
            _ => {}
        }
    }
    None
}

/// The state a table word holds.
fn decode(word: u64) -> Option<State> {
    let kind = Kind::from_tag((word >> 56) as u8)?;
    Some(if word & GONE_BIT != 0 {
        State::Gone(kind)
    } else {
        State::Live(kind)
    })
}

/// The bits of a table word above the address that hold `state`.
fn encode(state: State) -> u64 {
    match state {
        State::Live(k) => (k as u64) << 56,
        State::Gone(k) => GONE_BIT | (k as u64) << 56,
    }
}

/// Whether what the table knows of a handle rules it out as a `kind`.
#[inline(always)]
fn contradicts(state: State, kind: Kind) -> bool {
    match state {
        State::Gone(k) => k == kind,
        State::Live(k) => k != kind && k != Kind::Foreign,
    }
}

/// Whether a refusal that rests on the record stands: no object in the
/// process other than this runtime and the driver makes driver handles
/// ([`crate::objects::other_handle_maker`]). Asked only on the way to a
/// refusal; the answer is kept until the loaded objects change.
#[cold]
#[inline(never)]
pub fn record_stands() -> bool {
    crate::objects::other_handle_maker().is_none()
}

/// A handle as the calls take it: a mutable or a const pointer.
pub trait Address: Copy {
    fn address(self) -> *const c_void;
}

impl<T> Address for *mut T {
    fn address(self) -> *const c_void {
        self.cast_const().cast()
    }
}

impl<T> Address for *const T {
    fn address(self) -> *const c_void {
        self.cast()
    }
}

/// `handle`, or `error` when it is NULL: for the calls whose NULL handle
/// NVIDIA's runtime answers with another code than the handle's room does.
#[inline(always)]
pub fn present<P: Address>(handle: P, error: cudaError_t) -> Result<P, cudaError_t> {
    if handle.address().is_null() {
        Err(error)
    } else {
        Ok(handle)
    }
}

/// A handle the table does not know and that is not readable memory is
/// refused with `error`; every other handle goes on as it came (the calls
/// that use this keep the driver's answers for destroyed handles).
#[inline(always)]
pub fn readable_or(handle: *const c_void, error: cudaError_t) -> Result<(), cudaError_t> {
    if state(handle).is_none() && !handle.is_null() && unreadable(handle) {
        Err(error)
    } else {
        Ok(())
    }
}

/// For a handle the table does not know: whether it is not readable host
/// memory, so that the driver, which reads the object behind a handle,
/// would fault on it (a garbage handle such as `0xdeadbeef`). An event or
/// stream the runtime made and has not destroyed is readable without
/// asking: the bounded table forgets old handles when many are alive, and
/// the owners map still holds them (one lock, no system call, no eviction).
/// Otherwise one system call; a readable handle is recorded as
/// [`Kind::Foreign`], so the next call with it asks nothing.
#[cold]
#[inline(never)]
pub fn unreadable(handle: *const c_void) -> bool {
    if writers(handle).owners.contains_key(handle as usize) {
        return false;
    }
    if host_readable(handle) {
        made(handle, Kind::Foreign);
        false
    } else {
        true
    }
}

/// Whether the byte at `addr` is readable host memory of this process
/// ([`read_own`]). One system call: for cold paths only.
pub fn host_readable(addr: *const std::ffi::c_void) -> bool {
    read_own::<u8>(addr as usize).is_some()
}

/// A `T` read from this process's own memory at `addr`, or `None` where
/// that memory is not readable: asked of the kernel (`process_vm_readv` on
/// ourselves), which answers EFAULT for an unmapped or inaccessible
/// address instead of faulting, so a bad pointer a program passed reads
/// nothing. One system call: for cold paths only.
pub(crate) fn read_own<T: Copy + Default>(addr: usize) -> Option<T> {
    if addr == 0 {
        return None;
    }
    let mut v = T::default();
    let len = std::mem::size_of::<T>();
    let local = libc::iovec {
        iov_base: (&mut v as *mut T).cast(),
        iov_len: len,
    };
    let remote = libc::iovec {
        iov_base: addr as *mut c_void,
        iov_len: len,
    };
    // SAFETY: `local` describes `v`, `len` writable bytes on this frame;
    // the kernel copies into it from `remote` only what is readable and
    // answers EFAULT otherwise (it reads nothing through our own mappings).
    // `T: Copy` has no drop and, being one of the plain integer or pointer
    // types the callers read, takes any bytes.
    let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    (n == len as isize).then_some(v)
}

/// [`check_or`] with `cudaErrorInvalidResourceHandle`, what the stream,
/// event and array calls answer for a destroyed handle.
#[inline(always)]
pub fn check(handle: *const c_void, kind: Kind) -> Result<(), cudaError_t> {
    check_or(handle, kind, cudaError_t::cudaErrorInvalidResourceHandle)
}

/// [`refused`] as `error`: the code NVIDIA's runtime gives for such a
/// handle where it does not crash (measured on the H200: graph nodes,
/// libraries, external memory and semaphores answer
/// `cudaErrorInvalidValue`).
///
/// A non-NULL handle the table does not know must be readable memory
/// ([`unreadable`]): the driver reads the object behind it.
#[inline(always)]
pub fn check_or(handle: *const c_void, kind: Kind, error: cudaError_t) -> Result<(), cudaError_t> {
    let refuse = match state(handle) {
        None => !handle.is_null() && unreadable(handle),
        Some(s) => contradicts(s, kind) && record_stands(),
    };
    if refuse {
        Err(error)
    } else {
        Ok(())
    }
}

/// Whether the runtime destroyed `handle` as a `kind` (and saw nothing
/// made there since).
#[inline(always)]
pub fn is_gone(handle: *const c_void, kind: Kind) -> bool {
    state(handle) == Some(State::Gone(kind))
}

/// [`is_gone`], as a refusal: only while the record stands
/// ([`record_stands`]).
#[inline(always)]
pub fn stale(handle: *const c_void, kind: Kind) -> bool {
    is_gone(handle, kind) && record_stands()
}

fn write(handle: *const c_void, state: State) {
    write_locked(&mut writers(handle), handle, state);
}

/// Records `state` at `handle`; returns what the table held there before.
fn write_locked(w: &mut Writers, handle: *const c_void, state: State) -> Option<State> {
    let addr = address(handle)?;
    let word = addr | encode(state);
    let evict = &mut w.evict;
    let h = home(addr);
    let mut free = None;
    for i in 0..WINDOW {
        let slot = &TABLE[probe(h, i)];
        match slot.load(Ordering::Relaxed) {
            w if w & ADDR_MASK == addr => {
                slot.store(word, Ordering::Release);
                return decode(w);
            }
            0 | TOMBSTONE if free.is_none() => free = Some(slot),
            0 => break,
            _ => {}
        }
    }
    let slot = free.unwrap_or_else(|| {
        *evict = (*evict + 1) % WINDOW;
        &TABLE[probe(h, *evict)]
    });
    slot.store(word, Ordering::Release);
    ANY.store(true, Ordering::Release);
    None
}

/// Records an object of `kind` the runtime just made at `handle` (no lock
/// when it is recorded so already: handles asked for again and again).
pub fn made(handle: *const c_void, kind: Kind) {
    if state(handle) == Some(State::Live(kind)) {
        return;
    }
    write(handle, State::Live(kind));
}

/// Records an event or stream the runtime just made in context `ctx`
/// (an address the driver reuses is alive again).
pub fn made_in(handle: *const c_void, kind: Kind, ctx: *const c_void) {
    let mut w = writers(handle);
    write_locked(&mut w, handle, State::Live(kind));
    if ANY_DEAD.load(Ordering::Relaxed) {
        w.dead.remove(handle as usize);
    }
    w.owners.insert(handle as usize, ctx as usize);
}

/// Records an object of `kind` destroyed (the runtime destroys through
/// [`destroy`]).
#[cfg(test)]
pub fn gone(handle: *const c_void, kind: Kind) {
    mark_gone(&mut writers(handle), handle, kind);
}

/// What a destroy found before it recorded its handle gone: the record,
/// and the context that owned the event or stream.
type Before = (Option<State>, Option<usize>);

fn mark_gone(w: &mut Writers, handle: *const c_void, kind: Kind) -> Before {
    let state = write_locked(w, handle, State::Gone(kind));
    (state, w.owners.remove(handle as usize))
}

/// Destroys the object of `kind` at `handle` with `destroy` (the driver's
/// call) and records it gone. The record is written before the driver
/// call: once the driver has freed the object, another thread may be
/// handed the same address for a new one and record it alive, and a
/// record written after the call would then mark that live object gone
/// (and refuse it). If the driver refuses, the record is put back as it
/// was (the object was not freed, so nobody else has its address).
pub fn destroy<E>(
    handle: *const c_void,
    kind: Kind,
    destroy: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    let before = mark_gone(&mut writers(handle), handle, kind);
    let r = destroy();
    if r.is_err() {
        put_back(handle, before);
    }
    r
}

/// [`destroy`] for objects of `kind` that one driver call destroys
/// together (a library's kernels with the library).
pub fn destroy_all<E>(
    handles: &[*const c_void],
    kind: Kind,
    destroy: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    let before: Vec<Before> = handles
        .iter()
        .map(|&h| mark_gone(&mut writers(h), h, kind))
        .collect();
    let r = destroy();
    if r.is_err() {
        for (&h, b) in handles.iter().zip(before) {
            put_back(h, b);
        }
    }
    r
}

#[cold]
#[inline(never)]
fn put_back(handle: *const c_void, (state, owner): Before) {
    let Some(state) = state else {
        return forget(handle);
    };
    let mut w = writers(handle);
    write_locked(&mut w, handle, state);
    if let Some(ctx) = owner {
        w.owners.insert(handle as usize, ctx);
    }
}

/// The events and streams made in `ctx` die with it (a reset, or the
/// primary context taken away from the runtime).
pub fn die_with(ctx: *const c_void) {
    let ctx = ctx as usize;
    for shard in &WRITERS {
        let mut w = shard.lock();
        let w = &mut *w;
        let before = w.owners.len();
        w.owners.retain(|handle, c| {
            if c == ctx {
                w.dead.insert(handle, ());
            }
            c != ctx
        });
        if w.owners.len() != before {
            ANY_DEAD.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether `handle` is an event or stream whose context died under it
/// ([`die_with`]), and the record stands ([`record_stands`]). One relaxed
/// load until a reset left such handles.
#[inline(always)]
pub fn died_with_context(handle: *const c_void) -> bool {
    ANY_DEAD.load(Ordering::Relaxed) && died_slow(handle) && record_stands()
}

#[cold]
#[inline(never)]
fn died_slow(handle: *const c_void) -> bool {
    writers(handle).dead.contains_key(handle as usize)
}

/// Takes `handle` out of the table: an address the driver handed out for
/// an object the runtime does not keep a record of (device memory, graph
/// nodes), which must not be refused as what was there before.
pub fn forget(handle: *const c_void) {
    let Some(addr) = address(handle) else {
        return;
    };
    // Lists of nodes are forgotten one by one: the lock only for a hit.
    if state(handle).is_none() {
        return;
    }
    let _w = writers(handle);
    let h = home(addr);
    for i in 0..WINDOW {
        let slot = &TABLE[probe(h, i)];
        match slot.load(Ordering::Relaxed) {
            0 => return,
            w if w & ADDR_MASK == addr => {
                slot.store(TOMBSTONE, Ordering::Release);
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(a: usize) -> *const c_void {
        a as *const c_void
    }

    /// Held by the tests that fill the process-wide table with thousands of
    /// entries, so that one does not evict what another counts on finding.
    static FILLS_TABLE: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn fills_table() -> std::sync::MutexGuard<'static, ()> {
        FILLS_TABLE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether a call that takes a `kind` must refuse `handle`: the
    /// runtime destroyed it as a `kind`, or it is a live object of another
    /// kind, and the record stands (what the room checks decide).
    fn refused(handle: *const c_void, kind: Kind) -> bool {
        match state(handle) {
            None => false,
            Some(s) => contradicts(s, kind) && record_stands(),
        }
    }

    #[test]
    fn kinds_round_trip_through_their_tag() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_tag(k as u8), Some(k));
        }
        assert_eq!(Kind::from_tag(0), None);
        assert_eq!(Kind::from_tag(Kind::ALL.len() as u8 + 1), None);
    }

    #[test]
    fn gone_and_wrong_kind_are_refused_unknown_passes() {
        // Addresses far from the ones other tests use.
        let a = 0x7e00_0000_0000usize;
        assert!(!refused(p(a), Kind::Stream));
        made(p(a), Kind::Stream);
        assert_eq!(state(p(a)), Some(State::Live(Kind::Stream)));
        assert!(!refused(p(a), Kind::Stream));
        assert!(refused(p(a), Kind::MemPool), "a live stream is no pool");
        assert_eq!(
            check(p(a), Kind::Graph),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
        gone(p(a), Kind::Stream);
        assert!(refused(p(a), Kind::Stream));
        assert!(is_gone(p(a), Kind::Stream));
        // What was a stream may be anything now: other kinds go on.
        assert!(!refused(p(a), Kind::Node));
        made(p(a), Kind::Event);
        assert!(!refused(p(a), Kind::Event));
        assert!(!is_gone(p(a), Kind::Stream));
        forget(p(a));
        assert_eq!(state(p(a)), None);
        assert!(!refused(p(a + 0x10), Kind::Stream));
        assert!(!refused(std::ptr::null(), Kind::Stream));
        // Addresses past the word's address bits are not recorded.
        let high = p(1usize << 60);
        gone(high, Kind::Stream);
        assert_eq!(state(high), None);
    }

    #[test]
    fn an_address_handed_out_again_during_a_destroy_stays_alive() {
        let (ev, ctx, ctx2) = (
            p(0x7d30_0000_0040),
            p(0x7d31_0000_0000),
            p(0x7d32_0000_0000),
        );
        made_in(ev, Kind::Event, ctx);
        // The driver frees the event, and before the destroying thread
        // returns another thread is given the same address.
        let r: Result<(), ()> = destroy(ev, Kind::Event, || {
            made_in(ev, Kind::Event, ctx2);
            Ok(())
        });
        assert_eq!(r, Ok(()));
        assert_eq!(state(ev), Some(State::Live(Kind::Event)));
        assert!(check(ev, Kind::Event).is_ok());
        // The new event is owned by its own context.
        die_with(ctx2);
        assert!(died_with_context(ev));
    }

    #[test]
    fn a_destroy_the_driver_refuses_leaves_the_record_as_it_was() {
        let (ev, ctx) = (p(0x7d40_0000_0040), p(0x7d41_0000_0000));
        made_in(ev, Kind::Event, ctx);
        assert_eq!(destroy(ev, Kind::Event, || Err(7)), Err(7));
        assert_eq!(state(ev), Some(State::Live(Kind::Event)));
        die_with(ctx);
        assert!(died_with_context(ev), "still owned by its context");
        // An address the record did not know stays unknown.
        let unknown = p(0x7d42_0000_0040);
        assert_eq!(destroy(unknown, Kind::Stream, || Err(())), Err(()));
        assert_eq!(state(unknown), None);
        // A library and its kernels go together.
        let (lib, k1, k2) = (
            p(0x7d43_0000_0040),
            p(0x7d43_0000_0080),
            p(0x7d43_0000_00c0),
        );
        made(lib, Kind::Library);
        made(k1, Kind::Kernel);
        let r: Result<(), ()> = destroy(lib, Kind::Library, || {
            destroy_all(&[k1, k2], Kind::Kernel, || Ok(()))
        });
        assert_eq!(r, Ok(()));
        assert!(
            is_gone(lib, Kind::Library) && is_gone(k1, Kind::Kernel) && is_gone(k2, Kind::Kernel)
        );
        made(k1, Kind::Kernel);
        let r = destroy_all(&[k1, k2], Kind::Kernel, || Err(()));
        assert_eq!(r, Err(()));
        assert_eq!(state(k1), Some(State::Live(Kind::Kernel)));
        assert_eq!(state(k2), Some(State::Gone(Kind::Kernel)));
    }

    #[test]
    fn events_and_streams_die_with_their_context_only() {
        // Addresses and contexts far from the ones other tests use.
        let (ev, st, other) = (
            0x7d00_0000_0040usize,
            0x7d00_0000_0080usize,
            0x7d00_0000_00c0usize,
        );
        let (ctx, ctx2) = (p(0x7d10_0000_0000), p(0x7d20_0000_0000));
        made_in(p(ev), Kind::Event, ctx);
        made_in(p(st), Kind::Stream, ctx);
        made_in(p(other), Kind::Event, ctx2);
        assert!(!died_with_context(p(ev)));
        die_with(ctx);
        assert!(died_with_context(p(ev)) && died_with_context(p(st)));
        assert!(
            !died_with_context(p(other)),
            "another context's event lives on"
        );
        // An address the driver hands out again is alive again.
        made_in(p(ev), Kind::Event, ctx2);
        assert!(!died_with_context(p(ev)));
        // Destroyed through the runtime: gone, and no longer owned, so a
        // reset of its context does not declare it dead.
        gone(p(other), Kind::Event);
        die_with(ctx2);
        assert!(!died_with_context(p(other)));
        assert!(is_gone(p(other), Kind::Event));
        assert!(died_with_context(p(ev)));
    }

    #[test]
    fn a_shards_owners_spread_over_their_table() {
        // Handles as a driver's pool hands them out (16- to 4096-byte
        // strides) and from malloc: the pages spread over the shards, and
        // the page entries one shard receives spread over its owners map
        // as random keys would (a mean probe distance near 0.5 at three
        // quarters full at most).
        let boxes: Vec<Box<[u8; 48]>> = (0..100_000).map(|_| Box::new([0u8; 48])).collect();
        let mut patterns: Vec<(String, Vec<usize>)> = [0x10usize, 0x40, 0x250, 0x1000]
            .iter()
            .map(|&stride| {
                let n = 1024 * 4096 / stride;
                let keys = (0..n).map(|i| 0x7f00_0000_0000 + i * stride).collect();
                (format!("stride {stride:#x}"), keys)
            })
            .collect();
        let heap = boxes.iter().map(|b| &**b as *const [u8; 48] as usize);
        patterns.push(("malloc".into(), heap.collect()));
        for (name, keys) in patterns {
            let mut owners: Vec<Owners> = (0..SHARDS).map(|_| Owners::new()).collect();
            let mut pages: Vec<std::collections::HashSet<usize>> =
                (0..SHARDS).map(|_| Default::default()).collect();
            for &k in &keys {
                let shard = home(k as u64) / SHARD_SLOTS;
                owners[shard].insert(k, 1);
                pages[shard].insert(k >> 12);
            }
            let all: usize = pages.iter().map(|p| p.len()).sum();
            assert!(all >= 1000, "{name}: {all} pages");
            for (shard, o) in owners.iter().enumerate() {
                let share = all / SHARDS;
                let n = pages[shard].len();
                assert!(
                    n > share / 2 && n < share * 2,
                    "{name}: shard {shard} holds {n} of {all} pages"
                );
                let d = o.mean_displacement();
                assert!(
                    d < 1.5,
                    "{name}: shard {shard}'s mean probe distance {d:.2}"
                );
            }
        }
    }

    #[test]
    fn a_pages_handles_share_a_shard_and_never_a_home_slot() {
        // Every 16-byte unit of a page: one shard, 256 distinct slots in
        // it; over many pages every shard is used.
        let mut shards = std::collections::HashSet::new();
        for page in 0..256usize {
            let base = 0x5631_8317_9000 + page * 4096;
            let homes: Vec<usize> = (0..256).map(|k| home((base + k * 16) as u64)).collect();
            let shard = homes[0] / SHARD_SLOTS;
            assert!(
                homes.iter().all(|&h| h / SHARD_SLOTS == shard),
                "page {page}"
            );
            let slots: std::collections::HashSet<usize> = homes.iter().copied().collect();
            assert_eq!(slots.len(), SHARD_SLOTS, "page {page}: shared home slots");
            shards.insert(shard);
        }
        assert_eq!(
            shards.len(),
            SHARDS,
            "256 pages over {} shards",
            shards.len()
        );
    }

    #[test]
    fn probe_windows_stay_in_their_home_shard() {
        for h in [0, SHARD_SLOTS - 3, SHARD_SLOTS, SLOTS - 1] {
            let shard = h / SHARD_SLOTS;
            let window: Vec<usize> = (0..WINDOW).map(|i| probe(h, i)).collect();
            assert_eq!(window[0], h);
            assert!(
                window.iter().all(|&s| s / SHARD_SLOTS == shard),
                "home {h}: {window:?} leaves shard {shard}"
            );
        }
    }

    #[test]
    fn threads_making_and_destroying_at_once_keep_every_record() {
        let _alone = fills_table();
        // Each thread's addresses fall in every shard; the writers of one
        // shard wait for each other, those of different shards do not.
        // The bounded table may evict an entry for another thread's (or
        // another test's) at any time, so the table's word is checked for
        // what it must not be; the owners map, which forgets nothing, for
        // what it must be.
        let owned = |ev: *const c_void| writers(ev).owners.contains_key(ev as usize);
        let threads: Vec<_> = (0..8usize)
            .map(|t| {
                std::thread::spawn(move || {
                    let ctx = p(0x7c80_0000_0000 + t * 0x1000);
                    let base = 0x7c00_0000_0000usize + t * 0x100_0000;
                    for i in 0..2000usize {
                        let ev = p(base + i * 0x40);
                        made_in(ev, Kind::Event, ctx);
                        assert!(owned(ev) && !is_gone(ev, Kind::Event));
                        assert_eq!(destroy(ev, Kind::Event, || Ok::<(), ()>(())), Ok(()));
                        assert!(!owned(ev));
                        assert_ne!(state(ev), Some(State::Live(Kind::Event)));
                    }
                    // Destroyed through the runtime: none is owned still.
                    die_with(ctx);
                    (0..2000usize).all(|i| !died_with_context(p(base + i * 0x40)))
                })
            })
            .collect();
        for t in threads {
            assert!(t.join().unwrap(), "a destroyed event died with its context");
        }
    }

    #[test]
    fn the_table_stays_bounded_and_keeps_recent_entries() {
        let _alone = fills_table();
        let base = 0x7f00_0000_0000usize;
        let many: Vec<usize> = (0..3 * SLOTS).map(|i| base + 0x1000 + i * 0x40).collect();
        for &a in &many {
            gone(p(a), Kind::Event);
            assert!(is_gone(p(a), Kind::Event), "{a:#x} just destroyed");
        }
        let found = many.iter().filter(|&&a| is_gone(p(a), Kind::Event)).count();
        assert!(found <= SLOTS, "{found} found in a table of {SLOTS}");
        assert!(found >= SLOTS / 4, "only {found} of the recent ones kept");
        for &a in &many {
            forget(p(a));
            assert!(!is_gone(p(a), Kind::Event));
        }
    }

    #[test]
    fn live_events_the_table_forgot_pass_without_a_readability_check() {
        let _alone = fills_table();
        // Addresses no mapping holds (readable() would refuse them), more
        // of them alive than the table has slots.
        let base = 0x6a00_0000_0000usize;
        let many: Vec<usize> = (0..2 * SLOTS).map(|i| base + i * 0x40).collect();
        for &a in &many {
            made_in(p(a), Kind::Event, p(0x1000));
        }
        let forgotten = many.iter().filter(|&&a| state(p(a)).is_none()).count();
        assert!(forgotten > 0, "the table kept all {} handles", many.len());
        assert!(
            many.iter().all(|&a| !unreadable(p(a))),
            "a live event was refused"
        );
        for &a in &many {
            gone(p(a), Kind::Event);
            forget(p(a));
        }
        assert!(unreadable(p(many[0])), "a destroyed, unmapped event passed");
    }
}
