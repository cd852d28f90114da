//! The `[openings]` table: how many random plies open each game pair, or
//! a file of openings.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use endodoi::Rules;
use serde::Deserialize;
use toml::Spanned;

use super::errors::{span_of, ConfigError, Place};
use super::paths::current_dir_hint;
use super::text::strip_bom;
use super::Host;

/// What is wrong with an openings file.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// It cannot be read.
    #[error("openings.file {}: {cause}{}", path.display(), hint.as_deref().unwrap_or("; check the path (relative to the config file's folder)"))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
        /// The [`current_dir_hint`], when the current directory has the
        /// file as written.
        hint: Option<String>,
    },
    /// A line is not a legal opening that leaves the game on.
    #[error("openings.file {}:{line}: {why}", path.display())]
    Bad {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong, and the fix.
        why: String,
    },
    /// It holds no opening.
    #[error("openings.file {} holds no opening", .0.display())]
    Empty(PathBuf),
}

/// Why `word` is not a hole number, with the rule, as every reader of a
/// move list says it (the openings file, `arena replay`, `--opening`, the
/// checks of `games.csv`): `'01' is not a hole number: use 1 to 3, in plain
/// digits (no sign, no leading zero)`. `holes` is the board's holes per
/// row when known; without it the range is the largest board's, 1 to
/// [`endodoi::MAX_HOLES`].
#[must_use]
pub fn not_a_hole(word: &str, holes: Option<usize>) -> String {
    let top = holes.unwrap_or(endodoi::MAX_HOLES);
    format!(
        "'{word}' is not a hole number: use 1 to {top}, in plain digits (no sign, no leading zero)"
    )
}

/// Reads an openings file: one opening per line, own-perspective hole
/// numbers separated by spaces, South first; blank lines and lines starting
/// with `#` are skipped. Every opening must be legal and leave the game on.
fn read_openings(
    path: &Path,
    rules: Rules,
    host: &Host<'_>,
) -> Result<Vec<Vec<endodoi::Move>>, OpeningsError> {
    let text = (host.read)(path).map_err(|source| OpeningsError::Read {
        path: path.to_path_buf(),
        cause: source,
        hint: None,
    })?;
    let text = strip_bom(&text);
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| OpeningsError::Bad {
            path: path.to_path_buf(),
            line: i + 1,
            why,
        };
        let mut pos = rules.start();
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let mv = endodoi_protocol::parse_move(word)
                .ok()
                .ok_or_else(|| at(not_a_hole(word, Some(rules.holes()))))?;
            pos.play(mv).map_err(|e| at(format!("move {word}: {e}")))?;
            moves.push(mv);
        }
        if pos.is_over() {
            return Err(at("this opening ends the game: shorten it".into()));
        }
        book.push(moves);
    }
    if book.is_empty() {
        return Err(OpeningsError::Empty(path.to_path_buf()));
    }
    Ok(book)
}

/// The `[openings]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([openings] on a line of its own, its keys below)"
)]
pub(super) struct RawOpenings {
    pub(super) plies_min: Option<Spanned<i64>>,
    pub(super) plies_max: Option<Spanned<i64>>,
    pub(super) file: Option<Spanned<String>>,
}

/// The `[openings]` table checked.
pub(super) struct Openings {
    /// `plies_min..=plies_max`.
    pub(super) plies: RangeInclusive<u32>,
    /// Whether the file sets `plies_min` or `plies_max`.
    pub(super) plies_set: bool,
    /// The openings of `file`, read.
    pub(super) book: Option<Vec<Vec<endodoi::Move>>>,
    /// `file`, resolved from the config's folder.
    pub(super) file: Option<PathBuf>,
}

/// Checks `[openings]` `o`; its `file` is resolved from `base`, read by
/// `host`, and each opening played on `rules`.
pub(super) fn openings(
    o: &RawOpenings,
    rules: Rules,
    base: &Path,
    host: &Host<'_>,
    p: &Place<'_>,
) -> Result<Openings, ConfigError> {
    let plies_min = p.int(&o.plies_min, "openings.plies_min", 0, 100, 2)? as u32;
    let plies_max = p.int(
        &o.plies_max,
        "openings.plies_max",
        0,
        100,
        i64::from(plies_min.max(4)),
    )? as u32;
    if plies_max < plies_min {
        return Err(p.at(
            span_of(&o.plies_max),
            "openings.plies_max is below plies_min: make it at least as large",
        ));
    }
    let book = match &o.file {
        None => None,
        Some(f) => {
            Some(book(f, rules, base, host).map_err(|e| p.at(Some(f.span()), &e.to_string()))?)
        }
    };
    Ok(Openings {
        plies: plies_min..=plies_max,
        plies_set: o.plies_min.is_some() || o.plies_max.is_some(),
        book,
        file: o.file.as_ref().map(|f| base.join(f.get_ref())),
    })
}

/// The openings of file `f` (as written), resolved from `base`: missing
/// there but present where paths used to start from (the host reads a
/// relative path from the current directory), its error says so.
fn book(
    f: &Spanned<String>,
    rules: Rules,
    base: &Path,
    host: &Host<'_>,
) -> Result<Vec<Vec<endodoi::Move>>, OpeningsError> {
    read_openings(&base.join(f.get_ref()), rules, host).map_err(|e| match e {
        OpeningsError::Read {
            path,
            cause: source,
            ..
        } if source.kind() == std::io::ErrorKind::NotFound
            && Path::new(f.get_ref()).is_relative()
            && !base.as_os_str().is_empty()
            && (host.read)(Path::new(f.get_ref())).is_ok() =>
        {
            OpeningsError::Read {
                path,
                cause: source,
                hint: Some(current_dir_hint(Path::new(f.get_ref()), base)),
            }
        }
        e => e,
    })
}
