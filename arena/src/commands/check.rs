//! `arena check`: the protocol checklist for one bot.

use super::{Console, Outcome};
use crate::check::CheckOptions;

/// Runs the checklist, one line per check on the console's results;
/// [`Outcome::Failed`] if any check failed.
///
/// # Errors
/// The check cannot run at all (the program is not found, say).
pub fn run(options: &CheckOptions, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let sent: String = options
        .options
        .iter()
        .map(|(n, v)| format!(", option.{n}={v}"))
        .collect();
    let mut header = Some(format!(
        "arena check: {} (move time {} ms, start-up {} ms{sent})",
        options
            .command
            .iter()
            .map(|word| endodoi_protocol::shown(word))
            .collect::<Vec<_>>()
            .join(" "),
        options.move_time_ms,
        options.startup_ms
    ));
    let report = crate::check::run(options, |line| {
        if let Some(header) = header.take() {
            console.print(header);
        }
        console.print(line);
    })
    .map_err(anyhow::Error::msg)?;
    console.print(report.summary());
    if !report.passed() && options.log.is_none() {
        console.print("(the bot's stderr is not kept: run again with --log FILE before -- to see what it said)");
    }
    Ok(Outcome::from_passed(report.passed()))
}
