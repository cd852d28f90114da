//! Whether two config files play the same games, for a resume's refusal.

/// The first key by which two config files (their bytes) play other
/// games, for a resume's refusal: `None` when they play the same games
/// ([`same_games`]); `[tournament] seed`, `the [[bot]] tables`, or
/// `the file` when one is not TOML.
#[must_use]
pub fn games_difference(a: &[u8], b: &[u8]) -> Option<String> {
    if same_games(a, b) {
        return None;
    }
    let first = match (games_table(a), games_table(b)) {
        (Some(x), Some(y)) => crate::format::roster::changed_keys(&x, &y)
            .into_iter()
            .next(),
        _ => None,
    };
    Some(match first.as_deref() {
        None => "the file".into(),
        Some("bot") => "the [[bot]] tables".into(),
        Some(_) => first.unwrap_or_default(),
    })
}

/// Whether two config files (their bytes) play the same games: equal but
/// for `[tournament]` `concurrency` and `affinity`, which change only how
/// many games run at once and where, so a run may be resumed on another
/// machine. Files that are not TOML are the same only when equal.
#[must_use]
pub fn same_games(a: &[u8], b: &[u8]) -> bool {
    a == b || matches!((games_table(a), games_table(b)), (Some(x), Some(y)) if x == y)
}

/// A config file's table without the keys that do not change its games
/// (`[tournament]` `concurrency` and `affinity`); `None` when not TOML.
fn games_table(bytes: &[u8]) -> Option<toml::Table> {
    let mut value: toml::Table = toml::from_str(std::str::from_utf8(bytes).ok()?).ok()?;
    if let Some(toml::Value::Table(t)) = value.get_mut("tournament") {
        t.remove("concurrency");
        t.remove("affinity");
        if t.is_empty() {
            value.remove("tournament");
        }
    }
    Some(value)
}
