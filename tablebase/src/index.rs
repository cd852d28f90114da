//! The index of a layer: every distribution of `k` seeds over the `m = 2H`
//! holes of the ring, numbered densely `0..C(k + m - 1, m - 1)` by the
//! combinatorial number system (stars and bars; Knuth, TAOCP 4A, 7.2.1.3).

/// The ranking of the boards of `holes` ring holes holding exactly `seeds`
/// seeds. A board `s_0, ..., s_{m-1}` has the prefix sums `S_j`; the bars
/// `b_j = S_j + j` (`j < m - 1`) are strictly increasing in `0..k + m - 1`,
/// and the rank is `sum_j C(b_j, j + 1)`, the colex rank of that
/// `(m - 1)`-subset. The ranks are exactly `0..count()`.
///
/// ```
/// use endodoi_tablebase::Index;
/// let index = Index::new(4, 2); // 2x2 board, 2 seeds on it
/// assert_eq!(index.count(), 10); // C(5, 3)
/// let mut board = [0; 4];
/// index.unrank(index.rank(&[0, 1, 0, 1]), &mut board);
/// assert_eq!(board, [0, 1, 0, 1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Index {
    holes: usize,
    seeds: u32,
    /// `binom[n * holes + r]` = C(n, r) for `n < seeds + holes`, `r < holes`,
    /// saturating at `u64::MAX`.
    binom: Vec<u64>,
    count: u64,
}

impl Index {
    /// The index of the boards of `holes` ring holes (2 or more: `2H` for a
    /// 2xH board) holding exactly `seeds` seeds.
    ///
    /// # Panics
    /// When `holes` is below 2.
    #[must_use]
    pub fn new(holes: usize, seeds: u32) -> Index {
        assert!(holes >= 2, "a ring needs 2 or more holes, not {holes}");
        let rows = seeds as usize + holes;
        let mut binom = vec![0u64; rows * holes];
        for n in 0..rows {
            binom[n * holes] = 1;
            for r in 1..holes.min(n + 1) {
                let above = if r < n { binom[(n - 1) * holes + r] } else { 0 };
                binom[n * holes + r] = binom[(n - 1) * holes + r - 1].saturating_add(above);
            }
        }
        let count = binom[(rows - 1) * holes + holes - 1];
        Index {
            holes,
            seeds,
            binom,
            count,
        }
    }

    fn c(&self, n: usize, r: usize) -> u64 {
        self.binom[n * self.holes + r]
    }

    /// Ring holes per board (`2H`).
    #[must_use]
    pub fn holes(&self) -> usize {
        self.holes
    }

    /// Seeds on every board of this index.
    #[must_use]
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The number of boards, `C(seeds + holes - 1, holes - 1)` (saturating at
    /// `u64::MAX`, far beyond any table that fits in memory).
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of `board`, in `0..count()`.
    ///
    /// # Panics
    /// When `board` does not have `holes()` holes (debug builds also check
    /// that it holds `seeds()` seeds).
    #[must_use]
    pub fn rank(&self, board: &[u32]) -> u64 {
        assert_eq!(board.len(), self.holes, "a board of the wrong size");
        debug_assert_eq!(board.iter().sum::<u32>(), self.seeds);
        let mut sum = 0usize;
        let mut rank = 0u64;
        for (j, &s) in board[..self.holes - 1].iter().enumerate() {
            sum += s as usize;
            rank += self.c(sum + j, j + 1);
        }
        rank
    }

    /// The board of rank `rank` (in `0..count()`), written to `board`.
    ///
    /// # Panics
    /// When `board` does not have `holes()` holes, or (debug builds) when
    /// `rank` is not below `count()`.
    pub fn unrank(&self, mut rank: u64, board: &mut [u32]) {
        assert_eq!(board.len(), self.holes, "a board of the wrong size");
        debug_assert!(rank < self.count);
        let m = self.holes;
        // The bar b_j is the largest b below the previous bar with C(b, j + 1) <= rank.
        let mut bar = self.seeds as usize + m - 1;
        let mut upper = self.seeds; // S_{j+1}, the prefix sum after hole j + 1
        for j in (0..m - 1).rev() {
            bar -= 1;
            while self.c(bar, j + 1) > rank {
                bar -= 1;
            }
            rank -= self.c(bar, j + 1);
            let sum = (bar - j) as u32; // S_j
            board[j + 1] = upper - sum;
            upper = sum;
        }
        board[0] = upper;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ranks_are_dense_and_unrank_inverts_them() {
        for (holes, seeds) in [(4, 0), (4, 1), (4, 5), (6, 4), (8, 3), (10, 2)] {
            let index = Index::new(holes, seeds);
            let mut board = vec![0; holes];
            let mut seen = vec![false; index.count() as usize];
            for rank in 0..index.count() {
                index.unrank(rank, &mut board);
                assert_eq!(board.iter().sum::<u32>(), seeds, "{board:?}");
                assert_eq!(index.rank(&board), rank, "{board:?}");
                seen[rank as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn counts_are_the_binomials() {
        assert_eq!(Index::new(4, 0).count(), 1);
        assert_eq!(Index::new(6, 8).count(), 1287); // C(13, 5)
        assert_eq!(Index::new(12, 20).count(), 84_672_315); // C(31, 11)
    }

    proptest! {
        #[test]
        fn unrank_of_rank_is_the_board(board in prop::collection::vec(0u32..6, 4..=12)) {
            let seeds = board.iter().sum::<u32>();
            let index = Index::new(board.len(), seeds);
            let rank = index.rank(&board);
            prop_assert!(rank < index.count());
            let mut back = vec![0; board.len()];
            index.unrank(rank, &mut back);
            prop_assert_eq!(back, board);
        }
    }
}
