#![forbid(unsafe_code)]
//! Bounded decompression of entry payloads (zstd frame or raw LZ4 block).

use std::borrow::Cow;
use std::io::Read;

use crate::container::{Compression, Entry};
use crate::error::{Error, Result};

/// Default cap on any decompressed payload: 1 GiB.
pub const MAX_DECOMPRESSED_SIZE: u64 = 1 << 30;

/// LZ4 cannot expand a block by more than this factor (a 1-byte token plus
/// a 255-valued length byte encodes at most ~255 bytes of output per input
/// byte); a larger declared size is a lie, refused before any allocation.
const LZ4_MAX_RATIO: u64 = 256;

/// Initial output reservation for zstd, grown only as real output arrives.
const ZSTD_INITIAL_RESERVE: u64 = 1 << 20;

pub(crate) fn decompress_entry<'a>(e: &Entry<'a>, limit: u64) -> Result<Cow<'a, [u8]>> {
    match e.compression()? {
        Compression::None => Ok(Cow::Borrowed(e.payload)),
        Compression::Zstd => zstd(e.payload, e.decompressed_size, limit).map(Cow::Owned),
        Compression::Lz4 => lz4(e.payload, e.decompressed_size, limit).map(Cow::Owned),
    }
}

fn check_declared(declared: u64, limit: u64) -> Result<()> {
    if declared > limit {
        return Err(Error::TooLarge {
            what: "decompressed payload",
            size: declared,
            limit,
        });
    }
    Ok(())
}

/// Decode one zstd frame from `input`, producing exactly `declared` bytes
/// (at most `limit`). Output grows with real data: nothing near `declared`
/// is reserved up front unless the data is really there.
pub fn zstd(input: &[u8], declared: u64, limit: u64) -> Result<Vec<u8>> {
    check_declared(declared, limit)?;
    let err = |reason: String| Error::Decompress {
        codec: "zstd",
        reason,
    };
    // The window never needs to exceed the content; cap it so a frame cannot
    // make the decoder reserve a large window for a tiny payload.
    let window = declared.clamp(1 << 10, 1 << 27);
    let mut src = input;
    let dec = ruzstd::decoding::StreamingDecoder::new_with_max_window_size(&mut src, window)
        .map_err(|e| err(e.to_string()))?;
    let mut out = Vec::with_capacity(declared.min(ZSTD_INITIAL_RESERVE) as usize);
    // Read at most one byte more than declared, so an oversized stream is
    // detected without producing it.
    dec.take(declared.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| err(e.to_string()))?;
    if out.len() as u64 != declared {
        return Err(Error::SizeMismatch {
            declared,
            actual: out.len() as u64,
        });
    }
    Ok(out)
}

/// Decode one raw LZ4 block from `input` into exactly `declared` bytes (at
/// most `limit`).
pub fn lz4(input: &[u8], declared: u64, limit: u64) -> Result<Vec<u8>> {
    check_declared(declared, limit)?;
    let max = (input.len() as u64).saturating_mul(LZ4_MAX_RATIO);
    if declared > max {
        return Err(Error::TooLarge {
            what: "LZ4 decompressed size for its input",
            size: declared,
            limit: max,
        });
    }
    let mut out = vec![0u8; declared as usize];
    let n = lz4_flex::block::decompress_into(input, &mut out).map_err(|e| Error::Decompress {
        codec: "lz4",
        reason: e.to_string(),
    })?;
    if n as u64 != declared {
        return Err(Error::SizeMismatch {
            declared,
            actual: n as u64,
        });
    }
    Ok(out)
}
