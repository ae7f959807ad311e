#![forbid(unsafe_code)]
//! cuobjdump-compatible listing and file naming (`--list-elf --list-ptx`,
//! `-xelf all`, `-xptx all`), measured against cuobjdump 13.2:
//!
//! * entries are numbered per kind (ELF, PTX) in file order, across every
//!   listed section and archive member;
//! * an entry without an object name is named
//!   `<input stem>.<n>.<arch>.<cubin|ptx>`, one with an object name (`-G`
//!   builds) `<object-name stem>.<arch>.<ext>` (no number);
//! * the stem is the base name minus its last `.extension`;
//! * `<arch>` is `sm_NN`, plus `a` for arch-specific entries, plus `f` for
//!   family-specific PTX (family-specific cubins get no suffix);
//! * a bare cubin file lists as `<stem>.<arch>.cubin`, its arch from
//!   `e_flags` bits 8..16 and an `a` when `.nv.compat` marks it
//!   arch-specific;
//! * by default only `.nv_fatbin` is shown, or `__nv_relfatbin` when there
//!   is no `.nv_fatbin` (`all` shows both);
//! * archive members are introduced by an empty line and
//!   `member <path>:<member>:`.

use std::borrow::Cow;

use crate::container::{Entry, EntryKind};
use crate::error::Result;
use crate::host::{FileKind, HostFile};

/// The stem cuobjdump uses: the base name without its last extension
/// (`libfoo.so.1.2` gives `libfoo.so.1`, `.hidden` gives ``).
pub fn stem(path: &str) -> &str {
    let base = path.rsplit('/').next().unwrap_or(path);
    match base.rfind('.') {
        Some(i) => &base[..i],
        None => base,
    }
}

/// What a listed item's bytes come from.
#[derive(Debug, Clone, Copy)]
pub enum ItemSource<'a> {
    /// A fatbin entry (decompress it for extraction).
    Entry(Entry<'a>),
    /// A whole bare cubin file.
    Cubin(&'a [u8]),
}

/// One listed ELF or PTX file.
#[derive(Debug, Clone)]
pub struct ListItem<'a> {
    /// `Cubin` or `Ptx`.
    pub kind: EntryKind,
    /// The per-kind number (from 1).
    pub index: usize,
    /// The file name cuobjdump lists and extracts to.
    pub name: String,
    /// Where the bytes are.
    pub source: ItemSource<'a>,
}

impl<'a> ListItem<'a> {
    /// The listing line, as cuobjdump prints it.
    pub fn line(&self) -> String {
        let k = if self.kind == EntryKind::Ptx {
            "PTX"
        } else {
            "ELF"
        };
        format!("{k} file {:>4}: {}", self.index, self.name)
    }

    /// The bytes cuobjdump extracts: the decompressed payload; PTX up to its
    /// first NUL.
    pub fn contents(&self) -> Result<Cow<'a, [u8]>> {
        match self.source {
            ItemSource::Cubin(b) => Ok(Cow::Borrowed(b)),
            ItemSource::Entry(e) => {
                let mut d = e.decompress()?;
                if e.kind == EntryKind::Ptx {
                    if let Some(n) = d.iter().position(|&c| c == 0) {
                        match &mut d {
                            Cow::Borrowed(b) => *b = &b[..n],
                            Cow::Owned(v) => v.truncate(n),
                        }
                    }
                }
                Ok(d)
            }
        }
    }
}

/// A line of a listing.
#[derive(Debug, Clone)]
pub enum ListLine<'a> {
    /// `\nmember <path>:<name>:` before an archive member's items.
    Member {
        /// The archive path as shown.
        path: String,
        /// The member name.
        member: String,
    },
    /// An ELF or PTX file.
    Item(ListItem<'a>),
}

impl ListLine<'_> {
    /// The text cuobjdump prints for this line (without the final newline;
    /// a member line starts with an empty line).
    pub fn text(&self) -> String {
        match self {
            ListLine::Member { path, member } => format!("\nmember {path}:{member}:"),
            ListLine::Item(i) => i.line(),
        }
    }
}

#[derive(Default)]
struct Counters {
    elf: usize,
    ptx: usize,
}

/// The arch name of a bare cubin: `sm_<e_flags bits 8..16>`, `a` when its
/// `.nv.compat` says arch-specific.
pub fn cubin_arch_name(data: &[u8]) -> Result<String> {
    let c = crate::cubin::Cubin::parse(data)?;
    Ok(format!(
        "sm_{}{}",
        c.sm(),
        if c.is_arch_specific() { "a" } else { "" }
    ))
}

/// List `data` (the contents of `path`) the way `cuobjdump --list-elf
/// --list-ptx` does. `display_path` is what archive member lines show
/// (cuobjdump shows the current directory joined with the path as given).
pub fn list<'a>(
    path: &str,
    display_path: &str,
    data: &'a [u8],
    all: bool,
) -> Result<Vec<ListLine<'a>>> {
    let file = HostFile::parse(data)?;
    let mut out = Vec::new();
    let mut n = Counters::default();
    let file_stem = stem(path);
    match file.kind() {
        FileKind::Cubin => {
            n.elf += 1;
            out.push(ListLine::Item(ListItem {
                kind: EntryKind::Cubin,
                index: n.elf,
                name: format!("{file_stem}.{}.cubin", cubin_arch_name(data)?),
                source: ItemSource::Cubin(data),
            }));
        }
        FileKind::Archive => {
            for m in crate::archive::members(data)? {
                let Ok(member) = HostFile::parse(m.data) else {
                    continue;
                };
                if member.kind() != FileKind::HostElf {
                    continue;
                }
                let secs = member.listed_fatbins(all)?;
                if secs.is_empty() {
                    continue;
                }
                out.push(ListLine::Member {
                    path: display_path.to_string(),
                    member: String::from_utf8_lossy(m.name).into_owned(),
                });
                for s in secs {
                    push_entries(&mut out, &mut n, file_stem, s.fatbin)?;
                }
            }
        }
        FileKind::HostElf | FileKind::RawFatbin => {
            for s in file.listed_fatbins(all)? {
                push_entries(&mut out, &mut n, file_stem, s.fatbin)?;
            }
        }
    }
    Ok(out)
}

fn push_entries<'a>(
    out: &mut Vec<ListLine<'a>>,
    n: &mut Counters,
    file_stem: &str,
    fb: crate::container::Fatbin<'a>,
) -> Result<()> {
    for e in fb.entries() {
        let e = e?;
        let (counter, ext) = match e.kind {
            EntryKind::Cubin => (&mut n.elf, "cubin"),
            EntryKind::Ptx => (&mut n.ptx, "ptx"),
            EntryKind::Other(_) => continue,
        };
        *counter += 1;
        let name = if e.name.is_empty() {
            format!("{file_stem}.{}.{}.{ext}", *counter, e.arch_name())
        } else {
            let obj = String::from_utf8_lossy(e.name);
            format!("{}.{}.{ext}", stem(&obj), e.arch_name())
        };
        out.push(ListLine::Item(ListItem {
            kind: e.kind,
            index: *counter,
            name,
            source: ItemSource::Entry(e),
        }));
    }
    Ok(())
}

/// True when a listing holds no item (cuobjdump then reports that the file
/// has no device code).
pub fn is_empty(lines: &[ListLine<'_>]) -> bool {
    !lines.iter().any(|l| matches!(l, ListLine::Item(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(stem("a_default"), "a_default");
        assert_eq!(stem("/x/y/foo.bar.baz.fatbin"), "foo.bar.baz");
        assert_eq!(stem("libak.so.1.2"), "libak.so.1");
        assert_eq!(stem(".hidden"), "");
        assert_eq!(stem("a.cu "), "a");
    }

    #[test]
    fn line_format() {
        let item = ListItem {
            kind: EntryKind::Cubin,
            index: 12,
            name: "x.12.sm_90a.cubin".into(),
            source: ItemSource::Cubin(&[]),
        };
        assert_eq!(item.line(), "ELF file   12: x.12.sm_90a.cubin");
        let m = ListLine::Member {
            path: "/t/lib.a".into(),
            member: "a.o".into(),
        };
        assert_eq!(m.text(), "\nmember /t/lib.a:a.o:");
    }
}
