//! The only module with `unsafe` code: turning raw pointers that C code hands
//! to the runtime (`__cudaRegisterFatBinary(void *wrapper)`,
//! `cuModuleLoadFatBinary`-style pointers) into bounded slices.
#![allow(unsafe_code)]

use crate::container::{Fatbin, CONTAINER_HEADER_SIZE, CONTAINER_MAGIC};
use crate::error::{Error, Result};
use crate::read::{u16_at, u32_at, u64_at};
use crate::wrapper::{Wrapper, WrapperHeader, WRAPPER_MAGIC, WRAPPER_SIZE};

/// Largest container accepted from a raw pointer (8 GiB): a sanity bound on
/// a length read from memory before a slice of that length is formed.
pub const MAX_CONTAINER_SIZE: u64 = 8 << 30;
/// Most elements read from a version-2 prelinked array before giving up on
/// finding its NULL terminator.
pub const MAX_PRELINKED: usize = 1 << 16;

/// Copy `N` bytes from `ptr`.
///
/// # Safety
/// `ptr..ptr+N` must be readable.
unsafe fn read_array<const N: usize>(ptr: *const u8) -> [u8; N] {
    // SAFETY: the caller guarantees N readable bytes at ptr; read_unaligned
    // has no alignment requirement.
    unsafe { std::ptr::read_unaligned(ptr as *const [u8; N]) }
}

/// The slice covering the fatbin container at `ptr`: its 16-byte header and
/// the `size` bytes of entries the header declares.
///
/// Only the one container is returned. In executables containers of
/// different translation units follow each other back to back in
/// `.nv_fatbin`, each with its own wrapper, so the container after this one
/// belongs to someone else (measured with nvcc 13.0: a two-file program has
/// three adjacent containers and three wrappers). To walk adjacent containers
/// of a buffer whose length is known, use [`Fatbin::parse`] on that buffer.
///
/// The container's entries are not validated here; see
/// [`Fatbin::validate`].
///
/// # Safety
/// `ptr` must be NULL or point to a fatbin container (16 readable bytes at
/// least, and, when they carry the container magic, `16 + size` readable
/// bytes) that stays mapped and unmodified for the rest of the program, as
/// a registered fatbin does.
pub unsafe fn container_slice_from_ptr(ptr: *const u8) -> Result<&'static [u8]> {
    if ptr.is_null() {
        return Err(Error::NullPointer);
    }
    // SAFETY: the caller guarantees a container header (16 bytes) at ptr.
    let h: [u8; CONTAINER_HEADER_SIZE] = unsafe { read_array(ptr) };
    let magic = u32_at(&h, 0);
    if magic != CONTAINER_MAGIC {
        return Err(Error::BadMagic {
            what: "fatbin container",
            offset: 0,
            found: magic,
        });
    }
    let header_size = u16_at(&h, 6) as u64;
    let size = u64_at(&h, 8);
    let total = header_size.saturating_add(size);
    if total > MAX_CONTAINER_SIZE {
        return Err(Error::TooLarge {
            what: "fatbin container",
            size: total,
            limit: MAX_CONTAINER_SIZE,
        });
    }
    if header_size < CONTAINER_HEADER_SIZE as u64 {
        return Err(Error::BadHeader {
            what: "fatbin container",
            offset: 0,
            reason: "header size below 16",
        });
    }
    if (ptr as usize).checked_add(total as usize).is_none() {
        return Err(Error::BadHeader {
            what: "fatbin container",
            offset: 0,
            reason: "size wraps around the address space",
        });
    }
    // SAFETY: the caller guarantees that the header's declared extent is
    // readable and lives for the rest of the program; `total` is below
    // MAX_CONTAINER_SIZE (< isize::MAX) and does not wrap the address space.
    let s = unsafe { std::slice::from_raw_parts(ptr, total as usize) };
    Ok(s)
}

/// Read the wrapper at `ptr` (what `__cudaRegisterFatBinary` receives) and
/// resolve its container and, for version 2, the NULL-terminated prelinked
/// array.
///
/// In nvcc 13 `-rdc=true` executables (`crt/link.stub`), the prelinked array
/// holds, for each linked object, the *data pointer of that object's wrapper*,
/// i.e. a pointer to a container in `__nv_relfatbin`; an element that points
/// to a wrapper instead (magic `0x466243B1`) is followed to its container
/// too. Non-`rdc` executables also carry an unregistered version-2 wrapper
/// from nvlink whose array is all NULL before registration.
///
/// # Safety
/// `ptr` must point to 24 readable bytes of a wrapper; its data pointer and
/// every non-NULL element of its prelinked array must satisfy the contract
/// of [`container_slice_from_ptr`] (or point to a wrapper whose data
/// pointer does); the array must be NULL-terminated. All of it must stay
/// mapped and unmodified for the rest of the program.
pub unsafe fn wrapper_from_ptr(ptr: *const u8) -> Result<Wrapper<'static>> {
    if ptr.is_null() {
        return Err(Error::NullPointer);
    }
    // SAFETY: the caller guarantees 24 readable bytes at ptr.
    let raw: [u8; WRAPPER_SIZE] = unsafe { read_array(ptr) };
    let header = WrapperHeader::parse(&raw)?;
    // SAFETY: forwarded caller contract for the data pointer.
    let data = unsafe { container_slice_from_ptr(header.data as usize as *const u8) }?;
    let fatbin = Fatbin::parse_first(data)?;
    let mut prelinked = Vec::new();
    if let Some(array) = header.prelinked_array() {
        let array = array as usize as *const u8;
        for i in 0..=MAX_PRELINKED {
            if i == MAX_PRELINKED {
                return Err(Error::TooLarge {
                    what: "prelinked fatbin array",
                    size: i as u64,
                    limit: MAX_PRELINKED as u64,
                });
            }
            let Some(at) = (array as usize).checked_add(i * 8) else {
                return Err(Error::BadHeader {
                    what: "prelinked fatbin array",
                    offset: (i * 8) as u64,
                    reason: "wraps around the address space",
                });
            };
            // SAFETY: the caller guarantees a NULL-terminated array of
            // pointers; we stop at the first NULL.
            let elem = u64::from_le_bytes(unsafe { read_array::<8>(at as *const u8) });
            if elem == 0 {
                break;
            }
            let p = elem as usize as *const u8;
            // SAFETY: elements point to a container or a wrapper (caller
            // contract); 4 bytes of either are readable.
            let magic = u32::from_le_bytes(unsafe { read_array::<4>(p) });
            let container = if magic == WRAPPER_MAGIC {
                // SAFETY: a wrapper: 24 readable bytes (caller contract).
                let w: [u8; WRAPPER_SIZE] = unsafe { read_array(p) };
                let wh = WrapperHeader::parse(&w)?;
                // SAFETY: its data pointer designates a container.
                unsafe { container_slice_from_ptr(wh.data as usize as *const u8) }?
            } else {
                // SAFETY: a container (caller contract).
                unsafe { container_slice_from_ptr(p) }?
            };
            prelinked.push(Fatbin::parse_first(container)?);
        }
    }
    Ok(Wrapper {
        header,
        fatbin,
        prelinked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A container with one 8-byte cubin entry, in a u64 buffer (8-aligned
    /// like the real ones).
    fn container(tag: u8) -> Vec<u64> {
        let mut b = Vec::new();
        b.extend_from_slice(&CONTAINER_MAGIC.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(&0x48u64.to_le_bytes());
        let mut e = [0u8; 0x40];
        e[0] = 2;
        e[4] = 0x40;
        e[8] = 8;
        e[0x1c] = 90;
        b.extend_from_slice(&e);
        b.extend_from_slice(&[tag; 8]);
        b.chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// `container_slice_from_ptr` on the start of `buf`, or NULL for None.
    fn container_at(buf: Option<&[u64]>) -> Result<&[u8]> {
        let p = buf.map_or(std::ptr::null(), |b| b.as_ptr() as *const u8);
        // SAFETY: NULL, or a live buffer of the test; the function reads
        // only the header and the extent the header declares, and a bad
        // magic or an extent past the sanity limit is refused before that.
        unsafe { container_slice_from_ptr(p) }
    }

    /// `wrapper_from_ptr` on the start of `buf`, or NULL for None.
    fn wrapper_at(buf: Option<&[u64]>) -> Result<Wrapper<'_>> {
        let p = buf.map_or(std::ptr::null(), |b| b.as_ptr() as *const u8);
        // SAFETY: NULL, or a live wrapper of the test whose pointers lead
        // to live containers and arrays of the same test.
        unsafe { wrapper_from_ptr(p) }
    }

    fn wrapper(version: u32, data: *const u64, array: *const u64) -> [u64; 3] {
        [
            WRAPPER_MAGIC as u64 | (version as u64) << 32,
            data as u64,
            array as u64,
        ]
    }

    #[test]
    fn container_from_ptr_takes_exactly_one_container() {
        // Two containers back to back: only the first is returned.
        let mut two = container(1);
        two.extend(container(2));
        let s = container_at(Some(&two)).unwrap();
        assert_eq!(s.len(), 16 + 0x48);
        let fb = Fatbin::parse(s).unwrap();
        assert_eq!(fb.entries().next().unwrap().unwrap().payload, &[1; 8]);
    }

    #[test]
    fn null_and_bad_magic() {
        assert_eq!(container_at(None), Err(Error::NullPointer));
        assert!(wrapper_at(None).is_err());
        let junk = [0u64; 4];
        assert!(matches!(
            container_at(Some(&junk)),
            Err(Error::BadMagic { .. })
        ));
        assert!(matches!(
            wrapper_at(Some(&junk)),
            Err(Error::BadMagic { .. })
        ));
        // A header that declares more than the sanity limit.
        let mut huge = container(0);
        huge[1] = u64::MAX;
        assert!(matches!(
            container_at(Some(&huge)),
            Err(Error::TooLarge { .. })
        ));
    }

    #[test]
    fn wrapper_v1() {
        let c = container(7);
        let w = wrapper(1, c.as_ptr(), std::ptr::null());
        let w = wrapper_at(Some(&w)).unwrap();
        assert_eq!(w.header.version, 1);
        assert!(w.prelinked.is_empty());
        assert_eq!(w.fatbin.as_bytes().len(), 16 + 0x48);
    }

    #[test]
    fn wrapper_v2_prelinked_containers_and_wrappers() {
        let linked = container(1);
        let obj_a = container(2);
        let obj_b = container(3);
        let wb = wrapper(1, obj_b.as_ptr(), std::ptr::null());
        // As link.stub fills it: container pointers, NULL-terminated; an
        // element pointing to a wrapper is followed too.
        let array = [obj_a.as_ptr() as u64, wb.as_ptr() as u64, 0];
        let w = wrapper(2, linked.as_ptr(), array.as_ptr());
        let w = wrapper_at(Some(&w)).unwrap();
        assert_eq!(w.header.version, 2);
        let tags: Vec<u8> = w
            .prelinked
            .iter()
            .map(|f| f.entries().next().unwrap().unwrap().payload[0])
            .collect();
        assert_eq!(tags, [2, 3]);
        // An empty array (non-rdc nvlink wrapper before registration).
        let empty = [0u64];
        let w = wrapper(2, linked.as_ptr(), empty.as_ptr());
        let w = wrapper_at(Some(&w)).unwrap();
        assert!(w.prelinked.is_empty());
    }

    #[test]
    fn wrapper_v2_self_referencing_array_terminates() {
        // An array element pointing back at the wrapper itself: followed
        // once to its container, no recursion.
        let linked = container(1);
        let mut w = wrapper(2, linked.as_ptr(), std::ptr::null());
        let array = [w.as_ptr() as u64, w.as_ptr() as u64, 0];
        w[2] = array.as_ptr() as u64;
        let r = wrapper_at(Some(&w)).unwrap();
        assert_eq!(r.prelinked.len(), 2);
    }
}
