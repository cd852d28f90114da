//! Ratings and confidence statistics: the `endodoi-ratings` crate
//! (`ratings/`), re-exported so the arena names them `crate::stats::...`.
//! Its tests of [`rate`] run here too (`cargo test -p arena --lib stats`),
//! through this re-export, as the arena uses it.

pub use endodoi_ratings::*;

#[cfg(test)]
use statrs::distribution::{ContinuousCDF, Normal};

/// The standard normal distribution, for the tests.
#[cfg(test)]
fn standard_normal() -> Normal {
    Normal::new(0.0, 1.0).expect("standard normal parameters are valid")
}

#[cfg(test)]
mod tests;
