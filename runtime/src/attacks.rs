//! Attack tests on a position: whether a side attacks a cell (directly, along lines, winding or
//! hopping), whether a side is in check, and the winding floods they follow.
//!
//! A second `impl` block of [`Position`], apart from `position.rs` (the position's state and its
//! upkeep) so that each stays one concern; the attacks found from the attackers' side are in
//! `line_attacks.rs`.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position};
use crate::tables::NO_CELL;

impl<B: CellSet> Position<B> {
    /// Whether any piece of `side` attacks `target`.
    #[inline]
    pub fn attacked_by(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        self.attacked_directly(game, target, side) || self.attacked_along_lines(game, target, side)
    }

    /// Whether a piece of `side` attacks `target` other than along a line: directly, winding
    /// or hopping.
    #[inline]
    pub fn attacked_directly(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        if self.attacked_by_leaps(game, target, side) {
            return true;
        }
        if game.winding && self.wound_by(game, target, side) {
            return true;
        }
        game.hopping && self.hopped_by_or_known(game, target, side)
    }

    /// Whether a piece of `side` attacks `target` by a leap (neither along a line, nor winding,
    /// nor hopping).
    #[inline(always)]
    fn attacked_by_leaps(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        let di = target * game.sides + side;
        let near = self.by_side[side].and(game.direct_reach[di]);
        if game.direct_by_piece {
            // Many kinds attack directly: the few pieces near the target are looked at instead.
            for c in near.iter() {
                if game.direct_from[(self.board[c] as usize - 1) * game.cells + c].has(target) {
                    return true;
                }
            }
        } else if !near.is_empty() {
            for &(ck, set) in &game.direct[game.direct_index[di] as usize..game.direct_index[di + 1] as usize] {
                if self.by_ck[ck as usize].intersects(set) {
                    return true;
                }
            }
        }
        false
    }

    /// [`Position::attacked_by_enemy`] in a two-sided game with hop rules and no winding
    /// rules, the hops tested last: most cells a royal piece may go to that are attacked are
    /// attacked by a leap or along a line, which cost less to find.
    #[inline(never)]
    pub(crate) fn attacked_hops_last(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        let s = 1 - side;
        self.attacked_by_leaps(game, target, s) || self.attacked_along_lines(game, target, s) || self.hopped_by_or_known(game, target, s)
    }

    /// Whether a line attacker of `side` attacks `target`.
    #[inline]
    fn attacked_along_lines(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        self.attacked_along_lines_on(game, target, side, self.occupied)
    }

    /// As [`Position::attacked_along_lines`] with the cells `occupied` (a subset of the board's:
    /// the pieces on the others are not looked at): from the side's line pieces in reach on
    /// boards of up to two words (`Game::by_pairs`), line by line on wider ones.
    #[inline(always)]
    fn attacked_along_lines_on(&self, game: &Game<B>, target: usize, side: usize, occupied: B) -> bool {
        if game.by_pairs {
            self.attacked_along_pairs(game, target, side, occupied)
        } else {
            self.attacked_along_lines_walked(game, target, side, occupied)
        }
    }

    /// [`Position::attacked_along_lines_on`] from the pairs (`Game::line_pairs`): each line piece
    /// of `side` on one of the target's lines attacks if its kind attacks from there along one
    /// of them and the cells between are empty.
    #[inline(always)]
    fn attacked_along_pairs(&self, game: &Game<B>, target: usize, side: usize, occupied: B) -> bool {
        // (A piece lifted off `occupied` attacks from nowhere.)
        for a in self.line_pieces[side].and(game.line_reach[target]).and(occupied).iter() {
            let ck = self.board[a] as usize - 1;
            if game.line_pairs_of(target, a).iter().any(|p| (p.kinds >> ck) & 1 != 0 && !p.between.intersects(occupied)) {
                return true;
            }
        }
        false
    }

    /// [`Position::attacked_along_lines_on`] line by line: the first occupied cell of each of
    /// the target's lines, and the kinds that attack from it along the line. Public for the
    /// tests, which hold the pairs to it on every board.
    #[inline(always)]
    pub fn attacked_along_lines_walked(&self, game: &Game<B>, target: usize, side: usize, occupied: B) -> bool {
        let sliders = self.line_pieces[side];
        if !sliders.intersects(game.line_reach[target]) {
            return false;
        }
        let ours = game.side_cks[side];
        let lines = &game.lines[game.line_index[target] as usize..game.line_index[target + 1] as usize];
        for line in lines {
            // (A piece next to the target ends the line: its attack, if any, is a direct one.)
            if !line.set.intersects(sliders) || (line.first != NO_CELL && occupied.has(line.first as usize)) {
                continue;
            }
            if let Some((b, run)) = game.first_occupied(line.segments, occupied) {
                // (A piece that is not one of the side's line pieces attacks along no line.)
                if sliders.has(b) && ((game.kinds_on(line, run, b) & ours) >> (self.board[b] - 1)) & 1 != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// A winding rule's flood from `from`: the empty cells it reaches, and the occupied cells one
    /// step from the start or from a reached cell (those it could capture).
    #[inline]
    pub fn flood(&self, w: &crate::game::WindRule<B>, from: usize) -> (B, B) {
        self.flood_through(w, B::single(from), |cells| cells)
    }

    /// [`Position::flood`] from each of the cells `starts` at once: the union of their floods,
    /// except that no start is ever reached (a start is hit only by its own flood's
    /// neighbours, which the caller leaves out of `starts` where it matters). A flood goes on
    /// only through empty cells, so the union of the starts' floods is one flood from all.
    #[inline]
    pub fn flood_all(&self, w: &crate::game::WindRule<B>, starts: B) -> (B, B) {
        self.flood_through(w, starts, |cells| cells)
    }

    /// [`Position::flood_all`], going on only from the empty cells reached that `pass` keeps (a
    /// royal path's unattacked cells); the others are still reached.
    #[inline(always)]
    pub fn flood_through(&self, w: &crate::game::WindRule<B>, starts: B, mut pass: impl FnMut(B) -> B) -> (B, B) {
        let mut reached = starts;
        let mut frontier = reached;
        let (mut empty, mut hit) = (B::default(), B::default());
        loop {
            let mut next = B::default();
            for c in frontier.iter() {
                next = next.or(w.next[c]);
            }
            let new = next.and_not(reached);
            if new.is_empty() {
                return (empty, hit);
            }
            reached = reached.or(new);
            hit = hit.or(new.and(self.occupied));
            let reached_empty = new.and_not(self.occupied);
            empty = empty.or(reached_empty);
            frontier = pass(reached_empty);
        }
    }

    /// Whether a winding piece of `side` could capture on `target`.
    fn wound_by(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        for &ck in &game.wind_cks[side] {
            for w in &game.winders[ck as usize] {
                // Rule by rule, so that a target off its zone, or no piece in it, costs one test.
                if w.flags & crate::tables::ray::CAPTURE == 0 || !w.zone.has(target) {
                    continue;
                }
                // One flood from all the kind's pieces in the zone (a piece on the target, about
                // to be taken, is left out: it does not attack its own cell).
                let mut starts = self.by_ck[ck as usize].and(w.zone);
                starts.remove(target);
                if starts.is_empty() {
                    continue;
                }
                let (empty, hit) = self.flood_all(w, starts);
                if empty.or(hit).has(target) {
                    return true;
                }
            }
        }
        false
    }

    /// The pieces of `side` that stop the flood of an enemy winding rule whose zone holds
    /// `target`: vacating one lets the flood go on, perhaps to `target`. A move of `side` that
    /// vacates none of them makes no winding capture on `target` (filling a cell only stops a
    /// flood; the enemy pieces stay where they are).
    #[inline(never)]
    pub fn wind_zone(&self, game: &Game<B>, target: usize, side: usize) -> B {
        // (Most positions have no enemy winding piece in a zone that holds `target`: answered
        // here, in a call that costs a fifth of the flooding one even when it floods nothing.
        // Inlined into the count, the test slowed the count's code more than it saved.)
        if !self.wind_threatened(game, target, side) {
            return B::default();
        }
        self.wind_zone_flooded(game, target, side)
    }

    /// The cells the winding floods of `side`'s opponents depend on: their winding pieces, and
    /// per rule the empty cells its pieces in its zone reach and the occupied cells next to
    /// those. A plain move that leaves and lands on none of them leaves every flood as it is.
    /// With whether a flood that may capture on `target` (its zone holds it) reaches a piece
    /// of `side` (that on `target` among them): then `target` is attacked, or a move of that
    /// piece may uncover a winding attack on it (`Position::wind_zone`).
    pub(crate) fn wind_floods(&self, game: &Game<B>, target: usize, side: usize) -> (B, bool) {
        let (mut cells, mut near) = (B::default(), false);
        for &s in &game.opponents[side] {
            for &ck in &game.wind_cks[s] {
                let pieces = self.by_ck[ck as usize];
                cells = cells.or(pieces);
                for w in &game.winders[ck as usize] {
                    let starts = pieces.and(w.zone);
                    if starts.is_empty() {
                        continue;
                    }
                    let (empty, hit) = self.flood_all(w, starts);
                    cells = cells.or(empty).or(hit);
                    if w.flags & crate::tables::ray::CAPTURE != 0 && w.zone.has(target) {
                        // (The royal piece on `target` is one of them.)
                        near |= hit.intersects(self.by_side[side]);
                    }
                }
            }
        }
        (cells, near)
    }

    /// Whether an opponent of `side` has a winding piece that captures in a zone holding
    /// `target`, standing in that zone: only then can a flood reach `target`.
    #[inline(always)]
    fn wind_threatened(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        game.wind_threats[side].iter().any(|&(ck, zone)| zone.has(target) && self.by_ck[ck as usize].intersects(zone))
    }

    /// [`Position::wind_threatened`] as a call, for the check test: written inline there, it
    /// changed every game's count (orthodox +0.7 instructions a leaf on the `orbis` binary).
    #[inline(never)]
    fn wind_threatened_call(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        self.wind_threatened(game, target, side)
    }

    /// [`Position::wind_zone`], flooding.
    #[inline(never)]
    fn wind_zone_flooded(&self, game: &Game<B>, target: usize, side: usize) -> B {
        let mut zone = B::default();
        for &s in &game.opponents[side] {
            for &ck in &game.wind_cks[s] {
                for w in &game.winders[ck as usize] {
                    if w.flags & crate::tables::ray::CAPTURE == 0 || !w.zone.has(target) {
                        continue;
                    }
                    // (One flood from all the kind's pieces: the starts it leaves out of its
                    // hits are enemy pieces, and only `side`'s are kept.)
                    let starts = self.by_ck[ck as usize].and(w.zone);
                    if !starts.is_empty() {
                        zone = zone.or(self.flood_all(w, starts).1);
                    }
                }
            }
        }
        zone.and(self.by_side[side])
    }

    /// Whether an opponent of `side` (a side of another team) still in the game attacks `target`.
    #[inline]
    pub fn attacked_by_enemy(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        // Two sides are two teams, and neither is ever out.
        if game.sides == 2 {
            return self.attacked_by(game, target, 1 - side);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_by(game, target, s))
    }

    /// Whether an opponent of `side` still in the game would attack `to` other than along a
    /// line once `side`'s royal piece moved there from `from`: by a leap, a winding flood as it
    /// is (the caller knows that `from` stops none), or a hop with the piece lifted off `from`
    /// and put on `to` ([`Position::hopped_by_after`]), as [`Position::safe_destination`] judges.
    #[inline(never)]
    pub(crate) fn attacked_directly_after_royal(&self, game: &Game<B>, from: usize, to: usize, side: usize) -> bool {
        game.opponents[side].iter().any(|&s| {
            !self.is_out(s) && (self.attacked_by_leaps(game, to, s) || (game.winding && self.wound_by(game, to, s)) || (game.hopping && self.hopped_by_after(game, to, s, from, to)))
        })
    }

    /// Whether an opponent of `side` still in the game could capture on `target` by a hop
    /// ([`Position::hopped_by`]).
    pub fn hopped_by_enemy(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        if game.sides == 2 {
            return self.hopped_by(game, target, 1 - side);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.hopped_by(game, target, s))
    }

    /// As [`Position::attacked_by_enemy`], leaving out attacks along lines.
    pub fn attacked_directly_by_enemy(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        if game.sides == 2 {
            return self.attacked_directly(game, target, 1 - side);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_directly(game, target, s))
    }

    /// [`Position::attacked_directly_by_enemy`] where it is asked of the lone royal piece once a
    /// position (legality's check test). The enemy pieces that could attack `target` directly
    /// (`Game::direct_reach`) are looked for first, inline with two sides and in one set for all
    /// opponents with more: most positions have none, and each side's own test would find none
    /// either. With winding rules, likewise an enemy winder in a zone that holds `target`
    /// ([`Position::wind_threatened`]); with hops the test is made unless no hop check is known
    /// (two sides, perft's last ply: [`Position::hops_known_clear`]). (The loop over
    /// opponents is repeated here rather than called: calling `attacked_directly_by_enemy`
    /// changed the code of two-sided games' counts, Webball +1.7 instructions a leaf.)
    /// `moved`: the opponent's move that led here, when known ([`Position::checked_by_move`]
    /// where the game has no hop or winding rules).
    #[inline(always)]
    pub(crate) fn checked_directly(&self, game: &Game<B>, target: usize, side: usize, moved: Option<Move>) -> bool {
        if game.sides == 2 {
            // (Most positions have no enemy piece near, nor a winder, nor a hop check known to
            // be absent: answered without the call.)
            if !((game.winding && self.wind_threatened_call(game, target, side)) || (game.hopping && !self.hops_known_clear(target)) || self.by_side[1 - side].intersects(game.direct_reach[target * 2 + 1 - side])) {
                return false;
            }
            if let Some(mv) = moved.filter(|_| !game.hopping && !game.winding) {
                return self.checked_by_move(game, target, side, mv);
            }
            return self.attacked_directly(game, target, 1 - side);
        }
        if !((game.winding && self.wind_threatened_call(game, target, side)) || game.hopping || self.any_opponent_near(game, target, side)) {
            return false;
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_directly(game, target, s))
    }

    /// Whether the royal piece of `side` on `target` is attacked directly, in a two-sided game
    /// without hop or winding rules, right after the opponent's move `mv`: a direct attack
    /// does not depend on the board, and the side to move left its royal piece unattacked by
    /// its own last move (or a position set up so, `Position::check`), so only a piece the
    /// move put or uncovered can attack it directly: on the move's cells, or the rook's
    /// destination in castling. (Asked after the test of the cells an enemy piece could attack
    /// from, which answers most positions; the soccer balls have an enemy piece there in most,
    /// and the test of every kind cost them 6 instructions a leaf.)
    #[inline(always)]
    pub(crate) fn checked_by_move(&self, game: &Game<B>, target: usize, side: usize, mv: Move) -> bool {
        let them = 1 - side;
        let mut cells = B::single(mv.from as usize).or(B::single(mv.to as usize));
        if mv.kind == MoveKind::Castle {
            cells.insert(game.castles[them][mv.aux as usize].rook_to as usize);
        }
        let checked = !self.attacked_from_among(game, B::single(target), cells.and(self.by_side[them])).is_empty();
        debug_assert_eq!(checked, self.attacked_directly(game, target, them), "a direct check comes from the move's cells");
        checked
    }

    /// Whether an opponent of `side` still in the game has a piece where a piece of its could
    /// attack `target` directly (`Game::direct_reach`). Most positions have no piece of another
    /// side where any side's could (`Game::direct_reach_any`): answered with one test, before
    /// the sides one by one.
    #[inline(never)]
    fn any_opponent_near(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        if !self.occupied.and_not(self.by_side[side]).intersects(game.direct_reach_any[target]) {
            return false;
        }
        let mut near = B::default();
        for &s in &game.opponents[side] {
            if !self.is_out(s) {
                near = near.or(self.by_side[s].and(game.direct_reach[target * game.sides + s]));
            }
        }
        !near.is_empty()
    }

    /// The cells of `targets` that an opponent of `side` still in the game attacks other than
    /// along lines (as [`Position::attacked_directly_by_enemy`] for each): the few enemy pieces
    /// that could attack one of them directly are looked up, each with all its direct attacks in
    /// one set, instead of every target's attackers kind by kind.
    #[inline(always)]
    pub fn attacked_directly_among(&self, game: &Game<B>, targets: B, side: usize) -> B {
        if game.winding || game.hopping {
            let mut hit = B::default();
            for t in targets.iter() {
                if self.attacked_directly_by_enemy(game, t, side) {
                    hit.insert(t);
                }
            }
            return hit;
        }
        self.attacked_by_leaps_among(game, targets, side)
    }

    /// [`Position::attacked_directly_among`] leaving out winding and hopping attacks: the
    /// attacks that do not depend on the board (`Game::direct_from`).
    #[inline(always)]
    pub fn attacked_by_leaps_among(&self, game: &Game<B>, targets: B, side: usize) -> B {
        let mut near = B::default();
        if game.sides == 2 {
            // (With two sides, no loop over the opponents: Minishogi -1.6 instructions a leaf,
            // Knightmate -1.3, Makruk -1.2, most boards -0.3.)
            let s = 1 - side;
            let mut reach = B::default();
            // (`CellSet::each`: the loop is small.)
            targets.each(|t| reach = reach.or(game.direct_reach[t * 2 + s]));
            near = reach.and(self.by_side[s]);
        } else {
            for &s in &game.opponents[side] {
                if self.is_out(s) {
                    continue;
                }
                let mut reach = B::default();
                for t in targets.iter() {
                    reach = reach.or(game.direct_reach[t * game.sides + s]);
                }
                near = near.or(reach.and(self.by_side[s]));
            }
        }
        self.attacked_from_among(game, targets, near)
    }

    /// The cells of `targets` that the pieces on `near` attack directly.
    #[inline(always)]
    pub(crate) fn attacked_from_among(&self, game: &Game<B>, targets: B, near: B) -> B {
        let mut hit = B::default();
        near.each(|c| hit = hit.or(game.direct_from[(self.board[c] as usize - 1) * game.cells + c]));
        hit.and(targets)
    }

    /// As [`Position::attacked_by_enemy`], only along lines, with the cells `occupied` (a
    /// subset of the board's: a piece lifted off it).
    #[inline(always)]
    pub fn attacked_along_lines_by_enemy(&self, game: &Game<B>, target: usize, side: usize, occupied: B) -> bool {
        if game.sides == 2 {
            return self.attacked_along_lines_on(game, target, 1 - side, occupied);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_along_lines_on(game, target, s, occupied))
    }

    /// Whether `side` has a royal piece attacked by an opponent still in the game.
    pub fn in_check(&self, game: &Game<B>, side: usize) -> bool {
        self.royals(game, side).iter().any(|r| self.attacked_by_enemy(game, r, side))
    }
}
