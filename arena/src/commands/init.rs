//! `arena init`: write the starter config.

use std::path::PathBuf;

use anyhow::Context as _;

use super::{Console, Outcome};

/// What `arena init` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The file to write; `-` writes the config to the console's results.
    pub path: PathBuf,
    /// Overwrite the file if it exists.
    pub force: bool,
}

/// Where [`crate::config::STARTER`] names the bundled bots.
const BUNDLED_BOTS: &str = "{bundled_bots}";

/// The starter config `arena init` writes: [`crate::config::STARTER`] with
/// the bundled bots listed from [`endodoi_bots::BOT_NAMES`], the list
/// `arena bot NAME` itself accepts, so the comment cannot fall behind it.
#[must_use]
pub fn starter() -> String {
    crate::config::STARTER.replace(BUNDLED_BOTS, &endodoi_bots::BOT_NAMES.join(", "))
}

/// Writes [`starter`], never over a file unless `force`.
///
/// # Errors
/// The file exists (without `force`), or cannot be written.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    use std::io::Write as _;
    let path = &options.path;
    if path.as_os_str() == "-" {
        console
            .write_bytes(starter().as_bytes())
            .context("cannot write the starter config to standard output")?;
        return Ok(Outcome::Success);
    }
    let mut open = std::fs::OpenOptions::new();
    open.write(true);
    if options.force {
        open.create(true).truncate(true);
    } else {
        open.create_new(true);
    }
    let mut file = open.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => anyhow::anyhow!(
            "{} exists: choose another file (arena init FILE), or pass --force to overwrite it",
            path.display()
        ),
        _ => anyhow::anyhow!("cannot write {}: {e}", path.display()),
    })?;
    file.write_all(starter().as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    console.note(format_args!(
        "arena: wrote {0}; run it with `arena run {0}`, or edit it first",
        path.display()
    ));
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_starter_names_every_bundled_bot() {
        let text = super::starter();
        assert!(!text.contains(super::BUNDLED_BOTS), "{text}");
        assert!(
            text.contains("the bundled bots: random, greedy, first, alphabeta, mcts\n"),
            "{text}"
        );
    }
}
