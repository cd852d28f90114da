//! `arena tablebase build`: the endgame tables of a board
//! ([`endodoi_tablebase`]), one checksummed file per layer of seeds on the
//! board and `manifest.toml` (docs/tablebases.md).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use endodoi_tablebase::{crc32, encode_layer, LayerStats, Tables, FORMAT_VERSION};
use serde::{Deserialize, Serialize};

use super::{Console, Outcome};

/// What `arena tablebase build` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// Holes per row (2 to 50).
    pub holes: usize,
    /// The most seeds on the board: layers 0 to this are built (at most 126).
    pub seeds_on_board: u32,
    /// The lap limit of the rules (RULES.md, "Endless sowing").
    pub max_laps: u32,
    /// The folder to write; created if missing. Layer files in it are overwritten.
    pub out: PathBuf,
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

/// Builds the tables layer by layer, writing each layer's file as it is
/// done, then `manifest.toml`; a status line per layer.
///
/// # Errors
/// Bad parameters (holes, seeds, lap limit, a layer too big), or a file
/// that cannot be written.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let mut tables = Tables::new(options.holes, options.max_laps)?;
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("cannot create {}", options.out.display()))?;
    let mut layers = Vec::new();
    for _ in 0..=options.seeds_on_board {
        let at = Instant::now();
        let layer = tables.build_next()?;
        let bytes = encode_layer(options.holes, options.max_laps, layer);
        let file = layer_file(layer.seeds());
        write(&options.out.join(&file), &bytes)?;
        let stats = layer.stats();
        let seconds = at.elapsed().as_secs_f64();
        console.note(format_args!(
            "arena: layer {:>3}: {} positions, {} resolved ({} won, {} drawn, {} lost), {} unresolved, {seconds:.2} s",
            stats.seeds, stats.positions, stats.resolved, stats.won, stats.drawn, stats.lost, stats.unresolved
        ));
        layers.push(LayerEntry::new(
            &stats,
            file,
            crc32(&bytes[..bytes.len() - 4]),
            seconds,
        ));
    }
    let manifest = Manifest {
        board: Board {
            holes: options.holes,
            max_laps: options.max_laps,
            max_seeds_on_board: options.seeds_on_board,
            format: FORMAT_VERSION,
        },
        build: Build {
            seconds: started.elapsed().as_secs_f64(),
            arena_version: env!("CARGO_PKG_VERSION").to_string(),
        },
        layer: layers,
    };
    let text = toml::to_string(&manifest).context("cannot write the manifest as TOML")?;
    write(&options.out.join("manifest.toml"), text.as_bytes())?;
    console.note(format_args!(
        "arena: wrote the tables of 2x{} up to {} seeds on the board to {} in {:.2} s",
        options.holes,
        options.seeds_on_board,
        options.out.display(),
        manifest.build.seconds
    ));
    Ok(Outcome::Success)
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
