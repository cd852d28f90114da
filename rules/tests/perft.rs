//! The move generator against the checked-in perft table `perft.csv`
//! (holes, seeds, depth, leaves). The table's smaller rows are recounted by
//! the independent Python engine, `tools/perft.py --check`, so both
//! implementations vouch for it.

use endodoi::{perft, Rules};

#[test]
fn perft_matches_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft.csv");
    let mut reader = csv::Reader::from_path(path).unwrap();
    let mut rows = 0;
    for record in reader.records() {
        let r = record.unwrap();
        let n = |i: usize| r[i].parse::<u64>().unwrap();
        let rules = Rules::new(n(0) as usize, n(1) as u32).unwrap();
        assert_eq!(
            perft(&rules.start(), n(2) as u32),
            n(3),
            "2x{} with {} seeds, depth {}",
            n(0),
            n(1),
            n(2)
        );
        rows += 1;
    }
    assert!(rows >= 40, "only {rows} rows");
}
