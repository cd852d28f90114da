//! The sandbox of a bot with `sandbox = true`: bubblewrap (Debian's
//! `bubblewrap`, <https://github.com/containers/bubblewrap>) started by the
//! guard, with every isolation it has.
//!
//! What the bot gets (`docs/sandbox.md` is the user's page):
//! - a user namespace in which it is uid 1000 `bot`, mapped to an
//!   unprivileged host user: the arena's own user, or, when the arena runs
//!   as root, `sandbox_user` (default `nobody`), to which the guard switches
//!   before it starts bubblewrap; no capabilities, `no_new_privs`, no
//!   further user namespaces;
//! - its own session, and its own network (loopback only), process, IPC,
//!   host-name and cgroup namespaces;
//! - a filesystem of its own: `/usr` and the `/bin` and `/lib*` links or
//!   folders read-only, a few files of `/etc` (see [`ETC`]) and stand-in
//!   `passwd`, `group` and `hosts`; its `dir` (read-only unless listed in
//!   `sandbox_rw`) and the paths it lists, at their host paths; fresh
//!   `/proc` and `/dev`; private tmpfs `/tmp`, `/var/tmp`, `/run` and
//!   `/dev/shm` of `tmp_mb` each; the rest of `/` read-only and empty;
//! - a seccomp filter (the private module `seccomp`) and an environment of its own
//!   ([`ENV`]), nothing of the arena's;
//! - `processes` as RLIMIT_NPROC, set inside its namespace by
//!   [`confine`], which then checks all of the above before it runs the bot.
//!
//! The arena's executable is not in the sandbox's filesystem: bubblewrap
//! runs it from an inherited descriptor (`/proc/self/fd/N`) as the confine
//! step, which runs a bundled bot as `/proc/self/exe`. Nothing of a
//! sandbox's settings is on a command line, which every local user may
//! read: the arena hands the sandbox to the guard ([`Sandbox::send`]), and
//! the guard hands bubblewrap its options (`--args`), in sealed memory
//! files they inherit.

pub mod confine;
pub mod probe;

use crate::platform::{self, Descriptor};
use std::ffi::{OsStr, OsString};

/// A descriptor's number, as bubblewrap inherits it.
type RawFd = i32;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::SandboxSpec;

/// The bot's uid and gid inside its sandbox (its host ids are mapped to them).
pub const INSIDE_ID: u32 = 1000;

/// Where a program named without `/` is looked up in the sandbox: the
/// bot's `PATH` there.
pub const INSIDE_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The bot's whole environment in the sandbox; the arena's is not passed on.
pub const ENV: &[(&str, &str)] = &[
    ("PATH", INSIDE_PATH),
    ("HOME", "/tmp"),
    ("TMPDIR", "/tmp"),
    ("USER", "bot"),
    ("LOGNAME", "bot"),
    ("LANG", "C.UTF-8"),
];

/// The files and folders of the host's `/etc` that the sandbox shows,
/// read-only, where they exist: what the dynamic loader, time zones, TLS
/// certificates and Debian's alternatives links need. Folders whose names
/// start with `java-` or `python3` (the JVM's and Python's settings) are
/// shown too.
pub const ETC: &[&str] = &[
    "alternatives",
    "ca-certificates",
    "ca-certificates.conf",
    "host.conf",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "mime.types",
    "nsswitch.conf",
    "pki",
    "ssl",
    "timezone",
];

/// The host's folders no sandbox path may be or lie in: the sandbox has
/// its own, and the host's hold its processes, devices and sockets.
const SYSTEM: &[&str] = &["/proc", "/sys", "/dev", "/run"];

/// The top-level links or folders of the host that the sandbox shows
/// read-only beside `/usr` (as links where they are links).
const ROOT_LINKS: &[&str] = &["bin", "sbin", "lib", "lib32", "lib64", "libx32"];

const PASSWD: &str = "root:x:0:0:root:/root:/usr/sbin/nologin\n\
bot:x:1000:1000:En Dodoi bot:/tmp:/usr/sbin/nologin\n\
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
const GROUP: &str = "root:x:0:\nbot:x:1000:\nnogroup:x:65534:\n";
const HOSTS: &str =
    "127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n127.0.1.1 bot\n";

/// Why a bot's sandbox cannot be set up, or does not hold on this host;
/// each names the bot and the fix.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The platform has no sandbox ([`crate::platform::SANDBOX`]).
    #[error("bot '{bot}': {}", crate::platform::NO_SANDBOX)]
    Unsupported {
        /// The bot.
        bot: String,
    },
    /// bubblewrap is not installed.
    #[error("bot '{bot}' wants a sandbox, but bubblewrap (bwrap) is not on PATH: install Debian's bubblewrap, or set sandbox = false")]
    NoBubblewrap {
        /// The bot.
        bot: String,
    },
    /// The bot's working directory cannot be resolved.
    #[error("bot '{bot}': working directory {}: {cause}", dir.display())]
    Dir {
        /// The bot.
        bot: String,
        /// The folder.
        dir: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// A path the sandbox would show is refused; `why` says why, and the fix.
    #[error("bot '{bot}': {} {why}", path.display())]
    Path {
        /// The bot.
        bot: String,
        /// The path.
        path: PathBuf,
        /// Why, and the fix.
        why: String,
    },
    /// The sandbox's host user cannot reach, read or write a path shown.
    #[error("bot '{bot}': {why}")]
    Access {
        /// The bot.
        bot: String,
        /// What it cannot do, and the fix.
        why: String,
    },
    /// `sandbox_user` is not a user of this host, or is root.
    #[error("bot '{bot}': sandbox_user '{user}' {why}")]
    User {
        /// The bot.
        bot: String,
        /// The user as configured.
        user: String,
        /// What is wrong, and the fix.
        why: &'static str,
    },
    /// The sandbox's command cannot be prepared (its descriptors, the filter).
    #[error("{0}")]
    Prepare(std::io::Error),
    /// bubblewrap cannot be started.
    #[error("cannot start {}: {cause}", bwrap.display())]
    Start {
        /// bubblewrap's path.
        bwrap: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// The probe was stopped (Ctrl-C) or ran out of time, and was killed.
    #[error(transparent)]
    Probe(probe::ProbeWait),
    /// The probe: bubblewrap, or the confine step's check, refused.
    #[error("this host cannot give the sandbox's isolation: {said}{hint}; or set sandbox = false")]
    NotIsolated {
        /// The last line they said.
        said: String,
        /// What the host needs, when the line names namespaces.
        hint: &'static str,
    },
}

/// One bot's sandbox, resolved: absolute paths and the host user. The
/// arena builds it and hands it to the guard (as JSON in an inherited
/// descriptor, [`Sandbox::send`]), which starts bubblewrap with
/// [`Sandbox::command`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sandbox {
    /// bubblewrap's path.
    pub bwrap: PathBuf,
    /// The bot's working directory, absolute.
    pub dir: PathBuf,
    /// Paths shown read-only, absolute (the `dir` among them unless writable).
    pub read_only: Vec<PathBuf>,
    /// Paths shown writable, absolute.
    pub writable: Vec<PathBuf>,
    /// The `dir`, `sandbox_ro` and `sandbox_rw` paths as the config names
    /// them (absolute, links not resolved): what [`trace`] follows.
    pub named: Vec<PathBuf>,
    /// RLIMIT_NPROC inside the sandbox: processes and threads at once.
    pub processes: u64,
    /// The size of each private tmpfs, MiB.
    pub tmp_mb: u64,
    /// The host uid and gid to switch to before bubblewrap, when the arena
    /// runs as root; `None` keeps the arena's own (unprivileged) user.
    pub host_user: Option<(u32, u32)>,
    /// Whether the program is the arena's own executable (a bundled bot).
    pub runs_arena: bool,
    /// The bot's own variables (its `env`), set after [`ENV`] (so they may
    /// replace one of those): with [`ENV`], its whole environment.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    /// Whether the bot runs pinned to one core (`[tournament] affinity`):
    /// its seccomp filter then refuses `sched_setaffinity`.
    #[serde(default)]
    pub pinned: bool,
}

/// A bubblewrap command ready to spawn, with the descriptors it inherits;
/// they are closed when this is dropped, so keep it until the spawn.
pub struct Prepared {
    /// The command: spawn it (stdio and process group are the caller's).
    pub command: std::process::Command,
    _fds: Vec<Descriptor>,
}

impl Sandbox {
    /// Resolves the sandbox `sandbox` of bot `name`, whose working directory
    /// is `dir` (absolute): its paths (relative ones from `dir`, each of
    /// which must exist) and, when the arena runs as root, its host user.
    ///
    /// # Errors
    /// One line naming the bot and the fix: bubblewrap is missing, a path
    /// does not exist, the user is unknown or is root.
    pub fn resolve(
        name: &str,
        sandbox: &SandboxSpec,
        dir: &Path,
        runs_arena: bool,
    ) -> Result<Sandbox, SandboxError> {
        if !platform::SANDBOX {
            return Err(SandboxError::Unsupported {
                bot: name.to_string(),
            });
        }
        let bwrap = which::which("bwrap").map_err(|_| SandboxError::NoBubblewrap {
            bot: name.to_string(),
        })?;
        let mut named = vec![lexical(dir)];
        let dir = std::fs::canonicalize(dir).map_err(|source| SandboxError::Dir {
            bot: name.to_string(),
            dir: dir.to_path_buf(),
            cause: source,
        })?;
        let refuse = |path: &Path, why: &str| SandboxError::Path {
            bot: name.to_string(),
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        let system =
            |real: &Path| real == Path::new("/") || SYSTEM.iter().any(|f| real.starts_with(f));
        if system(&dir) {
            return Err(refuse(
                &dir,
                "is the host's root or a system folder: give the bot a folder of its own",
            ));
        }
        let (mut read_only, mut writable, mut reals) = (Vec::new(), Vec::new(), Vec::new());
        let given = sandbox
            .read_only
            .iter()
            .map(|p| (p, "sandbox_ro", false))
            .chain(sandbox.writable.iter().map(|p| (p, "sandbox_rw", true)));
        for (given, key, rw) in given {
            let path = lexical(&dir.join(given));
            let real = std::fs::canonicalize(&path).map_err(|e| {
                refuse(&path, &format!("({key}) cannot be shown in the sandbox: {e}: fix the path (relative ones start in the bot's dir)"))
            })?;
            reals.push((real.clone(), key));
            named.push(path);
            if rw {
                writable.push(real)
            } else {
                read_only.push(real)
            }
        }
        for path in &named {
            for (point, link) in trace(path) {
                // The bot's author made its folder: a link there may point anywhere.
                if link && point.starts_with(&dir) {
                    return Err(refuse(path, &format!("goes through the link {}, in the bot's folder, which its author made: name the real path", point.display())));
                }
                // The bot may rename what is in a folder it may write and
                // put a link in its place, for its next start.
                if let Some(w) = writable
                    .iter()
                    .find(|w| point != **w && point.starts_with(w))
                {
                    return Err(refuse(path, &format!("goes through {}, inside {}, which the bot may write (it could swap it for a link): keep writable folders apart from the other paths", point.display(), w.display())));
                }
            }
        }
        if let Some((real, key)) = reals.iter().find(|(real, _)| system(real)) {
            return Err(refuse(real, &format!("({key}) is the host's root or a system folder ({}): name the folder of the bot's own files instead", SYSTEM.join(", "))));
        }
        if !writable.contains(&dir) {
            read_only.push(dir.clone());
        }
        read_only.retain(|p| !writable.contains(p));
        read_only.sort();
        read_only.dedup();
        let host_user = if platform::is_root() {
            Some(host_user(name, &sandbox.user)?)
        } else {
            None
        };
        Ok(Sandbox {
            bwrap,
            dir,
            read_only,
            writable,
            named,
            processes: sandbox.processes,
            tmp_mb: sandbox.tmp_mb,
            host_user,
            runs_arena,
            env: Vec::new(),
            pinned: sandbox.pinned,
        })
    }

    /// Whether the host program `path` (absolute) can run in the sandbox:
    /// its path there ([`Sandbox::inside_path`]) and the file it links to
    /// are both in what the sandbox shows.
    #[must_use]
    pub fn shows(&self, path: &Path) -> bool {
        let shown = |path: &Path| {
            path.starts_with("/usr")
                || ROOT_LINKS
                    .iter()
                    .any(|l| path.starts_with(Path::new("/").join(l)))
                || self
                    .read_only
                    .iter()
                    .chain(&self.writable)
                    .any(|p| path.starts_with(p))
        };
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        shown(&Sandbox::inside_path(path)) && shown(&target)
    }

    /// The path of host program `path` in the sandbox, where folders are
    /// shown at their real paths (links resolved): its folder resolved, its
    /// name kept, so that a virtual environment's `bin/python` link stays
    /// itself (Python finds its environment from that path).
    #[must_use]
    pub fn inside_path(path: &Path) -> PathBuf {
        match (path.parent().map(std::fs::canonicalize), path.file_name()) {
            (Some(Ok(folder)), Some(name)) => folder.join(name),
            _ => path.to_path_buf(),
        }
    }

    /// Every path of the host shown in the sandbox that the config chose:
    /// the `dir`, `sandbox_ro` and `sandbox_rw`, with whether it is writable.
    pub fn shown(&self) -> impl Iterator<Item = (&Path, bool)> {
        self.read_only
            .iter()
            .map(|p| (p.as_path(), false))
            .chain(self.writable.iter().map(|p| (p.as_path(), true)))
    }

    /// bubblewrap's options, given the descriptors it inherits: what it
    /// reads from a descriptor (`--args`), so that no command line shows
    /// them. Pure.
    fn options(&self, fds: &Fds) -> Vec<OsString> {
        let mut a: Vec<OsString> = Vec::new();
        let mut push = |words: &[&OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
        let s = |x: &'static str| OsStr::new(x);
        let id = INSIDE_ID.to_string();
        push(&[
            s("--unshare-all"),
            s("--unshare-user"),
            s("--disable-userns"),
            s("--uid"),
            id.as_ref(),
            s("--gid"),
            id.as_ref(),
            s("--hostname"),
            s("bot"),
            s("--cap-drop"),
            s("ALL"),
            s("--new-session"),
            s("--die-with-parent"),
            s("--clearenv"),
        ]);
        for (k, v) in ENV {
            push(&[s("--setenv"), s(k), s(v)]);
        }
        for (k, v) in &self.env {
            push(&[s("--setenv"), k.as_ref(), v.as_ref()]);
        }
        push(&[s("--ro-bind"), s("/usr"), s("/usr")]);
        for name in ROOT_LINKS {
            let host = Path::new("/").join(name);
            match std::fs::read_link(&host) {
                Ok(target) => push(&[s("--symlink"), target.as_os_str(), host.as_os_str()]),
                Err(_) if host.is_dir() => {
                    push(&[s("--ro-bind"), host.as_os_str(), host.as_os_str()]);
                }
                Err(_) => {}
            }
        }
        push(&[s("--perms"), s("0755"), s("--dir"), s("/etc")]);
        for path in etc_entries() {
            push(&[s("--ro-bind"), path.as_os_str(), path.as_os_str()]);
        }
        let fd = |n: RawFd| OsString::from(n.to_string());
        for (n, dest) in [
            (fds.passwd, "/etc/passwd"),
            (fds.group, "/etc/group"),
            (fds.hosts, "/etc/hosts"),
        ] {
            push(&[
                s("--perms"),
                s("0644"),
                s("--ro-bind-data"),
                &fd(n),
                s(dest),
            ]);
        }
        push(&[s("--proc"), s("/proc"), s("--dev"), s("/dev")]);
        let size = (self.tmp_mb << 20).to_string();
        for dest in ["/tmp", "/var/tmp", "/run", "/dev/shm"] {
            push(&[
                s("--size"),
                size.as_ref(),
                s("--perms"),
                s("1777"),
                s("--tmpfs"),
                s(dest),
            ]);
        }
        // /dev is a tmpfs of bubblewrap's with no size: only its nodes and
        // /dev/shm (a mount of its own) may be written.
        push(&[s("--remount-ro"), s("/dev")]);
        // Shallow paths first, so a path inside another is bound on top of it.
        let mut shown: Vec<(&Path, bool)> = self.shown().collect();
        shown.sort_by_key(|(p, _)| p.components().count());
        for (path, writable) in shown {
            let how = if writable { "--bind" } else { "--ro-bind" };
            push(&[s(how), path.as_os_str(), path.as_os_str()]);
        }
        push(&[
            s("--remount-ro"),
            s("/"),
            s("--chdir"),
            self.dir.as_os_str(),
            s("--seccomp"),
            &fd(fds.seccomp),
        ]);
        a
    }

    /// What bubblewrap runs after its options: the confine step, this
    /// executable from the inherited descriptor `exe`. Pure.
    fn confine_step(&self, exe: RawFd) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec![
            format!("/proc/self/fd/{exe}").into(),
            "confine".into(),
            format!("--processes={}", self.processes).into(),
        ];
        if self.runs_arena {
            a.push("--arena".into());
        }
        a
    }

    /// The bubblewrap command that runs `program` with `args` in this
    /// sandbox (with no program: the confine step's check alone). The
    /// child joins the cgroup folders `cgroups` first
    /// ([`platform::join_cgroups_at_exec`]), while it still has the
    /// guard's rights; then, when the arena runs as root, it switches to
    /// the host user before it execs bubblewrap.
    ///
    /// # Errors
    /// When a pipe, the arena's executable or the seccomp filter cannot be
    /// made, or `cgroups` where the platform has none.
    pub fn command(
        &self,
        program: Option<&OsStr>,
        args: &[OsString],
        cgroups: &[std::path::PathBuf],
    ) -> std::io::Result<Prepared> {
        let data = platform::data_pipe;
        let filter = platform::seccomp_filter(self.pinned)?;
        let exe = platform::descriptor_of(std::fs::File::open(std::env::current_exe()?)?);
        let mut owned = vec![
            exe,
            data(&filter)?,
            data(PASSWD.as_bytes())?,
            data(GROUP.as_bytes())?,
            data(HOSTS.as_bytes())?,
        ];
        let mut raw: Vec<RawFd> = owned.iter().map(platform::descriptor_number).collect();
        let fds = Fds {
            exe: raw[0],
            seccomp: raw[1],
            passwd: raw[2],
            group: raw[3],
            hosts: raw[4],
        };
        // The options (the bot's env, its paths) go through a descriptor:
        // a command line is every local user's to read (ps).
        let options = nul_separated(&self.options(&fds))?;
        let options = platform::sealed_file(&options)?;
        raw.push(platform::descriptor_number(&options));
        let mut command = std::process::Command::new(&self.bwrap);
        // Nothing of the arena's environment, not even in bubblewrap's own
        // processes, whose /proc/1/environ the bot can read.
        command
            .env_clear()
            .arg("--args")
            .arg(platform::descriptor_number(&options).to_string())
            .arg("--")
            .args(self.confine_step(fds.exe));
        owned.push(options);
        if let Some(program) = program {
            command.arg("--").arg(program).args(args);
        }
        platform::join_cgroups_at_exec(&mut command, cgroups)?;
        platform::sandbox_child(&mut command, raw, self.host_user);
        Ok(Prepared {
            command,
            _fds: owned,
        })
    }

    /// This sandbox as the guard reads it ([`Sandbox::receive`]): JSON in
    /// a sealed memory file, for the guard to inherit (`--sandbox-fd`), as
    /// a command line is every local user's to read.
    ///
    /// # Errors
    /// When the memory file cannot be made.
    pub fn send(&self) -> std::io::Result<Descriptor> {
        let json = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        platform::sealed_file(&json)
    }

    /// The sandbox that [`Sandbox::send`] put in the inherited descriptor
    /// `fd`, which is then closed (bubblewrap and the bot do not get it).
    ///
    /// # Errors
    /// When `fd` cannot be read or does not hold a sandbox.
    pub fn receive(fd: RawFd) -> std::io::Result<Sandbox> {
        let json = platform::read_inherited(fd)?;
        serde_json::from_slice(&json).map_err(std::io::Error::other)
    }

    /// Starts this sandbox with no bot: the confine step checks the
    /// isolation it finds and exits. Run before a tournament, so that a
    /// host that cannot isolate a bot is refused before any game. It runs
    /// in a process group of its own, killed when `stop` fires (Ctrl-C)
    /// or after [`probe::PROBE_TIMEOUT`] ([`probe::run`]).
    ///
    /// # Errors
    /// One line: what bubblewrap or the check said, and what the host
    /// needs; or that it was stopped or timed out.
    pub fn probe(&self, stop: &tokio_util::sync::CancellationToken) -> Result<(), SandboxError> {
        let prepared = self
            .command(None, &[], &[])
            .map_err(SandboxError::Prepare)?;
        let Prepared { command, _fds: fds } = prepared;
        let (status, stderr) =
            probe::run(command, stop, probe::PROBE_TIMEOUT).map_err(|e| match e {
                probe::ProbeWait::Start(cause) => SandboxError::Start {
                    bwrap: self.bwrap.clone(),
                    cause,
                },
                other => SandboxError::Probe(other),
            })?;
        // The descriptors bubblewrap inherited, kept until it ended.
        drop(fds);
        let output = std::process::Output {
            status,
            stdout: Vec::new(),
            stderr,
        };
        if output.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said
            .lines()
            .last()
            .unwrap_or("no message")
            .trim()
            .to_string();
        let hint = if said.starts_with("bwrap")
            && (said.contains("namespace") || said.contains("uid map"))
        {
            "; the host must allow unprivileged user namespaces (sysctl user.max_user_namespaces > 0, and kernel.unprivileged_userns_clone = 1 or kernel.apparmor_restrict_unprivileged_userns = 0 where they exist)"
        } else {
            ""
        };
        Err(SandboxError::NotIsolated { said, hint })
    }

    /// Checks, when the arena runs as root, that the host user can reach
    /// every path shown (bubblewrap binds them as that user) and write the
    /// writable ones, so the bot does not fail at its first file.
    ///
    /// # Errors
    /// One line naming the path, what is missing, and the fix.
    pub fn check_access(&self, bot: &str) -> Result<(), SandboxError> {
        let Some((uid, gid)) = self.host_user else {
            return Ok(());
        };
        let may = |meta: &std::fs::Metadata, bits: u32| {
            let (owner, group, mode) = platform::owner_and_mode(meta);
            let class = if owner == uid {
                mode >> 6
            } else if group == gid {
                mode >> 3
            } else {
                mode
            };
            class & bits == bits
        };
        let who = format!("the sandbox's host user (uid {uid})");
        let access = |why: String| SandboxError::Access {
            bot: bot.to_string(),
            why,
        };
        for (path, writable) in self.shown() {
            for parent in path.ancestors().skip(1) {
                let Ok(meta) = std::fs::metadata(parent) else {
                    continue;
                };
                if !may(&meta, 0o1) {
                    return Err(access(format!(
                        "{who} cannot reach {} ({} is mode {:o}): move it to a folder others can enter (such as /srv or /opt), chmod o+x {}, or set sandbox_user",
                        path.display(),
                        parent.display(),
                        platform::owner_and_mode(&meta).2 & 0o7777,
                        parent.display()
                    )));
                }
            }
            let meta =
                std::fs::metadata(path).map_err(|e| access(format!("{}: {e}", path.display())))?;
            let need = match (meta.is_dir(), writable) {
                (true, true) => 0o7,
                (true, false) => 0o5,
                (false, true) => 0o6,
                (false, false) => 0o4,
            };
            if !may(&meta, need) {
                let fix = if writable {
                    format!("chown -R {uid}:{gid} {}", path.display())
                } else {
                    if meta.is_dir() {
                        format!("chmod o+rx {}, or move it to a folder others can read (such as /srv or /opt)", path.display())
                    } else {
                        format!("chmod o+r {}", path.display())
                    }
                };
                return Err(access(format!(
                    "{who} cannot {} {} (mode {:o}, owner uid {}): {fix}, or set sandbox_user",
                    if writable { "write" } else { "read" },
                    path.display(),
                    platform::owner_and_mode(&meta).2 & 0o7777,
                    platform::owner_and_mode(&meta).0
                )));
            }
        }
        Ok(())
    }
}

/// The descriptors bubblewrap inherits, by their numbers.
struct Fds {
    exe: RawFd,
    seccomp: RawFd,
    passwd: RawFd,
    group: RawFd,
    hosts: RawFd,
}

/// `words` as bubblewrap's `--args` reads them: each followed by a NUL.
///
/// # Errors
/// When a word holds a NUL itself (it would split into two).
fn nul_separated(words: &[OsString]) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    for word in words {
        // On Unix, an OsStr's encoded bytes are its bytes.
        if word.as_encoded_bytes().contains(&0) {
            return Err(std::io::Error::other(format!(
                "the sandbox setting {} holds a NUL byte: remove it from the config",
                word.to_string_lossy()
            )));
        }
        bytes.extend_from_slice(word.as_encoded_bytes());
        bytes.push(0);
    }
    Ok(bytes)
}

/// Where `path` is or would be: its longest part that exists with every
/// link resolved, and the rest of it, `..` taken out (a run folder is
/// checked before the arena makes it).
pub fn real_path(path: &Path) -> PathBuf {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let parts: Vec<std::path::Component> = path.components().collect();
    for known in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..known].iter().collect();
        if let Ok(real) = std::fs::canonicalize(&head) {
            let tail: PathBuf = parts[known..].iter().collect();
            return lexical(&real.join(tail));
        }
    }
    lexical(&path)
}

/// Every place the kernel passes through to find `path`: each folder and
/// file on the way, each link (`true`) and then where it points, in order
/// (at most 40 links, as the kernel). Whoever may change one of these
/// places may change what `path` is.
#[must_use]
pub fn trace(path: &Path) -> Vec<(PathBuf, bool)> {
    use std::path::Component;
    let push_parts = |todo: &mut Vec<Option<OsString>>, path: &Path| {
        for part in path.components().rev() {
            match part {
                Component::Normal(name) => todo.push(Some(name.to_os_string())),
                Component::ParentDir => todo.push(None),
                _ => {}
            }
        }
    };
    let mut points = Vec::new();
    let mut at = PathBuf::from("/");
    // `None` is `..`.
    let mut todo = Vec::new();
    push_parts(&mut todo, &lexical(path));
    let mut links = 0;
    while let Some(part) = todo.pop() {
        let Some(name) = part else {
            at.pop();
            continue;
        };
        let next = at.join(&name);
        match std::fs::read_link(&next) {
            Ok(target) if links < 40 => {
                links += 1;
                points.push((next, true));
                if target.is_absolute() {
                    at = PathBuf::from("/");
                }
                push_parts(&mut todo, &target);
            }
            _ => {
                points.push((next.clone(), false));
                at = next;
            }
        }
    }
    points
}

/// `path` with `.` and `..` taken out by its words alone (no link is read).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The entries of the host's `/etc` that the sandbox shows (see [`ETC`]).
fn etc_entries() -> Vec<PathBuf> {
    let etc = Path::new("/etc");
    let mut entries: Vec<PathBuf> = ETC
        .iter()
        .map(|name| etc.join(name))
        .filter(|p| p.symlink_metadata().is_ok())
        .collect();
    if let Ok(dir) = std::fs::read_dir(etc) {
        for entry in dir.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("java-") || name.starts_with("python3") {
                entries.push(entry.path());
            }
        }
    }
    entries.sort();
    entries
}

/// The uid and gid of host user `user` (a name or a number), which must
/// not be root.
fn host_user(bot: &str, user: &str) -> Result<(u32, u32), SandboxError> {
    let Some(found) = platform::user_ids(user) else {
        return Err(SandboxError::User {
            bot: bot.to_string(),
            user: user.to_string(),
            why: "is not a user of this host: name one (default \"nobody\"), or give a uid",
        });
    };
    if found.0 == 0 {
        return Err(SandboxError::User {
            bot: bot.to_string(),
            user: user.to_string(),
            why: "is root: a sandboxed bot must run as an unprivileged user (default \"nobody\")",
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sandbox() -> Sandbox {
        Sandbox {
            bwrap: "/usr/bin/bwrap".into(),
            dir: "/srv/bots/a".into(),
            read_only: vec!["/srv/bots/a".into(), "/opt/venv".into()],
            writable: vec!["/srv/bots/a/state".into()],
            named: Vec::new(),
            processes: 64,
            tmp_mb: 8,
            host_user: None,
            runs_arena: false,
            env: vec![("DEPTH".into(), "4".into())],
            pinned: false,
        }
    }

    /// bubblewrap's options and what it runs, as one list.
    fn args() -> Vec<String> {
        let fds = Fds {
            exe: 3,
            seccomp: 4,
            passwd: 5,
            group: 6,
            hosts: 7,
        };
        let s = sandbox();
        let mut a = s.options(&fds);
        a.push("--".into());
        a.extend(s.confine_step(fds.exe));
        a.into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    fn has(args: &[String], words: &[&str]) -> bool {
        args.windows(words.len()).any(|w| w == words)
    }

    #[test]
    fn every_namespace_is_new_and_no_capability_is_kept() {
        let a = args();
        for flag in [
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--new-session",
            "--clearenv",
            "--die-with-parent",
        ] {
            assert!(a.contains(&flag.to_string()), "{flag} missing");
        }
        assert!(has(&a, &["--cap-drop", "ALL"]));
        // The bot's own env comes after the fixed one, which it may override.
        let at = |words: &[&str]| a.windows(words.len()).position(|w| w == words);
        let own = at(&["--setenv", "DEPTH", "4"]).expect("the bot's env is set");
        assert!(at(&["--setenv", "HOME", "/tmp"]).unwrap() < own);
        assert!(at(&["--clearenv"]).unwrap() < own);
        assert!(!a.iter().any(|w| w == "--share-net" || w == "--cap-add"));
        assert!(has(&a, &["--seccomp", "4"]));
    }

    #[test]
    fn the_bot_sees_its_paths_nested_binds_last_and_the_root_read_only() {
        let a = args();
        let at = |words: &[&str]| a.windows(words.len()).position(|w| w == words).unwrap();
        let dir = at(&["--ro-bind", "/srv/bots/a", "/srv/bots/a"]);
        let state = at(&["--bind", "/srv/bots/a/state", "/srv/bots/a/state"]);
        assert!(dir < state, "a path inside the dir must be bound after it");
        assert!(has(&a, &["--ro-bind", "/opt/venv", "/opt/venv"]));
        assert!(at(&["--remount-ro", "/"]) > state);
        for tmp in ["/tmp", "/var/tmp", "/run", "/dev/shm"] {
            assert!(
                has(
                    &a,
                    &["--size", "8388608", "--perms", "1777", "--tmpfs", tmp]
                ),
                "{tmp}"
            );
        }
        // Nothing of the host's root but /usr, its links and /etc's few files.
        assert!(!has(&a, &["--ro-bind", "/", "/"]) && !has(&a, &["--bind", "/", "/"]));
        assert!(!a
            .iter()
            .any(|w| w == "/etc/shadow" || w == "/root" || w == "/home"));
        // The confine step comes last, from the inherited executable.
        let tail: Vec<&str> = a[a.len() - 3..].iter().map(String::as_str).collect();
        assert_eq!(tail, ["/proc/self/fd/3", "confine", "--processes=64"]);
    }

    #[test]
    fn bubblewraps_command_line_shows_no_setting_and_its_descriptor_all() {
        let prepared = sandbox().command(Some(OsStr::new("./bot")), &[], &[]);
        if !platform::SANDBOX {
            let e = prepared.err().expect("no sandbox on this platform");
            assert_eq!(e.kind(), std::io::ErrorKind::Unsupported, "{e}");
            return;
        }
        let prepared = prepared.unwrap();
        let argv: Vec<String> = prepared
            .command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(argv[0], "--args");
        assert_eq!(
            &argv[2..4],
            [
                "--",
                &format!(
                    "/proc/self/fd/{}",
                    platform::descriptor_number(&prepared._fds[0])
                )
            ]
        );
        assert_eq!(&argv[4..], ["confine", "--processes=64", "--", "./bot"]);
        // The descriptor holds the options, each ended by a NUL.
        let fd: RawFd = argv[1].parse().unwrap();
        let held = std::fs::read(format!("/proc/self/fd/{fd}")).unwrap();
        let words: Vec<&[u8]> = held.split(|&b| b == 0).collect();
        assert_eq!(words.last(), Some(&&b""[..]));
        let words: Vec<String> = words[..words.len() - 1]
            .iter()
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        assert!(has(&words, &["--setenv", "DEPTH", "4"]), "{words:?}");
        assert!(has(&words, &["--ro-bind", "/opt/venv", "/opt/venv"]));
        // A setting with a NUL in it would split: refused.
        let mut bad = sandbox();
        bad.env.push(("X".into(), "a\0--bind".into()));
        let e = bad.command(None, &[], &[]).err().unwrap().to_string();
        assert!(e.contains("NUL"), "{e}");
    }

    #[test]
    fn the_sandbox_reaches_the_guard_through_a_descriptor() {
        let sent = sandbox().send();
        if !platform::SANDBOX {
            let e = sent.expect_err("no sandbox on this platform");
            assert_eq!(e.kind(), std::io::ErrorKind::Unsupported, "{e}");
            return;
        }
        // receive closes the descriptor it is given: give it a copy, which
        // is then its to close.
        let copy = sent.unwrap().try_clone().unwrap();
        let number = platform::descriptor_number(&copy);
        std::mem::forget(copy);
        assert_eq!(Sandbox::receive(number).unwrap(), sandbox());
    }

    #[test]
    #[cfg(unix)] // Links as Unix makes them (the sandbox is Linux's).
    fn a_trace_names_every_link_on_the_way_and_where_it_leads() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("real/inner")).unwrap();
        std::os::unix::fs::symlink("real", root.join("rel")).unwrap();
        std::os::unix::fs::symlink(root.join("rel"), root.join("abs")).unwrap();
        let points = trace(&root.join("abs/inner"));
        let links: Vec<_> = points
            .iter()
            .filter(|(_, l)| *l)
            .map(|(p, _)| p.clone())
            .collect();
        assert_eq!(links, [root.join("abs"), root.join("rel")]);
        assert_eq!(points.last().unwrap(), &(root.join("real/inner"), false));
        // `..` is taken out by its words first, as for the config's paths.
        let up = trace(&root.join("abs/inner/../inner"));
        assert_eq!(up.last().unwrap().0, root.join("real/inner"));
    }

    #[test]
    #[cfg_attr(windows, ignore = "the sandbox is Linux's: Unix paths")]
    fn a_program_is_shown_only_where_the_sandbox_shows_it() {
        let s = sandbox();
        assert!(s.shows(Path::new("/usr/bin/python3-does-not-matter")));
        assert!(s.shows(Path::new("/opt/venv/bin/python")));
        assert!(!s.shows(Path::new("/opt/other/bin/python")));
        assert!(!s.shows(Path::new("/root/.pyenv/shims/python3")));
    }
}
