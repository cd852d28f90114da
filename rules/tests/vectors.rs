//! Every row of the rule vectors replayed against the engine. The vectors
//! are `tests/vectors.csv`, the project's `../shared/vectors/rules.csv`
//! copied into this crate so that a clone passes its tests alone; where
//! `../shared` is beside the checkout, a test checks the copies (this one
//! and `RULES.md`) are still the project's own.

use std::path::PathBuf;

use endodoi::{Move, Rules, Side};

fn vectors_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors.csv")
}

fn numbers(s: &str) -> Vec<u32> {
    s.split_whitespace().map(|x| x.parse().unwrap()).collect()
}

#[test]
fn all_rule_vectors_pass() {
    let path = vectors_path();
    let mut reader = csv::Reader::from_path(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut rows = 0;
    for (i, record) in reader.records().enumerate() {
        let r = record.unwrap();
        let line = i + 2;
        let rules = Rules::new(r[0].parse().unwrap(), r[1].parse().unwrap()).unwrap();
        let mut pos = rules.start();
        for mv in numbers(&r[2]) {
            pos.play(Move::new(mv as u8).unwrap())
                .unwrap_or_else(|e| panic!("line {line}: move {mv} in {pos}: {e}"));
        }
        assert_eq!(pos.ring(), numbers(&r[3]).as_slice(), "line {line}: board");
        assert_eq!(
            pos.captured(Side::South),
            r[4].parse::<u32>().unwrap(),
            "line {line}: south_seeds"
        );
        assert_eq!(
            pos.captured(Side::North),
            r[5].parse::<u32>().unwrap(),
            "line {line}: north_seeds"
        );
        assert_eq!(
            pos.to_move(),
            r[6].parse::<Side>().unwrap(),
            "line {line}: to_move"
        );
        let ended = pos.outcome().map(|o| o.termination.name()).unwrap_or("");
        assert_eq!(ended, &r[7], "line {line}: ended");
        assert_eq!(pos.legal_moves().to_string(), &r[8], "line {line}: legal");
        rows += 1;
    }
    assert!(rows >= 70, "only {rows} vector rows read");
}

#[test]
fn endless_example_from_rules_md() {
    let mut pos = Rules::new(4, 4).unwrap().start();
    for mv in [4, 3, 2, 4, 1] {
        pos.play(Move::new(mv).unwrap()).unwrap();
    }
    assert_eq!(pos.ring(), &[0, 5, 0, 1, 2, 0, 6, 5]);
    assert_eq!(pos.to_move(), Side::North);
    assert_eq!(pos.legal_moves().to_string(), "3 4");
    let err = pos.clone().play(Move::new(1).unwrap()).unwrap_err();
    assert!(
        matches!(err, endodoi::IllegalMove::Endless { hole: 1, .. }),
        "{err}"
    );
}

#[test]
fn the_copies_in_this_crate_are_the_projects_own() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = crate_dir.join("../../shared");
    if !shared.join("RULES.md").exists() {
        // Straight to stderr: libtest captures a passing test's eprintln!.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: no ../shared beside the checkout (a clone from a forge has none), so the copies of RULES.md and the vectors cannot be compared with it"
        );
        return;
    }
    for (copy, original) in [
        ("RULES.md", "RULES.md"),
        ("tests/vectors.csv", "vectors/rules.csv"),
    ] {
        let copy_text = std::fs::read_to_string(crate_dir.join(copy)).unwrap();
        let original_text = std::fs::read_to_string(shared.join(original)).unwrap();
        assert!(
            copy_text == original_text,
            "rules/{copy} differs from ../shared/{original}: copy it again"
        );
    }
}
