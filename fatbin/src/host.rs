#![forbid(unsafe_code)]
//! Fatbins inside files: host executables, shared libraries, relocatable
//! objects, static archives, raw `.fatbin` files and bare cubins.
//!
//! * `.nv_fatbin`: the containers nvcc and nvlink embed (several back to
//!   back, one per translation unit plus nvlink's).
//! * `__nv_relfatbin`: the relocatable containers of `-rdc=true` objects.
//! * `.nvFatBinSegment`: the 24-byte wrappers; in PIE executables and shared
//!   libraries their pointers are filled by `R_X86_64_RELATIVE` relocations,
//!   in objects by `R_X86_64_64` relocations against a symbol.

use goblin::elf::header::{ET_DYN, ET_EXEC, ET_REL};
use goblin::elf::section_header::{SHT_REL, SHT_RELA};

use crate::container::{Fatbin, CONTAINER_MAGIC};
use crate::elf::{ElfFile, EM_CUDA};
use crate::error::{Error, Result};
use crate::read::u32_at;
use crate::wrapper::{WrapperHeader, WRAPPER_MAGIC, WRAPPER_SIZE};

/// Name of the section with the executable (linked) fatbins.
pub const NV_FATBIN: &str = ".nv_fatbin";
/// Name of the section with the relocatable fatbins of `-rdc` objects.
pub const NV_RELFATBIN: &str = "__nv_relfatbin";
/// Name of the section with the wrappers.
pub const NV_FATBIN_SEGMENT: &str = ".nvFatBinSegment";

/// What kind of file was handed to [`HostFile::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A host ELF file (executable, shared library or object).
    HostElf,
    /// A raw fatbin (`nvcc -fatbin`): containers back to back.
    RawFatbin,
    /// A bare device ELF (`nvcc -cubin`).
    Cubin,
    /// A static archive (`!<arch>`).
    Archive,
}

/// A fatbin-holding section of a host ELF file.
#[derive(Debug, Clone, Copy)]
pub struct FatbinSection<'a> {
    /// `.nv_fatbin` or `__nv_relfatbin`.
    pub name: &'static str,
    /// File offset of the section.
    pub offset: u64,
    /// Its containers.
    pub fatbin: Fatbin<'a>,
}

/// A wrapper found in `.nvFatBinSegment`, with its pointers resolved.
#[derive(Debug, Clone)]
pub struct HostWrapper<'a> {
    /// File offset of the wrapper.
    pub offset: u64,
    /// Its fields; `data` and `filename_or_fatbins` hold the resolved
    /// addresses (after relocation; section-relative in objects).
    pub header: WrapperHeader,
    /// The container its data pointer designates, when that lies in the
    /// file.
    pub fatbin: Option<Fatbin<'a>>,
}

/// A parsed input file.
pub struct HostFile<'a> {
    data: &'a [u8],
    kind: FileKind,
    elf: Option<ElfFile<'a>>,
}

impl<'a> HostFile<'a> {
    /// Recognise and parse `data`: host ELF, device ELF (cubin), raw fatbin
    /// or static archive.
    pub fn parse(data: &'a [u8]) -> Result<HostFile<'a>> {
        if ElfFile::is_elf(data) {
            let elf = ElfFile::parse(data)?;
            let kind = if elf.header.e_machine == EM_CUDA {
                FileKind::Cubin
            } else {
                FileKind::HostElf
            };
            return Ok(HostFile {
                data,
                kind,
                elf: Some(elf),
            });
        }
        if data.len() >= 4 && u32_at(data, 0) == CONTAINER_MAGIC {
            return Ok(HostFile {
                data,
                kind: FileKind::RawFatbin,
                elf: None,
            });
        }
        if data.starts_with(crate::archive::MAGIC) {
            return Ok(HostFile {
                data,
                kind: FileKind::Archive,
                elf: None,
            });
        }
        Err(Error::UnknownFormat)
    }

    /// The kind of file.
    pub fn kind(&self) -> FileKind {
        self.kind
    }

    /// The file's bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// `e_type` of an ELF file (1 object, 2 executable, 3 shared object).
    pub fn elf_type(&self) -> Option<u16> {
        self.elf.as_ref().map(|e| e.header.e_type)
    }

    /// Every `.nv_fatbin` and `__nv_relfatbin` section, in section-table
    /// order (a raw fatbin file is one pseudo-section named `.nv_fatbin`).
    pub fn fatbin_sections(&self) -> Result<Vec<FatbinSection<'a>>> {
        match (&self.elf, self.kind) {
            (_, FileKind::RawFatbin) => Ok(vec![FatbinSection {
                name: NV_FATBIN,
                offset: 0,
                fatbin: Fatbin::parse(self.data)?,
            }]),
            (Some(elf), FileKind::HostElf) => {
                let mut out = Vec::new();
                for sh in &elf.sections {
                    let name = elf.name(sh);
                    let name = if name == NV_FATBIN.as_bytes() {
                        NV_FATBIN
                    } else if name == NV_RELFATBIN.as_bytes() {
                        NV_RELFATBIN
                    } else {
                        continue;
                    };
                    let bytes = elf.section_data(sh)?;
                    if bytes.is_empty() {
                        continue;
                    }
                    out.push(FatbinSection {
                        name,
                        offset: sh.sh_offset,
                        fatbin: Fatbin::parse(bytes)?,
                    });
                }
                Ok(out)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The fatbins cuobjdump shows by default: the executable fatbins
    /// (`.nv_fatbin`) when there are any, else the relocatable ones
    /// (`__nv_relfatbin`); with `all`, both, in section order.
    pub fn listed_fatbins(&self, all: bool) -> Result<Vec<FatbinSection<'a>>> {
        let secs = self.fatbin_sections()?;
        if all {
            return Ok(secs);
        }
        let has_exec = secs.iter().any(|s| s.name == NV_FATBIN);
        let want = if has_exec { NV_FATBIN } else { NV_RELFATBIN };
        Ok(secs.into_iter().filter(|s| s.name == want).collect())
    }

    /// The wrappers of `.nvFatBinSegment`, with their data and prelinked
    /// pointers resolved through the file's relocations.
    pub fn wrappers(&self) -> Result<Vec<HostWrapper<'a>>> {
        let Some(elf) = &self.elf else {
            return Ok(Vec::new());
        };
        if self.kind != FileKind::HostElf || !elf.is_64() {
            return Ok(Vec::new());
        }
        let Some((seg_idx, seg)) = elf.find(NV_FATBIN_SEGMENT.as_bytes()) else {
            return Ok(Vec::new());
        };
        let seg_bytes = elf.section_data(seg)?;
        let is_rel = elf.header.e_type == ET_REL;
        let seg_addr = if is_rel { 0 } else { seg.sh_addr };
        let mut relocs = self.segment_relocs(elf, seg_idx, seg_addr, seg_bytes.len() as u64)?;
        relocs.sort_by_key(|r| r.0);
        let lookup = |field_off: u64| {
            relocs
                .binary_search_by_key(&field_off, |r| r.0)
                .ok()
                .map(|i| relocs[i].1)
        };
        let mut out = Vec::new();
        let mut off = 0usize;
        while off + WRAPPER_SIZE <= seg_bytes.len() {
            let rec = &seg_bytes[off..off + WRAPPER_SIZE];
            if u32_at(rec, 0) != WRAPPER_MAGIC {
                off += 8;
                continue;
            }
            let mut header = WrapperHeader::parse(rec)?;
            let data_field = seg_addr + off as u64 + 8;
            let fatbin_field = seg_addr + off as u64 + 16;
            let data_target = lookup(data_field);
            if let Some(t) = data_target {
                header.data = t.addr;
            }
            if let Some(t) = lookup(fatbin_field) {
                header.filename_or_fatbins = t.addr;
            }
            // Locate the container in the file.
            let file_off = match data_target {
                Some(Target {
                    section: Some(s),
                    addr,
                }) => elf
                    .sections
                    .get(s)
                    .and_then(|sh| sh.sh_offset.checked_add(addr)),
                _ if !is_rel => elf.addr_to_offset(header.data, 16),
                _ => None,
            };
            let fatbin = file_off
                .and_then(|o| self.data.get(o as usize..))
                .and_then(|d| Fatbin::parse_first(d).ok());
            out.push(HostWrapper {
                offset: seg.sh_offset + off as u64,
                header,
                fatbin,
            });
            off += WRAPPER_SIZE;
        }
        Ok(out)
    }

    /// `(field address, target)` for each relocation that patches a word of
    /// the wrapper segment.
    fn segment_relocs(
        &self,
        elf: &ElfFile<'a>,
        seg_idx: usize,
        seg_addr: u64,
        seg_len: u64,
    ) -> Result<Vec<(u64, Target)>> {
        let machine = elf.header.e_machine;
        // (RELATIVE, ABS64) relocation types.
        let (relative, abs64) = match machine {
            goblin::elf::header::EM_X86_64 => (8u32, 1u32),
            goblin::elf::header::EM_AARCH64 => (1027, 257),
            _ => (u32::MAX, u32::MAX),
        };
        let is_rel = elf.header.e_type == ET_REL;
        let mut out = Vec::new();
        for sh in &elf.sections {
            if sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL {
                continue;
            }
            if is_rel && sh.sh_info as usize != seg_idx {
                continue;
            }
            if !is_rel && elf.header.e_type != ET_DYN && elf.header.e_type != ET_EXEC {
                continue;
            }
            let relocs = elf.relocs(sh, sh.sh_type == SHT_RELA)?;
            let mut syms = None;
            for r in relocs.iter() {
                if r.r_offset < seg_addr || r.r_offset >= seg_addr.saturating_add(seg_len) {
                    continue;
                }
                let addend = r.r_addend.unwrap_or(0) as u64;
                let target = if r.r_type == relative {
                    Target {
                        section: None,
                        addr: addend,
                    }
                } else if r.r_type == abs64 {
                    if syms.is_none() {
                        let link = sh.sh_link as usize;
                        syms = Some(elf.symtab(link)?);
                    }
                    let Some((symtab, _)) = syms.as_ref() else {
                        continue;
                    };
                    let Some(sym) = symtab.get(r.r_sym) else {
                        continue;
                    };
                    if sym.st_shndx == 0 {
                        continue; // undefined: unknown until run time
                    }
                    let value = sym.st_value.wrapping_add(addend);
                    Target {
                        section: is_rel.then_some(sym.st_shndx),
                        addr: value,
                    }
                } else {
                    continue;
                };
                out.push((r.r_offset, target));
            }
        }
        Ok(out)
    }
}

#[derive(Debug, Clone, Copy)]
struct Target {
    /// In objects: the section the address is relative to.
    section: Option<usize>,
    addr: u64,
}
