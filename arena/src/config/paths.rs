//! Where a config's relative paths start: the config's folder (or the
//! folder a copy's [`CONFIG_DIR_FILE`] names), and what a path that moved
//! with issue 17 tells the user.

use std::path::{Path, PathBuf};

use super::Config;

impl Config {
    /// The relative paths of the config (a bot's `dir`; without one, its
    /// program and arguments; the openings file) that name something from
    /// the arena's working directory other than what they name from
    /// [`Config::base`], as written: what a config read the old way, from
    /// the working directory, would have used instead. Empty when `base` is
    /// the working directory. A path missing from `base` is not listed: the
    /// error about it says that the working directory has it
    /// ([`current_dir_hint`]).
    #[must_use]
    pub fn moved_paths(&self) -> Vec<String> {
        let base = &self.base;
        let Ok(cwd) = std::env::current_dir() else {
            return Vec::new();
        };
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if base.as_os_str().is_empty() || same(base, &cwd) {
            return Vec::new();
        }
        let mut written: Vec<PathBuf> = Vec::new();
        for bot in &self.bots {
            match &bot.dir {
                Some(dir) => written.extend(dir.strip_prefix(base).ok().map(Path::to_path_buf)),
                None if bot.command.first().is_some_and(|w| w != "arena") => written.extend(
                    bot.command
                        .iter()
                        .filter(|w| !w.starts_with('-'))
                        .map(PathBuf::from),
                ),
                None => {}
            }
        }
        if let Some(file) = &self.openings_file {
            written.extend(file.strip_prefix(base).ok().map(Path::to_path_buf));
        }
        let mut moved: Vec<String> = Vec::new();
        for path in written {
            let text = path.display().to_string();
            if path.is_relative()
                && !text.is_empty()
                && path.exists()
                && base.join(&path).exists()
                && !same(&path, &base.join(&path))
                && !moved.contains(&text)
            {
                moved.push(text);
            }
        }
        moved
    }
}

/// What a one-line error adds when a relative path of the config, as
/// `written`, names nothing from the config's folder `base` but does name
/// something from the current directory (where paths started before issue
/// 17): that it is there, why it is not used, and the fix. The caller has
/// looked in the current directory.
///
/// ```
/// # use std::path::Path;
/// let hint = arena::config::current_dir_hint(Path::new("book.txt"), Path::new("other/place"));
/// assert!(hint.starts_with("; the current directory has book.txt, but relative paths start from the config's folder other/place"));
/// ```
#[must_use]
pub fn current_dir_hint(written: &Path, base: &Path) -> String {
    format!(
        "; the current directory has {}, but relative paths start from the config's folder {} (they used to start from the current directory): write the path from {1}, or an absolute one (see \"Relative paths\" in docs/configuration.md)",
        written.display(),
        base.display()
    )
}

/// The file beside a copy of a config (in a run folder, a Slurm
/// tournament's folder) that names the folder the original config's
/// relative paths start from, so that the copy's resolve the same way.
pub const CONFIG_DIR_FILE: &str = "config-dir";
