//! `fair-memory`: Linux only (its attacks are Linux's calls); the bot itself is
//! `fair-memory/linux.rs`. Elsewhere it says so and exits with code 2.

#[cfg(target_os = "linux")]
#[path = "fair-memory/linux.rs"]
mod linux;

endodoi_test_bots::linux_only_main!("fair-memory");
