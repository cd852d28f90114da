//! Whether two config files play the same games, for a resume's refusal.

/// The first key by which two config files (their bytes) play other
/// games, for a resume's refusal (`... differs`): `None` when they play
/// the same games ([`same_games`]); `[tournament] seed`, a bot's key
/// (`bot 'g2''s command`, [`bots_difference`]), or `the file` when one is
/// not TOML.
#[must_use]
pub fn games_difference(a: &[u8], b: &[u8]) -> Option<String> {
    if same_games(a, b) {
        return None;
    }
    let (Some(x), Some(y)) = (games_table(a), games_table(b)) else {
        return Some("the file".into());
    };
    let first = crate::format::roster::changed_keys(&x, &y)
        .into_iter()
        .next();
    Some(match first.as_deref() {
        None => "the file".into(),
        Some("bot") => bots_difference(x.get("bot"), y.get("bot")),
        Some(_) => first.unwrap_or_default(),
    })
}

/// The first difference of two configs' `[[bot]]` arrays `a` and `b`, to
/// go before `differs`: a bot's key (`bot 'g2''s command`), a bot in one
/// only (`the bot list (bot 'g9' is in one config only)`), or their order.
fn bots_difference(a: Option<&toml::Value>, b: Option<&toml::Value>) -> String {
    let tables = |v: Option<&toml::Value>| -> Vec<(String, toml::Table)> {
        v.and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_table)
            .map(|t| {
                let name = t.get("name").and_then(toml::Value::as_str);
                (name.unwrap_or_default().to_string(), t.clone())
            })
            .collect()
    };
    let (a, b) = (tables(a), tables(b));
    for (name, table) in &a {
        match b.iter().find(|(n, _)| n == name) {
            Some((_, other)) => {
                let keys = crate::format::roster::changed_keys(table, other);
                if let Some(key) = keys.first() {
                    return format!("bot '{name}''s {key}");
                }
            }
            None => return format!("the bot list (bot '{name}' is in one config only)"),
        }
    }
    match b.iter().find(|(n, _)| a.iter().all(|(m, _)| m != n)) {
        Some((name, _)) => format!("the bot list (bot '{name}' is in one config only)"),
        None => "the order of the [[bot]] tables".into(),
    }
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
