//! Legality of the generated moves (see `crate::movegen`): what a generation knows of the
//! position once ([`Legality`], [`Position::legality`]: the royal pieces, the pins and checks
//! along the lines out of a lone one, the cells that stop a check, the cells hop and winding
//! rules watch), and each move judged with it ([`Position::is_legal`], [`Position::keep_legal`])
//! or, where that cannot tell, by playing it. A royal piece's destinations are judged in
//! `crate::royal_safety`.

use crate::bits::CellSet;
use crate::game::Game;
use crate::pins::{Pins, RoyalLines};
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};

impl<B: CellSet> Position<B> {
    /// Keeps the moves from `start` on that do not leave the mover's royal pieces attacked,
    /// judged by playing each.
    pub(crate) fn keep_legal_by_playing(&mut self, game: &Game<B>, out: &mut Vec<Move>, start: usize) {
        let us = self.to_move;
        let mut i = start;
        while i < out.len() {
            if self.legal_by_playing(game, out[i], us) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// Whether `mv` leaves no royal piece of `us` attacked, judged by playing it (on the move
    /// alone, before any side goes out).
    fn legal_by_playing(&mut self, game: &Game<B>, mv: Move, us: usize) -> bool {
        let undo = self.make_move_unkeyed(game, mv);
        let ok = !self.in_check(game, us);
        self.unmake(game, &undo);
        ok
    }

    /// With the side to move in check on `royal`: the cells a piece other than the royal one must
    /// land on to stop every check (each checking piece's cell and the cells its line passes, met
    /// over all checks; empty when no one cell stops them all).
    fn check_stops(&self, game: &Game<B>, royal: usize, us: usize) -> B {
        let mut stops: Option<B> = None;
        let mut meet = |cells: B| stops = Some(stops.map_or(cells, |s| s.and(cells)));
        for &side in &game.opponents[us] {
            if self.is_out(side) {
                continue;
            }
            // (From the few pieces near the royal piece, as `attacked_by_leaps` finds them where
            // many kinds attack directly, in every game: a royal piece's cell is never past the
            // sets' capacity. Minishogi -0.4 instructions a leaf, the soccer balls -0.1.)
            let direct = self.direct_checkers(game, royal, side);
            debug_assert!(direct == self.direct_checkers_by_kind(game, royal, side), "direct checkers by piece");
            for c in direct.iter() {
                meet(B::single(c));
            }
            if !self.line_pieces[side].intersects(game.line_reach[royal]) {
                continue;
            }
            // (From the pairs where the board has them: a walk along every line of a globe's
            // royal piece cost its check 600 instructions; the soccer balls -1.2 instructions a
            // leaf, the 5x5 cube with riders -1.7, the globes -0.2.)
            let along = if game.by_pairs { self.line_check_stops_paired(game, royal, side) } else { self.line_check_stops_walked(game, royal, side) };
            debug_assert!(!game.by_pairs || along == self.line_check_stops_walked(game, royal, side), "check stops from the pairs");
            if let Some(cells) = along {
                meet(cells);
            }
        }
        stops.unwrap_or_default()
    }

    /// The pieces of `side` that attack `royal` directly, from its pieces near it
    /// (`Game::direct_reach`, each piece's `Game::direct_from`).
    #[inline(always)]
    fn direct_checkers(&self, game: &Game<B>, royal: usize, side: usize) -> B {
        let mut checkers = B::default();
        for c in self.by_side[side].and(game.direct_reach[royal * game.sides + side]).iter() {
            if game.direct_from[(self.board[c] as usize - 1) * game.cells + c].has(royal) {
                checkers.insert(c);
            }
        }
        checkers
    }

    /// [`Position::direct_checkers`] kind by kind (`Game::direct`), which debug builds hold it to.
    fn direct_checkers_by_kind(&self, game: &Game<B>, royal: usize, side: usize) -> B {
        let di = royal * game.sides + side;
        let mut checkers = B::default();
        for &(ck, set) in &game.direct[game.direct_index[di] as usize..game.direct_index[di + 1] as usize] {
            checkers = checkers.or(self.by_ck[ck as usize].and(set));
        }
        checkers
    }

    /// The cells that stop every check of `side`'s line pieces on `royal` (each checking piece's
    /// cell and those its line passes, met), or `None` when none checks: the lines walked.
    #[inline(always)]
    fn line_check_stops_walked(&self, game: &Game<B>, royal: usize, side: usize) -> Option<B> {
        let mut stops: Option<B> = None;
        let ours = game.side_cks[side];
        let sliders = self.line_pieces[side];
        for line in &game.lines[game.line_index[royal] as usize..game.line_index[royal + 1] as usize] {
            if !line.set.intersects(sliders) {
                continue;
            }
            if let Some((b, run)) = game.first_occupied(line.segments, self.occupied) {
                if ((game.kinds_on(line, run, b) & ours) >> (self.board[b] - 1)) & 1 != 0 {
                    let (mut line_stops, _) = game.slide(line.segments, self.occupied);
                    line_stops.insert(b);
                    stops = Some(stops.map_or(line_stops, |s| s.and(line_stops)));
                }
            }
        }
        stops
    }

    /// [`Position::line_check_stops_walked`] from the pairs (`Game::line_pairs`, boards of up to
    /// two words), as `royal_pairs` finds the checks: a line piece with nothing between checks
    /// along that way, stopped on the cells between and its own.
    #[inline(always)]
    fn line_check_stops_paired(&self, game: &Game<B>, royal: usize, side: usize) -> Option<B> {
        let mut stops: Option<B> = None;
        for a in self.line_pieces[side].and(game.line_reach[royal]).iter() {
            let ck = self.board[a] as usize - 1;
            for p in game.line_pairs_of(royal, a) {
                if (p.kinds >> ck) & 1 != 0 && !p.between.intersects(self.occupied) {
                    let mut line_stops = p.between;
                    line_stops.insert(a);
                    stops = Some(stops.map_or(line_stops, |s| s.and(line_stops)));
                }
            }
        }
        stops
    }

    /// What legality needs to know of the position, computed once per generation into `l` (a
    /// fresh [`Legality::new`]); `false` when the side to move has no royal piece (every
    /// pseudo-legal move is legal). The lines out of a lone royal piece are taken from `kept` (the
    /// parent's and the move made there) where they hold ([`Position::royal_lines_kept`]); whether
    /// royal pieces face each other from `facing` when known; `CALL` as there; `moved`, the
    /// opponent's move that led here in perft's last ply, where it tells the direct checks
    /// ([`Position::checked_by_move`]); `KEPT`: in the count with kept lines and counts, where
    /// the game has no stacks (`Position::count_moves`).
    /// (Written in place and inlined: it is large, and on wide boards moving it cost a `memcpy`
    /// call per position.)
    #[inline(always)]
    pub(crate) fn legality<const CALL: bool, const KEPT: bool>(&mut self, game: &Game<B>, l: &mut Legality<B>, kept: Option<(&RoyalLines<'_, B>, Move)>, facing: Option<bool>, moved: Option<Move>) -> bool {
        let us = self.to_move;
        let royals = self.royals(game, us);
        if royals.is_empty() {
            return false;
        }
        // With one royal piece, a plain move of it is legal iff its destination is not attacked
        // once it has moved there: no need to play it.
        // (Whether there is exactly one, without counting every word of a wide set.)
        let lone_royal = {
            let mut rest = royals;
            rest.pop().filter(|_| rest.is_empty())
        };
        // One walk along the lines of a lone royal piece finds its pins and its checks along
        // lines.
        let in_check = match lone_royal {
            Some(k) => self.royal_lines_kept::<CALL>(game, k, &mut l.pins, kept) || self.checked_directly(game, k, us, moved),
            _ => royals.iter().any(|r| self.attacked_by_enemy(game, r, us)),
        };
        // In check with one royal piece, a plain move of an unpinned piece is legal iff it stops
        // every check; with several royal pieces every move is played.
        // Winding paths are not in the attack tables, and a piece moved into one may stop it: in
        // check with them every move is played. Hops are not either, but a move that changes no
        // cell of the royal piece's hop zone (watched, below) leaves every hop check as it is: in
        // a hop check the unwatched moves stop nothing, out of one they stop what the tables say.
        let stops = lone_royal.filter(|_| in_check && !game.winding).map(|r| {
            let hop_check = game.hopping && game.opponents[us].iter().any(|&s| !self.is_out(s) && self.hopped_by_or_known(game, r, s));
            if hop_check {
                B::default()
            } else {
                self.check_stops(game, r, us)
            }
        });
        // With hops or winding rules, the moves that touch the cells they watch are played, the
        // others judged by pins (and stops); in check with winding rules, every move is played
        // (no stops are known).
        let pins_known = !(in_check && stops.is_none());
        if pins_known && lone_royal.is_none() {
            self.pins(game, royals, &mut l.pins);
        }
        // A move off a stack leaves its cell occupied, so it uncovers no line: unless the top
        // piece is royal, it is judged as any unpinned move, even when the hidden piece is royal
        // (that piece stays on its cell, under the same lines). With hops, whose attacks may
        // depend on the kind attacked, uncovering a royal piece is played.
        let mut suspect_royals = royals;
        if !KEPT && game.stacks && !game.hopping {
            for c in royals.and(self.stacked).iter() {
                if !game.royal[self.board[c] as usize - 1] {
                    suspect_royals.remove(c);
                }
            }
        }
        let suspect = pins_known.then(|| l.pins.pinned.or(suspect_royals));
        let facing = game.passing.as_ref().is_some_and(|p| p.any_facing) && facing.unwrap_or_else(|| self.royals_face(game));
        // (When every move is played, there is nothing to watch.)
        let mut watched = B::default();
        if (game.hopping || game.winding) && pins_known {
            for r in royals.iter() {
                if game.hopping {
                    watched = watched.or(self.watch_hops(game, r, us));
                }
                if game.winding {
                    watched = watched.or(self.wind_zone(game, r, us));
                }
            }
        }
        l.royals = royals;
        l.in_check = in_check;
        l.lone_royal = lone_royal;
        l.stops = stops;
        l.pins_known = pins_known;
        l.suspect = suspect;
        l.facing = facing;
        l.watched = watched;
        true
    }

    /// Whether the pseudo-legal `mv` is legal, as `l` (this position's) judges it.
    pub(crate) fn is_legal(&mut self, game: &Game<B>, l: &Legality<B>, mv: Move) -> bool {
        let us = self.to_move;
        if l.facing {
            if game.tables.rules.royal_path_unattacked && self.royal_path_refuses(game, mv, us) {
                return false;
            }
            // Playing the move records whether the royal pieces still face each other
            // (`passes`); the pass is added apart (`push_pass`).
            let undo = self.make_move_unkeyed(game, mv);
            let ok = !self.in_check(game, us) && self.passes != crate::passing::ENDED_FACING;
            self.unmake(game, &undo);
            return ok;
        }
        let from = mv.from as usize;
        let watched = (game.hopping || game.winding) && (l.watched.has(from) || l.watched.has(mv.to as usize));
        let test = match l.suspect {
            None => true,
            Some(s) => watched || s.has(from) || !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget),
        };
        if !test {
            l.stops.is_none_or(|s| s.has(mv.to as usize))
        } else if game.tables.rules.royal_path_unattacked && self.royal_path_refuses(game, mv, us) {
            // (A royal piece that moves: on top, stacked or not.)
            false
        } else if game.stacks
            && (self.stacked.has(from)
                || mv.kind == MoveKind::Crown
                || (mv.kind == MoveKind::Castle && self.stacked.has(game.castles[us][mv.aux as usize].rook_from as usize)))
        {
            // The cell stays occupied when its top piece leaves (the hidden one is
            // uncovered, and may be royal): judged by playing the move (castling too, when
            // the king's or the rook's cell is a stack).
            self.legal_by_playing(game, mv, us)
        } else if mv.kind == MoveKind::Stationary {
            !l.in_check
        } else if mv.kind == MoveKind::Castle && l.lone_royal == Some(from) {
            self.castle_safe(game, mv.aux as usize, us)
        } else if l.lone_royal == Some(from) && mv.kind == MoveKind::Normal && mv.promotion == NO_PROMOTION {
            self.safe_destination(game, from, mv.to as usize, us)
        } else if let Some(allowed) =
            self.pin_lines(game, l, from).filter(|_| !watched && matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget))
        {
            // A pinned piece stays legal exactly on its pin lines (and, in check, where it
            // stops the check).
            allowed.has(mv.to as usize) && l.stops.is_none_or(|s| s.has(mv.to as usize))
        } else if let Some(ok) = if watched { self.legal_past_hops(game, l, mv) } else { None } {
            ok
        } else {
            self.legal_by_playing(game, mv, us)
        }
    }

    /// Whether the watched move `mv` is legal, judged without playing it where that is simple:
    /// a plain move that does not promote (or one that sets en-passant cells, which changes the
    /// board as a plain one does), where [`Position::past_hops_judged`] allows. `None`: play it.
    fn legal_past_hops(&mut self, game: &Game<B>, l: &Legality<B>, mv: Move) -> Option<bool> {
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) || mv.promotion != NO_PROMOTION {
            return None;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let (royal, allowed) = self.past_hops_judged(game, l, from)?;
        if allowed.is_some_and(|a| !a.has(to)) {
            return Some(false);
        }
        self.find_live_ways_once(game, royal, self.to_move);
        Some(!self.hopped_checked(game, royal, from, to))
    }

    /// When the live ways judge the plain moves (not promoting) of the piece on `from`: out of
    /// check, in a game with hops (no winding rules, no stacks, no facing royal pieces), for a
    /// non-royal piece, with the pins known and one royal piece (the ways are found for it), such
    /// a move is legal iff it keeps to the piece's pin lines (the lines and direct attacks are as
    /// for any move) and no royal piece of the side to move can be hopped once it is made
    /// (tested on the cells alone, [`Position::live_ways_hit`]). The royal piece's cell and
    /// where the piece may go for its pins (`None` if it is not pinned); `None`: play the
    /// moves. (In check too, judged by the check stops where no hop checks: 45 moves of the hop
    /// cube's 3.2 million leaves, and the other games' counts compiled dearer, the
    /// grasshopper's +1.0 instructions a leaf.)
    #[inline(always)]
    fn past_hops_judged(&self, game: &Game<B>, l: &Legality<B>, from: usize) -> Option<(usize, Option<B>)> {
        let royal = l.lone_royal?;
        if l.facing || l.in_check || game.winding || game.stacks || game.tables.rules.royal_path_unattacked || l.royals.has(from) {
            return None;
        }
        let pins = l.pins()?;
        Some((royal, if pins.pinned.has(from) { Some(pins.allowed(from)?) } else { None }))
    }

    /// [`Position::live_ways_hit`], held to a walk of every opponent's rules in debug builds.
    #[inline(always)]
    fn hopped_checked(&self, game: &Game<B>, royal: usize, from: usize, to: usize) -> bool {
        let hopped = self.live_ways_hit(game, from, to);
        debug_assert_eq!(hopped, game.opponents[self.to_move].iter().any(|&s| !self.is_out(s) && self.hopped_by_after(game, royal, s, from, to)), "the live ways answer as walking them would");
        hopped
    }

    /// The cells of `onto` (watched cells, or the moves of a piece on one) that the non-royal
    /// piece on `from` may go to by a plain move that does not promote, judged as
    /// [`Position::legal_past_hops`] judges such moves one by one (`is_legal`), and the cells of
    /// `onto` where the move promotes (with `promotion`, the piece's): `is_legal` plays those, as
    /// the promoted piece may be a screen of a kind a hop rule may not jump, where the live ways
    /// see the piece that moved. `None` where it would play them all.
    #[inline(never)]
    pub(crate) fn watched_legal(&mut self, game: &Game<B>, l: &Legality<B>, from: usize, onto: B, promotion: Option<&crate::game::Promotion<B>>) -> Option<(B, B)> {
        let (royal, allowed) = self.past_hops_judged(game, l, from)?;
        let promoting = promotion.map_or(B::default(), |p| if p.from.has(from) { onto } else { onto.and(p.zone) });
        self.find_live_ways_once(game, royal, self.to_move);
        let mut legal = B::default();
        let onto = onto.and_not(promoting);
        for to in allowed.map_or(onto, |a| onto.and(a)).iter() {
            if !self.hopped_checked(game, royal, from, to) {
                legal.insert(to);
            }
        }
        Some((legal, promoting))
    }

    /// The cells the pinned piece on `from` may go to by a plain move (every pin line it stands
    /// on), when that decides its legality: not for a royal piece, nor for one on a stack (a
    /// stack's top piece is never pinned: its cell stays occupied).
    pub(crate) fn pin_lines(&self, game: &Game<B>, l: &Legality<B>, from: usize) -> Option<B> {
        if l.royals.has(from) || (game.stacks && self.stacked.has(from)) {
            return None;
        }
        l.pins()?.allowed(from)
    }

    /// Keeps the moves of `out` from `start` on that are legal.
    pub(crate) fn keep_legal(&mut self, game: &Game<B>, l: &Legality<B>, out: &mut Vec<Move>, start: usize) {
        let mut i = start;
        while i < out.len() {
            if self.is_legal(game, l, out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// [`Position::keep_legal`] for `legal_moves`' list: the plain moves of the pieces judged by
    /// set (not suspect, neither on nor onto a watched cell) are kept where they stop the
    /// check, if any, as `is_legal` would answer, without asking it (most moves: perft's lists
    /// above the last ply cost orthodox 2.0 instructions a leaf less, the soccer balls 3.3,
    /// Crowned Chess 4.2, every board less or the same).
    pub(crate) fn keep_legal_listed(&mut self, game: &Game<B>, l: &Legality<B>, out: &mut Vec<Move>, start: usize) {
        let Some(suspect) = l.suspect.filter(|_| !l.facing) else {
            return self.keep_legal(game, l, out, start);
        };
        let apart = suspect.or(l.watched);
        let mut i = start;
        while i < out.len() {
            let mv = out[i];
            let ok = if !apart.has(mv.from as usize) && !l.watched.has(mv.to as usize) && matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) {
                l.stops.is_none_or(|s| s.has(mv.to as usize))
            } else {
                self.is_legal(game, l, mv)
            };
            if ok {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// With royal pieces facing each other, drops the moves of `out` from `start` on that
    /// cannot end the facing: plain moves and drops that neither leave nor land on a facing
    /// pair's cells or a cell between them (`Position::facing_cells`). The others are judged by
    /// playing them ([`Position::is_legal`]).
    #[inline(never)]
    pub(crate) fn keep_facing_enders(&self, game: &Game<B>, out: &mut Vec<Move>, start: usize) {
        let Some(cells) = self.facing_cells::<true>(game) else { return };
        let mut i = start;
        while i < out.len() {
            let mv = out[i];
            if matches!(mv.kind, MoveKind::Normal | MoveKind::Drop) && !cells.has(mv.from as usize) && !cells.has(mv.to as usize) {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// What legality needs to know of one position (see [`Position::legality`]).
pub(crate) struct Legality<B> {
    pub(crate) royals: B,
    pub(crate) in_check: bool,
    pub(crate) lone_royal: Option<usize>,
    /// In check with one royal piece: the cells that stop every check.
    pub(crate) stops: Option<B>,
    /// The pins; they decide legality only where `suspect` is known (not in check with no
    /// stops, when every move is played).
    pub(crate) pins: Pins<B>,
    /// (Whether `suspect` is known, kept apart: deriving it from `suspect` made orthodox perft
    /// 1.4% dearer by instructions.)
    pub(crate) pins_known: bool,
    /// The pieces whose moves are judged one by one (pinned pieces, royal pieces, and stacks a
    /// royal piece tops); `None`: all.
    pub(crate) suspect: Option<B>,
    /// Royal pieces face each other (`facing`): every move but a pass must end it.
    pub(crate) facing: bool,
    /// The cells a move from or to is played to be judged: the royal pieces' hop zones
    /// ([`Position::hop_zone`]) and the pieces that stop a winding flood towards them
    /// ([`Position::wind_zone`]). Empty without hops and winding rules.
    pub(crate) watched: B,
}

impl<B: CellSet> Legality<B> {
    pub(crate) fn new() -> Legality<B> {
        Legality {
            royals: B::default(),
            in_check: false,
            lone_royal: None,
            stops: None,
            pins: Pins::new(),
            pins_known: false,
            suspect: None,
            facing: false,
            watched: B::default(),
        }
    }

    /// The pins, if they decide legality (see `pins`).
    pub(crate) fn pins(&self) -> Option<&Pins<B>> {
        self.pins_known.then_some(&self.pins)
    }
}


