//! Perft's last ply without playing the move, where the move changes the count in ways known
//! in advance. Above the last ply, the children are the positions after each move of the side
//! to move; the next side counts its moves in each. Where that side has one royal piece, a
//! leaper (its special rays single steps that may pass cells, which must then be unattacked:
//! Boholy's king crossing a pole, whose attacks are watched as a destination's), and every
//! other piece of it has its count kept (`crate::kept_counts`), the royal
//! piece's moves are judged once here, on the attacks of this position, as are its pinned
//! pieces' (a move that touches neither the lines that pin nor a cell they look at leaves
//! them pinned alike; one that does is looked at again). A move that captures
//! nothing, promotes nothing, touches no cell of the royal piece's leaps, no castling path
//! still open to a move and no cell its side wins by reaching, attacks neither the royal
//! piece nor a destination directly from either of its cells (a piece that attacks along no
//! line landing where it attacks destinations directly only takes the safe ones off:
//! `UntouchedChildren::count_attacking`), after which no piece may
//! capture en passant, and that changes no line's answer (the royal piece's lines, for check
//! and pins; the lines to an attacked destination, but only where one move may take all its
//! attackers away: none with a direct attacker, whose move is made, or three along lines; the
//! lines to a safe one, where a line piece may attack) leaves the royal piece with the same
//! moves. On the royal piece's lines and
//! those to a safe destination, a piece that attacks along no line changes the answer only
//! by moving off a cell where it uncovers a check, pin or attack, and not to a cell where it
//! blocks again: landing, it only blocks. Such a child's count is the royal piece's, the
//! kept counts' (those the move touched found again with its two cells changed, and a piece
//! it leaves pinned counted pinned: `KeptCounts::after`; a piece that attacks along no line
//! landing between a pinned piece and its pinner unpins it, as does the pinner moving off
//! the line where no other line piece pins it again, or moving along it pins it to other
//! cells (`UntouchedChildren::count_pinner`), and a pinned piece that looks at a
//! cell of the move is counted again pinned: `KeptCounts::after_pins`), and the drops
//! (those here, and onto the cell the move left, less onto the cell it took), found without
//! making the move
//! (`UntouchedChildren::holds`). A capture of a piece of the next side whose count is kept
//! holds where a move that captured nothing would (the cell stays occupied): less the victim's
//! count, with those of the pieces that look at its cell found again
//! (`UntouchedChildren::count_capture`; not with hops, winding rules, extinction goals or
//! drops for the next side, nor where the capture may leave it bare). With stacks, the royal
//! piece may also be hidden beneath a piece of its side (it has no move), where no line piece
//! of the other side stands on its lines; a move off a stack leaves its cell occupied by the
//! piece beneath, so only the cell it lands on changes the kept counts, where that piece
//! neither checks nor pins along the royal piece's lines nor attacks a watched cell
//! (`UntouchedChildren::count_off_stack`, `KeptCounts::after_landing`). With winding rules,
//! also only where the other side's floods reach neither the royal piece nor a piece of its
//! side, and the move leaves and lands off every cell they depend on (their attacks are then
//! the same); with hops, only where the royal piece has no hop zone, and the move leaves and
//! lands off the cells the hop ways to it and to its destinations read (but ways past too
//! many pieces for two moves to open), landing no piece with hop rules where such a way starts
//! (destinations judged for hops with the royal piece put there). Only in games whose counts
//! hold nothing else ([`counts_only`]); with a bare-king rule, while neither side is bare;
//! with more than two sides, while no third side checks the next; not while the next side
//! holds a kind whose drop may not mate. Debug builds count every such child the long way too
//! and compare (perft at depth 4 on every example and polygon board, at depth 5 on 25 and the
//! orthodox suite, the four-player cube's playouts, and `tests/runtime/line_attacks.rs`'s random
//! playouts on every board, which found the pinner's move wrong where perft from the start
//! did not).

use crate::bits::CellSet;
use crate::game::{Game, PieceMoves};
use crate::kept_counts::KeptCounts;
use crate::kept_destinations::KeptDestinations;
use crate::pins::{RoyalLines, MAX_PINS};
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::tables::{ray, NO_CELL};

/// Whether a count in `game` holds nothing but the pieces' moves, castling and drops
/// (`Game::untouched`): no passes, and no stacks with hops or winding rules. (Goals hold in a
/// child as in its parent, not ended, after a move that captures nothing, checks nothing and
/// lands on no cell the side wins by reaching: `UntouchedChildren::new`.)
pub(crate) fn counts_only<B: CellSet>(game: &Game<B>) -> bool {
    !(game.stacks && (game.hopping || game.winding)) && game.passing.is_none()
}

/// The most pieces whose move away may uncover an attack that a position lists with the cells
/// where they would block again (`UntouchedChildren::uncovering`); past them, a piece is frozen.
const MAX_UNCOVERING: usize = 4;

/// The most cells the royal piece's special rays pass that a position watches
/// (`UntouchedChildren::new`): Boholy's king passes one pole.
const MAX_PASSED: usize = 4;

/// No piece pinned (`UntouchedChildren::uncovering`).
const NO_PIN: u16 = u16::MAX;

/// The most kinds the next side may hold in its hand for its children to be counted without
/// their move (`UntouchedChildren::drops`).
const MAX_DROP_KINDS: usize = 8;

/// What every child of one position shares, for [`UntouchedChildren::holds`].
pub(crate) struct UntouchedChildren<B> {
    /// The count of every child whose move holds, but for its kept counts
    /// (`KeptCounts::after`) and its drops' two cells: its royal piece's moves and its drops
    /// here.
    rest: u64,
    /// The kept counts of the pieces pinned here, counted pinned in `rest` (a child's kept
    /// counts' sum holds them: the move touches nothing they look at).
    unpinned: u64,
    /// Each pinned piece's cell, the cells it is pinned to and its count pinned (a move that
    /// pins one again along another line is made); the cells the walks along the lines that
    /// pin read (`RoyalLines::pins_read`: a move there may unpin).
    pins: [(u16, B, u16); MAX_PINS],
    pins_len: usize,
    pin_read: B,
    /// The cells frozen for the pins alone (those read and the cells the pinned pieces look
    /// at) or for the goals alone (the cells the side to move wins by reaching with some
    /// kind): a move that touches one is looked at again (`UntouchedChildren::count_again`).
    again: B,
    /// Per kind in the next side's hand: the cells it may be dropped on, whatever stands there
    /// (`one-per-file` applied; a move of the other side changes neither): a child's drops are
    /// those here, plus those onto the cell the move left, less those onto the cell it took.
    drops: [B; MAX_DROP_KINDS],
    drop_kinds: usize,
    /// The next side.
    side: usize,
    /// The next side's royal piece's destinations; with its cell, the cells the move's piece
    /// must not attack directly from where it lands.
    destinations: B,
    watched: B,
    /// The destinations found safe: those a piece landing where it attacks them directly takes
    /// away (`UntouchedChildren::count_attacking`).
    safe_cells: B,
    /// The cells where a piece of the side to move may land to attack a destination directly
    /// (`Game::direct_reach`): the moves there that do not hold are tried by
    /// `UntouchedChildren::count_attacking` (empty where it does not apply).
    attack_landings: B,
    /// The cells no move of a piece that attacks along no line may leave or land on: the royal
    /// piece's leaps' cells, the cells where a move may leave an attacked destination
    /// unattacked (`unattacking`: a lone line attacker's cell and those between, two line
    /// attackers' cells), and castling paths whose rights hold,
    /// blocked only by the moving side's pieces (a move off one may open it). Such a piece
    /// landing on a safe destination's line blocks it.
    frozen: B,
    /// The pieces whose move away would uncover an attack on a safe destination or a check or
    /// pin ([`RoyalLines::uncovering`]), with the cells of the line where they would block it
    /// again (those between the royal piece or destination and the attacker): a piece that
    /// attacks along no line may move there (a pawn's step along the file it blocks); and
    /// the piece a move elsewhere leaves pinned to those cells, or `NO_PIN` (its count is
    /// found again pinned, `KeptCounts::after_pinned`).
    uncovering: [(u16, B, u16, u16); MAX_UNCOVERING],
    uncovering_len: usize,
    uncovering_cells: B,
    /// The cells no move of a line piece may leave or land on: `frozen` and every cell the
    /// lines to the destinations read (out to their first piece), where it may attack.
    frozen_line: B,
    /// `frozen` and `frozen_line` without the cells that are theirs only for the pins or the
    /// goals (`again`; `frozen_line` keeps `pin_read`: a line piece landing there may pin
    /// again).
    frozen_again: B,
    frozen_line_again: B,
    /// With no kept royal lines (no enemy line piece on the royal piece's lines): the cells of
    /// those lines, where a line piece landing may check or pin. (Only out to their second
    /// piece: no board cheaper, Shatranj 0.3 instructions a leaf dearer.)
    lines: B,
    /// With hops, the cells where a way of the other side's hop rules to the royal piece or
    /// one of its destinations starts (one that passes few pieces: `Position::hop_ways_read`):
    /// a piece with hop rules landing there may attack along it. (The pieces on such starts
    /// are frozen, as are the cells the ways pass.)
    hop_starts: B,
    /// Whether a capture of a piece of the next side may hold ([`UntouchedChildren::count_capture`]):
    /// not with hops or winding rules, extinction goals or drops for the next side, nor where
    /// a capture may leave it bare.
    captures: bool,
    /// The cells a line piece that pins may not leave for its pin alone to change
    /// ([`UntouchedChildren::count_pinner`]): `frozen_line` and `frozen` without the cells
    /// frozen for the pins or the goals, and `uncovering_cells`.
    frozen_pinner: B,
    /// With stacks: the stacks of the side to move whose hidden piece, uncovered, would check
    /// the royal piece or pin a piece along its lines (`UntouchedChildren::count_off_stack`).
    uncover: B,
}

/// The cells the lines to `target` read out to their first piece under `occupied`, where a
/// move may change whether it is `attacked` along them: into `frozen` if it is, else into
/// `frozen_line` (a piece that attacks along no line landing there only blocks), with each piece
/// of `theirs` first on a line with a line piece of theirs (`enemy_lines`) behind that attacks
/// along it given to `add` with the cells where it would block again (moving away, it uncovers
/// an attack: where `loses` names a destination, that one only).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn read_lines<B: CellSet>(game: &Game<B>, pos: &Position<B>, target: usize, attacked: bool, occupied: B, (theirs, enemy_lines): (B, B), loses: Option<usize>, frozen: &mut B, frozen_line: &mut B, add: &mut impl FnMut(usize, Option<B>, Option<usize>, Option<usize>)) {
    for line in game.lines_of(target) {
        let (passed, first) = game.slide(line.segments, occupied);
        let read = passed.or(first.map_or(B::default(), B::single));
        if attacked {
            *frozen = frozen.or(read);
            continue;
        }
        *frozen_line = frozen_line.or(read);
        if let Some(f) = first.filter(|&f| theirs.has(f)) {
            // (Only where the piece behind attacks along the line from its cell.)
            let behind = occupied.and_not(B::single(f));
            if let Some((b, run)) = game.first_occupied(line.segments, behind).filter(|&(b, _)| enemy_lines.has(b)) {
                let ck = pos.board[b] as usize - 1;
                if ck >= 64 || game.kinds_on(line, run, b) >> ck & 1 != 0 {
                    add(f, Some(game.slide(line.segments, behind).0), None, loses);
                }
            }
        }
    }
}

/// The cells where one move may leave `target`, attacked with the cells `occupied` (the royal
/// piece lifted), unattacked: none where a piece attacks it directly (`direct`: a move of that
/// piece attacks a destination from the cell it leaves, and is made, `UntouchedChildren::holds`)
/// or three or more line pieces do, each along one line (a move takes one away and lands
/// between another and the target at most); with two, their cells; with one, its cell and
/// those between. `None` where no line attacker is found, or one attacks along two lines, or
/// two lines' cells between meet (the caller freezes what the lines read). Not with hops or
/// winding rules, whose attacks are neither.
#[inline(always)]
fn unattacking<B: CellSet>(game: &Game<B>, pos: &Position<B>, target: usize, direct: bool, occupied: B, enemy_lines: B) -> Option<B> {
    if direct {
        return Some(B::default());
    }
    let (mut n, mut attackers, mut between, mut first) = (0, B::default(), B::default(), B::default());
    for line in game.lines_of(target) {
        if line.first != NO_CELL && occupied.has(line.first as usize) {
            continue;
        }
        let Some((b, run)) = game.first_occupied(line.segments, occupied) else { continue };
        if !enemy_lines.has(b) {
            continue;
        }
        let ck = pos.board[b] as usize - 1;
        if ck < 64 && game.kinds_on(line, run, b) >> ck & 1 == 0 {
            continue;
        }
        let passed = game.slide(line.segments, occupied).0;
        if attackers.has(b) || passed.intersects(between) {
            return None;
        }
        n += 1;
        attackers.insert(b);
        between = between.or(passed);
        if n == 1 {
            first = passed;
        }
    }
    match n {
        0 => None,
        1 => Some(attackers.or(first)),
        2 => Some(attackers),
        _ => Some(B::default()),
    }
}

/// In a game with stacks, whether `side`'s royal piece on `royal` is hidden beneath a piece
/// of its side, whose count `counts` keeps (it has no move, and the piece on top is never
/// pinned: its cell stays occupied); `None` where no child's count can be the kept counts'
/// sum: a royal piece on top of a stack (judged by playing), a line piece of the other side on
/// its lines (no royal lines are kept with stacks, to tell checks and pins along them), or a
/// crowning move still to come (`Position::held`). (A call, out of the other games' path:
/// with these tests in `UntouchedChildren::new`, Knightmate paid 0.4 instructions a leaf, now
/// 0.14.)
#[inline(never)]
fn stacked_royal<B: CellSet>(game: &Game<B>, pos: &Position<B>, side: usize, royal: usize, counts: &KeptCounts<B>) -> Option<bool> {
    let hidden = pos.hidden_royal.has(royal);
    if pos.held != 0 || (pos.stacked.has(royal) && !hidden) || (hidden && !counts.cached().has(royal)) || pos.enemy_line_pieces(game, side).intersects(game.line_reach[royal]) {
        return None;
    }
    Some(hidden)
}

/// In a game with stacks, the stacks of the side to move in `pos` whose hidden piece,
/// uncovered, would check `side`'s royal piece on `royal` or pin a piece along its lines: where
/// it is the first piece on a line and attacks along it, or the second behind a piece of
/// `side` that is not on a stack. (A call: see `stacked_royal`.)
#[inline(never)]
fn uncovered_on_lines<B: CellSet>(game: &Game<B>, pos: &Position<B>, side: usize, royal: usize) -> B {
    let mut uncover = B::default();
    let mine = pos.stacked.and(pos.by_side[pos.to_move]);
    let attacks = |line, c: usize, run| {
        let hk = pos.under[c] as usize - 1;
        hk >= 64 || game.kinds_on(line, run, c) >> hk & 1 != 0
    };
    for line in game.lines_of(royal) {
        let Some((f, run)) = game.first_occupied(line.segments, pos.occupied) else { continue };
        if mine.has(f) {
            if attacks(line, f, run) {
                uncover.insert(f);
            }
        } else if pos.by_side[side].and_not(pos.stacked).has(f) {
            if let Some((s, run)) = game.first_occupied(line.segments, pos.occupied.and_not(B::single(f))).filter(|&(s, _)| mine.has(s)) {
                if attacks(line, s, run) {
                    uncover.insert(s);
                }
            }
        }
    }
    uncover
}

/// Whether the side to move in `pos` wins by moving a piece of colored kind `ck` to `to` (a
/// goal cell of that kind, `Game::reach`): such a move ends the game.
#[inline(always)]
fn wins_on<B: CellSet>(game: &Game<B>, pos: &Position<B>, ck: usize, to: usize) -> bool {
    game.reach[pos.to_move].iter().any(|&(k, cells)| k == ck && cells.has(to))
}

impl<B: CellSet> UntouchedChildren<B> {
    /// The children of `pos` where `side` is to move, with the royal lines `kept` for them
    /// (`Position::royal_lines_for_children`) and the counts `counts`: `None` where no child's
    /// count can be the kept counts' sum. (Called: inlined, it changed how perft's loop
    /// compiled.)
    #[inline(never)]
    pub(crate) fn new(game: &Game<B>, pos: &Position<B>, side: usize, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>) -> Option<Self> {
        // (With a bare-king rule: while neither side is bare, a move that captures nothing bares
        // none.)
        if game.tables.rules.bare.is_some() && pos.may_be_bare(game) {
            return None;
        }
        if !game.untouched || !counts.enabled || side == pos.to_move || counts.total() == 0 {
            return None;
        }
        let mut royals = pos.royals(game, side);
        let royal = royals.pop().filter(|_| royals.is_empty())?;
        // Every other piece's count kept.
        let mut others = pos.by_side[side];
        others.remove(royal);
        if !others.and_not(counts.cached()).is_empty() {
            return None;
        }
        // Drops: as the count finds them out of check (`Position::drops`); not of a kind whose
        // drop may not mate (each judged by playing).
        let (mut drops, mut drop_kinds, mut dropped) = ([B::default(); MAX_DROP_KINDS], 0, 0);
        if let Some(h) = &game.hands {
            let mut kinds = h.droppable;
            while kinds != 0 {
                let ck = side * game.kinds + kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                if pos.hand[ck] == 0 {
                    continue;
                }
                if h.no_mate[ck] || drop_kinds == MAX_DROP_KINDS {
                    return None;
                }
                let mut cells = h.cells[ck];
                if h.one_per_file[ck] {
                    for c in pos.by_ck[ck].iter() {
                        cells = cells.and_not(h.file[c]);
                    }
                }
                dropped += cells.and_not(pos.occupied).count() as u64;
                drops[drop_kinds] = cells;
                drop_kinds += 1;
            }
        }
        // The royal piece: leaps only (no promotion, no royal path rule where it has a move).
        // Its moves in a child are those here, judged on the same attacks, unless the move
        // leaves or lands on one of its leaps' cells, or on a cell that a line to one of its
        // destinations reads out to its first piece (the royal piece lifted), or attacks a
        // destination directly from either cell (`holds`).
        // (With more than two sides, a third may have checked it: its moves are judged one by
        // one.)
        if game.sides > 2 && pos.attacked_by_enemy(game, royal, side) {
            return None;
        }
        // Stacks: a royal piece hidden beneath a piece of its side has no move, and the piece
        // on top's count is kept (it is never pinned: its cell stays occupied); one on top of a
        // stack is judged by playing. No royal lines are kept with stacks: there must be no
        // line piece of the other side on its lines (no check or pin along them), and no
        // crowning move still to come (`Position::held`).
        let ck = pos.board[royal] as usize - 1;
        let mut m = &game.piece_moves[ck * game.cells + royal];
        let still;
        if game.stacks && stacked_royal(game, pos, side, royal, counts)? {
            still = PieceMoves::still();
            m = &still;
        } else if m.slides.0 != m.slides.1 || m.homing || game.walked[ck] || game.promotion[ck].is_some() || (game.any_no_check && game.no_check[ck]) {
            return None;
        }
        let mut frozen = m.leap_quiet.or(m.leap_capture);
        // Winding rules: the other side's floods are the same in every child whose move leaves
        // and lands off the cells they depend on (then so are its winding attacks, on the
        // destinations too: a cell off them filled or emptied, the royal piece's, changes no
        // flood); not where one that may capture reaches the royal piece or a piece of its
        // side, whose moves a child's count would judge one by one.
        if game.winding {
            let (floods, near) = pos.wind_floods(game, royal, side);
            if near {
                return None;
            }
            frozen = frozen.or(floods);
        }
        // Hops: no one move may let the other side's hop rules capture the royal piece (its hop
        // zone, `Position::hop_zone`, is empty: no child's count judges a move by playing it);
        // a child whose move leaves and lands off the cells the ways to it read (their starts
        // too), and lands no piece with hop rules where a way starts (`hop_starts`), has that
        // zone (as `Position::know_hops` finds).
        // (Nor where the royal piece has special rays: the hop attacks on the cells they pass
        // are not read.)
        let mut hop_starts = B::default();
        if game.hopping {
            if !pos.hop_zone_read::<false>(game, royal, side).0.is_empty() || m.specials.0 != m.specials.1 {
                return None;
            }
            // (A way past four pieces or more has three or more left after the move, and opens
            // no hop zone: `Position::way_zone`.)
            let (read, starts) = pos.hop_ways_read(game, royal, side, pos.occupied, 4);
            frozen = frozen.or(read);
            hop_starts = starts;
        }
        let targets = pos.targets_of(game, side).0;
        // Its special rays, if any, are single steps that may pass cells (Boholy's pole
        // crossings): each as a leap, open while the cells it passes are empty and, where it
        // must pass them unattacked, unattacked, as generation finds them (the royal piece in
        // place). Those cells are watched as a destination is: whether they are attacked
        // holds in every child (`passes`).
        let (mut passes, mut passes_len, mut crossings) = ([(0usize, false); MAX_PASSED], 0, B::default());
        for sp in &game.specials[m.specials.0 as usize..m.specials.1 as usize] {
            let r = &game.rays[sp.ray as usize];
            let f = sp.flags;
            if f & !(ray::QUIET | ray::CAPTURE | ray::PASS_UNATTACKED) != 0 || r.cells.1 - r.cells.0 != 1 {
                return None;
            }
            let d = game.cells_of(r.cells)[0] as usize;
            frozen.insert(d);
            frozen = frozen.or(r.must_empty);
            if r.passes && r.must_empty.intersects(pos.occupied) {
                continue;
            }
            let possible = if pos.occupied.has(d) { f & ray::CAPTURE != 0 && targets.has(d) } else { f & ray::QUIET != 0 };
            if !possible {
                continue;
            }
            let mut open = true;
            if f & ray::PASS_UNATTACKED != 0 {
                for c in game.passed(sp.ray as usize) {
                    let attacked = match passes[..passes_len].iter().find(|x| x.0 == c) {
                        Some(&(_, attacked)) => attacked,
                        None if passes_len == MAX_PASSED => return None,
                        None => {
                            let attacked = pos.attacked_by_enemy(game, c, side);
                            passes[passes_len] = (c, attacked);
                            passes_len += 1;
                            attacked
                        }
                    };
                    open &= !attacked;
                }
            }
            if open {
                crossings.insert(d);
            }
        }
        let mut frozen_line = B::default();
        let (mut uncovering, mut uncovering_len, mut uncovering_cells) = ([(0u16, B::default(), NO_PIN, NO_PIN); MAX_UNCOVERING], 0, B::default());
        let mut frozen_too = B::default();
        let mut add = |x: usize, again: Option<B>, pinned: Option<usize>, loses: Option<usize>| {
            uncovering_cells.insert(x);
            match again {
                Some(cells) if uncovering_len < MAX_UNCOVERING => {
                    uncovering[uncovering_len] = (x as u16, cells, pinned.map_or(NO_PIN, |p| p as u16), loses.map_or(NO_PIN, |d| d as u16));
                    uncovering_len += 1;
                }
                _ => frozen_too.insert(x),
            }
        };
        let destinations = m.leap_quiet.and_not(pos.occupied).or(m.leap_capture.and(targets)).or(crossings);
        if !destinations.is_empty() && game.tables.rules.royal_path_unattacked {
            return None;
        }
        let (mut safe_cells, mut attack_landings) = (B::default(), B::default());
        let landings = !(game.hopping || game.winding || game.stacks || game.sides > 2);
        if !destinations.is_empty() || passes_len > 0 {
            let lifted = pos.occupied.and_not(B::single(royal));
            let (theirs, enemy_lines) = (pos.by_side[pos.to_move], pos.enemy_line_pieces(game, side));
            for d in destinations.iter() {
                // (With hops, the royal piece lifted and put on `d`, as the count judges it; the
                // cells the ways to `d` read frozen: the same attacks in every child.)
                let direct = if game.hopping {
                    // (A way past three pieces or more, the royal piece lifted, passes two or
                    // more after the move: no hop captures along it.)
                    let (read, starts) = pos.hop_ways_read(game, d, side, lifted, 3);
                    frozen = frozen.or(read);
                    hop_starts = hop_starts.or(starts);
                    pos.attacked_directly_after_royal(game, royal, d, side)
                } else {
                    pos.attacked_directly_by_enemy(game, d, side)
                };
                let attacked = direct || pos.attacked_along_lines_by_enemy(game, d, side, lifted);
                if !attacked {
                    safe_cells.insert(d);
                }
                if landings {
                    attack_landings = attack_landings.or(game.direct_reach[d * 2 + pos.to_move]);
                }
                // (An attacked destination stays attacked where its attackers stay: only the
                // cells where one move may take them all away are frozen.)
                if attacked && !game.hopping && !game.winding {
                    if let Some(cells) = unattacking(game, pos, d, direct, lifted, enemy_lines) {
                        frozen = frozen.or(cells);
                        continue;
                    }
                }
                read_lines(game, pos, d, attacked, lifted, (theirs, enemy_lines), Some(d), &mut frozen, &mut frozen_line, &mut add);
            }
            // The cells passed, with the royal piece in place: a direct attack on one may
            // start or stop from any cell a piece of the other side could attack it from.
            for &(c, attacked) in &passes[..passes_len] {
                frozen = frozen.or(if game.sides == 2 { game.direct_reach[c * 2 + 1 - side] } else { game.direct_reach_any[c] });
                read_lines(game, pos, c, attacked, pos.occupied, (theirs, enemy_lines), None, &mut frozen, &mut frozen_line, &mut add);
            }
        }
        // Castling: rules without rights, or blocked by a piece of the side, stay shut.
        for c in &game.castles[side] {
            if !c.home.and_not(pos.virgin.and(pos.by_side[side])).is_empty() || c.empty.intersects(pos.by_side[side]) {
                continue;
            }
            if !c.empty.intersects(pos.occupied) {
                return None;
            }
            frozen = frozen.or(c.empty);
        }
        // Pieces pinned here stay pinned where the move touches neither the lines that pin nor
        // a cell they look at: counted pinned.
        let (mut pinned, mut unpinned) = (0, 0);
        let (mut pins, mut pins_len, mut pin_read, mut again) = ([(0u16, B::default(), 0u16); MAX_PINS], 0, B::default(), B::default());
        let lines = match kept {
            Some(r) if !r.unchecked(royal, pos.out) => return None,
            Some(r) => {
                if r.pinning() {
                    let (found, read, single) = r.pins_read()?;
                    // (A piece pinned along two lines has their common cells: blocking one
                    // of them is not told apart from blocking both, and is made.)
                    pin_read = read;
                    if !single {
                        frozen = frozen.or(read);
                    }
                    for p in found.pinned.iter() {
                        let allowed = found.allowed(p)?;
                        let (n, kept, looked) = counts.pinned(game, pos, p, allowed)?;
                        pinned += n;
                        unpinned += kept;
                        again = again.or(looked);
                        // (`pins_read` answers only where every pinned piece is listed.)
                        pins[pins_len] = (p as u16, allowed, n as u16);
                        pins_len += 1;
                    }
                    again = again.or(read);
                }
                r.uncovering(game, pos, side, |x, again, pinned| add(x, again, pinned, None));
                B::default()
            }
            None => game.line_reach[royal],
        };
        // (A move onto a cell its side wins by reaching with the kind moved ends the game.)
        for &(_, cells) in &game.reach[pos.to_move] {
            again = again.or(cells);
        }
        // (A capture takes a piece of the next side off: it leaves the cell occupied, and
        // changes nothing else but the kept counts of the victim and of the pieces looking at
        // its cell; with a bare-king rule, while the next side keeps another piece.)
        let captures = !game.hopping
            && !game.winding
            && game.tables.rules.extinction == 0
            && drop_kinds == 0
            && (game.tables.rules.bare.is_none() || pos.by_side[side].and_not(pos.royal_tops[side]).count() >= 2);
        let mut watched = destinations;
        watched.insert(royal);
        let frozen_again = frozen.or(frozen_too);
        let frozen_pinner = frozen_line.or(frozen_again).or(uncovering_cells);
        let frozen_line_again = frozen_pinner.or(pin_read);
        let frozen = frozen_again.or(again);
        let frozen_line = frozen_line_again.or(again);
        let uncover = if game.stacks { uncovered_on_lines(game, pos, side, royal) } else { B::default() };
        Some(UntouchedChildren {
            rest: safe_cells.count() as u64 + dropped + pinned,
            unpinned,
            pins,
            pins_len,
            pin_read,
            again,
            drops,
            drop_kinds,
            side,
            destinations,
            watched,
            safe_cells,
            attack_landings,
            frozen,
            frozen_line,
            uncovering,
            uncovering_len,
            uncovering_cells,
            frozen_again,
            frozen_line_again,
            lines,
            hop_starts,
            captures,
            frozen_pinner,
            uncover,
        })
    }

    /// Whether the child after `mv` (a legal move of `pos`) counts [`UntouchedChildren::count_after`]
    /// moves: see the module's comment. `UNCOVERING`: a move off a cell of `uncovering` may
    /// hold too ([`UntouchedChildren::uncovered`]; without, it does not: the children that
    /// hold are found first without it, and those moves looked at again only where they do
    /// not, which cost orthodox 0.5 instructions a leaf less than one test). `AGAIN`: the
    /// cells frozen for the pins or the goals alone are not ([`UntouchedChildren::count_again`]).
    /// `CAPTURE`: the move may capture ([`UntouchedChildren::count_capture`]). `ATTACKING`: the
    /// piece may land where it attacks destinations directly
    /// ([`UntouchedChildren::count_attacking`]).
    #[inline(always)]
    pub(crate) fn holds<const UNCOVERING: bool, const AGAIN: bool, const HOPS: bool, const CAPTURE: bool, const ATTACKING: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, mv: Move) -> bool {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let plain = match mv.kind {
            MoveKind::Normal => true,
            // (A step that sets en-passant cells: as long as no piece may capture there.)
            MoveKind::EnPassantTarget => !self.ep_capture(game, pos, mv),
            _ => false,
        };
        plain
            && mv.promotion == NO_PROMOTION
            && (CAPTURE || pos.board[to] == 0)
            && {
                // (A piece that attacks along no line neither checks nor pins by landing on a
                // royal line, nor attacks a destination along its lines.)
                let line_piece = pos.line_pieces[pos.to_move].has(from);
                let frozen = match (line_piece, AGAIN) {
                    (true, false) => &self.frozen_line,
                    (false, false) => &self.frozen,
                    (true, true) => &self.frozen_line_again,
                    (false, true) => &self.frozen_again,
                };
                !frozen.has(from)
                    && !frozen.has(to)
                    && (line_piece || !self.uncovering_cells.has(from) || UNCOVERING && self.uncovered(from, to).is_some())
                    && (!line_piece
                        || match kept {
                            Some(r) => r.untouched_by_line_piece(from, to),
                            None => !self.lines.has(to),
                        })
            }
            && {
                let ck = pos.board[from] as usize - 1;
                !game.direct_from[ck * game.cells + to].intersects(if ATTACKING { self.watched.and_not(self.destinations) } else { self.watched })
                    && !game.direct_from[ck * game.cells + from].intersects(self.destinations)
                    && (!HOPS || game.hoppers[ck].is_empty() || !self.hop_starts.has(to))
            }
    }

    /// The count of the child after `mv`, a capture, where it holds as a move that captures
    /// nothing would and takes a piece whose count is kept (not the royal piece) off the
    /// next side: the victim's count lost, those of the pieces that look at its cell found
    /// again (`KeptCounts::after_capture`); `None` where it does not hold. The cell stays
    /// occupied, so no line's answer changes there; a victim that is pinned or whose cell a
    /// pinned piece looks at is in `again`, frozen here. (The kept counts are the next side's
    /// pieces only: a cell of theirs is a capture of one.)
    #[inline(never)]
    fn count_capture<const DROPS: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if !self.captures || !counts.cached().has(to) || !self.holds::<false, false, false, true, false>(game, pos, kept, mv) {
            return None;
        }
        let kept_sum = counts.after_capture(game, pos, from, to)?;
        Some(self.count_after::<DROPS>(mv, kept_sum))
    }

    /// The count of the child after `mv`, a plain move to an empty cell that lands a piece that
    /// attacks along no line where it attacks destinations of the royal piece directly but not
    /// the royal piece (a line piece landing next to a safe destination stands on a line to it:
    /// not tried, in `count_children_with`), and that
    /// otherwise [`UntouchedChildren::holds`]: the destinations it attacks that were safe are
    /// lost. (A direct attack reads no line, and a destination attacked stays attacked: nothing
    /// else changes.) `None` where it does not hold, or for a kind that may not check; not
    /// tried with hops, winding rules or stacks, nor with more than two sides
    /// (`attack_landings` is empty).
    #[inline(never)]
    fn count_attacking<const DROPS: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        // (A drop's `from` is its empty destination.)
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) {
            return None;
        }
        let ck = pos.board[from] as usize - 1;
        let attacks = game.direct_from[ck * game.cells + to];
        if !attacks.intersects(self.destinations) || (game.any_no_check && game.no_check[ck]) || !self.holds::<false, false, false, false, true>(game, pos, kept, mv) {
            return None;
        }
        let kept_sum = counts.after::<false>(game, pos, from, to)?;
        Some(self.count_after::<DROPS>(mv, kept_sum) - attacks.and(self.safe_cells).count() as u64)
    }

    /// The count of the child after `mv`, a move off a stack of the side to move (in games
    /// with stacks): the piece beneath is uncovered and stays, so the cell stays occupied, by
    /// a target as the stack was (a royal piece there, hidden or on top, by a target of the
    /// same kind), and no line's answer changes there. It holds where the move would, captures
    /// nothing, lands a piece that is not royal and uncovers one that neither checks nor pins
    /// along the royal piece's lines (`uncover`), attacks no watched cell directly from there
    /// nor, attacking along lines, stands where a line to a destination reads: the kept counts
    /// with the landing cell changed (`KeptCounts::after_landing`); `None` where it does not
    /// hold.
    #[inline(never)]
    fn count_off_stack(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if self.drop_kinds != 0 || pos.board[to] != 0 || game.royal[pos.board[from] as usize - 1] || !self.holds::<false, false, false, false, false>(game, pos, kept, mv) {
            return None;
        }
        let hk = pos.under[from] as usize - 1;
        if self.uncover.has(from) || game.direct_from[hk * game.cells + from].intersects(self.watched) || ((hk >= 64 || game.line_ck_mask >> hk & 1 != 0) && self.frozen_line.has(from)) {
            return None;
        }
        let kept_sum = counts.after_landing(game, pos, to)?;
        Some(self.count_after::<false>(mv, kept_sum))
    }

    /// The count of the child after `mv`, a move off a cell of `uncovering` that
    /// [`UntouchedChildren::holds`] where it may: with the piece it leaves pinned, if any
    /// ([`UntouchedChildren::uncovered`]), counted pinned, and without the destinations it
    /// leaves attacked; `None` where it does not hold.
    #[inline(never)]
    fn count_uncovering<const DROPS: bool, const HOPS: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        if !self.holds::<true, false, HOPS, false, false>(game, pos, kept, mv) {
            return None;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let (pin, lost) = self.uncovered(from, to)?;
        let kept_sum = match pin {
            Some(pin) if self.pins[..self.pins_len].iter().any(|p| p.0 as usize == pin.0) => None,
            Some(pin) => counts.after_pinned(game, pos, from, to, pin),
            None => counts.after::<HOPS>(game, pos, from, to),
        }?;
        Some(self.count_after::<DROPS>(mv, kept_sum) - lost.count() as u64)
    }

    /// The count of the child after `mv`, a move that touches a cell of `again` and
    /// otherwise [`UntouchedChildren::holds`]: a piece that attacks along no line landing
    /// between a pinned piece and its pinner unpins it (it only blocks), a pinned piece
    /// whose looked-at cells the move touched, pinned still, is counted again pinned
    /// (`KeptCounts::after_pins`), and a move onto a goal cell by a kind that does not win
    /// there is as any other; `None` where it does not hold.
    #[inline(always)]
    fn count_again<const DROPS: bool, const HOPS: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if !HOPS && self.pin_read.has(from) {
            return self.count_pinner::<DROPS>(game, pos, kept, counts, mv);
        }
        // (Most moves here are line pieces' onto the lines that pin or to a destination, which
        // stay frozen: told before the call.)
        if pos.line_pieces[pos.to_move].has(from) && self.frozen_line_again.has(to) {
            return None;
        }
        self.count_again_past::<DROPS, HOPS>(game, pos, kept, counts, mv)
    }

    /// [`UntouchedChildren::count_again`] past its first test.
    #[inline(never)]
    fn count_again_past<const DROPS: bool, const HOPS: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if !self.holds::<false, true, HOPS, false, false>(game, pos, kept, mv) {
            return None;
        }
        let ck = pos.board[from] as usize - 1;
        if wins_on(game, pos, ck, to) {
            return None;
        }
        // (A line piece never leaves or lands on `pin_read`: it is in `frozen_line_again`.
        // The cells there a piece may leave are the pinners', line pieces: see
        // `count_pinner`.)
        if self.pin_read.has(from) {
            return None;
        }
        let mut freed = 0;
        if self.pin_read.has(to) {
            for (j, &(_, allowed, _)) in self.pins[..self.pins_len].iter().enumerate() {
                freed |= (allowed.has(to) as u8) << j;
            }
            // (A piece pinned along two lines, one of them blocked: made.)
            if freed == 0 {
                return None;
            }
        }
        let kept_sum = counts.after_pins(game, pos, from, to, &self.pins[..self.pins_len], (freed, 0))?;
        Some(self.count_after::<DROPS>(mv, kept_sum))
    }

    /// The count of the child after `mv`, a move off `pin_read` (where it holds, a pinner's),
    /// a plain move of a line piece that leaves the piece it pins unpinned or, along the line,
    /// pinned to other cells (`RoyalLines::pin_after`), and that
    /// [`UntouchedChildren::holds`] would judge to hold but for that pin: the piece's count
    /// found again free or pinned anew (`KeptCounts::after_pins`); `None` where it does not
    /// hold.
    #[inline(never)]
    fn count_pinner<const DROPS: bool>(&self, game: &Game<B>, pos: &Position<B>, kept: Option<&RoyalLines<'_, B>>, counts: &KeptCounts<B>, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let r = kept?;
        if mv.kind != MoveKind::Normal || mv.promotion != NO_PROMOTION || pos.board[to] != 0 || !pos.line_pieces[pos.to_move].has(from) || self.frozen_pinner.has(from) || self.frozen_pinner.has(to) {
            return None;
        }
        let ck = pos.board[from] as usize - 1;
        if game.direct_from[ck * game.cells + to].intersects(self.watched) || game.direct_from[ck * game.cells + from].intersects(self.destinations) {
            return None;
        }
        if wins_on(game, pos, ck, to) {
            return None;
        }
        let (pinned, cells) = r.pin_after(game, pos, self.side, from, to)?;
        let j = self.pins[..self.pins_len].iter().position(|p| p.0 as usize == pinned)?;
        let kept_sum = match cells {
            None => counts.after_pins(game, pos, from, to, &self.pins[..self.pins_len], (1 << j, 0))?,
            Some(cells) => {
                let mut pins = self.pins;
                pins[j].1 = cells;
                // (Found again pinned to its new cells whatever it looks at: a leaper may
                // reach a cell its pin gains or loses without looking at the move's cells.)
                counts.after_pins(game, pos, from, to, &pins[..self.pins_len], (0, 1 << j))?
            }
        };
        Some(self.count_after::<DROPS>(mv, kept_sum))
    }

    /// The count of the child after `mv`, where [`UntouchedChildren::holds`] and its kept
    /// counts sum to `kept_sum`: `rest` and `kept_sum`, with the drops onto the cell the move
    /// left and without those onto the cell it took (`DROPS`: in a game with hands; in the
    /// others the test cost orthodox 0.7 instructions a leaf).
    #[inline(always)]
    fn count_after<const DROPS: bool>(&self, mv: Move, kept_sum: u64) -> u64 {
        if !DROPS {
            return self.rest + kept_sum - self.unpinned;
        }
        let (mut left, mut taken) = (0, 0);
        for cells in &self.drops[..self.drop_kinds] {
            left += cells.has(mv.from as usize) as u64;
            taken += cells.has(mv.to as usize) as u64;
        }
        self.rest + kept_sum - self.unpinned + left - taken
    }

    /// Whether a move from `from`, a cell of `uncovering`, to `to` lands where it blocks every
    /// line it leaves again but those to the destinations it leaves attacked (returned), or
    /// where it leaves one piece pinned too, with the cells it is pinned to; `None`: it
    /// uncovers more (a check, or a pin it does not tell).
    #[inline(never)]
    fn uncovered(&self, from: usize, to: usize) -> Option<(Option<(usize, B)>, B)> {
        let (mut pin, mut lost) = (None, B::default());
        for &(x, again, pinned, loses) in &self.uncovering[..self.uncovering_len] {
            if x as usize != from || again.has(to) {
                continue;
            }
            if loses != NO_PIN {
                lost.insert(loses as usize);
                continue;
            }
            if pinned == NO_PIN || pin.is_some() {
                return None;
            }
            pin = Some((pinned as usize, again));
        }
        Some((pin, lost))
    }

    /// Whether a piece of the next side could capture en passant on the cells the step `mv`
    /// passes (`Game::ep_capturers`, as `Position::ep_capturing` finds it in the child).
    fn ep_capture(&self, game: &Game<B>, pos: &Position<B>, mv: Move) -> bool {
        game.rays[mv.aux as usize].must_empty.iter().any(|c| game.ep_capturers[c * game.sides + self.side].iter().any(|&(ck, from)| from.intersects(pos.by_ck[ck as usize])))
    }

    /// Perft's last ply below `pos`: the children after `moves`, each counted as
    /// [`UntouchedChildren::count_after`] says where [`UntouchedChildren::holds`], else made and counted as `crate::perft` counts them, with
    /// the royal lines `kept` for them, the destinations' attacks `destinations` and whether
    /// royal pieces face each other, `faced`. (A function of its own: the children of the
    /// positions with none untouched are counted as before, in perft's loop.) With pinned
    /// pieces or goal cells, a move that touches a cell of `again` is looked at again (in a
    /// loop of its own: the test in every position's cost orthodox 0.5 instructions a leaf,
    /// Shatranj 0.8).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn count_children<const DROPS: bool>(&self, game: &Game<B>, pos: &mut Position<B>, scratch: &mut Vec<Move>, moves: &[Move], kept: Option<&RoyalLines<'_, B>>, destinations: Option<&KeptDestinations<B>>, faced: Option<bool>, counts: &KeptCounts<B>) -> u64 {
        if game.hopping {
            self.count_children_hops::<DROPS>(game, pos, scratch, moves, kept, destinations, faced, counts)
        } else if game.stacks {
            self.count_children_with::<DROPS, true, false, true>(game, pos, scratch, moves, kept, destinations, faced, counts)
        } else if !self.again.is_empty() {
            self.count_children_with::<DROPS, true, false, false>(game, pos, scratch, moves, kept, destinations, faced, counts)
        } else {
            self.count_children_with::<DROPS, false, false, false>(game, pos, scratch, moves, kept, destinations, faced, counts)
        }
    }

    /// [`UntouchedChildren::count_children`] in a game with hops, ending what
    /// `Position::keep_hops_for_children` kept for the children made. (A call: inlined there,
    /// it changed how the other games' loops compiled.)
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn count_children_hops<const DROPS: bool>(&self, game: &Game<B>, pos: &mut Position<B>, scratch: &mut Vec<Move>, moves: &[Move], kept: Option<&RoyalLines<'_, B>>, destinations: Option<&KeptDestinations<B>>, faced: Option<bool>, counts: &KeptCounts<B>) -> u64 {
        let n = self.count_children_with::<DROPS, true, true, false>(game, pos, scratch, moves, kept, destinations, faced, counts);
        pos.drop_kept_hops();
        n
    }

    /// [`UntouchedChildren::count_children`], with cells to look at again or not (`AGAIN`);
    /// `HOPS`: in a game with hops, the children made are counted as perft counts them there
    /// (with the next side's hop zone and checks taken from the parent where they hold,
    /// `Position::know_hops`, and the hop destinations read in place). `STACKS`: in a game
    /// with stacks, whose moves off a stack leave their cell occupied
    /// ([`UntouchedChildren::count_off_stack`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn count_children_with<const DROPS: bool, const AGAIN: bool, const HOPS: bool, const STACKS: bool>(&self, game: &Game<B>, pos: &mut Position<B>, scratch: &mut Vec<Move>, moves: &[Move], kept: Option<&RoyalLines<'_, B>>, destinations: Option<&KeptDestinations<B>>, faced: Option<bool>, counts: &KeptCounts<B>) -> u64 {
        let mut n = 0;
        for &mv in moves {
            let count = if STACKS && pos.stacked.has(mv.from as usize) {
                self.count_off_stack(game, pos, kept, counts, mv)
            } else {
                match self.holds::<false, false, HOPS, false, false>(game, pos, kept, mv) {
                    true => counts.after::<HOPS>(game, pos, mv.from as usize, mv.to as usize).map(|kept_sum| self.count_after::<DROPS>(mv, kept_sum)),
                    false if self.uncovering_cells.has(mv.from as usize) => self.count_uncovering::<DROPS, HOPS>(game, pos, kept, counts, mv),
                    false if AGAIN && (self.again.has(mv.from as usize) || self.again.has(mv.to as usize)) => self.count_again::<DROPS, HOPS>(game, pos, kept, counts, mv),
                    false if HOPS => None,
                    false if self.attack_landings.has(mv.to as usize) && pos.board[mv.to as usize] == 0 && !pos.line_pieces[pos.to_move].has(mv.from as usize) => self.count_attacking::<DROPS>(game, pos, kept, counts, mv),
                    false => self.count_capture::<DROPS>(game, pos, kept, counts, mv),
                }
            };
            if let Some(count) = count {
                n += count;
                if cfg!(debug_assertions) {
                    let undo = pos.make_unsettled(game, mv, faced);
                    let long = pos.count_legal_settling(game, scratch);
                    pos.unmake(game, &undo);
                    assert_eq!(long, count, "the count of an untouched child after {mv:?} in {}", pos.to_general(game));
                }
                continue;
            }
            let undo = pos.make_unsettled(game, mv, faced);
            if let Some(d) = destinations {
                pos.know_destinations(d, mv);
            }
            if HOPS {
                pos.know_hops(game, mv);
                n += pos.count_legal_settling_facing(game, scratch, kept.filter(|k| k.applies_after(mv)).map(|k| (k, mv)), None, Some((counts, mv)));
                pos.forget_hops();
            } else {
                n += match kept.filter(|k| k.applies_after(mv)) {
                    Some(k) => pos.count_legal_settling_kept_counts(game, scratch, k, mv, counts),
                    None => pos.count_legal_settling_counts(game, scratch, counts, mv),
                };
            }
            pos.unmake_inlined(game, &undo);
        }
        n
    }
}
