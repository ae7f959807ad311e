#![forbid(unsafe_code)]
//! Bounds-checked little-endian reads from byte slices.

use crate::error::{Error, Result};

/// `len` bytes at `off` of `data`, or a [`Error::Truncated`] naming `what`.
#[inline]
pub(crate) fn bytes<'a>(
    data: &'a [u8],
    off: u64,
    len: u64,
    what: &'static str,
) -> Result<&'a [u8]> {
    let avail = (data.len() as u64).saturating_sub(off);
    if off > data.len() as u64 || len > avail {
        return Err(Error::Truncated {
            what,
            offset: off,
            needed: len,
            available: avail,
        });
    }
    // Both fit in usize: off <= len(data) and len <= len(data) - off.
    Ok(&data[off as usize..(off + len) as usize])
}

#[inline]
pub(crate) fn u16_at(b: &[u8], off: usize) -> u16 {
    match b.get(off..off + 2) {
        Some(s) => u16::from_le_bytes([s[0], s[1]]),
        None => 0,
    }
}

#[inline]
pub(crate) fn u32_at(b: &[u8], off: usize) -> u32 {
    match b.get(off..off + 4) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

#[inline]
pub(crate) fn u64_at(b: &[u8], off: usize) -> u64 {
    match b.get(off..off + 8) {
        Some(s) => u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]),
        None => 0,
    }
}

/// The bytes of a NUL-terminated string starting at `off` (without the NUL;
/// up to the end of `data` when there is none), or `None` when `off` is out of
/// range.
pub(crate) fn cstr_at(data: &[u8], off: usize) -> Option<&[u8]> {
    let rest = data.get(off..)?;
    let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
    Some(&rest[..end])
}
