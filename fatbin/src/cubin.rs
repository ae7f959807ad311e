#![forbid(unsafe_code)]
//! What a cubin (device ELF, `e_machine` 190) says about its kernels and
//! variables.
//!
//! Kernel metadata lives in `.nv.info` (per-module records keyed by symbol
//! index) and `.nv.info.<kernel>` sections: a sequence of attribute records
//!
//! ```text
//! u8 format: 1 no value, 2 byte value, 3 half-word value, 4 sized value
//! u8 attribute code (EIATTR_*)
//! formats 1-3: u16 value            format 4: u16 size, then `size` bytes
//! ```
//!
//! Resource figures, checked against `cuobjdump -res-usage`: registers from
//! `EIATTR_REGCOUNT` (or, in older cubins, bits 24..32 of `.text.<kernel>`'s
//! `sh_info`); shared memory from the size of `.nv.shared.<kernel>`; stack
//! from `EIATTR_MIN_STACK_SIZE` (`EIATTR_MAX_STACK_SIZE` when present);
//! local memory from `.nv.local.<kernel>`; the parameter bank from
//! `.nv.constant0.<kernel>`.

use std::collections::HashMap;

use goblin::elf::section_header::SectionHeader;
use goblin::elf::sym::{STT_FUNC, STT_OBJECT};

use crate::elf::{ElfFile, EM_CUDA};
use crate::error::{Error, Result};
use crate::read::{cstr_at, u16_at, u32_at};

/// Attribute codes (`EIATTR_*`) this crate interprets. Names as cuobjdump
/// prints them; codes measured by comparing cubin bytes with `cuobjdump
/// -elf`.
pub mod attr {
    /// `{u32 x, u32 y, u32 z}` from `__launch_bounds__`.
    pub const MAX_THREADS: u8 = 0x05;
    /// `{u32 sym, u16 offset, u16 size}` of the parameter constant bank.
    pub const PARAM_CBANK: u8 = 0x0a;
    /// `{u32 x, u32 y, u32 z}` required block size (`reqntid`).
    pub const REQNTID: u8 = 0x10;
    /// `{u32 sym, u32 bytes}`, in `.nv.info`.
    pub const FRAME_SIZE: u8 = 0x11;
    /// `{u32 sym, u32 bytes}`, in `.nv.info`.
    pub const MIN_STACK_SIZE: u8 = 0x12;
    /// One kernel parameter (12 bytes), see [`super::Param`].
    pub const KPARAM_INFO: u8 = 0x17;
    /// Size of the parameter block (half-word value).
    pub const CBANK_PARAM_SIZE: u8 = 0x19;
    /// `-maxrregcount` limit (half-word value).
    pub const MAXREG_COUNT: u8 = 0x1b;
    /// Offsets of the exit instructions.
    pub const EXIT_INSTR_OFFSETS: u8 = 0x1c;
    /// `{u32 bytes}`.
    pub const CRS_STACK_SIZE: u8 = 0x1e;
    /// `{u32 sym, u32 bytes}`, in `.nv.info`.
    pub const MAX_STACK_SIZE: u8 = 0x23;
    /// `{u32 sym, u32 registers}`, in `.nv.info`.
    pub const REGCOUNT: u8 = 0x2f;
    /// CUDA API version of the kernel.
    pub const CUDA_API_VERSION: u8 = 0x37;
    /// `{u32 x, u32 y, u32 z}` from `__cluster_dims__`.
    pub const CTA_PER_CLUSTER: u8 = 0x3d;
    /// The kernel uses an explicit cluster (no value).
    pub const EXPLICIT_CLUSTER: u8 = 0x3e;
    /// Named barriers used (byte value).
    pub const NUM_BARRIERS: u8 = 0x4c;

    /// cuobjdump's name of an attribute code, for the codes above and a few
    /// more seen in nvcc 13 output.
    pub fn name(code: u8) -> Option<&'static str> {
        Some(match code {
            0x05 => "EIATTR_MAX_THREADS",
            0x0a => "EIATTR_PARAM_CBANK",
            0x10 => "EIATTR_REQNTID",
            0x11 => "EIATTR_FRAME_SIZE",
            0x12 => "EIATTR_MIN_STACK_SIZE",
            0x17 => "EIATTR_KPARAM_INFO",
            0x19 => "EIATTR_CBANK_PARAM_SIZE",
            0x1b => "EIATTR_MAXREG_COUNT",
            0x1c => "EIATTR_EXIT_INSTR_OFFSETS",
            0x1e => "EIATTR_CRS_STACK_SIZE",
            0x23 => "EIATTR_MAX_STACK_SIZE",
            0x2f => "EIATTR_REGCOUNT",
            0x35 => "EIATTR_SW2861232_WAR",
            0x36 => "EIATTR_SW_WAR",
            0x37 => "EIATTR_CUDA_API_VERSION",
            0x3d => "EIATTR_CTA_PER_CLUSTER",
            0x3e => "EIATTR_EXPLICIT_CLUSTER",
            0x4c => "EIATTR_NUM_BARRIERS",
            0x50 => "EIATTR_SPARSE_MMA_MASK",
            0x5f => "EIATTR_MERCURY_ISA_VERSION",
            _ => return None,
        })
    }
}

/// Attribute record formats.
pub mod format {
    /// No value.
    pub const NVAL: u8 = 1;
    /// Byte value (stored in a u16).
    pub const BVAL: u8 = 2;
    /// Half-word value.
    pub const HVAL: u8 = 3;
    /// Sized value: u16 size, then the bytes.
    pub const SVAL: u8 = 4;
}

/// Value of an attribute record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrValue<'a> {
    /// Format 1.
    None,
    /// Formats 2 and 3: the u16 that follows the code.
    Half(u16),
    /// Format 4: the payload.
    Bytes(&'a [u8]),
}

/// One `.nv.info` attribute record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attribute<'a> {
    /// Format byte (see [`format`]).
    pub format: u8,
    /// Attribute code (see [`attr`]).
    pub code: u8,
    /// Its value.
    pub value: AttrValue<'a>,
}

impl Attribute<'_> {
    /// u32 number `i` of a sized value.
    pub fn word(&self, i: usize) -> Option<u32> {
        match self.value {
            AttrValue::Bytes(b) => b.get(i * 4..i * 4 + 4).map(|w| u32_at(w, 0)),
            _ => None,
        }
    }

    /// The half-word value (formats 2, 3).
    pub fn half(&self) -> Option<u16> {
        match self.value {
            AttrValue::Half(h) => Some(h),
            _ => None,
        }
    }
}

/// Parse a sequence of attribute records; an error on an unknown format or
/// a record running past the end.
pub fn parse_attributes(data: &[u8]) -> Result<Vec<Attribute<'_>>> {
    let mut out = Vec::with_capacity(data.len() / 4);
    let mut off = 0usize;
    while off < data.len() {
        let rec = crate::read::bytes(data, off as u64, 4, "nv.info attribute")?;
        let (fmt, code) = (rec[0], rec[1]);
        let value = match fmt {
            format::NVAL => AttrValue::None,
            format::BVAL | format::HVAL => AttrValue::Half(u16_at(rec, 2)),
            format::SVAL => {
                let n = u16_at(rec, 2) as u64;
                AttrValue::Bytes(crate::read::bytes(
                    data,
                    off as u64 + 4,
                    n,
                    "nv.info attribute value",
                )?)
            }
            _ => {
                return Err(Error::BadHeader {
                    what: "nv.info attribute",
                    offset: off as u64,
                    reason: "unknown attribute format",
                })
            }
        };
        off += 4 + match value {
            AttrValue::Bytes(b) => b.len(),
            _ => 0,
        };
        out.push(Attribute {
            format: fmt,
            code,
            value,
        });
    }
    Ok(out)
}

/// One kernel parameter (`EIATTR_KPARAM_INFO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Position in the parameter list (from 0).
    pub ordinal: u16,
    /// Byte offset in the parameter block.
    pub offset: u16,
    /// Size in bytes.
    pub size: u32,
    /// The raw packed word: bits 0..8 pointee log-alignment, 8..12 space,
    /// 12..17 constant bank, 17 not-in-cbank, 18..32 size.
    pub raw: u32,
    /// The record's leading index word (0 in nvcc output).
    pub index: u32,
}

impl Param {
    fn from_bytes(b: &[u8]) -> Option<Param> {
        if b.len() < 12 {
            return None;
        }
        let raw = u32_at(b, 8);
        Some(Param {
            index: u32_at(b, 0),
            ordinal: u16_at(b, 4),
            offset: u16_at(b, 6),
            size: raw >> 18,
            raw,
        })
    }
}

/// A kernel (entry function) and its resources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel<'a> {
    /// Mangled name.
    pub name: &'a str,
    /// Index of its symbol.
    pub symbol: usize,
    /// True for an entry function (`__global__`, symbol `st_other` bit
    /// 0x10); false for a `__device__` function with its own text section
    /// (relocatable `-rdc` cubins).
    pub is_entry: bool,
    /// Parameters, sorted by ordinal.
    pub params: Vec<Param>,
    /// Size of the parameter block (`EIATTR_CBANK_PARAM_SIZE`).
    pub param_size: Option<u32>,
    /// Registers per thread.
    pub registers: Option<u32>,
    /// Static shared memory (size of `.nv.shared.<kernel>`).
    pub shared: u64,
    /// Stack bytes per thread (cuobjdump's STACK).
    pub stack: u64,
    /// Frame bytes (`EIATTR_FRAME_SIZE`).
    pub frame: u64,
    /// Local memory (size of `.nv.local.<kernel>`).
    pub local: u64,
    /// Size of `.nv.constant0.<kernel>` (cuobjdump's CONSTANT\[0\]).
    pub constant0: u64,
    /// `__launch_bounds__` maximum threads `(x, y, z)`.
    pub max_threads: Option<[u32; 3]>,
    /// Required block size `(x, y, z)`.
    pub reqntid: Option<[u32; 3]>,
    /// `__cluster_dims__` `(x, y, z)`.
    pub cluster_dims: Option<[u32; 3]>,
    /// `-maxrregcount` limit.
    pub max_registers: Option<u32>,
    /// Named barriers used.
    pub barriers: Option<u32>,
}

/// A `__device__`, `__constant__` or other data symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable<'a> {
    /// Name.
    pub name: &'a str,
    /// Size in bytes.
    pub size: u64,
    /// Offset in its section.
    pub offset: u64,
    /// Name of its section (`.nv.global`, `.nv.global.init`,
    /// `.nv.constant3`, ...).
    pub section: &'a str,
}

impl Variable<'_> {
    /// True for `__constant__` data (a `.nv.constant*` section).
    pub fn is_constant(&self) -> bool {
        self.section.starts_with(".nv.constant")
    }
}

/// A parsed cubin.
pub struct Cubin<'a> {
    elf: ElfFile<'a>,
}

fn as_str(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("<non-UTF-8 name>")
}

impl<'a> Cubin<'a> {
    /// Parse a device ELF; errors when it is not one (`e_machine` != 190).
    pub fn parse(data: &'a [u8]) -> Result<Cubin<'a>> {
        if !ElfFile::is_elf(data) {
            return Err(Error::BadMagic {
                what: "cubin ELF",
                offset: 0,
                found: u32_at(data, 0),
            });
        }
        let elf = ElfFile::parse(data)?;
        if elf.header.e_machine != EM_CUDA {
            return Err(Error::Elf(format!(
                "e_machine {} is not EM_CUDA (190)",
                elf.header.e_machine
            )));
        }
        Ok(Cubin { elf })
    }

    /// SM number from `e_flags` bits 8..16 (90 for sm_90).
    pub fn sm(&self) -> u32 {
        (self.elf.header.e_flags >> 8) & 0xff
    }

    /// True when `.nv.compat` marks the cubin arch-specific (`sm_90a`).
    pub fn is_arch_specific(&self) -> bool {
        self.compat_value(0x09) == Some(1)
    }

    fn compat_value(&self, code: u8) -> Option<u16> {
        let (_, sh) = self.elf.find(b".nv.compat")?;
        let data = self.elf.section_data(sh).ok()?;
        parse_attributes(data)
            .ok()?
            .into_iter()
            .find(|a| a.code == code)
            .and_then(|a| a.half())
    }

    fn section_size(&self, name: &[u8]) -> u64 {
        self.elf.find(name).map_or(0, |(_, sh)| sh.sh_size)
    }

    /// Every `.nv.info*` section and its records, in section order.
    pub fn info_sections(&self) -> Result<Vec<(&'a str, Vec<Attribute<'a>>)>> {
        let mut out = Vec::new();
        for sh in &self.elf.sections {
            let name = self.elf.name(sh);
            if name == b".nv.info" || name.starts_with(b".nv.info.") {
                out.push((as_str(name), parse_attributes(self.elf.section_data(sh)?)?));
            }
        }
        Ok(out)
    }

    fn symtab_index(&self) -> Option<usize> {
        self.elf
            .sections
            .iter()
            .position(|s| s.sh_type == goblin::elf::section_header::SHT_SYMTAB)
    }

    /// The kernels (entry functions), in symbol-table order.
    pub fn kernels(&self) -> Result<Vec<Kernel<'a>>> {
        let mut f = self.functions()?;
        f.retain(|k| k.is_entry);
        Ok(f)
    }

    /// Every function with its own `.text.<name>` section (kernels and, in
    /// relocatable cubins, `__device__` functions), in symbol-table order:
    /// the functions `cuobjdump -res-usage` lists.
    pub fn functions(&self) -> Result<Vec<Kernel<'a>>> {
        let Some(st) = self.symtab_index() else {
            return Ok(Vec::new());
        };
        let (syms, strtab) = self.elf.symtab(st)?;
        // Module-wide records keyed by (code, symbol index): first wins.
        let mut keyed_map: HashMap<(u8, u32), u32> = HashMap::new();
        if let Some((_, sh)) = self.elf.find(b".nv.info") {
            for a in parse_attributes(self.elf.section_data(sh)?)? {
                if let (Some(sym), Some(v)) = (a.word(0), a.word(1)) {
                    keyed_map.entry((a.code, sym)).or_insert(v);
                }
            }
        }
        let keyed = |code: u8, sym: usize| -> Option<u32> {
            u32::try_from(sym)
                .ok()
                .and_then(|sym| keyed_map.get(&(code, sym)).copied())
        };
        // Sections by name.
        let by_name: HashMap<&[u8], &SectionHeader> = self
            .elf
            .sections
            .iter()
            .rev()
            .map(|sh| (self.elf.name(sh), sh))
            .collect();
        let section_named = |prefix: &str, name: &str| -> Option<&SectionHeader> {
            let mut n = Vec::with_capacity(prefix.len() + name.len());
            n.extend_from_slice(prefix.as_bytes());
            n.extend_from_slice(name.as_bytes());
            by_name.get(n.as_slice()).copied()
        };
        let mut out = Vec::new();
        for (i, s) in syms.iter().enumerate() {
            if s.st_type() != STT_FUNC {
                continue;
            }
            let name = as_str(cstr_at(strtab, s.st_name).unwrap_or(&[]));
            let info = section_named(".nv.info.", name);
            let text = section_named(".text.", name);
            let is_entry = s.st_other & 0x10 != 0;
            if text.is_none() || s.st_shndx == 0 {
                continue; // inlined into another function's text, or undefined
            }
            let attrs = match info {
                Some(sh) => parse_attributes(self.elf.section_data(sh)?)?,
                None => Vec::new(),
            };
            let find = |code: u8| attrs.iter().find(|a| a.code == code);
            let xyz =
                |code: u8| find(code).and_then(|a| Some([a.word(0)?, a.word(1)?, a.word(2)?]));
            let mut params: Vec<Param> = attrs
                .iter()
                .filter(|a| a.code == attr::KPARAM_INFO)
                .filter_map(|a| match a.value {
                    AttrValue::Bytes(b) => Param::from_bytes(b),
                    _ => None,
                })
                .collect();
            params.sort_by_key(|p| p.ordinal);
            let registers = keyed(attr::REGCOUNT, i)
                .or_else(|| text.map(|t| t.sh_info >> 24).filter(|&r| r != 0));
            let stack = keyed(attr::MAX_STACK_SIZE, i)
                .or_else(|| keyed(attr::MIN_STACK_SIZE, i))
                .unwrap_or(0) as u64;
            let size_of = |prefix: &str| section_named(prefix, name).map_or(0, |s| s.sh_size);
            out.push(Kernel {
                name,
                symbol: i,
                is_entry,
                params,
                param_size: find(attr::CBANK_PARAM_SIZE)
                    .and_then(|a| a.half())
                    .map(u32::from),
                registers,
                shared: size_of(".nv.shared."),
                stack,
                frame: keyed(attr::FRAME_SIZE, i).unwrap_or(0) as u64,
                local: size_of(".nv.local."),
                constant0: size_of(".nv.constant0."),
                max_threads: xyz(attr::MAX_THREADS),
                reqntid: xyz(attr::REQNTID),
                cluster_dims: xyz(attr::CTA_PER_CLUSTER),
                max_registers: find(attr::MAXREG_COUNT)
                    .and_then(|a| a.half())
                    .map(u32::from),
                barriers: find(attr::NUM_BARRIERS)
                    .and_then(|a| a.half())
                    .map(u32::from),
            });
        }
        Ok(out)
    }

    /// Data symbols (`__device__`, `__constant__`, `__managed__` and the
    /// like): defined object symbols of `.nv.*` data sections.
    pub fn variables(&self) -> Result<Vec<Variable<'a>>> {
        let Some(st) = self.symtab_index() else {
            return Ok(Vec::new());
        };
        let (syms, strtab) = self.elf.symtab(st)?;
        let mut out = Vec::new();
        for s in syms.iter() {
            if s.st_type() != STT_OBJECT || s.st_shndx == 0 {
                continue;
            }
            let Some(sh) = self.elf.sections.get(s.st_shndx) else {
                continue;
            };
            let section = as_str(self.elf.name(sh));
            if !section.starts_with(".nv.") {
                continue;
            }
            out.push(Variable {
                name: as_str(cstr_at(strtab, s.st_name).unwrap_or(&[])),
                size: s.st_size,
                offset: s.st_value,
                section,
            });
        }
        Ok(out)
    }

    /// Module-wide figures as cuobjdump's "Common" line shows them:
    /// `("GLOBAL", size of .nv.global + .nv.global.init)` and
    /// `("CONSTANT[n]", size of .nv.constant<n>)` for each module constant
    /// bank, in section order.
    pub fn common_resources(&self) -> Vec<(String, u64)> {
        let mut out = vec![(
            "GLOBAL".to_string(),
            // Sizes are the file's (`.nv.global` is NOBITS: any value).
            self.section_size(b".nv.global")
                .saturating_add(self.section_size(b".nv.global.init")),
        )];
        for sh in &self.elf.sections {
            let name = self.elf.name(sh);
            if let Some(bank) = name.strip_prefix(b".nv.constant") {
                if !bank.is_empty() && bank.iter().all(u8::is_ascii_digit) {
                    out.push((format!("CONSTANT[{}]", as_str(bank)), sh.sh_size));
                }
            }
        }
        out
    }
}
