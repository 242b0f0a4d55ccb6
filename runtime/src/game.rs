//! A game ready to play: the tables plus the bit sets move generation works on.
//!
//! Building a [`Game`] only converts lists from the (validated) tables into bit sets and indexes;
//! no geometry is derived here.

use crate::bits::CellSet;
use crate::tables::{Attack, GameEnd, Tables, NO_CELL};

/// A ray as move generation uses it.
#[derive(Clone, Copy, Debug)]
pub struct Ray<B> {
    pub flags: u8,
    /// Whether `must_empty` has any cell: most rays pass none, and on large boards testing the
    /// empty set costs a word per 64 cells.
    pub passes: bool,
    /// Cells that must be empty before any destination counts.
    pub must_empty: B,
    /// Destinations: `Game::pool[cells.0 .. cells.1]`.
    pub cells: (u32, u32),
    /// A slide's cells as runs in `Game::segments` (empty for other rays).
    pub segments: (u32, u32),
}

/// A run of a ray's or a line's cells whose indices rise (`up`) or fall all along it, within one
/// word of a cell set, so that the first occupied cell of the run is the lowest or highest bit of
/// `mask & occupied.word(word)`: rays and lines are followed run by run with a few operations on
/// one word rather than cell by cell, whatever the board's width (on a grid of up to 64 cells every
/// line is one run; elsewhere a line is cut wherever the numbering turns or crosses a word).
#[derive(Clone, Copy, Debug)]
pub struct Segment {
    pub mask: u64,
    pub word: u8,
    pub up: bool,
}

impl Segment {
    /// With `occupied`, the bits of the run's word: the run's cells passed before the first
    /// occupied one (all of them when none is), and that cell's bit.
    #[inline(always)]
    pub fn walk(&self, occupied: u64) -> (u64, Option<u32>) {
        let hit = self.mask & occupied;
        if hit == 0 {
            (self.mask, None)
        } else if self.up {
            let b = hit.trailing_zeros();
            (self.mask & ((1u64 << b) - 1), Some(b))
        } else {
            let b = 63 - hit.leading_zeros();
            (self.mask & ((!0u64 << b) << 1), Some(b))
        }
    }

    /// [`Segment::reach`] with no branch on whether a cell of the run is occupied (all the run's
    /// cells when none is): the answer is as hard to predict as the board.
    #[inline(always)]
    pub fn reach_whole(&self, occupied: u64) -> u64 {
        let hit = self.mask & occupied;
        // Up: the bits to the lowest occupied one (all when none is). Down: from the highest
        // (`| 1` makes an empty run give every bit).
        let up = hit ^ hit.wrapping_sub(1);
        let down = !0u64 << (63 - (hit | 1).leading_zeros());
        self.mask & if self.up { up } else { down }
    }

    /// With `occupied`, the bits of the run's word: the run's cells up to the first occupied
    /// one and with it, if there is one.
    #[inline(always)]
    pub fn reach(&self, occupied: u64) -> Option<u64> {
        let hit = self.mask & occupied;
        if hit == 0 {
            None
        } else if self.up {
            Some(self.mask & (hit ^ (hit - 1)))
        } else {
            Some(self.mask & (!0u64 << (63 - hit.leading_zeros())))
        }
    }
}

/// The occupied cells along runs, in order (see [`Game::occupied_along`]).
pub struct Along<'a, B> {
    runs: &'a [Segment],
    /// The index in `Game::segments` of `runs[0]`, and of the next run to look at in `runs`.
    base: usize,
    next_run: usize,
    occupied: B,
    /// The current run's word, its occupied cells not yet returned, and its direction.
    word: usize,
    hit: u64,
    up: bool,
}

impl<B> Along<'_, B> {
    /// The index in `Game::segments` of the run of the cell last returned.
    #[inline(always)]
    pub fn run(&self) -> usize {
        self.base + self.next_run - 1
    }
}

impl<B: CellSet> Iterator for Along<'_, B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.hit == 0 {
            let run = self.runs.get(self.next_run)?;
            self.next_run += 1;
            self.word = run.word as usize;
            self.up = run.up;
            self.hit = run.mask & self.occupied.word(self.word);
        }
        let b = if self.up { self.hit.trailing_zeros() } else { 63 - self.hit.leading_zeros() };
        self.hit &= !(1u64 << b);
        Some(self.word * 64 + b as usize)
    }
}

/// A piece's moves from one cell, sorted for generation (built from its rays when the game is
/// loaded): the unconditional leaps merged into two destination sets, the unconditional slides
/// and lame leaps (cells to pass, then the destination) as runs, and the rays with other
/// conditions (first move, en passant, cells to pass unattacked) one by one.
#[derive(Clone, Copy, Debug)]
pub struct PieceMoves<B> {
    /// Where plain leaps go when the cell is empty, and where they capture.
    pub leap_quiet: B,
    pub leap_capture: B,
    /// A range of `Game::slide_runs`: the plain slides and lame leaps, run after run.
    pub slides: (u32, u32),
    /// Whether every run of `slides` both moves and captures, and none returns to the start
    /// (a rider's): then the cells reached, blockers included, are found as one set
    /// ([`Segment::reach`]).
    pub plain_slides: bool,
    /// With `plain_slides`: whether each slide is one run (every line of a board of up to 64
    /// cells numbered row by row), so that no run is ever skipped because the one before it is
    /// blocked, and each run's reach is found with no test of whether it is
    /// ([`Segment::reach_whole`]).
    pub whole_runs: bool,
    /// A range of `Game::specials`: the other rays; those from `ep_only` on do nothing but
    /// capture en passant (skipped while no en-passant cell is set).
    pub specials: (u32, u32),
    pub ep_only: u32,
    /// Whether a move from here may promote (the cells it may reach meet its promotion zone).
    pub may_promote: bool,
    /// One cell per ray that blocks it when occupied: its first cell, or one it must find empty.
    /// When each holds a piece it may not capture (its own side's, an ally's), the piece has no
    /// move from here, and generation skips it: a cheap test that pays where many pieces are
    /// hemmed in by their own, as in the opening. Only with `gated` (every ray has such a cell);
    /// hops and winding rules are not rays, and their kinds are never skipped.
    pub gates: B,
    pub gated: bool,
    /// Whether the piece has nothing here but plain leaps (`leaps::PLAIN`: no slide, special
    /// ray, hop or winding rule), or those and initial steps (`leaps::INITIAL`: its special rays
    /// are a pawn's double steps, which pass at most one cell and set en-passant cells, and its
    /// captures en passant).
    /// Counted by set, its moves are then one set's size (with its promotions) and its double
    /// steps, found without the general walk: most of Webball's pieces, the soccer ball's pawns
    /// and guards, every knight, pawns.
    pub leaper: u8,
}

/// Kinds of [`PieceMoves::leaper`], one bit each (so that one test with what the position
/// allows picks them).
pub mod leaps {
    /// Other moves: the general walk.
    pub const NO: u8 = 0;
    pub const PLAIN: u8 = 1;
    /// Plain leaps, `initial en-passant-target` steps (a cell or more that must be empty, then
    /// the destination, quiet) and captures en passant (a piece that could take on an
    /// en-passant cell now takes the general walk: `Position::ep_capturing`).
    pub const INITIAL: u8 = 2;
}

/// One run of a plain slide (see [`Segment`]): `next` is the index of the next slide's first
/// run, where generation goes on once this slide is blocked.
#[derive(Clone, Copy, Debug)]
pub struct SlideRun {
    pub run: Segment,
    pub quiet: bool,
    pub capture: bool,
    /// The last run of a slide back to its start, where the rules allow stationary moves: met
    /// unblocked, the piece may make one.
    pub returns: bool,
    pub next: u32,
}

/// A ray with conditions, as generation follows it: its index in `Game::rays` and the flags
/// still to act on (a ray's plain capture may have gone into the leap sets, leaving only its
/// en passant here).
#[derive(Clone, Copy, Debug)]
pub struct Special {
    pub ray: u32,
    /// The ray's first destination and the one cell it passes (its destination when it passes
    /// none; `NO_CELL` when it passes more): a leaper's initial step is counted from these two
    /// alone, with no look at the ray (see `leaps::INITIAL`).
    pub to: u16,
    pub pass: u16,
    pub flags: u8,
}

impl Special {
    fn new<B: CellSet>(tables: &Tables, i: u32, r: &Ray<B>, flags: u8) -> Special {
        let to = tables.pool.get(r.cells.0 as usize).copied().filter(|_| r.cells.0 < r.cells.1).unwrap_or(NO_CELL);
        let mut passed = r.must_empty.iter();
        let pass = match (passed.next(), passed.next()) {
            (None, _) => to,
            (Some(c), None) => c as u16,
            _ => NO_CELL,
        };
        Special { ray: i, to, pass, flags }
    }
}

/// Cuts `cells` into runs of rising or falling indices within one word, appended to `out`;
/// returns their range.
fn segments_of(cells: &[u16], out: &mut Vec<Segment>) -> (u32, u32) {
    runs_of(cells, |_, _| true, out)
}

/// As [`segments_of`], cutting also between the cells `i - 1` and `i` where `!same(i - 1, i)`.
fn runs_of(cells: &[u16], same: impl Fn(usize, usize) -> bool, out: &mut Vec<Segment>) -> (u32, u32) {
    let start = out.len();
    let word = |c: u16| c / 64;
    let mut i = 0;
    while i < cells.len() {
        let up = i + 1 < cells.len() && cells[i + 1] > cells[i];
        let mut j = i + 1;
        while j < cells.len()
            && word(cells[j]) == word(cells[i])
            && (if up { cells[j] > cells[j - 1] } else { cells[j] < cells[j - 1] })
            && same(j - 1, j)
        {
            j += 1;
        }
        let mask = cells[i..j].iter().fold(0u64, |m, &c| m | 1 << (c % 64));
        out.push(Segment { mask, word: word(cells[i]) as u8, up });
        i = j;
    }
    (start as u32, out.len() as u32)
}

/// A winding rule as move generation uses it: from a cell of `zone`, flood through empty zone
/// cells; `next[cell]` is the zone cells one step from `cell`.
#[derive(Clone, Debug)]
pub struct WindRule<B> {
    pub flags: u8,
    pub zone: B,
    pub next: Vec<B>,
}

/// A line out from a target cell, for attack tests and pins.
#[derive(Clone, Copy, Debug)]
pub struct Line<B> {
    /// All cells of the line, to skip it quickly when no possible attacker stands on it.
    pub set: B,
    /// The line's cells as runs in `Game::segments`, cut also where the kinds that attack from
    /// them change (`Game::run_kinds`), so that an attack test needs only the first occupied
    /// cell and its run, never a walk cell by cell.
    pub segments: (u32, u32),
    /// The line's first cell when it shares a run with cells whose attackers it lacks (it has
    /// none: an adjacent attacker is a direct one), else `NO_CELL`.
    pub first: u16,
}

#[derive(Clone, Debug)]
pub struct Promotion<B> {
    pub zone: B,
    pub choices: Vec<u8>,
    /// The cells of `zone` where the piece may also stay as it is (`optional`, and no
    /// compulsory zone of the piece holds them).
    pub optional: B,
    /// Per choice: how many the side may have on the board before promoting to it (`captured`:
    /// as many as it set up), `u32::MAX` without a limit.
    pub limit: Vec<u32>,
    /// Cells a move starting on may promote, optionally (`from-or-to` zones).
    pub from: B,
}

#[derive(Clone, Debug)]
pub struct Castle<B> {
    pub king_from: u16,
    pub king_to: u16,
    pub rook_from: u16,
    pub rook_to: u16,
    /// `empty` minus the king's and rook's own cells.
    pub empty: B,
    /// `king_from` and `rook_from`: both must hold an unmoved piece of the side.
    pub home: B,
    pub safe: Vec<u16>,
    /// `safe` as a set.
    pub safe_set: B,
    /// Whether the king's safety must be tested again with king and rook moved
    /// (`Position::castle_safe`). Not when `king_to` is among the `safe` cells (tested with the
    /// king still home) and no attack line of `king_to` passes the vacated `king_from` or
    /// `rook_from` before the rook's or king's new cell with a cell beyond it: then moving them
    /// opens no line to `king_to` (the new cells only block, with our own pieces), and direct
    /// attacks do not depend on the board. Hops and winding paths may: always tested with them.
    pub recheck: bool,
}

/// Everything the engine needs, indexed for speed. `ck` = colored kind = `side * kinds + kind`.
#[derive(Clone, Debug)]
pub struct Game<B> {
    pub tables: Tables,
    pub cells: usize,
    pub kinds: usize,
    pub sides: usize,
    pub pool: Vec<u16>,
    pub rays: Vec<Ray<B>>,
    /// Runs of the slides' and lines' cells (see [`Segment`]).
    pub segments: Vec<Segment>,
    /// Per `ck * cells + cell`: the moves sorted for generation.
    pub piece_moves: Vec<PieceMoves<B>>,
    pub slide_runs: Vec<SlideRun>,
    pub specials: Vec<Special>,
    /// Per `ck * cells + cell`, a range into `rays`.
    pub ray_index: Vec<(u32, u32)>,
    /// Per `(target * sides + attacking side)`: a range into `direct`.
    pub direct_index: Vec<u32>,
    /// Direct attackers: a piece of colored kind `.0` on a cell of `.1` attacks the target.
    pub direct: Vec<(u8, B)>,
    /// Per `(target * sides + attacking side)`: every cell of its direct attackers, to skip them
    /// all with one test when the side has no piece there.
    pub direct_reach: Vec<B>,
    /// Per `ck * cells + cell`: the targets a piece of colored kind `ck` on `cell` attacks
    /// directly (`direct` inverted), so that the direct attacks on several targets are found from
    /// the few pieces near them.
    pub direct_from: Vec<B>,
    /// Whether a direct attack test looks at the pieces near the target (`direct_from`) rather
    /// than at each kind that could attack it (`direct`): where, on average, more than three
    /// kinds of a side attack a cell directly.
    pub direct_by_piece: bool,
    /// Per target: a range into `lines`.
    pub line_index: Vec<u32>,
    pub lines: Vec<Line<B>>,
    /// Per run of `segments` that belongs to a line: the colored kinds that attack the line's
    /// target from its cells (0 for the runs of slides).
    pub run_kinds: Vec<u64>,
    /// Per side: the colored kinds that attack along lines (sliders).
    pub line_cks: Vec<Vec<u8>>,
    /// Bit `ck` set when colored kind `ck` attacks along lines (`line_cks` as one mask).
    pub line_ck_mask: u64,
    /// Bit `ck` set when colored kind `ck` is royal (kept apart in `Position::royal_tops`).
    pub royal_ck_mask: u64,
    /// Per target: every cell of its lines, to skip them all with one test.
    pub line_reach: Vec<B>,
    /// Per colored kind: the cells from which its line attacks are its plain slides' reach
    /// (`line_attacks::lines_as_slides`).
    pub lines_as_slides: Vec<B>,
    /// Per side: its colored kinds that crown others (`crowns`) or are royal, the only ones
    /// whose pieces in the hand `Position::crown_moves` looks at.
    pub crowning_cks: Vec<Vec<u8>>,
    /// Per side: the mask of its colored kinds.
    pub side_cks: Vec<u64>,
    /// Per colored kind (at most 64): its side, looked up rather than divided on the hot path.
    pub side_of: [u8; 64],
    /// Per colored kind: whether it has winding or hop rules (followed apart from its rays: the
    /// other kinds' moves are found from their rays alone, even in games with such rules).
    pub walked: Vec<bool>,
    /// Per colored kind (at most 64): the leaper classes (`PieceMoves::leaper`) its cells have.
    /// When the position allows one of them, its pieces judged by set are looked at in a loop of
    /// their own first, those of an allowed class counted at once, with no gate test.
    pub kind_leaps: [u8; 64],
    /// Per side: its colored kinds, the most numerous in the setup first and royal ones last,
    /// the order in which [`Position::has_legal_move`](crate::position::Position) looks for a
    /// move (the first piece with one answers).
    pub any_order: Vec<Vec<u8>>,
    /// Per colored kind (at most 64): its kind, looked up rather than divided where hops test
    /// the kinds they jump over and take.
    pub kind_of: [u8; 64],
    /// Per colored kind: its promotion, if it has one.
    pub promotion: Vec<Option<Promotion<B>>>,
    /// Per side.
    pub castles: Vec<Vec<Castle<B>>>,
    /// Per side: the kings' start cells of its castling rules (no castling once none is unmoved).
    pub castle_kings: Vec<B>,
    /// Per colored kind.
    pub royal: Vec<bool>,
    pub resets_clock: Vec<bool>,
    /// Cells pieces cross but never stop on.
    pub transit: B,
    /// Per castling rule (all sides' in order): the king's and the rook's start.
    pub castle_cells: Vec<(usize, usize)>,
    /// Every cell of `castle_cells`: castling rights change only when one of these is moved
    /// from or taken.
    pub castle_cell_set: B,
    /// Per cell: which colored kinds could capture en passant onto it, from where.
    pub ep_capturers: Vec<Vec<(u8, B)>>,
    /// Per side: its team (teams numbered in the order they first appear).
    pub team: Vec<usize>,
    /// Per team: the mask of its sides (bit `side`).
    pub team_sides: Vec<u64>,
    /// Per side: the sides of the other teams, its opponents.
    pub opponents: Vec<Vec<usize>>,
    /// Whether sides can be eliminated: three or more teams under `game-end last-standing`. Only
    /// then does `make` look for a side that has to go out.
    pub eliminations: bool,
    /// Whether positions can hold stacks or pieces in the hand (`atop`, `hand`): only then do
    /// royal sets look beneath the top pieces and legality take the slow paths for stacks.
    pub stacks: bool,
    /// Pieces in hand that are dropped (`rules { drops }`, or a side starting with one).
    pub hands: Option<crate::drops::Hands<B>>,
    /// Per colored kind: it never attacks a royal piece (`cannot-check`).
    pub no_check: Vec<bool>,
    pub any_no_check: bool,
    /// Per colored kind: its winding rules (`wind`); `winding` when any kind has one (then
    /// legality watches the cells whose vacating extends an enemy flood, and plays every move in
    /// check: checks along winding paths are not in the tables).
    pub winders: Vec<Vec<WindRule<B>>>,
    pub winding: bool,
    /// Per side: the colored kinds that wind.
    pub wind_cks: Vec<Vec<u8>>,
    /// Per colored kind: its rules walked along their lines (`hop`, `takes`); `hopping` when any
    /// kind has one (then legality plays the moves that touch a royal piece's hop zone, and every
    /// move in check: [`crate::hops`]).
    pub hoppers: Vec<Vec<crate::hops::HopRule<B>>>,
    pub hopping: bool,
    /// `pass` and `facing` ([`crate::passing`]); `None` without either.
    pub passing: Option<crate::passing::Passing>,
    /// Per side: the colored kinds that have such rules.
    pub hop_cks: Vec<Vec<u8>>,
    /// Per `(carrier kind, crown kind)` (kinds, not colored): the crowned kind.
    pub crowned: Vec<(u8, u8, u8)>,
    /// Per side: the cells whose reach by a colored kind wins (`reach`), as (ck, cells).
    pub reach: Vec<Vec<(usize, B)>>,
    /// Whether any rule ends the game by a goal (`reach`, `check-limit`, `extinction`): only then
    /// does move generation ask whether the game is over.
    pub goals: bool,
    pub zobrist: Zobrist,
}

/// Random keys for position hashing (repetition detection).
#[derive(Clone, Debug)]
pub struct Zobrist {
    /// Per `ck * cells + cell`.
    pub piece: Vec<u64>,
    /// Per side to move.
    pub side: Vec<u64>,
    /// Per cell, for unmoved pieces (0 where no rule depends on it).
    pub virgin: Vec<u64>,
    /// Per cell, for en-passant targets.
    pub ep: Vec<u64>,
    /// Per castling rule (all sides' in order), while its king and rook have not moved.
    pub castle: Vec<u64>,
    /// Per side, while it is out of the game (eliminated).
    pub out: Vec<u64>,
    /// Per `ck * cells + cell`, for a hidden piece beneath the top one.
    pub under: Vec<u64>,
    /// Per colored kind, times the number held in the hand.
    pub hand: Vec<u64>,
    /// Per `side * (check_limit + 1) + checks given` (`check-limit`; empty without it).
    pub checks: Vec<u64>,
}

/// Whether every one of `initial` is an initial step (`step` gives its destination), no two
/// landing on the same cell (the count adds one move per step, where the general walk gathers
/// them in a set).
fn initial_steps_apart(initial: &[Special], step: impl Fn(&Special) -> Option<u16>) -> bool {
    let mut seen = Vec::new();
    initial.iter().all(|sp| match step(sp) {
        Some(to) if !seen.contains(&to) => {
            seen.push(to);
            true
        }
        _ => false,
    })
}

/// Sorts every piece's rays for generation (see [`PieceMoves`]).
#[allow(clippy::type_complexity)]
fn sort_moves<B: CellSet>(tables: &Tables, rays: &[Ray<B>], segments: &[Segment]) -> (Vec<PieceMoves<B>>, Vec<SlideRun>, Vec<Special>) {
    use crate::tables::ray::*;
    let mut piece_moves = Vec::with_capacity(tables.ray_index.len());
    let mut runs = Vec::new();
    let mut specials = Vec::new();
    // A slide back to its start makes a stationary move where the rules allow one.
    let returns = if tables.rules.stationary_moves { RETURNS } else { 0 };
    for &(start, end) in &tables.ray_index {
        let mut m = PieceMoves {
            leap_quiet: B::default(),
            leap_capture: B::default(),
            slides: (runs.len() as u32, 0),
            plain_slides: false,
            whole_runs: false,
            specials: (specials.len() as u32, 0),
            ep_only: 0,
            may_promote: true,
            gates: B::default(),
            gated: true,
            leaper: leaps::NO,
        };
        let mut ep_only = Vec::new();
        for i in start..end {
            let r = &rays[i as usize];
            let f = r.flags;
            let gate = if r.passes { r.must_empty.iter().next() } else { tables.pool[r.cells.0 as usize..r.cells.1 as usize].first().map(|&c| c as usize) };
            match gate {
                Some(c) => m.gates.insert(c),
                None => m.gated = false,
            }
            // A plain lame leap (a step then a step, the first cell empty), or a slide that starts
            // past cells that must be empty, is followed as runs too: the cells to pass, which
            // land nowhere (an occupied one blocks it as it blocks a slide), then the
            // destination or the slide's runs.
            let lame = r.passes && f & !(QUIET | CAPTURE | SLIDE) == 0 && (f & SLIDE == 0 || r.segments.0 < r.segments.1);
            let conditional = (r.passes && !lame) || f & (INITIAL | EP_TARGET | PASS_UNATTACKED) != 0 || (f & returns != 0 && (f & SLIDE == 0 || r.segments.0 == r.segments.1));
            if conditional {
                specials.push(Special::new(tables, i, r, f));
            } else if f & SLIDE != 0 || lame {
                let passed: Vec<u16> = r.must_empty.iter().map(|c| c as u16).collect();
                let mut segs = Vec::new();
                let (_, landing) = segments_of(&passed, &mut segs);
                if f & SLIDE != 0 {
                    segs.extend_from_slice(&segments[r.segments.0 as usize..r.segments.1 as usize]);
                } else {
                    segments_of(&tables.pool[r.cells.0 as usize..r.cells.1 as usize], &mut segs);
                }
                let next = (runs.len() + segs.len()) as u32;
                let back = f & returns != 0 && f & QUIET != 0;
                runs.extend(segs.iter().enumerate().map(|(k, &run)| SlideRun {
                    run,
                    quiet: k >= landing as usize && f & QUIET != 0,
                    capture: k >= landing as usize && f & CAPTURE != 0,
                    returns: back && k + 1 == segs.len(),
                    next,
                }));
            } else {
                let c = tables.pool[r.cells.0 as usize] as usize;
                if f & QUIET != 0 {
                    m.leap_quiet.insert(c);
                }
                if f & CAPTURE != 0 {
                    m.leap_capture.insert(c);
                }
                if f & EP_CAPTURE != 0 {
                    ep_only.push(Special::new(tables, i, r, EP_CAPTURE));
                }
            }
        }
        m.ep_only = specials.len() as u32;
        specials.extend(ep_only);
        m.slides.1 = runs.len() as u32;
        m.plain_slides = runs[m.slides.0 as usize..].iter().all(|r| r.quiet && r.capture && !r.returns);
        m.whole_runs = m.plain_slides && runs.iter().enumerate().skip(m.slides.0 as usize).all(|(i, r)| r.next as usize == i + 1);
        m.specials.1 = specials.len() as u32;
        piece_moves.push(m);
    }
    (piece_moves, runs, specials)
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<B: CellSet> Game<B> {
    /// `tables` must have passed [`Tables::validate`] and have at most `B::CAPACITY` cells.
    pub fn new(tables: Tables) -> Game<B> {
        let cells = tables.cells.len();
        let kinds = tables.kinds.len();
        let sides = tables.sides.len();
        assert!(cells <= B::CAPACITY, "board too large for this cell set width");
        let pool = tables.pool.clone();
        let set_of = |range: (u32, u32)| {
            B::from_cells(pool[range.0 as usize..range.1 as usize].iter().map(|&c| c as usize))
        };
        let mut segments = Vec::new();
        let rays: Vec<Ray<B>> = tables
            .rays
            .iter()
            .map(|r| Ray {
                flags: r.flags,
                passes: r.must_empty.0 < r.must_empty.1,
                must_empty: set_of(r.must_empty),
                cells: r.cells,
                segments: if r.flags & crate::tables::ray::SLIDE != 0 {
                    segments_of(&pool[r.cells.0 as usize..r.cells.1 as usize], &mut segments)
                } else {
                    (0, 0)
                },
            })
            .collect();

        let transit = B::from_cells(tables.transit.iter().map(|&c| c as usize));
        let (mut piece_moves, mut slide_runs, specials) = sort_moves(&tables, &rays, &segments);
        // No piece ever stands on a transit cell: a plain move never ends there, and the runs
        // of plain slides leave them out (they never block), so that generation need not.
        for m in &mut piece_moves {
            m.leap_quiet = m.leap_quiet.and_not(transit);
            m.leap_capture = m.leap_capture.and_not(transit);
        }
        for r in &mut slide_runs {
            r.run.mask &= !transit.word(r.run.word as usize);
        }

        let mut direct_index = vec![0u32];
        let mut direct = Vec::new();
        let mut line_index = vec![0u32];
        let mut lines = Vec::new();
        let mut run_kinds = Vec::new();
        let mut line_cks = vec![Vec::new(); sides];
        for t in 0..cells {
            let range = tables.attack_index[t] as usize..tables.attack_index[t + 1] as usize;
            for side in 0..sides {
                for a in &tables.attacks[range.clone()] {
                    if let Attack::Direct { ck, cells } = *a {
                        if ck as usize / kinds == side {
                            direct.push((ck, set_of(cells)));
                        }
                    }
                }
                direct_index.push(direct.len() as u32);
            }
            for a in &tables.attacks[range] {
                if let Attack::Line { cells: c, masks } = *a {
                    let line_cells = &pool[c.0 as usize..c.1 as usize];
                    let line_masks = &tables.masks[masks as usize..(masks + c.1 - c.0) as usize];
                    // The first cell has no line attackers; it joins the next cell's run.
                    let first_apart = line_masks.len() > 1 && line_masks[0] == 0 && line_masks[1] != 0;
                    let kinds_at = |i: usize| if i == 0 && first_apart { line_masks[1] } else { line_masks[i] };
                    let runs = runs_of(line_cells, |i, j| kinds_at(i) == kinds_at(j), &mut segments);
                    run_kinds.resize(runs.0 as usize, 0);
                    let mut i = 0;
                    for run in &segments[runs.0 as usize..runs.1 as usize] {
                        run_kinds.push(kinds_at(i));
                        i += run.mask.count_ones() as usize;
                    }
                    lines.push(Line {
                        set: set_of(c),
                        segments: runs,
                        first: if first_apart { line_cells[0] } else { NO_CELL },
                    });
                    for i in 0..(c.1 - c.0) {
                        let mut m = tables.masks[(masks + i) as usize];
                        while m != 0 {
                            let ck = m.trailing_zeros() as u8;
                            m &= m - 1;
                            let list = &mut line_cks[ck as usize / kinds];
                            if !list.contains(&ck) {
                                list.push(ck);
                            }
                        }
                    }
                }
            }
            line_index.push(lines.len() as u32);
        }
        run_kinds.resize(segments.len(), 0);

        let mut promotion = vec![None; sides * kinds];
        let mut castles = Vec::new();
        for (s, side) in tables.sides.iter().enumerate() {
            // A piece's promotions (one per zone) share their choices: zones and optional cells merge.
            for p in &side.promotions {
                let zone = B::from_cells(p.zone.iter().map(|&c| c as usize));
                let slot: &mut Option<Promotion<B>> = &mut promotion[s * kinds + p.kind as usize];
                let merged = slot.get_or_insert_with(|| Promotion { zone: B::default(), choices: p.choices.clone(), optional: B::default(), limit: Vec::new(), from: B::default() });
                if p.from_or_to {
                    merged.from = merged.from.or(zone);
                }
                let compulsory = merged.zone.and_not(merged.optional);
                merged.zone = merged.zone.or(zone);
                merged.optional = if p.optional { merged.optional.or(zone.and_not(compulsory)) } else { merged.optional.and_not(zone) };
                merged.limit = p
                    .choices
                    .iter()
                    .map(|&c| {
                        if p.captured {
                            side.setup.iter().chain(&side.atop).filter(|&&(_, k)| k == c).count() as u32
                        } else {
                            u32::MAX
                        }
                    })
                    .collect();
            }
            castles.push(
                side.castles
                    .iter()
                    .map(|c| {
                        let mut empty = B::from_cells(c.empty.iter().map(|&x| x as usize));
                        empty.remove(c.king_from as usize);
                        empty.remove(c.rook_from as usize);
                        let kt = c.king_to as usize;
                        let opens = tables.attacks[tables.attack_index[kt] as usize..tables.attack_index[kt + 1] as usize].iter().any(|a| {
                            let Attack::Line { cells: r, .. } = *a else { return false };
                            let line = &pool[r.0 as usize..r.1 as usize];
                            let ends = line.iter().position(|&x| x == c.rook_to || x == c.king_to).unwrap_or(line.len());
                            line[..ends].iter().enumerate().any(|(i, &x)| (x == c.king_from || x == c.rook_from) && i + 1 < line.len())
                        });
                        let recheck = opens || !c.safe.contains(&c.king_to) || !tables.winders.is_empty() || !tables.hoppers.is_empty();
                        Castle {
                            king_from: c.king_from,
                            king_to: c.king_to,
                            rook_from: c.rook_from,
                            rook_to: c.rook_to,
                            empty,
                            home: B::from_cells([c.king_from as usize, c.rook_from as usize]),
                            safe: c.safe.clone(),
                            safe_set: B::from_cells(c.safe.iter().map(|&x| x as usize)),
                            recheck,
                        }
                    })
                    .collect(),
            );
        }
        let castle_kings = castles.iter().map(|cs: &Vec<Castle<B>>| B::from_cells(cs.iter().map(|c| c.king_from as usize))).collect();
        for (i, m) in piece_moves.iter_mut().enumerate() {
            m.may_promote = promotion[i / cells].as_ref().is_some_and(|p: &Promotion<B>| {
                p.from.has(i % cells) || tables.rays_at(i).iter().any(|r| set_of(r.cells).intersects(p.zone))
            });
        }
        let direct_reach = direct_index
            .windows(2)
            .map(|w| direct[w[0] as usize..w[1] as usize].iter().fold(B::default(), |r: B, &(_, set): &(u8, B)| r.or(set)))
            .collect();
        let direct_by_piece = direct.len() > 3 * (direct_index.len() - 1);
        let mut direct_from = vec![B::default(); sides * kinds * cells];
        for (di, w) in direct_index.windows(2).enumerate() {
            for &(ck, set) in &direct[w[0] as usize..w[1] as usize] {
                for c in set.iter() {
                    direct_from[ck as usize * cells + c].insert(di / sides);
                }
            }
        }
        let royal: Vec<bool> = (0..sides * kinds).map(|ck| tables.kinds[ck % kinds].royal).collect();
        let crowning_cks = (0..sides)
            .map(|s| (s * kinds..(s + 1) * kinds).filter(|&ck| royal[ck] || !tables.kinds[ck % kinds].crowns.is_empty()).map(|ck| ck as u8).collect())
            .collect();
        let line_reach = (0..cells)
            .map(|t| lines[line_index[t] as usize..line_index[t + 1] as usize].iter().fold(B::default(), |r: B, l: &Line<B>| r.or(l.set)))
            .collect();
        let line_ck_mask = line_cks.iter().flatten().fold(0u64, |m, &ck| m | 1 << ck);
        let lines_as_slides = crate::line_attacks::lines_as_slides(&tables, &piece_moves, &slide_runs, &direct_from, line_ck_mask, transit);
        let resets_clock = (0..sides * kinds).map(|ck| tables.kinds[ck % kinds].resets_clock).collect();

        let mut seed = 0x0b15_c0de_u64;
        let keys = |n: usize, seed: &mut u64| (0..n).map(|_| splitmix(seed)).collect::<Vec<u64>>();
        let mut zobrist = Zobrist {
            piece: keys(sides * kinds * cells, &mut seed),
            side: keys(sides, &mut seed),
            virgin: keys(cells, &mut seed),
            ep: keys(cells, &mut seed),
            castle: Vec::new(),
            out: Vec::new(),
            under: Vec::new(),
            hand: Vec::new(),
            checks: Vec::new(),
        };
        // Whether a piece has moved belongs to the position (for repetition) only where a rule
        // depends on it: setup cells of kinds with `initial` moves here, castling rights below.
        let mut matters = vec![false; cells];
        let mut castle_cells = Vec::new();
        for (s, side) in tables.sides.iter().enumerate() {
            for c in &side.castles {
                castle_cells.push((c.king_from as usize, c.rook_from as usize));
            }
            for &(cell, kind) in &side.setup {
                let i = (s * kinds + kind as usize) * cells + cell as usize;
                let rays = tables.rays_at(i);
                if rays.iter().any(|r| r.flags & crate::tables::ray::INITIAL != 0) {
                    matters[cell as usize] = true;
                }
            }
        }
        for (key, m) in zobrist.virgin.iter_mut().zip(matters) {
            if !m {
                *key = 0;
            }
        }
        zobrist.castle = (0..castle_cells.len()).map(|_| splitmix(&mut seed)).collect();
        zobrist.out = keys(sides, &mut seed);
        let stacks = tables
            .sides
            .iter()
            .any(|s| !s.atop.is_empty() || s.hand.iter().any(|&k| !tables.kinds[k as usize].crowns.is_empty()));
        let hands = crate::drops::Hands::new(&tables, B::from_cells(tables.transit.iter().map(|&c| c as usize)));
        if stacks || hands.is_some() {
            zobrist.under = keys(sides * kinds * cells, &mut seed);
            zobrist.hand = keys(sides * kinds, &mut seed);
        } else {
            zobrist.hand = vec![0; sides * kinds];
        }
        let limit = usize::from(tables.rules.check_limit);
        if limit > 0 {
            zobrist.checks = keys(sides * (limit + 1), &mut seed);
        }
        let reach: Vec<Vec<(usize, B)>> = tables
            .sides
            .iter()
            .enumerate()
            .map(|(s, side)| {
                let mut per: Vec<(usize, B)> = Vec::new();
                for &(kind, cell) in &side.reach {
                    let ck = s * kinds + kind as usize;
                    match per.iter_mut().find(|(c, _)| *c == ck) {
                        Some((_, set)) => set.insert(cell as usize),
                        None => per.push((ck, B::single(cell as usize))),
                    }
                }
                per
            })
            .collect();
        let goals = limit > 0 || tables.rules.extinction != 0 || reach.iter().any(|r| !r.is_empty());
        let no_check: Vec<bool> = (0..sides * kinds)
            .map(|ck| tables.kinds[ck % kinds].cannot_check)
            .collect();
        let any_no_check = no_check.iter().any(|&b| b);
        let crowned = tables
            .kinds
            .iter()
            .enumerate()
            .filter_map(|(t, k)| k.crowned.map(|(c, r)| (c, r, t as u8)))
            .collect();
        // Who could take en passant on each cell: an en passant only belongs to the position when
        // someone can take it.
        let mut ep_capturers: Vec<Vec<(u8, B)>> = vec![Vec::new(); cells];
        for ck in 0..sides * kinds {
            for origin in 0..cells {
                let i = ck * cells + origin;
                for r in tables.rays_at(i) {
                    if r.flags & crate::tables::ray::EP_CAPTURE != 0 {
                        let target = tables.pool[r.cells.0 as usize] as usize;
                        let list = &mut ep_capturers[target];
                        match list.iter_mut().find(|(k, _)| *k as usize == ck) {
                            Some((_, set)) => set.insert(origin),
                            None => list.push((ck as u8, B::single(origin))),
                        }
                    }
                }
            }
        }
        let side_cks = (0..sides).map(|s| (((1u128 << kinds) - 1) as u64) << (s * kinds)).collect();
        let mut team_names: Vec<&str> = Vec::new();
        let team: Vec<usize> = tables
            .sides
            .iter()
            .map(|s| match team_names.iter().position(|t| *t == s.team) {
                Some(t) => t,
                None => {
                    team_names.push(&s.team);
                    team_names.len() - 1
                }
            })
            .collect();
        let mut team_sides = vec![0u64; team_names.len()];
        for (s, &t) in team.iter().enumerate() {
            team_sides[t] |= 1 << s;
        }
        let opponents = (0..sides).map(|s| (0..sides).filter(|&o| team[o] != team[s]).collect()).collect();
        let eliminations = team_sides.len() >= 3 && tables.rules.game_end == GameEnd::LastStanding;
        let mut winders: Vec<Vec<WindRule<B>>> = vec![Vec::new(); sides * kinds];
        let mut wind_cks = vec![Vec::new(); sides];
        for w in &tables.winders {
            let mut next = vec![B::default(); cells];
            for (i, &c) in w.zone.iter().enumerate() {
                next[c as usize] = B::from_cells(w.adjacency[i].iter().map(|&d| d as usize));
            }
            let rule = WindRule { flags: w.flags, zone: B::from_cells(w.zone.iter().map(|&c| c as usize)), next };
            for (s, cks) in wind_cks.iter_mut().enumerate() {
                let ck = s * kinds + w.kind as usize;
                winders[ck].push(rule.clone());
                if !cks.contains(&(ck as u8)) {
                    cks.push(ck as u8);
                }
            }
        }
        let winding = !tables.winders.is_empty();
        let (hoppers, hop_cks) = crate::hops::hop_rules(&tables.hoppers, cells, sides * kinds, sides, kinds);
        let hopping = !tables.hoppers.is_empty();
        // Winding and hop moves are not in the rays: their pieces may promote wherever they
        // stand, and are never skipped for their blocked rays.
        for ck in 0..sides * kinds {
            if !winders[ck].is_empty() || !hoppers[ck].is_empty() {
                for m in &mut piece_moves[ck * cells..(ck + 1) * cells] {
                    m.may_promote = promotion[ck].is_some();
                    m.gated = false;
                }
            } else {
                use crate::tables::ray::{EP_TARGET, INITIAL, QUIET, SLIDE};
                // A quiet double step that sets en-passant cells, while the piece is unmoved.
                let step = |sp: &Special| {
                    let r = &rays[sp.ray as usize];
                    let plain = sp.flags == INITIAL | EP_TARGET | QUIET && r.flags & SLIDE == 0 && r.cells.1 - r.cells.0 == 1 && sp.pass != NO_CELL;
                    plain.then(|| tables.pool[r.cells.0 as usize])
                };
                for m in &mut piece_moves[ck * cells..(ck + 1) * cells] {
                    m.leaper = if m.slides.0 != m.slides.1 {
                        leaps::NO
                    } else if m.specials.0 == m.specials.1 {
                        leaps::PLAIN
                    } else if !m.may_promote && initial_steps_apart(&specials[m.specials.0 as usize..m.ep_only as usize], step) {
                        leaps::INITIAL
                    } else {
                        leaps::NO
                    };
                }
            }
        }
        // The leaper classes each kind has somewhere (see `Game::kind_leaps`).
        let kind_leaps = std::array::from_fn(|ck| piece_moves.get(ck * cells..(ck + 1) * cells).unwrap_or_default().iter().fold(0, |k, m| k | m.leaper));
        let walked = (0..sides * kinds).map(|ck| !winders[ck].is_empty() || !hoppers[ck].is_empty()).collect();
        let any_order = (0..sides)
            .map(|s| {
                let side = &tables.sides[s];
                let count = |k: usize| side.setup.iter().chain(&side.atop).filter(|&&(_, kind)| kind as usize == k).count();
                let mut order: Vec<usize> = (0..kinds).collect();
                order.sort_by_key(|&k| (royal[s * kinds + k], std::cmp::Reverse(count(k))));
                order.into_iter().map(|k| (s * kinds + k) as u8).collect()
            })
            .collect();
        let passing = crate::passing::Passing::new(&tables, cells, [0, splitmix(&mut seed), splitmix(&mut seed), splitmix(&mut seed)]);
        Game {
            passing,
            kind_leaps,
            hoppers,
            hopping,
            hop_cks,
            winders,
            winding,
            wind_cks,
            stacks,
            hands,
            no_check,
            any_no_check,
            crowned,
            team,
            team_sides,
            opponents,
            eliminations,
            castle_cell_set: castle_cells.iter().fold(B::default(), |s, &(k, r)| s.or(B::single(k)).or(B::single(r))),
            castle_cells,
            ep_capturers,
            transit,
            side_cks,
            side_of: std::array::from_fn(|ck| (ck / kinds.max(1)).min(255) as u8),
            kind_of: std::array::from_fn(|ck| (ck % kinds.max(1)) as u8),
            any_order,
            walked,
            cells,
            kinds,
            sides,
            pool,
            rays,
            segments,
            piece_moves,
            slide_runs,
            specials,
            ray_index: tables.ray_index.clone(),
            direct_index,
            direct,
            direct_reach,
            direct_from,
            direct_by_piece,
            line_index,
            lines,
            run_kinds,
            line_ck_mask,
            royal_ck_mask: royal.iter().enumerate().fold(0u64, |m, (ck, &r)| m | (r as u64) << (ck & 63)),
            line_cks,
            line_reach,
            lines_as_slides,
            crowning_cks,
            promotion,
            castles,
            castle_kings,
            royal,
            resets_clock,
            reach,
            goals,
            zobrist,
            tables,
        }
    }

    #[inline(always)]
    pub fn rays_of(&self, ck: usize, cell: usize) -> &[Ray<B>] {
        let i = ck * self.cells + cell;
        let (start, end) = self.ray_index[i];
        &self.rays[start as usize..end as usize]
    }

    #[inline(always)]
    pub fn cells_of(&self, range: (u32, u32)) -> &[u16] {
        &self.pool[range.0 as usize..range.1 as usize]
    }

    /// Along the runs `segments` of a slide or line with `occupied` cells: the cells passed
    /// before the first occupied one (all, when none is), and that cell.
    #[inline(always)]
    pub fn slide(&self, segments: (u32, u32), occupied: B) -> (B, Option<usize>) {
        let mut passed = B::default();
        for seg in &self.segments[segments.0 as usize..segments.1 as usize] {
            let k = seg.word as usize;
            let (bits, blocker) = seg.walk(occupied.word(k));
            passed.or_word(k, bits);
            if let Some(b) = blocker {
                return (passed, Some(k * 64 + b as usize));
            }
        }
        (passed, None)
    }

    /// The cells the plain slides `m` reach with `occupied` (`PieceMoves::plain_slides`),
    /// blockers included.
    #[inline(always)]
    pub fn slide_reach(&self, m: &PieceMoves<B>, occupied: B) -> B {
        let runs = &self.slide_runs[m.slides.0 as usize..m.slides.1 as usize];
        let base = m.slides.0 as usize;
        let mut reach = B::default();
        let mut i = 0;
        if m.whole_runs {
            for r in runs {
                let k = r.run.word as usize;
                reach.or_word(k, r.run.reach_whole(occupied.word(k)));
            }
            i = runs.len();
        }
        while let Some(r) = runs.get(i) {
            let k = r.run.word as usize;
            match r.run.reach(occupied.word(k)) {
                None => {
                    reach.or_word(k, r.run.mask);
                    i += 1;
                }
                Some(cells) => {
                    reach.or_word(k, cells);
                    i = r.next as usize - base;
                }
            }
        }
        reach
    }

    /// The colored kinds that attack the target of `line` from `cell`, found on the run `run`
    /// of the line ([`Along::run`]).
    #[inline(always)]
    pub fn kinds_on(&self, line: &Line<B>, run: usize, cell: usize) -> u64 {
        if cell == line.first as usize {
            0
        } else {
            self.run_kinds[run]
        }
    }

    /// The occupied cells along the runs `segments`, in order.
    #[inline(always)]
    pub fn occupied_along(&self, segments: (u32, u32), occupied: B) -> Along<'_, B> {
        Along { runs: &self.segments[segments.0 as usize..segments.1 as usize], base: segments.0 as usize, next_run: 0, occupied, word: 0, hit: 0, up: true }
    }

    pub fn cell_name(&self, cell: u16) -> &str {
        if cell == NO_CELL {
            "-"
        } else {
            &self.tables.cells[cell as usize]
        }
    }

    /// The cell a name means (its own name or an alias).
    pub fn cell_by_name(&self, name: &str) -> Option<u16> {
        self.tables.cell_by_name(name)
    }

    /// Every name of `cell`: its own first, then its aliases.
    pub fn cell_names(&self, cell: u16) -> Vec<&str> {
        let mut out = vec![self.cell_name(cell)];
        out.extend(self.tables.aliases.iter().filter(|(_, c)| *c == cell).map(|(a, _)| a.as_str()));
        out
    }

    /// How many teams have a side in the game (not in `out`).
    pub fn live_teams(&self, out: u64) -> usize {
        self.team_sides.iter().filter(|&&m| m & !out != 0).count()
    }

    /// The name of `side`'s team.
    pub fn team_name(&self, side: usize) -> &str {
        &self.tables.sides[side].team
    }

    /// The colored kind a piece of colored kind `carrier` becomes when colored kind `crown`
    /// crowns it (a validated table has it for every carrier the crown names).
    pub fn crowned_twin(&self, carrier: usize, crown: usize) -> usize {
        let side = carrier / self.kinds;
        let (c, k) = ((carrier % self.kinds) as u8, (crown % self.kinds) as u8);
        let twin = self
            .crowned
            .iter()
            .find(|&&(a, b, _)| a == c && b == k)
            .map_or(0, |&(_, _, t)| t);
        side * self.kinds + twin as usize
    }

    pub fn symbol(&self, kind: usize) -> char {
        self.tables.kinds[kind].symbol
    }
}

#[cfg(test)]
mod tests {
    use super::Segment;

    /// `reach_whole` gives what `reach` gives, and the whole run where `reach` finds no blocker,
    /// on runs of every length and place, up and down, against many occupancies.
    #[test]
    fn reach_whole_agrees_with_reach() {
        let mut state = 0x1234_5678_9abc_def0u64;
        for lo in 0..64u32 {
            for len in 1..=64 - lo {
                let bits = if len == 64 { !0 } else { ((1u64 << len) - 1) << lo };
                // Every other cell too: runs need not be contiguous bits.
                for mask in [bits, bits & 0x5555_5555_5555_5555] {
                    for up in [true, false] {
                        let run = Segment { mask, word: 0, up };
                        for _ in 0..8 {
                            let a = super::splitmix(&mut state);
                            let b = super::splitmix(&mut state);
                            // Half and a quarter of the cells occupied, and one cell.
                            for occupied in [a, a & b, 1 << (b % 64)] {
                                assert_eq!(run.reach_whole(occupied), run.reach(occupied).unwrap_or(mask), "{mask:#x} {up} {occupied:#x}");
                            }
                        }
                        assert_eq!(run.reach_whole(0), mask);
                        assert_eq!(run.reach_whole(!0), run.reach(!0).unwrap_or(mask));
                    }
                }
            }
        }
    }
}
