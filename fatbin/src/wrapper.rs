#![forbid(unsafe_code)]
//! The 24-byte fatbin wrapper (`__fatBinC_Wrapper_t`) that host code hands to
//! `__cudaRegisterFatBinary`, and that `.nvFatBinSegment` holds.
//!
//! ```text
//! 0x00 u32 magic 0x466243B1
//! 0x04 u32 version: 1, or 2 (linked, -rdc=true)
//! 0x08 u64 data: address of a fatbin container
//! 0x10 u64 version 1: filename (0 in practice);
//!          version 2: address of a NULL-terminated array of container
//!          addresses (the relocatable fatbins of the linked objects)
//! ```

use crate::container::Fatbin;
use crate::error::{Error, Result};
use crate::read::{bytes, u32_at, u64_at};

/// Magic number of a fatbin wrapper.
pub const WRAPPER_MAGIC: u32 = 0x4662_43B1;
/// Size of a wrapper.
pub const WRAPPER_SIZE: usize = 24;

/// The raw fields of a wrapper, as found in memory or in a file (addresses
/// are not resolved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrapperHeader {
    /// 1 or 2.
    pub version: u32,
    /// Address of the fatbin container.
    pub data: u64,
    /// Version 2: address of the NULL-terminated prelinked array; version 1:
    /// the (unused) filename pointer.
    pub filename_or_fatbins: u64,
}

impl WrapperHeader {
    /// Parse the 24 bytes at the start of `b`; checks magic and version.
    #[inline]
    pub fn parse(b: &[u8]) -> Result<WrapperHeader> {
        let h = bytes(b, 0, WRAPPER_SIZE as u64, "fatbin wrapper")?;
        let magic = u32_at(h, 0);
        if magic != WRAPPER_MAGIC {
            return Err(Error::BadMagic {
                what: "fatbin wrapper",
                offset: 0,
                found: magic,
            });
        }
        let version = u32_at(h, 4);
        if version != 1 && version != 2 {
            return Err(Error::UnsupportedVersion {
                what: "fatbin wrapper",
                version,
            });
        }
        Ok(WrapperHeader {
            version,
            data: u64_at(h, 8),
            filename_or_fatbins: u64_at(h, 16),
        })
    }

    /// The address of the prelinked array (version 2 only, `None` when 0).
    pub fn prelinked_array(&self) -> Option<u64> {
        (self.version == 2 && self.filename_or_fatbins != 0).then_some(self.filename_or_fatbins)
    }
}

/// A resolved wrapper: the registered fatbin and, for version 2, the
/// relocatable fatbins of the objects that were linked into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapper<'a> {
    /// The raw wrapper fields.
    pub header: WrapperHeader,
    /// The container the wrapper's data pointer designates (exactly one).
    pub fatbin: Fatbin<'a>,
    /// Version 2: the prelinked (relocatable, per-object) fatbins, in array
    /// order. Empty for version 1 and for a NULL or empty array.
    pub prelinked: Vec<Fatbin<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse() {
        let mut b = vec![0xb1, 0x43, 0x62, 0x46, 2, 0, 0, 0];
        b.extend_from_slice(&0x8e9d0u64.to_le_bytes());
        b.extend_from_slice(&0xae590u64.to_le_bytes());
        let w = WrapperHeader::parse(&b).unwrap();
        assert_eq!((w.version, w.data), (2, 0x8e9d0));
        assert_eq!(w.prelinked_array(), Some(0xae590));
        b[4] = 1;
        assert_eq!(WrapperHeader::parse(&b).unwrap().prelinked_array(), None);
    }
}
