//! What programs register at load time, and the lazy loading behind it.
//!
//! nvcc's constructors call `__cudaRegisterFatBinary`, then
//! `__cudaRegisterFunction`/`__cudaRegisterVar` per kernel and variable,
//! then `__cudaRegisterFatBinaryEnd`, before `main`. Registration only
//! records addresses and names (borrowed: nvcc keeps the names in the
//! program's read-only data until the fatbin is unregistered, which drops
//! every record of it); it never touches the driver.
//!
//! Cost (10,000 kernels in 100 fatbins: `bench/README.md`): the
//! registering thread appends a fatbin's kernels to the fatbin's own list
//! ([`AppendLog`]: no lock, no allocation but a chunk per 64, 128, ...
//! kernels, recycled from one fatbin to the next); `__cudaRegisterFatBinaryEnd`
//! publishes them in one step under one lock, as one array sorted by host
//! stub, indexed by the 16 KiB granules of the stub addresses it covers
//! (a few entries per fatbin, not one per kernel). Until then look-ups
//! also search the lists of the fatbins still being registered, so a
//! kernel is found from its registration on, from every thread.
//! Unregistration drops the fatbin's array and its granule entries.
//!
//! The driver sees a fatbin the first time one of its kernels or variables
//! is needed: `cuLibraryLoadData` (once per fatbin, shared by every context,
//! since a `CUlibrary` is context-independent), then `cuLibraryGetKernel`
//! per kernel on its first launch, cached for the process (in chunks of
//! 64 slots made on first use: the first kernel of a fatbin of thousands
//! allocates one chunk, not a slot for each). Launch-path
//! look-ups go through a small thread-local cache, so launches from many
//! threads never contend on a lock, hash nothing but one multiply, and
//! allocate nothing.

use crate::abi::cudaError_t;
use crate::addrmap::{mix, AddrMap, AddrSet};
use crate::boundary::{In, Out};
use crate::driver::{self, CUdeviceptr, CUkernel, CUlibrary};
use crate::trace;
use once_cell::sync::Lazy;
use parking_lot::{Mutex, RwLock};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

const FATBIN_WRAPPER_MAGIC: u32 = 0x466243B1;
const FATBIN_CONTAINER_MAGIC: u32 = 0xBA55ED50;

/// The 24-byte wrapper nvcc emits in `.nvFatBinSegment`.
#[repr(C)]
#[derive(Copy, Clone)]
struct RawWrapper {
    magic: u32,
    version: u32,
    data: *const c_void,
    prelinked: *const c_void,
}

/// Host stubs are indexed by granules of `1 << GRANULE_BITS` bytes.
const GRANULE_BITS: u32 = 14;

/// The granule of a host stub address.
#[inline]
fn granule(stub: usize) -> usize {
    stub >> GRANULE_BITS
}

/// A kernel as `__cudaRegisterFunction` gave it: host stub and the address
/// of its (mangled) device name.
#[derive(Copy, Clone)]
struct Staged {
    stub: usize,
    name: usize,
}

/// Elements of chunk 0 of an [`AppendLog`]; chunk `c` holds `FIRST << c`.
const FIRST: usize = 64;
/// Chunks of an [`AppendLog`]: `FIRST * (2^CHUNKS - 1)` (4 million)
/// kernels for one fatbin, far more than a cubin can hold (past them,
/// kernels take the locked path).
const CHUNKS: usize = 16;

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
/// length. The writer is the thread holding the fatbin's [`Open`] (one
/// per fatbin), whose [`OpenSlot`] keeps the write position; readers prove
/// they hold the registry with a `&Registry`.
struct AppendLog {
    len: AtomicUsize,
    chunks: [AtomicPtr<Staged>; CHUNKS],
}

impl AppendLog {
    fn new() -> AppendLog {
        AppendLog {
            len: AtomicUsize::new(0),
            chunks: std::array::from_fn(|_| AtomicPtr::new(std::ptr::null_mut())),
        }
    }

    fn layout(c: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Staged>(FIRST << c).expect("chunk size fits")
    }

    #[inline]
    fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Element `i`, if published (the caller holds the registry).
    #[inline]
    fn get(&self, _holding: &Registry, i: usize) -> Option<Staged> {
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
    fn new_chunk(&self, i: usize) -> Option<(*mut Staged, usize)> {
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
    fn runs<'a>(
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
    unsafe fn free_chunks(&self) {
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

/// One registered fatbin (what the driver loads, shared with the threads
/// that load it; the registry keeps the rest of its records).
pub struct Fatbin {
    /// Registration order, for the trace and for precedence (a stub
    /// registered twice is the newer fatbin's).
    pub id: u64,
    /// The container the wrapper points to (the image for the driver).
    image: usize,
    /// The wrapper's address (where the fatbin came from).
    wrapper: usize,
    /// The driver library, once loaded.
    library: AtomicPtr<c_void>,
    load_lock: Mutex<()>,
    /// Managed variables: (host pointer slot, name) to fill on load.
    managed: Mutex<Vec<(usize, usize)>>,
    /// The kernels its registering thread registered, until published.
    staged: AppendLog,
    /// Variables registered for it (for the trace).
    vars: AtomicU32,
    /// When its registration began (only when the trace is on).
    registered: Option<trace::Start>,
}

/// The registering thread's hold on a fatbin between
/// `__cudaRegisterFatBinary` and `__cudaRegisterFatBinaryEnd`: the one
/// writer of its [`AppendLog`]. Made once per fatbin, never cloned; kept
/// in the thread's [`OPEN`] slot in between.
struct Open {
    key: usize,
    fatbin: Arc<Fatbin>,
}

impl Open {
    /// The registration is over and published: the staging chunks go back
    /// to the allocator (the next fatbin's list reuses them).
    fn release(self, _exclusive: &mut Registry) {
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
struct OpenSlot {
    key: Cell<usize>,
    fatbin: Cell<*const Fatbin>,
    /// The writer's place in the log: the next free element of the current
    /// chunk, the room left there, and the length written.
    cursor: Cell<*mut Staged>,
    room: Cell<usize>,
    len: Cell<usize>,
}

impl OpenSlot {
    fn put(&self, open: Open) {
        debug_assert_eq!(self.key.get(), 0);
        self.key.set(open.key);
        self.fatbin.set(Arc::into_raw(open.fatbin));
        self.cursor.set(std::ptr::null_mut());
        self.room.set(0);
        self.len.set(0);
    }

    /// The slot's `Open` if it is `key`'s (any when `None`), emptying it.
    fn take(&self, key: Option<usize>) -> Option<Open> {
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
    fn push(&self, key: usize, v: Staged) -> bool {
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

/// A registered kernel, as look-ups hand it out.
pub struct Kernel {
    fatbin: Arc<Fatbin>,
    stub: usize,
    /// The device name (mangled), in the program's read-only data; valid
    /// while `fatbin` is registered.
    name: usize,
    /// The driver's kernel handle, if already resolved.
    resolved: CUkernel,
}

/// One registered `__device__`, `__constant__` or `__managed__` variable.
pub struct Var {
    fatbin: Arc<Fatbin>,
    name: usize,
    pub size: usize,
    /// `__managed__`: its address comes from `cuLibraryGetManaged`.
    managed: bool,
}

/// A fatbin's published kernels, sorted by host stub, one per stub (the
/// last registration of it). Kept as offsets from its lowest stub and from
/// one of its names: 8 bytes a kernel (one unit's stubs, and its names, lie
/// within a few MiB), 16 otherwise. Registration's cost is largely the
/// fresh memory it touches (a page fault per 4 KiB), so this halves it.
enum Kernels {
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
    fn from_sorted(v: &[Staged]) -> Kernels {
        Kernels::narrow(&[v], v.len()).unwrap_or_else(|| Kernels::Wide(v.to_vec()))
    }

    /// The narrow form of `n` kernels given in runs (a log's chunks, in
    /// order) whose stubs strictly increase or strictly decrease (nvcc
    /// registers a unit's kernels in reverse address order), in one pass
    /// and allocated exactly; `None` when they do not, or lie too far apart.
    fn narrow(runs: &[&[Staged]], n: usize) -> Option<Kernels> {
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

    fn len(&self) -> usize {
        match self {
            Kernels::Narrow { v, .. } => v.len(),
            Kernels::Wide(v) => v.len(),
        }
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, i: usize) -> Staged {
        match self {
            Kernels::Narrow { stub0, name0, v } => Staged {
                stub: stub0 + v[i].0 as usize,
                name: name0.wrapping_add_signed(v[i].1 as isize),
            },
            Kernels::Wide(v) => v[i],
        }
    }

    fn find(&self, stub: usize) -> Option<usize> {
        match self {
            Kernels::Narrow { stub0, v, .. } => {
                let off = u32::try_from(stub.checked_sub(*stub0)?).ok()?;
                v.binary_search_by_key(&off, |k| k.0).ok()
            }
            Kernels::Wide(v) => v.binary_search_by_key(&stub, |k| k.stub).ok(),
        }
    }

    fn to_vec(&self) -> Vec<Staged> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// The granules the kernels cover, each once: a binary search per
    /// granule, not a step per kernel.
    fn granules(&self) -> impl Iterator<Item = usize> + '_ {
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

/// Slots per chunk of [`Handles`].
const HANDLE_CHUNK: usize = 64;

/// The driver's handle of each of a fatbin's published kernels once
/// resolved, by the kernel's index: chunks of [`HANDLE_CHUNK`] slots, each
/// made (zeroed) when the first of its kernels resolves. A fatbin of 2,000
/// kernels made 16 KiB of zeroed slots at its first launch before, 16,370
/// instructions of zeroing on the first launch's path (callgrind; finding
/// 13 of docs/first-launch.md); now 32 empty cells and one chunk.
#[derive(Default)]
struct Handles {
    chunks: Box<[OnceLock<Box<HandleChunk>>]>,
}

/// One chunk of [`Handles`]: null until its kernel resolves.
type HandleChunk = [AtomicPtr<c_void>; HANDLE_CHUNK];

impl Handles {
    /// Room for `n` kernels, no chunk made yet.
    fn new(n: usize) -> Self {
        Self {
            chunks: (0..n.div_ceil(HANDLE_CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    /// Whether it has room for no kernel (not made yet, or dropped).
    fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// The handle of kernel `i`; null when not resolved (or out of room).
    fn get(&self, i: usize) -> CUkernel {
        self.chunks
            .get(i / HANDLE_CHUNK)
            .and_then(OnceLock::get)
            .map_or(std::ptr::null_mut(), |c| {
                c[i % HANDLE_CHUNK].load(Ordering::Acquire)
            })
    }

    /// Keeps `h` for kernel `i` (its chunk made if needed); false when
    /// there is no room for `i`.
    fn set(&self, i: usize, h: CUkernel) -> bool {
        let Some(cell) = self.chunks.get(i / HANDLE_CHUNK) else {
            return false;
        };
        let chunk = cell.get_or_init(|| {
            Box::new(std::array::from_fn(
                |_| AtomicPtr::new(std::ptr::null_mut()),
            ))
        });
        chunk[i % HANDLE_CHUNK].store(h, Ordering::Release);
        true
    }

    /// Every resolved handle.
    fn resolved(&self) -> impl Iterator<Item = CUkernel> + '_ {
        self.chunks
            .iter()
            .filter_map(OnceLock::get)
            .flat_map(|c| c.iter().map(|h| h.load(Ordering::Acquire)))
            .filter(|h| !h.is_null())
    }

    /// The index of the kernel whose handle is `k`.
    fn position(&self, k: CUkernel) -> Option<usize> {
        self.chunks.iter().enumerate().find_map(|(c, cell)| {
            let slots = cell.get()?;
            let j = slots.iter().position(|h| h.load(Ordering::Acquire) == k)?;
            Some(c * HANDLE_CHUNK + j)
        })
    }
}

/// What the registry holds of one fatbin.
struct FatbinRec {
    fatbin: Arc<Fatbin>,
    /// Its published kernels.
    kernels: Kernels,
    /// The driver's handle of each of `kernels` once resolved (without
    /// room until the first one is).
    handles: Handles,
    /// How many of the fatbin's staged kernels are in `kernels`.
    published: usize,
    /// Its keys in the variable map.
    vars: Vec<usize>,
}

impl FatbinRec {
    fn find(&self, stub: usize) -> Option<usize> {
        self.kernels.find(stub)
    }
}

/// The fatbins with published kernels in one granule: nearly always one
/// (kept inline), a few where units meet.
#[derive(Default)]
struct Owners {
    /// 0: none.
    first: usize,
    more: Vec<usize>,
}

impl Owners {
    fn iter(&self) -> impl Iterator<Item = &usize> {
        std::iter::once(&self.first)
            .filter(|&&k| k != 0)
            .chain(&self.more)
    }

    fn add(&mut self, key: usize) {
        if self.first == 0 {
            self.first = key;
        } else if self.first != key && !self.more.contains(&key) {
            self.more.push(key);
        }
    }

    /// Removes `key`; whether none is left.
    fn remove(&mut self, key: usize) -> bool {
        if self.first == key {
            self.first = self.more.pop().unwrap_or(0);
        } else {
            self.more.retain(|&k| k != key);
        }
        self.first == 0
    }
}

#[derive(Default)]
struct Registry {
    /// Fatbins by key (the handle given to the program).
    fatbins: AddrMap<FatbinRec>,
    /// Granule of host stub addresses -> the fatbins with published
    /// kernels there.
    granules: AddrMap<Owners>,
    vars: AddrMap<Arc<Var>>,
    /// Fatbins whose registering thread may still append kernels, oldest
    /// first: look-ups search their unpublished kernels too.
    open: Vec<usize>,
    next_id: u64,
}

static REGISTRY: Lazy<RwLock<Registry>> = Lazy::new(Default::default);

/// Bumped whenever records go away, so thread-local caches drop theirs.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The fatbin this thread is registering (between
    /// `__cudaRegisterFatBinary` and `__cudaRegisterFatBinaryEnd`).
    static OPEN: OpenSlot = const {
        OpenSlot {
            key: Cell::new(0),
            fatbin: Cell::new(std::ptr::null()),
            cursor: Cell::new(std::ptr::null_mut()),
            room: Cell::new(0),
            len: Cell::new(0),
        }
    };
}

/// Sets of the thread-local launch cache (two entries each).
const CACHE_SETS: usize = 64;

/// One entry of the launch cache: what a launch handle resolved to, and
/// the kernel's function in the context it last launched in.
#[derive(Copy, Clone)]
struct Slot {
    /// The launch handle (host stub or kernel handle); 0: empty.
    key: usize,
    /// The driver kernel (`CUkernel`).
    kernel: usize,
    /// The id of the context `func` belongs to (`cuCtxGetId`); 0: none;
    /// [`UNKNOWN`]: `kernel` is no kernel handle the driver gave.
    ctx: u64,
    /// The kernel's `CUfunction` in that context.
    func: usize,
}

/// [`Slot::ctx`] of a handle that is neither a registered stub's kernel
/// nor a kernel handle the driver gave (the registry resolved it, or the
/// runtime handed it out): the driver is never asked for its function,
/// and it goes to `cuLaunchKernel` as it came, as before. Not a context
/// id (the driver counts them up from 1). Kept in `ctx`, not a field of
/// its own: a larger entry costs the launch's look-up 9 instructions.
const UNKNOWN: u64 = u64::MAX;

const EMPTY: Slot = Slot {
    key: 0,
    kernel: 0,
    ctx: 0,
    func: 0,
};

/// Launch handle (host stub or kernel handle) -> driver kernel and its
/// function in one context, per thread: 64 sets of 2, no destructor
/// (launches from exit handlers and static destructors use it too),
/// emptied when [`GENERATION`] moves.
struct LaunchCache {
    generation: Cell<u64>,
    sets: [[Cell<Slot>; 2]; CACHE_SETS],
}

impl LaunchCache {
    #[inline(always)]
    fn set_of(&self, key: usize) -> &[Cell<Slot>; 2] {
        &self.sets[(mix(key as u64) >> (64 - CACHE_SETS.trailing_zeros())) as usize]
    }

    #[inline(always)]
    fn get(&self, key: usize, generation: u64) -> Option<Slot> {
        if self.generation.get() != generation {
            return None;
        }
        let set = self.set_of(key);
        let s0 = set[0].get();
        if s0.key == key {
            return Some(s0);
        }
        let s1 = set[1].get();
        (s1.key == key).then_some(s1)
    }

    fn insert(&self, slot: Slot, generation: u64) {
        if self.generation.get() != generation {
            for set in &self.sets {
                set[0].set(EMPTY);
                set[1].set(EMPTY);
            }
            self.generation.set(generation);
        }
        let set = self.set_of(slot.key);
        if set[0].get().key != slot.key {
            set[1].set(set[0].get());
        }
        set[0].set(slot);
    }
}

thread_local! {
    static LAUNCH_CACHE: LaunchCache = const {
        LaunchCache {
            generation: Cell::new(0),
            sets: [const { [const { Cell::new(EMPTY) }; 2] }; CACHE_SETS],
        }
    };
}

/// The kernel behind each function a launch resolved (`CUfunction` ->
/// `CUkernel`): a kernel node captured from a launch holds the function,
/// and its parameters report the host stub (see [`stub_for_kernel`]).
/// Emptied with the launch caches.
static FUNCTIONS: Lazy<Mutex<AddrMap<usize>>> = Lazy::new(Default::default);

/// The kernel handles the registry resolved (`cuLibraryGetKernel`), while
/// their fatbins are registered: what `__cudaGetKernel` hands nvcc's stubs,
/// which launch with them. Read on launch-cache misses only.
static RESOLVED: Lazy<RwLock<AddrSet>> = Lazy::new(Default::default);

fn name_of(ptr: usize) -> &'static CStr {
    // SAFETY: `ptr` was checked non-null at registration and points to the
    // registering module's NUL-terminated name, which stays mapped until
    // that module unregisters its fatbin, which removes every record
    // holding the pointer first.
    unsafe { CStr::from_ptr(ptr as *const c_char) }
}

/// Runs an eager load with the thread's stream-capture mode relaxed (and
/// restored afterwards). With `CUDA_MODULE_LOADING=EAGER` the driver's
/// `cuLibraryLoadData` loads into every context at once, which a
/// global-mode capture may refuse as an unsafe call (a fatbin registered
/// by a `dlopen` while a stream captures). A lazy load runs as it is: on
/// the H200 (`bench/probe_load capture`, docs/first-launch.md) the load,
/// the kernel look-up and the first launch into a stream this thread
/// captures in global mode all succeeded and the capture ended with its
/// graph, while the exchange itself cost 7-24 us on a process's first call
/// and 35-58 us on a new thread's: a tenth of a first launch, or more.
fn outside_capture<T>(load: impl FnOnce() -> T) -> T {
    use crate::abi::cudaStreamCaptureMode;
    if !eager() {
        return load();
    }
    let Ok(api) = driver::get() else {
        return load();
    };
    let mut mode = cudaStreamCaptureMode::cudaStreamCaptureModeRelaxed;
    if api.cuThreadExchangeStreamCaptureMode(&mut mode) != driver::CUresult::SUCCESS {
        return load();
    }
    let result = load();
    let _ = api.cuThreadExchangeStreamCaptureMode(&mut mode);
    result
}

impl Fatbin {
    /// The driver library for this fatbin, loaded on first need.
    pub fn library(&self) -> Result<CUlibrary, cudaError_t> {
        let lib = self.library.load(Ordering::Acquire);
        if !lib.is_null() {
            return Ok(lib);
        }
        let _guard = self.load_lock.lock();
        let lib = self.library.load(Ordering::Acquire);
        if !lib.is_null() {
            return Ok(lib);
        }
        let drv = driver::get()?;
        let span = trace::start();
        let mut lib: CUlibrary = std::ptr::null_mut();
        // The image stays mapped until its module unregisters it, and the
        // library is unloaded there first: the driver may read it in place
        // and need not keep a copy of its own (a memory saving; no change
        // in speed measured on the H200, docs/first-launch.md finding 8).
        let mut option = crate::abi::cudaLibraryOption::cudaLibraryBinaryIsPreserved;
        let mut preserved = std::ptr::without_provenance_mut::<c_void>(1);
        let r = outside_capture(|| {
            drv.cuLibraryLoadData(
                &mut lib,
                self.image as *const c_void,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
                (&mut option as *mut crate::abi::cudaLibraryOption).cast(),
                &mut preserved,
                1,
            )
        });
        if r != driver::CUresult::SUCCESS {
            trace::end!(
                span,
                "module",
                format!("library load #{} failed", self.id),
                "cuLibraryLoadData of fatbin #{} ({}) failed with {} (needed by {})",
                self.id,
                trace::origin_of(self.wrapper),
                r.0,
                crate::boundary::current_api()
            );
            let e = match r.0 {
                // No image for this device in the fatbin.
                209 => cudaError_t(209),
                200 => cudaError_t(200),
                _ => r.to_runtime(),
            };
            if crate::diagnose::enabled() {
                crate::diagnose::load_failed(
                    self.image as *const u8,
                    &trace::origin_of(self.wrapper),
                    e,
                );
            }
            return Err(e);
        }
        trace::end!(
            span,
            "module",
            format!(
                "library load #{} ({})",
                self.id,
                trace::file_name(&trace::origin_of(self.wrapper))
            ),
            "cuLibraryLoadData: fatbin #{} of {} loaded as library {lib:p} (first needed by {} on thread {})",
            self.id,
            trace::origin_of(self.wrapper),
            crate::boundary::current_api(),
            trace::thread_label()
        );
        self.library.store(lib, Ordering::Release);
        Ok(lib)
    }
}

impl Kernel {
    /// The driver kernel handle, resolved on first use.
    /// With the diagnostics on, explains an image the driver refused.
    #[cold]
    pub fn explain_load_failure(&self, e: cudaError_t) {
        if crate::diagnose::enabled() && matches!(e.0, 200 | 209 | 218 | 222) {
            crate::diagnose::load_failed(
                self.fatbin.image as *const u8,
                &trace::origin_of(self.fatbin.wrapper),
                e,
            );
        }
    }

    pub fn handle(&self) -> Result<CUkernel, cudaError_t> {
        if !self.resolved.is_null() {
            return Ok(self.resolved);
        }
        let lib = self.fatbin.library()?;
        let name = name_of(self.name);
        let span = trace::start();
        let mut h: CUkernel = std::ptr::null_mut();
        let drv = driver::get()?;
        let r = drv.cuLibraryGetKernel(&mut h, lib, name.as_ptr());
        if r != driver::CUresult::SUCCESS {
            let e = match r.0 {
                500 => cudaError_t::cudaErrorInvalidDeviceFunction,
                _ => r.to_runtime(),
            };
            // With lazy loading the driver checks the image when a kernel
            // is first asked for: "no image" shows up here.
            self.explain_load_failure(e);
            return Err(e);
        }
        trace::end!(
            span,
            "module",
            format!("kernel resolve {}", name.to_string_lossy()),
            "cuLibraryGetKernel: kernel {} resolved to {h:p} from the library of fatbin #{} (by {})",
            name.to_string_lossy(),
            self.fatbin.id,
            crate::boundary::current_api()
        );
        RESOLVED.write().insert(h as usize);
        self.keep_handle(h);
        Ok(h)
    }

    /// Keeps a resolved handle for the process (while the fatbin is
    /// registered: `self` holds it, so its key names no other fatbin).
    fn keep_handle(&self, h: CUkernel) {
        let key = Arc::as_ptr(&self.fatbin) as usize;
        {
            let reg = REGISTRY.read();
            let Some(rec) = reg.fatbins.get(&key) else {
                return;
            };
            let Some(i) = rec.find(self.stub) else {
                return; // not published yet: found again next time
            };
            if rec.handles.set(i, h) {
                return;
            }
        }
        // The fatbin's first resolved kernel: room for its handles is made.
        let mut reg = REGISTRY.write();
        if let Some(rec) = reg.fatbins.get_mut(&key) {
            if rec.handles.is_empty() {
                rec.handles = Handles::new(rec.kernels.len());
            }
            if let Some(i) = rec.find(self.stub) {
                rec.handles.set(i, h);
            }
        }
    }

    pub fn name(&self) -> &'static CStr {
        name_of(self.name)
    }
}

/// The kernel registered for `stub`: of the newest fatbin that has it,
/// published or still being registered (within one fatbin, a registration
/// not yet published is the later one).
fn find_kernel(reg: &Registry, stub: usize) -> Option<Kernel> {
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
                resolved: std::ptr::null_mut(),
            });
        }
    }
    best
}

/// Enters `granules` (of its kernels) for fatbin `key`.
fn index_granules(index: &mut AddrMap<Owners>, key: usize, granules: impl Iterator<Item = usize>) {
    for g in granules {
        index.entry(g).or_default().add(key);
    }
}

/// Publishes the fatbin's staged kernels (under the registry's write
/// lock): its sorted kernel array and the granules it covers.
fn publish(reg: &mut Registry, key: usize) {
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
        rec.handles = Handles::default();
    }
    index_granules(granules, key, rec.kernels.granules());
}

/// Ends this thread's registration in progress (publishing its kernels),
/// if it is `key`'s, or whichever when `key` is `None`; under the write
/// lock.
fn close_open(reg: &mut Registry, key: Option<usize>) {
    if let Some(open) = OPEN.with(|o| o.take(key)) {
        publish(reg, open.key);
        reg.open.retain(|&k| k != open.key);
        open.release(reg);
    }
}

/// `__cudaRegisterFatBinary`: records the fatbin, returns its handle.
pub fn register_fatbin(wrapper: *const c_void) -> Result<*mut *mut c_void, cudaError_t> {
    let w = In(wrapper as *const RawWrapper).read()?;
    if w.magic != FATBIN_WRAPPER_MAGIC || !(1..=2).contains(&w.version) || w.data.is_null() {
        log::warn!(target: "cudart::lifecycle", "registry: rejected a fatbin wrapper at {wrapper:p} (bad magic or version)");
        return Err(cudaError_t(200));
    }
    let container_magic = In(w.data as *const u32).read()?;
    if container_magic != FATBIN_CONTAINER_MAGIC {
        log::warn!(target: "cudart::lifecycle", "registry: fatbin wrapper at {wrapper:p} points to no fatbin container");
        return Err(cudaError_t(200));
    }
    let mut reg = REGISTRY.write();
    // A registration this thread left open ends here.
    close_open(&mut reg, None);
    reg.next_id += 1;
    let fatbin = Arc::new(Fatbin {
        id: reg.next_id,
        image: w.data as usize,
        wrapper: wrapper as usize,
        library: AtomicPtr::new(std::ptr::null_mut()),
        load_lock: Mutex::new(()),
        managed: Mutex::new(Vec::new()),
        staged: AppendLog::new(),
        vars: AtomicU32::new(0),
        registered: trace::start(),
    });
    let handle = Arc::as_ptr(&fatbin) as *mut *mut c_void;
    let key = handle as usize;
    if trace::enabled() && trace::detail() {
        trace::emit_instant(
            "registry",
            &format!("register fatbin #{}", fatbin.id),
            format_args!(
                "__cudaRegisterFatBinary: fatbin #{} (wrapper {wrapper:p}, version {}) from {}",
                fatbin.id,
                w.version,
                trace::origin_of(wrapper as usize)
            ),
        );
    }
    // This thread appends the fatbin's kernels without the lock until the
    // end of its registration.
    let open = Open {
        key,
        fatbin: fatbin.clone(),
    };
    OPEN.with(|o| o.put(open));
    reg.open.push(key);
    reg.fatbins.insert(
        key,
        FatbinRec {
            fatbin,
            kernels: Kernels::default(),
            handles: Handles::default(),
            published: 0,
            vars: Vec::new(),
        },
    );
    Ok(handle)
}

fn fatbin_of(reg: &Registry, handle: *mut *mut c_void) -> Result<Arc<Fatbin>, cudaError_t> {
    reg.fatbins
        .get(&(handle as usize))
        .map(|r| r.fatbin.clone())
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)
}

/// Whether `CUDA_MODULE_LOADING=EAGER` asks for eager loading (read once).
/// Then every registered fatbin is loaded when the runtime creates its
/// first context, and a fatbin registered later (a `dlopen`) at once, as
/// NVIDIA's runtime does; the default (`LAZY`) loads each on first use.
pub fn eager() -> bool {
    static EAGER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EAGER.get_or_init(|| {
        std::env::var("CUDA_MODULE_LOADING").is_ok_and(|v| v.eq_ignore_ascii_case("EAGER"))
    })
}

/// Eager loading: loads every registered fatbin (in registration order).
/// A fatbin that fails to load (no image for this device) reports its
/// error when one of its kernels or variables is used.
pub fn load_all_eagerly() {
    let mut fatbins: Vec<Arc<Fatbin>> = REGISTRY
        .read()
        .fatbins
        .values()
        .map(|r| r.fatbin.clone())
        .collect();
    fatbins.sort_by_key(|f| f.id);
    trace::event!(
        "module",
        "eager loading",
        "CUDA_MODULE_LOADING=EAGER: loading all {} registered fatbin(s) now",
        fatbins.len()
    );
    for fb in fatbins {
        let _ = fb.library();
    }
}

/// `__cudaRegisterFatBinaryEnd`: publishes the fatbin's kernels (one lock
/// for all of them); nothing else until the first use (with eager loading
/// and a context already made, the fatbin loads now). The trace's
/// registration span ends here.
pub fn register_fatbin_end(handle: *mut *mut c_void) -> Result<(), cudaError_t> {
    let key = handle as usize;
    let (fb, kernels) = {
        let mut reg = REGISTRY.write();
        close_open(&mut reg, Some(key));
        // Ended from another thread than the registering one: what is
        // staged so far is published; the rest stays searchable.
        publish(&mut reg, key);
        let rec = reg
            .fatbins
            .get(&key)
            .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
        (rec.fatbin.clone(), rec.kernels.len())
    };
    if eager() && crate::context::has_context() {
        let _ = fb.library();
    }
    if fb.registered.is_some() {
        let origin = trace::origin_of(fb.wrapper);
        trace::end!(
            fb.registered,
            "registry",
            format!("registration #{} ({})", fb.id, trace::file_name(&origin)),
            "fatbin #{} of {origin} registered with {kernels} kernel(s) and {} variable(s) (before main if a constructor did it; no driver call, loads on first use)",
            fb.id,
            fb.vars.load(Ordering::Relaxed)
        );
    }
    Ok(())
}

/// `__cudaRegisterFunction`: appended to the fatbin's list by the thread
/// registering it (no lock); otherwise entered at once, under the lock.
#[inline]
pub fn register_function(
    handle: *mut *mut c_void,
    stub: *const c_char,
    name: *const c_char,
) -> Result<(), cudaError_t> {
    if stub.is_null() || name.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let k = Staged {
        stub: stub as usize,
        name: name as usize,
    };
    if OPEN.with(|o| o.push(handle as usize, k)) {
        return Ok(());
    }
    register_function_locked(handle as usize, k)
}

#[cold]
#[inline(never)]
fn register_function_locked(key: usize, k: Staged) -> Result<(), cudaError_t> {
    let mut reg = REGISTRY.write();
    let Registry {
        fatbins, granules, ..
    } = &mut *reg;
    let rec = fatbins
        .get_mut(&key)
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    let mut all = rec.kernels.to_vec();
    match all.binary_search_by_key(&k.stub, |x| x.stub) {
        Ok(i) => all[i] = k,
        Err(i) => all.insert(i, k),
    }
    rec.kernels = Kernels::from_sorted(&all);
    rec.handles = Handles::default();
    index_granules(granules, key, std::iter::once(granule(k.stub)));
    Ok(())
}

/// `__cudaRegisterVar` and `__cudaRegisterManagedVar` (`managed_slot` is
/// the host's `void**` the runtime fills with the managed address).
pub fn register_var(
    handle: *mut *mut c_void,
    host: *const c_void,
    name: *const c_char,
    size: usize,
    managed_slot: Option<*mut *mut c_void>,
) -> Result<(), cudaError_t> {
    if host.is_null() || name.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut reg = REGISTRY.write();
    let rec = reg
        .fatbins
        .get_mut(&(handle as usize))
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    let fatbin = rec.fatbin.clone();
    rec.vars.push(host as usize);
    fatbin.vars.fetch_add(1, Ordering::Relaxed);
    if let Some(slot) = managed_slot {
        fatbin.managed.lock().push((slot as usize, name as usize));
    }
    reg.vars.insert(
        host as usize,
        Arc::new(Var {
            fatbin,
            name: name as usize,
            size,
            managed: managed_slot.is_some(),
        }),
    );
    Ok(())
}

/// `__cudaInitModule`: loads the fatbin now and fills its managed
/// variables' host pointers. Returns 1 when the module is ready.
pub fn init_module(handle: *mut *mut c_void) -> Result<c_char, cudaError_t> {
    let fb = fatbin_of(&REGISTRY.read(), handle)?;
    let lib = fb.library()?;
    let drv = driver::get()?;
    let managed = fb.managed.lock().clone();
    for (slot, name) in managed {
        let mut dptr: CUdeviceptr = 0;
        let mut size = 0usize;
        drv.cuLibraryGetManaged(&mut dptr, &mut size, lib, name_of(name).as_ptr())
            .ok()?;
        Out(slot as *mut *mut c_void).write(dptr as *mut c_void)?;
        // Host code names a managed variable by its managed address (the
        // slot is dereferenced), so the symbol calls look it up by that too.
        let mut reg = REGISTRY.write();
        if let Some(var) = reg.vars.get(&slot).cloned() {
            reg.vars.insert(dptr as usize, var);
            if let Some(rec) = reg.fatbins.get_mut(&(handle as usize)) {
                rec.vars.push(dptr as usize);
            }
        }
        drop(reg);
        trace::event!(
            "module",
            format!("managed variable {}", name_of(name).to_string_lossy()),
            "managed variable {} of fatbin #{} at {dptr:#x} (eager: __cudaInitModule)",
            name_of(name).to_string_lossy(),
            fb.id
        );
    }
    Ok(1)
}

/// `__cudaUnregisterFatBinary`: forgets the fatbin's records (its own: the
/// cost is its granules and variables, not the process's kernels) and
/// unloads its library (not while the process is exiting: the driver may
/// already be gone, and the process's end frees everything anyway).
pub fn unregister_fatbin(handle: *mut *mut c_void) -> Result<(), cudaError_t> {
    let span = trace::start();
    let key = handle as usize;
    let mut reg = REGISTRY.write();
    let rec = reg
        .fatbins
        .remove(&key)
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    reg.open.retain(|&k| k != key);
    drop(OPEN.with(|o| o.take(Some(key))));
    for g in rec.kernels.granules() {
        if reg.granules.get_mut(&g).is_some_and(|o| o.remove(key)) {
            reg.granules.remove(&g);
        }
    }
    if !rec.handles.is_empty() {
        let mut resolved = RESOLVED.write();
        for h in rec.handles.resolved() {
            resolved.remove(&(h as usize));
        }
    }
    let fb = rec.fatbin;
    for host in rec.vars {
        if reg
            .vars
            .get(&host)
            .is_some_and(|v| Arc::ptr_eq(&v.fatbin, &fb))
        {
            reg.vars.remove(&host);
        }
    }
    GENERATION.fetch_add(1, Ordering::Release);
    FUNCTIONS.lock().clear();
    drop(reg);
    if crate::diagnose::enabled() {
        let origin = trace::origin_of(fb.wrapper);
        let mut list = UNLOADED.lock();
        if !list.contains(&origin) {
            list.push(origin);
        }
    }
    let lib = fb.library.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if !lib.is_null() && !crate::boundary::tearing_down() {
        if let Some(drv) = driver::loaded() {
            // Unregistration runs at exit, possibly after the driver's own
            // shutdown (when the program initialized the driver before the
            // runtime did, no exit watch noticed it): ask first, so a
            // library is never handed to a driver that has shut down.
            if !crate::boundary::driver_has_shut_down(drv)
                && drv.cuLibraryUnload(lib) == driver::CUresult::ERROR_DEINITIALIZED
            {
                crate::boundary::driver_gone();
            }
        }
    }
    trace::end!(
        span,
        "registry",
        format!(
            "unregister #{} ({})",
            fb.id,
            trace::file_name(&trace::origin_of(fb.wrapper))
        ),
        "__cudaUnregisterFatBinary: fatbin #{} of {} forgotten{}",
        fb.id,
        trace::origin_of(fb.wrapper),
        if lib.is_null() {
            " (never loaded)"
        } else if crate::boundary::tearing_down() {
            " (library left to the driver: teardown has begun)"
        } else {
            ", library unloaded (cuLibraryUnload)"
        }
    );
    Ok(())
}

/// The kernel registered for a host stub.
pub fn kernel_for_stub(stub: *const c_void) -> Option<Kernel> {
    find_kernel(&REGISTRY.read(), stub as usize)
}

/// The driver kernel to launch for what a program hands over: a host stub
/// (registered), or a kernel handle (`__cudaGetKernel`, `cudaGetKernel`,
/// `cudaLibraryGetKernel`) passed through to the driver as it is. The
/// thread's launch cache answers after the first time: one atomic load,
/// one multiply, one or two compares.
#[inline]
pub fn launch_handle(h: *const c_void) -> Result<CUkernel, cudaError_t> {
    if h.is_null() {
        return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
    }
    let generation = GENERATION.load(Ordering::Acquire);
    let key = h as usize;
    if let Some(s) = LAUNCH_CACHE.with(|c| c.get(key, generation)) {
        return Ok(s.kernel as CUkernel);
    }
    launch_handle_miss(key, generation).map(|s| s.kernel as CUkernel)
}

/// What a launch hands to `cuLaunchKernel` in the context with id `ctx`
/// ([`crate::context::ensure_id`]): the kernel's `CUfunction` there. The
/// driver resolves a `CUkernel` to the current context's function on
/// every launch (60-80 ns on the H200, `bench/experiments/
/// kernel_vs_function.cu`); the thread's launch cache does it once per
/// kernel and context. Context ids are never reused, so a function of a
/// destroyed context is never found again; library unloads empty the
/// caches ([`GENERATION`]). Where the driver gives no function the kernel
/// is launched as before, and the driver answers.
#[inline]
pub fn launch_function(h: *const c_void, ctx: u64) -> Result<*mut c_void, cudaError_t> {
    if h.is_null() {
        return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
    }
    let generation = GENERATION.load(Ordering::Acquire);
    let key = h as usize;
    let slot = match LAUNCH_CACHE.with(|c| c.get(key, generation)) {
        Some(s) if s.ctx == ctx && s.func != 0 => return Ok(s.func as *mut c_void),
        Some(s) => s,
        None => launch_handle_miss(key, generation)?,
    };
    if slot.ctx == UNKNOWN {
        return Ok(slot.kernel as CUkernel);
    }
    Ok(function_miss(slot, ctx, generation))
}

/// The kernel behind what a launch handed the driver (a function from
/// [`launch_function`], or the kernel itself): for the calls that take a
/// kernel, such as the diagnostics' attribute queries after a failure.
pub fn kernel_of_launched(h: *mut c_void) -> CUkernel {
    FUNCTIONS
        .lock()
        .get(&(h as usize))
        .map_or(h, |&kernel| kernel as CUkernel)
}

/// Kernel handles went away outside the registry (`cudaLibraryUnload`):
/// the threads' launch caches drop what they resolved.
pub fn kernels_went_away() {
    GENERATION.fetch_add(1, Ordering::Release);
    FUNCTIONS.lock().clear();
}

/// [`launch_handle`] on a miss: the registry, then the cache. The
/// generation is the one read before the look-up, so records that went
/// away meanwhile empty the cache at the next launch.
#[cold]
#[inline(never)]
fn launch_handle_miss(key: usize, generation: u64) -> Result<Slot, cudaError_t> {
    let (k, known) = match kernel_for_stub(key as *const c_void) {
        Some(kernel) => (kernel.handle()?, true),
        // A kernel of a library unloaded through the runtime, or a live
        // library passed as a kernel, is refused (the driver crashed on
        // both under NVIDIA's runtime on the H200).
        None => {
            use crate::handles::{self, Kind, State};
            handles::check(key as *const c_void, Kind::Kernel)?;
            let known = RESOLVED.read().contains(&key)
                || handles::state(key as *const c_void) == Some(State::Live(Kind::Kernel));
            (key as CUkernel, known)
        }
    };
    let slot = Slot {
        key,
        kernel: k as usize,
        ctx: if known { 0 } else { UNKNOWN },
        ..EMPTY
    };
    LAUNCH_CACHE.with(|c| c.insert(slot, generation));
    Ok(slot)
}

/// [`launch_function`] for a kernel not yet resolved in context `ctx` on
/// this thread: `cuKernelGetFunction` (which loads the kernel's module
/// into the context if it is not there yet), then the cache. If the
/// driver gives no function, the kernel itself, uncached: its launch
/// then fails (or succeeds) as the driver decides, as before.
#[cold]
#[inline(never)]
fn function_miss(slot: Slot, ctx: u64, generation: u64) -> *mut c_void {
    let kernel = slot.kernel as CUkernel;
    let Ok(drv) = driver::get() else {
        return kernel;
    };
    let mut f: driver::CUfunction = std::ptr::null_mut();
    if drv.cuKernelGetFunction(&mut f, kernel) != driver::CUresult::SUCCESS || f.is_null() {
        return kernel;
    }
    FUNCTIONS.lock().insert(f as usize, slot.kernel);
    LAUNCH_CACHE.with(|c| {
        c.insert(
            Slot {
                ctx,
                func: f as usize,
                ..slot
            },
            generation,
        )
    });
    f
}

/// The registered host stub whose kernel resolved to `k`, if any: what
/// NVIDIA's runtime reports as a kernel node's `func`, for nodes built from
/// a stub, a `cudaKernel_t` or a capture alike (measured on the H200). A
/// scan of the resolved handles: node-parameter queries are rare, launches
/// never ask.
pub fn stub_for_kernel(k: CUkernel) -> Option<*mut c_void> {
    if k.is_null() {
        return None;
    }
    // A function a launch resolved (a node captured from that launch).
    let k = kernel_of_launched(k);
    let reg = REGISTRY.read();
    let found = reg.fatbins.values().find_map(|rec| {
        let i = rec.handles.position(k)?;
        Some(rec.kernels.get(i).stub as *mut c_void)
    });
    found
}

/// `__cudaGetKernel` / `cudaGetKernel`: the kernel handle for a host stub.
pub fn kernel_of_stub(stub: *const c_void) -> Result<CUkernel, cudaError_t> {
    kernel_for_stub(stub)
        .ok_or_else(|| {
            if crate::diagnose::enabled() {
                crate::diagnose::unknown_function(stub, &unloaded_origins());
            }
            cudaError_t::cudaErrorInvalidDeviceFunction
        })?
        .handle()
}

/// A registered variable's device address and size in the current context.
pub fn symbol(host: *const c_void) -> Result<(CUdeviceptr, usize), cudaError_t> {
    let var = REGISTRY.read().vars.get(&(host as usize)).cloned();
    let Some(var) = var else {
        if crate::diagnose::enabled() {
            crate::diagnose::unknown_symbol(host, nearest_var(host as usize));
        }
        return Err(cudaError_t::cudaErrorInvalidSymbol);
    };
    let lib = var.fatbin.library()?;
    let mut dptr: CUdeviceptr = 0;
    let mut size = 0usize;
    let drv = driver::get()?;
    let name = name_of(var.name).as_ptr();
    if var.managed {
        drv.cuLibraryGetManaged(&mut dptr, &mut size, lib, name)
    } else {
        drv.cuLibraryGetGlobal(&mut dptr, &mut size, lib, name)
    }
    .ok()
    .map_err(|e| {
        if e.0 == 500 {
            cudaError_t::cudaErrorInvalidSymbol
        } else {
            e
        }
    })?;
    Ok((dptr, size))
}

/// For the diagnostics: the registered variable nearest to `addr` (name,
/// host address, size).
fn nearest_var(addr: usize) -> Option<(String, usize, usize)> {
    let reg = REGISTRY.read();
    reg.vars
        .iter()
        .filter(|(&at, _)| at != 0)
        .min_by_key(|(&at, _)| at.abs_diff(addr))
        .map(|(&at, v)| (name_of(v.name).to_string_lossy().into_owned(), at, v.size))
}

/// For the diagnostics: the files whose fatbins were unregistered while the
/// process runs (libraries closed with `dlclose`).
static UNLOADED: parking_lot::Mutex<Vec<String>> = parking_lot::Mutex::new(Vec::new());

/// The files unregistered so far (for "invalid device function").
pub fn unloaded_origins() -> Vec<String> {
    UNLOADED.lock().clone()
}

/// Called by `cudaDeviceReset` before the primary context goes: libraries
/// are context-independent, so kernels stay valid and reload lazily.
pub fn before_context_reset(ctx: *mut c_void) {
    if !trace::enabled() {
        return;
    }
    let loaded = REGISTRY
        .read()
        .fatbins
        .values()
        .filter(|r| !r.fatbin.library.load(Ordering::Relaxed).is_null())
        .count();
    trace::event!(
        "module",
        "context reset: libraries stay",
        "context {ctx:p} resets; {loaded} loaded libraries stay and load again into the next context on use"
    );
}

/// Counts for the trace and tests: (fatbins, kernels, variables), kernels
/// of registrations in progress included.
pub fn counts() -> (usize, usize, usize) {
    let r = REGISTRY.read();
    let kernels: usize = r
        .fatbins
        .values()
        .map(|rec| rec.kernels.len() + rec.fatbin.staged.len().saturating_sub(rec.published))
        .sum();
    (r.fatbins.len(), kernels, r.vars.len())
}

/// Used by `cudaFuncGetAttributes` and friends on a device ordinal.
pub fn device_of_current() -> c_int {
    crate::context::current_device()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal fatbin: a container header with no entries.
    static CONTAINER: [u32; 4] = [FATBIN_CONTAINER_MAGIC, 0x0010_0001, 0, 0];

    fn wrapper(magic: u32) -> RawWrapper {
        RawWrapper {
            magic,
            version: 1,
            data: CONTAINER.as_ptr().cast(),
            prelinked: std::ptr::null(),
        }
    }

    static NAME: &[u8] = b"_Z6kernelv\0";
    static STUB: u8 = 0;
    static VAR: u32 = 0;

    #[test]
    fn registration_records_without_a_driver_and_unregisters() {
        let w = wrapper(FATBIN_WRAPPER_MAGIC);
        let h = register_fatbin(&w as *const RawWrapper as *const c_void).unwrap();
        let stub = &STUB as *const u8 as *const c_char;
        register_function(h, stub, NAME.as_ptr().cast()).unwrap();
        register_var(
            h,
            (&VAR as *const u32).cast(),
            NAME.as_ptr().cast(),
            4,
            None,
        )
        .unwrap();
        register_fatbin_end(h).unwrap();
        assert!(
            driver::loaded().is_none(),
            "registration must not load the driver"
        );
        let k = kernel_for_stub(stub.cast()).expect("kernel registered");
        assert_eq!(k.name().to_bytes(), b"_Z6kernelv");
        unregister_fatbin(h).unwrap();
        assert!(kernel_for_stub(stub.cast()).is_none());
        assert_eq!(
            unregister_fatbin(h),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
    }

    /// Host stubs for the tests below, each test its own range.
    static STUBS: [u8; 4096] = [0; 4096];

    fn stub(i: usize) -> *const c_char {
        STUBS[i..].as_ptr().cast()
    }

    fn open_fatbin() -> *mut *mut c_void {
        // The registry keeps the wrapper's address only (for the trace).
        let w = Box::leak(Box::new(wrapper(FATBIN_WRAPPER_MAGIC)));
        register_fatbin(w as *const RawWrapper as *const c_void).unwrap()
    }

    fn name_at(stub: *const c_char) -> Option<usize> {
        kernel_for_stub(stub.cast()).map(|k| k.name().as_ptr() as usize)
    }

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

    #[test]
    fn kernels_are_found_while_registering_and_after_the_end_from_any_thread() {
        let names: Vec<std::ffi::CString> = (0..300)
            .map(|i| std::ffi::CString::new(format!("_Z1k{i}v")).unwrap())
            .collect();
        let h = open_fatbin();
        // More than a chunk, in reverse address order (as nvcc registers)
        // but for one kernel first: the sorting path.
        let order = std::iter::once(150).chain((0..300).rev().filter(|&i| i != 150));
        for i in order {
            register_function(h, stub(1000 + 3 * i), names[i].as_ptr()).unwrap();
        }
        let h_addr = h as usize;
        let look = move |i: usize| {
            std::thread::spawn(move || {
                let _ = h_addr;
                name_at(stub(1000 + 3 * i))
            })
            .join()
            .unwrap()
        };
        // Before the end: from this thread and another.
        assert_eq!(
            name_at(stub(1000 + 3 * 7)),
            Some(names[7].as_ptr() as usize)
        );
        assert_eq!(look(299), Some(names[299].as_ptr() as usize));
        register_fatbin_end(h).unwrap();
        for i in [0, 1, 63, 64, 150, 299] {
            assert_eq!(look(i), Some(names[i].as_ptr() as usize), "kernel {i}");
            assert_eq!(
                name_at(stub(1000 + 3 * i)),
                Some(names[i].as_ptr() as usize)
            );
        }
        assert_eq!(name_at(stub(1000 + 1)), None, "between two stubs");
        // After the end, from another thread: the locked path.
        let late = std::thread::spawn(move || {
            register_function(h_addr as *mut *mut c_void, stub(1001), NAME.as_ptr().cast())
        });
        late.join().unwrap().unwrap();
        assert_eq!(name_at(stub(1001)), Some(NAME.as_ptr() as usize));
        unregister_fatbin(h).unwrap();
        for i in [0, 150, 299] {
            assert_eq!(name_at(stub(1000 + 3 * i)), None);
        }
        assert_eq!(name_at(stub(1001)), None);
    }

    #[test]
    fn the_newer_registration_of_a_stub_wins_until_it_goes() {
        static OLD: &[u8] = b"_Z3oldv\0";
        static NEW: &[u8] = b"_Z3newv\0";
        let a = open_fatbin();
        register_function(a, stub(3000), OLD.as_ptr().cast()).unwrap();
        register_function(a, stub(3008), OLD.as_ptr().cast()).unwrap();
        register_fatbin_end(a).unwrap();
        let b = open_fatbin();
        register_function(b, stub(3000), NEW.as_ptr().cast()).unwrap();
        // Open, not yet published: already the newer one.
        assert_eq!(name_at(stub(3000)), Some(NEW.as_ptr() as usize));
        register_fatbin_end(b).unwrap();
        assert_eq!(name_at(stub(3000)), Some(NEW.as_ptr() as usize));
        assert_eq!(name_at(stub(3008)), Some(OLD.as_ptr() as usize));
        unregister_fatbin(b).unwrap();
        assert_eq!(name_at(stub(3000)), Some(OLD.as_ptr() as usize));
        unregister_fatbin(a).unwrap();
        assert_eq!(name_at(stub(3000)), None);
    }

    #[test]
    fn a_registration_left_open_ends_at_the_next_one() {
        let a = open_fatbin();
        register_function(a, stub(3500), NAME.as_ptr().cast()).unwrap();
        let b = open_fatbin(); // no end for `a`
        register_function(b, stub(3600), NAME.as_ptr().cast()).unwrap();
        // `a`'s kernel was published when `b` began; `b`'s is found open.
        assert!(name_at(stub(3500)).is_some());
        assert!(name_at(stub(3600)).is_some());
        // The registering thread's appends now go to `b`; `a` takes the
        // locked path.
        register_function(a, stub(3501), NAME.as_ptr().cast()).unwrap();
        assert!(name_at(stub(3501)).is_some());
        unregister_fatbin(b).unwrap();
        assert!(name_at(stub(3600)).is_none());
        unregister_fatbin(a).unwrap();
        assert!(name_at(stub(3500)).is_none() && name_at(stub(3501)).is_none());
    }

    #[test]
    fn the_launch_cache_keeps_two_per_set_and_empties_on_a_new_generation() {
        let c = LaunchCache {
            generation: Cell::new(0),
            sets: [const { [const { Cell::new(EMPTY) }; 2] }; CACHE_SETS],
        };
        let slot = |key: usize, kernel: usize| Slot {
            key,
            kernel,
            ..EMPTY
        };
        let kernel = |s: Option<Slot>| s.map(|s| s.kernel);
        // Keys of one set.
        let set = |k: usize| (mix(k as u64) >> (64 - CACHE_SETS.trailing_zeros())) as usize;
        let mut same = (1usize..).filter(|&k| set(k) == set(1));
        let (k1, k2, k3) = (
            same.next().unwrap(),
            same.next().unwrap(),
            same.next().unwrap(),
        );
        c.insert(slot(k1, 11), 5);
        c.insert(slot(k2, 22), 5);
        assert_eq!(
            (kernel(c.get(k1, 5)), kernel(c.get(k2, 5))),
            (Some(11), Some(22))
        );
        c.insert(slot(k3, 33), 5);
        assert_eq!(
            (
                kernel(c.get(k1, 5)),
                kernel(c.get(k2, 5)),
                kernel(c.get(k3, 5))
            ),
            (None, Some(22), Some(33))
        );
        assert!(c.get(k3, 6).is_none(), "another generation misses");
        c.insert(slot(k1, 11), 6);
        assert_eq!(
            (kernel(c.get(k1, 6)), kernel(c.get(k3, 6))),
            (Some(11), None)
        );
        // A function for a context replaces the key's entry in place.
        c.insert(
            Slot {
                ctx: 7,
                func: 0x77,
                ..slot(k1, 11)
            },
            6,
        );
        let s = c.get(k1, 6).unwrap();
        assert_eq!((s.kernel, s.ctx, s.func), (11, 7, 0x77));
    }

    #[test]
    fn handles_come_in_chunks_made_on_first_use() {
        let k = |n: usize| n as CUkernel;
        let empty = Handles::default();
        assert!(empty.is_empty());
        assert!(!empty.set(0, k(1)), "no room before new()");
        assert!(empty.get(0).is_null());

        let n = 2 * HANDLE_CHUNK + 5;
        let h = Handles::new(n);
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
        let mut all: Vec<usize> = h.resolved().map(|p| p as usize).collect();
        all.sort_unstable();
        assert_eq!(all, [0x10, 0x20, 0x30]);
        assert_eq!(empty.resolved().count(), 0);
    }

    #[test]
    fn bad_wrappers_and_foreign_handles_are_errors() {
        let w = wrapper(0xdead_beef);
        assert!(register_fatbin(&w as *const RawWrapper as *const c_void).is_err());
        assert_eq!(
            register_fatbin(std::ptr::null()),
            Err(cudaError_t::cudaErrorInvalidValue)
        );
        let foreign = 0x1000 as *mut *mut c_void;
        assert_eq!(
            register_function(
                foreign,
                &STUB as *const u8 as *const c_char,
                NAME.as_ptr().cast()
            ),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
    }
}
