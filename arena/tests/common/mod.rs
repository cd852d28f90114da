//! The integration tests' shared harness: configs (`configs`), runs of
//! the `arena` binary and of the checking tools (`runs`), readers of a
//! run folder's files (`readers`), what a command printed and assertions
//! on it (`texts`), and the processes of a running arena (`processes`).
//! Every test file takes what it needs from here.

#![allow(dead_code, unused_imports)] // Each test file uses its own share of these.

pub mod configs;
pub mod processes;
pub mod readers;
pub mod runs;
pub mod texts;

pub use configs::*;
pub use processes::*;
pub use readers::*;
pub use runs::*;
pub use texts::*;
