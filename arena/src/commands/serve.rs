//! `arena serve DIR`: the live page of a run folder, read-only, until
//! Ctrl-C: a finished run, one in progress (written by another arena, say
//! a Slurm shard, whose `games.csv` is followed as it grows), or a merged
//! one.

use std::future::Future;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Console, Outcome};
use crate::config::Config;
use crate::live::follow::{Follower, POLL};
use crate::live::{self, LiveState, Server, Setup};
use crate::output::RunFolder;
use std::time::Instant;

/// What `arena serve` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The run folder.
    pub dir: PathBuf,
    /// The address to serve on, `HOST:PORT` as given [default: 127.0.0.1:0].
    pub addr: Option<String>,
}

/// Serves the folder's live page until `interrupted` resolves.
///
/// # Errors
/// A bad address, one in use, a folder without `games.csv`, or a
/// `games.csv` that cannot be read.
pub fn run<F: Future<Output = ()>>(
    options: &Options,
    console: &mut Console<'_>,
    interrupted: impl FnOnce() -> F,
) -> anyhow::Result<Outcome> {
    let addr = match &options.addr {
        Some(text) => live::parse_addr(text).context("--addr")?,
        None => live::DEFAULT_ADDR,
    };
    let folder = RunFolder::at(&options.dir);
    let games = folder.games();
    anyhow::ensure!(
        !options.dir.join("tune.csv").is_file() || games.is_file(),
        "{} is a tuning's folder: open its report.html (each parameter's course), or `arena serve` a run folder inside it such as {}",
        options.dir.display(),
        options.dir.join("verify").display()
    );
    anyhow::ensure!(
        games.is_file(),
        "{} has no games.csv: give a run folder (arena run --out DIR, a shard's or a merged one)",
        options.dir.display()
    );
    let listener = live::bind(addr).context("--addr")?;
    let over = folder.is_finished() || !folder.is_run();
    let setup = setup_of(&options.dir, over);
    let mut follower = Follower::new(&games);
    // The games so far are in the state before the page is served: the
    // first visitor of a finished folder sees it whole, and finished.
    let mut state = LiveState::new(setup, Instant::now());
    // Row by row: a league's millions of games are never held at once.
    follower.poll_each(|row| state.add_earlier(row))?;
    let mut finished = over;
    if over {
        state.finish(Instant::now());
    }
    let server = Server::start(
        listener,
        state,
        Some(options.dir.join(crate::html::REPORT_FILE)),
    )?;
    console.note(format_args!("arena: live view at {}", server.url()));
    if !server.addr().ip().is_loopback() {
        console.note(non_loopback_warning(server.addr()));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut said = false;
    runtime.block_on(async {
        let stop = interrupted();
        tokio::pin!(stop);
        loop {
            // A folder is over once it is marked finished (or is no run's
            // folder, as a merged one) and every row is read.
            let over = folder.is_finished() || !folder.is_run();
            match follower.poll_each(|row| {
                server.row(row);
            }) {
                Ok(_) => {}
                Err(e) if !said => {
                    console.note(format_args!("arena: {e}; trying again"));
                    said = true;
                }
                Err(_) => {}
            }
            if over && !finished {
                server.finish();
                finished = true;
            }
            tokio::select! {
                () = &mut stop => break,
                () = tokio::time::sleep(POLL) => {}
            }
        }
    });
    server.stop();
    Ok(Outcome::Success)
}

/// What the page of the folder at `dir` is of: from its copy of the config
/// when it has one that reads (titled by its `name`), else from its games
/// alone (titled by the folder's name).
fn setup_of(dir: &std::path::Path, finished: bool) -> Setup {
    let title = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut setup = Setup {
        title,
        follows: !finished,
        folder: Some(dir.to_path_buf()),
        ..Setup::default()
    };
    let config = dir.join("config.toml");
    let base = std::fs::read_to_string(dir.join(crate::config::CONFIG_DIR_FILE))
        .ok()
        .map(|b| PathBuf::from(b.trim_end()));
    let parsed = std::fs::read_to_string(&config).ok().and_then(|text| {
        Config::parse_in(
            &text,
            &config.display().to_string(),
            &setup.title,
            base.as_deref().unwrap_or(dir),
            &super::host(),
        )
        .ok()
    });
    if let Some(config) = parsed {
        // The config's `name`, as `arena run --serve` titles the page; the
        // folder's name when it has none.
        setup.title.clone_from(&config.name);
        setup.bots = config.bots.iter().map(|b| b.name.clone()).collect();
        // 0: none (an endless league). A league whose bots came and went:
        // each round with its own bots (roster.csv).
        let each = u64::from(crate::runner::series_rule(&config, None).bound());
        setup.bound = if config.format.is_endless() {
            0
        } else if let Some(series) = crate::runner::roster_series(&config, dir) {
            series * each
        } else {
            crate::runner::games_bound(&config, None, &[])
        };
        setup.sprt = crate::runner::sprt_of(&config);
        setup.ratings =
            crate::report::rating_options(&config.ratings, config.tournament.seed, &setup.bots);
        setup.format = config.format.clone();
        setup.series_rule = Some(crate::runner::series_rule(&config, None));
    }
    setup
}

/// The warning for a page served on an address other than loopback.
#[must_use]
pub fn non_loopback_warning(addr: std::net::SocketAddr) -> String {
    format!(
        "arena: warning: {addr} is not a loopback address: anyone who can reach this machine on port {} can read the page (bind 127.0.0.1 and use an SSH tunnel instead; see docs/live.md)",
        addr.port()
    )
}
