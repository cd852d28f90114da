//! `arena tune`'s plan: the SPSA step ([`spsa`]), pure, and the `[tune]`
//! table of a config ([`config`]), read from text passed in. The games are
//! played by the one match loop (`runner`), driven by `commands::tune`.

pub mod config;
pub mod spsa;
