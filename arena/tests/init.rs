//! `arena init`: writes the starter config, never over a file unless
//! `--force`, and prints it for `-` (that the text is a valid config is a
//! unit test of the config module).

use assert_cmd::Command;

fn arena() -> Command {
    let mut cmd = Command::cargo_bin("arena").unwrap();
    cmd.env_remove("RUST_BACKTRACE");
    cmd
}

#[test]
fn init_writes_once_and_force_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.toml");
    arena().arg("init").arg(&path).assert().success();
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.contains("[[bot]]"), "{written}");

    std::fs::write(&path, "# mine\n").unwrap();
    let out = arena()
        .arg("init")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("exists") && err.contains("--force"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "# mine\n");

    arena()
        .arg("init")
        .arg(&path)
        .arg("--force")
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), written);
}

#[test]
fn init_dash_prints_the_config_and_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena()
        .current_dir(dir.path())
        .args(["init", "-"])
        .assert()
        .success()
        .get_output()
        .clone();
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // The same text as a file written by `arena init FILE`.
    let path = dir.path().join("t.toml");
    arena().arg("init").arg(&path).assert().success();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), printed);
}

#[test]
fn init_lists_every_bundled_bot_that_arena_bot_knows() {
    let out = arena().args(["init", "-"]).assert().success();
    let printed = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let listed = printed
        .lines()
        .find_map(|l| l.strip_prefix("# the bundled bots: "))
        .unwrap_or_else(|| panic!("no list of the bundled bots:\n{printed}"));
    // `arena bot` names the bots it knows when asked for one it does not.
    let out = arena().args(["bot", "no-such-bot"]).assert().failure();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let known = err
        .trim()
        .rsplit_once("use one of ")
        .unwrap_or_else(|| panic!("{err}"))
        .1;
    assert_eq!(listed, known);
    assert_eq!(listed.split(", ").count(), 5, "{listed}");
}
