//! The `[ratings]` and `[sprt]` tables: how the joint ratings are
//! computed, and a sequential test for a two-bot match.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::bots::BotSpec;
use super::errors::{ConfigError, Place};
use super::text::table_header;

/// How the joint ratings are computed (`[ratings]`).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingSettings {
    /// Virtual draws added to each pair that played (the prior).
    pub prior_draws: f64,
    /// Bootstrap replicates for the intervals and LOS.
    pub bootstrap: u32,
    /// The bot whose rating is fixed, and its rating (Elo); `None` for mean 0.
    pub anchor: Option<(String, f64)>,
}

impl Default for RatingSettings {
    /// The defaults of a config without `[ratings]`: 1 virtual draw, 1000
    /// bootstrap replicates, no anchor.
    fn default() -> Self {
        RatingSettings {
            prior_draws: 1.0,
            bootstrap: 1000,
            anchor: None,
        }
    }
}

/// A sequential probability ratio test for a two-bot match (`[sprt]`): H0
/// says the first bot is `elo0` stronger, H1 says `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// The false-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
    /// Whether elo0 and elo1 are logistic or normalised Elo.
    pub model: SprtModelName,
}

/// The largest `[sprt]` `elo0` or `elo1` accepted, either sign, in the
/// test's Elo points (logistic or normalised).
pub const SPRT_ELO_LIMIT: f64 = 1000.0;

/// The Elo scale of an SPRT's hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtModelName {
    /// Logistic Elo, as in the standings.
    Logistic,
    /// Normalised Elo (fishtest's default).
    Normalized,
}

/// The largest anchor rating, Elo points either way: far beyond any real
/// rating list, small enough that the fit stays exact in `f64`.
pub const MAX_ANCHOR_ELO: f64 = 10_000.0;

/// An anchor rating that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnchorEloError {
    /// The text is not a number, or is NaN, infinite or out of range.
    #[error("'{0}' is not an anchor rating: give Elo points from -10000 to 10000, such as 1500")]
    NotARating(String),
    /// The number is NaN, infinite or out of range.
    #[error("out of range: give Elo points from -10000 to 10000, such as 1500")]
    OutOfRange,
}

/// Parses an anchor rating: a finite number of Elo points within
/// [`MAX_ANCHOR_ELO`] either way.
///
/// # Errors
/// [`AnchorEloError::NotARating`]: not a number, NaN or infinite, or out of range.
pub fn anchor_elo(text: &str) -> Result<f64, AnchorEloError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|x| check_anchor_elo(x).ok())
        .ok_or_else(|| AnchorEloError::NotARating(text.to_string()))
}

/// `x` if it is a finite rating within [`MAX_ANCHOR_ELO`] either way.
///
/// # Errors
/// [`AnchorEloError::OutOfRange`]: NaN, infinite or out of range.
pub fn check_anchor_elo(x: f64) -> Result<f64, AnchorEloError> {
    if x.is_finite() && x.abs() <= MAX_ANCHOR_ELO {
        Ok(x)
    } else {
        Err(AnchorEloError::OutOfRange)
    }
}

/// The `[ratings]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([ratings] on a line of its own, its keys below)"
)]
pub(super) struct RawRatings {
    pub(super) prior_draws: Option<Spanned<f64>>,
    pub(super) bootstrap: Option<Spanned<i64>>,
    pub(super) anchor: Option<Spanned<String>>,
    pub(super) anchor_elo: Option<Spanned<f64>>,
}

/// The `[sprt]` table as written.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([sprt] on a line of its own, its keys below)"
)]
pub(super) struct RawSprt {
    pub(super) elo0: Spanned<f64>,
    pub(super) elo1: Spanned<f64>,
    pub(super) alpha: Option<Spanned<f64>>,
    pub(super) beta: Option<Spanned<f64>>,
    pub(super) model: Option<SprtModelName>,
}

/// `[ratings]` `prior_draws` and `bootstrap`, checked.
pub(super) fn fit_settings(rr: &RawRatings, p: &Place<'_>) -> Result<(f64, u32), ConfigError> {
    let prior_draws = match &rr.prior_draws {
        None => 1.0,
        Some(d) if d.get_ref().is_finite() && (0.0..=1000.0).contains(d.get_ref()) => *d.get_ref(),
        Some(d) => {
            return Err(p.at(
                Some(d.span()),
                "ratings.prior_draws must be from 0 to 1000 (virtual draws per pair)",
            ))
        }
    };
    let bootstrap = p.int(&rr.bootstrap, "ratings.bootstrap", 0, 100_000, 1000)? as u32;
    Ok((prior_draws, bootstrap))
}

/// `[ratings]` `anchor` and `anchor_elo`, checked: the anchor must be one
/// of `bots`.
pub(super) fn anchor(
    rr: &RawRatings,
    bots: &[BotSpec],
    p: &Place<'_>,
) -> Result<Option<(String, f64)>, ConfigError> {
    let anchor_elo = match &rr.anchor_elo {
        None => 0.0,
        Some(e) => check_anchor_elo(*e.get_ref())
            .map_err(|why| p.at(Some(e.span()), &format!("ratings.anchor_elo is {why}")))?,
    };
    match &rr.anchor {
        None => Ok(None),
        Some(a) if bots.iter().any(|b| &b.name == a.get_ref()) => {
            Ok(Some((a.get_ref().clone(), anchor_elo)))
        }
        Some(a) => Err(p.at(
            Some(a.span()),
            &format!(
                "ratings.anchor = '{}' is not a bot: name one of the [[bot]] tables",
                a.get_ref()
            ),
        )),
    }
}

/// `[sprt]` `r` of config `text`, checked against the number of bots
/// (two). Each error points at its key; one about the whole test at its
/// `[sprt]` header (or, written inline or with dotted keys, at its first
/// key).
pub(super) fn sprt(
    r: Option<&RawSprt>,
    text: &str,
    bots: usize,
    p: &Place<'_>,
) -> Result<Option<SprtSettings>, ConfigError> {
    let Some(r) = r else {
        return Ok(None);
    };
    let rate = |v: &Option<Spanned<f64>>| v.as_ref().map_or(0.05, |v| *v.get_ref());
    let (alpha, beta) = (rate(&r.alpha), rate(&r.beta));
    let (elo0, elo1) = (*r.elo0.get_ref(), *r.elo1.get_ref());
    let fail = |span: Range<usize>, msg: &str| Err(p.at(Some(span), msg));
    if bots != 2 {
        let table = table_header(text, "sprt").unwrap_or_else(|| r.elo0.span());
        return fail(table, &format!("[sprt] is for a match of two bots, and {bots} are configured: keep two [[bot]] tables"));
    }
    // Hypotheses past ±1000 Elo test nothing a match can tell
    // apart (and NaN or infinity break the LLR).
    for (name, key, x) in [("elo0", &r.elo0, elo0), ("elo1", &r.elo1, elo1)] {
        if x.is_nan() || x.abs() > SPRT_ELO_LIMIT {
            return fail(
                key.span(),
                &format!("[sprt] {name} must be a number of Elo points from -{SPRT_ELO_LIMIT} to {SPRT_ELO_LIMIT}, e.g. elo0 = 0 and elo1 = 5"),
            );
        }
    }
    if elo0 >= elo1 {
        return fail(
            r.elo1.span(),
            "[sprt] needs elo0 < elo1, e.g. elo0 = 0 and elo1 = 5",
        );
    }
    for v in [&r.alpha, &r.beta].into_iter().flatten() {
        if !(*v.get_ref() > 0.0 && *v.get_ref() < 0.5) {
            return fail(
                v.span(),
                "[sprt] alpha and beta must be between 0 and 0.5, e.g. 0.05",
            );
        }
    }
    Ok(Some(SprtSettings {
        elo0,
        elo1,
        alpha,
        beta,
        model: r.model.unwrap_or(SprtModelName::Normalized),
    }))
}
