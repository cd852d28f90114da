//! `docs/output-files.md` documents every column of every CSV file of a run
//! folder: for each file, a heading `### `FILE.csv`` and a table whose rows
//! start with the column's name in backticks, in the file's order. The
//! columns come from the row types the writers serialize
//! (`arena::output::rows`), so a column cannot be added, renamed or moved
//! without its documentation.

use std::collections::BTreeMap;

use arena::output::rows::ALL_FILES;

/// The columns documented per CSV file: the first cell, in backticks, of
/// each table row under the file's `### `FILE.csv`` heading.
fn documented(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut files = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with('#') {
            current = line
                .strip_prefix("### `")
                .and_then(|rest| rest.strip_suffix('`'))
                .filter(|name| name.ends_with(".csv"))
                .map(str::to_string);
            if let Some(name) = &current {
                assert!(
                    files.insert(name.clone(), Vec::new()).is_none(),
                    "docs/output-files.md has two sections for {name}"
                );
            }
            continue;
        }
        let Some(name) = &current else { continue };
        let Some(cell) = line.trim().strip_prefix("| `") else {
            continue;
        };
        if let Some((column, _)) = cell.split_once('`') {
            files.get_mut(name).unwrap().push(column.to_string());
        }
    }
    files
}

#[test]
fn every_column_of_every_csv_file_is_documented_in_order() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/output-files.md");
    let text = std::fs::read_to_string(path).expect("docs/output-files.md");
    let docs = documented(&text);
    for (file, columns) in ALL_FILES {
        let Some(listed) = docs.get(file) else {
            panic!("docs/output-files.md has no section \"### `{file}`\"");
        };
        let missing: Vec<&str> = columns
            .iter()
            .copied()
            .filter(|c| !listed.iter().any(|l| l == c))
            .collect();
        assert!(
            missing.is_empty(),
            "docs/output-files.md does not document {file}'s column(s) {missing:?}"
        );
        assert_eq!(
            listed, columns,
            "docs/output-files.md lists {file}'s columns other than the file has them, in order"
        );
    }
    for file in docs.keys() {
        assert!(
            ALL_FILES.iter().any(|(f, _)| f == file),
            "docs/output-files.md documents {file}, which the arena does not write"
        );
    }
}

#[test]
fn the_parser_finds_sections_and_columns() {
    let docs = documented(
        "# Output\n\n### `a.csv`\n\n| column | meaning |\n|---|---|\n| `x` | the x |\n| `y` | why |\n\n\
         ### `report.html`\n\n| `z` | not a CSV |\n\n### `b.csv`\n| `w` | w |\n",
    );
    assert_eq!(docs.len(), 2);
    assert_eq!(docs["a.csv"], ["x", "y"]);
    assert_eq!(docs["b.csv"], ["w"]);
}
