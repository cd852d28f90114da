//! The commands a user runs (`arena run`, `merge`, `rate`, `replay`,
//! `check`, `init`, `tune`, `tablebase`, `analyse`): each takes a plain options struct, writes what a user
//! reads through a [`Console`] it is handed, and returns a typed outcome that
//! the binary turns into an exit code. The binary does nothing else: it parses
//! arguments into these options (clap stays there) and handles signals.
//!
//! The commands sit on top of the library: they may use every layer below
//! (plan, formats, execution, reporting), and nothing below uses them.
//! Their errors are `anyhow` chains of the typed errors below, each shown to
//! the user as one line.

pub mod analyse;
pub mod bench;
pub mod check;
pub mod init;
pub mod merge;
pub mod perfect;
pub mod play;
pub mod rate;
pub mod replay;
pub mod run;
pub mod serve;
pub mod slurm;
pub mod tablebase;
pub mod tune;

use std::fmt::Display;
use std::io::Write;

/// Where a command writes: `out` for its result (the final table, a
/// checklist, a replay), `err` for status lines (`arena: ...`). A closed
/// sink (say, a pipe into `head`) is ignored rather than stopping the
/// command, which may be in the middle of a tournament.
pub struct Console<'a> {
    out: Box<dyn Write + 'a>,
    err: Box<dyn Write + 'a>,
}

impl<'a> Console<'a> {
    /// A console writing results to `out` and status lines to `err`.
    pub fn new(out: impl Write + 'a, err: impl Write + 'a) -> Console<'a> {
        Console {
            out: Box::new(out),
            err: Box::new(err),
        }
    }

    /// Writes `text` and a newline to the results.
    pub fn print(&mut self, text: impl Display) {
        let _ = writeln!(self.out, "{text}");
    }

    /// Writes `text` as it is (no newline added) to the results.
    pub fn write(&mut self, text: impl Display) {
        let _ = write!(self.out, "{text}");
    }

    /// Writes `line` and a newline to the status lines.
    pub fn note(&mut self, line: impl Display) {
        let _ = writeln!(self.err, "{line}");
    }

    /// The status lines' sink, for a reporter to write on.
    pub fn status_sink(&mut self) -> &mut (dyn Write + 'a) {
        &mut *self.err
    }

    /// Writes raw bytes to the results.
    ///
    /// # Errors
    /// The results' sink failed (the caller says what was being written).
    pub fn write_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.write_all(bytes)?;
        self.out.flush()
    }
}

/// This machine as a config is read against: its usable CPUs
/// ([`crate::affinity::usable_cores`]) and its files.
#[must_use]
pub fn host() -> crate::config::Host<'static> {
    fn read(path: &std::path::Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
    crate::config::Host {
        cores: crate::affinity::usable_cores(),
        read: &read,
    }
}

/// The run's `config.toml` in `dir`, read as the run read its copy (paths
/// from the original config's folder); `None` when there is none or it does
/// not load. One that names endgame tables (`[board] tablebase`) but does
/// not load (its tables folder gone, say) is an error unless
/// `tables_given` (`--tablebase DIR`): the run's `tablebase` rows cannot be
/// checked without them, and the error names the folder.
///
/// # Errors
/// Such a config's error, with the fix.
pub fn run_config(
    dir: &std::path::Path,
    tables_given: bool,
) -> anyhow::Result<Option<crate::config::Config>> {
    let path = dir.join("config.toml");
    match crate::config::Config::load(&path, &host()) {
        Ok(config) => Ok(Some(config)),
        Err(e) => {
            let names_tables = std::fs::read_to_string(&path).is_ok_and(|text| {
                text.lines()
                    .any(|l| l.trim_start().starts_with("tablebase"))
            });
            anyhow::ensure!(
                tables_given || !names_tables,
                "{e}; the run's endgame tables check its tablebase rows: restore them there, or pass --tablebase DIR"
            );
            Ok(None)
        }
    }
}

/// The endgame tables that check the `tablebase` rows of a run's games:
/// `explicit` (`--tablebase DIR`), else the folder of `config`'s `[board]
/// tablebase` (the run's own config), else none (such rows are then
/// refused, with the fix). Read once per process
/// ([`crate::output::tablebase::shared`]).
///
/// # Errors
/// A tables folder that cannot be read or is damaged.
pub fn tables_for(
    explicit: Option<&std::path::Path>,
    config: Option<&crate::config::Config>,
) -> anyhow::Result<Option<std::sync::Arc<endodoi_tablebase::Tables>>> {
    let dir = explicit.or_else(|| config.and_then(|c| c.tablebase.as_deref()));
    Ok(match dir {
        Some(dir) => Some(crate::output::tablebase::shared(dir)?),
        None => None,
    })
}

/// What checks the adjudicated rows of a run's games: the endgame tables
/// of [`tables_for`], and `config`'s `[board] adjudicate` (with both rules,
/// each adjudicated row is checked against the other too;
/// [`crate::config::Adjudicate::OFF`] without the run's config, when each
/// row is checked by its own termination's rule).
///
/// # Errors
/// As [`tables_for`].
pub fn referee_for(
    explicit: Option<&std::path::Path>,
    config: Option<&crate::config::Config>,
) -> anyhow::Result<(
    Option<std::sync::Arc<endodoi_tablebase::Tables>>,
    crate::config::Adjudicate,
)> {
    let adjudicate = config.map_or_else(Default::default, |c| c.adjudicate);
    Ok((tables_for(explicit, config)?, adjudicate))
}

/// Writes `text` (a help text) to stdout, whole. A stdout closed before
/// the end (`arena bot --help | head -1`) is no error: the reader wanted no
/// more, so the caller ends quietly with success, as ripgrep does.
///
/// # Errors
/// Any other write error.
pub fn print_help(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// One line per bot that did not start (`failures`, from
/// [`crate::runner::check_bots`], in the order of `bots`), saying why.
fn not_started(bots: &[crate::config::BotSpec], failures: &[Option<String>]) -> Vec<String> {
    bots.iter()
        .zip(failures)
        .filter_map(|(b, f)| {
            f.as_ref()
                .map(|why| format!("bot '{}' did not start: {why}", b.name))
        })
        .collect()
}

/// How a command ended, beyond success: the binary maps it to an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It did what was asked (exit 0).
    Success,
    /// It ran, and found a failure it reports: a check that failed, a replay
    /// that differs from the record, a cluster run whose merge did not
    /// finish (exit 1).
    Failed,
    /// The user interrupted it (Ctrl-C or SIGTERM) and it wound down,
    /// keeping what was done (exit 130).
    Interrupted,
}

impl Outcome {
    /// `Success` if `ok`, else `Failed`.
    #[must_use]
    pub fn from_passed(ok: bool) -> Outcome {
        if ok {
            Outcome::Success
        } else {
            Outcome::Failed
        }
    }
}
