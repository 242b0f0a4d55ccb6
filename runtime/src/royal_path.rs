//! Royal paths (`royal-path unattacked`): a royal piece may not pass an attacked cell on its
//! way. Each way is judged on its own, following exactly what generation follows (rays, hop
//! lines, winding floods), with the piece lifted off its cell; the destination itself is judged
//! by legality (`movegen`).

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position};
use crate::tables::{hop, ray};

/// The moves of a royal piece whose way passes only unattacked cells (`royal-path unattacked`,
/// [`Position::royal_path_reach`]), by kind: plain moves, moves that set en-passant cells,
/// captures en passant (their destinations), and whether a stationary move; with the empty
/// cells whose attack was tested on the way as a destination's is (the piece lifted; none with
/// hops or winding rules; every wanted cell when all attacked cells were found at once,
/// `Position::attack_map`) and those of them found attacked. `normal` may hold the piece's own
/// cell (a slide back to it, `PieceMoves::homing`), which no plain move asks about.
pub(crate) struct RoyalReach<B> {
    pub normal: B,
    pub ep_target: B,
    pub en_passant: B,
    pub stationary: bool,
    pub known: B,
    pub hit: B,
}

impl<B: CellSet> Position<B> {
    /// With `royal-path unattacked`: the moves of the royal piece on `from` whose way passes only
    /// cells no opponent attacks, judged with it lifted off `from` (unless it tops a stack: then
    /// the piece beneath keeps the cell occupied); whether a destination is itself safe is left
    /// to [`Position::safe_destinations`]. Each ray, hop line and winding rule is judged on its
    /// own and only where generation would make a move by it (`initial` rays while the piece is
    /// unmoved, the quiet moves of `en-passant-target` rays as moves of their own). Only the
    /// destinations in `wanted` are asked for, so a ray is followed as far as its last cell in
    /// `wanted`, unless `stationary` asks whether the piece can go round a closed line (every
    /// cell passed). Each cell's attack is tested at most once.
    pub(crate) fn royal_path_reach(&mut self, game: &Game<B>, from: usize, us: usize, wanted: B, stationary: bool) -> RoyalReach<B> {
        let code = self.board[from];
        let ck = code as usize - 1;
        let lift = !(game.stacks && self.stacked.has(from));
        if lift {
            self.board[from] = 0;
            self.occupied.remove(from);
        } else {
            // The piece beneath, uncovered (a hop's screen may depend on its kind).
            self.board[from] = self.under[from];
        }
        let bulk = !game.hopping && !game.winding;
        let m = &game.piece_moves[ck * game.cells + from];
        // Every attacked cell at once where the enemy's line pieces allow it (`None` until asked).
        let mut map = None;
        if bulk && !stationary && m.plain_slides && m.specials.0 == m.specials.1 && game.tables.transit.is_empty() {
            // A rider's way stops at the first cell that is occupied or attacked: its slides
            // with those cells as blockers (every attacked cell found at once), and its leaps.
            let found = self.attack_map(game, us, self.occupied);
            map = Some(found);
            if let Some(attacked) = found {
                let occupied = self.occupied;
                let normal = game.slide_reach(m, occupied.or(attacked)).or(m.leap_quiet.and_not(occupied)).or(m.leap_capture.and(occupied));
                if lift {
                    self.occupied.insert(from);
                }
                self.board[from] = code;
                let none = B::default();
                return RoyalReach { normal, ep_target: none, en_passant: none, stationary: false, known: wanted, hit: attacked.and(wanted) };
            }
        }
        let (mut known, mut hit) = (B::default(), B::default());
        // Without hops and winding rules the direct attacks on the wanted cells are found at
        // once, at the first test; only the lines are then followed cell by cell.
        let mut direct = None;
        let any_transit = !game.tables.transit.is_empty();
        let mut attacked = |p: &Self, c: usize| {
            if any_transit && game.is_transit(c) {
                // A transit cell is asked afresh: the attack map leaves it out (it is built
                // from the slides' runs, which leave transit cells out), and no set of a
                // `crate::bits::Standing64` board holds one.
                return p.attacked_by_enemy(game, c, us);
            }
            if !known.has(c) {
                known.insert(c);
                let m = if bulk { *map.get_or_insert_with(|| p.attack_map(game, us, p.occupied)) } else { None };
                let a = if let Some(m) = m {
                    m.has(c)
                } else if bulk && wanted.has(c) {
                    direct.get_or_insert_with(|| p.attacked_directly_among(game, wanted, us)).has(c)
                        || p.attacked_along_lines_by_enemy(game, c, us, p.occupied)
                } else {
                    p.attacked_by_enemy(game, c, us)
                };
                if a {
                    hit.insert(c);
                }
            }
            hit.has(c)
        };
        let mut reach = RoyalReach {
            normal: B::default(),
            ep_target: B::default(),
            en_passant: B::default(),
            stationary: false,
            known: B::default(),
            hit: B::default(),
        };
        for (ri, r) in game.rays_indexed(ck, from) {
            let f = r.flags;
            // Only the rays generation follows here.
            if f & ray::INITIAL != 0 && !self.virgin.has(from) {
                continue;
            }
            if r.passes && r.must_empty.intersects(self.occupied) {
                continue;
            }
            if f & ray::PASS_UNATTACKED != 0 {
                // Generation's own test of the cells, with the piece on its cell (rare).
                let lifted = (self.board[from], self.occupied);
                (self.board[from], self.occupied) = (code, self.occupied.or(B::single(from)));
                let refused = game.passed(ri).any(|c| self.attacked_by_enemy(game, c, us));
                (self.board[from], self.occupied) = lifted;
                if refused {
                    continue;
                }
            }
            let cells = game.cells_of(r.cells);
            if f & ray::SLIDE != 0 {
                // A stationary move passes every cell of its closed line; otherwise, past its
                // last wanted cell a ray has nothing to tell.
                let whole = stationary && f & ray::RETURNS != 0 && f & ray::QUIET != 0;
                let last = if whole {
                    cells.len() - 1
                } else {
                    let Some(last) = cells.iter().rposition(|&c| wanted.has(c as usize)) else { continue };
                    last
                };
                if game.passed(ri).any(|c| attacked(self, c)) {
                    continue;
                }
                let mut round = true;
                for (i, &c) in cells[..=last].iter().enumerate() {
                    let c = c as usize;
                    let occupied = self.occupied.has(c);
                    if f & if occupied { ray::CAPTURE } else { ray::QUIET } != 0 {
                        reach.normal.insert(c);
                    }
                    // Going on means passing `c`: empty and unattacked.
                    if occupied || (i < last || whole) && attacked(self, c) {
                        round = false;
                        break;
                    }
                }
                reach.stationary |= whole && round;
            } else {
                let c = cells[0] as usize;
                if !wanted.has(c) {
                    continue;
                }
                if r.passes && game.passed(ri).any(|c| attacked(self, c)) {
                    continue;
                }
                if self.occupied.has(c) {
                    if f & ray::CAPTURE != 0 {
                        reach.normal.insert(c);
                    }
                } else {
                    if f & ray::QUIET != 0 {
                        if f & ray::EP_TARGET != 0 {
                            reach.ep_target.insert(c);
                        } else {
                            reach.normal.insert(c);
                        }
                    }
                    if f & ray::EP_CAPTURE != 0 {
                        reach.en_passant.insert(c);
                    }
                }
            }
        }
        if game.hopping {
            // A hop passes the empty cells of its line before its destination (it jumps its
            // screen); a slide with `takes` every cell before it.
            for h in &game.hoppers[ck] {
                'lines: for line in &h.lines[from] {
                    let mut start = 0;
                    if h.flags & hop::SCREEN != 0 {
                        let Some(s) = line.iter().position(|&c| self.occupied.has(c as usize)) else { continue };
                        if h.over >> ((self.board[line[s] as usize] as usize - 1) % game.kinds) & 1 == 0 {
                            continue;
                        }
                        for &c in &line[..s] {
                            if attacked(self, c as usize) {
                                continue 'lines;
                            }
                        }
                        start = s + 1;
                    }
                    let end = if h.flags & hop::NEXT != 0 { line.len().min(start + 1) } else { line.len() };
                    for &c in &line[start..end] {
                        let c = c as usize;
                        if self.occupied.has(c) {
                            let kind = (self.board[c] as usize - 1) % game.kinds;
                            if h.flags & hop::CAPTURE != 0 && h.takes >> kind & 1 != 0 && h.onto.has(c) {
                                reach.normal.insert(c);
                            }
                            break;
                        }
                        if h.flags & hop::QUIET != 0 && h.onto.has(c) {
                            reach.normal.insert(c);
                        }
                        if attacked(self, c) {
                            break;
                        }
                    }
                }
            }
        }
        if game.winding {
            // A winding move's way goes through empty, unattacked cells of its zone: the flood
            // goes on only from those.
            for w in game.winders[ck].iter().filter(|w| w.zone.has(from)) {
                let (empty, taken) = self.flood_through(w, B::single(from), |cells| {
                    let mut unattacked = B::default();
                    for c in cells.iter() {
                        if !attacked(self, c) {
                            unattacked.insert(c);
                        }
                    }
                    unattacked
                });
                if w.flags & ray::QUIET != 0 {
                    reach.normal = reach.normal.or(empty);
                }
                if w.flags & ray::CAPTURE != 0 {
                    reach.normal = reach.normal.or(taken);
                }
            }
        }
        if lift {
            self.occupied.insert(from);
        }
        self.board[from] = code;
        // (With hops and winding rules a destination is judged with the piece put there.)
        if bulk {
            (reach.known, reach.hit) = (known.and_not(self.occupied), hit);
        }
        reach
    }

    /// With `royal-path unattacked`: whether `mv`, a move of the side to move's piece on its
    /// `from`, is a royal piece's move whose way passes an attacked cell
    /// ([`Position::royal_path_reach`]). Castling, crowning, drops and passes have no way.
    pub(crate) fn royal_path_refuses(&mut self, game: &Game<B>, mv: Move, us: usize) -> bool {
        let from = mv.from as usize;
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget | MoveKind::EnPassant | MoveKind::Stationary)
            || !game.royal[self.board[from] as usize - 1]
        {
            return false;
        }
        let to = mv.to as usize;
        let reach = self.royal_path_reach(game, from, us, B::single(to), mv.kind == MoveKind::Stationary);
        !match mv.kind {
            MoveKind::Normal => reach.normal.has(to),
            MoveKind::EnPassantTarget => reach.ep_target.has(to),
            MoveKind::EnPassant => reach.en_passant.has(to),
            _ => reach.stationary,
        }
    }
}
