//! `arena tablebase build`: the endgame tables of a board
//! ([`endodoi_tablebase`]), one checksummed file per layer of seeds on the
//! board and `manifest.toml` (docs/tablebases.md).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use endodoi_tablebase::{crc32, encode_layer, Tables, FORMAT_VERSION};

use crate::output::tablebase::{layer_file, Board, Build, LayerEntry, Manifest, MANIFEST};

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

/// Builds the tables layer by layer, writing each layer's file as it is
/// done, then `manifest.toml`; a status line per layer.
///
/// # Errors
/// Bad parameters (holes, seeds, lap limit, a layer too big), an `out`
/// that already holds tables or is a file, or a file that cannot be
/// written.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let mut tables = Tables::new(options.holes, options.max_laps)?;
    // Runs name their tables by folder: tables built over others would make
    // those runs' rows fail their checks.
    anyhow::ensure!(
        !options.out.join(MANIFEST).exists(),
        "{} already holds tables ({MANIFEST}): choose another --out, or remove the folder first (runs adjudicated by those tables need them to check their games)",
        options.out.display()
    );
    anyhow::ensure!(
        !options.out.is_file(),
        "{} is a file: --out names the folder to write the tables to",
        options.out.display()
    );
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
    write(&options.out.join(MANIFEST), text.as_bytes())?;
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
