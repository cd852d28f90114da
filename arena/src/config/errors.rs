//! The config's one-line errors, and the place in its text each one names.

use std::fmt::Display;
use std::ops::Range;
use std::path::PathBuf;

use toml::Spanned;

use super::text::Lines;

/// An error in a config file, shown on one line: where, what, and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The config file cannot be read.
    #[error("cannot read config {}: {cause}; check the path", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// The config file is not UTF-8 text (UTF-16, say, as some Windows
    /// editors save): TOML is UTF-8.
    #[error("config {} is not UTF-8 text (TOML is UTF-8; a Windows editor may have saved it as UTF-16): save it as UTF-8", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A problem at a place in the file.
    #[error("{origin}:{line}:{column}: {message}")]
    At {
        /// The file, as named to the user.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (characters).
        column: usize,
        /// The problem and its fix.
        message: String,
    },
    /// A problem of the whole file (no one place).
    #[error("{origin}: {message}")]
    File {
        /// The file, as named to the user.
        origin: String,
        /// The problem and its fix.
        message: String,
    },
    /// A bot whose program or script cannot be found or started.
    #[error("{origin}: {message}")]
    Bot {
        /// Where the bot's `command` is, `FILE:LINE:COL`.
        origin: String,
        /// The problem and its fix.
        message: String,
    },
}

/// A config's text as its errors name it: the file, as named to the user,
/// and where each of its lines starts.
pub(super) struct Place<'a> {
    origin: &'a str,
    lines: Lines,
}

/// Where key `key` is written in the config, if it is: the span an error
/// about it points at.
pub(super) fn span_of<T>(key: &Option<Spanned<T>>) -> Option<Range<usize>> {
    key.as_ref().map(Spanned::span)
}

impl<'a> Place<'a> {
    /// The place of config `text`, named `origin` in errors.
    pub(super) fn new(origin: &'a str, text: &str) -> Place<'a> {
        Place {
            origin,
            lines: Lines::new(text),
        }
    }

    /// The error `msg` at the start of `span` (its line and column), or of
    /// the whole file without one.
    pub(super) fn at(&self, span: Option<Range<usize>>, msg: &str) -> ConfigError {
        match span {
            Some(span) => {
                let (line, column) = self.lines.line_col(span.start);
                ConfigError::At {
                    origin: self.origin.to_string(),
                    line,
                    column,
                    message: msg.to_string(),
                }
            }
            None => ConfigError::File {
                origin: self.origin.to_string(),
                message: msg.to_string(),
            },
        }
    }

    /// `FILE:LINE:COL` of byte `offset` of the text.
    pub(super) fn origin_of(&self, offset: usize) -> String {
        let (line, col) = self.lines.line_col(offset);
        format!("{}:{line}:{col}", self.origin)
    }

    /// A whole-number key: `default` without it, its value within
    /// `min..=max`, or the error that names `key` and the range.
    pub(super) fn int(
        &self,
        v: &Option<Spanned<i64>>,
        key: &str,
        min: i64,
        max: i64,
        default: i64,
    ) -> Result<i64, ConfigError> {
        let range = format!("use {min} to {max}");
        let value = self.checked(v, key, |x| (min..=max).contains(&x), &range)?;
        Ok(value.unwrap_or(default))
    }

    /// An optional key: `None` without it, its value if `fits`, or the
    /// error at its place `KEY = VALUE is out of range: FIX`, `fix` being
    /// the values it takes (and the default, where it helps).
    pub(super) fn checked<T: Copy + Display>(
        &self,
        v: &Option<Spanned<T>>,
        key: &str,
        fits: impl Fn(T) -> bool,
        fix: &str,
    ) -> Result<Option<T>, ConfigError> {
        match v {
            None => Ok(None),
            Some(s) if fits(*s.get_ref()) => Ok(Some(*s.get_ref())),
            Some(s) => Err(self.at(
                Some(s.span()),
                &format!("{key} = {} is out of range: {fix}", s.get_ref()),
            )),
        }
    }

    /// A key that names one of `choices`: the value its name stands for
    /// (the default's without the key), or the error at its place
    /// `KEY = "NAME" is not a WHAT: USAGE`.
    pub(super) fn choice<T: Copy>(
        &self,
        v: &Option<Spanned<String>>,
        key: &str,
        choices: &Choices<T>,
    ) -> Result<T, ConfigError> {
        let Some(s) = v else {
            return Ok(choices.names[0].1);
        };
        match choices.names.iter().find(|(name, _)| name == s.get_ref()) {
            Some(&(_, value)) => Ok(value),
            None => Err(self.at(
                Some(s.span()),
                &format!(
                    "{key} = \"{}\" is not a {}: {}",
                    s.get_ref(),
                    choices.what,
                    choices.usage
                ),
            )),
        }
    }
}

/// The names a key of [`Place::choice`] takes, each with the value it
/// stands for.
pub(super) struct Choices<T: 'static> {
    /// What a name is, in the error: `decider`, `pairing`.
    pub(super) what: &'static str,
    /// Each name and its value, the default first.
    pub(super) names: &'static [(&'static str, T)],
    /// How the error tells the names: `use "a" (what it does) or "b"`.
    pub(super) usage: &'static str,
}
