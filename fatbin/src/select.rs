#![forbid(unsafe_code)]
//! Picking the entry of a fatbin that a device of compute capability
//! `major.minor` can load.
//!
//! Rules (CUDA's compatibility model):
//! 1. a cubin of the same major version and an arch not above the device's
//!    (`sm_80` runs on 8.6); an arch-specific cubin (`sm_90a`) only on
//!    exactly its arch; a family-specific one (`sm_100f`) on the same major
//!    at or above its arch. The highest arch wins; on a tie an
//!    arch-specific cubin beats a family-specific one, which beats a plain
//!    one.
//! 2. else PTX for JIT: the highest arch not above the device's;
//!    arch-specific PTX only on exactly its arch, family-specific PTX only on
//!    its major.
//! 3. else [`NoImage`], which lists what the fatbin holds.

use std::fmt;

use crate::container::{Entry, EntryKind, Fatbin};
use crate::error::{Error, Result};

/// Why no entry fits a device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoImage {
    /// The device's `(major, minor)`.
    pub device: (u32, u32),
    /// What the fatbin holds: `sm_90 cubin`, `sm_90 PTX`, ...
    pub available: Vec<String>,
}

impl fmt::Display for NoImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no kernel image for sm_{}{}: ",
            self.device.0, self.device.1
        )?;
        if self.available.is_empty() {
            write!(f, "the fatbin holds no cubin or PTX")
        } else {
            write!(f, "the fatbin holds {}", self.available.join(", "))
        }
    }
}

fn specificity(e: &Entry<'_>) -> u8 {
    if e.is_arch_specific() {
        2
    } else if e.is_family_specific() {
        1
    } else {
        0
    }
}

/// Whether entry `e` can run on a device with SM number `sm`.
pub fn entry_fits(e: &Entry<'_>, major: u32, minor: u32) -> bool {
    let sm = major * 10 + minor;
    if e.arch > sm {
        return false;
    }
    let same_major = e.arch / 10 == major;
    if e.is_arch_specific() {
        return e.arch == sm;
    }
    match e.kind {
        EntryKind::Cubin => same_major,
        EntryKind::Ptx => !e.is_family_specific() || same_major,
        EntryKind::Other(_) => false,
    }
}

/// The best entry for a device of compute capability `major.minor`: a
/// cubin when one fits, else PTX to JIT, else [`Error::NoImage`]. Errors
/// from malformed entries are returned as they are.
pub fn select_entry<'a>(fatbin: &Fatbin<'a>, major: u32, minor: u32) -> Result<Entry<'a>> {
    let mut best_cubin: Option<Entry<'a>> = None;
    let mut best_ptx: Option<Entry<'a>> = None;
    let mut available = Vec::new();
    for e in fatbin.entries() {
        let e = e?;
        let what = match e.kind {
            EntryKind::Cubin => "cubin",
            EntryKind::Ptx => "PTX",
            EntryKind::Other(_) => continue,
        };
        let desc = format!("{} {what}", e.arch_name());
        if !available.contains(&desc) {
            available.push(desc);
        }
        if !entry_fits(&e, major, minor) {
            continue;
        }
        let slot = if e.kind == EntryKind::Cubin {
            &mut best_cubin
        } else {
            &mut best_ptx
        };
        let better = match slot {
            None => true,
            Some(b) => (e.arch, specificity(&e)) > (b.arch, specificity(b)),
        };
        if better {
            *slot = Some(e);
        }
    }
    best_cubin.or(best_ptx).ok_or(Error::NoImage(NoImage {
        device: (major, minor),
        available,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::flags;

    fn entry(kind: u16, arch: u32, fl: u64) -> Vec<u8> {
        let mut e = vec![0u8; 0x40];
        e[0..2].copy_from_slice(&kind.to_le_bytes());
        e[4] = 0x40;
        e[0x1c..0x20].copy_from_slice(&arch.to_le_bytes());
        e[0x28..0x30].copy_from_slice(&(0x11 | fl).to_le_bytes());
        e
    }

    fn fatbin(entries: &[(u16, u32, u64)]) -> Vec<u8> {
        let body: Vec<u8> = entries
            .iter()
            .flat_map(|&(k, a, f)| entry(k, a, f))
            .collect();
        let mut c = vec![0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0];
        c.extend_from_slice(&(body.len() as u64).to_le_bytes());
        c.extend(body);
        c
    }

    fn pick(d: &[u8], maj: u32, min: u32) -> Result<String> {
        let fb = Fatbin::parse(d)?;
        let e = select_entry(&fb, maj, min)?;
        Ok(format!(
            "{} {}",
            if e.kind == EntryKind::Ptx {
                "ptx"
            } else {
                "cubin"
            },
            e.arch_name()
        ))
    }

    #[test]
    fn rules() {
        let a = flags::ARCH_SPECIFIC;
        let f = flags::FAMILY_SPECIFIC;
        let d = fatbin(&[
            (2, 80, 0),
            (2, 86, 0),
            (2, 90, 0),
            (2, 90, a),
            (1, 90, 0),
            (2, 100, f),
            (1, 100, a),
        ]);
        assert_eq!(pick(&d, 8, 0).unwrap(), "cubin sm_80");
        assert_eq!(pick(&d, 8, 6).unwrap(), "cubin sm_86");
        assert_eq!(pick(&d, 8, 9).unwrap(), "cubin sm_86");
        assert_eq!(pick(&d, 9, 0).unwrap(), "cubin sm_90a");
        assert_eq!(pick(&d, 10, 0).unwrap(), "cubin sm_100");
        assert_eq!(pick(&d, 10, 3).unwrap(), "cubin sm_100");
        assert_eq!(pick(&d, 12, 0).unwrap(), "ptx sm_90");
        let err = pick(&d, 7, 5).unwrap_err().to_string();
        assert!(
            err.contains("sm_75") && err.contains("sm_80 cubin") && err.contains("sm_100a PTX"),
            "{err}"
        );
        // Arch-specific PTX only on its own arch.
        let d = fatbin(&[(1, 100, a), (1, 80, 0)]);
        assert_eq!(pick(&d, 10, 0).unwrap(), "ptx sm_100a");
        assert_eq!(pick(&d, 10, 3).unwrap(), "ptx sm_80");
        // Family PTX only within its major.
        let d = fatbin(&[(1, 100, f)]);
        assert_eq!(pick(&d, 10, 3).unwrap(), "ptx sm_100f");
        assert!(pick(&d, 12, 0).is_err());
        // Empty.
        let d = fatbin(&[]);
        assert!(pick(&d, 9, 0)
            .unwrap_err()
            .to_string()
            .contains("no cubin or PTX"));
    }
}
