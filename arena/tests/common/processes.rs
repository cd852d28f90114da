//! Processes of a running arena: the ones left behind, and its stderr
//! read as it goes.

/// Live processes whose command line mentions `marker`, or whose pid is
/// listed. Zombies (empty command line) are gone, only not yet reaped.
pub fn leftovers(marker: &str, pids: &[i32]) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Ok(pid) = name.parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if !cmd.is_empty() && (cmd.contains(marker) || pids.contains(&pid)) {
            found.push(format!("{pid}: {cmd}"));
        }
    }
    found
}

/// Reads a running arena's stderr (piped) until its first game's line,
/// and hands it back for the rest.
pub fn after_first_game(
    child: &mut std::process::Child,
) -> std::io::BufReader<std::process::ChildStderr> {
    use std::io::BufRead;
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with('[') {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the arena ended before a game"
        );
    }
    stderr
}
