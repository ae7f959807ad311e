#![forbid(unsafe_code)]
//! The crate's error type: every failure is a value, never a panic.

use std::fmt;

/// Why a fatbin, wrapper, host file or cubin could not be read.
///
/// Offsets are relative to the slice that was handed to the parser that
/// failed (for a host file: the file).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A raw pointer handed in from C was NULL.
    NullPointer,
    /// A structure or payload runs past the end of the slice that holds it.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where it starts.
        offset: u64,
        /// How many bytes it needs.
        needed: u64,
        /// How many bytes there are from `offset` on.
        available: u64,
    },
    /// A magic number did not match.
    BadMagic {
        /// What was being read.
        what: &'static str,
        /// Where.
        offset: u64,
        /// The value found.
        found: u32,
    },
    /// A structure has a version this crate does not know.
    UnsupportedVersion {
        /// What was being read.
        what: &'static str,
        /// The version found.
        version: u32,
    },
    /// A header field is inconsistent (for example a header size that is too
    /// small, or a compressed size larger than the payload).
    BadHeader {
        /// What was being read.
        what: &'static str,
        /// Where.
        offset: u64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A declared size exceeds a limit of this crate.
    TooLarge {
        /// What was being sized.
        what: &'static str,
        /// The declared size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A compressed payload could not be decoded.
    Decompress {
        /// `"zstd"` or `"lz4"`.
        codec: &'static str,
        /// The decoder's complaint.
        reason: String,
    },
    /// A payload decompressed to a size other than the declared one.
    SizeMismatch {
        /// The size the entry header declares.
        declared: u64,
        /// The size actually produced (at most `declared + 1`: decoding stops
        /// as soon as the output exceeds the declared size).
        actual: u64,
    },
    /// The payload's compression flags are not ones this crate knows.
    UnknownCompression {
        /// The entry's flags.
        flags: u64,
    },
    /// A malformed host or cubin ELF file.
    Elf(String),
    /// The input holds no fatbin at all.
    NoFatbin,
    /// The file is none of: host ELF, fatbin, cubin.
    UnknownFormat,
    /// No entry of a fatbin can run on the requested device.
    NoImage(crate::select::NoImage),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NullPointer => write!(f, "NULL pointer"),
            Error::Truncated {
                what,
                offset,
                needed,
                available,
            } => write!(
                f,
                "truncated {what} at offset {offset:#x}: needs {needed} bytes, {available} available"
            ),
            Error::BadMagic {
                what,
                offset,
                found,
            } => write!(f, "bad {what} magic {found:#010x} at offset {offset:#x}"),
            Error::UnsupportedVersion { what, version } => {
                write!(f, "unsupported {what} version {version}")
            }
            Error::BadHeader {
                what,
                offset,
                reason,
            } => write!(f, "bad {what} at offset {offset:#x}: {reason}"),
            Error::TooLarge { what, size, limit } => {
                write!(f, "{what} too large: {size} bytes (limit {limit})")
            }
            Error::Decompress { codec, reason } => {
                write!(f, "{codec} decompression failed: {reason}")
            }
            Error::SizeMismatch { declared, actual } => write!(
                f,
                "payload decompressed to {actual}{} bytes, header declares {declared}",
                if actual > declared { "+" } else { "" }
            ),
            Error::UnknownCompression { flags } => {
                write!(f, "unknown compression (entry flags {flags:#x})")
            }
            Error::Elf(msg) => write!(f, "malformed ELF file: {msg}"),
            Error::NoFatbin => write!(f, "no fatbin found"),
            Error::UnknownFormat => {
                write!(f, "not a host ELF file, fatbin or cubin")
            }
            Error::NoImage(n) => write!(f, "{n}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<goblin::error::Error> for Error {
    fn from(e: goblin::error::Error) -> Self {
        Error::Elf(e.to_string())
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
