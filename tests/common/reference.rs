//! A slow, obviously-correct reference move generator over the checked model, for cross-checking
//! the table-driven runtime (tests/reference.rs on every example, tests/polygon_runtime.rs on the
//! boards of polygons).
//!
//! It shares only the path expansion (`walk::rule_rays`) with the compiler; attack tables, pins,
//! bit sets, incremental make/unmake and the binary format are all bypassed. Legality is decided
//! the naive way: play the move on a copy, then ask whether any enemy move could capture a royal.
//!
//! Games of more than two sides follow docs/language.md: an opponent is a side of another team
//! still in the game; royal pieces are never captured; pieces of sides that are out are inert
//! and anyone may capture them; under `game-end last-standing`, while three or more teams are in
//! the game, a side to move without a legal move goes out (its pieces leave the board under
//! `eliminated remove`) and the turn passes on in declared order, skipping sides that are out.
//!
//! Stacks, crowning and the rules about royal pieces follow docs/language.md too ("Pieces that
//! give no check", "Stacks", "Crowning", "Royal paths", `bare`): a cell holds a top piece and
//! possibly a hidden one beneath it that neither moves nor attacks until the top one moves off; a
//! capture onto a stack takes both; pieces in the hand enter by crowning an own carrier (top or
//! hidden), and a royal piece in the hand makes crowning with it the only kind of move. Royal
//! pieces, hidden ones included, may not be left attacked; `cannot-check` pieces attack nothing
//! (no check, no safety test) and, as every piece, never capture a royal one; under
//! `royal-path unattacked` a royal piece's move must also pass only unattacked cells (judged with
//! it lifted off; its slides, paths of steps, stationary moves, hops and winding moves alike); under `bare`, a position where a side has royal pieces only has no moves.
//!
//! Drops ("Pieces in hand and drops"): under `rules { drops }` a captured piece goes to the
//! capturer's hand as its `captured-as` kind (else as itself); a held piece that crowns nothing may
//! be dropped on any empty cell but transit cells and its side's `not on` cells, under
//! `one-per-file` not on a grid column holding a piece of the side of its kind, and under
//! `no-mate` not so that the opponent is in check without a legal move. A piece dropped where its
//! side's setup has its kind (castling cells excepted) counts as unmoved. A promotion zone marked
//! `from-or-to` also offers its (optional) promotion to moves that start in it.

use orbis_compiler::walk::{hop_lines, rule_rays};
use orbis_compiler::model::{Hop, Mode, MoveRule, Variant};
use orbis_runtime::tables::ray;
use std::collections::BTreeSet;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefPos {
    /// (side, kind) per cell: the top piece, the one that moves and attacks.
    pub board: Vec<Option<(usize, usize)>>,
    /// The kind of the hidden piece beneath the top one (a stack), of the top piece's side.
    pub hidden: Vec<Option<usize>>,
    /// Per side: the kinds held in the hand, sorted (a multiset).
    pub hand: Vec<Vec<usize>>,
    pub virgin: Vec<bool>,
    pub ep: Option<(Vec<usize>, usize)>,
    pub to_move: usize,
    /// Per side: out of the game.
    pub out: Vec<bool>,
    /// Per side: the checks it has given (`check-limit`).
    pub checks: Vec<u8>,
    /// `pass`, `facing`: 1 when the last move was a pass; 2 after two passes in a row and 3 after
    /// a move that left royal pieces facing as before it (both end the game).
    pub passes: u8,
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum RefMove {
    /// from, to, promotion, en-passant cells set by the move, en-passant victim taken
    Step { from: usize, to: usize, promo: Option<usize>, sets_ep: Vec<usize>, takes: Option<usize> },
    Castle(usize),
    /// A slide around an empty closed line back to `from` (where the rules allow it).
    Stationary(usize),
    /// A piece of kind `crown` from the hand onto the own carrier (top or hidden) on `cell`.
    /// `hidden`: the carrier is the hidden piece of a stack (both pieces of one may carry).
    Crown {
        crown: usize,
        cell: usize,
        hidden: bool,
    },
    /// A held piece of `kind` dropped onto the empty `cell`.
    Drop { kind: usize, cell: usize },
    /// Nothing moves (`pass`).
    Pass,
}

/// An empty position of `v` (white to move, nothing in the hands).
fn empty(v: &Variant) -> RefPos {
    let n = v.board.cells.len();
    RefPos {
        board: vec![None; n],
        hidden: vec![None; n],
        hand: vec![Vec::new(); v.sides.len()],
        virgin: vec![false; n],
        ep: None,
        to_move: 0,
        out: vec![false; v.sides.len()],
        checks: vec![0; v.sides.len()],
        passes: 0,
    }
}

pub fn start(v: &Variant) -> RefPos {
    let mut p = empty(v);
    for (s, side) in v.sides.iter().enumerate() {
        for &(c, k) in &side.setup {
            p.board[c] = Some((s, k));
            p.virgin[c] = true;
        }
        // `atop` puts a piece on a setup piece of the side, which becomes hidden.
        for &(c, k) in &side.atop {
            p.hidden[c] = p.board[c].map(|(_, under)| under);
            p.board[c] = Some((s, k));
        }
        p.hand[s] = side.hand.clone();
        p.hand[s].sort_unstable();
    }
    settle(v, p)
}

/// Whether a royal piece stands on `cell`, on top or hidden.
fn holds_royal(v: &Variant, p: &RefPos, cell: usize) -> bool {
    p.board[cell].is_some_and(|(_, k)| v.pieces[k].royal)
        || p.hidden[cell].is_some_and(|k| v.pieces[k].royal)
}

/// Takes the top piece off `cell`: the hidden piece beneath, if any, becomes the cell's piece.
fn lift(p: &mut RefPos, cell: usize) -> (usize, usize) {
    let (s, k) = p.board[cell].take().expect("a piece to lift");
    p.board[cell] = p.hidden[cell].take().map(|under| (s, under));
    (s, k)
}

/// Empties `cell` entirely: a capture takes the whole stack.
fn clear(p: &mut RefPos, cell: usize) {
    p.board[cell] = None;
    p.hidden[cell] = None;
    p.virgin[cell] = false;
}

/// The sides that can attack `side`: of another team, still in the game.
pub fn opponents(v: &Variant, p: &RefPos, side: usize) -> Vec<usize> {
    (0..v.sides.len()).filter(|&e| v.sides[e].team != v.sides[side].team && !p.out[e]).collect()
}

/// Whether the side to move may capture the piece on `cell`.
fn capturable(v: &Variant, p: &RefPos, cell: usize) -> bool {
    match p.board[cell] {
        None => false,
        Some((s, _)) if p.out[s] => true,
        // Royal pieces, hidden ones included, are never captured (with two sides only a
        // `cannot-check` piece can stand next to taking one, and it may not).
        Some((s, _)) => v.sides[s].team != v.sides[p.to_move].team && !holds_royal(v, p, cell),
    }
}

/// Whether `side` is bare: every piece it has, on top, hidden or in the hand, is royal.
fn bare(v: &Variant, p: &RefPos, side: usize) -> bool {
    let on_board = (0..p.board.len()).filter(|&c| p.board[c].is_some_and(|(s, _)| s == side));
    let mut kinds = on_board
        .flat_map(|c| [p.board[c].map(|(_, k)| k), p.hidden[c]])
        .flatten()
        .chain(p.hand[side].iter().copied());
    kinds.all(|k| v.pieces[k].royal)
}

/// The teams with a side still in the game.
fn live_teams(v: &Variant, p: &RefPos) -> usize {
    let mut teams: Vec<&str> = (0..v.sides.len()).filter(|&s| !p.out[s]).map(|s| v.sides[s].team.as_str()).collect();
    teams.sort_unstable();
    teams.dedup();
    teams.len()
}

/// The side after `side` in declared order that is still in the game.
fn next_side(v: &Variant, p: &RefPos, side: usize) -> usize {
    let n = v.sides.len();
    (1..=n).map(|i| (side + i) % n).find(|&s| !p.out[s]).unwrap_or(side)
}

/// Eliminations: while three or more teams are in the game under `game-end last-standing` and
/// the side to move has no legal move, it goes out.
pub fn settle(v: &Variant, mut p: RefPos) -> RefPos {
    let teams = {
        let mut t: Vec<&str> = v.sides.iter().map(|s| s.team.as_str()).collect();
        t.sort_unstable();
        t.dedup();
        t.len()
    };
    if teams < 3 || !v.rules.last_standing {
        return p;
    }
    while live_teams(v, &p) >= 3 && unsettled_legal(v, &p).is_empty() {
        let side = p.to_move;
        p.out[side] = true;
        if v.rules.remove_eliminated {
            for c in 0..p.board.len() {
                if p.board[c].is_some_and(|(s, _)| s == side) {
                    clear(&mut p, c);
                }
            }
        }
        p.to_move = next_side(v, &p, side);
    }
    p
}

/// A `wind GROUP within ZONE` rule from `from`, by breadth-first search over the board's step
/// function: the empty zone cells reachable through empty zone cells that `pass` admits (a royal
/// piece's way under `royal-path unattacked`: unattacked cells), and every zone cell one step
/// from the start or from one of those (empty or not). Nothing when `from` is outside.
fn winding(v: &Variant, p: &RefPos, rule: &orbis_compiler::model::MoveRule, from: usize, pass: &dyn Fn(usize) -> bool) -> (Vec<usize>, Vec<usize>) {
    let Some((headings, zone)) = &rule.wind else { return (Vec::new(), Vec::new()) };
    if !zone.contains(&from) {
        return (Vec::new(), Vec::new());
    }
    let (mut empty, mut reached) = (Vec::new(), vec![from]);
    let mut queue = vec![from];
    while let Some(c) = queue.pop() {
        for &h in headings {
            let Some((d, _)) = v.board.step(c, h) else { continue };
            if !zone.contains(&d) || reached.contains(&d) {
                continue;
            }
            reached.push(d);
            if p.board[d].is_none() {
                empty.push(d);
                if pass(d) {
                    queue.push(d);
                }
            }
        }
    }
    reached.retain(|&c| c != from);
    (empty, reached)
}

/// Whether a kind filter (`over`, `takes`) admits kind `k`: no filter, a named kind, or a crowned
/// kind whose carrier is named.
fn admits(v: &Variant, filter: &Option<Vec<usize>>, k: usize) -> bool {
    filter.as_ref().is_none_or(|f| f.contains(&k) || v.pieces[k].crowned.is_some_and(|(c, _)| f.contains(&c)))
}

/// A rule walked along its lines (`hop`, `takes`) from `from` for `side`, with `occupied` telling
/// which cells hold a piece and `kind` their kind: the cells it may end on empty, and the cells
/// whose piece it may take (of any side: the caller judges). Read straight from
/// docs/language.md: follow the line; a hop needs a first piece (its screen, of a kind `over`
/// admits) and goes on beyond it, to the very next cell only with `next`; then empty cells are
/// moves until the first piece, which may be taken if `takes` admits its kind; `onto` limits both.
/// The empty cells passed before a destination must be ones `pass` admits (a royal piece's way
/// under `royal-path unattacked`: unattacked cells; the screen is jumped, not passed).
#[allow(clippy::too_many_arguments)]
fn line_walk(
    v: &Variant,
    side: usize,
    k: usize,
    rule: &MoveRule,
    from: usize,
    occupied: &dyn Fn(usize) -> bool,
    kind: &dyn Fn(usize) -> Option<usize>,
    pass: &dyn Fn(usize) -> bool,
) -> (Vec<usize>, Vec<usize>) {
    let (mut quiet, mut take) = (Vec::new(), Vec::new());
    let onto_ok = |c: usize| rule.onto.as_ref().is_none_or(|o| o[side].contains(&c));
    for line in hop_lines(v, side, &v.pieces[k], rule, from) {
        let mut rest: &[usize] = &line;
        if rule.hop.is_some() {
            let Some(s) = line.iter().position(|&c| occupied(c)) else { continue };
            if !kind(line[s]).is_none_or(|sk| admits(v, &rule.over, sk)) || !line[..s].iter().all(|&c| pass(c)) {
                continue;
            }
            rest = &line[s + 1..];
            if rule.hop == Some(Hop::Next) {
                rest = &rest[..rest.len().min(1)];
            }
        }
        for &c in rest {
            if !occupied(c) {
                if rule.mode != Mode::CaptureOnly && onto_ok(c) {
                    quiet.push(c);
                }
                if !pass(c) {
                    break;
                }
                continue;
            }
            if rule.mode != Mode::MoveOnly && onto_ok(c) && kind(c).is_none_or(|ck| admits(v, &rule.takes, ck)) {
                take.push(c);
            }
            break;
        }
    }
    (quiet, take)
}

/// Whether `side` could capture on `target` (ignoring en passant and legality). Only top pieces
/// attack (hidden ones do not), and `cannot-check` pieces are left out: this is the test for
/// check and every safety test.
pub fn attacks(v: &Variant, p: &RefPos, target: usize, side: usize) -> bool {
    for from in 0..p.board.len() {
        let Some((s, k)) = p.board[from] else {
            continue;
        };
        if s != side || v.pieces[k].cannot_check {
            continue;
        }
        for rule in &v.pieces[k].rules {
            if rule.wind.is_some() && rule.mode != Mode::MoveOnly && winding(v, p, rule, from, &|_| true).1.contains(&target) {
                return true;
            }
            if rule.hop.is_some() || rule.takes.is_some() {
                // The target counts as occupied (by whatever would be taken there).
                let occupied = |c: usize| c == target || p.board[c].is_some();
                let kind = |c: usize| p.board[c].map(|(_, kk)| kk);
                if line_walk(v, s, k, rule, from, &occupied, &kind, &|_| true).1.contains(&target) {
                    return true;
                }
            }
            for r in rule_rays(v, s, &v.pieces[k], rule, from) {
                if r.flags & ray::CAPTURE == 0 || r.must_empty.iter().any(|&c| p.board[c].is_some()) {
                    continue;
                }
                for &c in &r.cells {
                    if c == target {
                        return true;
                    }
                    if p.board[c].is_some() || r.flags & ray::SLIDE == 0 {
                        break;
                    }
                }
            }
        }
    }
    false
}

/// The cells an opponent of the side to move attacks once the piece on `from` is lifted off its
/// cell (`royal-path unattacked`: a royal piece does not shield the cells it moves through; a
/// hidden piece beneath it, if any, stays and blocks as it will after the move).
fn attacked_without(v: &Variant, p: &RefPos, from: usize) -> Vec<bool> {
    let mut q = p.clone();
    lift(&mut q, from);
    let enemies = opponents(v, p, p.to_move);
    (0..q.board.len())
        .map(|c| enemies.iter().any(|&e| attacks(v, &q, c, e)))
        .collect()
}

/// The crowning moves of the side to move: each kind in its hand onto each own piece of a kind
/// that carries it, on top or hidden; while a royal piece is held, only crowning with it.
fn crownings(v: &Variant, p: &RefPos) -> BTreeSet<RefMove> {
    let us = p.to_move;
    let royal_held = p.hand[us].iter().any(|&k| v.pieces[k].royal);
    let mut out = BTreeSet::new();
    for &crown in &p.hand[us] {
        if royal_held && !v.pieces[crown].royal {
            continue;
        }
        let carries = |k: usize| v.pieces[crown].crowns.contains(&k);
        for cell in 0..p.board.len() {
            let Some((s, top)) = p.board[cell] else {
                continue;
            };
            if s != us {
                continue;
            }
            if carries(top) {
                out.insert(RefMove::Crown {
                    crown,
                    cell,
                    hidden: false,
                });
            }
            if p.hidden[cell].is_some_and(carries) {
                out.insert(RefMove::Crown {
                    crown,
                    cell,
                    hidden: true,
                });
            }
        }
    }
    out
}

/// The drops of the side to move (legality aside, `no-mate` aside).
fn drops(v: &Variant, p: &RefPos) -> BTreeSet<RefMove> {
    let us = p.to_move;
    let mut out = BTreeSet::new();
    for &kind in &p.hand[us] {
        if !v.pieces[kind].crowns.is_empty() {
            continue;
        }
        let rules: Vec<_> = v.sides[us].drops.iter().filter(|d| d.piece == kind).collect();
        for cell in 0..p.board.len() {
            if p.board[cell].is_some() || v.board.cells[cell].transit || rules.iter().any(|d| d.forbidden.contains(&cell)) {
                continue;
            }
            let column = |c: usize| v.board.cells[c].coords.map(|(x, _)| x);
            let same_file = |c: usize| p.board[c] == Some((us, kind)) && column(c).is_some() && column(c) == column(cell);
            if rules.iter().any(|d| d.one_per_file) && (0..p.board.len()).any(same_file) {
                continue;
            }
            out.insert(RefMove::Drop { kind, cell });
        }
    }
    out
}

pub fn pseudo(v: &Variant, p: &RefPos) -> BTreeSet<RefMove> {
    let us = p.to_move;
    let mut out = crownings(v, p);
    out.extend(drops(v, p));
    // While a royal piece is in the hand, crowning with it is the side's only kind of move.
    if p.hand[us].iter().any(|&k| v.pieces[k].royal) {
        return out;
    }
    let mut stationary = Vec::new();
    for from in 0..p.board.len() {
        let Some((s, k)) = p.board[from] else { continue };
        if s != us {
            continue;
        }
        // `royal-path unattacked`: the cells a royal piece may not pass, found with it lifted off
        // (hidden royal pieces never move, so only a top one is ever lifted). A stationary move
        // passes every cell of its closed line; a hop the empty cells of its line before its
        // destination (not its screen); a winding move the empty cells of its way.
        let danger = (v.rules.royal_path_unattacked && v.pieces[k].royal)
            .then(|| attacked_without(v, p, from));
        let unattacked = |passed: &[usize]| {
            danger
                .as_ref()
                .is_none_or(|d| passed.iter().all(|&c| !d[c]))
        };
        // A piece's promotions, one per zone, share their choices; a cell of a compulsory zone
        // gives no choice to stay, a cell of optional zones only does.
        let promos: Vec<_> = v.sides[us].promotions.iter().filter(|pr| pr.piece == k).collect();
        let mut add = |to: usize, sets_ep: Vec<usize>, takes: Option<usize>| {
            let here: Vec<_> = promos.iter().filter(|pr| pr.zone.contains(&to) || (pr.from_or_to && pr.zone.contains(&from))).collect();
            let Some(first) = here.first() else {
                out.insert(RefMove::Step { from, to, promo: None, sets_ep, takes });
                return;
            };
            for &c in &first.choices {
                let had = (0..p.board.len()).filter(|&x| p.board[x] == Some((us, c))).count();
                let set_up = v.sides[us].setup.iter().chain(&v.sides[us].atop).filter(|&&(_, kk)| kk == c).count();
                if !first.captured || had < set_up {
                    out.insert(RefMove::Step { from, to, promo: Some(c), sets_ep: sets_ep.clone(), takes });
                }
            }
            if here.iter().all(|pr| pr.optional) {
                out.insert(RefMove::Step { from, to, promo: None, sets_ep, takes });
            }
        };
        for rule in &v.pieces[k].rules {
            if rule.hop.is_some() || rule.takes.is_some() {
                let occupied = |c: usize| p.board[c].is_some();
                let kind = |c: usize| p.board[c].map(|(_, kk)| kk);
                let (empty, taken) = line_walk(v, s, k, rule, from, &occupied, &kind, &|c| unattacked(&[c]));
                empty.into_iter().filter(|&c| !v.board.cells[c].transit).for_each(|c| add(c, Vec::new(), None));
                taken.into_iter().filter(|&c| capturable(v, p, c)).for_each(|c| add(c, Vec::new(), None));
            }
            if rule.wind.is_some() {
                let (empty, reached) = winding(v, p, rule, from, &|c| unattacked(&[c]));
                if rule.mode != Mode::CaptureOnly {
                    empty.iter().for_each(|&c| add(c, Vec::new(), None));
                }
                if rule.mode != Mode::MoveOnly {
                    reached.iter().filter(|&&c| p.board[c].is_some() && capturable(v, p, c)).for_each(|&c| add(c, Vec::new(), None));
                }
            }
            for r in rule_rays(v, s, &v.pieces[k], rule, from) {
                if r.flags & ray::INITIAL != 0 && !p.virgin[from] {
                    continue;
                }
                if r.must_empty.iter().any(|&c| p.board[c].is_some()) {
                    continue;
                }
                let enemies = opponents(v, p, us);
                if r.flags & ray::PASS_UNATTACKED != 0 && r.must_empty.iter().any(|&c| enemies.iter().any(|&e| attacks(v, p, c, e))) {
                    continue;
                }
                let around = r.flags & ray::RETURNS != 0 && r.flags & ray::QUIET != 0;
                if v.rules.stationary_moves
                    && around
                    && r.cells.iter().all(|&c| p.board[c].is_none())
                    && unattacked(&r.must_empty)
                    && unattacked(&r.cells)
                {
                    stationary.push(from);
                }
                for (i, &c) in r.cells.iter().enumerate() {
                    // The cells this ray passes before reaching `c`; each ray is judged on its
                    // own, so one unattacked way to a cell is enough.
                    let path_ok = unattacked(&r.must_empty) && unattacked(&r.cells[..i]);
                    match p.board[c] {
                        None => {
                            if r.flags & ray::QUIET != 0 && !v.board.cells[c].transit && path_ok {
                                let sets = if r.flags & ray::EP_TARGET != 0 {
                                    r.must_empty.clone()
                                } else {
                                    Vec::new()
                                };
                                add(c, sets, None);
                            }
                            if r.flags & ray::EP_CAPTURE != 0 && path_ok {
                                if let Some((cells, victim)) = &p.ep {
                                    if cells.contains(&c) && capturable(v, p, *victim) {
                                        add(c, Vec::new(), Some(*victim));
                                    }
                                }
                            }
                        }
                        Some(_) => {
                            if capturable(v, p, c) && r.flags & ray::CAPTURE != 0 && path_ok {
                                add(c, Vec::new(), None);
                            }
                            break;
                        }
                    }
                    if r.flags & ray::SLIDE == 0 {
                        break;
                    }
                }
            }
        }
    }
    out.extend(stationary.into_iter().map(RefMove::Stationary));
    for (i, c) in v.sides[us].castles.iter().enumerate() {
        let own = |cell: usize| p.board[cell].is_some_and(|(s, _)| s == us) && p.virgin[cell];
        if !own(c.king_from) || !own(c.rook_from) {
            continue;
        }
        if c.empty.iter().any(|&e| e != c.king_from && e != c.rook_from && p.board[e].is_some()) {
            continue;
        }
        // A piece uncovered on the king's or the rook's start stays there: nothing lands on it.
        if [c.king_from, c.rook_from].iter().any(|&x| p.hidden[x].is_some() && (x == c.king_to || x == c.rook_to)) {
            continue;
        }
        let enemies = opponents(v, p, us);
        if c.safe.iter().any(|&s| enemies.iter().any(|&e| attacks(v, p, s, e))) {
            continue;
        }
        out.insert(RefMove::Castle(i));
    }
    out
}

/// The kind the frontend derived for `carrier` carrying `crown`.
fn crowned_kind(v: &Variant, carrier: usize, crown: usize) -> usize {
    v.pieces
        .iter()
        .position(|pc| pc.crowned == Some((carrier, crown)))
        .expect("a crowned kind per carrier")
}

pub fn play(v: &Variant, p: &RefPos, m: &RefMove) -> RefPos {
    let mut q = p.clone();
    q.ep = None;
    match m {
        RefMove::Stationary(_) | RefMove::Pass => {}
        RefMove::Castle(i) => {
            // The top pieces castle; a hidden piece beneath is uncovered and, as after any move
            // off a stack, has not moved itself.
            let c = &v.sides[p.to_move].castles[*i];
            let king = lift(&mut q, c.king_from);
            let rook = lift(&mut q, c.rook_from);
            q.board[c.king_to] = Some(king);
            q.board[c.rook_to] = Some(rook);
            for cell in [c.king_from, c.rook_from] {
                if p.hidden[cell].is_none() {
                    q.virgin[cell] = false;
                }
            }
        }
        RefMove::Step { from, to, promo, sets_ep, takes } => {
            // Under `drops` the captured piece goes to the mover's hand, as its `captured-as`.
            if v.rules.drops {
                if let Some((_, k)) = q.board[takes.unwrap_or(*to)] {
                    q.hand[p.to_move].push(v.pieces[k].captured_as.unwrap_or(k));
                    q.hand[p.to_move].sort_unstable();
                }
            }
            if let Some(t) = takes {
                clear(&mut q, *t);
            }
            let (s, k) = lift(&mut q, *from);
            // A hidden piece uncovered on `from` has not moved itself.
            if q.board[*from].is_none() {
                q.virgin[*from] = false;
            }
            clear(&mut q, *to);
            q.board[*to] = Some((s, promo.unwrap_or(k)));
            if !sets_ep.is_empty() {
                q.ep = Some((sets_ep.clone(), *to));
            }
        }
        RefMove::Drop { kind, cell } => {
            let us = p.to_move;
            let held = &mut q.hand[us];
            held.remove(held.iter().position(|k| k == kind).expect("the piece is held"));
            q.board[*cell] = Some((us, *kind));
            let castling = v.sides[us].castles.iter().any(|c| c.king_from == *cell || c.rook_from == *cell);
            q.virgin[*cell] = !castling && v.sides[us].setup.contains(&(*cell, *kind));
        }
        RefMove::Crown {
            crown,
            cell,
            hidden,
        } => {
            let held = &mut q.hand[p.to_move];
            held.remove(
                held.iter()
                    .position(|k| k == crown)
                    .expect("the crown is held"),
            );
            // The carrier becomes the crowned kind where it stands, on top or hidden.
            if *hidden {
                let carrier = q.hidden[*cell].expect("a hidden carrier");
                q.hidden[*cell] = Some(crowned_kind(v, carrier, *crown));
            } else {
                let (s, carrier) = q.board[*cell].expect("a carrier");
                q.board[*cell] = Some((s, crowned_kind(v, carrier, *crown)));
            }
        }
    }
    q.to_move = next_side(v, p, p.to_move);
    q
}

/// The positions after each legal move, before eliminations: a move is legal when it leaves no
/// royal piece of the mover, on top or hidden, attacked by an opponent. Under `bare`, a position
/// where a side in the game has royal pieces only is over: it has no moves.
fn unsettled_legal(v: &Variant, p: &RefPos) -> Vec<RefPos> {
    let us = p.to_move;
    let game_bare = if v.rules.bare_counting {
        // The side that has just moved is bare and the side to move is not; or the side to move
        // is bare and no single capture could bare the other (no counting move is worth it).
        let (us, them) = (p.to_move, 1 - p.to_move);
        let cells_of = |side: usize| {
            (0..p.board.len())
                .filter(|&c| match p.board[c] {
                    Some((s, k)) => s == side && (!v.pieces[k].royal || p.hidden[c].is_some_and(|h| !v.pieces[h].royal)),
                    None => false,
                })
                .count()
        };
        let in_hand = p.hand[them].iter().any(|&k| !v.pieces[k].royal);
        (bare(v, p, them) && !bare(v, p, us)) || (bare(v, p, us) && !bare(v, p, them) && (cells_of(them) != 1 || in_hand))
    } else {
        (0..v.sides.len()).any(|s| !p.out[s] && bare(v, p, s))
    };
    if v.rules.bare.is_some() && game_bare {
        return Vec::new();
    }
    if goal_met(v, p) || p.passes >= 2 {
        return Vec::new();
    }
    let in_check = |q: &RefPos, side: usize| {
        let enemies = opponents(v, q, side);
        (0..q.board.len()).any(|c| {
            let ours = q.board[c].is_some_and(|(s, _)| s == side);
            ours && holds_royal(v, q, c) && enemies.iter().any(|&e| attacks(v, q, c, e))
        })
    };
    // `no-mate`: a drop of such a kind may not leave the opponent in check without a legal move.
    let mates = |m: &RefMove, q: &RefPos| match m {
        RefMove::Drop { kind, .. } if v.sides[us].drops.iter().any(|d| d.piece == *kind && d.no_mate) => {
            in_check(q, q.to_move) && legal(v, q).is_empty()
        }
        _ => false,
    };
    // `facing`: while royal pieces face each other, every move must end it, but a pass, which
    // is then legal even in check.
    let faced = facing(v, p);
    let mut moves: Vec<RefMove> = pseudo(v, p).into_iter().collect();
    if v.rules.pass && (faced || !in_check(p, us)) {
        moves.push(RefMove::Pass);
    }
    moves
        .iter()
        .map(|m| (m, play(v, p, m)))
        .filter(|(m, q)| {
            let legal = !in_check(q, us) && !mates(m, q);
            let ends_facing = !(faced && facing(v, q));
            **m == RefMove::Pass || legal && ends_facing
        })
        .map(|(m, mut q)| {
            q.passes = if faced && facing(v, &q) {
                3
            } else if *m != RefMove::Pass {
                0
            } else if p.passes == 1 {
                2
            } else {
                1
            };
            q
        })
        .map(|mut q| {
            // `check-limit`: a move that leaves the next side in check counts for the mover.
            if v.rules.check_limit > 0 && in_check(&q, q.to_move) {
                q.checks[us] += 1;
            }
            q
        })
        .collect()
}

/// Whether two royal pieces of different teams see each other along the `facing` headings: the
/// first piece met stepping straight on from one is the other.
fn facing(v: &Variant, p: &RefPos) -> bool {
    (0..p.board.len()).any(|c| {
        let Some((side, _)) = p.board[c].filter(|_| holds_royal(v, p, c)) else { return false };
        v.rules.facing.iter().any(|&h| {
            let (mut cell, mut heading) = (c, h);
            for _ in 0..p.board.len() {
                let Some((next, arrival)) = v.board.step(cell, heading) else { return false };
                if next == c {
                    return false;
                }
                if let Some((other, _)) = p.board[next] {
                    return v.sides[other].team != v.sides[side].team && !p.out[other] && holds_royal(v, p, next);
                }
                (cell, heading) = (next, arrival);
            }
            false
        })
    })
}

/// A goal is met: a side's piece on a cell it must reach, a side with the checks of the limit
/// given, or a side without a piece of an `extinction` kind (on top, hidden or in the hand).
fn goal_met(v: &Variant, p: &RefPos) -> bool {
    (0..v.sides.len()).filter(|&s| !p.out[s]).any(|s| {
        let reached = v.sides[s].reach.iter().any(|(k, cells)| cells.iter().any(|&c| p.board[c] == Some((s, *k))));
        let checks = v.rules.check_limit > 0 && p.checks[s] >= v.rules.check_limit;
        let extinct = v.rules.extinction.iter().any(|&k| {
            let on_board = (0..p.board.len()).any(|c| p.board[c] == Some((s, k)) || (p.hidden[c] == Some(k) && p.board[c].is_some_and(|(o, _)| o == s)));
            !on_board && !p.hand[s].contains(&k)
        });
        reached || checks || extinct
    })
}

/// The positions after each legal move, eliminations made.
pub fn legal(v: &Variant, p: &RefPos) -> Vec<RefPos> {
    unsettled_legal(v, p).into_iter().map(|q| settle(v, q)).collect()
}

pub fn perft(v: &Variant, p: &RefPos, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = legal(v, p);
    if depth == 1 {
        return next.len() as u64;
    }
    next.iter().map(|q| perft(v, q, depth - 1)).sum()
}

/// The placement part of the general notation, for matching boards.
pub fn board_part(general: &str) -> String {
    general.split_whitespace().filter(|t| !t.starts_with("clock=") && !t.starts_with("move=") && !t.starts_with("virgin=") && !t.starts_with("ep=")).collect::<Vec<_>>().join(" ")
}

/// How a kind is written in positions: its symbol, and a crowned piece's crown in parentheses.
fn piece_text(v: &Variant, k: usize) -> String {
    match v.pieces[k].crowned {
        Some((_, crown)) => format!("{}({})", v.pieces[k].symbol, v.pieces[crown].symbol),
        None => v.pieces[k].symbol.to_string(),
    }
}

pub fn general(v: &Variant, p: &RefPos) -> String {
    let mut parts = vec![format!("turn={}", v.sides[p.to_move].name)];
    for (s, side) in v.sides.iter().enumerate() {
        let pieces: Vec<String> = (0..p.board.len())
            .filter_map(|c| match p.board[c] {
                Some((ps, k)) if ps == s => {
                    // A stack is written top first: `P/R(K)z2`.
                    let under = p.hidden[c]
                        .map(|h| format!("/{}", piece_text(v, h)))
                        .unwrap_or_default();
                    Some(format!(
                        "{}{under}{}",
                        piece_text(v, k),
                        v.board.cells[c].name
                    ))
                }
                _ => None,
            })
            .collect();
        parts.push(format!("{}={}", side.name, pieces.join(",")));
    }
    // `hand=white:K,black:K`: the held symbols in kind order, sides without any left out.
    let hands: Vec<String> = (0..v.sides.len())
        .filter(|&s| !p.hand[s].is_empty())
        .map(|s| {
            format!(
                "{}:{}",
                v.sides[s].name,
                p.hand[s]
                    .iter()
                    .map(|&k| v.pieces[k].symbol)
                    .collect::<String>()
            )
        })
        .collect();
    if !hands.is_empty() {
        parts.push(format!("hand={}", hands.join(",")));
    }
    if p.out.iter().any(|&o| o) {
        let out: Vec<&str> = (0..v.sides.len()).filter(|&s| p.out[s]).map(|s| v.sides[s].name.as_str()).collect();
        parts.push(format!("out={}", out.join(",")));
    }
    if p.checks.iter().any(|&n| n > 0) {
        let given: Vec<String> = (0..v.sides.len()).map(|s| format!("{}:{}", v.sides[s].name, p.checks[s])).collect();
        parts.push(format!("checks={}", given.join(",")));
    }
    match p.passes {
        1 => parts.push("pass=last".into()),
        2 => parts.push("pass=twice".into()),
        3 => parts.push("pass=facing".into()),
        _ => {}
    }
    parts.join(" ")
}

/// Reads a piece written as in [`piece_text`] off the front of `text`: the kind and the rest.
fn read_piece<'a>(v: &Variant, text: &'a str) -> (usize, &'a str) {
    let symbol = text.chars().next().expect("symbol");
    // Derived (crowned) kinds share their carrier's symbol and come after it.
    let by_symbol = |sym: char| {
        v.pieces
            .iter()
            .position(|pc| pc.symbol == sym && pc.crowned.is_none())
            .unwrap_or_else(|| panic!("no piece {sym}"))
    };
    let k = by_symbol(symbol);
    let rest = &text[symbol.len_utf8()..];
    match rest.strip_prefix('(') {
        Some(inner) => {
            let crown = inner.chars().next().expect("crown");
            let rest = inner[crown.len_utf8()..]
                .strip_prefix(')')
                .expect("')' after the crown");
            (crowned_kind(v, k, by_symbol(crown)), rest)
        }
        None => (k, rest),
    }
}

/// A position from the general notation's `turn=`, side, `hand=`, `out=` and `virgin=` fields (no
/// en passant): for cross-checks from given positions.
#[allow(dead_code)]
pub fn from_general(v: &Variant, text: &str) -> RefPos {
    let mut p = empty(v);
    let side = |name: &str| {
        v.sides
            .iter()
            .position(|s| s.name == name)
            .unwrap_or_else(|| panic!("no side {name}"))
    };
    for token in text.split_whitespace() {
        let (key, value) = token.split_once('=').expect("KEY=VALUE");
        match key {
            "turn" => p.to_move = side(value),
            "out" => value.split(',').for_each(|s| p.out[side(s)] = true),
            "hand" => {
                for entry in value.split(',') {
                    let (name, symbols) = entry.split_once(':').expect("SIDE:PIECES");
                    let s = side(name);
                    p.hand[s].extend(symbols.chars().map(|sym| {
                        v.pieces
                            .iter()
                            .position(|pc| pc.symbol == sym && pc.crowned.is_none())
                            .expect("a held piece")
                    }));
                    p.hand[s].sort_unstable();
                }
            }
            "virgin" => {
                for name in value.split(',').filter(|n| !n.is_empty()) {
                    let c = v.board.cells.iter().position(|cell| cell.name == name).expect("cell");
                    p.virgin[c] = true;
                }
            }
            "checks" => {
                for entry in value.split(',') {
                    let (name, n) = entry.split_once(':').expect("SIDE:COUNT");
                    p.checks[side(name)] = n.parse().expect("a count");
                }
            }
            "pass" => {
                p.passes = match value {
                    "last" => 1,
                    "twice" => 2,
                    "facing" => 3,
                    _ => panic!("pass={value}"),
                }
            }
            "clock" | "move" => {}
            _ => {
                let s = side(key);
                for item in value.split(',').filter(|i| !i.is_empty()) {
                    let (k, rest) = read_piece(v, item);
                    let (under, name) = match rest.strip_prefix('/') {
                        Some(r) => {
                            let (h, name) = read_piece(v, r);
                            (Some(h), name)
                        }
                        None => (None, rest),
                    };
                    let c = v
                        .board
                        .cells
                        .iter()
                        .position(|cell| cell.name == name)
                        .expect("cell");
                    p.board[c] = Some((s, k));
                    p.hidden[c] = under;
                }
            }
        }
    }
    settle(v, p)
}
