//! The documentation keeps up with the code: README.md stays a short front
//! door whose command table lists every subcommand of `arena --help` and
//! links every page of `docs/`, and every relative link of every Markdown
//! file resolves (`tools/check_links.py`). The demo's table is checked by
//! `tournament.rs`, `the_readme_shows_the_demo_table_as_it_is`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

/// The README is the front door; everything else lives in docs/.
const README_MAX_BYTES: usize = 15_000;

#[test]
fn the_readme_is_at_most_15_kb() {
    let size = readme().len();
    assert!(
        size <= README_MAX_BYTES,
        "README.md is {size} bytes, more than {README_MAX_BYTES}: move the detail into a page of docs/"
    );
}

/// The subcommands `arena --help` lists (all but `help`).
fn subcommands() -> Vec<String> {
    let output = Command::cargo_bin("arena")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    let commands: Vec<String> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(commands.len() >= 11, "{help}");
    commands
}

#[test]
fn the_readme_command_table_lists_every_subcommand() {
    let readme = readme();
    let section = readme
        .split("\n## Commands\n")
        .nth(1)
        .expect("README.md has a section \"## Commands\"");
    let section = section.split("\n## ").next().unwrap();
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| `arena "))
        .collect();
    for command in subcommands() {
        let cell = format!("| `arena {command}");
        assert!(
            rows.iter()
                .any(|row| row.starts_with(&cell) && row[cell.len()..].starts_with([' ', '`'])),
            "README.md's command table has no row for `arena {command}`"
        );
    }
}

#[test]
fn the_readme_links_every_page_of_docs() {
    let readme = readme();
    let mut pages: Vec<String> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .collect();
    pages.sort();
    for page in [
        "architecture.md",
        "bots.md",
        "clusters.md",
        "configuration.md",
        "output-files.md",
        "performance.md",
        "ratings.md",
        "sandbox.md",
    ] {
        assert!(pages.iter().any(|p| p == page), "docs/{page} is missing");
    }
    for page in &pages {
        assert!(
            readme.contains(&format!("](docs/{page})")),
            "README.md does not link docs/{page}"
        );
    }
}

#[test]
fn every_relative_link_of_the_markdown_files_resolves() {
    let output = std::process::Command::new("python3")
        .arg(repo().join("tools/check_links.py"))
        .arg(repo())
        .output()
        .expect("python3 runs tools/check_links.py");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("relative links resolve"), "{stdout}");
}
