//! Where the sandboxed bots of a tournament may look, together: what one
//! bot's sandbox shows must not hold the run folder, another bot's folder,
//! or a place another bot may change (see `docs/sandbox.md`). Each bot's own
//! sandbox is checked by [`crate::sandbox::Sandbox::resolve`].

use std::path::{Path, PathBuf};

use crate::config::BotSpec;
use crate::sandbox::{real_path, trace, Sandbox};

/// Checks what the sandboxed bots of a tournament writing to `out` would
/// see: each needs a `dir` of its own; none may see the run folder, nor
/// another bot's folder (bots that share one `dir`, one program at two
/// settings, may, if neither writes it); none may write the arena's
/// executable.
///
/// # Errors
/// [`LayoutError`]: the bot, the path and the fix.
pub fn check_layout(bots: &[BotSpec], out: &Path) -> Result<(), LayoutError> {
    let out = real_path(out);
    let exe = std::env::current_exe()
        .map(|e| real_path(&e))
        .unwrap_or_default();
    let dirs: Vec<(&str, PathBuf)> = bots
        .iter()
        .filter_map(|b| Some((b.name.as_str(), real_path(b.dir.as_ref()?))))
        .collect();
    let mut sandboxes = Vec::new();
    for (index, bot) in bots.iter().enumerate().filter(|(_, b)| b.sandbox.is_some()) {
        let Some(dir) = &bot.dir else {
            return Err(LayoutError::new(index, format!(
                "bot '{}' is sandboxed but has no dir: give it a folder of its own (the arena's working directory would show the bot everything in it)",
                bot.name
            )));
        };
        let dir = real_path(dir);
        let Some(sandbox) =
            super::spawn::sandbox(bot).map_err(|e| LayoutError::new(index, e.to_string()))?
        else {
            continue;
        };
        // A link in another bot's folder is that bot's author's to point
        // anywhere: no path may go through one.
        for named in &sandbox.named {
            for (point, _) in trace(named) {
                let other = dirs
                    .iter()
                    .find(|(n, d)| *n != bot.name && *d != dir && point.starts_with(d));
                if let Some((other, other_dir)) = other {
                    return Err(LayoutError::new(index, format!(
                        "bot '{}': {} goes through {}, in bot '{other}''s folder {}: give each bot a folder of its own",
                        bot.name,
                        named.display(),
                        point.display(),
                        other_dir.display()
                    )));
                }
            }
        }
        for (path, writable) in sandbox.shown() {
            if out.starts_with(path) || path.starts_with(&out) {
                return Err(LayoutError::new(index, format!(
                    "bot '{}' would see the run folder {} through {}: keep results and bots' folders apart",
                    bot.name,
                    out.display(),
                    path.display()
                )));
            }
            if writable && exe.starts_with(path) {
                return Err(LayoutError::new(index, format!(
                    "bot '{}' could write the arena's executable {} through {}: give it a folder of its own",
                    bot.name,
                    exe.display(),
                    path.display()
                )));
            }
            for (other, other_dir) in dirs.iter().filter(|(n, _)| *n != bot.name) {
                let shared = *other_dir == dir;
                let overlap = other_dir.starts_with(path) || path.starts_with(other_dir);
                if (writable || !shared) && overlap {
                    return Err(LayoutError::new(index, format!(
                        "bot '{}' would see bot '{other}''s folder {} through {}{}: give each bot a folder of its own",
                        bot.name,
                        other_dir.display(),
                        path.display(),
                        if shared { ", writable" } else { "" }
                    )));
                }
            }
        }
        sandboxes.push((index, bot.name.as_str(), sandbox));
    }
    no_shared_writes(&sandboxes)
}

/// What one bot of `sandboxes` (its index, name and sandbox) may write, no
/// other may see, nor reach its paths through.
fn no_shared_writes(sandboxes: &[(usize, &str, Sandbox)]) -> Result<(), LayoutError> {
    for (_, writer, theirs) in sandboxes {
        for w in &theirs.writable {
            for (index, bot, sandbox) in sandboxes.iter().filter(|(_, n, _)| n != writer) {
                let index = *index;
                for (shown, _) in sandbox.shown() {
                    if w.starts_with(shown) {
                        return Err(LayoutError::new(index, format!(
                            "bot '{bot}' would see {}, which bot '{writer}' may write: give each bot a folder of its own",
                            w.display()
                        )));
                    }
                }
                for named in &sandbox.named {
                    if let Some((point, _)) =
                        trace(named).into_iter().find(|(p, _)| p.starts_with(w))
                    {
                        return Err(LayoutError::new(index, format!(
                            "bot '{bot}': {} goes through {}, inside {}, which bot '{writer}' may write (it could change what '{bot}' sees): give each bot a folder of its own",
                            named.display(),
                            point.display(),
                            w.display()
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// A layout of sandboxed bots that would not hold ([`check_layout`]):
/// which bot (its index in the config's list) and why, in one line.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct LayoutError {
    /// The bot the message is about, as an index into the bots given.
    pub bot: usize,
    /// What is wrong and the fix.
    pub message: String,
}

impl LayoutError {
    fn new(bot: usize, message: String) -> LayoutError {
        LayoutError { bot, message }
    }
}
