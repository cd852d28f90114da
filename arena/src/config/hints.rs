//! The fixes a one-line config error names: for a TOML or serde message,
//! a key written twice, a value of the wrong type.

use std::ops::Range;

/// A TOML value's type with its article, for messages: "an integer",
/// "a string".
pub(super) fn a_type(value: &toml::Value) -> String {
    let name = value.type_str();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// The one-line message of TOML's error `e` in config `text`: TOML's own,
/// with the fix ([`hint`], [`duplicate_hint`]) and the line it stumbled on,
/// as written.
pub(super) fn toml_message(text: &str, e: &toml::de::Error) -> String {
    let mut msg = e.message().trim().replace('\n', " ");
    msg = msg.replace("expected i64", "expected a whole number");
    let line_of = |span: Range<usize>| {
        let start = text[..span.start.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        text[start..]
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let key = e.span().and_then(|s| key_before(text, s.start));
    msg.push_str(&hint(&msg, key.as_deref()));
    if msg.contains("number too large") {
        msg.push_str(": use a smaller whole number");
    }
    if msg.contains("duplicate key") {
        if let Some(span) = e.span() {
            msg.push_str(&duplicate_hint(text, span.start));
        }
    }
    // Name the place: the line TOML stumbled on, as written.
    if let Some(span) = e.span() {
        let line = line_of(span);
        if line.starts_with("[bot]") {
            msg.push_str(": write [[bot]], one table per bot");
        }
        if !line.is_empty() {
            let shown: String = line.chars().take(80).collect();
            msg.push_str(&format!(" (in `{shown}`)"));
        }
    }
    msg
}

/// The fix of a key written twice in one table, whose second writing
/// starts at byte `at` of `text`: `; keep one: it is also on line 3`
/// (the first writing's line, found back to the table's header), or
/// `; keep one of the two` when it cannot be found.
fn duplicate_hint(text: &str, at: usize) -> String {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let key_of = |line: &str| {
        line.split_once('=')
            .map(|(k, _)| k.trim().trim_matches('"').to_string())
    };
    let this_line = text[line_start..].lines().next().unwrap_or("");
    let Some(key) = key_of(this_line) else {
        return "; keep one of the two".into();
    };
    let before: Vec<&str> = text[..line_start].lines().collect();
    for (i, line) in before.iter().enumerate().rev() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            break;
        }
        if !trimmed.starts_with('#') && key_of(trimmed).as_deref() == Some(key.as_str()) {
            return format!("; keep one: `{key}` is also on line {}", i + 1);
        }
    }
    "; keep one of the two".into()
}

/// The key whose value starts at byte `at` of `text`: the word before the
/// last `=` ahead of it on its line (`seeding` in `seeding = "a"`, `b` in
/// `a = { b = 1 }`); `None` when there is none.
fn key_before(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let (before, _) = line.rsplit_once('=')?;
    let before = before.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"')))
        .map_or(0, |i| i + 1);
    let key = before[start..].trim_matches('"');
    (!key.is_empty()).then(|| key.to_string())
}

/// The formats, as `tournament.format` names them.
pub(super) const FORMAT_NAMES: &str =
    "\"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\"";
/// The names `tournament.decider` takes, as the fix of a wrong one says them.
pub(super) const DECIDER_USAGE: &str =
    "use \"pair\" (extra game pairs) or \"seed\" (the better seed goes through)";
/// The names `tournament.pairing` takes, as the fix of a wrong one says them.
pub(super) const PAIRING_USAGE: &str = "use \"rating\" (by the current ratings, the default) or \"random\" (a random matching each round, a control)";

/// The fix for a TOML type error `message` on the value of `key` (when
/// known), with its leading `; `; empty when there is none to name.
fn hint(message: &str, key: Option<&str>) -> String {
    if message.contains("expected a sequence") {
        match key {
            Some("command") | None => {}
            Some(k @ ("sandbox_ro" | "sandbox_rw")) => {
                return format!("; write a list of paths, e.g. {k} = [\"state\"]")
            }
            Some(k) => {
                // The value as written, in the list: `seeding = ["a"]`.
                let value = message
                    .strip_prefix("invalid type: string ")
                    .and_then(|r| r.split_once(", expected"))
                    .map_or("\"name\"", |(v, _)| v);
                return format!("; write a list, e.g. {k} = [{value}]");
            }
        }
    }
    if message.contains("expected a string") {
        match key {
            Some("format") => return format!("; use {FORMAT_NAMES}"),
            Some("decider") => return format!("; {DECIDER_USAGE}"),
            Some("pairing") => return format!("; {PAIRING_USAGE}"),
            Some(k @ ("candidates" | "seeding")) => {
                return format!("; write bot names in quotes, e.g. {k} = [\"a\", \"b\"]")
            }
            _ => {}
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (unknown, expected) = rest.split_once('`').unwrap_or((rest, ""));
        if unknown == "cgroups" {
            return "; cgroups holds for every bot: set it in [limits]".into();
        }
        let closest = expected
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|known| (strsim::jaro_winkler(unknown, known), known))
            .filter(|(score, _)| *score > 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        return match closest {
            Some((_, known)) => format!("; did you mean `{known}`?"),
            None => "; `arena init` writes a config that lists every key".into(),
        };
    }
    if message.contains("invalid type: string") {
        if message.contains("expected a sequence") {
            return "; write the command as a list of words, e.g. command = [\"python3\", \"bot.py\"]".into();
        }
        if message.contains("number") || message.contains("float") {
            return "; write the number without quotes".into();
        }
        if message.contains("boolean") {
            return "; write true or false, without quotes".into();
        }
    }
    if message.contains("expected a map") {
        return "; write a table of names and values, e.g. env = { MY_SETTING = \"1\" } or options = { depth = 5 }".into();
    }
    if message.contains("missing field `name`") || message.contains("missing field `command`") {
        return "; every [[bot]] needs a name and a command".into();
    }
    String::new()
}
