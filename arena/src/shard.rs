//! Shards: a tournament split into N parts, each played on its own (a job
//! array's tasks), then merged. Pure: the environment a `--shard auto/N`
//! takes its K from is passed in, never read here.

use std::fmt;
use std::str::FromStr;

/// Shard K of N (1 <= K <= N): every N-th series of the schedule, from the
/// K-th. Written and parsed as `K/N`, as in `--shard 2/4` and the run
/// folder's `shard` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    k: usize,
    n: usize,
}

/// A shard that cannot be, or cannot be found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Text that is not `K/N` with 1 <= K <= N.
    #[error("'{0}' is not a shard: write K/N with 1 <= K <= N, e.g. 2/4")]
    NotAShard(String),
    /// `auto/N` gave a K past N.
    #[error("'{0}' is not a shard: write K/N with 1 <= K <= N, e.g. 2/4 (K from SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX + 1: is N the number of tasks?)")]
    AutoPastN(String),
    /// `auto/N` in an array numbered from 0.
    #[error("--shard auto/N: SLURM_ARRAY_TASK_ID is 0; number the array 1-N (sbatch --array=1-N)")]
    SlurmTaskZero,
    /// `auto/N` without a job array's index.
    #[error("--shard auto/N needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment")]
    NoTaskIndex,
    /// A Slurm array task that was given no `--shard`.
    #[error("this is a Slurm array task: pass --shard auto/N (N shards, array 1-N), or let `arena slurm` write the job")]
    ArrayTaskWithoutShard,
}

impl Shard {
    /// Shard `k` of `n`.
    ///
    /// # Errors
    /// [`ShardError::NotAShard`] unless 1 <= k <= n.
    pub fn new(k: usize, n: usize) -> Result<Shard, ShardError> {
        if k == 0 || k > n {
            return Err(ShardError::NotAShard(format!("{k}/{n}")));
        }
        Ok(Shard { k, n })
    }

    /// K, from 1.
    #[must_use]
    pub fn k(self) -> usize {
        self.k
    }

    /// N, the number of shards.
    #[must_use]
    pub fn n(self) -> usize {
        self.n
    }

    /// Whether this is shard 1 of 1: the whole tournament.
    #[must_use]
    pub fn is_whole(self) -> bool {
        self.n == 1
    }

    /// `(k, n)`, for code that counts with them.
    #[must_use]
    pub fn pair(self) -> (usize, usize) {
        (self.k, self.n)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::NotAShard(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        Shard::new(k, n).map_err(|_| bad())
    }
}

/// What `--shard` says: `K/N`, or `auto/N` with K from the job array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    /// `K/N`.
    Fixed(Shard),
    /// `auto/N`: K from the environment ([`ShardSpec::resolve`]). Holds the
    /// text after `auto/`, checked once K is known.
    Auto(String),
}

impl FromStr for ShardSpec {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<ShardSpec, ShardError> {
        match text.strip_prefix("auto/") {
            Some(n) => Ok(ShardSpec::Auto(n.to_string())),
            None => text.parse().map(ShardSpec::Fixed),
        }
    }
}

impl ShardSpec {
    /// The shard to play: `--shard K/N`, or `--shard auto/N` with K from the
    /// job array's index in `env` (a variable's value by name): Slurm's
    /// SLURM_ARRAY_TASK_ID as it is (arrays numbered 1-N, so that a task
    /// re-run alone with `--array=K` keeps its K), or Kubernetes'
    /// JOB_COMPLETION_INDEX + 1 (numbered from 0). A Slurm array task
    /// without `--shard` is refused: it would play the whole tournament.
    ///
    /// # Errors
    /// The [`ShardError`] saying which of those went wrong.
    pub fn resolve(
        spec: Option<&ShardSpec>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Shard>, ShardError> {
        let number = |k: &str| env(k).and_then(|v| v.trim().parse::<usize>().ok());
        match spec {
            Some(ShardSpec::Fixed(shard)) => Ok(Some(*shard)),
            Some(ShardSpec::Auto(n)) => {
                let k = match (
                    number("SLURM_ARRAY_TASK_ID"),
                    number("JOB_COMPLETION_INDEX"),
                ) {
                    (Some(0), _) => return Err(ShardError::SlurmTaskZero),
                    (Some(id), _) => id,
                    (None, Some(i)) => i + 1,
                    (None, None) => return Err(ShardError::NoTaskIndex),
                };
                let text = format!("{k}/{n}");
                text.parse()
                    .map(Some)
                    .map_err(|_| ShardError::AutoPastN(text))
            }
            None if env("SLURM_ARRAY_TASK_ID").is_some() => Err(ShardError::ArrayTaskWithoutShard),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_write_as_k_of_n() {
        let s: Shard = "2/5".parse().unwrap();
        assert_eq!((s.k(), s.n()), (2, 5));
        assert_eq!(s.to_string(), "2/5");
        assert!(!s.is_whole());
        assert!("1/1".parse::<Shard>().unwrap().is_whole());
        for bad in ["0/3", "4/3", "2", "a/b", "2/", "/2", "-1/2", "auto/3"] {
            assert_eq!(
                bad.parse::<Shard>().unwrap_err().to_string(),
                format!("'{bad}' is not a shard: write K/N with 1 <= K <= N, e.g. 2/4")
            );
        }
    }

    #[test]
    fn shards_come_from_the_flag_or_the_job_array() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let spec = |t: &str| t.parse::<ShardSpec>().unwrap();
        let shard = |k, n| Ok(Some(Shard::new(k, n).unwrap()));
        assert_eq!(
            ShardSpec::resolve(Some(&spec("2/4")), env(&[])),
            shard(2, 4)
        );
        assert_eq!(ShardSpec::resolve(None, env(&[])), Ok(None));
        assert_eq!(
            ShardSpec::resolve(Some(&spec("auto/4")), env(&[("JOB_COMPLETION_INDEX", "0")])),
            shard(1, 4)
        );
        let slurm = env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "3")]);
        assert_eq!(
            ShardSpec::resolve(Some(&spec("auto/4")), slurm),
            shard(3, 4)
        );
        assert_eq!(
            ShardSpec::resolve(None, slurm),
            Err(ShardError::ArrayTaskWithoutShard)
        );
        assert_eq!(
            ShardSpec::resolve(Some(&spec("auto/4")), env(&[("SLURM_ARRAY_TASK_ID", "0")])),
            Err(ShardError::SlurmTaskZero)
        );
        assert_eq!(
            ShardSpec::resolve(Some(&spec("auto/4")), env(&[])),
            Err(ShardError::NoTaskIndex)
        );
        assert!("5/4".parse::<ShardSpec>().is_err());
        let past = ShardSpec::resolve(Some(&spec("auto/2")), slurm).unwrap_err();
        assert!(
            past.to_string().starts_with("'3/2' is not a shard"),
            "{past}"
        );
        assert!(
            past.to_string().contains("is N the number of tasks?"),
            "{past}"
        );
    }
}
