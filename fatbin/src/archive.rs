#![forbid(unsafe_code)]
//! Members of a static archive (`ar`, GNU and BSD name styles).

use crate::error::{Error, Result};
use crate::read::bytes;

/// Archive magic.
pub const MAGIC: &[u8] = b"!<arch>\n";
const HEADER: u64 = 60;

/// One archive member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member<'a> {
    /// The member's name (without GNU's trailing `/`).
    pub name: &'a [u8],
    /// Its contents.
    pub data: &'a [u8],
}

fn field(h: &[u8], from: usize, len: usize) -> &[u8] {
    let f = &h[from..from + len];
    let end = f.iter().rposition(|&c| c != b' ').map_or(0, |p| p + 1);
    &f[..end]
}

fn decimal(f: &[u8]) -> Option<u64> {
    if f.is_empty() || f.len() > 19 {
        return None;
    }
    f.iter().try_fold(0u64, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + (c - b'0') as u64)
    })
}

fn bad(offset: u64, reason: &'static str) -> Error {
    Error::BadHeader {
        what: "archive member",
        offset,
        reason,
    }
}

/// The regular members of an archive, in order (symbol tables and the GNU
/// long-name table are skipped).
pub fn members(data: &[u8]) -> Result<Vec<Member<'_>>> {
    if !data.starts_with(MAGIC) {
        return Err(Error::BadMagic {
            what: "archive",
            offset: 0,
            found: crate::read::u32_at(data, 0),
        });
    }
    let mut out = Vec::new();
    let mut long_names: &[u8] = &[];
    let mut off = MAGIC.len() as u64;
    while off < data.len() as u64 {
        let h = bytes(data, off, HEADER, "archive member header")?;
        if &h[58..60] != b"`\n" {
            return Err(bad(off, "bad header terminator"));
        }
        let size = decimal(field(h, 48, 10)).ok_or_else(|| bad(off, "bad size"))?;
        let body = bytes(data, off + HEADER, size, "archive member")?;
        let raw_name = field(h, 0, 16);
        let (name, content) = if raw_name == b"/"
            || raw_name == b"/SYM64/"
            || raw_name == b"__.SYMDEF"
            || raw_name == b"__.SYMDEF SORTED"
        {
            (None, body)
        } else if raw_name == b"//" {
            long_names = body;
            (None, body)
        } else if let Some(rest) = raw_name.strip_prefix(b"#1/") {
            // BSD: the name follows the header and is counted in the size.
            let n = decimal(rest).ok_or_else(|| bad(off, "bad BSD name length"))?;
            if n > body.len() as u64 {
                return Err(bad(off, "BSD name past the member"));
            }
            let (nm, rest) = body.split_at(n as usize);
            let end = nm.iter().position(|&c| c == 0).unwrap_or(nm.len());
            (Some(&nm[..end]), rest)
        } else if let Some(rest) = raw_name.strip_prefix(b"/") {
            // GNU long name: offset into the `//` table, ended by "/\n".
            let at = decimal(rest).ok_or_else(|| bad(off, "bad long-name offset"))?;
            let tail = long_names
                .get(at as usize..)
                .ok_or_else(|| bad(off, "long-name offset past the table"))?;
            let end = tail.iter().position(|&c| c == b'\n').unwrap_or(tail.len());
            let nm = &tail[..end];
            (Some(nm.strip_suffix(b"/").unwrap_or(nm)), body)
        } else {
            (Some(raw_name.strip_suffix(b"/").unwrap_or(raw_name)), body)
        };
        if let Some(name) = name {
            out.push(Member {
                name,
                data: content,
            });
        }
        off += HEADER + size + (size & 1);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(name: &str, size: usize) -> Vec<u8> {
        let mut h = format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}", 0, 0, 0, 644).into_bytes();
        h.extend_from_slice(b"`\n");
        assert_eq!(h.len(), 60);
        h
    }

    #[test]
    fn gnu_and_bsd_names() {
        let mut a = MAGIC.to_vec();
        a.extend(header("/", 4));
        a.extend_from_slice(&[0; 4]);
        let long = b"a_very_long_member_name.o/\n";
        a.extend(header("//", long.len()));
        a.extend_from_slice(long);
        a.push(b'\n'); // pad to even
        a.extend(header("short.o/", 3));
        a.extend_from_slice(b"abc");
        a.push(b'\n');
        a.extend(header("/0", 2));
        a.extend_from_slice(b"xy");
        a.extend(header("#1/6", 8));
        a.extend_from_slice(b"bsd.o\0zz");
        let m = members(&a).unwrap();
        let names: Vec<&[u8]> = m.iter().map(|m| m.name).collect();
        assert_eq!(
            names,
            [&b"short.o"[..], b"a_very_long_member_name.o", b"bsd.o"]
        );
        assert_eq!(m[0].data, b"abc");
        assert_eq!(m[2].data, b"zz");
        // Truncated and malformed archives.
        for len in MAGIC.len()..a.len() {
            let _ = members(&a[..len]);
        }
        let mut bad = a.clone();
        bad[MAGIC.len() + 48] = b'x';
        assert!(members(&bad).is_err());
    }
}
