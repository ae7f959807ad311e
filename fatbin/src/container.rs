#![forbid(unsafe_code)]
//! Fatbin containers (magic `0xBA55ED50`) and the entries in them.
//!
//! Layout (little-endian), as nvcc 13 writes it:
//!
//! ```text
//! container header, 16 bytes, 8-aligned:
//!   u32 magic 0xBA55ED50, u16 version 1, u16 header_size (16),
//!   u64 size of the entries that follow the header
//! entry header (header_size bytes, at least 0x40):
//!   0x00 u16 kind (1 PTX, 2 ELF cubin)   0x02 u16 0x0101
//!   0x04 u32 header_size                 0x08 u64 payload_size
//!   0x10 u32 compressed_size (0: plain)  0x14 u32 options descriptor offset
//!   0x18 u16 minor, u16 major            0x1c u32 arch (sm number)
//!   0x20 u32 object-name offset, u32 object-name length
//!   0x28 u64 flags                       0x30 u64 (0)
//!   0x38 u64 decompressed size
//!   payload follows the header; the next entry follows the payload
//! ```

use crate::error::{Error, Result};
use crate::read::{bytes, u16_at, u32_at, u64_at};

/// Magic number of a fatbin container header.
pub const CONTAINER_MAGIC: u32 = 0xBA55_ED50;
/// Size of a container header.
pub const CONTAINER_HEADER_SIZE: usize = 16;
/// Smallest entry header (a cubin entry without options).
pub const MIN_ENTRY_HEADER_SIZE: usize = 0x40;

/// The kind of payload an entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// PTX text (kind 1), for JIT compilation.
    Ptx,
    /// An ELF cubin (kind 2).
    Cubin,
    /// Any other kind value.
    Other(u16),
}

impl EntryKind {
    fn from_raw(v: u16) -> Self {
        match v {
            1 => EntryKind::Ptx,
            2 => EntryKind::Cubin,
            n => EntryKind::Other(n),
        }
    }
}

/// Entry flag bits (field at 0x28).
pub mod flags {
    /// 64-bit device code.
    pub const ADDRESS_64: u64 = 0x1;
    /// Compiled with debug information (`-G`).
    pub const DEBUG: u64 = 0x2;
    /// Host is Linux.
    pub const HOST_LINUX: u64 = 0x10;
    /// Payload is one raw LZ4 block.
    pub const COMPRESSED_LZ4: u64 = 0x2000;
    /// Payload is one zstd frame.
    pub const COMPRESSED_ZSTD: u64 = 0x8000;
    /// Architecture-specific code (`sm_90a`, `compute_100a`).
    pub const ARCH_SPECIFIC: u64 = 0x10_0000;
    /// Family-specific code (`sm_100f`, `compute_120f`).
    pub const FAMILY_SPECIFIC: u64 = 0x20_0000;
}

/// How an entry's payload is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Stored plain.
    None,
    /// One zstd frame (flag 0x8000).
    Zstd,
    /// One raw LZ4 block (flag 0x2000), no frame.
    Lz4,
}

/// One entry of a container: a PTX or cubin image with its header fields.
/// Borrowed from the container bytes; nothing is copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// What the payload is.
    pub kind: EntryKind,
    /// The raw kind value.
    pub raw_kind: u16,
    /// The field at 0x02 (0x0101 in every file seen).
    pub format: u16,
    /// Size of the entry header (0x40 cubin, 0x50 PTX, 0x60 rdc PTX, more
    /// with options or an object name).
    pub header_size: u32,
    /// Bytes reserved for the payload after the header (8-aligned).
    pub payload_size: u64,
    /// Bytes of compressed data at the start of the payload (0: plain).
    pub compressed_size: u32,
    /// Size after decompression (0 when stored plain).
    pub decompressed_size: u64,
    /// Code version: ELF ABI version for cubins (1.8), PTX ISA for PTX (9.0).
    pub version_major: u16,
    /// See `version_major`.
    pub version_minor: u16,
    /// SM number (75, 80, 90, 100, ...).
    pub arch: u32,
    /// Flag bits, see [`flags`].
    pub flags: u64,
    /// The options descriptor's bytes (PTX: the ptxas options text, e.g.
    /// `" -maxrregcount=32 -g"`; newer cubins: a binary descriptor). Empty
    /// when there is none.
    pub options: &'a [u8],
    /// The object name (source file name, set with `-G`), empty when absent.
    pub name: &'a [u8],
    /// The whole entry header.
    pub header: &'a [u8],
    /// The stored payload: `compressed_size` bytes when compressed, else
    /// `payload_size` bytes (may include alignment padding).
    pub payload: &'a [u8],
    /// Offset of the entry header in the slice handed to [`Fatbin::parse`].
    pub offset: usize,
}

impl<'a> Entry<'a> {
    /// How the payload is stored. Errors when both compression flags are set.
    pub fn compression(&self) -> Result<Compression> {
        let z = self.flags & flags::COMPRESSED_ZSTD != 0;
        let l = self.flags & flags::COMPRESSED_LZ4 != 0;
        match (z, l) {
            (false, false) if self.compressed_size == 0 => Ok(Compression::None),
            (true, false) => Ok(Compression::Zstd),
            (false, true) => Ok(Compression::Lz4),
            _ => Err(Error::UnknownCompression { flags: self.flags }),
        }
    }

    /// True for arch-specific code (`sm_90a`).
    pub fn is_arch_specific(&self) -> bool {
        self.flags & flags::ARCH_SPECIFIC != 0
    }

    /// True for family-specific code (`sm_100f`).
    pub fn is_family_specific(&self) -> bool {
        self.flags & flags::FAMILY_SPECIFIC != 0
    }

    /// The architecture as cuobjdump spells it in file names: `sm_90a` for
    /// arch-specific entries, `sm_100f` for family-specific PTX. Family-specific
    /// cubins are named without the `f` (as cuobjdump 13 does).
    pub fn arch_name(&self) -> String {
        let suffix = if self.is_arch_specific() {
            "a"
        } else if self.is_family_specific() && self.kind == EntryKind::Ptx {
            "f"
        } else {
            ""
        };
        format!("sm_{}{}", self.arch, suffix)
    }

    /// The options as text (lossy UTF-8), trimmed of NUL padding.
    pub fn options_str(&self) -> std::borrow::Cow<'a, str> {
        let end = self
            .options
            .iter()
            .position(|&c| c == 0)
            .unwrap_or(self.options.len());
        String::from_utf8_lossy(&self.options[..end])
    }

    /// Decompressed payload (borrowed when stored plain), bounded by the
    /// declared size and [`crate::MAX_DECOMPRESSED_SIZE`].
    pub fn decompress(&self) -> Result<std::borrow::Cow<'a, [u8]>> {
        crate::decompress::decompress_entry(self, crate::MAX_DECOMPRESSED_SIZE)
    }

    /// Like [`Entry::decompress`] with a caller-chosen output limit.
    pub fn decompress_with_limit(&self, limit: u64) -> Result<std::borrow::Cow<'a, [u8]>> {
        crate::decompress::decompress_entry(self, limit)
    }

    /// Parse one entry from `data` at `off`; `end` bounds the entry (the end
    /// of its container's entry area). Returns the entry and the offset of
    /// the next one.
    fn parse_at(data: &'a [u8], off: usize, end: usize) -> Result<(Entry<'a>, usize)> {
        let area = data.get(..end).unwrap_or(data);
        let fixed = bytes(
            area,
            off as u64,
            MIN_ENTRY_HEADER_SIZE as u64,
            "fatbin entry header",
        )?;
        let raw_kind = u16_at(fixed, 0);
        let format = u16_at(fixed, 2);
        let header_size = u32_at(fixed, 4);
        let payload_size = u64_at(fixed, 8);
        let compressed_size = u32_at(fixed, 0x10);
        let options_desc = u32_at(fixed, 0x14);
        let version_minor = u16_at(fixed, 0x18);
        let version_major = u16_at(fixed, 0x1a);
        let arch = u32_at(fixed, 0x1c);
        let name_off = u32_at(fixed, 0x20);
        let name_len = u32_at(fixed, 0x24);
        let flags = u64_at(fixed, 0x28);
        let decompressed_size = u64_at(fixed, 0x38);
        let bad = |reason| Error::BadHeader {
            what: "fatbin entry",
            offset: off as u64,
            reason,
        };
        if (header_size as usize) < MIN_ENTRY_HEADER_SIZE {
            return Err(bad("header size below 0x40"));
        }
        let header = bytes(area, off as u64, header_size as u64, "fatbin entry header")?;
        let payload_off = off as u64 + header_size as u64;
        let stored = bytes(area, payload_off, payload_size, "fatbin entry payload")?;
        let payload = if compressed_size != 0 {
            if compressed_size as u64 > payload_size {
                return Err(bad("compressed size exceeds payload size"));
            }
            &stored[..compressed_size as usize]
        } else {
            stored
        };
        // Options: a {u32 offset, u32 length} descriptor inside the header,
        // pointing at bytes inside the header.
        let options = if options_desc != 0 {
            let d = bytes(
                header,
                options_desc as u64,
                8,
                "fatbin entry options descriptor",
            )
            .map_err(|_| bad("options descriptor outside the header"))?;
            let (o, l) = (u32_at(d, 0), u32_at(d, 4));
            bytes(header, o as u64, l as u64, "fatbin entry options")
                .map_err(|_| bad("options outside the header"))?
        } else {
            &[][..]
        };
        let name = if name_off != 0 {
            bytes(
                header,
                name_off as u64,
                name_len as u64,
                "fatbin entry name",
            )
            .map_err(|_| bad("object name outside the header"))?
        } else {
            &[][..]
        };
        let next = (payload_off + payload_size) as usize; // <= end, checked above
        Ok((
            Entry {
                kind: EntryKind::from_raw(raw_kind),
                raw_kind,
                format,
                header_size,
                payload_size,
                compressed_size,
                decompressed_size,
                version_major,
                version_minor,
                arch,
                flags,
                options,
                name,
                header,
                payload,
                offset: off,
            },
            next,
        ))
    }
}

/// One container: its header fields and its entry area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Container<'a> {
    /// Container format version (1).
    pub version: u16,
    /// Header size (16).
    pub header_size: u16,
    /// The whole container (header and entries).
    pub bytes: &'a [u8],
    /// Offset of the container in the slice handed to [`Fatbin::parse`].
    pub offset: usize,
    base: &'a [u8],
}

impl<'a> Container<'a> {
    /// Parse the container header at `off` of `data` and bound its extent.
    pub fn parse_at(data: &'a [u8], off: usize) -> Result<Container<'a>> {
        let h = bytes(
            data,
            off as u64,
            CONTAINER_HEADER_SIZE as u64,
            "fatbin container header",
        )?;
        let magic = u32_at(h, 0);
        if magic != CONTAINER_MAGIC {
            return Err(Error::BadMagic {
                what: "fatbin container",
                offset: off as u64,
                found: magic,
            });
        }
        let version = u16_at(h, 4);
        let header_size = u16_at(h, 6);
        let size = u64_at(h, 8);
        if version != 1 {
            return Err(Error::UnsupportedVersion {
                what: "fatbin container",
                version: version as u32,
            });
        }
        if (header_size as usize) < CONTAINER_HEADER_SIZE {
            return Err(Error::BadHeader {
                what: "fatbin container",
                offset: off as u64,
                reason: "header size below 16",
            });
        }
        let total = (header_size as u64)
            .checked_add(size)
            .ok_or(Error::TooLarge {
                what: "fatbin container",
                size,
                limit: u64::MAX,
            })?;
        let bytes = bytes(data, off as u64, total, "fatbin container")?;
        Ok(Container {
            version,
            header_size,
            bytes,
            offset: off,
            base: data,
        })
    }

    /// Size of the container (header plus entries).
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Never true: a container has at least its header.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The entries, in order. The iterator yields an error (once, then ends)
    /// when an entry is malformed.
    pub fn entries(&self) -> Entries<'a> {
        let start = self.offset + self.header_size as usize;
        Entries {
            data: self.base,
            pos: start,
            end: self.offset + self.bytes.len(),
            done: false,
        }
    }
}

/// Iterator over the entries of one container.
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
    done: bool,
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<Entry<'a>>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.end {
            return None;
        }
        // Trailing zero padding shorter than a header ends the container.
        let rest = self.data.get(self.pos..self.end).unwrap_or(&[]);
        if rest.len() < MIN_ENTRY_HEADER_SIZE && rest.iter().all(|&b| b == 0) {
            self.done = true;
            return None;
        }
        match Entry::parse_at(self.data, self.pos, self.end) {
            Ok((e, next)) => {
                self.pos = next;
                Some(Ok(e))
            }
            Err(err) => {
                self.done = true;
                Some(Err(err))
            }
        }
    }
}

/// One or more fatbin containers that follow each other in memory, as found
/// in a `.nv_fatbin` section or a `.fatbin` file. Zero-copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fatbin<'a> {
    data: &'a [u8],
}

impl<'a> Fatbin<'a> {
    /// Validate every container header in `data` (containers back to back;
    /// zero padding to the next 8-byte boundary between them and at the end is
    /// accepted) and return the fatbin. Entries are checked lazily by
    /// [`Fatbin::entries`] / [`Fatbin::validate`].
    pub fn parse(data: &'a [u8]) -> Result<Fatbin<'a>> {
        let fb = Fatbin { data };
        let mut n = 0usize;
        for c in fb.containers() {
            c?;
            n += 1;
        }
        if n == 0 {
            return Err(Error::Truncated {
                what: "fatbin container header",
                offset: 0,
                needed: CONTAINER_HEADER_SIZE as u64,
                available: data.len() as u64,
            });
        }
        Ok(fb)
    }

    /// Parse the single container that starts at `data[0]`, ignoring any
    /// bytes after it. This is what a registered wrapper's data pointer
    /// designates.
    pub fn parse_first(data: &'a [u8]) -> Result<Fatbin<'a>> {
        let c = Container::parse_at(data, 0)?;
        Ok(Fatbin { data: c.bytes })
    }

    /// The bytes this fatbin covers.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The containers, in order.
    pub fn containers(&self) -> Containers<'a> {
        Containers {
            data: self.data,
            pos: 0,
            done: false,
        }
    }

    /// Every entry of every container, in order; yields an error (once, then
    /// ends) at the first malformed container or entry.
    pub fn entries(&self) -> impl Iterator<Item = Result<Entry<'a>>> + 'a {
        let mut containers = self.containers();
        let mut current: Option<Entries<'a>> = None;
        let mut failed = false;
        std::iter::from_fn(move || loop {
            if failed {
                return None;
            }
            if let Some(it) = current.as_mut() {
                match it.next() {
                    Some(Ok(e)) => return Some(Ok(e)),
                    Some(Err(e)) => {
                        failed = true;
                        return Some(Err(e));
                    }
                    None => current = None,
                }
            }
            match containers.next()? {
                Ok(c) => current = Some(c.entries()),
                Err(e) => {
                    failed = true;
                    return Some(Err(e));
                }
            }
        })
    }

    /// Parse every container and entry header; the first error if any.
    pub fn validate(&self) -> Result<()> {
        for e in self.entries() {
            e?;
        }
        Ok(())
    }
}

/// Iterator over back-to-back containers.
#[derive(Debug, Clone)]
pub struct Containers<'a> {
    data: &'a [u8],
    pos: usize,
    done: bool,
}

impl<'a> Iterator for Containers<'a> {
    type Item = Result<Container<'a>>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // Skip zero padding (whole zero bytes up to the next container or the
        // end); anything else that is not a container is an error.
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        let zeros = rest.iter().take_while(|&&b| b == 0).count();
        if zeros == rest.len() {
            self.done = true;
            return None;
        }
        // Only whole 8-byte words of padding: a container starts 8-aligned
        // relative to the previous one.
        let skip = zeros & !7;
        let at = self.pos + skip;
        match Container::parse_at(self.data, at) {
            Ok(c) => {
                self.pos = at + c.bytes.len();
                Some(Ok(c))
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}
