//! `fault-grandchild [--inherit-stdio] [--keep-playing] [--own-group]`: at its first `newgame` starts a
//! grandchild, `sleep 3600`, in the bot's process group, and appends the
//! grandchild's pid (a line) to the file named by `FAULT_PIDFILE` if set;
//! then exits with code 4 when asked for its first move, leaving the
//! grandchild behind. The grandchild's standard streams are `/dev/null`;
//! with `--inherit-stdio` it inherits the bot's, so the bot's standard output
//! stays open after the bot dies. With `--keep-playing` it plays the first
//! legal move instead of exiting, so the grandchild lives as long as the bot
//! (for the test that kills the arena with `kill -9`). With `--own-group`
//! the grandchild leads a process group of its own, out of reach of a
//! signal to the bot's group, as a daemonising bot's child would be.
//!
//! Expected termination: `crash`; the arena must leave no process behind
//! (it ends the process group).

use endodoi_test_bots::{has_flag, log, run, Bot, Conn, Message, Turn};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitCode, Stdio};

struct Grandchild {
    inherit: bool,
    keep_playing: bool,
    own_group: bool,
    child: Option<Child>,
}

impl Bot for Grandchild {
    fn on_newgame(&mut self, _game: &Message, conn: &mut Conn) -> io::Result<()> {
        if self.child.is_none() {
            let mut sleep = Command::new("sleep");
            sleep.arg("3600");
            if self.own_group {
                sleep.process_group(0);
            }
            if !self.inherit {
                sleep
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null());
            }
            let child = sleep.spawn()?;
            log(&format!("started grandchild {}", child.id()));
            if let Some(path) = std::env::var_os("FAULT_PIDFILE") {
                let mut file = OpenOptions::new().create(true).append(true).open(path)?;
                // One write, so that a reader never sees half the number.
                file.write_all(format!("{}\n", child.id()).as_bytes())?;
            }
            self.child = Some(child);
        }
        conn.send("ready")
    }

    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        if self.keep_playing {
            return conn.play(turn.first_legal());
        }
        std::process::exit(4);
    }
}

fn main() -> ExitCode {
    run(Grandchild {
        inherit: has_flag("--inherit-stdio"),
        keep_playing: has_flag("--keep-playing"),
        own_group: has_flag("--own-group"),
        child: None,
    })
}
