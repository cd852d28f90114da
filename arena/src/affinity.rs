//! CPU affinity: which cores this process may use, and pinning the calling
//! thread to one of them (`sched_setaffinity(2)` through nix). A thread's
//! pin is inherited by the threads and processes it starts, so a series
//! worker pinned here takes its bots (and their guards) to its core.

use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::unistd::Pid;

/// The cores the calling thread may run on, in increasing order (empty if
/// the system will not say).
#[must_use]
pub fn allowed_cores() -> Vec<usize> {
    let Ok(set) = sched_getaffinity(Pid::from_raw(0)) else {
        return Vec::new();
    };
    (0..CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect()
}

/// The set holding `core` alone.
///
/// # Panics
/// If `core` is not below [`CpuSet::count`] (cores come from [`allowed_cores`]).
#[must_use]
pub fn one_core(core: usize) -> CpuSet {
    let mut set = CpuSet::new();
    set.set(core).expect("a core below CpuSet::count");
    set
}

/// Pins the calling thread to `core`.
///
/// # Errors
/// The system's refusal (a core this process may not use, say).
pub fn pin_current_thread(core: usize) -> nix::Result<()> {
    sched_setaffinity(Pid::from_raw(0), &one_core(core))
}

/// Runs `f` with the calling thread pinned to `core` (if any), then gives
/// the thread back its former cores. Threads and processes started by `f`
/// keep the pin.
pub fn pinned<T>(core: Option<usize>, f: impl FnOnce() -> T) -> T {
    let Some(core) = core else { return f() };
    let before = sched_getaffinity(Pid::from_raw(0)).ok();
    let _ = pin_current_thread(core);
    let out = f();
    if let Some(before) = before {
        let _ = sched_setaffinity(Pid::from_raw(0), &before);
    }
    out
}
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
