//! A game ready to play: the tables plus the bit sets move generation works on, and the queries
//! move generation makes of them.
//!
//! Building a [`Game`] ([`Game::new`]) is in `game_build.rs`: it only converts lists from the
//! (validated) tables into bit sets and indexes; no geometry is derived there.

use crate::bits::CellSet;
use crate::per64::Per64;
use crate::tables::{Tables, NO_CELL};

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

    /// The run's cells in the order a slide meets them (for building tables, not generation).
    pub fn cells(&self) -> impl Iterator<Item = u16> {
        let (mut bits, up, base) = (self.mask, self.up, self.word as u16 * 64);
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = if up { bits.trailing_zeros() } else { 63 - bits.leading_zeros() };
                bits &= !(1u64 << b);
                base + b as u16
            })
        })
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
    /// Whether every run of `slides` both moves and captures (a rider's): then the cells
    /// reached, blockers included, are found as one set ([`Segment::reach`]).
    pub plain_slides: bool,
    /// Whether a slide of the piece goes back to its start here, where the rules allow
    /// stationary moves (`SlideRun::returns`). Such a slide ends with one more run, of the
    /// start cell alone, which the piece blocks: with `plain_slides` the reach holds the start
    /// cell exactly when the slide gets back unblocked, a stationary move found with no walk
    /// run by run. (Walked, the run is met and blocked after the stationary move is found.)
    pub homing: bool,
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
    /// hemmed in by their own, as in the opening. Only with `gated` (every ray has such a cell).
    /// A winding rule's gates are the cells next to its start (its flood leaves through them);
    /// a hopping kind is never skipped (a hop leaps what blocks a ray).
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
    /// With `leaps::INITIAL`: whether the piece has exactly one initial step here, then `step`
    /// (its cell and the one it passes), counted with no walk over `specials`.
    pub one_step: bool,
    pub step: (u16, u16),
    /// Whether the piece, once moved, is a plain leaper here (`leaps::NO` only because an
    /// initial step of it, which it has only while unmoved, may promote): a pawn of the 5x5
    /// cube on a side face, whose double step would end on the promotion face. Its count is
    /// kept where it has moved (`crate::kept_counts`).
    pub moved_leaper: bool,
}

impl<B: CellSet> PieceMoves<B> {
    /// The moves of a piece that has none: a royal piece hidden in a stack
    /// (`crate::untouched`).
    pub(crate) fn still() -> Self {
        PieceMoves {
            leap_quiet: B::default(),
            leap_capture: B::default(),
            slides: (0, 0),
            plain_slides: false,
            homing: false,
            whole_runs: false,
            specials: (0, 0),
            ep_only: 0,
            may_promote: false,
            gates: B::default(),
            gated: false,
            leaper: leaps::NO,
            one_step: false,
            step: (0, 0),
            moved_leaper: false,
        }
    }
}

/// What could attack any of a royal piece's plain leaps' destinations from one cell, so that
/// the attacks on a lone royal piece's destinations are looked for with no union built
/// destination by destination ([`Position::safe_destinations`](crate::position::Position)):
/// a superset, used when every destination is such a leap.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoyalReach<B> {
    /// The cells of the enemy's direct attackers (`Game::direct_reach`, joined).
    pub direct: B,
    /// The cells of the lines through them (`Game::line_reach`, joined).
    pub lines: B,
    /// The cells where the enemy's hop ways onto them start (`Game::hop_attacks`, joined).
    pub hops: B,
}

/// The width of cell set (`CellSet::CAPACITY`) on which plain slides back to the start are
/// found from the reach (`PieceMoves::homing`); on the others they are walked run by run.
/// Yapsan's globe (64 cells) has such slides. A count with the test, compiled for every width,
/// made the other counts compile differently (the 8x8 cubes +2.3 instructions a leaf;
/// docs/performance.md).
pub const HOMING_WIDTH: usize = 64;

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
    /// unblocked, the piece may make one. (A run of the start cell alone follows it:
    /// `PieceMoves::homing`.)
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

/// A winding rule as move generation uses it: from a cell of `zone`, flood through empty zone
/// cells; `next[cell]` is the zone cells one step from `cell`.
#[derive(Clone, Debug)]
pub struct WindRule<B> {
    pub flags: u8,
    pub zone: B,
    pub next: Vec<B>,
}

/// A piece that may attack a target along one of the target's lines, seen from the pair of
/// cells: it attacks when its colored kind is in `kinds` and no cell of `between` is occupied.
#[derive(Clone, Copy, Debug)]
pub struct LinePair<B> {
    pub between: B,
    pub kinds: u64,
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
    /// The line's first cell when no piece attacks along the line from it (always, as the
    /// compiler writes lines: an adjacent attacker is a direct one), else `NO_CELL`. A piece
    /// there ends the line with no attack, whatever the kinds of the run it shares.
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
    /// With more than two sides, per target: `direct_reach` of every side at once (empty with
    /// two sides, which test the one opponent's).
    pub direct_reach_any: Vec<B>,
    /// Per `ck * cells + cell`: the targets a piece of colored kind `ck` on `cell` attacks
    /// directly (`direct` inverted), so that the direct attacks on several targets are found from
    /// the few pieces near them.
    pub direct_from: Vec<B>,
    /// With two sides, per `ck * cells + cell` of a royal kind: what could attack its plain
    /// leaps' destinations, joined over them all ([`RoyalReach`]); empty for the other kinds,
    /// with more sides, and on sets of one word (where it is not read). (Three sets per colored
    /// kind and cell, as `piece_moves` has two: Janggi's 60 KB. Kept for royal kinds alone, in a
    /// table per kind or per side, the lookup cost Janggi, Nelson and Shogi 0.3 to 0.6
    /// instructions a leaf.)
    pub royal_reach: Vec<RoyalReach<B>>,
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
    pub line_cks: Per64<Vec<u8>>,
    /// Bit `ck` set when colored kind `ck` attacks along lines (`line_cks` as one mask).
    pub line_ck_mask: u64,
    /// Bit `ck` set when colored kind `ck` is royal (kept apart in `Position::royal_tops`).
    pub royal_ck_mask: u64,
    /// Per target: every cell of its lines, to skip them all with one test.
    pub line_reach: Vec<B>,
    /// Per target `t` and cell `a`: the ways a piece on `a` may attack `t` along `t`'s lines,
    /// `line_pairs[line_pair_index[t * cells + a] .. line_pair_index[t * cells + a + 1]]`. An
    /// attack test then looks at the enemy line pieces in reach, a few sets each, instead of
    /// walking every line of the target run by run (lines that wrap round a globe have many).
    /// Both empty on boards wider than two words (`by_pairs` false). Where no two ways join a
    /// pair of cells (`many_ways` false), `line_pairs` holds one per pair of cells, at
    /// `t * cells + a` (with no kind where there is none), and the index is empty.
    pub line_pair_index: Vec<u32>,
    pub line_pairs: Vec<LinePair<B>>,
    /// Whether attacks along lines are found from the attackers' pairs (`line_pairs`): on
    /// boards of up to two words. On wider ones the cells between cost more words to test
    /// than a walk along the lines (the 8x8 cube +2.7 instructions a leaf, Webball +0.5), and
    /// the pairs take megabytes (the 488-cell test cube 9 MB). A flag, though the width
    /// decides it: as a constant of the cell set, the wide boards' count compiled differently
    /// with the same code path (the 8x8 cubes +3.6; docs/performance.md).
    pub by_pairs: bool,
    /// Whether a piece may attack a cell along lines in more than one way from somewhere
    /// (`line_pairs`, so known on boards of up to two words: lines that wrap round a globe or a
    /// cylinder, or meet at a pole): then perft's last parent keeps the attacks on the lone
    /// royal piece's destinations (`crate::kept_destinations`). On a flat board a look at a
    /// destination's lines costs less than keeping them (orthodox +0.5 instructions a leaf,
    /// Minishogi +3.5).
    pub many_ways: bool,
    /// Per colored kind: the cells where perft may keep its pieces' counts
    /// (`crate::kept_counts`), which depends on the rules alone.
    pub keep_cells: Per64<B>,
    /// Per colored kind: the cells from which its line attacks are its plain slides' reach
    /// (`line_attacks::lines_as_slides`).
    pub lines_as_slides: Per64<B>,
    /// Per side: its colored kinds that crown others (`crowns`), the only ones whose pieces in
    /// the hand `Position::crown_moves` looks at (no other royal kind is ever in a hand: the
    /// compiler refuses one there, and so does reading a position).
    pub crowning_cks: Per64<Vec<u8>>,
    /// Per side: the mask of its colored kinds.
    pub side_cks: Per64<u64>,
    /// Per colored kind (at most 64): its side, looked up rather than divided on the hot path.
    pub side_of: [u8; 64],
    /// Per colored kind: whether it has winding or hop rules that make moves (followed apart from
    /// its rays: the other kinds' moves are found from their rays alone, even in games with such
    /// rules). A rule that only captures royal pieces makes none with two sides (it only
    /// attacks: Xiangqi's flying general).
    pub walked: Per64<bool>,
    /// Per colored kind (at most 64): the leaper classes (`PieceMoves::leaper`) its cells have.
    /// When the position allows one of them, its pieces judged by set are looked at in a loop of
    /// their own first, those of an allowed class counted at once, with no gate test.
    pub kind_leaps: [u8; 64],
    /// Per side: its colored kinds, the most numerous in the setup first and royal ones last,
    /// the order in which [`Position::has_legal_move`](crate::position::Position) looks for a
    /// move (the first piece with one answers).
    pub any_order: Per64<Vec<u8>>,
    /// Per colored kind (at most 64): its kind, looked up rather than divided where hops test
    /// the kinds they jump over and take.
    pub kind_of: [u8; 64],
    /// Per colored kind: its promotion, if it has one.
    pub promotion: Per64<Option<Promotion<B>>>,
    /// Per side.
    pub castles: Per64<Vec<Castle<B>>>,
    /// Per side: the kings' start cells of its castling rules (no castling once none is unmoved).
    pub castle_kings: Per64<B>,
    /// Per colored kind.
    pub royal: Per64<bool>,
    pub resets_clock: Per64<bool>,
    /// Cells pieces cross but never stop on (those a set can hold: see [`Game::is_transit`]).
    pub transit: B,
    /// Per castling rule (all sides' in order): the king's and the rook's start.
    pub castle_cells: Vec<(usize, usize)>,
    /// Every cell of `castle_cells`: castling rights change only when one of these is moved
    /// from or taken.
    pub castle_cell_set: B,
    /// Per `cell * sides + side`: which colored kinds of the side could capture en passant onto
    /// the cell, from where.
    pub ep_capturers: Vec<Vec<(u8, B)>>,
    /// Per side: its team (teams numbered in the order they first appear).
    pub team: Per64<usize>,
    /// Per team: the mask of its sides (bit `side`).
    pub team_sides: Per64<u64>,
    /// Per side: the sides of the other teams, its opponents.
    pub opponents: Per64<Vec<usize>>,
    /// Whether sides can be eliminated: three or more teams under `game-end last-standing`. Only
    /// then does `make` look for a side that has to go out.
    pub eliminations: bool,
    /// Whether positions can hold stacks or pieces in the hand (`atop`, `hand`): only then do
    /// royal sets look beneath the top pieces and legality take the slow paths for stacks.
    pub stacks: bool,
    /// Pieces in hand that are dropped (`rules { drops }`, or a side starting with one).
    pub hands: Option<crate::drops::Hands<B>>,
    /// Per colored kind: it never attacks a royal piece (`cannot-check`).
    pub no_check: Per64<bool>,
    pub any_no_check: bool,
    /// Per colored kind: its winding rules (`wind`); `winding` when any kind has one (then
    /// legality watches the cells whose vacating extends an enemy flood, and plays every move in
    /// check: checks along winding paths are not in the tables).
    pub winders: Per64<Vec<WindRule<B>>>,
    pub winding: bool,
    /// Whether some piece has plain slides back to its start (`PieceMoves::homing` with
    /// `plain_slides`): then the count takes its copy that reads stationary moves from their
    /// reach (`Position::count_legal`). The other games take a copy without that test, which
    /// cost orthodox 0.8 instructions a leaf.
    pub homing: bool,
    /// Per side: the colored kinds that wind.
    pub wind_cks: Per64<Vec<u8>>,
    /// Per side: its opponents' winding kinds that capture, each with the cells of its
    /// capturing rules' zones (`Position::wind_zone` looks for a flood only when such a piece
    /// stands in a zone that holds the target).
    pub wind_threats: Per64<Vec<(u8, B)>>,
    /// Per colored kind: its rules walked along their lines (`hop`, `takes`); `hopping` when any
    /// kind has one (then legality plays the moves that touch a royal piece's hop zone, and every
    /// move in check: [`crate::hops`]).
    pub hoppers: Per64<Vec<crate::hops::HopRule<B>>>,
    pub hopping: bool,
    /// Per colored kind: how its hop destinations are kept in `Position::hop_memo`, if they are
    /// ([`crate::hops::hop_memo_kinds`]), and the cells all the entries take.
    pub hop_memo: Per64<Option<crate::hops::MemoKind>>,
    pub hop_memo_cells: usize,
    /// Per colored kind: the cells from which its hop lines are pairwise disjoint
    /// ([`crate::hops::hop_disjoint_cells`]).
    pub hop_disjoint: Per64<B>,
    /// `pass` and `facing` ([`crate::passing`]); `None` without either.
    pub passing: Option<crate::passing::Passing<B>>,
    /// Per side: the colored kinds that have such rules.
    pub hop_cks: Vec<Vec<u8>>,
    /// Per target cell and side (`target * sides + side`): the ways by which a capturing rule
    /// of `hop_cks` (of a kind that may check) could reach the target, and the cells where they
    /// start, so that an attack test with none of those pieces there answers at once (empty
    /// without such rules).
    pub hop_attacks: Vec<crate::hops::HopAttacks<B>>,
    /// Per cell and side (`cell * sides + side`): every cell a royal piece of the side there
    /// may watch for hops, whatever the board holds ([`crate::hops::hop_watch`]; empty
    /// without hop rules).
    pub hop_watch: Vec<B>,
    /// `hop_attacks` turned round, per cell and side (`cell * sides + side`): the targets whose
    /// ways start there, so that the targets a side's few hopping pieces could reach are found
    /// from the pieces rather than target by target.
    pub hop_targets: Vec<B>,
    /// Per `(carrier kind, crown kind)` (kinds, not colored): the crowned kind.
    pub crowned: Vec<(u8, u8, u8)>,
    /// Per side: the cells whose reach by a colored kind wins (`reach`), as (ck, cells).
    pub reach: Vec<Vec<(usize, B)>>,
    /// Whether any rule ends the game by a goal (`reach`, `check-limit`, `extinction`): only then
    /// does move generation ask whether the game is over.
    pub goals: bool,
    /// Whether perft's last ply may count a child without its move made
    /// (`crate::untouched::counts_only`).
    pub untouched: bool,
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

impl<B: CellSet> Game<B> {
    #[inline(always)]
    pub fn rays_of(&self, ck: usize, cell: usize) -> &[Ray<B>] {
        let i = ck * self.cells + cell;
        let (start, end) = self.ray_index[i];
        &self.rays[start as usize..end as usize]
    }

    /// [`Game::rays_of`], each with its index in `rays` (for [`Game::passed`]).
    #[inline(always)]
    pub fn rays_indexed(&self, ck: usize, cell: usize) -> impl Iterator<Item = (usize, &Ray<B>)> + '_ {
        let first = self.ray_index[ck * self.cells + cell].0 as usize;
        self.rays_of(ck, cell).iter().enumerate().map(move |(j, r)| (first + j, r))
    }

    #[inline(always)]
    pub fn cells_of(&self, range: (u32, u32)) -> &[u16] {
        &self.pool[range.0 as usize..range.1 as usize]
    }

    /// The cells ray `ray` passes (its `must_empty`), every one, from the tables' list: a
    /// [`crate::bits::Standing64`] set holds no transit cell, and a pole passed must still be
    /// tested for attacks.
    #[inline(always)]
    pub fn passed(&self, ray: usize) -> impl Iterator<Item = usize> + '_ {
        self.cells_of(self.tables.rays[ray].must_empty).iter().map(|&c| c as usize)
    }

    /// Whether pieces cross `cell` but never stop there: a cell of `transit`, or one past the
    /// capacity of the board's sets (which only transit cells can be, `crate::bits::Standing64`).
    #[inline]
    pub fn is_transit(&self, cell: usize) -> bool {
        cell >= B::CAPACITY || self.transit.has(cell)
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
    /// blockers included; for other slides (not back to their start), the cells they look at:
    /// those passed and each blocker (perft's kept counts, `crate::kept_counts`).
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

    /// The ways a piece on `cell` may attack `target` along its lines (`Game::line_pairs`;
    /// none on boards wider than two words): where no two ways join a pair of cells
    /// (`Game::many_ways` false) the one there is, with no kind where there is none.
    /// (Read with no index: Knightmate -3.0 instructions a leaf, Minishogi -1.7, orthodox
    /// -0.3; the boards with many ways pay the test, Janggi +0.5, the 5x5 cube with riders
    /// +1.2. Chosen once per test of many targets it cost most boards 0.5 to 1.5.)
    #[inline(always)]
    pub fn line_pairs_of(&self, target: usize, cell: usize) -> &[LinePair<B>] {
        let i = target * self.cells + cell;
        if !self.many_ways {
            return std::slice::from_ref(&self.line_pairs[i]);
        }
        &self.line_pairs[self.line_pair_index[i] as usize..self.line_pair_index[i + 1] as usize]
    }

    /// The lines along which `cell` (their target) is attacked, walked out from it.
    #[inline(always)]
    pub fn lines_of(&self, cell: usize) -> &[Line<B>] {
        &self.lines[self.line_index[cell] as usize..self.line_index[cell + 1] as usize]
    }

    /// The colored kinds that attack the target of `line` from `cell`, found on the run `run`
    /// of the line (found with [`Game::first_occupied`]).
    #[inline(always)]
    pub fn kinds_on(&self, line: &Line<B>, run: usize, cell: usize) -> u64 {
        if cell == line.first as usize {
            0
        } else {
            self.run_kinds[run]
        }
    }

    /// The first occupied cell along the runs `segments`, and the index in `segments` of its
    /// run (for [`Game::kinds_on`]).
    #[inline(always)]
    pub fn first_occupied(&self, segments: (u32, u32), occupied: B) -> Option<(usize, usize)> {
        let base = segments.0 as usize;
        for (i, run) in self.segments[base..segments.1 as usize].iter().enumerate() {
            let word = run.word as usize;
            let hit = run.mask & occupied.word(word);
            if hit != 0 {
                let bit = if run.up { hit.trailing_zeros() } else { 63 - hit.leading_zeros() };
                return Some((word * 64 + bit as usize, base + i));
            }
        }
        None
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
                            let a = crate::game_build::splitmix(&mut state);
                            let b = crate::game_build::splitmix(&mut state);
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
