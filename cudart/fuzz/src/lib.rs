//! The registration fuzz target's harness: what nvcc's constructors and a
//! program's first kernel use do, with fuzzed wrappers, images and names.
//!
//! One input is one program's life: `__cudaRegisterFatBinary` with a
//! wrapper built from the input (magic, version, the image, the fourth
//! field), `__cudaRegisterFunction` / `__cudaRegisterVar` /
//! `__cudaRegisterManagedVar` with fuzzed names and host addresses,
//! `__cudaRegisterFatBinaryEnd` (or not), then the calls that need the
//! kernel (`cudaFuncGetAttributes`, `cudaLaunchKernel`, `cudaGetKernel`,
//! `cudaFuncGetName`, `cudaFuncSetAttribute`, `cudaGetSymbolAddress`,
//! `__cudaInitModule`, late registrations), so the runtime's lazy load runs:
//! `cuLibraryLoadData` of the image into the fake driver ([`driver`]),
//! which parses it, picks the entry for the device and decompresses it
//! with the `fatbin` crate, then `cuLibraryGetKernel` by name. Load
//! refusals reach the runtime's diagnostics (`CUDART_DIAGNOSTICS=1` is set),
//! which parse the image again. Last, `__cudaUnregisterFatBinary`, after
//! which the registry must hold nothing and the driver no library; every
//! buffer the runtime was given (wrapper, image, names, variables) is freed
//! after that, so a use after unregistration is AddressSanitizer's to see.
//!
//! Input layout (bytes past the end read as 0; all-zero bytes are a valid
//! wrapper of version 1, no kernels, device sm_90):
//!
//! | byte | meaning |
//! |---|---|
//! | `c0` | bits 0-1 magic (3: a fuzzed `u32` follows), bits 2-3 version (0: 1, 1: 2, 2: a fuzzed `u32` follows, 3: 0), bit 4 fourth field points to a file name, bit 5 data pointer NULL, bit 6 the queries also run before `__cudaRegisterFatBinaryEnd`, bit 7 no `__cudaRegisterFatBinaryEnd` |
//! | `c1` | bits 0-2 kernels (0-7), bits 3-4 variables (0-3), bits 5-7 device (sm_90, 80, 86, 100, 120, 75, 89, 103) |
//! | per kernel | name spec, then a `u16` host-stub offset |
//! | per variable | name spec, size byte, kind byte (bit 0 managed), slot byte |
//! | `n` | number of queries (`n % 12`), then one byte each (bits 0-2 what, bits 3-7 which) and what the query reads |
//! | rest | the image the wrapper points to |
//!
//! A name spec byte with bit 7 set takes the name of the `(b & 0x7f)`-th
//! kernel (variable) the image holds for the device, as nvcc would; else
//! `b & 0x3f` bytes of the input follow, the name (NUL-terminated; an
//! inner NUL cuts it).
//!
//! The image is given as a registered one is: 8-byte aligned, and as long
//! as its header says (zero-padded up to 1 MiB; a longer declared size is
//! cut down to the bytes given), because the runtime, like the driver,
//! reads a registered container as far as its header says.

pub mod driver;

use std::alloc::Layout;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::{Once, OnceLock};

use cudart::abi::{cudaFuncAttributes, dim3};

extern "C" {
    fn __cudaRegisterFatBinary(wrapper: *mut c_void) -> *mut *mut c_void;
    fn __cudaRegisterFatBinaryEnd(handle: *mut *mut c_void);
    fn __cudaUnregisterFatBinary(handle: *mut *mut c_void);
    fn __cudaRegisterFunction(
        handle: *mut *mut c_void,
        host_fun: *const c_char,
        device_fun: *mut c_char,
        device_name: *const c_char,
        thread_limit: c_int,
        tid: *mut c_void,
        bid: *mut c_void,
        bdim: *mut c_void,
        gdim: *mut c_void,
        wsize: *mut c_int,
    );
    fn __cudaRegisterVar(
        handle: *mut *mut c_void,
        host_var: *mut c_char,
        device_address: *mut c_char,
        device_name: *const c_char,
        ext: c_int,
        size: usize,
        constant: c_int,
        global: c_int,
    );
    fn __cudaRegisterManagedVar(
        handle: *mut *mut c_void,
        host_var_ptr: *mut *mut c_void,
        device_address: *mut c_char,
        device_name: *const c_char,
        ext: c_int,
        size: usize,
        constant: c_int,
        global: c_int,
    );
    fn __cudaInitModule(handle: *mut *mut c_void) -> c_char;
    fn cudaFuncGetAttributes(attr: *mut cudaFuncAttributes, func: *const c_void) -> c_int;
    fn cudaLaunchKernel(
        func: *const c_void,
        grid: dim3,
        block: dim3,
        args: *mut *mut c_void,
        shared: usize,
        stream: *mut c_void,
    ) -> c_int;
    fn cudaGetKernel(kernel: *mut *mut c_void, func: *const c_void) -> c_int;
    fn __cudaGetKernel(kernel: *mut *mut c_void, func: *const c_void) -> c_int;
    fn cudaFuncGetName(name: *mut *const c_char, func: *const c_void) -> c_int;
    fn cudaFuncSetAttribute(func: *const c_void, attr: c_int, value: c_int) -> c_int;
    fn cudaGetSymbolAddress(ptr: *mut *mut c_void, symbol: *const c_void) -> c_int;
    fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> c_int;
    fn cudaGetLastError() -> c_int;
}

const WRAPPER_MAGIC: u32 = 0x466243B1;
const CONTAINER_MAGIC: u32 = 0xBA55ED50;
/// Images are zero-padded to their declared size up to this.
const MAX_IMAGE: u64 = 1 << 20;
const DEVICES: [u32; 8] = [90, 80, 86, 100, 120, 75, 89, 103];

/// nvcc's `__fatBinC_Wrapper_t`: magic, version, the container, and a
/// file name (version 1) or the prelinked array (version 2).
#[repr(C)]
struct Wrapper {
    magic: u32,
    version: u32,
    data: *const c_void,
    filename_or_fatbins: *const c_void,
}

/// Host stubs: addresses the harness registers kernels under (never
/// called), over four or five 16 KiB granules of the registry's index. On
/// the heap, in no loaded object: the diagnostics of an unknown function
/// then skip reading the object file that holds it (this 40 MB binary,
/// read and parsed once per such call, would slow the target to 50
/// inputs a second).
fn stub(off: u16) -> *const c_char {
    static STUBS: OnceLock<usize> = OnceLock::new();
    let base =
        *STUBS.get_or_init(|| Box::leak(vec![0u8; 1 << 16].into_boxed_slice()).as_ptr() as usize);
    (base + usize::from(off)) as *const c_char
}

/// Registers kernel `name` (NUL-terminated) under host stub `s`, as an
/// nvcc-generated constructor does (thread limit -1, no optional arrays).
fn register_kernel(handle: *mut *mut c_void, s: *const c_char, name: &[u8]) {
    // SAFETY: `name` is NUL-terminated and outlives the registration (the
    // callers keep it until after `__cudaUnregisterFatBinary`); `handle`
    // came from `__cudaRegisterFatBinary`; the other pointers are null,
    // which the entry point accepts.
    unsafe {
        __cudaRegisterFunction(
            handle,
            s,
            name.as_ptr() as *mut c_char,
            name.as_ptr().cast(),
            -1,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
    }
}

/// Reads the input front to back; past the end, zeros.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }
}

/// An 8-byte aligned copy of the image, exactly as long as it is (so
/// AddressSanitizer sees a read past it).
struct Image {
    ptr: *mut u8,
    layout: Layout,
}

impl Image {
    fn new(given: &[u8]) -> Image {
        let mut bytes = given.to_vec();
        if bytes.len() < 16 {
            bytes.resize(16, 0);
        }
        if u32::from_le_bytes(bytes[0..4].try_into().unwrap()) == CONTAINER_MAGIC {
            let hsize = u64::from(u16::from_le_bytes([bytes[6], bytes[7]]));
            let mut size = u64::from_le_bytes(bytes[8..16].try_into().unwrap());
            if hsize.saturating_add(size) > MAX_IMAGE.max(bytes.len() as u64) {
                size = (bytes.len() as u64).saturating_sub(hsize);
                bytes[8..16].copy_from_slice(&size.to_le_bytes());
            }
            let total = (hsize + size) as usize;
            if total > bytes.len() {
                bytes.resize(total, 0);
            }
        }
        let layout = Layout::from_size_align(bytes.len(), 8).expect("small");
        // SAFETY: the layout's size is at least 16.
        let ptr = unsafe { std::alloc::alloc(layout) };
        assert!(!ptr.is_null(), "out of memory");
        // SAFETY: `ptr` has room for `bytes.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len()) };
        Image { ptr, layout }
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

/// Names the image holds for the device (kernels, variables).
struct ImageNames {
    kernels: Vec<Vec<u8>>,
    vars: Vec<Vec<u8>>,
}

/// A name from a spec byte, NUL-terminated, in its own allocation.
fn name(r: &mut Reader<'_>, from_image: &[Vec<u8>]) -> Box<[u8]> {
    let spec = r.u8();
    let mut n: Vec<u8> = if spec & 0x80 == 0 {
        r.take(usize::from(spec & 0x3f)).to_vec()
    } else if from_image.is_empty() {
        b"_Z6kernelv".to_vec()
    } else {
        from_image[usize::from(spec & 0x7f) % from_image.len()].clone()
    };
    n.push(0);
    n.into_boxed_slice()
}

fn once_setup() {
    static SETUP: Once = Once::new();
    SETUP.call_once(|| {
        // Load refusals explained by the diagnostics parse the image too.
        // Before any runtime call (the runtime reads it once).
        if std::env::var_os("CUDART_DIAGNOSTICS").is_none() {
            std::env::set_var("CUDART_DIAGNOSTICS", "1");
        }
        let path = std::ffi::CString::new(env!("FUZZ_DRIVER_SHIM")).expect("path");
        // SAFETY: loading the harness's own shim (shim/libcuda_shim.c),
        // which has no initializers; kept open for the process.
        let lib = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
        assert!(!lib.is_null(), "cannot open {path:?}");
        // SAFETY: the shim exports this symbol with this C signature.
        let install = unsafe { libc::dlsym(lib, c"fuzz_driver_install".as_ptr()) };
        assert!(!install.is_null(), "shim without fuzz_driver_install");
        type GetProc =
            unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> c_int;
        type Install = unsafe extern "C" fn(GetProc);
        // SAFETY: the shim's `void fuzz_driver_install(get_proc_t)`.
        unsafe {
            let install = std::mem::transmute::<*mut c_void, Install>(install);
            install(driver::get_proc_address);
        }
    });
}

/// One input: register, ask, unregister, check that nothing is left.
pub fn registration(data: &[u8]) {
    once_setup();
    let mut r = Reader(data);
    let c0 = r.u8();
    let c1 = r.u8();
    let magic = match c0 & 3 {
        3 => r.u32(),
        _ => WRAPPER_MAGIC,
    };
    let version = match (c0 >> 2) & 3 {
        0 => 1,
        1 => 2,
        2 => r.u32(),
        _ => 0,
    };
    let nkernels = usize::from(c1 & 7);
    let nvars = usize::from((c1 >> 3) & 3);
    driver::set_device_sm(DEVICES[usize::from(c1 >> 5)]);
    driver::unbind_thread();

    // The per-kernel and per-variable bytes come first, the image last: the
    // image is the rest, so it is read here and the names after.
    let fixed = r.0;
    let image_at = header_len(fixed, nkernels, nvars);
    let image = Image::new(&fixed[image_at.min(fixed.len())..]);
    let names = {
        // SAFETY: `Image::new` made the header's extent readable.
        match unsafe { driver::symbols_at(image.ptr) } {
            Ok(s) => ImageNames {
                kernels: s
                    .kernels
                    .iter()
                    .map(|k| k.name.to_bytes().to_vec())
                    .collect(),
                vars: s.vars.iter().map(|v| v.0.to_bytes().to_vec()).collect(),
            },
            Err(_) => ImageNames {
                kernels: Vec::new(),
                vars: Vec::new(),
            },
        }
    };
    let mut r = Reader(&fixed[..image_at.min(fixed.len())]);

    let file_name = c"fuzz.cu";
    let wrapper = Box::new(Wrapper {
        magic,
        version,
        data: if c0 & 0x20 != 0 {
            std::ptr::null()
        } else {
            image.ptr as *const c_void
        },
        filename_or_fatbins: if c0 & 0x10 != 0 {
            file_name.as_ptr().cast()
        } else {
            std::ptr::null()
        },
    });
    let baseline = cudart::facade::registry::counts();
    // SAFETY (all calls below): the runtime's C ABI, with arguments that
    // live until after `__cudaUnregisterFatBinary`.
    let handle = unsafe { __cudaRegisterFatBinary(&*wrapper as *const Wrapper as *mut c_void) };

    let mut kept_names: Vec<Box<[u8]>> = Vec::new();
    let mut stubs: Vec<*const c_char> = Vec::new();
    for _ in 0..nkernels {
        let n = name(&mut r, &names.kernels);
        let s = stub(r.u16());
        register_kernel(handle, s, &n);
        kept_names.push(n);
        stubs.push(s);
    }
    // Host variables (and managed variables' pointer slots) of this input.
    let mut slots: Box<[*mut c_void; 64]> = Box::new([std::ptr::null_mut(); 64]);
    let mut vars: Vec<*const c_void> = Vec::new();
    for _ in 0..nvars {
        let n = name(&mut r, &names.vars);
        let size = usize::from(r.u8()) * 4;
        let kind = r.u8();
        let slot: *mut *mut c_void = &mut slots[usize::from(r.u8() % 64)];
        // SAFETY: `handle` is this input's live registration, `slot` a live
        // slot of `slots`, `n` a NUL-terminated name that `kept_names` keeps
        // for the registration's life.
        unsafe {
            if kind & 1 != 0 {
                __cudaRegisterManagedVar(
                    handle,
                    slot,
                    n.as_ptr() as *mut c_char,
                    n.as_ptr().cast(),
                    0,
                    size,
                    0,
                    0,
                );
            } else {
                __cudaRegisterVar(
                    handle,
                    slot.cast(),
                    n.as_ptr() as *mut c_char,
                    n.as_ptr().cast(),
                    0,
                    size,
                    c_int::from(kind & 2 != 0),
                    0,
                );
            }
        }
        kept_names.push(n);
        vars.push(slot as *const c_void);
    }
    let queries = r.u8() % 12;
    let query_bytes: Vec<u8> = r.take(usize::from(queries) * 3).to_vec();
    let ask = |late: &mut Vec<Box<[u8]>>, late_stubs: &mut Vec<*const c_char>| {
        let mut q = Reader(&query_bytes);
        for _ in 0..queries {
            query(&mut q, handle, &stubs, &vars, &names, late, late_stubs);
        }
    };
    let mut late_names = Vec::new();
    let mut late_stubs = Vec::new();
    if c0 & 0x40 != 0 {
        ask(&mut late_names, &mut late_stubs);
    }
    if c0 & 0x80 == 0 {
        // SAFETY: `handle` came from this input's __cudaRegisterFatBinary
        // and is not yet unregistered.
        unsafe { __cudaRegisterFatBinaryEnd(handle) };
    }
    ask(&mut late_names, &mut late_stubs);
    // SAFETY: `handle` is this input's registration, unregistered once here.
    unsafe {
        cudaGetLastError();
        __cudaUnregisterFatBinary(handle);
        cudaGetLastError();
    }

    // Nothing of the fatbin is left: not in the registry, not in the driver.
    assert_eq!(cudart::facade::registry::counts(), baseline, "records left");
    for &s in stubs.iter().chain(&late_stubs) {
        assert!(
            cudart::facade::registry::kernel_for_stub(s.cast()).is_none(),
            "a kernel is found after its fatbin was unregistered"
        );
    }
    assert_eq!(driver::live_libraries(), 0, "a library left loaded");
    drop((wrapper, image, kept_names, late_names, slots));
}

/// How many bytes the kernels, variables and queries take (without reading
/// the names from the image: a spec with bit 7 takes no bytes).
fn header_len(d: &[u8], nkernels: usize, nvars: usize) -> usize {
    let mut r = Reader(d);
    let spec = |r: &mut Reader<'_>| {
        let s = r.u8();
        if s & 0x80 == 0 {
            r.take(usize::from(s & 0x3f));
        }
    };
    for _ in 0..nkernels {
        spec(&mut r);
        r.u16();
    }
    for _ in 0..nvars {
        spec(&mut r);
        r.take(3);
    }
    let queries = r.u8() % 12;
    r.take(usize::from(queries) * 3);
    d.len() - r.0.len()
}

/// One query (3 bytes: what/which, and two arguments).
fn query(
    q: &mut Reader<'_>,
    handle: *mut *mut c_void,
    stubs: &[*const c_char],
    vars: &[*const c_void],
    names: &ImageNames,
    late: &mut Vec<Box<[u8]>>,
    late_stubs: &mut Vec<*const c_char>,
) {
    let b = q.u8();
    let (a1, a2) = (q.u8(), q.u8());
    let which = usize::from(b >> 3);
    // A registered kernel, or (which >= 24, or none registered) a host
    // address never registered.
    let func: *const c_void = match stubs.len() {
        n if n > 0 && which < 24 => stubs[which % n].cast(),
        _ => stub(u16::from_le_bytes([a1, a2])).cast(),
    };
    let registered = stubs.contains(&func.cast());
    // SAFETY: every pointer below is a live local or one of this input's
    // stubs; an unregistered `func` is what the runtime must refuse.
    unsafe {
        match b & 7 {
            0 => {
                let mut a = cudaFuncAttributes::default();
                cudaFuncGetAttributes(&mut a, func);
            }
            1 => {
                let grid = dim3 { x: 1, y: 1, z: 1 };
                let block = dim3 {
                    x: u32::from(a1) * 8,
                    y: 1,
                    z: 1,
                };
                let stream = (usize::from(a2 % 3)) as *mut c_void;
                cudaLaunchKernel(func, grid, block, std::ptr::null_mut(), 0, stream);
            }
            2 => {
                let mut k = std::ptr::null_mut();
                if a1 & 1 == 0 {
                    cudaGetKernel(&mut k, func);
                } else {
                    __cudaGetKernel(&mut k, func);
                }
            }
            3 => {
                let mut n: *const c_char = std::ptr::null();
                if cudaFuncGetName(&mut n, func) == 0 && registered {
                    // The registered name (read: it must still be there).
                    let _ = CStr::from_ptr(n).to_bytes().len();
                }
            }
            4 => {
                let sym = match vars.len() {
                    0 => func,
                    n => vars[which % n],
                };
                let mut p = std::ptr::null_mut();
                let mut size = 0usize;
                cudaGetSymbolAddress(&mut p, sym);
                cudaGetSymbolSize(&mut size, sym);
            }
            5 => {
                __cudaInitModule(handle);
            }
            6 => {
                cudaFuncSetAttribute(func, 8 + c_int::from(a1 % 8), c_int::from(a2) << 8);
            }
            _ => {
                // A kernel registered late (after the end: the locked path).
                let n = if names.kernels.is_empty() {
                    b"_Z4latev\0".to_vec().into_boxed_slice()
                } else {
                    let mut n = names.kernels[usize::from(a1) % names.kernels.len()].clone();
                    n.push(0);
                    n.into_boxed_slice()
                };
                let s = stub(u16::from_le_bytes([a2, a1]));
                register_kernel(handle, s, &n);
                late.push(n);
                late_stubs.push(s);
            }
        }
    }
}
