//! Why a fallible function of the crate refused its input.

use thiserror::Error;

/// Input that `try_rate` and `try_fit` refuse (and that makes `rate` and
/// `fit` panic with the same message).
/// Bot indices refer to the caller's list of `bots` bots, `0..bots`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RatingsError {
    /// Entry `index` of the results names bot `bot`, which is not below the
    /// number of bots.
    #[error(
        "PairResult {index} refers to bot {bot}, but there are only {bots} bots: bot indices must be below the number of bots"
    )]
    BotOutOfRange {
        /// Position of the offending entry in the results slice.
        index: usize,
        /// The bot index it names (`a` or `b`).
        bot: usize,
        /// The number of bots given.
        bots: usize,
    },
    /// [`crate::RatingOptions::anchor`] names a bot that is not below the
    /// number of bots.
    #[error(
        "the anchor is bot {anchor}, but there are only {bots} bots: anchor a bot index below the number of bots"
    )]
    AnchorOutOfRange {
        /// The anchor's bot index.
        anchor: usize,
        /// The number of bots given.
        bots: usize,
    },
}

/// The first entry of `results` that names a bot `>= bots`, as an error.
pub(crate) fn check_results(
    bots: usize,
    results: &[crate::PairResult],
) -> Result<(), RatingsError> {
    for (index, r) in results.iter().enumerate() {
        for bot in [r.a, r.b] {
            if bot >= bots {
                return Err(RatingsError::BotOutOfRange { index, bot, bots });
            }
        }
    }
    Ok(())
}
