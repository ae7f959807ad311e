//! The CUDA runtimes the process's objects carry.
//!
//! nvcc links the runtime statically by default, so an executable or a
//! shared library may carry a runtime of its own: its kernels register with
//! that runtime and its CUDA calls go there, whatever `libcudart.so.13` the
//! process also loads. This room tells which objects do, and which runtime
//! they carry: NVIDIA's static runtime or this project's
//! (`libcudart_static.a`, built from these sources). It reads the objects'
//! files (mapped, so only the headers and symbol tables are read in), only
//! when the trace or the diagnostics are on.

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
    let mut paths = Vec::new();
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
        paths.push(name);
        false
    });
    paths
        .into_iter()
        .enumerate()
        .filter_map(|(i, name)| match name.as_str() {
            // The first object is the executable; the vDSO has no file.
            "" if i == 0 => std::fs::read_link("/proc/self/exe")
                .ok()
                .map(|p| p.display().to_string()),
            "" => None,
            n if n.starts_with("linux-vdso") => None,
            n => Some(n.to_string()),
        })
        .filter(|p| carried_runtime(p) == Some(Carried::NvidiaStatic))
        .collect()
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
