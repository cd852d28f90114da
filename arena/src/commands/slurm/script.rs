//! The two batch scripts of a Slurm tournament, as text: the job array
//! whose task K plays shard K, and the job that merges the shards. Pure
//! functions of their settings, so the text is tested as it is.

use std::path::{Path, PathBuf};

/// Everything the scripts say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scripts {
    /// The arena executable the tasks run (absolute).
    pub arena: PathBuf,
    /// The tournament folder (absolute).
    pub dir: PathBuf,
    /// The folder the tasks run in: where relative bot paths start (absolute).
    pub workdir: PathBuf,
    /// The tournament's name, for the job names.
    pub name: String,
    /// The number of shards, N.
    pub shards: usize,
    /// CPUs per task.
    pub cpus: usize,
    /// At most this many tasks at once (`--array=1-N%K`), if any.
    pub max_running: Option<u32>,
    /// `--partition`, if any.
    pub partition: Option<String>,
    /// `--time`, if any.
    pub time: Option<String>,
}

/// Quotes `text` for the POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A path that cannot go on a `#SBATCH` line.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// Not UTF-8.
    #[error("{} is not UTF-8: choose a folder with a plain name", .0.display())]
    NotUtf8(PathBuf),
    /// Whitespace, a quote or `%`, which Slurm splits at or expands.
    #[error("{0}: #SBATCH lines cannot hold spaces, quotes or %: choose a folder without them")]
    Unquotable(String),
}

/// A path as text for a `#SBATCH` line, which Slurm splits at whitespace
/// and in which it expands `%` patterns.
///
/// # Errors
/// One line naming the path, when it holds whitespace, a quote or `%`.
pub fn sbatch_path(path: &Path) -> Result<String, PathError> {
    let text = path
        .to_str()
        .ok_or_else(|| PathError::NotUtf8(path.to_path_buf()))?;
    if text
        .chars()
        .any(|c| c.is_whitespace() || matches!(c, '%' | '\'' | '"'))
    {
        return Err(PathError::Unquotable(text.to_string()));
    }
    Ok(text.to_string())
}

impl Scripts {
    /// The folder of shard `k`.
    #[must_use]
    pub fn shard_dir(&self, k: usize) -> PathBuf {
        self.dir.join(format!("shard-{k}"))
    }

    /// A job script: `#!/bin/sh`, the `header` lines (comments and
    /// `#SBATCH` lines), the `#SBATCH` lines every job shares, then the
    /// `body` (the shell's lines).
    ///
    /// # Errors
    /// A path that cannot go on a `#SBATCH` line ([`sbatch_path`]).
    fn script(&self, header: &[String], body: &[String]) -> Result<String, PathError> {
        let mut lines = vec!["#!/bin/sh".to_string()];
        lines.extend_from_slice(header);
        self.common(&mut lines)?;
        lines.extend_from_slice(body);
        Ok(lines.join("\n") + "\n")
    }

    /// The arena's executable, quoted for the shell.
    fn arena(&self) -> String {
        quote(&self.arena.display().to_string())
    }

    /// The `#SBATCH` lines both jobs share.
    fn common(&self, lines: &mut Vec<String>) -> Result<(), PathError> {
        if let Some(p) = &self.partition {
            lines.push(format!("#SBATCH --partition={p}"));
        }
        if let Some(t) = &self.time {
            lines.push(format!("#SBATCH --time={t}"));
        }
        lines.push(format!("#SBATCH --chdir={}", sbatch_path(&self.workdir)?));
        lines.push("#SBATCH --open-mode=append".into());
        Ok(())
    }

    /// The job array: task K runs `arena run` on shard K of N into
    /// `DIR/shard-K`, resuming that folder when an earlier attempt left one.
    ///
    /// # Errors
    /// A path that cannot go on a `#SBATCH` line ([`sbatch_path`]).
    pub fn shards_script(&self) -> Result<String, PathError> {
        let dir = sbatch_path(&self.dir)?;
        let n = self.shards;
        let header = [
            format!("# Written by `arena slurm`: task K of this job array plays shard K of {n}"),
            "# of the tournament in config.toml into shard-K beside it, resuming that".into(),
            "# folder if an earlier attempt left one. Re-run a task alone with".into(),
            "# `sbatch --array=K` and this file, or all unfinished ones with".into(),
            format!("# `arena slurm rerun {dir}`."),
            format!("#SBATCH --job-name=arena-{}", self.name),
            format!(
                "#SBATCH --array=1-{n}{}",
                self.max_running
                    .map(|k| format!("%{k}"))
                    .unwrap_or_default()
            ),
            format!("#SBATCH --cpus-per-task={}", self.cpus),
            format!("#SBATCH --output={dir}/slurm/shard-%a.log"),
        ];
        let body = [
            "set -eu".into(),
            "k=$SLURM_ARRAY_TASK_ID".into(),
            // Re-runs append to the same log: each attempt opens with a line.
            "echo \"== shard $k/N: job ${SLURM_ARRAY_JOB_ID}_$k on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ)\""
                .replace("N:", &format!("{n}:")),
            format!(
                "exec {} run {} --shard \"$k/{n}\" --out {}/shard-\"$k\" --resume-if-exists --quiet",
                self.arena(),
                quote(&self.dir.join("config.toml").display().to_string()),
                quote(&dir),
            ),
        ];
        self.script(&header, &body)
    }

    /// The merge job, run after the array (`--dependency=afterany`): it
    /// merges every shard into `DIR/merged`, or fails naming the shards that
    /// did not finish.
    ///
    /// # Errors
    /// A path that cannot go on a `#SBATCH` line ([`sbatch_path`]).
    pub fn merge_script(&self) -> Result<String, PathError> {
        let dir = sbatch_path(&self.dir)?;
        let shards: Vec<String> = (1..=self.shards)
            .map(|k| quote(&self.shard_dir(k).display().to_string()))
            .collect();
        let header = [
            "# Written by `arena slurm`: merges the shard folders into merged/ once the".into(),
            "# job array is over. If a shard did not finish it fails and names it;".into(),
            format!("# then `arena slurm rerun {dir}` plays it again and merges anew."),
            format!("#SBATCH --job-name=arena-{}-merge", self.name),
            "#SBATCH --cpus-per-task=1".into(),
            format!("#SBATCH --output={dir}/slurm/merge.log"),
        ];
        let body = [
            "echo \"== merge: job $SLURM_JOB_ID on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ)\""
                .into(),
            format!(
                "exec {} merge {} --out {}",
                self.arena(),
                shards.join(" "),
                quote(&self.dir.join("merged").display().to_string()),
            ),
        ];
        self.script(&header, &body)
    }
}

impl Scripts {
    /// A round of a tournament that pairs round by round (knockout, Swiss,
    /// league), as a job array: given the round R as its argument, task K
    /// plays shard K of round R into `DIR/round-R/shard-K`, resuming that
    /// folder when an earlier attempt left one. The array's tasks come
    /// from `sbatch --array`, since each round may have its own number.
    ///
    /// # Errors
    /// A path that cannot go on a `#SBATCH` line ([`sbatch_path`]).
    pub fn round_script(&self) -> Result<String, PathError> {
        let dir = sbatch_path(&self.dir)?;
        let header = [
            "# Written by `arena slurm`: a round of the tournament in config.toml beside".into(),
            "# the folder of this file. Submitted as `sbatch --array=1-N round.sbatch R`:".into(),
            "# task K plays shard K of round R into round-R/shard-K, resuming that folder".into(),
            "# if an earlier attempt left one; next.sbatch then merges the round and".into(),
            format!(
                "# submits the next. Re-run what did not finish with `arena slurm rerun {dir}`."
            ),
            format!("#SBATCH --job-name=arena-{}", self.name),
            format!("#SBATCH --cpus-per-task={}", self.cpus),
            format!("#SBATCH --output={dir}/slurm/shard-%a.log"),
        ];
        let body = [
            "set -eu".into(),
            "r=$1".into(),
            "k=$SLURM_ARRAY_TASK_ID".into(),
            "echo \"== round $r, shard $k: job ${SLURM_ARRAY_JOB_ID}_$k on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ)\""
                .into(),
            format!(
                "exec {} slurm play {} --round \"$r\" --shard \"$k\"",
                self.arena(),
                quote(&dir),
            ),
        ];
        self.script(&header, &body)
    }

    /// The job between rounds, run after a round's array
    /// (`--dependency=afterany`), given the round R as its argument: it
    /// merges round R's shards into `DIR/merged` and submits round R + 1
    /// and the job after it, or writes the final summaries; it fails,
    /// naming the shards, if one did not finish.
    ///
    /// # Errors
    /// A path that cannot go on a `#SBATCH` line ([`sbatch_path`]).
    pub fn next_script(&self) -> Result<String, PathError> {
        let dir = sbatch_path(&self.dir)?;
        let header = [
            "# Written by `arena slurm`: after round R (the argument) it merges the".into(),
            "# round's shards into merged/ and submits the next round and the job after".into(),
            "# it. If a shard did not finish it fails and names it; then".into(),
            format!("# `arena slurm rerun {dir}` plays it again and the rounds go on."),
            format!("#SBATCH --job-name=arena-{}-next", self.name),
            "#SBATCH --cpus-per-task=1".into(),
            format!("#SBATCH --output={dir}/slurm/next.log"),
        ];
        let body = [
            "set -eu".into(),
            "echo \"== after round $1: job $SLURM_JOB_ID on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ)\""
                .into(),
            format!(
                "exec {} slurm next {} --round \"$1\"",
                self.arena(),
                quote(&dir),
            ),
        ];
        self.script(&header, &body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scripts() -> Scripts {
        Scripts {
            arena: "/opt/arena/bin/arena".into(),
            dir: "/scratch/t1".into(),
            workdir: "/home/me/arena".into(),
            name: "demo".into(),
            shards: 3,
            cpus: 2,
            max_running: Some(2),
            partition: Some("short".into()),
            time: None,
        }
    }

    #[test]
    #[cfg_attr(windows, ignore = "Slurm is Unix: its scripts hold Unix paths")]
    fn the_array_plays_shard_k_and_resumes_it() {
        let text = scripts().shards_script().unwrap();
        assert!(text.contains("#SBATCH --array=1-3%2\n"), "{text}");
        assert!(text.contains("#SBATCH --partition=short\n"));
        assert!(!text.contains("--time"));
        assert!(text.contains("#SBATCH --chdir=/home/me/arena\n"));
        assert!(text.contains("#SBATCH --output=/scratch/t1/slurm/shard-%a.log\n"));
        assert!(text.ends_with(
            "exec '/opt/arena/bin/arena' run '/scratch/t1/config.toml' --shard \"$k/3\" --out '/scratch/t1'/shard-\"$k\" --resume-if-exists --quiet\n"
        ), "{text}");
    }

    #[test]
    #[cfg_attr(windows, ignore = "Slurm is Unix: its scripts hold Unix paths")]
    fn the_merge_names_every_shard() {
        let text = scripts().merge_script().unwrap();
        assert!(text.ends_with(
            "exec '/opt/arena/bin/arena' merge '/scratch/t1/shard-1' '/scratch/t1/shard-2' '/scratch/t1/shard-3' --out '/scratch/t1/merged'\n"
        ), "{text}");
        assert!(text.contains("#SBATCH --cpus-per-task=1\n"));
    }

    #[test]
    #[cfg_attr(windows, ignore = "Slurm is Unix: its scripts hold Unix paths")]
    fn a_round_plays_its_shard_and_the_next_job_goes_on() {
        let round = scripts().round_script().unwrap();
        assert!(!round.contains("#SBATCH --array"), "{round}");
        assert!(round.ends_with(
            "exec '/opt/arena/bin/arena' slurm play '/scratch/t1' --round \"$r\" --shard \"$k\"\n"
        ), "{round}");
        let next = scripts().next_script().unwrap();
        assert!(
            next.contains("#SBATCH --output=/scratch/t1/slurm/next.log\n"),
            "{next}"
        );
        assert!(
            next.ends_with("exec '/opt/arena/bin/arena' slurm next '/scratch/t1' --round \"$1\"\n"),
            "{next}"
        );
    }

    #[test]
    fn paths_slurm_would_split_are_refused() {
        let mut s = scripts();
        s.dir = "/scratch/my results".into();
        assert!(s
            .shards_script()
            .unwrap_err()
            .to_string()
            .contains("cannot hold spaces"));
        s.dir = "/scratch/100%".into();
        assert!(s.merge_script().is_err());
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
