//! `escape`: Linux only (its attacks are Linux's calls); the bot itself is
//! `escape/linux.rs`. Elsewhere it says so and exits with code 2.

#[cfg(target_os = "linux")]
#[path = "escape/linux.rs"]
mod linux;

endodoi_test_bots::linux_only_main!("escape");
