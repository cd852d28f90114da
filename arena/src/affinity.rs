//! CPU affinity: which cores this process may use, and pinning the calling
//! thread to one of them (Linux's `sched_setaffinity(2)`, through
//! [`crate::platform`]; elsewhere no core is pinned, [`crate::platform::AFFINITY`]).
//! A thread's pin is inherited by the threads and processes it starts, so a
//! series worker pinned here takes its bots (and their guards) to its core.

pub use crate::platform::{allowed_cores, pin_current_thread, pinned};

/// The CPUs this process may use: those the kernel allows it
/// (`available_parallelism`, which reads cgroups and the affinity mask) and,
/// in a Slurm task, at most those it was given (`SLURM_CPUS_PER_TASK`).
#[must_use]
pub fn usable_cores() -> usize {
    let slurm_cpus = std::env::var("SLURM_CPUS_PER_TASK")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&c| c > 0);
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(slurm_cpus.unwrap_or(usize::MAX))
}
