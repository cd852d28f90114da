//! Configs for the tests' runs: the repository's root, a config file of
//! settings and bots, and the commands of the bundled and Python bots.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Writes `dir/t.toml`: `header` (settings) and one `[[bot]]` table per bot.
pub fn config<N: AsRef<str>>(dir: &Path, header: &str, bots: &[(N, Vec<String>)]) -> PathBuf {
    write_config(dir, "t.toml", &format!("{header}{}", bot_tables(bots)))
}

/// One `[[bot]]` table per bot, each after a blank line: its name and its
/// command (each word quoted).
pub fn bot_tables<N: AsRef<str>>(bots: &[(N, Vec<String>)]) -> String {
    let mut text = String::new();
    for (name, command) in bots {
        let command: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{}\"\ncommand = [{}]\n",
            name.as_ref(),
            command.join(", ")
        ));
    }
    text
}

/// Writes `text` as `path` the way an editor's atomic save does: a
/// temporary file (`path` with the extension `toml.tmp`) renamed over it.
pub fn save_atomically(path: &Path, text: &str) {
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Writes the config `text` as `dir/name` and returns its path.
pub fn write_config(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The command of a bundled bot, seeded.
pub fn arena_bot(name: &str, seed: u64) -> Vec<String> {
    vec![
        "arena".into(),
        "bot".into(),
        name.into(),
        "--seed".into(),
        seed.to_string(),
    ]
}

/// The command of a Python bot.
pub fn python(script: &Path, args: &[&str]) -> Vec<String> {
    let mut v = vec!["python3".to_string(), script.display().to_string()];
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

/// The settings of a match that stops when its test decides: a 6-hole
/// board and an SPRT of 0 against 50 logistic Elo.
pub const LOGISTIC_SPRT: &str =
    "[board]\nholes = 6\n[sprt]\nelo0 = 0\nelo1 = 50\nmodel = \"logistic\"\n";

/// Two bots named `names`: greedy seeded 1, then random seeded 2.
pub fn greedy_and_random(names: [&'static str; 2]) -> [(&'static str, Vec<String>); 2] {
    [
        (names[0], arena_bot("greedy", 1)),
        (names[1], arena_bot("random", 2)),
    ]
}

/// A new temporary folder holding the config [`config`] writes of
/// `header` and `bots`; the folder (removed when dropped) and the
/// config's path.
pub fn temp_config<N: AsRef<str>>(
    header: &str,
    bots: &[(N, Vec<String>)],
) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), header, bots);
    (tmp, cfg)
}

/// `n` seeded bundled bots `b1`..`bn` (greedy, random and first in turn),
/// each given the further arguments `args`.
pub fn bundled_field(n: usize, args: &[&str]) -> Vec<(String, Vec<String>)> {
    (1..=n)
        .map(|i| {
            let kind = ["greedy", "random", "first"][i % 3];
            let command = ["arena", "bot", kind, "--seed", &i.to_string()]
                .iter()
                .chain(args)
                .map(|s| s.to_string())
                .collect();
            (format!("b{i}"), command)
        })
        .collect()
}
