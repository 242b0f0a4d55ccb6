//! Whether a royal piece would stand unattacked where it goes: the lone royal piece's
//! destinations judged all at once ([`Position::safe_destinations`]: direct attacks, then lines
//! with the piece lifted, then hops or winding paths where the game has them), one destination
//! ([`Position::safe_destination`]) and a castling's cells ([`Position::castle_safe`]).

use crate::bits::CellSet;
use crate::game::{Game, RoyalReach};
use crate::position::Position;

impl<B: CellSet> Position<B> {
    /// Whether the piece on `from` would stand unattacked on `to` (the piece lifted off `from`, so
    /// lines through it open; a piece captured on `to` attacks nothing there). With hops, whose
    /// captures may depend on the kind taken, the piece is put on `to` for the test.
    #[inline]
    pub(crate) fn safe_destination(&mut self, game: &Game<B>, from: usize, to: usize, us: usize) -> bool {
        let code = self.board[from];
        self.board[from] = 0;
        self.occupied.remove(from);
        let there = self.board[to];
        if game.hopping {
            self.board[to] = code;
        }
        let safe = if game.hopping && !game.winding && game.sides == 2 { !self.attacked_hops_last(game, to, us) } else { !self.attacked_by_enemy(game, to, us) };
        self.board[to] = there;
        self.occupied.insert(from);
        self.board[from] = code;
        safe
    }

    /// Whether castling by rule `i` of `us` leaves its king (the side's one royal piece)
    /// unattacked: judged with the king and the rook moved on the board, without playing the move
    /// (castling captures nothing and changes no enemy piece).
    pub(crate) fn castle_safe(&mut self, game: &Game<B>, i: usize, us: usize) -> bool {
        let c = &game.castles[us][i];
        if !c.recheck {
            return true;
        }
        let (kf, rf, kt, rt) = (c.king_from as usize, c.rook_from as usize, c.king_to as usize, c.rook_to as usize);
        let (king, rook) = (self.board[kf], self.board[rf]);
        let occupied = self.occupied;
        for cell in [kf, rf] {
            self.board[cell] = 0;
            self.occupied.remove(cell);
        }
        self.board[kt] = king;
        self.board[rt] = rook;
        self.occupied.insert(kt);
        self.occupied.insert(rt);
        let safe = !self.attacked_by_enemy(game, kt, us);
        self.board[kt] = 0;
        self.board[rt] = 0;
        self.board[kf] = king;
        self.board[rf] = rook;
        self.occupied = occupied;
        safe
    }

    /// The cells of `targets` the piece on `from` would stand unattacked on (see
    /// [`Position::safe_destination`]), the piece lifted off the board for the lines: direct
    /// attacks and lines are judged for all targets at once (they do not depend on the piece
    /// that stands on the target). A hop may depend on the kind it takes, so with hops each
    /// target left is judged for hops with the piece put there; a winding flood may pass the
    /// piece's own cell, so with winding rules each target is judged whole with the piece moved
    /// there, and so is a lone target with hops (Xiangqi's general mostly has one, and the sets
    /// cost it 2.6 instructions a leaf; Janggi's several save 12). In perft's last ply the lines
    /// of the targets whose answer the parent found are not looked at
    /// ([`Position::known_destinations`]).
    #[inline(never)]
    pub(crate) fn safe_destinations(&mut self, game: &Game<B>, from: usize, targets: B, us: usize) -> B {
        if targets.is_empty() {
            return targets;
        }
        if game.winding || (game.hopping && targets.count() == 1) {
            return self.safe_one_by_one(game, from, targets, us);
        }
        let near = self.royal_reach(game, from, targets);
        let leaped = match near {
            Some(r) => self.attacked_from_among(game, targets, r.direct.and(self.by_side[1 - us])),
            None => self.attacked_by_leaps_among(game, targets, us),
        };
        debug_assert_eq!(leaped, self.attacked_by_leaps_among(game, targets, us), "the leap attacks near a royal piece's leaps");
        let mut safe = targets.and_not(leaped);
        let occupied = self.occupied.and_not(B::single(from));
        let mut unknown = safe;
        if game.many_ways {
            let (known, attacked) = self.known_destinations(from);
            safe = safe.and_not(attacked);
            unknown = safe.and_not(known);
        }
        safe = safe.and_not(if (!game.by_pairs || game.hopping) && unknown.count() > 1 {
            // Several destinations on a wide board: each enemy rider followed once, rather than
            // every destination's lines. (Measured against doing so only with at least two
            // destinations per rider, or one per one, two or three riders: Knightmate -2.5
            // instructions a leaf, Makruk -2.4, Shogi -1.2; Grand Chess +1.5, whose nine riders
            // reach far.) With the pairs, destination by destination costs less everywhere
            // (Knightmate -4.5, Grand Chess -3.7) but in the games with hops (Janggi +3.2; the
            // choice costs most boards 0.1 in how the count compiles. More destinations than
            // riders as the rule instead: Janggi +0.8, Knightmate +0.9).
            let lines = near.map_or_else(|| self.lines_through(game, unknown), |r| r.lines);
            let hit = self.attacked_along_lines_near(game, unknown, us, occupied, lines);
            debug_assert_eq!(hit, self.attacked_along_lines_among(game, unknown, us, occupied), "the line attacks near a royal piece's leaps");
            hit
        } else {
            self.attacked_along_lines_one_by_one(game, unknown, us, occupied)
        });
        if game.hopping {
            let hopped = self.hopped_among(game, from, safe, us, near.map(|r| r.hops));
            debug_assert_eq!(hopped, self.hopped_among(game, from, safe, us, None), "the hop attacks near a royal piece's leaps");
            safe = safe.and_not(hopped);
        }
        safe
    }

    /// What could attack the destinations `targets` of the lone royal piece on `from`
    /// (`Game::royal_reach`), when they are all its plain leaps. (Only on sets of several words,
    /// where the unions cost most: Janggi -1.6 instructions a leaf for the direct attacks; on
    /// one word the pieces near all the leaps, more than near the destinations, made orthodox
    /// +0.2.)
    #[inline(always)]
    fn royal_reach(&self, game: &Game<B>, from: usize, targets: B) -> Option<RoyalReach<B>> {
        if B::CAPACITY <= 64 {
            return None;
        }
        let i = (self.board[from] as usize - 1) * game.cells + from;
        let r = *game.royal_reach.get(i)?;
        let m = &game.piece_moves[i];
        targets.and_not(m.leap_quiet.or(m.leap_capture)).is_empty().then_some(r)
    }

    /// The cells of `targets` the piece on `from` would stand unattacked on, each judged with
    /// [`Position::safe_destination`].
    fn safe_one_by_one(&mut self, game: &Game<B>, from: usize, targets: B, us: usize) -> B {
        let mut safe = B::default();
        for to in targets.iter() {
            if self.safe_destination(game, from, to, us) {
                safe.insert(to);
            }
        }
        safe
    }

    /// The cells of `targets` where an enemy piece could capture the piece on `from` by a hop,
    /// the piece put on each in turn (lifted off `from`). With two sides, `starts` may tell
    /// where the hop ways onto the targets start (`RoyalReach::hops`, a superset).
    fn hopped_among(&mut self, game: &Game<B>, from: usize, targets: B, us: usize, starts: Option<B>) -> B {
        let mut hit = B::default();
        // Only the targets that an enemy piece with hop rules could reach from where it stands
        // (`Game::hop_targets`; most have none) are tested, by putting the piece there.
        let mut reach = B::default();
        if game.sides == 2 {
            // (With two sides, no loop over the opponents, as `Position::attacked_by_leaps_among`.)
            let s = 1 - us;
            let pieces = self.hop_pieces(game, s);
            starts.map_or(pieces, |c| pieces.and(c)).each(|p| reach = reach.or(game.hop_targets[p * 2 + s]));
        } else {
            for &s in &game.opponents[us] {
                if !self.is_out(s) {
                    for p in self.hop_pieces(game, s).iter() {
                        reach = reach.or(game.hop_targets[p * game.sides + s]);
                    }
                }
            }
        }
        let targets = targets.and(reach);
        if targets.is_empty() {
            return hit;
        }
        let code = self.board[from];
        self.board[from] = 0;
        self.occupied.remove(from);
        for to in targets.iter() {
            let there = self.board[to];
            self.board[to] = code;
            if self.hopped_by_enemy(game, to, us) {
                hit.insert(to);
            }
            self.board[to] = there;
        }
        self.occupied.insert(from);
        self.board[from] = code;
        hit
    }
}
