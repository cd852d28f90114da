//! What a platform without Linux's sandbox, cgroups and CPU affinity
//! answers (macOS and the other Unixes, Linux with `portable-unix`, and
//! Windows): an [`io::ErrorKind::Unsupported`] error or a no-op, the same
//! everywhere. `unix.rs` and `windows.rs` re-export these; `linux.rs`
//! replaces them with the real calls. The items are documented in
//! `mod.rs`, the interface.

use std::io;

use super::{Descriptor, NAME};

/// The `Unsupported` error for what needs Linux.
pub fn unsupported(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!("{what} needs Linux (this arena is built for {NAME})"),
    )
}

pub fn sealed_file(_bytes: &[u8]) -> io::Result<Descriptor> {
    Err(unsupported("the sandbox"))
}

pub fn read_inherited(_fd: i32) -> io::Result<Vec<u8>> {
    Err(unsupported("the sandbox"))
}

pub fn seccomp_filter(_pinned: bool) -> io::Result<Vec<u8>> {
    Err(unsupported("the sandbox's seccomp filter"))
}

pub fn own_status() -> String {
    String::new()
}

pub fn limit_processes(_processes: u64) -> io::Result<()> {
    Err(unsupported("the sandbox's process limit"))
}

pub fn allowed_cores() -> Vec<usize> {
    Vec::new()
}

pub fn pin_current_thread(_core: usize) -> io::Result<()> {
    Err(unsupported("CPU affinity"))
}

pub fn pinned<T>(_core: Option<usize>, f: impl FnOnce() -> T) -> T {
    f()
}

pub fn join_cgroups_at_exec(
    _cmd: &mut std::process::Command,
    dirs: &[std::path::PathBuf],
) -> io::Result<()> {
    if dirs.is_empty() {
        Ok(())
    } else {
        Err(unsupported("cgroups"))
    }
}

pub fn pin_child(_cmd: &mut std::process::Command, _core: usize) {}
