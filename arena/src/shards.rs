//! Whether a set of shard folders makes up a whole tournament: every shard
//! K of N there once, and each one finished. `arena merge` checks it before
//! it writes anything, and `arena slurm rerun` uses it to find the shards to
//! play again.

use std::path::{Path, PathBuf};

use crate::output::RunFolder;
use crate::shard::Shard;

/// What a run folder says of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardState {
    /// The folder.
    pub dir: PathBuf,
    /// The shard, or `None` for a whole tournament.
    pub shard: Option<Shard>,
    /// Whether the run finished (its `finished` marker is there).
    pub finished: bool,
}

impl ShardState {
    /// Reads the `shard` file and the `finished` marker of `dir`.
    #[must_use]
    pub fn read(dir: &Path) -> ShardState {
        let run = RunFolder::at(dir);
        ShardState {
            dir: dir.to_path_buf(),
            shard: run.shard(),
            finished: run.is_finished(),
        }
    }
}

/// Folders that are not the whole of one tournament: every problem, one
/// line each (shown joined with "; ").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", problems.join("; "))]
pub struct NotWhole {
    /// One line per problem, each with its fix.
    pub problems: Vec<String>,
}

/// Checks that `folders` are the whole of one tournament: one unsharded
/// run, or shards 1..=N of the same N, each once; and that each finished.
///
/// # Errors
/// [`NotWhole`], one line per problem: a shard missing or given twice,
/// shards of different splits, a run that did not finish (with how to
/// resume it).
pub fn check_whole(folders: &[ShardState]) -> Result<(), NotWhole> {
    let mut problems = Vec::new();
    let name = |s: &ShardState| match s.shard {
        Some(shard) => format!("{} (shard {shard})", s.dir.display()),
        None => format!("{} (a whole run)", s.dir.display()),
    };
    let whole = folders.iter().filter(|s| s.shard.is_none()).count();
    if whole > 0 && folders.len() > 1 {
        problems.push(format!(
            "{} among {} folders: merge the shards of one split, or rate several runs with `arena rate`",
            crate::output::counted(whole, "whole run", "whole runs"),
            folders.len()
        ));
    }
    let splits: std::collections::BTreeSet<usize> = folders
        .iter()
        .filter_map(|s| s.shard.map(Shard::n))
        .collect();
    if splits.len() > 1 {
        problems.push(format!(
            "the folders come from splits into {} shards: merge the shards of one split",
            splits
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    } else if let Some(&n) = splits.first() {
        for k in 1..=n {
            let with_k: Vec<&ShardState> = folders
                .iter()
                .filter(|s| s.shard.map(Shard::pair) == Some((k, n)))
                .collect();
            match with_k.as_slice() {
                [] => problems.push(format!("shard {k}/{n} is missing: add its folder")),
                [_] => {}
                [first, second, ..] => problems.push(format!(
                    "{} and {} are the same shard: give each shard once",
                    name(first),
                    name(second)
                )),
            }
        }
    }
    for s in folders.iter().filter(|s| !s.finished) {
        let how = match s.shard {
            Some(shard) => format!(
                "arena run CONFIG --shard {shard} --resume {}",
                s.dir.display()
            ),
            None => format!("arena run CONFIG --resume {}", s.dir.display()),
        };
        problems.push(format!(
            "{} did not finish: resume it with `{how}` (or, for a Slurm tournament, `arena slurm rerun` on its folder)",
            name(s)
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(NotWhole { problems })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(dir: &str, shard: Option<(usize, usize)>, finished: bool) -> ShardState {
        ShardState {
            dir: dir.into(),
            shard: shard.map(|(k, n)| Shard::new(k, n).unwrap()),
            finished,
        }
    }

    /// Shard `k` of `n`, finished, in folder `dir`.
    fn done(dir: &str, k: usize, n: usize) -> ShardState {
        state(dir, Some((k, n)), true)
    }

    #[test]
    fn all_shards_once_and_finished_are_whole() {
        let three: Vec<_> = (1..=3).map(|k| done(&format!("s{k}"), k, 3)).collect();
        assert_eq!(check_whole(&three), Ok(()));
        assert_eq!(check_whole(&[state("all", None, true)]), Ok(()));
    }

    #[test]
    fn each_problem_is_named() {
        // (the folders, what the error says).
        let cases: [(Vec<ShardState>, &[&str]); 5] = [
            (
                vec![done("a", 1, 3), done("c", 3, 3)],
                &["shard 2/3 is missing"],
            ),
            (
                vec![done("a", 1, 2), done("b", 1, 2), done("c", 2, 2)],
                &["same shard"],
            ),
            (vec![done("a", 1, 2), done("b", 2, 3)], &["2 and 3 shards"]),
            (
                vec![done("a", 1, 2), state("b", Some((2, 2)), false)],
                &["b (shard 2/2) did not finish", "--shard 2/2 --resume b"],
            ),
            (
                vec![state("w", None, true), done("a", 1, 1)],
                &["1 whole run among 2 folders"],
            ),
        ];
        for (states, says) in cases {
            let e = check_whole(&states).unwrap_err().to_string();
            for said in says {
                assert!(e.contains(said), "{e}");
            }
        }
    }
}
