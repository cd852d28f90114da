//! The sandbox's start-up probe under Ctrl-C: a probe that never ends (a
//! stand-in `bwrap` first on `PATH` that blocks, as bubblewrap did when
//! its namespace's init held the probe's pipes) is killed with its process
//! group, and the run ends at once as an interrupted one (exit 130).
// The sandbox is Linux's (docs/platforms.md).
#![cfg(target_os = "linux")]

mod common;

use common::{assert_contains, stderr_of};

use std::os::unix::fs::PermissionsExt as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

#[test]
fn ctrl_c_during_the_sandbox_probe_kills_it_and_ends_the_run() {
    if !arena::platform::SANDBOX {
        return common::skipped("no sandbox on this platform");
    }
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // Run as root, the arena starts bubblewrap as the host user: it must
    // reach the stand-in and write its pid.
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let pids = tmp.path().join("pids");
    std::fs::create_dir(&pids).unwrap();
    std::fs::set_permissions(&pids, std::fs::Permissions::from_mode(0o777)).unwrap();
    let pid_file = pids.join("probe.pid");
    // bubblewrap's stand-in: says its pid once it runs, then blocks. The
    // arena starts bubblewrap without an environment: no PATH.
    let fake = bin.join("bwrap");
    let tool = |name: &str| which::which(name).unwrap().display().to_string();
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho $$ > '{0}.tmp'\n'{1}' '{0}.tmp' '{0}'\nexec '{2}' 600\n",
            pid_file.display(),
            tool("mv"),
            tool("sleep")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Each bot in a folder of its own, as a sandboxed bot must be.
    let mut text = String::from("[tournament]\nfirst_to = 1\n\n[limits]\nsandbox = true\n");
    for (name, command) in common::greedy_and_random(["greedy", "random"]) {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let command: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [{}]\ndir = {:?}\n",
            command.join(", "),
            dir.display().to_string()
        ));
    }
    let cfg = common::write_config(tmp.path(), "t.toml", &text);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(&cfg)
        .arg("--quiet")
        .arg("--out")
        .arg(tmp.path().join("run"))
        .env("PATH", path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The probe runs once its pid is said.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !pid_file.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "the run ended ({status}) before its probe: {}",
                stderr_of(&out)
            );
        }
        assert!(Instant::now() < deadline, "no probe in 60 s");
        std::thread::sleep(Duration::from_millis(2));
    }
    let probe: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    // The probe blocks for 600 s: a run that waits for it has hung.
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let Some(status) = status else {
        let _ = child.kill();
        let _ = kill(Pid::from_raw(probe), Signal::SIGKILL);
        panic!("the run did not end within 20 s of Ctrl-C during its probe");
    };
    let _ = kill(Pid::from_raw(probe), Signal::SIGKILL);
    let stderr = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert_contains(&stderr, "the start-up check is abandoned");
}
