//! Slurm's view of a tournament's jobs, through its own command-line
//! tools: `squeue` for what is queued or running, `sacct` for what ended
//! (when the cluster keeps accounting), and `scontrol show job` otherwise.
//! The parsers are pure, so they are tested on the tools' real output.

use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The state of one job, or of some tasks of a job array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobState {
    /// The job id (for an array, the array's id).
    pub job: u64,
    /// The array tasks this line is about; `None` for a plain job.
    pub tasks: Option<Vec<usize>>,
    /// Slurm's state name: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED,
    /// TIMEOUT, OUT_OF_MEMORY, ...
    pub state: String,
    /// Why it waits or ended, as Slurm says (`Resources`, `Dependency`,
    /// `PartitionConfig`, ...); empty for none.
    pub reason: String,
}

/// Reasons for which a pending job will never start by itself.
const NEVER_STARTS: [&str; 7] = [
    "PartitionConfig",
    "BadConstraints",
    "DependencyNeverSatisfied",
    "PartitionTimeLimit",
    "PartitionNodeLimit",
    "InvalidAccount",
    "InvalidQOS",
];

impl JobState {
    /// Whether the job waits for something that will never come: a
    /// request the partition cannot meet, say.
    #[must_use]
    pub fn never_starts(&self) -> bool {
        self.state == "PENDING" && NEVER_STARTS.iter().any(|r| self.reason.starts_with(r))
    }

    /// Whether the job is held (`sbatch --hold`, `scontrol hold`): it
    /// waits for `scontrol release`, which nothing does by itself.
    #[must_use]
    pub fn held(&self) -> bool {
        self.state == "PENDING" && self.reason.starts_with("JobHeld")
    }

    /// The state, with the reason when the job waits (`PENDING
    /// (Resources)`).
    #[must_use]
    pub fn describe(&self) -> String {
        if self.state == "PENDING" && !self.reason.is_empty() && self.reason != "None" {
            format!("{} ({})", self.state, self.reason)
        } else {
            self.state.clone()
        }
    }

    /// Whether this line is about `job` (and array task `task`, if given).
    #[must_use]
    pub fn covers(&self, job: u64, task: Option<usize>) -> bool {
        self.job == job
            && match (&self.tasks, task) {
                (Some(tasks), Some(k)) => tasks.contains(&k),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Parses a job id as the tools print it: `123`, `123_4`, or a pending
/// array's `123_[2-3,5%2]` (`%2` is a limit on tasks at once).
#[must_use]
pub fn parse_job_id(id: &str) -> Option<(u64, Option<Vec<usize>>)> {
    let id = id.trim();
    let Some((job, tasks)) = id.split_once('_') else {
        return Some((id.parse().ok()?, None));
    };
    let tasks = tasks.trim_start_matches('[').trim_end_matches(']');
    let tasks = tasks.split('%').next().unwrap_or_default();
    Some((job.parse().ok()?, Some(parse_task_list(tasks)?)))
}

/// Parses an array's task list: `2`, `2-3`, `1,3-5`, `1-7:2` (a step).
fn parse_task_list(text: &str) -> Option<Vec<usize>> {
    let mut tasks = Vec::new();
    for part in text.split(',') {
        let (range, step) = match part.split_once(':') {
            Some((r, s)) => (r, s.parse::<usize>().ok()?.max(1)),
            None => (part, 1),
        };
        match range.split_once('-') {
            Some((a, b)) => {
                tasks.extend((a.parse::<usize>().ok()?..=b.parse().ok()?).step_by(step))
            }
            None => tasks.push(range.parse().ok()?),
        }
    }
    Some(tasks)
}

/// Parses `ID|STATE[|REASON]` lines (`squeue -o %i|%T|%r`, `sacct -P -o
/// JobID,State`): state words after the first (`CANCELLED by 0`) are
/// dropped; job steps (`123.batch`) and unreadable lines are skipped.
#[must_use]
pub fn parse_table(text: &str) -> Vec<JobState> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split('|');
            let (job, tasks) = parse_job_id(fields.next()?)?;
            let state = fields.next()?.split_whitespace().next()?.to_string();
            let reason = fields.next().unwrap_or_default().trim().to_string();
            Some(JobState {
                job,
                tasks,
                state,
                reason,
            })
        })
        .collect()
}

/// Parses `scontrol -o show job` lines (`KEY=VALUE` words; an array task
/// has `ArrayJobId=` and `ArrayTaskId=`).
#[must_use]
pub fn parse_scontrol(text: &str) -> Vec<JobState> {
    text.lines()
        .filter_map(|line| {
            let value = |key: &str| {
                line.split_whitespace()
                    .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
            };
            let state = value("JobState")?.to_string();
            let reason = value("Reason").unwrap_or_default().to_string();
            match value("ArrayJobId") {
                Some(array) => Some(JobState {
                    job: array.parse().ok()?,
                    tasks: Some(parse_task_list(value("ArrayTaskId")?.split('%').next()?)?),
                    state,
                    reason,
                }),
                None => Some(JobState {
                    job: value("JobId")?.parse().ok()?,
                    tasks: None,
                    state,
                    reason,
                }),
            }
        })
        .collect()
}

/// How long a Slurm tool may take: they wait and retry without end when
/// the controller cannot be reached (a wrong `SLURM_CONF`, say).
pub const TOOL_TIME_LIMIT: Duration = Duration::from_secs(60);

/// Why a Slurm tool gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The tool is not installed here.
    #[error("{0} not found: run this on a Slurm login node (or use --dry-run)")]
    NotFound(String),
    /// It could not be started.
    #[error("cannot run {0}: {1}")]
    Start(String, std::io::Error),
    /// It did not finish within the limit, and was killed.
    #[error("{0} did not finish in {} s and was stopped{}: is the Slurm controller reachable? Try `scontrol ping`, and check SLURM_CONF", .1.as_secs_f64(), if .0 == "sbatch" { " (it may have submitted the job anyway: look with `squeue --me`)" } else { "" })]
    TimedOut(String, Duration),
    /// Waiting for it failed.
    #[error("cannot wait for {0}: {1}")]
    Wait(String, std::io::Error),
    /// It exited with a failure; its stderr's lines joined by ` / `.
    #[error("{0} failed: {1}")]
    Failed(String, String),
}

/// Runs one Slurm tool and returns its stdout, within [`TOOL_TIME_LIMIT`].
///
/// # Errors
/// One line: the tool is not installed, it did not finish in time (it is
/// killed), or what it printed on stderr.
pub fn tool(program: &str, args: &[String]) -> Result<String, ToolError> {
    tool_within(program, args, TOOL_TIME_LIMIT)
}

/// [`tool`] with a time limit of `limit`.
fn tool_within(program: &str, args: &[String], limit: Duration) -> Result<String, ToolError> {
    use wait_timeout::ChildExt as _;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                ToolError::NotFound(program.to_string())
            } else {
                ToolError::Start(program.to_string(), e)
            }
        })?;
    // Read both pipes while waiting, so a long answer never blocks the tool.
    let read_all = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read_all(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let stderr = read_all(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let status = match child.wait_timeout(limit) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ToolError::TimedOut(program.to_string(), limit));
        }
        Err(e) => return Err(ToolError::Wait(program.to_string(), e)),
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if !status.success() {
        let stderr = String::from_utf8_lossy(&stderr);
        let why = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        return Err(ToolError::Failed(program.to_string(), why));
    }
    Ok(String::from_utf8_lossy(&stdout).into_owned())
}

fn id_list(jobs: &[u64]) -> String {
    jobs.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Every job of this user still queued or running (squeue).
///
/// # Errors
/// squeue is missing or fails (the controller is down, say).
pub fn queue() -> Result<Vec<JobState>, ToolError> {
    let text = tool(
        "squeue",
        &["--me", "--noheader", "--format=%i|%T|%r"].map(String::from),
    )?;
    Ok(parse_table(&text))
}

/// The jobs among `jobs` that are still queued or running (squeue).
///
/// # Errors
/// squeue is missing or fails (the controller is down, say).
pub fn queued(jobs: &[u64]) -> Result<Vec<JobState>, ToolError> {
    Ok(queue()?
        .into_iter()
        .filter(|s| jobs.contains(&s.job))
        .collect())
}

/// The states of `jobs`, ended ones included, first match first: the
/// controller's own view (scontrol, which squeue agrees with, but which
/// forgets a job MinJobAge after it ends), then the accounting database
/// (sacct, which keeps every job but learns of an ending a moment later).
/// Returns the states and the tools that gave some.
#[must_use]
pub fn history(jobs: &[u64]) -> (Vec<JobState>, String) {
    let mut states: Vec<JobState> = jobs
        .iter()
        .filter_map(|j| {
            tool(
                "scontrol",
                &["-o".into(), "show".into(), "job".into(), j.to_string()],
            )
            .ok()
        })
        .flat_map(|text| parse_scontrol(&text))
        .collect();
    let mut sources = Vec::new();
    if !states.is_empty() {
        sources.push("scontrol");
    }
    let mut args = [
        "--noheader",
        "--parsable2",
        "--allocations",
        "--format=JobID,State",
    ]
    .map(String::from)
    .to_vec();
    args.push(format!("--jobs={}", id_list(jobs)));
    if let Ok(text) = tool("sacct", &args) {
        states.extend(parse_table(&text));
        sources.push("sacct");
    }
    (states, sources.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_string()).collect()
    }

    #[test]
    #[cfg_attr(windows, ignore = "Slurm is Unix: the tool here is Unix's sleep")]
    fn a_tool_that_hangs_is_stopped_with_a_hint() {
        let why = tool_within("sleep", &args(&["30"]), Duration::from_millis(200))
            .unwrap_err()
            .to_string();
        assert!(why.starts_with("sleep did not finish in 0.2 s"), "{why}");
        assert!(why.contains("scontrol ping"), "{why}");
    }

    #[test]
    #[cfg_attr(windows, ignore = "Slurm is Unix: the tool here is Unix's sh")]
    fn a_tool_gives_its_whole_output_or_its_stderr() {
        // More than a pipe holds: the output is read while the tool runs.
        let big = tool_within(
            "sh",
            &args(&["-c", "head -c 1000000 /dev/zero | tr '\\0' x"]),
            TOOL_TIME_LIMIT,
        )
        .unwrap();
        assert_eq!(big.len(), 1_000_000);
        let why = tool_within(
            "sh",
            &args(&[
                "-c",
                "echo out; echo no controller >&2; echo  >&2; echo retry >&2; exit 3",
            ]),
            TOOL_TIME_LIMIT,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(why, "sh failed: no controller / retry");
        let missing = tool_within("no-such-slurm-tool", &[], TOOL_TIME_LIMIT)
            .unwrap_err()
            .to_string();
        assert!(missing.contains("not found"), "{missing}");
    }

    #[test]
    fn job_ids_of_arrays_and_plain_jobs() {
        assert_eq!(parse_job_id("124"), Some((124, None)));
        assert_eq!(parse_job_id("123_2"), Some((123, Some(vec![2]))));
        assert_eq!(
            parse_job_id("123_[2-3,5%2]"),
            Some((123, Some(vec![2, 3, 5])))
        );
        assert_eq!(
            parse_job_id("123_[1-7:3]"),
            Some((123, Some(vec![1, 4, 7])))
        );
        assert_eq!(parse_job_id("x"), None);
    }

    #[test]
    fn sacct_and_squeue_tables() {
        // As sacct -n -P -X -o JobID,State printed them on Slurm 22.05.
        let text =
            "10|FAILED\n9_1|COMPLETED\n9_2|CANCELLED by 0\n9_[3-4]|PENDING|PartitionConfig\n9_1.batch|COMPLETED\n";
        let states = parse_table(text);
        assert_eq!(states.len(), 4);
        assert!(states[0].covers(10, None) && states[0].state == "FAILED");
        assert_eq!(states[2].state, "CANCELLED");
        assert!(states[3].covers(9, Some(4)) && !states[3].covers(9, Some(1)));
        assert!(states[3].never_starts() && !states[0].never_starts());
        assert_eq!(states[3].describe(), "PENDING (PartitionConfig)");
        assert!(!states[1].covers(9, None));
    }

    #[test]
    fn scontrol_one_line_records() {
        let text = "JobId=12 ArrayJobId=9 ArrayTaskId=3 JobName=a.sh UserId=root(0) JobState=COMPLETED Reason=None\n\
                    JobId=9 ArrayJobId=9 ArrayTaskId=4-5%1 JobName=a.sh JobState=PENDING Reason=Dependency\n\
                    JobId=10 JobName=m JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0\n";
        let states = parse_scontrol(text);
        assert_eq!(states.len(), 3);
        assert!(states[0].covers(9, Some(3)) && states[0].state == "COMPLETED");
        assert!(states[1].covers(9, Some(5)) && states[1].describe() == "PENDING (Dependency)");
        assert!(states[2].covers(10, None) && states[2].state == "FAILED");
    }
}
