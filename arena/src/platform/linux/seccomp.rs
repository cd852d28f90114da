//! The seccomp filter of a sandboxed bot: a short deny list, compiled to
//! classic BPF with `seccompiler` and handed to bubblewrap (`--seccomp FD`).
//!
//! Why these calls: each is a way out of a namespace sandbox or a large
//! kernel attack surface that no bot needs (the lists of Docker's and
//! Flatpak's default profiles block the same families). A blocked call fails
//! with EPERM; every other call is allowed. A call made through another
//! architecture's ABI (`int 0x80` on x86_64) kills the process, and x32
//! calls fail, so the list cannot be bypassed by number.

use std::collections::BTreeMap;

use nix::libc;
use seccompiler::{
    sock_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};

/// The calls that fail with EPERM whatever their arguments, with why.
const DENIED: &[(i64, &str)] = &[
    (libc::SYS_ptrace, "tracing another process"),
    (
        libc::SYS_process_vm_readv,
        "reading another process's memory",
    ),
    (
        libc::SYS_process_vm_writev,
        "writing another process's memory",
    ),
    (libc::SYS_kcmp, "comparing other processes' kernel state"),
    (
        libc::SYS_pidfd_getfd,
        "taking another process's descriptors",
    ),
    (
        libc::SYS_process_madvise,
        "advising on another process's memory",
    ),
    (libc::SYS_mount, "mounting"),
    (libc::SYS_umount2, "unmounting"),
    (libc::SYS_pivot_root, "changing the root"),
    (libc::SYS_chroot, "changing the root"),
    (libc::SYS_open_tree, "the new mount API"),
    (libc::SYS_move_mount, "the new mount API"),
    (libc::SYS_fsopen, "the new mount API"),
    (libc::SYS_fsconfig, "the new mount API"),
    (libc::SYS_fsmount, "the new mount API"),
    (libc::SYS_fspick, "the new mount API"),
    (libc::SYS_mount_setattr, "the new mount API"),
    (libc::SYS_unshare, "new namespaces"),
    (libc::SYS_setns, "joining namespaces"),
    (libc::SYS_keyctl, "the kernel keyring"),
    (libc::SYS_add_key, "the kernel keyring"),
    (libc::SYS_request_key, "the kernel keyring"),
    (libc::SYS_bpf, "eBPF programs"),
    (libc::SYS_perf_event_open, "performance counters"),
    (libc::SYS_userfaultfd, "user fault handling (exploit aid)"),
    (libc::SYS_io_uring_setup, "io_uring"),
    (libc::SYS_io_uring_enter, "io_uring"),
    (libc::SYS_io_uring_register, "io_uring"),
    (libc::SYS_open_by_handle_at, "opening files by handle"),
    (libc::SYS_kexec_load, "loading a kernel"),
    (libc::SYS_kexec_file_load, "loading a kernel"),
    (libc::SYS_init_module, "kernel modules"),
    (libc::SYS_finit_module, "kernel modules"),
    (libc::SYS_delete_module, "kernel modules"),
    (libc::SYS_reboot, "rebooting"),
    (libc::SYS_swapon, "swap"),
    (libc::SYS_swapoff, "swap"),
    (libc::SYS_acct, "process accounting"),
    (libc::SYS_quotactl, "disk quotas"),
    (libc::SYS_syslog, "the kernel log"),
];

/// The bit of `O_TMPFILE` that is its own: `O_TMPFILE` is that bit and
/// `O_DIRECTORY`, whose value differs between architectures (libc has each
/// one's), and a flag word with the bit alone is refused by the kernel.
const TMPFILE_BIT: u64 = (libc::O_TMPFILE & !libc::O_DIRECTORY) as u64;

/// The socket family that no network namespace covers: a VM's vsock
/// reaches its host.
const AF_VSOCK: u64 = 40;

/// Why the seccomp filter cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum SeccompError {
    /// seccompiler has no support for this processor.
    #[error("the sandbox's seccomp filter has no support for {0}")]
    Arch(&'static str),
    /// seccompiler refused a rule or the filter (its own words).
    #[error("the sandbox's seccomp filter cannot be built: {0}")]
    Build(String),
    /// seccompiler's program does not start as the prelude expects.
    #[error("seccompiler's program has an unexpected shape")]
    Shape,
}

/// The filter as bubblewrap reads it: the BPF instructions, 8 bytes each,
/// in native byte order. A `pinned` bot's (`[tournament] affinity`) also
/// refuses `sched_setaffinity`.
///
/// # Errors
/// When this processor's architecture has no seccomp support in
/// `seccompiler` (it has x86_64, aarch64 and riscv64).
pub fn program(pinned: bool) -> Result<Vec<u8>, SeccompError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|_| SeccompError::Arch(std::env::consts::ARCH))?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&(nr, _)| (nr, Vec::new())).collect();
    let rule = |arg: u8, value: u64| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
            .and_then(|c| SeccompRule::new(vec![c]))
            .map_err(|e| SeccompError::Build(e.to_string()))
    };
    // Pushing keystrokes into a terminal (TIOCSTI) or the console (TIOCLINUX).
    rules.insert(
        libc::SYS_ioctl,
        vec![rule(1, libc::TIOCSTI)?, rule(1, libc::TIOCLINUX)?],
    );
    rules.insert(libc::SYS_socket, vec![rule(0, AF_VSOCK)?]);
    set_id_rules(&mut rules)?;
    if pinned {
        // A bot pinned to one core must not take back the others.
        rules.insert(libc::SYS_sched_setaffinity, Vec::new());
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|e| SeccompError::Build(e.to_string()))?;
    let mut bpf: BpfProgram = filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| SeccompError::Build(e.to_string()))?;
    prelude(&mut bpf, arch == TargetArch::x86_64)?;
    Ok(bpf
        .iter()
        .flat_map(|i| {
            let mut bytes = [0u8; 8];
            bytes[..2].copy_from_slice(&i.code.to_ne_bytes());
            bytes[2] = i.jt;
            bytes[3] = i.jf;
            bytes[4..].copy_from_slice(&i.k.to_ne_bytes());
            bytes
        })
        .collect())
}

/// The rules that refuse to make a set-uid or set-gid file: the bot's host
/// user owns what it writes, and such a file left in a writable folder
/// would hand that user to anyone on the host (as systemd's
/// RestrictSUIDSGID).
fn set_id_rules(rules: &mut BTreeMap<i64, Vec<SeccompRule>>) -> Result<(), SeccompError> {
    let bits = |arg: u8, bit: u64| {
        SeccompCondition::new(
            arg,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::MaskedEq(bit),
            bit,
        )
        .map_err(|e| SeccompError::Build(e.to_string()))
    };
    // A set-id `mode` in `mode_arg`, when `flags`, if given, has `bit`.
    let set_id =
        |mode_arg: u8, flags: Option<(u8, u64)>| -> Result<Vec<SeccompRule>, SeccompError> {
            [libc::S_ISUID as u64, libc::S_ISGID as u64]
                .into_iter()
                .map(|bit| {
                    let mut when = vec![bits(mode_arg, bit)?];
                    if let Some((flags, flag)) = flags {
                        when.push(bits(flags, flag)?);
                    }
                    SeccompRule::new(when).map_err(|e| SeccompError::Build(e.to_string()))
                })
                .collect()
        };
    // open makes a file of the mode given with O_CREAT, or with O_TMPFILE
    // (a nameless one, which linkat may then name in any writable folder).
    let opening = |mode_arg: u8, flags: u8| -> Result<Vec<SeccompRule>, SeccompError> {
        let mut rules = set_id(mode_arg, Some((flags, libc::O_CREAT as u64)))?;
        rules.extend(set_id(mode_arg, Some((flags, TMPFILE_BIT)))?);
        Ok(rules)
    };
    rules.insert(libc::SYS_fchmod, set_id(1, None)?);
    rules.insert(libc::SYS_fchmodat, set_id(2, None)?);
    rules.insert(libc::SYS_fchmodat2, set_id(2, None)?);
    rules.insert(libc::SYS_openat, opening(3, 2)?);
    rules.insert(libc::SYS_mknodat, set_id(2, None)?);
    #[cfg(target_arch = "x86_64")]
    {
        rules.insert(libc::SYS_chmod, set_id(1, None)?);
        rules.insert(libc::SYS_open, opening(2, 1)?);
        rules.insert(libc::SYS_creat, set_id(1, None)?);
        rules.insert(libc::SYS_mknod, set_id(1, None)?);
    }
    Ok(())
}

// Classic BPF opcodes (linux/bpf_common.h).
const BPF_LD_W_ABS: u16 = 0x20;
const BPF_JMP_JGE_K: u16 = 0x35;
const BPF_JMP_JEQ_K: u16 = 0x15;
const BPF_RET_K: u16 = 0x06;
/// Where `seccomp_data` holds the call's number.
const NR_OFFSET: u32 = 0;
/// The bit that marks an x32 call on x86_64.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// Checks that seccompiler's rules cannot make, put right after the
/// architecture check (three instructions that jump only among themselves),
/// before the program loads the call's number itself:
/// - on x86_64, every x32 call fails: seccompiler matches numbers exactly,
///   and an x32 call has the x86_64 architecture but another number, so a
///   denied call could be made through x32;
/// - `openat2` fails with ENOSYS, as on a kernel without it (libc then uses
///   `openat`): it takes its mode in a structure no filter can read, so it
///   could make a set-uid file.
fn prelude(bpf: &mut BpfProgram, x32: bool) -> Result<(), SeccompError> {
    let at = 3;
    let load_nr = |i: &sock_filter| i.code == BPF_LD_W_ABS && i.k == NR_OFFSET;
    if !bpf.get(at).is_some_and(load_nr) {
        return Err(SeccompError::Shape);
    }
    let ins = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    let fail = |errno: i32| ins(BPF_RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | errno as u32);
    let mut checks = vec![ins(BPF_LD_W_ABS, 0, 0, NR_OFFSET)];
    if x32 {
        checks.push(ins(BPF_JMP_JGE_K, 0, 1, X32_SYSCALL_BIT));
        checks.push(fail(libc::EPERM));
    }
    checks.push(ins(BPF_JMP_JEQ_K, 0, 1, libc::SYS_openat2 as u32));
    checks.push(fail(libc::ENOSYS));
    bpf.splice(at..at, checks);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_pinned_bots_program_has_one_rule_more() {
        let (free, pinned) = (super::program(false), super::program(true));
        let (free, pinned) = (free.unwrap(), pinned.unwrap());
        assert!(pinned.len() > free.len());
        // The call's number appears as a comparison only in the pinned one.
        let has = |bytes: &[u8], k: u32| {
            bytes.chunks(8).any(|i| {
                u16::from_ne_bytes([i[0], i[1]]) == super::BPF_JMP_JEQ_K
                    && u32::from_ne_bytes(i[4..8].try_into().unwrap()) == k
            })
        };
        let nr = nix::libc::SYS_sched_setaffinity as u32;
        assert!(has(&pinned, nr) && !has(&free, nr));
    }

    #[test]
    fn the_tmpfile_bit_is_o_tmpfile_without_o_directory() {
        use nix::libc::{O_DIRECTORY, O_TMPFILE};
        // __O_TMPFILE is 020000000 on x86_64, aarch64 and riscv64 alike;
        // O_DIRECTORY is 0200000 on two of them and 040000 on aarch64.
        assert_eq!(super::TMPFILE_BIT, 0o20_000_000);
        assert_eq!(super::TMPFILE_BIT | O_DIRECTORY as u64, O_TMPFILE as u64);
    }

    #[test]
    fn the_program_has_a_rule_per_call_and_its_prelude_after_the_arch_check() {
        let bytes = super::program(false).unwrap();
        assert_eq!(bytes.len() % 8, 0);
        assert!(bytes.len() / 8 > super::DENIED.len());
        if cfg!(target_arch = "x86_64") {
            let code = |i: usize| u16::from_ne_bytes([bytes[8 * i], bytes[8 * i + 1]]);
            let k = |i: usize| u32::from_ne_bytes(bytes[8 * i + 4..8 * i + 8].try_into().unwrap());
            assert_eq!(
                (code(4), k(4)),
                (super::BPF_JMP_JGE_K, super::X32_SYSCALL_BIT)
            );
            assert_eq!(code(5), super::BPF_RET_K);
            assert_eq!(
                (code(6), k(6)),
                (super::BPF_JMP_JEQ_K, nix::libc::SYS_openat2 as u32)
            );
        }
    }
}
