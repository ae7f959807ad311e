//! Corrupt and hostile input: every case must be an error value, never a
//! panic, never a huge allocation. Uses only checked-in fixtures (no
//! toolchain needed).

use fatbin::cubin::Cubin;
use fatbin::decompress;
use fatbin::host::HostFile;
use fatbin::{Error, Fatbin, WrapperHeader};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap()
}

/// Exercise every public parser on `data`; returns whether the fatbin
/// parsed and every entry decompressed.
fn exercise(data: &[u8]) -> bool {
    let mut ok = false;
    if let Ok(fb) = Fatbin::parse(data) {
        ok = true;
        for e in fb.entries() {
            match e {
                Ok(e) => {
                    ok &= e.decompress_with_limit(64 << 20).is_ok();
                    let _ = e.arch_name();
                }
                Err(_) => ok = false,
            }
        }
        let _ = fatbin::select_entry(&fb, 8, 0);
    }
    if let Ok(f) = HostFile::parse(data) {
        let _ = f.fatbin_sections();
        let _ = f.wrappers();
    }
    if let Ok(lines) = fatbin::names::list("x.fatbin", "/x.fatbin", data, true) {
        for l in lines {
            if let fatbin::names::ListLine::Item(i) = l {
                let _ = i.contents();
            }
        }
    }
    let _ = WrapperHeader::parse(data);
    ok
}

#[test]
fn fixtures_parse_whole() {
    for f in ["tiny_zstd.fatbin", "tiny_lz4.fatbin", "tiny_plain.fatbin"] {
        assert!(exercise(&fixture(f)), "{f}");
    }
}

#[test]
fn fatbin_truncated_at_every_offset() {
    for f in ["tiny_zstd.fatbin", "tiny_lz4.fatbin", "tiny_plain.fatbin"] {
        let d = fixture(f);
        for len in 0..d.len() {
            assert!(!exercise(&d[..len]), "{f} cut at {len} parsed as complete");
            assert!(Fatbin::parse(&d[..len]).is_err(), "{f} cut at {len}");
        }
    }
}

#[test]
fn cubin_truncated_at_every_offset() {
    let d = fixture("kernels_sm90.cubin");
    for len in 0..d.len() {
        if let Ok(c) = Cubin::parse(&d[..len]) {
            let _ = c.kernels();
            let _ = c.functions();
            let _ = c.variables();
            let _ = c.info_sections();
        }
        let _ = fatbin::names::list("k.cubin", "/k.cubin", &d[..len], false);
    }
}

#[test]
fn every_byte_flipped() {
    // Each byte of a real fatbin and cubin replaced by 0xff (and by 0):
    // errors or different values, never a panic.
    for f in ["tiny_zstd.fatbin", "tiny_lz4.fatbin", "kernels_sm90.cubin"] {
        let orig = fixture(f);
        for i in 0..orig.len() {
            for v in [0u8, 0xff] {
                let mut d = orig.clone();
                d[i] = v;
                exercise(&d);
                if let Ok(c) = Cubin::parse(&d) {
                    let _ = c.functions();
                    let _ = c.variables();
                }
            }
        }
    }
}

#[test]
fn bad_magics() {
    let mut d = fixture("tiny_zstd.fatbin");
    d[0] ^= 1;
    assert!(matches!(
        Fatbin::parse(&d),
        Err(Error::BadMagic {
            what: "fatbin container",
            ..
        })
    ));
    assert!(matches!(HostFile::parse(&d), Err(Error::UnknownFormat)));
    let mut w = vec![0u8; 24];
    w[..4].copy_from_slice(&0x466243B1u32.to_le_bytes());
    w[4] = 3;
    assert!(matches!(
        WrapperHeader::parse(&w),
        Err(Error::UnsupportedVersion { .. })
    ));
    w[0] = 0;
    assert!(matches!(
        WrapperHeader::parse(&w),
        Err(Error::BadMagic { .. })
    ));
    assert!(matches!(
        WrapperHeader::parse(&w[..23]),
        Err(Error::Truncated { .. })
    ));
    let mut c = fixture("kernels_sm90.cubin");
    c[18] = 62; // e_machine = x86-64
    assert!(Cubin::parse(&c).is_err());
}

// ---- synthetic containers -------------------------------------------------

struct E {
    kind: u16,
    header_size: u32,
    payload_size: u64,
    compressed: u32,
    decompressed: u64,
    flags: u64,
    options: u32,
    name: (u32, u32),
    payload: Vec<u8>,
}

impl E {
    fn cubin(payload: &[u8]) -> E {
        E {
            kind: 2,
            header_size: 0x40,
            payload_size: payload.len() as u64,
            compressed: 0,
            decompressed: 0,
            flags: 0x11,
            options: 0,
            name: (0, 0),
            payload: payload.to_vec(),
        }
    }
    fn bytes(&self) -> Vec<u8> {
        let mut h = vec![
            0u8;
            if (0x40..=0x100).contains(&self.header_size) {
                self.header_size as usize
            } else {
                0x40
            }
        ];
        h[0..2].copy_from_slice(&self.kind.to_le_bytes());
        h[2..4].copy_from_slice(&0x0101u16.to_le_bytes());
        h[4..8].copy_from_slice(&self.header_size.to_le_bytes());
        h[8..16].copy_from_slice(&self.payload_size.to_le_bytes());
        h[0x10..0x14].copy_from_slice(&self.compressed.to_le_bytes());
        h[0x14..0x18].copy_from_slice(&self.options.to_le_bytes());
        h[0x1a..0x1c].copy_from_slice(&1u16.to_le_bytes());
        h[0x1c..0x20].copy_from_slice(&80u32.to_le_bytes());
        h[0x20..0x24].copy_from_slice(&self.name.0.to_le_bytes());
        h[0x24..0x28].copy_from_slice(&self.name.1.to_le_bytes());
        h[0x28..0x30].copy_from_slice(&self.flags.to_le_bytes());
        h[0x38..0x40].copy_from_slice(&self.decompressed.to_le_bytes());
        h.extend_from_slice(&self.payload);
        h
    }
}

fn container_with(entries: &[E], size_override: Option<u64>) -> Vec<u8> {
    let body: Vec<u8> = entries.iter().flat_map(|e| e.bytes()).collect();
    let mut c = Vec::new();
    c.extend_from_slice(&0xBA55ED50u32.to_le_bytes());
    c.extend_from_slice(&1u16.to_le_bytes());
    c.extend_from_slice(&16u16.to_le_bytes());
    c.extend_from_slice(&size_override.unwrap_or(body.len() as u64).to_le_bytes());
    c.extend_from_slice(&body);
    c
}

fn container(entries: &[E]) -> Vec<u8> {
    container_with(entries, None)
}

fn first_entry_err(data: &[u8]) -> Error {
    let fb = match Fatbin::parse(data) {
        Ok(fb) => fb,
        Err(e) => return e,
    };
    for e in fb.entries() {
        match e {
            Err(e) => return e,
            Ok(e) => {
                if let Err(err) = e.decompress() {
                    return err;
                }
            }
        }
    }
    panic!("no error")
}

#[test]
fn synthetic_valid_container() {
    let c = container(&[E::cubin(&[1, 2, 3, 4, 5, 6, 7, 8]), E::cubin(&[])]);
    let fb = Fatbin::parse(&c).unwrap();
    let es: Vec<_> = fb.entries().map(|e| e.unwrap()).collect();
    assert_eq!(es.len(), 2);
    assert_eq!(es[0].payload, &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(es[0].arch_name(), "sm_80");
}

#[test]
fn lengths_past_the_end() {
    // Container size beyond the data.
    let c = container_with(&[E::cubin(&[0; 8])], Some(1 << 40));
    assert!(matches!(Fatbin::parse(&c), Err(Error::Truncated { .. })));
    let c = container_with(&[E::cubin(&[0; 8])], Some(u64::MAX));
    assert!(Fatbin::parse(&c).is_err());
    // Payload size beyond the container.
    for ps in [9u64, 1 << 40, u64::MAX, u64::MAX - 0x3f] {
        let mut e = E::cubin(&[0; 8]);
        e.payload_size = ps;
        let c = container(&[e]);
        assert!(
            matches!(
                first_entry_err(&c),
                Error::Truncated { .. } | Error::BadHeader { .. }
            ),
            "{ps}"
        );
    }
    // Header size too small (would loop) or too large.
    for hs in [0u32, 8, 0x3f, 0x1000, u32::MAX] {
        let mut e = E::cubin(&[0; 8]);
        e.header_size = hs;
        let c = container(&[e]);
        let err = first_entry_err(&c);
        assert!(
            matches!(err, Error::Truncated { .. } | Error::BadHeader { .. }),
            "{hs}: {err}"
        );
    }
    // Compressed size larger than the payload.
    let mut e = E::cubin(&[0; 8]);
    e.compressed = 9;
    e.flags |= 0x8000;
    assert!(matches!(
        first_entry_err(&container(&[e])),
        Error::BadHeader { .. }
    ));
    // Options descriptor and name outside the header.
    let mut e = E::cubin(&[0; 8]);
    e.options = 0x3c;
    assert!(matches!(
        first_entry_err(&container(&[e])),
        Error::BadHeader { .. }
    ));
    let mut e = E::cubin(&[0; 8]);
    e.name = (0x30, 0x20);
    assert!(matches!(
        first_entry_err(&container(&[e])),
        Error::BadHeader { .. }
    ));
    // Both compression flags.
    let mut e = E::cubin(&[0; 8]);
    e.flags |= 0x8000 | 0x2000;
    e.compressed = 8;
    assert!(matches!(
        first_entry_err(&container(&[e])),
        Error::UnknownCompression { .. }
    ));
}

#[test]
fn overlapping_and_degenerate_layouts() {
    // Many empty containers back to back, then junk that is not zero.
    let mut d = Vec::new();
    for _ in 0..1000 {
        d.extend(container(&[]));
    }
    assert_eq!(Fatbin::parse(&d).unwrap().containers().count(), 1000);
    d.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert!(Fatbin::parse(&d).is_err());
    // Zero padding after the last container is fine; padding that is not a
    // whole number of 8-byte words before a container is not.
    let mut d = container(&[E::cubin(&[0; 8])]);
    d.extend_from_slice(&[0; 13]);
    assert!(Fatbin::parse(&d).is_ok());
    let mut d = container(&[]);
    d.extend_from_slice(&[0; 3]);
    d.extend(container(&[]));
    assert!(Fatbin::parse(&d).is_err());
    // An entry whose payload claims the next entry's header: the walk only
    // moves forward, so the next "entry" is whatever follows, and the
    // iterator ends.
    let mut e = E::cubin(&[0; 8]);
    e.payload_size = 8 + 0x40 + 8;
    let c = container(&[e, E::cubin(&[0; 8])]);
    let n = Fatbin::parse(&c).unwrap().entries().count();
    assert_eq!(n, 1);
    // A container whose declared size cuts an entry in half.
    let c = container_with(&[E::cubin(&[0; 8]), E::cubin(&[0; 8])], Some(0x48 + 0x20));
    assert!(Fatbin::parse_first(&c).unwrap().validate().is_err());
}

/// A zstd frame of `blocks` RLE blocks of 1 KiB (window 1 KiB), no content
/// size: `blocks` KiB of output from 4 bytes per block.
fn zstd_rle_bomb(blocks: usize) -> Vec<u8> {
    let mut f = vec![0x28, 0xb5, 0x2f, 0xfd];
    f.push(0x00); // frame header descriptor: no content size, not single segment
    f.push(0x00); // window descriptor: 1 KiB
    for i in 0..blocks {
        let last = (i + 1 == blocks) as u32;
        let h = last | (1 << 1) | (1024 << 3); // RLE block of 1024 bytes
        f.extend_from_slice(&h.to_le_bytes()[..3]);
        f.push(0x41);
    }
    f
}

#[test]
fn zstd_bombs() {
    // 1 GiB of output from 4 MiB of input, declared 4 KiB: stops after
    // 4 KiB + 1 byte.
    let bomb = zstd_rle_bomb(1 << 20);
    let t = std::time::Instant::now();
    match decompress::zstd(&bomb, 4096, 1 << 30) {
        Err(Error::SizeMismatch { declared, actual }) => {
            assert_eq!(declared, 4096);
            assert_eq!(actual, 4097);
        }
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed().as_secs() < 5, "decoded the whole bomb?");
    // Declared huge: refused before decoding.
    assert!(matches!(
        decompress::zstd(&bomb, 1 << 40, 1 << 30),
        Err(Error::TooLarge { .. })
    ));
    assert!(decompress::zstd(&bomb, u64::MAX, u64::MAX).is_err());
    // Declared zero.
    assert!(matches!(
        decompress::zstd(&bomb, 0, 1 << 30),
        Err(Error::SizeMismatch { .. })
    ));
    // A frame that asks for a 2 GiB window for a 4 KiB payload.
    let mut big_window = zstd_rle_bomb(4);
    big_window[5] = 0xa8; // window log 31
    assert!(decompress::zstd(&big_window, 4096, 1 << 30).is_err());
    // Exact size works.
    let small = zstd_rle_bomb(4);
    assert_eq!(
        decompress::zstd(&small, 4096, 1 << 30).unwrap(),
        vec![0x41; 4096]
    );
    // Garbage and truncation.
    assert!(decompress::zstd(&small[..small.len() - 2], 4096, 1 << 30).is_err());
    assert!(decompress::zstd(b"\x28\xb5\x2f\xfdgarbage", 100, 1 << 30).is_err());
    assert!(decompress::zstd(&[], 100, 1 << 30).is_err());
    // Through an entry: a PTX entry declaring 100 bytes holding the bomb.
    let mut e = E::cubin(&bomb[..1 << 16]);
    e.kind = 1;
    e.compressed = 1 << 16;
    e.decompressed = 100;
    e.flags |= 0x8000;
    assert!(matches!(
        first_entry_err(&container(&[e])),
        Error::SizeMismatch { .. } | Error::Decompress { .. }
    ));
}

#[test]
fn lz4_bombs() {
    let zeros = vec![0u8; 4 << 20];
    let packed = lz4_flex::block::compress(&zeros);
    assert_eq!(
        decompress::lz4(&packed, zeros.len() as u64, 1 << 30).unwrap(),
        zeros
    );
    // Declared smaller than the real output.
    assert!(decompress::lz4(&packed, 4096, 1 << 30).is_err());
    // Declared larger than the real output.
    assert!(matches!(
        decompress::lz4(&packed, zeros.len() as u64 + 8, 1 << 30),
        Err(Error::SizeMismatch { .. } | Error::Decompress { .. })
    ));
    // Declared huge: over the cap, or over what the input could ever
    // produce; refused before allocating.
    assert!(matches!(
        decompress::lz4(&packed, 1 << 40, 1 << 30),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        decompress::lz4(&[0x10, 0x41], 100 << 20, 1 << 30),
        Err(Error::TooLarge { .. })
    ));
    // Garbage.
    assert!(decompress::lz4(&[0xff; 16], 1000, 1 << 30).is_err());
    // The real LZ4 fixture with its declared size patched.
    let d = fixture("tiny_lz4.fatbin");
    let fb = Fatbin::parse(&d).unwrap();
    let e = fb
        .entries()
        .map(|e| e.unwrap())
        .find(|e| e.compression().unwrap() == fatbin::Compression::Lz4)
        .unwrap();
    for declared in [
        0u64,
        1,
        e.decompressed_size - 1,
        e.decompressed_size + 1,
        1 << 33,
    ] {
        let mut p = d.clone();
        p[e.offset + 0x38..e.offset + 0x40].copy_from_slice(&declared.to_le_bytes());
        let fb = Fatbin::parse(&p).unwrap();
        let e = fb
            .entries()
            .map(|e| e.unwrap())
            .find(|x| x.offset == e.offset)
            .unwrap();
        assert!(e.decompress().is_err(), "declared {declared}");
    }
}

#[test]
fn zstd_fixture_with_wrong_declared_size() {
    let d = fixture("tiny_zstd.fatbin");
    let fb = Fatbin::parse(&d).unwrap();
    let offs: Vec<(usize, u64)> = fb
        .entries()
        .map(|e| e.unwrap())
        .filter(|e| e.compression().unwrap() == fatbin::Compression::Zstd)
        .map(|e| (e.offset, e.decompressed_size))
        .collect();
    assert!(!offs.is_empty());
    for (off, size) in offs {
        for declared in [0u64, size - 1, size + 1, 1 << 31, u64::MAX] {
            let mut p = d.clone();
            p[off + 0x38..off + 0x40].copy_from_slice(&declared.to_le_bytes());
            let fb = Fatbin::parse(&p).unwrap();
            let e = fb
                .entries()
                .map(|e| e.unwrap())
                .find(|x| x.offset == off)
                .unwrap();
            assert!(e.decompress().is_err(), "declared {declared}");
        }
    }
}

#[test]
fn nv_info_records() {
    use fatbin::cubin::{parse_attributes, AttrValue};
    // Unknown format, a sized value past the end, and an odd tail.
    assert!(parse_attributes(&[9, 1, 0, 0]).is_err());
    assert!(parse_attributes(&[4, 0x17, 0xff, 0xff, 1, 2]).is_err());
    assert!(parse_attributes(&[3, 0x1b, 0xff]).is_err());
    let a = parse_attributes(&[
        3, 0x1b, 0xff, 0, 1, 0x3e, 0, 0, 4, 0x37, 4, 0, 0x82, 0, 0, 0,
    ])
    .unwrap();
    assert_eq!(a.len(), 3);
    assert_eq!(a[0].half(), Some(255));
    assert_eq!(a[1].value, AttrValue::None);
    assert_eq!(a[2].word(0), Some(0x82));
}
