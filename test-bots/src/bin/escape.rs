//! `escape`: Linux only (its attacks are Linux's calls); the bot itself is
//! `escape/linux.rs`. Elsewhere it says so and exits with code 2.

#[cfg(target_os = "linux")]
#[path = "escape/linux.rs"]
mod linux;

#[cfg(target_os = "linux")]
fn main() -> std::process::ExitCode {
    linux::main()
}

#[cfg(not(target_os = "linux"))]
fn main() -> std::process::ExitCode {
    eprintln!("escape: this test bot runs on Linux only");
    std::process::ExitCode::from(2)
}
