//! The compiled form of a variant: everything the runtime needs, precomputed.
//!
//! The compiler builds a [`Tables`]; `format.rs` writes and reads it byte for byte
//! (docs/table-format.md). The runtime never re-derives geometry: moves follow `rays`, attacks
//! follow `attacks`. Invariant after [`Tables::validate`]: every index is in range.
//!
//! A *colored kind* ("ck") is `side * kinds.len() + kind`; at most 64 of them exist, so a set of
//! colored kinds fits in a `u64`.

/// Marks "no cell" in `u16` cell slots.
pub const NO_CELL: u16 = u16::MAX;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tables {
    pub name: String,
    pub cells: Vec<String>,
    pub headings: Vec<String>,
    /// Grid layout, if the board is a grid (FEN and diagrams use it).
    pub grid: Option<GridInfo>,
    /// `step[cell * headings.len() + heading]` = `(cell, heading)` on arrival, or `(NO_CELL, 0)`.
    pub step: Vec<(u16, u8)>,
    /// Cells pieces cross but never stop on (never occupied; may be attacked).
    pub transit: Vec<u16>,
    /// Other names of cells (`identify`): (name, cell). Positions and moves accept them; output
    /// always uses the cell's own name. On a grid, the alias of a grid position is its file and
    /// rank name (see [`Tables::is_alias_position`]).
    pub aliases: Vec<(String, u16)>,
    pub kinds: Vec<KindInfo>,
    pub sides: Vec<SideInfo>,
    pub rules: RulesInfo,
    /// Per colored kind and cell (`ck * cells + cell`): the range of its rays in `rays`. Colored
    /// kinds with equal rays on a cell (the sides of a symmetric piece) share one range.
    /// Length `colored kinds * cells`.
    pub ray_index: Vec<(u32, u32)>,
    pub rays: Vec<Ray>,
    /// Shared pool of cell lists that `Ray` and `Line` point into.
    pub pool: Vec<u16>,
    /// Per target cell: `attack_index[cell] .. attack_index[cell + 1]` into `attacks`.
    pub attack_index: Vec<u32>,
    pub attacks: Vec<Attack>,
    /// Colored-kind masks of `Attack::Line` cells.
    pub masks: Vec<u64>,
    /// Winding rules (`wind GROUP within ZONE`, since version 8): flooded by the runtime.
    pub winders: Vec<Winder>,
    /// Rules walked along their lines by the runtime (since version 10): hops (`hop`) and slides
    /// whose captures are restricted by kind (`takes`).
    pub hoppers: Vec<Hopper>,
    /// `facing GROUP` (since version 11): per origin cell, the lines along which a royal piece
    /// there sees another (each line's cells in order); empty without the rule.
    pub facing: Vec<(u16, Vec<u16>)>,
    /// Drawings of a board of polygon cells (since version 4), for diagrams only: the runtime
    /// never reads it. `None` on grid boards (diagrams draw them from `grid`).
    pub layout: Option<Layout>,
}

impl Tables {
    /// Whether every cell from `first` on is a transit cell (true when there is none): the cells
    /// a [`crate::bits::Standing64`] set of `first` cells may leave out.
    pub fn transit_from(&self, first: usize) -> bool {
        (first..self.cells.len()).all(|c| self.transit.contains(&(c as u16)))
    }

    /// The rays of entry `i` (`ck * cells + cell`) of `ray_index`; none where the index or its
    /// range is out of bounds (a table that did not pass validation).
    pub fn rays_at(&self, i: usize) -> &[Ray] {
        self.ray_index.get(i).and_then(|&(a, b)| self.rays.get(a as usize..b as usize)).unwrap_or(&[])
    }

    /// The rays of colored kind `ck` on `cell`.
    pub fn rays_of(&self, ck: usize, cell: usize) -> &[Ray] {
        self.rays_at(ck * self.cells.len() + cell)
    }

    /// The cell a name means: its own name or one of its aliases.
    pub fn cell_by_name(&self, name: &str) -> Option<u16> {
        match self.cells.iter().position(|c| c == name) {
            Some(c) => Some(c as u16),
            None => self.aliases.iter().find(|(a, _)| a == name).map(|&(_, c)| c),
        }
    }

    /// Whether grid position (x, y) only names a cell whose own position is elsewhere (an
    /// `identify`d position): FEN leaves it empty, diagrams draw the cell at its own position.
    pub fn is_alias_position(&self, x: usize, y: usize) -> bool {
        let Some(g) = &self.grid else { return false };
        if self.aliases.is_empty() || x >= g.width as usize || y >= g.height as usize {
            return false;
        }
        let name = format!("{}{}", g.files[x], g.ranks[y]);
        self.aliases.iter().any(|(a, _)| *a == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridInfo {
    pub width: u16,
    pub height: u16,
    pub files: Vec<String>,
    pub ranks: Vec<String>,
    /// `cell_at[y * width + x]`, `NO_CELL` where the grid has a hole.
    pub cell_at: Vec<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KindInfo {
    pub name: String,
    /// One letter; unique among kinds, except that a crowned kind shares its carrier's.
    pub symbol: char,
    pub royal: bool,
    pub resets_clock: bool,
    /// Never attacks a royal piece: gives no check, may not capture one (since version 7).
    pub cannot_check: bool,
    /// For a piece that enters from the hand by crowning: the kinds that may carry it.
    pub crowns: Vec<u8>,
    /// For a crowned kind: `(carrier, crown)`; it moves as the carrier.
    pub crowned: Option<(u8, u8)>,
    /// Since version 10: the kind a capture puts in the capturer's hand under the `drops` rule
    /// (`None`: this kind).
    pub captured_as: Option<u8>,
    /// Since version 10: the FEN token of a promoted form (`+P`, `Q~`); empty: the symbol.
    pub fen: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SideInfo {
    pub name: String,
    /// The side's team (since format version 6; before, every side is its own team, named after
    /// it). Sides of one team never capture each other nor give each other check.
    pub team: String,
    /// Initial position: (cell, kind).
    pub setup: Vec<(u16, u8)>,
    /// Pieces standing on top of setup pieces (since version 7): (cell, kind).
    pub atop: Vec<(u16, u8)>,
    /// Pieces off the board at the start (since version 7): kinds that crown others.
    pub hand: Vec<u8>,
    pub promotions: Vec<PromotionInfo>,
    /// Since version 10: limits on dropping kinds from the hand.
    pub drops: Vec<DropInfo>,
    pub castles: Vec<CastleInfo>,
    /// Since version 9: the side wins when a piece of `kind` stands on `cell` (`reach`), as
    /// (kind, cell) pairs.
    pub reach: Vec<(u8, u16)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PromotionInfo {
    pub kind: u8,
    pub choices: Vec<u8>,
    pub zone: Vec<u16>,
    /// Since version 9: only to a kind the side has fewer of on the board than it set up.
    pub captured: bool,
    /// Since version 9: the piece may also enter the zone without promoting.
    pub optional: bool,
    /// Since version 10: a move starting in the zone may promote too (always optionally).
    pub from_or_to: bool,
}

/// Where a side may not drop a kind from its hand (since version 10).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DropInfo {
    pub kind: u8,
    pub forbidden: Vec<u16>,
    /// Not on a grid file holding a piece of the side of this kind (needs a grid).
    pub one_per_file: bool,
    /// A drop of it may not checkmate.
    pub no_mate: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CastleInfo {
    pub name: String,
    pub king_from: u16,
    pub king_to: u16,
    pub rook_from: u16,
    pub rook_to: u16,
    pub empty: Vec<u16>,
    pub safe: Vec<u16>,
    /// FEN letter of the right (upper case), `None` if FEN cannot express it.
    pub fen: Option<char>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Draw = 0,
    Win = 1,
    Loss = 2,
}

/// What a side with no legal move means while three or more teams are in the game (`game-end`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// The side is out (checkmated or stalemated alike) and play goes on.
    LastStanding = 0,
    /// The first checkmate or stalemate ends the game.
    FirstMate = 1,
}

/// What becomes of an eliminated side's pieces (`eliminated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eliminated {
    /// They leave the board.
    Remove = 0,
    /// They stay as inert blockers: they never move nor attack, and anyone may capture them.
    Stay = 1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesInfo {
    pub stalemate: Outcome,
    pub stationary_moves: bool,
    pub fifty_move: u16,
    pub repetition: u8,
    /// Since format version 6 (before: `LastStanding`, `Remove`, the defaults).
    pub game_end: GameEnd,
    pub eliminated: Eliminated,
    /// Since version 7: the result for a side left with royal pieces only (`None`: play on).
    pub bare: Option<Outcome>,
    /// Since version 10: with `bare`, the bare side moves once more; the game ends only when the
    /// side that just moved is bare and the side to move is not (`counting-move`).
    pub bare_counting: bool,
    /// Since version 7: a royal piece may not pass an attacked cell on its way.
    pub royal_path_unattacked: bool,
    /// Since version 9: the side that has given this many checks wins (`check-limit`; 0: off).
    pub check_limit: u8,
    /// Since version 9: bit `kind`: a side left without a piece of that kind loses (`extinction`).
    pub extinction: u64,
    /// Since version 10: a captured piece goes to the capturer's hand (`drops`).
    pub drops: bool,
    /// Since version 11: a side not in check may pass (`pass`).
    pub pass: bool,
}

impl Default for RulesInfo {
    fn default() -> Self {
        RulesInfo {
            stalemate: Outcome::Draw,
            stationary_moves: false,
            fifty_move: 100,
            repetition: 3,
            game_end: GameEnd::LastStanding,
            eliminated: Eliminated::Remove,
            bare: None,
            bare_counting: false,
            royal_path_unattacked: false,
            check_limit: 0,
            extinction: 0,
            drops: false,
            pass: false,
        }
    }
}

/// A winding rule of a kind: from a cell of `zone`, to every zone cell reachable through empty
/// zone cells, a step being from a cell to one of its `adjacency` cells (same order as `zone`);
/// it captures an enemy on a zone cell one step from the start or from a reached cell.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Winder {
    pub kind: u8,
    /// `ray::QUIET` and/or `ray::CAPTURE`.
    pub flags: u8,
    pub zone: Vec<u16>,
    pub adjacency: Vec<Vec<u16>>,
}

/// A rule of a colored kind walked by the runtime along its lines (`hop`, or a slide with
/// `takes`): from its cell, each line is followed over empty cells; with `hop::SCREEN` the first
/// piece met is the screen (its kind must be in `over`) and the walk goes on beyond it. Then, on
/// the cells after the screen (or from the start without one): empty cells are quiet
/// destinations until the first piece, which is captured if it is an enemy of a kind in `takes`;
/// with `hop::NEXT` only the one cell just beyond the screen counts. Destinations must be in
/// `onto`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hopper {
    /// The colored kind (`side * kinds + kind`).
    pub ck: u8,
    /// `hop::*` bits.
    pub flags: u8,
    /// Bit `kind`: the kinds the hop may jump over (all ones without `over`).
    pub over: u64,
    /// Bit `kind`: the kinds the rule may capture (all ones without `takes`).
    pub takes: u64,
    /// The cells a move may end on, sorted (every cell without `onto`).
    pub onto: Vec<u16>,
    /// The lines: (start cell, the cells in order on the empty board).
    pub lines: Vec<(u16, Vec<u16>)>,
}

/// Hopper flags.
pub mod hop {
    /// The rule may end on an empty cell.
    pub const QUIET: u8 = 1;
    /// The rule may capture.
    pub const CAPTURE: u8 = 2;
    /// The rule jumps over one piece (a `hop`); without it, a slide restricted by `takes`.
    pub const SCREEN: u8 = 4;
    /// Only the cell just beyond the screen (`hop ... next`).
    pub const NEXT: u8 = 8;
    /// Every flag.
    pub const ALL: u8 = 15;
}

/// Ray flags.
pub mod ray {
    /// The ray may end on an empty cell.
    pub const QUIET: u8 = 1;
    /// The ray may end by capturing.
    pub const CAPTURE: u8 = 2;
    /// Only while the piece has not moved.
    pub const INITIAL: u8 = 4;
    /// The `must_empty` cells become en-passant targets when the move is made.
    pub const EP_TARGET: u8 = 8;
    /// The move may capture en passant.
    pub const EP_CAPTURE: u8 = 16;
    /// Continue past empty cells (a slide). A ray without it has exactly one destination cell.
    pub const SLIDE: u8 = 32;
    /// The slide comes back to its own start after its last cell (a closed line).
    pub const RETURNS: u8 = 64;
    /// The `must_empty` cells (transit cells) must also not be attacked by an enemy.
    pub const PASS_UNATTACKED: u8 = 128;
}

/// One way a piece on a cell can move: cells that must be empty first, then the destinations in
/// order (a slide stops at the first occupied one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ray {
    pub flags: u8,
    /// The heading the ray leaves its cell with (for display).
    pub heading: u8,
    /// `pool[must_empty.0 .. must_empty.1]`.
    pub must_empty: (u32, u32),
    /// `pool[cells.0 .. cells.1]`.
    pub cells: (u32, u32),
}

/// How a target cell can be attacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// A piece of a colored kind in `ck` on one of `pool[cells]` attacks the target directly.
    Direct { ck: u8, cells: (u32, u32) },
    /// A line out from the target: walk `pool[cells]` in order to the first occupied cell; the
    /// target is attacked if the piece there has a colored kind in `Tables::masks[masks + i]`
    /// (the mask of the i-th cell). The first cell's mask is always 0: adjacent attackers are
    /// `Direct`.
    Line { cells: (u32, u32), masks: u32 },
}

/// How a board of polygon cells is drawn: computed by the compiler from the board's geometry,
/// so that diagrams need none. Coordinates are in board units with y pointing up; a view is
/// drawn as it is, counterclockwise on the page being counterclockwise seen from outside the
/// surface.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// A shade per cell (0 light, 1 dark, 2 and 3 further colours): cells that share a side
    /// differ where two shades suffice (the cube), else the most common polygon is light.
    pub shades: Vec<u8>,
    /// One or more pictures of the board; a cell may appear in several (or in none of some).
    pub views: Vec<LayoutView>,
}

/// One picture: a name (`net`, `sphere`, `north`, ...), the cells drawn in it and texts drawn
/// with them (since format version 5).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LayoutView {
    pub name: String,
    pub cells: Vec<LayoutCell>,
    /// Texts that name parts of the picture: a face of a box's net, a hole's mark.
    pub labels: Vec<LayoutLabel>,
}

/// A text drawn in a view, centred on `at`, `size` board units high.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LayoutLabel {
    pub at: [f32; 2],
    pub size: f32,
    pub text: String,
}

/// One cell as drawn in a view.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LayoutCell {
    pub cell: u16,
    /// Where its name and its piece go.
    pub label: [f32; 2],
    /// Its outline: closed contours (the last point joins the first), filled even-odd: one for a
    /// polygon, two (outer, then inner) for a ring such as the outside cell of a sphere's drawing.
    pub contours: Vec<Vec<[f32; 2]>>,
    /// Per heading, the point of the drawn cell a step with that heading leaves through (the
    /// middle of a side, a corner); as many as the cell has ports, possibly none.
    pub ports: Vec<[f32; 2]>,
}

// `Tables::validate` rejects coordinates that are not finite, so equality is reflexive.
impl Eq for Layout {}
impl Eq for LayoutView {}
impl Eq for LayoutCell {}
impl Eq for LayoutLabel {}
