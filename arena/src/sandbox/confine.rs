//! The confine step: the first program in a bot's sandbox (`arena confine`,
//! run by bubblewrap from an inherited descriptor). It checks that the
//! isolation promised is there, sets the process limit, which only counts
//! for the bot inside its own user namespace, closes every descriptor but
//! stdio, and execs the bot. A sandbox that is not as promised runs nothing.

use std::ffi::OsString;

use crate::platform;

/// The exit code when the isolation is not as promised, or the bot cannot
/// be started.
pub const REFUSED: i32 = 125;

/// Why the confine step ran no bot; the caller says it on stderr (the
/// bot's log, or the probe's answer) and exits with [`REFUSED`].
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The isolation is not as promised.
    #[error("not isolated as promised: {0}; the bot was not started")]
    NotIsolated(Leak),
    /// RLIMIT_NPROC cannot be set.
    #[error("cannot limit processes: {0}")]
    Limit(std::io::Error),
    /// The bot's program cannot be started.
    #[error("cannot start {program}: {cause}")]
    Start {
        /// The program.
        program: String,
        /// Why.
        cause: std::io::Error,
    },
}

/// What is missing from the isolation a sandbox promises.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Leak {
    /// A capability set is not empty (or not shown).
    #[error("{set} is {value}")]
    Capabilities {
        /// The set (`CapEff`, ...).
        set: &'static str,
        /// What `/proc/self/status` shows, or `missing`.
        value: String,
    },
    /// `no_new_privs` is not set.
    #[error("no_new_privs is not set")]
    NewPrivileges,
    /// No seccomp filter is loaded.
    #[error("no seccomp filter")]
    NoSeccomp,
    /// The user namespace maps the host's root.
    #[error(
        "uid {0} owns /usr: the user namespace maps the host's root, not an unprivileged user"
    )]
    HostRoot(u32),
}

/// Runs the confine step: checks the sandbox, sets RLIMIT_NPROC to
/// `processes`, and execs `command` (when `arena` is set, its program is
/// this executable, run as `/proc/self/exe`: a bundled bot). With an empty `command`
/// it only checks (the arena's probe) and returns.
///
/// # Errors
/// [`ConfineError`]: the sandbox is not as promised, or the bot cannot start.
pub fn run(processes: u64, arena: bool, command: &[OsString]) -> Result<(), ConfineError> {
    let status = platform::own_status();
    let me = platform::user_id();
    let usr_owner = std::fs::metadata("/usr").map_or(me, |m| platform::owner_and_mode(&m).0);
    check(&status, me, usr_owner).map_err(ConfineError::NotIsolated)?;
    platform::limit_processes(processes).map_err(ConfineError::Limit)?;
    let Some((program, args)) = command.split_first() else {
        return Ok(());
    };
    platform::close_other_descriptors();
    let source = platform::exec((!arena).then_some(program.as_os_str()), args);
    Err(ConfineError::Start {
        program: program.to_string_lossy().into_owned(),
        cause: source,
    })
}

/// Checks a `/proc/self/status`: no capability in any set,
/// `no_new_privs`, a seccomp filter; and that the host's root is not the
/// process's own user: `/usr`, owned by root on the host, must not show as
/// owned by `me` (it shows as the overflow uid when the user namespace maps
/// an unprivileged host user, and as `me` when it maps root).
///
/// # Errors
/// [`Leak`]: what is missing.
pub fn check(status: &str, me: u32, usr_owner: u32) -> Result<(), Leak> {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
            .map(str::trim)
    };
    for set in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
        match field(set) {
            Some(v) if !v.is_empty() && v.bytes().all(|b| b == b'0') => {}
            v => {
                return Err(Leak::Capabilities {
                    set,
                    value: v.unwrap_or("missing").to_string(),
                })
            }
        }
    }
    if field("NoNewPrivs") != Some("1") {
        return Err(Leak::NewPrivileges);
    }
    if field("Seccomp") != Some("2") {
        return Err(Leak::NoSeccomp);
    }
    if usr_owner == me {
        return Err(Leak::HostRoot(me));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check, Leak};

    const CONFINED: &str = "Name:\tbot\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n";

    #[test]
    fn a_confined_process_passes() {
        assert_eq!(check(CONFINED, 1000, 65534), Ok(()));
    }

    #[test]
    fn any_capability_or_a_root_mapping_is_refused() {
        let caps = CONFINED.replace("CapEff:\t0000000000000000", "CapEff:\t000001fffeffffff");
        assert_eq!(
            check(&caps, 1000, 65534),
            Err(Leak::Capabilities {
                set: "CapEff",
                value: "000001fffeffffff".into()
            })
        );
        let no_bnd = CONFINED.replace("CapBnd:\t0000000000000000\n", "");
        let missing = check(&no_bnd, 1000, 65534).unwrap_err();
        assert!(
            missing.to_string().contains("CapBnd is missing"),
            "{missing}"
        );
        let nnp = CONFINED.replace("NoNewPrivs:\t1", "NoNewPrivs:\t0");
        assert_eq!(check(&nnp, 1000, 65534), Err(Leak::NewPrivileges));
        let seccomp = CONFINED.replace("Seccomp:\t2", "Seccomp:\t0");
        assert_eq!(check(&seccomp, 1000, 65534), Err(Leak::NoSeccomp));
        let root = check(CONFINED, 1000, 1000).unwrap_err();
        assert_eq!(root, Leak::HostRoot(1000));
        assert!(root.to_string().contains("host's root"));
    }
}
