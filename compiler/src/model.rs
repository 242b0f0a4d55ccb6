//! The checked model: a variant after name resolution and validation.
//!
//! Invariant: every index is in range, every name is resolved, the step function is total (each
//! (cell, heading) has an entry, `None` meaning "off the board"), every side has a royal piece when
//! the rules need one. Lowering (`lower.rs`) may rely on all of this and never reports errors.

/// Index of a cell in [`Board::cells`].
pub type CellId = usize;
/// Index of a heading in [`Board::headings`] (compass order: `turn +1` is the next index).
pub type HeadingId = usize;
/// Index of a piece kind in [`Variant::pieces`].
pub type PieceId = usize;

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub board: Board,
    pub pieces: Vec<Piece>,
    /// In turn order.
    pub sides: Vec<Side>,
    pub rules: Rules,
    /// The names of the side-dependent directions rules may use: `forward` first, then the
    /// `direction`s the sides declare (indices into [`Side::directions`]).
    pub directions: Vec<String>,
    /// Every rule's rays on the empty board: `check` walks them within the expansion budgets and
    /// stores them here, so the analysis and lowering never walk a rule again.
    pub walked: std::sync::OnceLock<crate::walk::Walked>,
}

impl Variant {
    /// Every rule's rays on the empty board ([`crate::walk::walk_all`]). A variant that passed
    /// `check` has them already (it is refused when a rule expands past its budget).
    pub fn walked(&self) -> &crate::walk::Walked {
        self.walked.get_or_init(|| crate::walk::walk_all(self).unwrap_or_default())
    }
}

#[derive(Debug, Clone)]
pub struct Board {
    pub cells: Vec<Cell>,
    pub headings: Vec<Heading>,
    /// Grid layout when the board was declared with `grid`.
    pub grid: Option<Grid>,
    /// `step[cell * headings.len() + heading]`: where one step leads, with the heading on arrival,
    /// for pieces without seams of their own (seams declared without `for`).
    pub step: Vec<Option<(CellId, HeadingId)>>,
    /// Parallel to `step`: the seams each step crosses, bit `i` for `seams[i]`.
    pub crossed: Vec<u32>,
    /// Seam names by bit: `wrap` (the `wrap files` join) first, then the declared seams in order.
    pub seams: Vec<String>,
    /// The heading rings in order, each in its declared (compass) order.
    pub rings: Vec<Vec<HeadingId>>,
    /// Grid positions that are other names of a cell (`identify`), in grid order.
    pub aliases: Vec<Alias>,
    /// The complex of polygon cells the board was built from (`polygon`, `mesh`, `box`), with
    /// cells in the same order; `None` for grid and linked boards.
    pub complex: Option<crate::complex::Complex>,
}

/// A second name of a cell: the grid position `coords` (named `name`) is the cell `cell`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    pub name: String,
    pub cell: CellId,
    pub coords: (i32, i32),
}

impl Board {
    pub fn step(&self, cell: CellId, heading: HeadingId) -> Option<(CellId, HeadingId)> {
        self.step[cell * self.headings.len() + heading]
    }

    /// Per heading, the heading with the negated vector (its reverse), when vectors exist.
    pub fn reverse_headings(&self) -> Vec<Option<HeadingId>> {
        self.headings
            .iter()
            .map(|h| {
                let (dx, dy) = h.vector?;
                self.headings.iter().position(|g| g.vector == Some((-dx, -dy)))
            })
            .collect()
    }

    /// `h` turned by `k` places in `cell`: on a polygon board by `k` ports of that cell (its sides
    /// and corners in turn), elsewhere within the heading's ring.
    pub fn rotate_at(&self, cell: CellId, h: HeadingId, k: i32) -> HeadingId {
        match &self.complex {
            Some(c) => {
                let ports = 2 * c.degree(cell) as i32;
                (h as i32 + k).rem_euclid(ports) as HeadingId
            }
            None => self.rotate(h, k),
        }
    }

    /// `h` turned by `k` places within its ring.
    pub fn rotate(&self, h: HeadingId, k: i32) -> HeadingId {
        let ring = &self.rings[self.headings[h].ring];
        let pos = ring.iter().position(|&x| x == h).unwrap_or(0) as i32;
        ring[(pos + k).rem_euclid(ring.len() as i32) as usize]
    }

    /// The step function a piece moves by: its own when seams were declared `for` it.
    pub fn geometry<'a>(&'a self, piece: &'a Piece) -> Geometry<'a> {
        match &piece.geometry {
            Some(g) => Geometry { headings: self.headings.len(), step: &g.step, crossed: &g.crossed },
            None => Geometry { headings: self.headings.len(), step: &self.step, crossed: &self.crossed },
        }
    }
}

/// A step function with the seams each step crosses.
#[derive(Debug, Clone, Copy)]
pub struct Geometry<'a> {
    pub headings: usize,
    pub step: &'a [Option<(CellId, HeadingId)>],
    pub crossed: &'a [u32],
}

impl Geometry<'_> {
    /// One step, unless it crosses a seam in `avoid`.
    pub fn step(&self, cell: CellId, heading: HeadingId, avoid: u32) -> Option<(CellId, HeadingId)> {
        let i = cell * self.headings + heading;
        if self.crossed[i] & avoid != 0 {
            None
        } else {
            self.step[i]
        }
    }
}

/// A piece's own step function (parallel to [`Board::step`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnGeometry {
    pub step: Vec<Option<(CellId, HeadingId)>>,
    pub crossed: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct Cell {
    pub name: String,
    /// Grid coordinates (file index, rank index), if the cell is on a grid.
    pub coords: Option<(i32, i32)>,
    /// Pieces cross it but never stop on it (`transit`).
    pub transit: bool,
}

#[derive(Debug, Clone)]
pub struct Heading {
    pub name: String,
    pub vector: Option<(i32, i32)>,
    /// The ring (headings block) it belongs to: `turn` rotates within a ring.
    pub ring: usize,
    pub kind: Kind,
}

/// Whether a heading leaves through a side or a corner. A slide keeps to the kinds its rule
/// names: a rook's line (`slide orth`) ends where going straight on would turn it diagonal (a
/// vertex triangle of the cube), a queen's (`slide all`) goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Through a side; on grids a vector along an axis.
    Orthogonal,
    /// Through a corner; on grids a vector with |dx| = |dy|.
    Diagonal,
    /// Any other vector, or none.
    Other,
}

impl Kind {
    /// The kind of a grid heading's vector.
    pub fn of_vector(v: Option<(i32, i32)>) -> Kind {
        match v {
            Some((0, dy)) if dy != 0 => Kind::Orthogonal,
            Some((dx, 0)) if dx != 0 => Kind::Orthogonal,
            Some((dx, dy)) if dx != 0 && dx.abs() == dy.abs() => Kind::Diagonal,
            _ => Kind::Other,
        }
    }

    /// This kind as one bit of a set of kinds.
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

#[derive(Debug, Clone)]
pub struct Grid {
    pub files: Vec<String>,
    pub ranks: Vec<String>,
    /// `cell_at[y * width + x]`.
    pub cell_at: Vec<Option<CellId>>,
}

#[derive(Debug, Clone)]
pub struct Piece {
    pub name: String,
    pub symbol: char,
    pub royal: bool,
    pub resets_clock: bool,
    /// `cannot-check`: never attacks a royal piece (gives no check, may not capture one).
    pub cannot_check: bool,
    /// `crowns ...`: the kinds that can carry this piece (it enters from the hand onto one of
    /// them); empty for pieces that stand on the board themselves.
    pub crowns: Vec<PieceId>,
    /// For a piece the frontend derives, one per carrier and crown: `(carrier, crown)`. It moves
    /// as the carrier and is royal as the crown is.
    pub crowned: Option<(PieceId, PieceId)>,
    /// `captured-as`: the kind a capture puts in the capturer's hand under `rules { drops }`
    /// (`None`: the piece's own kind).
    pub captured_as: Option<PieceId>,
    /// `fen "+P"`: the piece's FEN token when it is not its symbol.
    pub fen: Option<String>,
    pub rules: Vec<MoveRule>,
    /// The piece's own step function, when some seams apply to it alone (`seam ... for PIECE`).
    pub geometry: Option<OwnGeometry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Moves to an empty cell or captures.
    Both,
    MoveOnly,
    CaptureOnly,
}

#[derive(Debug, Clone)]
pub struct MoveRule {
    pub mode: Mode,
    pub initial: bool,
    pub leap: bool,
    pub en_passant_target: bool,
    pub en_passant: bool,
    /// The cells passed must be transit cells, and not attacked when the move is made.
    pub across_transit: bool,
    /// `ride`: the path (steps only) repeats in the same direction, landing after each repetition
    /// on cells that must be empty to go on (the nightrider); the cells within a repetition are
    /// leapt.
    pub ride: bool,
    /// Where the rule is written (global offsets; a `betza` text gives several rules one span).
    pub span: orbis_grammar::ast::Span,
    /// The rule as written, whitespace collapsed, for reports; filled in once every file's text
    /// is at hand (`check_with`), empty until then.
    pub text: String,
    /// The first leg's headings. `Dirs::Side` is resolved per side and cell at lowering.
    pub first: Dirs,
    pub first_slides: bool,
    /// Seams the first leg may not cross (bits of [`Board::seams`]).
    pub first_avoid: u32,
    /// Cells the first leg may not enter (`avoid ZONE`), sorted.
    pub first_avoid_cells: Vec<CellId>,
    /// `bending ...` on the first leg: per step after the first, the turns from straight on
    /// (alternatives per step; cycled). Empty: straight on.
    pub first_bending: Vec<Vec<i32>>,
    /// `distance N by GROUP`: the rule is a leap to every cell exactly N steps away along these
    /// headings (then `first` and `legs` are unused).
    pub distance: Option<(u32, Vec<HeadingId>)>,
    /// `wind GROUP within ZONE`: the rule moves to every cell of the zone (sorted) reachable
    /// through empty cells of it along these headings; it has no rays (the runtime floods).
    pub wind: Option<(Vec<HeadingId>, Vec<CellId>)>,
    /// `onto ...`: per side, the only cells the rule's moves may end on (`None`: any cell).
    pub onto: Option<Vec<Vec<CellId>>>,
    /// `hop DIRS [next]`: the rule's one leg follows its headings as a slide, jumps over the first
    /// piece it meets (the screen) and goes on beyond it; it has no rays (the runtime walks its
    /// lines, `Tables::hoppers`).
    pub hop: Option<Hop>,
    /// `over ...`: the kinds (indices of `Variant::pieces` as declared) a hop may jump over;
    /// `None`: any.
    pub over: Option<Vec<PieceId>>,
    /// `takes ...`: the only kinds the rule may capture; `None`: any. A slide with `takes` is
    /// walked by the runtime as a hop without a screen.
    pub takes: Option<Vec<PieceId>>,
    /// The legs after the first.
    pub legs: Vec<Leg>,
    /// `on ...`: per side, the only cells the rule applies from (`None`: every cell).
    pub origins: Option<Vec<Vec<CellId>>>,
}

/// Where a hop may land beyond its screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hop {
    /// On every empty cell beyond the screen, or capturing the first piece beyond it (a cannon).
    Far,
    /// Only on the cell just beyond the screen (a grasshopper): empty, or capturing there.
    Next,
}

impl MoveRule {
    /// A rule of one leg along `first` (a step, or a slide with `first_slides`), moving or
    /// capturing, with nothing else: the start of rules built rather than parsed (`betza`, the
    /// lines of `facing`).
    pub fn along(first: Dirs, span: orbis_grammar::ast::Span) -> MoveRule {
        MoveRule {
            mode: Mode::Both,
            initial: false,
            leap: false,
            en_passant_target: false,
            en_passant: false,
            across_transit: false,
            ride: false,
            span,
            text: String::new(),
            first,
            first_slides: false,
            first_avoid: 0,
            first_avoid_cells: Vec::new(),
            first_bending: Vec::new(),
            distance: None,
            wind: None,
            onto: None,
            hop: None,
            over: None,
            takes: None,
            legs: Vec::new(),
            origins: None,
        }
    }

    /// Whether the rule's rays are the same for every side: it follows no side's direction and
    /// its `onto` and `on` cells are the same for all (rays are then walked once, not per side).
    pub fn same_for_every_side(&self) -> bool {
        let same = |per_side: &Option<Vec<Vec<CellId>>>| per_side.as_ref().is_none_or(|o| o.iter().all(|cells| *cells == o[0]));
        matches!(self.first, Dirs::Headings(_)) && same(&self.onto) && same(&self.origins)
    }
}

#[derive(Debug, Clone)]
pub enum Dirs {
    /// Explicit headings, each already rotated by its turns.
    Headings(Vec<HeadingId>),
    /// The side's direction `direction` (an index into [`Variant::directions`]; 0 is `forward`) at
    /// the cell, each of its headings rotated by each of these turns (`[0]` for no turn).
    Side { direction: usize, turns: Vec<i32> },
}

#[derive(Debug, Clone)]
pub struct Leg {
    pub slides: bool,
    /// Rotations of the heading the piece arrived with (`[0]` for `straight`).
    pub turns: Vec<i32>,
    /// Seams this leg may not cross (bits of [`Board::seams`]).
    pub avoid: u32,
    /// Cells this leg may not enter (`avoid ZONE`), sorted.
    pub avoid_cells: Vec<CellId>,
    /// `bending ...` (slides only): as [`MoveRule::first_bending`].
    pub bending: Vec<Vec<i32>>,
}

#[derive(Debug, Clone)]
pub struct Side {
    pub name: String,
    /// Its team: the `team` it names, else its own name.
    pub team: String,
    /// Per direction ([`Variant::directions`]; 0 is `forward`), per cell, the headings it means
    /// there (none where it is undefined, several where a derived direction ties).
    pub directions: Vec<Vec<Vec<HeadingId>>>,
    pub setup: Vec<(CellId, PieceId)>,
    /// `atop`: pieces standing on top of setup pieces of the side (stacks of two).
    pub atop: Vec<(CellId, PieceId)>,
    /// `hand`: pieces off the board at the start (pieces that `crowns` others).
    pub hand: Vec<PieceId>,
    pub promotions: Vec<Promotion>,
    /// `drop`: the limits on dropping pieces from the hand, one per kind named.
    pub drops: Vec<DropRule>,
    pub castles: Vec<Castle>,
    /// `reach`: the side wins when a piece of the kind stands on one of the cells.
    pub reach: Vec<(PieceId, Vec<CellId>)>,
}

impl Side {
    /// The headings `forward` means on `cell`.
    pub fn forward(&self, cell: CellId) -> &[HeadingId] {
        self.directions.first().and_then(|d| d.get(cell)).map_or(&[], Vec::as_slice)
    }
}

#[derive(Debug, Clone)]
pub struct Promotion {
    pub piece: PieceId,
    pub choices: Vec<PieceId>,
    pub zone: Vec<CellId>,
    /// Only to a kind the side has fewer of on the board than it set up (`captured`).
    pub captured: bool,
    /// The piece may also enter the zone without promoting (`optional`).
    pub optional: bool,
    /// A move that starts in the zone may promote too (`from-or-to`; always optional).
    pub from_or_to: bool,
}

/// Where a side may not drop a kind from its hand, and the kind's other limits (`drop`).
#[derive(Debug, Clone, Default)]
pub struct DropRule {
    pub piece: PieceId,
    /// The cells of its `not on` zones.
    pub forbidden: Vec<CellId>,
    /// Not on a file (grid column) that holds a piece of this side and kind (`one-per-file`).
    pub one_per_file: bool,
    /// A drop of it may not checkmate (`no-mate`).
    pub no_mate: bool,
}

#[derive(Debug, Clone)]
pub struct Castle {
    pub name: String,
    pub king_from: CellId,
    pub king_to: CellId,
    pub rook_from: CellId,
    pub rook_to: CellId,
    pub empty: Vec<CellId>,
    pub safe: Vec<CellId>,
    pub fen: Option<char>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Draw,
    Win,
    Loss,
}

#[derive(Debug, Clone)]
pub struct Rules {
    /// The result for the side that is stalemated.
    pub stalemate: Outcome,
    pub stationary_moves: bool,
    /// Plies; 0 turns the rule off.
    pub fifty_move: u32,
    /// 0 turns the rule off.
    pub repetition: u32,
    /// While three or more teams are in the game: a side with no legal move goes out (`true`,
    /// `last-standing`) or ends the game (`first-mate`).
    pub last_standing: bool,
    /// An eliminated side's pieces leave the board (`true`, `remove`) or stay inert (`stay`).
    pub remove_eliminated: bool,
    /// `bare`: the result for a side left with royal pieces only (`None`: play on).
    pub bare: Option<Outcome>,
    /// `bare ... counting-move`: the bare side moves once more; the game is decided only if the
    /// other side is not bare then.
    pub bare_counting: bool,
    /// `royal-path unattacked`: a royal piece may not pass an attacked cell on its way.
    pub royal_path_unattacked: bool,
    /// `check-limit`: the side that has given this many checks wins (0: off).
    pub check_limit: u8,
    /// `extinction`: a side left without a piece of one of these kinds loses.
    pub extinction: Vec<PieceId>,
    /// `drops`: a captured piece changes side and goes to the capturer's hand.
    pub drops: bool,
    /// `pass`: a side not in check may pass; two passes in a row end the game in a draw.
    pub pass: bool,
    /// `facing GROUP`: royal pieces that see each other along these headings face each other;
    /// empty: no such rule.
    pub facing: Vec<HeadingId>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            stalemate: Outcome::Draw,
            stationary_moves: false,
            fifty_move: 100,
            repetition: 3,
            last_standing: true,
            remove_eliminated: true,
            bare: None,
            bare_counting: false,
            royal_path_unattacked: false,
            check_limit: 0,
            extinction: Vec::new(),
            drops: false,
            pass: false,
            facing: Vec::new(),
        }
    }
}
