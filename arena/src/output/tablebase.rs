//! Endgame tables on disk: `manifest.toml` and the layer files that
//! `arena tablebase build` writes (docs/tablebases.md), and [`load`], which
//! reads a folder back into [`Tables`] with every file checked against the
//! manifest. Memory: the whole folder is read (4 bytes per position: a
//! 2x6 folder to 20 seeds on the board holds about 0.9 GB of values), one
//! layer file in memory at a time beside the layers read so far.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use endodoi_tablebase::{crc32, decode_layer, LayerStats, Tables, FORMAT_VERSION};
use serde::{Deserialize, Serialize};

/// The manifest's file name in a tables folder.
pub const MANIFEST: &str = "manifest.toml";

/// Why a tables folder could not be read ([`load`]); each names the file,
/// the problem and the fix.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file that cannot be read.
    #[error("{}: cannot read it: {cause}; give the folder `arena tablebase build --out` wrote", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        cause: std::io::Error,
    },
    /// A manifest that is not one of `arena tablebase build`.
    #[error("{}: {problem}; rebuild the folder with `arena tablebase build`", path.display())]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong, in words.
        problem: String,
    },
    /// A layer file that disagrees with the manifest or is damaged.
    #[error("{}: {problem}; rebuild the folder with `arena tablebase build --holes {holes} --seeds-on-board {seeds} --max-laps {max_laps}`", path.display())]
    Layer {
        /// The layer file.
        path: PathBuf,
        /// What is wrong, in words.
        problem: String,
        /// The manifest's holes per row.
        holes: usize,
        /// The manifest's most seeds on the board.
        seeds: u32,
        /// The manifest's lap limit.
        max_laps: u32,
    },
}

/// The manifest of a built table, `manifest.toml` in its folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The board and rules the tables are for.
    pub board: Board,
    /// How the build went.
    pub build: Build,
    /// One entry per layer, 0 seeds on the board first.
    pub layer: Vec<LayerEntry>,
}

/// `[board]` of the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// Holes per row.
    pub holes: usize,
    /// The lap limit the values are for, in laps.
    pub max_laps: u32,
    /// The most seeds on the board of any layer.
    pub max_seeds_on_board: u32,
    /// The layer files' format version.
    pub format: u16,
}

/// `[build]` of the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// Wall-clock seconds for all layers (files included).
    pub seconds: f64,
    /// The arena's version that built them.
    pub arena_version: String,
}

/// `[[layer]]` of the manifest: [`LayerStats`] and its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerEntry {
    /// Seeds on the board.
    pub seeds: u32,
    /// The layer's file, in the manifest's folder.
    pub file: String,
    /// The CRC-32 of the file's bytes but the last four (which hold it), as 8 hex digits.
    pub crc32: String,
    /// Positions (boards with the side to move).
    pub positions: u64,
    /// Positions with an exact forced value.
    pub resolved: u64,
    /// Resolved, won by the side to move.
    pub won: u64,
    /// Resolved, drawn.
    pub drawn: u64,
    /// Resolved, lost by the side to move.
    pub lost: u64,
    /// Positions whose best play needs the ply limit.
    pub unresolved: u64,
    /// The longest forced ending among the resolved, in plies.
    pub longest_forced_ending: u32,
    /// Wall-clock seconds to build this layer and write its file.
    pub seconds: f64,
}

impl LayerEntry {
    /// The manifest's entry of a layer with these counts.
    #[must_use]
    pub fn new(stats: &LayerStats, file: String, crc32: u32, seconds: f64) -> LayerEntry {
        LayerEntry {
            seeds: stats.seeds,
            file,
            crc32: format!("{crc32:08x}"),
            positions: stats.positions,
            resolved: stats.resolved,
            won: stats.won,
            drawn: stats.drawn,
            lost: stats.lost,
            unresolved: stats.unresolved,
            longest_forced_ending: stats.longest,
            seconds,
        }
    }
}

/// The name of the file of the layer with `seeds` seeds on the board.
#[must_use]
pub fn layer_file(seeds: u32) -> String {
    format!("layer-{seeds:03}.edtb")
}

/// The manifest of the tables folder `dir`, parsed.
///
/// # Errors
/// [`LoadError::Read`] or [`LoadError::Manifest`].
pub fn read_manifest(dir: &Path) -> Result<Manifest, LoadError> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|source| LoadError::Read {
        path: path.clone(),
        cause: source,
    })?;
    let manifest: Manifest = toml::from_str(&text).map_err(|e| LoadError::Manifest {
        path: path.clone(),
        problem: format!("not a tables manifest ({})", e.message()),
    })?;
    let board = &manifest.board;
    let problem = if board.format != FORMAT_VERSION {
        Some(format!(
            "format {} but this arena reads format {FORMAT_VERSION}",
            board.format
        ))
    } else if manifest.layer.len() != board.max_seeds_on_board as usize + 1 {
        Some(format!(
            "{} [[layer]] entries for layers 0 to {}",
            manifest.layer.len(),
            board.max_seeds_on_board
        ))
    } else {
        manifest
            .layer
            .iter()
            .enumerate()
            .find(|(k, l)| l.seeds as usize != *k)
            .map(|(k, l)| format!("[[layer]] {} has seeds {} (expected {k})", k + 1, l.seeds))
    };
    match problem {
        Some(problem) => Err(LoadError::Manifest { path, problem }),
        None => Ok(manifest),
    }
}

/// The tables of the folder `dir`, every layer read whole: each file's
/// header (board, lap limit, seeds, positions), size and CRC-32 checked
/// against the manifest and against its own bytes.
///
/// # Errors
/// [`LoadError`]: a file missing or unreadable, a manifest of another
/// format or out of order, a layer of another board, size or checksum.
pub fn load(dir: &Path) -> Result<Tables, LoadError> {
    let manifest = read_manifest(dir)?;
    let board = &manifest.board;
    let mut layers = Vec::with_capacity(manifest.layer.len());
    for entry in &manifest.layer {
        let path = dir.join(&entry.file);
        let fail = |problem: String| LoadError::Layer {
            path: path.clone(),
            problem,
            holes: board.holes,
            seeds: board.max_seeds_on_board,
            max_laps: board.max_laps,
        };
        let bytes = std::fs::read(&path).map_err(|source| LoadError::Read {
            path: path.clone(),
            cause: source,
        })?;
        let crc = bytes
            .len()
            .checked_sub(4)
            .map(|n| format!("{:08x}", crc32(&bytes[..n])));
        if crc.as_deref() != Some(entry.crc32.as_str()) {
            return Err(fail(format!(
                "CRC-32 {} but the manifest says {}: the file is damaged or from another build",
                crc.unwrap_or_else(|| "of nothing".into()),
                entry.crc32
            )));
        }
        let (header, layer) = decode_layer(&bytes).map_err(|e| fail(e.to_string()))?;
        let expected = (board.holes, entry.seeds, board.max_laps, entry.positions);
        let found = (
            usize::from(header.holes),
            u32::from(header.seeds),
            header.max_laps,
            header.positions,
        );
        if found != expected {
            return Err(fail(format!(
                "holds 2x{} with {} seeds on the board, max_laps {}, {} positions, but the manifest says 2x{} with {} seeds, max_laps {}, {} positions",
                found.0, found.1, found.2, found.3, expected.0, expected.1, expected.2, expected.3
            )));
        }
        layers.push(layer);
    }
    Tables::from_layers(board.holes, board.max_laps, layers).ok_or_else(|| LoadError::Manifest {
        path: dir.join(MANIFEST),
        problem: format!(
            "holes {} or max_laps {} out of range",
            board.holes, board.max_laps
        ),
    })
}

/// The tables of `dir` ([`load`]), read at most once per process: the run,
/// its summaries and its report share one copy, which stays in memory until
/// the arena exits (tables are read-only).
///
/// # Errors
/// As [`load`].
pub fn shared(dir: &Path) -> Result<Arc<Tables>, LoadError> {
    static READ: OnceLock<Mutex<HashMap<PathBuf, Arc<Tables>>>> = OnceLock::new();
    let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let cache = READ.get_or_init(Mutex::default);
    if let Some(tables) = cache.lock().expect("not poisoned").get(&key) {
        return Ok(tables.clone());
    }
    let tables = Arc::new(load(dir)?);
    cache
        .lock()
        .expect("not poisoned")
        .insert(key, tables.clone());
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, tables: &Tables) {
        let mut layer = Vec::new();
        for l in tables.layers() {
            let bytes = endodoi_tablebase::encode_layer(tables.holes(), tables.max_laps(), l);
            let file = layer_file(l.seeds());
            std::fs::write(dir.join(&file), &bytes).unwrap();
            let crc = crc32(&bytes[..bytes.len() - 4]);
            layer.push(LayerEntry::new(&l.stats(), file, crc, 0.0));
        }
        let manifest = Manifest {
            board: Board {
                holes: tables.holes(),
                max_laps: tables.max_laps(),
                max_seeds_on_board: tables.layers().len() as u32 - 1,
                format: FORMAT_VERSION,
            },
            build: Build {
                seconds: 0.0,
                arena_version: "test".into(),
            },
            layer,
        };
        std::fs::write(dir.join(MANIFEST), toml::to_string(&manifest).unwrap()).unwrap();
    }

    #[test]
    fn a_folder_loads_back_and_each_fault_names_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let tables = endodoi_tablebase::build(2, 5).unwrap();
        write(dir.path(), &tables);
        let back = load(dir.path()).unwrap();
        assert_eq!(back.layers(), tables.layers());
        assert_eq!((back.holes(), back.max_laps()), (2, tables.max_laps()));

        // A flipped byte: the manifest's CRC-32 disagrees.
        let file = dir.path().join(layer_file(3));
        let good = std::fs::read(&file).unwrap();
        let mut bad = good.clone();
        bad[25] ^= 1;
        std::fs::write(&file, &bad).unwrap();
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}: CRC-32", file.display())), "{e}");
        assert!(
            e.contains("arena tablebase build --holes 2 --seeds-on-board 5"),
            "{e}"
        );
        // A missing layer.
        std::fs::remove_file(&file).unwrap();
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("cannot read it"), "{e}");
        std::fs::write(&file, &good).unwrap();
        // Another format in the manifest.
        let path = dir.path().join(MANIFEST);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("format = 1", "format = 9")).unwrap();
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("format 9 but this arena reads format 1"), "{e}");
        // A manifest whose layer has another board than its file.
        std::fs::write(&path, text.replace("holes = 2", "holes = 3")).unwrap();
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("holds 2x2"), "{e}");
    }
}
