//! `arena tablebase build`: the files it writes agree with the library's
//! tables, and the manifest's counts with the library's.

use assert_cmd::Command;
use endodoi_tablebase::{build, crc32, decode_layer};

/// `arena tablebase build --holes HOLES --seeds-on-board SEEDS --out OUT`,
/// to run.
fn arena_build(holes: u32, seeds: u32, out: &std::path::Path) -> Command {
    let mut command = Command::cargo_bin("arena").unwrap();
    command
        .args(["tablebase", "build", "--holes", &holes.to_string()])
        .args(["--seeds-on-board", &seeds.to_string(), "--out"])
        .arg(out);
    command
}

#[test]
fn the_manifest_and_files_of_2x3_to_8_seeds_agree_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tb");
    arena_build(3, 8, &out).assert().success();
    let manifest_text = std::fs::read_to_string(out.join("manifest.toml")).unwrap();
    // Built again over them (another board, say): refused, nothing touched.
    let again = arena_build(4, 2, &out).output().unwrap();
    let said = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{said}");
    assert!(said.contains("already holds tables"), "{said}");
    assert_eq!(
        std::fs::read_to_string(out.join("manifest.toml")).unwrap(),
        manifest_text
    );
    let manifest: toml::Value = toml::from_str(&manifest_text).unwrap();
    let board = &manifest["board"];
    assert_eq!(board["holes"].as_integer(), Some(3));
    assert_eq!(
        board["max_laps"].as_integer(),
        Some(i64::from(endodoi::DEFAULT_MAX_LAPS))
    );
    assert_eq!(board["max_seeds_on_board"].as_integer(), Some(8));
    assert!(manifest["build"]["seconds"].as_float().unwrap() >= 0.0);
    let tables = build(3, 8).unwrap();
    let layers = manifest["layer"].as_array().unwrap();
    assert_eq!(layers.len(), 9);
    let mut unresolved = 0;
    for (entry, layer) in layers.iter().zip(tables.layers()) {
        let stats = layer.stats();
        let count = |key: &str| entry[key].as_integer().unwrap() as u64;
        assert_eq!(count("seeds"), u64::from(stats.seeds));
        assert_eq!(count("positions"), stats.positions);
        assert_eq!(count("resolved"), stats.resolved);
        assert_eq!(count("won"), stats.won);
        assert_eq!(count("drawn"), stats.drawn);
        assert_eq!(count("lost"), stats.lost);
        assert_eq!(count("unresolved"), stats.unresolved);
        assert_eq!(count("longest_forced_ending"), u64::from(stats.longest));
        unresolved += stats.unresolved;
        // The file holds the library's values, under the manifest's checksum.
        let bytes = std::fs::read(out.join(entry["file"].as_str().unwrap())).unwrap();
        let (header, read) = decode_layer(&bytes).unwrap();
        assert_eq!((header.holes, u32::from(header.seeds)), (3, stats.seeds));
        assert_eq!(&read, layer);
        let crc = format!("{:08x}", crc32(&bytes[..bytes.len() - 4]));
        assert_eq!(entry["crc32"].as_str(), Some(crc.as_str()));
    }
    assert_eq!(
        unresolved,
        25 + 89 + 81 + 219,
        "the counts moved: {layers:?}"
    );
}

#[test]
fn a_board_too_small_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    arena_build(1, 3, dir.path()).assert().code(2);
}
