//! The CUDA runtimes the process's objects carry.
//!
//! nvcc links the runtime statically by default, so an executable or a
//! shared library may carry a runtime of its own: its kernels register with
//! that runtime and its CUDA calls go there, whatever `libcudart.so.13` the
//! process also loads. This room tells which objects do, and which runtime
//! they carry: NVIDIA's static runtime or this project's
//! (`libcudart_static.a`, built from these sources). It also tells which
//! objects make driver handles the runtime does not see made
//! ([`other_handle_maker`]). It reads the objects' files (mapped, so only
//! the headers, symbol tables and read-only data are read in), only when
//! the trace or the diagnostics are on, or when a handle would be refused
//! by the handle room's records.

use std::ffi::{c_void, CStr};
use std::sync::OnceLock;

/// The section that marks this runtime in every object that carries it
/// (the shared library and each program or library linked with our static
/// archive). [`mark`] reads it at load, so a linker that drops unreferenced
/// sections keeps it.
#[used]
#[link_section = ".cudart_rs"]
static MARK: [u8; 24] = *b"cudart-rs clean-room\0\0\0\0";

/// Touches [`MARK`] (at load), keeping its section in any link.
pub fn mark() {
    std::hint::black_box(&MARK);
}

/// Whether this runtime was linked from `libcudart_static.a` into a program
/// or library rather than loaded as `libcudart.so.13`: the archive's entry
/// points are hidden, so the object that holds this code has no dynamic
/// symbol `cudaGetLastError` at that address. Worked out once (one
/// `dladdr`).
pub fn linked_statically() -> bool {
    static STATIC: OnceLock<bool> = OnceLock::new();
    *STATIC.get_or_init(|| {
        let entry = crate::entry::core::cudaGetLastError as *const c_void;
        let mut info = libc::Dl_info {
            dli_fname: std::ptr::null(),
            dli_fbase: std::ptr::null_mut(),
            dli_sname: std::ptr::null(),
            dli_saddr: std::ptr::null_mut(),
        };
        // SAFETY: dladdr only reads the loader's tables and writes `info`.
        let found = unsafe { libc::dladdr(entry, &mut info) } != 0;
        let exported = found
            && info.dli_saddr.cast_const() == entry
            && !info.dli_sname.is_null()
            // SAFETY: dladdr returned a NUL-terminated name of the loader's.
            && unsafe { CStr::from_ptr(info.dli_sname) }.to_bytes() == b"cudaGetLastError";
        !exported
    })
}

/// Which runtime an object carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Carried {
    /// NVIDIA's static runtime (`-cudart static`, nvcc's default).
    NvidiaStatic,
    /// This project's runtime (our `libcudart.so.13` or `libcudart_static.a`).
    Ours,
}

/// The runtime the object file at `path` carries, if any: it registers
/// fatbins (a `.nvFatBinSegment` section) or defines the registration entry
/// point, and does not import it from a shared runtime.
pub fn carried_runtime(path: &str) -> Option<Carried> {
    let file = Mapped::open(path)?;
    let elf = goblin::elf::Elf::parse(file.bytes()).ok()?;
    carried_in(&elf)
}

fn carried_in(elf: &goblin::elf::Elf<'_>) -> Option<Carried> {
    let section = |name: &str| {
        elf.section_headers
            .iter()
            .any(|sh| elf.shdr_strtab.get_at(sh.sh_name) == Some(name))
    };
    let registration = |s: &goblin::elf::Sym, strtab: &goblin::strtab::Strtab| {
        strtab
            .get_at(s.st_name)
            .is_some_and(|n| n.starts_with("__cudaRegisterFatBinary"))
    };
    let imports = elf
        .dynsyms
        .iter()
        .any(|s| s.st_shndx == 0 && registration(&s, &elf.dynstrtab))
        || elf.libraries.iter().any(|l| l.starts_with("libcudart.so"));
    if imports {
        return None;
    }
    let defines = elf
        .syms
        .iter()
        .any(|s| s.st_shndx != 0 && registration(&s, &elf.strtab))
        || elf
            .dynsyms
            .iter()
            .any(|s| s.st_shndx != 0 && registration(&s, &elf.dynstrtab));
    if section(".cudart_rs") {
        Some(Carried::Ours)
    } else if defines || section(".nvFatBinSegment") {
        Some(Carried::NvidiaStatic)
    } else {
        None
    }
}

/// The loaded objects that carry NVIDIA's static runtime, by path (the
/// executable as `/proc/self/exe` resolves), in load order.
pub fn nvidia_static_runtimes() -> Vec<String> {
    loaded_objects(0)
        .into_iter()
        .filter_map(|o| o.path)
        .filter(|p| carried_runtime(p) == Some(Carried::NvidiaStatic))
        .collect()
}

/// A loaded object: its load address, its file (`None` for the vDSO and
/// other objects without one; the executable as `/proc/self/exe`
/// resolves) and whether one of its segments holds the address asked
/// about.
struct Loaded {
    addr: usize,
    path: Option<String>,
    holds: bool,
}

/// The loaded objects, in load order, with whether each holds `addr`.
fn loaded_objects(addr: usize) -> Vec<Loaded> {
    let mut objects = Vec::new();
    crate::trace::iterate_objects(|info| {
        let name = if info.dlpi_name.is_null() {
            String::new()
        } else {
            // SAFETY: the loader hands a NUL-terminated name, valid during
            // the callback, copied out here.
            unsafe { CStr::from_ptr(info.dlpi_name) }
                .to_string_lossy()
                .into_owned()
        };
        objects.push(Loaded {
            addr: info.dlpi_addr as usize,
            path: Some(name),
            holds: holds(info, addr),
        });
        false
    });
    for (i, o) in objects.iter_mut().enumerate() {
        o.path = match o.path.take().as_deref() {
            // The first object is the executable; the vDSO has no file.
            Some("") if i == 0 => std::fs::read_link("/proc/self/exe")
                .ok()
                .map(|p| p.display().to_string()),
            Some("") | None => None,
            Some(n) if crate::trace::file_name(n).starts_with("linux-vdso") => None,
            Some(n) => Some(n.to_string()),
        };
    }
    objects
}

/// The loader's counts of objects loaded and unloaded so far (from the
/// first object it reports; the walk stops there).
fn loader_counts() -> (u64, u64) {
    let mut counts = (0, 0);
    crate::trace::iterate_objects(|info| {
        counts = (info.dlpi_adds, info.dlpi_subs);
        true
    });
    counts
}

/// Why the object file at `path` makes driver handles of its own (streams,
/// events, arrays, graphs...) that this runtime does not see made: it
/// carries a CUDA runtime (NVIDIA's static or shared one, or another copy
/// of this one), it imports driver functions (linked with `-lcuda`), or its
/// read-only data names driver entry points, as loaders that `dlopen` the
/// driver and look its functions up by name do (NVIDIA's runtime, NCCL,
/// XLA, cuda-python). `None`: none of these.
pub fn handle_maker(path: &str) -> Option<&'static str> {
    let file = Mapped::open(path)?;
    let bytes = file.bytes();
    let elf = goblin::elf::Elf::parse(bytes).ok()?;
    match carried_in(&elf) {
        Some(Carried::NvidiaStatic) => return Some("carries NVIDIA's CUDA runtime"),
        Some(Carried::Ours) => return Some("carries another copy of this runtime"),
        None => {}
    }
    let driver_import = elf.dynsyms.iter().any(|s| {
        s.st_shndx == 0
            && elf.dynstrtab.get_at(s.st_name).is_some_and(|n| {
                n.strip_prefix("cu")
                    .filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
                    .is_some_and(|rest| MAKING.iter().any(|m| rest.contains(m)))
            })
    });
    if driver_import {
        return Some("makes driver handles through the driver's own functions");
    }
    use goblin::elf::section_header::{SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE, SHT_PROGBITS};
    let names_driver = elf.section_headers.iter().any(|sh| {
        let read_only = sh.sh_type == SHT_PROGBITS
            && sh.sh_flags & u64::from(SHF_ALLOC) != 0
            && sh.sh_flags & u64::from(SHF_WRITE | SHF_EXECINSTR) == 0;
        let data = usize::try_from(sh.sh_offset)
            .ok()
            .zip(usize::try_from(sh.sh_size).ok())
            .and_then(|(at, len)| bytes.get(at..at.checked_add(len)?));
        read_only && data.is_some_and(|d| DRIVER_NAMES.iter().any(|name| contains(d, name)))
    });
    names_driver.then_some("looks driver functions up by name")
}

/// Parts of the names of the driver functions that make (or hand out)
/// handles of the kinds the handle room records: a program that imports
/// only `cuInit` or `cuCtxGetCurrent` makes none.
const MAKING: [&str; 13] = [
    "GetProcAddress",
    "StreamCreate",
    "EventCreate",
    "ArrayCreate",
    "Array3DCreate",
    "MipmappedArray",
    "Graph",
    "Capture",
    "Library",
    "Module",
    "MemPool",
    "External",
    "AsyncNotification",
];

/// Names that a loader of the driver looks up: NVIDIA's runtime resolves
/// the driver through `cuGetProcAddress`; stubs such as XLA's and
/// cuda-python's name every function they use.
const DRIVER_NAMES: [&[u8]; 3] = [b"cuGetProcAddress", b"cuStreamCreate", b"cuEventCreate"];

/// Whether `needle` occurs in `hay` (glibc's `memmem`: read-only data of
/// a large library is hundreds of megabytes).
fn contains(hay: &[u8], needle: &[u8]) -> bool {
    // SAFETY: both pointers and lengths describe live slices; memmem only
    // reads within them and returns a pointer into `hay` or NULL.
    !unsafe {
        libc::memmem(
            hay.as_ptr().cast(),
            hay.len(),
            needle.as_ptr().cast(),
            needle.len(),
        )
    }
    .is_null()
}

/// The first loaded object, other than the one that holds this runtime
/// and the driver itself, that makes driver handles the runtime does not
/// see made ([`handle_maker`]), as "path: why". The driver may hand such an
/// object, for a live stream or event of its own, an address this runtime
/// saw destroyed; the handle room then stops refusing by its records.
///
/// Objects are classified once each (by load address and name); the
/// loaded set is looked at again only when the loader's count of loads or
/// unloads moved. Once one was found, the answer stays: handles it made
/// may outlive it in the program's hands.
pub fn other_handle_maker() -> Option<String> {
    static FOUND: OnceLock<String> = OnceLock::new();
    static SEEN: parking_lot::Mutex<Seen> = parking_lot::Mutex::new(Seen {
        adds: u64::MAX,
        subs: u64::MAX,
        classified: Vec::new(),
    });
    if let Some(found) = FOUND.get() {
        return Some(found.clone());
    }
    let mut seen = SEEN.lock();
    let counts = loader_counts();
    if counts == (seen.adds, seen.subs) {
        return None;
    }
    let here = other_handle_maker as fn() -> Option<String> as usize;
    let mut found = None;
    for o in loaded_objects(here) {
        let known = seen
            .classified
            .iter()
            .any(|(a, p)| *a == o.addr && *p == o.path);
        if o.holds || known {
            continue;
        }
        let why = o
            .path
            .as_deref()
            .filter(|p| !crate::trace::file_name(p).starts_with("libcuda.so"))
            .and_then(|p| handle_maker(p).map(|why| format!("{p}: {why}")));
        seen.classified.push((o.addr, o.path));
        if why.is_some() {
            found = why;
            break;
        }
    }
    if let Some(found) = found {
        crate::trace::event!(
            "handles",
            "another handle maker",
            "{found}; handles the runtime saw destroyed go on to the driver from now on"
        );
        return Some(FOUND.get_or_init(|| found).clone());
    }
    (seen.adds, seen.subs) = counts;
    None
}

/// The loaded objects looked at by [`other_handle_maker`], and the
/// loader's counts of loads and unloads when they were.
struct Seen {
    adds: u64,
    subs: u64,
    classified: Vec<(usize, Option<String>)>,
}

/// Whether one of `info`'s loaded segments holds `addr`.
fn holds(info: &libc::dl_phdr_info, addr: usize) -> bool {
    if info.dlpi_phdr.is_null() {
        return false;
    }
    // SAFETY: the loader hands `dlpi_phnum` program headers at
    // `dlpi_phdr`, valid during the dl_iterate_phdr callback.
    let headers =
        unsafe { std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) };
    headers.iter().any(|h| {
        let start = (info.dlpi_addr as usize).wrapping_add(h.p_vaddr as usize);
        h.p_type == libc::PT_LOAD && addr >= start && addr - start < h.p_memsz as usize
    })
}

/// What to say when objects carry NVIDIA's static runtime beside ours: who,
/// what it means, and the two ways out. `None` when none does.
pub fn bypass_message(carriers: &[String]) -> Option<String> {
    if carriers.is_empty() {
        return None;
    }
    Some(format!(
        "{} carr{} NVIDIA's static CUDA runtime (nvcc links -cudart static by default): \
         the kernels and CUDA calls of {} go to that runtime, not to this one. To run them \
         on this runtime, build with -cudart shared (CMake: CMAKE_CUDA_RUNTIME_LIBRARY=Shared), \
         or link this project's libcudart_static.a instead of NVIDIA's (nvcc -L<prefix>/lib64; \
         see scripts/install.sh).",
        carriers.join(", "),
        if carriers.len() == 1 { "ies" } else { "y" },
        if carriers.len() == 1 {
            "that object"
        } else {
            "those objects"
        },
    ))
}

/// A file mapped read-only, unmapped when dropped.
struct Mapped {
    addr: *mut libc::c_void,
    len: usize,
}

impl Mapped {
    /// Maps the regular file at `path` (none for an empty or unreadable one).
    fn open(path: &str) -> Option<Mapped> {
        let file = std::fs::File::open(path).ok()?;
        let len = usize::try_from(file.metadata().ok()?.len()).ok()?;
        if len == 0 {
            return None;
        }
        use std::os::fd::AsRawFd;
        // SAFETY: a fresh private read-only mapping of an open descriptor;
        // the kernel picks the address. The descriptor may close after.
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        (addr != libc::MAP_FAILED).then_some(Mapped { addr, len })
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: `len` readable bytes are mapped at `addr` until drop.
        // A file truncated meanwhile would fault on access past its end;
        // the objects read here are the process's own loaded files.
        unsafe { std::slice::from_raw_parts(self.addr.cast::<u8>(), self.len) }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `open`, unmapped once.
        unsafe {
            libc::munmap(self.addr, self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_of_this_runtime_makes_handles_the_c_library_does_not() {
        // The test executable links this crate: another copy of the runtime
        // to any other copy, and it names the driver's entry points.
        let exe = std::fs::read_link("/proc/self/exe").expect("/proc/self/exe");
        assert_eq!(
            handle_maker(&exe.display().to_string()),
            Some("carries another copy of this runtime")
        );
        let mut libc_path = None;
        crate::trace::iterate_objects(|info| {
            if !info.dlpi_name.is_null() {
                // SAFETY: the loader's NUL-terminated name, valid here.
                let name = unsafe { CStr::from_ptr(info.dlpi_name) }.to_string_lossy();
                if crate::trace::file_name(&name).starts_with("libc.so") {
                    libc_path = Some(name.into_owned());
                }
            }
            false
        });
        let libc_path = libc_path.expect("libc is loaded");
        assert_eq!(handle_maker(&libc_path), None, "{libc_path}");
        // Alone with the C library, the test executable (this runtime's own
        // object) leaves the records standing.
        assert_eq!(other_handle_maker(), None);
        assert!(contains(b"xxcuGetProcAddressyy", b"cuGetProcAddress"));
        assert!(!contains(b"cuGetProcAddres", b"cuGetProcAddress"));
    }
}
