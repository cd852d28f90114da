//! The bytes of a layer file, both ways (the caller reads and writes them).
//!
//! Layout, little-endian: the magic `EDTB`, the format version (`u16`, 1),
//! holes per row (`u8`), seeds on the board (`u8`), the lap limit (`u32`),
//! the number of positions (`u64`); then 4 bytes per position in rank order
//! ([`Value::to_bytes`]); then the CRC-32 (IEEE 802.3, as zlib and PNG) of
//! all the bytes before it (`u32`).

use std::fmt;

use crate::{Layer, Value};

/// The file format's version, written in every header.
pub const FORMAT_VERSION: u16 = 1;

const MAGIC: &[u8; 4] = b"EDTB";
const HEADER: usize = 20;

/// The CRC-32 (IEEE 802.3, the checksum of zlib, gzip and PNG) of `bytes`,
/// by the `crc32fast` crate.
///
/// ```
/// assert_eq!(endodoi_tablebase::crc32(b"123456789"), 0xCBF4_3926);
/// ```
#[must_use]
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// A layer's header, as read from its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Holes per row.
    pub holes: u8,
    /// Seeds on the board.
    pub seeds: u8,
    /// The lap limit the values are for.
    pub max_laps: u32,
    /// Positions in the layer.
    pub positions: u64,
}

/// Why a layer file's bytes were refused by [`decode_layer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Not a layer file: the magic or version differ, or it is too short.
    NotALayer,
    /// The length does not fit the header's count of positions.
    Length,
    /// The checksum differs: holds the one stored and the one computed.
    Checksum(u32, u32),
    /// A value no build can give (the file was written by something else,
    /// or edited and checksummed again): the position's rank and why.
    BadValue(u64, &'static str),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotALayer => write!(f, "not a tablebase layer of format {FORMAT_VERSION}"),
            FileError::Length => f.write_str("the file's length does not fit its header"),
            FileError::Checksum(stored, computed) => write!(
                f,
                "checksum {stored:08x} stored, {computed:08x} computed: the file is damaged"
            ),
            FileError::BadValue(rank, why) => write!(
                f,
                "position {rank} has {why}: no build writes that, the file was altered"
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// The bytes of `layer`'s file for a 2x`holes` board under `max_laps`.
///
/// # Panics
/// When `holes` or the layer's seeds exceed 255 (the tables never do).
#[must_use]
pub fn encode_layer(holes: usize, max_laps: u32, layer: &Layer) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + 4 * layer.values().len() + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(u8::try_from(holes).expect("at most 50 holes"));
    out.push(u8::try_from(layer.seeds()).expect("at most 126 seeds"));
    out.extend_from_slice(&max_laps.to_le_bytes());
    out.extend_from_slice(&(layer.values().len() as u64).to_le_bytes());
    for v in layer.values() {
        out.extend_from_slice(&v.to_bytes());
    }
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The header and layer of a file's bytes, checked.
///
/// # Errors
/// [`FileError`]: not a layer file, a wrong length, a wrong checksum.
pub fn decode_layer(bytes: &[u8]) -> Result<(Header, Layer), FileError> {
    if bytes.len() < HEADER + 4
        || &bytes[..4] != MAGIC
        || bytes[4..6] != FORMAT_VERSION.to_le_bytes()
    {
        return Err(FileError::NotALayer);
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let header = Header {
        holes: bytes[6],
        seeds: bytes[7],
        max_laps: word(8),
        positions: u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes")),
    };
    let body = usize::try_from(header.positions)
        .ok()
        .and_then(|n| n.checked_mul(4))
        .ok_or(FileError::Length)?;
    if bytes.len() != HEADER + body + 4 || header.holes < 2 {
        return Err(FileError::Length);
    }
    let (stored, computed) = (word(HEADER + body), crc32(&bytes[..HEADER + body]));
    if stored != computed {
        return Err(FileError::Checksum(stored, computed));
    }
    let values: Vec<Value> = bytes[HEADER..HEADER + body]
        .chunks_exact(4)
        .map(|c| Value::from_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let seeds = i32::from(header.seeds);
    for (rank, v) in values.iter().enumerate() {
        possible(*v, seeds).map_err(|why| FileError::BadValue(rank as u64, why))?;
    }
    let layer = Layer::from_values(2 * header.holes as usize, u32::from(header.seeds), values)
        .ok_or(FileError::Length)?;
    Ok((header, layer))
}

/// Whether `v` is a value a position with `seeds` on the board can have:
/// each bound a margin within `-seeds..=seeds` of the parity of `seeds`
/// (every seed goes to one side), and `lo <= hi`.
fn possible(v: Value, seeds: i32) -> Result<(), &'static str> {
    for m in [v.lo(), v.hi()].into_iter().flatten() {
        if m.abs() > seeds {
            return Err("a margin beyond the seeds on the board");
        }
        if (seeds - m) % 2 != 0 {
            return Err("a margin of the other parity than the seeds on the board");
        }
    }
    match (v.lo(), v.hi()) {
        (Some(lo), Some(hi)) if lo > hi => Err("lo above hi"),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_survives_its_file_and_damage_is_caught() {
        let tables = crate::build(3, 5).unwrap();
        let layer = &tables.layers()[5];
        let mut bytes = encode_layer(3, tables.max_laps(), layer);
        let (header, back) = decode_layer(&bytes).unwrap();
        assert_eq!((header.holes, header.seeds, header.positions), (3, 5, 252));
        assert_eq!(&back, layer);
        bytes[HEADER + 9] ^= 1;
        assert!(matches!(decode_layer(&bytes), Err(FileError::Checksum(..))));
        assert_eq!(decode_layer(&bytes[..30]), Err(FileError::Length));
        assert_eq!(decode_layer(b"nope"), Err(FileError::NotALayer));
    }

    #[test]
    fn impossible_values_are_refused_even_with_a_good_checksum() {
        let tables = crate::build(3, 5).unwrap();
        let layer = &tables.layers()[5];
        let good = encode_layer(3, tables.max_laps(), layer);
        // (lo, hi) bytes of position 7: beyond 5 seeds, of the wrong
        // parity, and lo above hi; each file checksummed again.
        for (lo, hi) in [(100u8, 100u8), (2, 2), (5, 3)] {
            let mut bytes = good.clone();
            bytes[HEADER + 4 * 7] = lo;
            bytes[HEADER + 4 * 7 + 1] = hi;
            let end = bytes.len() - 4;
            let crc = crc32(&bytes[..end]).to_le_bytes();
            bytes[end..].copy_from_slice(&crc);
            assert!(
                matches!(decode_layer(&bytes), Err(FileError::BadValue(7, _))),
                "({lo}, {hi}): {:?}",
                decode_layer(&bytes).err()
            );
        }
    }
}
