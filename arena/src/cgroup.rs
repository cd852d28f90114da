//! Per-bot cgroups: the kernel's own control of what a bot and every
//! process it starts may take together (`[limits] cgroups`,
//! docs/sandbox.md, "Fair play").
//!
//! Each bot gets a folder of its own in every cgroup hierarchy the arena
//! can write, made **inside the arena's own cgroup** (as
//! `/proc/self/cgroup` names it), never above or beside it, so a host's
//! accounting and limits of the arena hold for its bots too:
//! - **freeze** (cgroup v2's `cgroup.freeze`, else v1's `freezer.state`):
//!   the bot that is not on move is frozen, children and all, so it cannot
//!   take CPU from its opponent's turn (the protocol has no pondering);
//! - **kill** (v2's `cgroup.kill`, else freeze, SIGKILL every member,
//!   thaw): at the end no process of the bot survives, whatever session or
//!   parent it has;
//! - **memory** (v2 `memory.max`, v1 `memory.limit_in_bytes` and
//!   `memory.memsw.limit_in_bytes`): `memory_mb` for all of the bot's
//!   processes together, shared memory, memfd and tmpfs pages included;
//! - **processes** (`pids.max`): a sandboxed bot's `processes`;
//! - **cpu** (a `cpu` group of its own, at the default weight): bots
//!   that move at once share the CPU as equals, however many processes
//!   each has.
//!
//! The guard (`arena guard --cgroup DIR ...`) starts the bot, whose
//! process joins these folders itself before it execs, so the guard never
//! enters them: it is never frozen and notices the arena's death. A folder is named
//! `endodoi-<ns>-<pid>-<start>-<n>` (the arena's pid namespace, pid and
//! start time); those of an arena that died (`kill -9`) are
//! killed and removed by the guard, by the arena's sweeper (the folders
//! no guard held yet, or held no longer: [`start_sweeper`]), or by the next
//! arena that starts in the same cgroup ([`Cgroups::probe`]).
//!
//! Paths and the mount table are parsed by pure functions
//! ([`own_folders`]); the rest writes the kernel's files.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A cgroup hierarchy the arena is in, and its own folder there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mounted {
    /// `None` for cgroup v2; for v1 the controllers of the hierarchy
    /// (`memory`, `cpu`, `cpuacct`, `freezer`, `pids`, ...).
    pub controllers: Option<Vec<String>>,
    /// The arena's own cgroup folder in it (mount point plus its path).
    pub own: PathBuf,
}

/// The arena's own folder in each mounted cgroup hierarchy, from the text
/// of `/proc/self/cgroup` and `/proc/self/mountinfo` (proc(5)). A
/// hierarchy whose mount does not reach the arena's cgroup (a mount of a
/// folder below it) is left out.
#[must_use]
pub fn own_folders(self_cgroup: &str, mountinfo: &str) -> Vec<Mounted> {
    let mut found = Vec::new();
    for line in mountinfo.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let left: Vec<&str> = left.split(' ').collect();
        let right: Vec<&str> = right.split(' ').collect();
        let (Some(root), Some(point), Some(fstype)) = (left.get(3), left.get(4), right.first())
        else {
            continue;
        };
        let controllers = match *fstype {
            "cgroup2" => None,
            "cgroup" => Some(
                right
                    .get(2)
                    .unwrap_or(&"")
                    .split(',')
                    .filter(|o| !matches!(*o, "rw" | "ro") && !o.contains('='))
                    .map(str::to_string)
                    .collect::<Vec<_>>(),
            ),
            _ => continue,
        };
        let path = self_cgroup.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
            let wanted = match &controllers {
                None => names.is_empty(),
                Some(c) => {
                    let mut names: Vec<&str> = names.split(',').collect();
                    let mut mine: Vec<&str> = c.iter().map(String::as_str).collect();
                    names.sort_unstable();
                    mine.sort_unstable();
                    !names.is_empty() && names == mine
                }
            };
            wanted.then_some(path)
        });
        let Some(path) = path else { continue };
        let root = unescape(root);
        let Some(rest) = Path::new(path).strip_prefix(&root).ok() else {
            continue;
        };
        found.push(Mounted {
            controllers,
            own: Path::new(&unescape(point)).join(rest),
        });
    }
    found
}

/// A mountinfo field with its octal escapes (`\040` for a space) undone.
fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut rest = field;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let code = rest
            .get(i + 1..i + 4)
            .and_then(|d| u8::from_str_radix(d, 8).ok());
        match code {
            Some(c) => {
                out.push(char::from(c));
                rest = &rest[i + 4..];
            }
            None => {
                out.push('\\');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// What a per-bot cgroup enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The bot not on move is frozen.
    Freeze,
    /// Every process of the bot is killed at its end.
    Kill,
    /// `memory_mb` for all of its processes and memory together.
    Memory,
    /// A sandboxed bot's `processes`, counted by the kernel.
    Processes,
    /// A CPU share of its own.
    Cpu,
}

impl Control {
    /// Every control, in the order they are reported.
    pub const ALL: [Control; 5] = [
        Control::Freeze,
        Control::Kill,
        Control::Memory,
        Control::Processes,
        Control::Cpu,
    ];

    /// The controller that gives it: cgroup v2's core files or v1's
    /// `freezer` for freeze and kill, else its own.
    #[must_use]
    pub fn controller(self) -> &'static str {
        match self {
            Control::Freeze | Control::Kill => "freezer",
            Control::Memory => "memory",
            Control::Processes => "pids",
            Control::Cpu => "cpu",
        }
    }

    /// Its name in notes and docs.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Control::Freeze => "freeze",
            Control::Kill => "kill",
            Control::Memory => "memory",
            Control::Processes => "processes",
            Control::Cpu => "cpu",
        }
    }
}

/// Where a bot's folder goes: a hierarchy and what it is used for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    /// The arena's own folder in the hierarchy, where its bots' go.
    own: PathBuf,
    /// Where the arena's process is: `own`, or on cgroup v2 the leaf it
    /// moved into so that `own` may pass controllers down; where the guard
    /// goes back to once it has started the bot.
    home: PathBuf,
    /// cgroup v2 (else v1).
    v2: bool,
    /// What this hierarchy enforces for the bots.
    controls: Vec<Control>,
}

/// The per-bot cgroups this host gives the arena, found by
/// [`Cgroups::probe`].
#[derive(Clone, Debug, Default)]
pub struct Cgroups {
    places: Vec<Place>,
    /// Why each missing control is missing.
    missing: Vec<(Control, String)>,
}

/// The per-process probe's result.
static HOST: OnceLock<Cgroups> = OnceLock::new();
/// Numbers the bots' folders of this process.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Set (to anything), the arena leaves cgroup v2 alone and uses the v1
/// hierarchies only: for trying the v1 path on a host that has both.
pub const NO_V2: &str = "ENDODOI_CGROUP_NO_V2";

/// The prefix of every folder the arena makes: `endodoi-<owner>-<what>`,
/// where the owner is [`owner`] and what a bot's number, `probe` or
/// `arena`.
const PREFIX: &str = "endodoi-";

/// This process as the owner of its folders: its pid namespace, pid and
/// start time (clock ticks after boot), `NS-PID-START`. The pid alone
/// would not do: another arena in another pid namespace sees other pids,
/// and a pid is reused. A folder named `endodoi-<owner>-<anything>` is
/// removed by the next arena once its owner is gone.
#[must_use]
pub fn owner() -> &'static str {
    static OWNER: OnceLock<String> = OnceLock::new();
    OWNER.get_or_init(|| {
        let pid = std::process::id();
        let start = start_time(pid).unwrap_or(0);
        format!("{}-{pid}-{start}", pid_namespace())
    })
}

/// The inode of this process's pid namespace (0 if unknown).
fn pid_namespace() -> u64 {
    std::fs::read_link("/proc/self/ns/pid")
        .ok()
        .and_then(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
        })
        .unwrap_or(0)
}

/// The start time of process `pid` (field 22 of `/proc/PID/stat`), if
/// it is alive in this process's pid namespace.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the owner of folder `name` (see [`PREFIX`]) is known to be
/// gone: its pid namespace is this one, and no process has its pid and
/// start time. `false` for a name not of this form, or an owner in
/// another pid namespace (alive or not, it cannot be told from here).
fn owner_gone(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return false;
    };
    let mut parts = rest.splitn(4, '-').map(str::parse::<u64>);
    let (Some(Ok(ns)), Some(Ok(pid)), Some(Ok(start))) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    ns == pid_namespace() && u32::try_from(pid).is_ok_and(|pid| start_time(pid) != Some(start))
}

impl Cgroups {
    /// What this host gives, probed once per process: each hierarchy the
    /// arena is in is tried by making (and removing) a folder in its own
    /// cgroup. The folders of dead arenas found there are killed and
    /// removed first.
    pub fn host() -> &'static Cgroups {
        HOST.get_or_init(Cgroups::probe)
    }

    /// Probes the host (see [`Cgroups::host`], which caches it).
    #[must_use]
    pub fn probe() -> Cgroups {
        if !crate::platform::CGROUPS {
            let why = format!(
                "cgroups are Linux's, and this arena is built for {}",
                crate::platform::NAME
            );
            return Cgroups {
                places: Vec::new(),
                missing: Control::ALL.iter().map(|&c| (c, why.clone())).collect(),
            };
        }
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let mounted = own_folders(&read("/proc/self/cgroup"), &read("/proc/self/mountinfo"));
        let mut found = Cgroups::default();
        // The v1 path of a hybrid host can be tried on its own.
        let v2 = std::env::var_os(NO_V2).is_none();
        let v2_freeze = mounted
            .iter()
            .filter(|m| v2 && m.controllers.is_none())
            .find_map(|m| try_v2(&m.own).map(|c| (m, c)));
        if let Some((m, (controls, home))) = &v2_freeze {
            found.places.push(Place {
                own: m.own.clone(),
                home: home.clone(),
                v2: true,
                controls: controls.clone(),
            });
        }
        for m in &mounted {
            let Some(names) = &m.controllers else {
                continue;
            };
            let has = |n: &str| names.iter().any(|c| c == n);
            let mut controls = Vec::new();
            let want = |c: Control| !found.places.iter().any(|p| p.controls.contains(&c));
            if has("freezer") && want(Control::Freeze) {
                controls.extend([Control::Freeze, Control::Kill]);
            }
            if has("memory") && want(Control::Memory) {
                controls.push(Control::Memory);
            }
            if has("pids") && want(Control::Processes) {
                controls.push(Control::Processes);
            }
            if has("cpu") && want(Control::Cpu) {
                controls.push(Control::Cpu);
            }
            if !controls.is_empty() && try_v1(&m.own) {
                found.places.push(Place {
                    own: m.own.clone(),
                    home: m.own.clone(),
                    v2: false,
                    controls,
                });
            }
        }
        // Every hierarchy an arena may have used (another arena may have
        // used the v1 freezer where this one uses v2's).
        for m in mounted.iter().filter(|m| used(m)) {
            sweep(&m.own);
        }
        let used: Vec<String> = mounted
            .iter()
            .filter(|m| used(m))
            .map(|m| m.own.display().to_string())
            .collect();
        let none = if used.is_empty() {
            "no cgroup hierarchy the arena uses is mounted".to_string()
        } else {
            format!(
                "the arena cannot make folders in its own cgroups: {}",
                used.join(", ")
            )
        };
        for control in Control::ALL {
            if !found.enforces(control) {
                let why = if found.places.is_empty() {
                    none.clone()
                } else {
                    format!(
                        "no cgroup the arena can write has the {} controller",
                        control.controller()
                    )
                };
                found.missing.push((control, why));
            }
        }
        found
    }

    /// Whether `control` is enforced for every bot.
    #[must_use]
    pub fn enforces(&self, control: Control) -> bool {
        self.places.iter().any(|p| p.controls.contains(&control))
    }

    /// The controls not enforced here, each with why.
    #[must_use]
    pub fn missing(&self) -> &[(Control, String)] {
        &self.missing
    }

    /// Whether any control is enforced (a bot then gets folders).
    #[must_use]
    pub fn any(&self) -> bool {
        !self.places.is_empty()
    }

    /// One line for the start of a run: what is enforced and what is not,
    /// with the fix.
    #[must_use]
    pub fn summary(&self) -> String {
        let names = |want: bool| {
            Control::ALL
                .iter()
                .filter(|c| self.enforces(**c) == want)
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (on, off) = (names(true), names(false));
        let mut why: Vec<&str> = self.missing.iter().map(|m| m.1.as_str()).collect();
        why.dedup();
        let why = why.join("; ");
        let fix = "docs/sandbox.md, \"Giving the arena a cgroup\"";
        match (on.is_empty(), off.is_empty()) {
            (_, true) => format!("per-bot cgroups enforce {on}"),
            (true, false) => format!(
                "per-bot cgroups are not enforced: {why}; fair play among hostile bots needs a cgroup the arena can write ({fix})"
            ),
            (false, false) => format!("per-bot cgroups enforce {on}, not {off}: {why} ({fix})"),
        }
    }
}

/// Whether the arena uses the hierarchy `m`: cgroup v2, or v1 with the
/// freezer, memory, pids or cpu controller.
fn used(m: &Mounted) -> bool {
    m.controllers.as_ref().is_none_or(|c| {
        c.iter()
            .any(|c| ["freezer", "memory", "pids", "cpu"].contains(&c.as_str()))
    })
}

/// The controls a v2 folder under `own` gives, if one can be made there:
/// freeze and kill (core files), and memory, pids and cpu when the
/// arena's cgroup passes them down (its `cgroup.subtree_control`; the
/// arena tries to add them, which the kernel allows where no process sits
/// in its cgroup).
fn try_v2(own: &Path) -> Option<(Vec<Control>, PathBuf)> {
    let home = pass_down(own);
    let probe = own.join(format!("{PREFIX}{}-probe", owner()));
    std::fs::create_dir(&probe).ok()?;
    let mut controls = Vec::new();
    if probe.join("cgroup.freeze").exists() {
        controls.push(Control::Freeze);
    }
    if probe.join("cgroup.kill").exists() {
        controls.push(Control::Kill);
    }
    let given = std::fs::read_to_string(probe.join("cgroup.controllers")).unwrap_or_default();
    for (name, control) in [
        ("memory", Control::Memory),
        ("pids", Control::Processes),
        ("cpu", Control::Cpu),
    ] {
        if given.split_whitespace().any(|c| c == name) {
            controls.push(control);
        }
    }
    let _ = std::fs::remove_dir(&probe);
    // Without freeze and kill the v1 hierarchies are better.
    (controls.contains(&Control::Freeze) && controls.contains(&Control::Kill))
        .then_some((controls, home))
}

/// The controllers of cgroup v2 that the bots' folders use.
const V2_CONTROLLERS: [&str; 3] = ["memory", "pids", "cpu"];

/// Has `own` pass the memory, pids and cpu controllers down to the bots'
/// folders, where it has them (`cgroup.subtree_control`). The kernel
/// refuses that while a process sits in `own` (cgroup v2's rule of no
/// internal processes): when the arena is alone there (as in
/// `systemd-run --scope -p Delegate=yes arena run ...`), it first moves
/// itself into a leaf of its own, `endodoi-<owner>-arena`, inside `own`.
/// Returns where the arena's process is.
fn pass_down(own: &Path) -> PathBuf {
    let read = |f: &str| std::fs::read_to_string(own.join(f)).unwrap_or_default();
    let given = read("cgroup.controllers");
    let wanted: Vec<&str> = V2_CONTROLLERS
        .into_iter()
        .filter(|c| given.split_whitespace().any(|g| g == *c))
        .collect();
    let enable = || {
        for c in &wanted {
            let _ = std::fs::write(own.join("cgroup.subtree_control"), format!("+{c}"));
        }
        let on = read("cgroup.subtree_control");
        wanted
            .iter()
            .all(|c| on.split_whitespace().any(|o| o == *c))
    };
    if wanted.is_empty() || enable() {
        return own.to_path_buf();
    }
    let me = std::process::id().to_string();
    let alone = read("cgroup.procs").lines().all(|p| p.trim() == me);
    let leaf = own.join(format!("{PREFIX}{}-arena", owner()));
    if !alone || std::fs::create_dir(&leaf).is_err() {
        return own.to_path_buf();
    }
    if std::fs::write(leaf.join("cgroup.procs"), "0").is_err() {
        let _ = std::fs::remove_dir(&leaf);
        return own.to_path_buf();
    }
    enable();
    leaf
}

/// Whether a v1 folder can be made under `own`.
fn try_v1(own: &Path) -> bool {
    let probe = own.join(format!("{PREFIX}{}-probe", owner()));
    let made = std::fs::create_dir(&probe).is_ok();
    if made {
        let _ = std::fs::remove_dir(&probe);
    }
    made
}

/// Kills and removes the folders under `own` left by arenas that are no
/// longer running ([`owner_gone`]).
fn sweep(own: &Path) {
    let Ok(entries) = std::fs::read_dir(own) else {
        return;
    };
    for entry in entries.flatten() {
        if owner_gone(&entry.file_name().to_string_lossy()) {
            kill_and_remove(&[entry.path()]);
        }
    }
}

/// One bot's folders, made by [`BotGroup::create`]; killed and removed on
/// drop.
#[derive(Debug)]
pub struct BotGroup {
    dirs: Vec<PathBuf>,
    /// Where the guard goes back to, one for each of `dirs`.
    homes: Vec<PathBuf>,
    /// The freeze file, open: (file, frozen text, thawed text).
    freezer: Option<(File, &'static [u8], &'static [u8])>,
    /// Where the kernel counts the bot's OOM kills (v2 `memory.events`,
    /// v1 `memory.oom_control`).
    oom: Option<PathBuf>,
    /// The memory limit, MiB (0: none).
    memory_mb: u64,
}

/// Why a bot's cgroup could not be made.
#[derive(Debug, thiserror::Error)]
#[error("cannot make the bot's cgroup {}: {source}", path.display())]
pub struct CgroupError {
    /// The file or folder.
    pub path: PathBuf,
    /// The kernel's answer.
    pub source: std::io::Error,
}

impl BotGroup {
    /// Makes a bot's folders in every place of `host`, with its limits:
    /// `memory_mb` MiB for all its processes and memory together (0: none),
    /// and at most `processes` processes and threads (`None`: no limit).
    ///
    /// # Errors
    /// [`CgroupError`] when a folder or limit cannot be written; whatever
    /// was made is removed.
    pub fn create(
        host: &Cgroups,
        memory_mb: u64,
        processes: Option<u64>,
    ) -> Result<BotGroup, CgroupError> {
        let name = format!(
            "{PREFIX}{}-{}",
            owner(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut group = BotGroup {
            dirs: Vec::new(),
            homes: Vec::new(),
            freezer: None,
            oom: None,
            memory_mb,
        };
        for place in &host.places {
            let dir = place.own.join(&name);
            std::fs::create_dir(&dir).map_err(|source| CgroupError {
                path: dir.clone(),
                source,
            })?;
            group.dirs.push(dir.clone());
            group.homes.push(place.home.clone());
            group.limit(place, &dir, memory_mb, processes)?;
        }
        Ok(group)
    }

    /// Writes the limits `place` enforces into the new folder `dir`.
    fn limit(
        &mut self,
        place: &Place,
        dir: &Path,
        memory_mb: u64,
        processes: Option<u64>,
    ) -> Result<(), CgroupError> {
        let write = |file: &str, value: String| {
            let path = dir.join(file);
            std::fs::write(&path, value).map_err(|source| CgroupError { path, source })
        };
        if place.controls.contains(&Control::Freeze) {
            let (file, frozen, thawed): (_, &'static [u8], &'static [u8]) = if place.v2 {
                ("cgroup.freeze", b"1", b"0")
            } else {
                ("freezer.state", b"FROZEN", b"THAWED")
            };
            let path = dir.join(file);
            let open = std::fs::OpenOptions::new().write(true).open(&path);
            let file = open.map_err(|source| CgroupError { path, source })?;
            self.freezer = Some((file, frozen, thawed));
        }
        if place.controls.contains(&Control::Memory) && memory_mb > 0 {
            let bytes = memory_mb.saturating_mul(1 << 20).to_string();
            if place.v2 {
                write("memory.max", bytes)?;
                // No swap: the limit is the bot's memory, not its swap.
                let _ = std::fs::write(dir.join("memory.swap.max"), "0");
                self.oom = Some(dir.join("memory.events"));
            } else {
                write("memory.limit_in_bytes", bytes.clone())?;
                if dir.join("memory.memsw.limit_in_bytes").exists() {
                    write("memory.memsw.limit_in_bytes", bytes.clone())?;
                }
                // v1 counts TCP buffers apart, and only once limited (v2
                // counts them in memory.max); UDP buffers it never counts.
                if dir.join("memory.kmem.tcp.limit_in_bytes").exists() {
                    write("memory.kmem.tcp.limit_in_bytes", bytes)?;
                }
                self.oom = Some(dir.join("memory.oom_control"));
            }
        }
        if let (true, Some(n)) = (place.controls.contains(&Control::Processes), processes) {
            write("pids.max", n.to_string())?;
        }
        Ok(())
    }

    /// The bot's folders, for `arena guard --cgroup`.
    #[must_use]
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Where the guard goes back to once the bot has started, one for
    /// each of [`BotGroup::dirs`] (`arena guard --cgroup-home`).
    #[must_use]
    pub fn homes(&self) -> &[PathBuf] {
        &self.homes
    }

    /// Freezes every process of the bot (no-op without a freezer). The
    /// kernel completes it within microseconds: a running task stops at
    /// its next return to user space.
    pub fn freeze(&self) {
        if let Some((file, frozen, _)) = &self.freezer {
            let _ = crate::platform::write_at_start(file, frozen);
        }
    }

    /// Thaws every process of the bot (no-op without a freezer).
    pub fn thaw(&self) {
        if let Some((file, _, thawed)) = &self.freezer {
            let _ = crate::platform::write_at_start(file, thawed);
        }
    }

    /// How many of the bot's processes the kernel's OOM killer has ended
    /// for going over `memory_mb` (0 without a memory limit).
    #[must_use]
    pub fn oom_kills(&self) -> u64 {
        let Some(path) = &self.oom else { return 0 };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    }
}

impl BotGroup {
    /// Why the bot died, when the kernel's OOM killer ended one of its
    /// processes: the limit and what it counts.
    #[must_use]
    pub fn oom_note(&self) -> Option<String> {
        (self.oom_kills() > 0).then(|| {
            format!(
                "over its memory limit: memory_mb = {} MiB for all its processes together, shared memory, memfd and tmpfs included (the kernel's OOM killer ended it)",
                self.memory_mb
            )
        })
    }
}

impl Drop for BotGroup {
    /// Kills whatever of the bot is left and removes its folders.
    fn drop(&mut self) {
        self.thaw();
        self.freezer = None;
        kill_and_remove(&self.dirs);
    }
}

/// Starts, once per process, the arena's sweeper: `arena sweeper`, run
/// from `arena` (the arena's executable), which waits for the end of its
/// stdin, a pipe whose other end only this process holds, then kills and
/// removes every folder of this arena ([`sweep_owner`]). The pipe ends
/// when the arena does, however it dies (`kill -9` included), and not
/// before: the folders a guard does not cover (made, but the guard not yet
/// started; or left for the arena to read why its bot died, and the arena
/// gone before it did) go then. The sweeper has a process group of its
/// own, so that Ctrl-C in a terminal does not end it with the arena. If it
/// cannot start, the guards and the next arena's sweep are all there is.
pub fn start_sweeper(arena: &Path) {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let host = Cgroups::host();
        let mut cmd = std::process::Command::new(arena);
        cmd.arg("sweeper").arg("--owner").arg(owner());
        for place in &host.places {
            cmd.arg("--place").arg(&place.own);
        }
        cmd.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        // Held (its stdin open) until [`end_sweeper`], or the process's end.
        *sweeper() = cmd.spawn().ok();
    });
}

/// Ends the sweeper, if [`start_sweeper`] started one: closes its pipe and
/// waits for it, so that an arena that ends normally leaves no process
/// behind. Call it once every bot is gone (it removes whatever folders
/// of this arena are left, none normally).
pub fn end_sweeper() {
    let child = sweeper().take();
    if let Some(mut child) = child {
        drop(child.stdin.take());
        let _ = child.wait();
    }
}

/// The sweeper's process, with its stdin.
fn sweeper() -> std::sync::MutexGuard<'static, Option<std::process::Child>> {
    static SWEEPER: std::sync::Mutex<Option<std::process::Child>> = std::sync::Mutex::new(None);
    SWEEPER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The sweeper's work ([`start_sweeper`]): reads `until_closed` to its end,
/// then kills and removes every folder of arena `owner` (`<ns>-<pid>-<start>`,
/// [`owner`]) in the folders `places`, giving up after two seconds
/// ([`kill_and_remove`]).
pub fn sweep_owner(owner: &str, places: &[PathBuf], mut until_closed: impl std::io::Read) {
    let _ = std::io::copy(&mut until_closed, &mut std::io::sink());
    let mine = format!("{PREFIX}{owner}-");
    let dirs: Vec<PathBuf> = places
        .iter()
        .filter_map(|place| std::fs::read_dir(place).ok())
        .flat_map(|entries| entries.flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&mine))
        .map(|e| e.path())
        .collect();
    if !dirs.is_empty() {
        kill_and_remove(&dirs);
    }
}

/// Kills every process in the folders `dirs` and removes them
/// ([`kill_and_remove_with`], with nothing to do between tries).
pub fn kill_and_remove(dirs: &[PathBuf]) {
    kill_and_remove_with(dirs, || {});
}

/// Kills every process in the folders `dirs` ([`kill`]), then removes
/// them, calling `between` before each try: a folder whose processes have
/// exited but are not yet reaped (zombies) cannot be removed yet, so a
/// caller that is their parent reaps them there. Gives up after two
/// seconds (a process in an uninterruptible sleep); the next arena's
/// sweep tries again.
pub fn kill_and_remove_with(dirs: &[PathBuf], mut between: impl FnMut()) {
    let deadline = Instant::now() + Duration::from_secs(2);
    kill(dirs, deadline);
    loop {
        between();
        let gone = dirs.iter().fold(true, |gone, dir| {
            let removed = std::fs::remove_dir(dir);
            gone && removed.map_or_else(|e| e.kind() == std::io::ErrorKind::NotFound, |()| true)
        });
        if gone || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Kills every process in the folders `dirs`, by `deadline` at the latest:
/// v2's `cgroup.kill` where there is one, else freeze, SIGKILL each member
/// and thaw (a frozen v1 task dies only once thawed), until none is left.
/// The folders stay (the guard leaves them to the arena, which reads why
/// the bot died there).
pub fn kill(dirs: &[PathBuf], deadline: Instant) {
    for dir in dirs {
        let _ = std::fs::write(dir.join("cgroup.kill"), "1");
    }
    let freezers: Vec<PathBuf> = dirs
        .iter()
        .map(|d| d.join("freezer.state"))
        .filter(|f| f.exists())
        .collect();
    loop {
        let members = members(dirs);
        if members.is_empty() || Instant::now() > deadline {
            break;
        }
        for f in &freezers {
            let _ = std::fs::write(f, "FROZEN");
        }
        for pid in members {
            let _ = crate::platform::signal_process(pid as u32, crate::platform::Sig::Kill);
        }
        for f in &freezers {
            let _ = std::fs::write(f, "THAWED");
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The pids in the folders `dirs` (their `cgroup.procs`).
fn members(dirs: &[PathBuf]) -> Vec<i32> {
    let mut pids: Vec<i32> = dirs
        .iter()
        .filter_map(|d| std::fs::read_to_string(d.join("cgroup.procs")).ok())
        .flat_map(|t| {
            t.lines()
                .filter_map(|l| l.trim().parse().ok())
                // 0: a process of another pid namespace, which cannot be
                // signalled from here (and kill(0) is this process group).
                .filter(|&p: &i32| p > 0)
                .collect::<Vec<i32>>()
        })
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This project's machines: v1 hierarchies with the arena's memory
    /// cgroup below the root, and a v2 hierarchy beside them.
    const MOUNTINFO: &str = "\
24 30 0:22 / /sys rw,nosuid - sysfs sysfs rw
31 24 0:27 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755
32 31 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:29 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
34 31 0:30 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
35 31 0:31 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
36 31 0:32 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
37 31 0:33 /docker/abc /sys/fs/cgroup/cpu\\040set rw - cgroup cgroup rw,cpuset
";
    const SELF: &str = "\
9:name=systemd:/
6:freezer:/
4:memory:/process_api/6c10
3:cpuset:/docker/abc/inner
1:cpu:/
0::/
";

    #[test]
    fn each_hierarchy_gives_the_arenas_own_folder() {
        let found = own_folders(SELF, MOUNTINFO);
        let own = |c: Option<&str>| {
            found
                .iter()
                .find(|m| match (&m.controllers, c) {
                    (None, None) => true,
                    (Some(cs), Some(c)) => cs.iter().any(|x| x == c),
                    _ => false,
                })
                .map(|m| m.own.clone())
        };
        assert_eq!(own(Some("cpu")), Some("/sys/fs/cgroup/cpu".into()));
        assert_eq!(
            own(Some("memory")),
            Some("/sys/fs/cgroup/memory/process_api/6c10".into())
        );
        assert_eq!(own(None), Some("/sys/fs/cgroup/unified".into()));
        // A mount of a folder: the path is taken relative to its root, and
        // the escaped space in the mount point undone.
        assert_eq!(
            own(Some("cpuset")),
            Some("/sys/fs/cgroup/cpu set/inner".into())
        );
        // name=systemd has no controller, so nothing to use: left out.
        assert_eq!(found.len(), 5);
    }

    #[test]
    fn a_mount_that_does_not_reach_the_arenas_cgroup_is_left_out() {
        let mountinfo = "40 31 0:40 /other /mnt/cg rw - cgroup2 cgroup2 rw\n";
        assert!(own_folders("0::/mine\n", mountinfo).is_empty());
        let mountinfo = "40 31 0:40 /mine /mnt/cg rw - cgroup2 cgroup2 rw\n";
        assert_eq!(
            own_folders("0::/mine/deeper\n", mountinfo),
            vec![Mounted {
                controllers: None,
                own: "/mnt/cg/deeper".into()
            }]
        );
    }

    #[test]
    fn the_summary_names_what_is_missing_and_the_fix() {
        let none = Cgroups {
            places: Vec::new(),
            missing: Control::ALL
                .iter()
                .map(|c| (*c, "no cgroup hierarchy is mounted".to_string()))
                .collect(),
        };
        let s = none.summary();
        assert!(
            s == "per-bot cgroups are not enforced: no cgroup hierarchy is mounted; fair play among hostile bots needs a cgroup the arena can write (docs/sandbox.md, \"Giving the arena a cgroup\")",
            "{s}"
        );
        let some = Cgroups {
            places: vec![Place {
                own: "/x".into(),
                home: "/x".into(),
                v2: true,
                controls: vec![Control::Freeze, Control::Kill],
            }],
            missing: vec![
                (Control::Memory, "no memory".into()),
                (Control::Processes, "no pids".into()),
                (Control::Cpu, "no pids".into()),
            ],
        };
        assert!(
            some.summary().starts_with(
                "per-bot cgroups enforce freeze, kill, not memory, processes, cpu: no memory; no pids (docs"
            ),
            "{}",
            some.summary()
        );
    }
}
