#![forbid(unsafe_code)]
//! A bounds-checked view of an ELF file's section table, built on goblin's
//! header, section-header, symbol and relocation types.

use goblin::container::{Container as ElfClass, Ctx};
use goblin::elf::header::Header;
use goblin::elf::reloc::RelocSection;
use goblin::elf::section_header::{SectionHeader, SHT_NOBITS};
use goblin::elf::sym::{Sym, Symtab};

use crate::error::{Error, Result};
use crate::read::cstr_at;

pub(crate) const EM_CUDA: u16 = 190;

pub(crate) struct ElfFile<'a> {
    pub data: &'a [u8],
    pub header: Header,
    pub ctx: Ctx,
    pub sections: Vec<SectionHeader>,
    shstrtab: &'a [u8],
}

fn elf_err(msg: impl Into<String>) -> Error {
    Error::Elf(msg.into())
}

impl<'a> ElfFile<'a> {
    pub fn is_elf(data: &[u8]) -> bool {
        data.starts_with(b"\x7fELF")
    }

    pub fn parse(data: &'a [u8]) -> Result<ElfFile<'a>> {
        let header = goblin::elf::Elf::parse_header(data)?;
        let class = header.container()?;
        let endian = header.endianness()?;
        let ctx = Ctx::new(class, endian);
        let shentsize = SectionHeader::size(ctx);
        if header.e_shoff != 0 && header.e_shentsize as usize != shentsize {
            return Err(elf_err(format!(
                "section header size {} (expected {shentsize})",
                header.e_shentsize
            )));
        }
        let shoff = usize::try_from(header.e_shoff).map_err(|_| elf_err("section table offset"))?;
        if shoff > data.len() {
            return Err(elf_err("section table past the end of the file"));
        }
        let sections = SectionHeader::parse(data, shoff, header.e_shnum as usize, ctx)?;
        let mut shstrndx = header.e_shstrndx as usize;
        if shstrndx == 0xffff {
            shstrndx = sections.first().map(|s| s.sh_link as usize).unwrap_or(0);
        }
        let mut f = ElfFile {
            data,
            header,
            ctx,
            sections,
            shstrtab: &[],
        };
        if shstrndx != 0 {
            if let Some(sh) = f.sections.get(shstrndx) {
                f.shstrtab = f.section_data(sh)?;
            }
        }
        Ok(f)
    }

    pub fn is_64(&self) -> bool {
        self.ctx.container == ElfClass::Big
    }

    /// Section name bytes (empty when out of range).
    pub fn name(&self, sh: &SectionHeader) -> &'a [u8] {
        cstr_at(self.shstrtab, sh.sh_name).unwrap_or(&[])
    }

    /// File bytes of a section (empty for NOBITS).
    pub fn section_data(&self, sh: &SectionHeader) -> Result<&'a [u8]> {
        if sh.sh_type == SHT_NOBITS {
            return Ok(&[]);
        }
        crate::read::bytes(self.data, sh.sh_offset, sh.sh_size, "ELF section")
    }

    pub fn find(&self, name: &[u8]) -> Option<(usize, &SectionHeader)> {
        self.sections
            .iter()
            .enumerate()
            .find(|(_, sh)| self.name(sh) == name)
    }

    /// Symbols of the symbol-table section `idx` and its string table.
    pub fn symtab(&self, idx: usize) -> Result<(Symtab<'a>, &'a [u8])> {
        let sh = self
            .sections
            .get(idx)
            .ok_or_else(|| elf_err("symbol table index"))?;
        let data = self.section_data(sh)?;
        let count = data.len() / Sym::size(self.ctx.container);
        let syms = Symtab::parse(data, 0, count, self.ctx)?;
        let strtab = match self.sections.get(sh.sh_link as usize) {
            Some(s) => self.section_data(s)?,
            None => &[],
        };
        Ok((syms, strtab))
    }

    /// Relocations of a REL/RELA section.
    pub fn relocs(&self, sh: &SectionHeader, is_rela: bool) -> Result<RelocSection<'a>> {
        let data = self.section_data(sh)?;
        Ok(RelocSection::parse(data, 0, data.len(), is_rela, self.ctx)?)
    }

    /// File offset of `len` bytes at virtual address `addr`, from the
    /// allocated sections that have file contents.
    pub fn addr_to_offset(&self, addr: u64, len: u64) -> Option<u64> {
        self.sections.iter().find_map(|sh| {
            if sh.sh_type == SHT_NOBITS || sh.sh_flags & 2 == 0 || sh.sh_size == 0 {
                return None;
            }
            let rel = addr.checked_sub(sh.sh_addr)?;
            (rel.checked_add(len)? <= sh.sh_size).then(|| sh.sh_offset + rel)
        })
    }
}
