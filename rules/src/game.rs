//! The game logic, written once over a [`Ring`] and compiled for each
//! representation: legality, a move, the capture and the game's end (RULES.md,
//! "A move", "Endless sowing" and "End of the game"). [`Position`](crate::Position)
//! holds one `Game` and forwards to it.
//!
//! Legality is paid for once per position: `settle_end` must prove that the
//! side to move has a legal move, and keeps what its proof learnt (the moves
//! known legal, at a glance or sown to an end, and the endless ones) so that
//! `legal_moves`, `check` and `play` never sow those again while the
//! position stands.

use crate::results::{Capture, IllegalMove, MoveDetails, Outcome, Termination};
use crate::ring::Ring;
use crate::sowing::Sowing;
use crate::{Move, MoveSet, Rules, Side};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Game<R> {
    pub(crate) rules: Rules,
    pub(crate) ring: R,
    pub(crate) to_move: Side,
    pub(crate) captured: [u32; 2],
    pub(crate) ply: u32,
    pub(crate) outcome: Option<Outcome>,
    /// The occupied holes of the side to move (empty once the game is over).
    moves: MoveSet,
    /// Moves of the side to move that `settle_end` found legal: those whose
    /// first lap ends in an empty hole, or the one it sowed to an end.
    known: MoveSet,
    /// Moves of the side to move that `settle_end` found endless.
    endless: MoveSet,
}

impl<R: Ring> Game<R> {
    /// The game at `ring`, its end settled at once.
    pub(crate) fn new(rules: Rules, ring: R, to_move: Side, captured: [u32; 2], ply: u32) -> Self {
        let mut game = Game {
            rules,
            ring,
            to_move,
            captured,
            ply,
            outcome: None,
            moves: MoveSet::EMPTY,
            known: MoveSet::EMPTY,
            endless: MoveSet::EMPTY,
        };
        game.settle_end();
        game
    }

    #[inline(always)]
    fn len(&self) -> usize {
        2 * self.rules.holes()
    }

    /// The ring index of `side`'s hole 1.
    #[inline(always)]
    fn base(&self, side: Side) -> usize {
        match side {
            Side::South => 0,
            Side::North => self.rules.holes(),
        }
    }

    /// The ring index of the side to move's hole `mv`, clamped to the board.
    #[inline(always)]
    pub(crate) fn index(&self, mv: Move) -> usize {
        let n = self.rules.holes();
        self.base(self.to_move) + usize::from(mv.hole()).clamp(1, n) - 1
    }

    #[inline]
    pub(crate) fn candidate_moves(&self) -> MoveSet {
        self.moves
    }

    /// Whether occupied hole `mv` is legal: what `settle_end` learnt, or
    /// else a sowing on a copy.
    #[inline]
    fn ends(&self, mv: Move) -> bool {
        self.known.contains(mv)
            || (!self.endless.contains(mv) && self.sows_to_an_end(self.index(mv)))
    }

    fn sows_to_an_end(&self, start: usize) -> bool {
        self.ring.ends(self.len(), start, self.rules.max_laps())
    }

    pub(crate) fn legal_moves(&self) -> MoveSet {
        let mut set = self.known;
        let unknown = self.moves.bits() & !(set.bits() | self.endless.bits());
        for mv in MoveSet::from_bits(unknown) {
            if self.sows_to_an_end(self.index(mv)) {
                set.insert(mv);
            }
        }
        set
    }

    pub(crate) fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.check_candidate(mv)?;
        if self.ends(mv) {
            Ok(())
        } else {
            Err(self.endless_error(mv))
        }
    }

    pub(crate) fn play(&mut self, mv: Move) -> Result<MoveDetails, IllegalMove> {
        self.check_candidate(mv)?;
        if self.endless.contains(mv) {
            return Err(self.endless_error(mv));
        }
        // Sown in place: an endless sowing leaves the ring as it was, so a
        // move known legal and one still to prove take the same path.
        match self
            .ring
            .sow(self.len(), self.index(mv), self.rules.max_laps())
        {
            Sowing::Ended { last, laps, sown } => Ok(self.finish_move(mv, last, laps, sown)),
            Sowing::Endless => Err(self.endless_error(mv)),
        }
    }

    #[inline]
    pub(crate) fn play_unchecked(&mut self, mv: Move) -> MoveDetails {
        let start = self.index(mv);
        let max_laps = self.rules.max_laps();
        let (last, laps, sown) = match self.ring.sow(self.len(), start, max_laps) {
            Sowing::Ended { last, laps, sown } => (last, laps, sown),
            Sowing::Endless => (start, max_laps, 0),
        };
        self.finish_move(mv, last, laps, sown)
    }

    /// The reasons a move is illegal short of being endless.
    #[inline]
    pub(crate) fn check_candidate(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.moves.contains(mv) {
            Ok(())
        } else {
            Err(self.not_a_candidate(mv))
        }
    }

    /// Why `mv` is not among the occupied holes of the side to move.
    #[cold]
    fn not_a_candidate(&self, mv: Move) -> IllegalMove {
        let hole = mv.hole();
        let n = self.rules.holes();
        if self.outcome.is_some() {
            IllegalMove::GameOver
        } else if usize::from(hole) > n {
            IllegalMove::NoSuchHole {
                hole,
                holes: n as u8,
            }
        } else {
            IllegalMove::EmptyHole { hole }
        }
    }

    pub(crate) fn endless_error(&self, mv: Move) -> IllegalMove {
        IllegalMove::Endless {
            hole: mv.hole(),
            max_laps: self.rules.max_laps(),
        }
    }

    /// The capture, the ply count and the game's end, after the sowing of `mv`
    /// ended at ring index `last`.
    #[inline]
    fn finish_move(&mut self, mv: Move, last: usize, laps: u32, sown: u64) -> MoveDetails {
        let n = self.rules.holes();
        let mover = self.to_move;
        let base = self.base(mover);
        // The capture, without a branch (whether one happens is a coin
        // toss): the opposite hole's seeds and the triggering seed leave the
        // board if the last hole is the mover's and the opposite one is
        // occupied.
        // (The last hole holds the seed that ended the sowing; only
        // `play_unchecked` of an endless move gets here with it empty.)
        let opposite = 2 * n - 1 - last;
        let captures = (last.wrapping_sub(base) < n)
            & (self.ring.get(opposite) > 0)
            & (self.ring.get(last) > 0);
        let taken = self.ring.take_if(opposite, captures) + self.ring.take_if(last, captures);
        self.captured[mover.index()] += taken;
        let hole = (if opposite >= n {
            opposite - n
        } else {
            opposite
        }) as u8
            + 1;
        let capture = captures.then_some(Capture { hole, seeds: taken });
        self.ply += 1;
        self.to_move = mover.opponent();
        self.settle_end();
        MoveDetails {
            mv,
            mover,
            laps,
            sown,
            last,
            capture,
            outcome: self.outcome,
        }
    }

    /// Ends the game if the side to move has no legal move (the other side sweeps
    /// the board) or the ply limit is reached (each side takes its own row).
    #[inline]
    fn settle_end(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let (n, len) = (self.rules.holes(), self.len());
        let termination = if !self.has_legal_move() {
            if self.ply == 0 {
                // Nobody has moved, so there is no last mover to sweep: each
                // side keeps its own row (only a tiny max_laps gets here).
                self.captured[0] += self.ring.sum(0, n);
                self.captured[1] += self.ring.sum(n, len);
            } else {
                self.captured[self.to_move.opponent().index()] += self.ring.sum(0, len);
            }
            Termination::NoMoves
        } else if self.ply >= self.rules.max_plies() {
            self.captured[0] += self.ring.sum(0, n);
            self.captured[1] += self.ring.sum(n, len);
            Termination::PlyLimit
        } else {
            return;
        };
        self.ring.clear();
        self.moves = MoveSet::EMPTY;
        self.known = MoveSet::EMPTY;
        self.endless = MoveSet::EMPTY;
        let [south, north] = self.captured;
        let winner = match south.cmp(&north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        self.outcome = Some(Outcome {
            termination,
            winner,
        });
    }

    /// Whether the side to move has a legal move, by the cheapest proof:
    /// every hole looked at, with no branch, for a first lap that ends in an
    /// empty hole, and only when none does, sowing the candidates until one
    /// ends. What the proof learns is kept in `known` and `endless`.
    #[inline]
    fn has_legal_move(&mut self) -> bool {
        let base = self.base(self.to_move);
        let glance = self.ring.glance(self.len(), base, self.rules.holes());
        self.moves = MoveSet::from_bits(glance.occupied);
        self.known = MoveSet::from_bits(glance.ends);
        self.endless = MoveSet::EMPTY;
        glance.ends != 0 || self.prove_by_sowing()
    }

    /// Sows the candidates for a few laps each first, then in full: an
    /// endless candidate (up to `max_laps` laps) is only sown to its end when
    /// no other candidate ends early.
    #[cold]
    fn prove_by_sowing(&mut self) -> bool {
        const QUICK_LAPS: u32 = 16;
        let (len, max_laps) = (self.len(), self.rules.max_laps());
        let candidates = self.candidate_moves();
        for mv in candidates {
            if self
                .ring
                .ends(len, self.index(mv), max_laps.min(QUICK_LAPS))
            {
                self.known.insert(mv);
                return true;
            }
        }
        if max_laps <= QUICK_LAPS {
            self.endless = candidates;
            return false;
        }
        for mv in candidates {
            if self.sows_to_an_end(self.index(mv)) {
                self.known.insert(mv);
                return true;
            }
            self.endless.insert(mv);
        }
        false
    }
}
