//! The syntax tree of a variant file. Every name and node carries the byte [`Span`] it came from so
//! that later stages can point diagnostics at the source. Nothing here knows chess: names are not
//! resolved and nothing is validated beyond the grammar.

/// A byte range `start..end` in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    /// A span in the current parse: positions are shifted by the base offset given to
    /// [`crate::parse_at`], so that spans of several files never overlap.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// A name as written (identifier, label, number used as a name, or string contents).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

impl Name {
    /// The corners of a rectangle of cells, `A..B`, written in a list of cells.
    pub fn range(&self) -> Option<(&str, &str)> {
        self.text.split_once("..")
    }
}

/// An integer literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int {
    pub value: i64,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct File {
    /// The `variant "..."` (or `library "..."`) declaration: the name is the string contents.
    pub variant: Name,
    pub variant_span: Span,
    /// `library` rather than `variant`: shared declarations, not a playable game on its own.
    pub library: bool,
    /// `include "path"` declarations, in order; the path is relative to the including file.
    pub includes: Vec<Include>,
    pub items: Vec<Item>,
}

/// `include "path"`, or `include "path" { Ferz Alfil as E }`: only some pieces of the library.
#[derive(Debug, Clone)]
pub struct Include {
    pub path: Name,
    pub only: Option<Vec<IncludePiece>>,
}

/// A piece taken from a library, under another symbol after `as`.
#[derive(Debug, Clone)]
pub struct IncludePiece {
    pub name: Name,
    pub symbol: Option<Name>,
}

#[derive(Debug, Clone)]
pub enum Item {
    Board(Board),
    Piece(Piece),
    Side(Side),
    Rules(Rules),
}

// ---------------------------------------------------------------- board

#[derive(Debug, Clone)]
pub struct Board {
    pub span: Span,
    /// The `board` keyword, a short place to point at.
    pub keyword: Span,
    pub statements: Vec<BoardStmt>,
}

#[derive(Debug, Clone)]
pub enum BoardStmt {
    Grid(Grid),
    /// `wrap files`.
    Wrap(Span),
    Headings(Headings),
    Group(Group),
    Seam(Seam),
    /// `identify NAME when ... : to (X, Y) heading ...`: grid positions that are other names of the
    /// cell at (X, Y) (the `pieces` of the [`Seam`] are always empty).
    Identify(Seam),
    Cells(CellsDecl),
    /// `transit CELLS`: cells pieces cross but never stop on.
    Transit(CellsDecl),
    /// One link; a `link` statement with lists gives one per position.
    Link(Link),
    /// `polygon NAME { NEIGHBOURS }`: a cell of a polygon board.
    Polygon(Polygon),
    /// `mesh ...`: polygon cells as faces of a mesh.
    Mesh(Mesh),
    /// `box X Y Z`: the surface of a box of cells.
    Box(BoxSurface),
    /// `web { ... }`: the web of a polyhedron.
    Web(Web),
}

/// The web of a polyhedron: its faces as cycles of named vertices, each with the label its ring
/// cells carry, and the order of vertex names in connector names.
#[derive(Debug, Clone)]
pub struct Web {
    pub span: Span,
    pub order: Vec<Name>,
    pub faces: Vec<WebFace>,
}

#[derive(Debug, Clone)]
pub struct WebFace {
    pub span: Span,
    /// The label (a string's text) its ring cells add to their names.
    pub label: Name,
    pub vertices: Vec<Name>,
}

/// A cell and its neighbours in order round it (`None`: a side on the border).
#[derive(Debug, Clone)]
pub struct Polygon {
    pub span: Span,
    pub name: Name,
    pub sides: Vec<Option<Name>>,
}

#[derive(Debug, Clone)]
pub struct Mesh {
    pub span: Span,
    pub source: MeshSource,
}

#[derive(Debug, Clone)]
pub enum MeshSource {
    /// Faces written out: each a name and its vertices in order.
    Inline(Vec<MeshFace>),
    /// An OFF or OBJ file (the string's text, relative to the variant file) and names for its
    /// faces in the file's order.
    File { path: Name, names: Vec<Name> },
}

#[derive(Debug, Clone)]
pub struct MeshFace {
    pub span: Span,
    pub name: Name,
    pub vertices: Vec<Name>,
}

#[derive(Debug, Clone)]
pub struct BoxSurface {
    pub span: Span,
    pub sizes: [Int; 3],
}

#[derive(Debug, Clone)]
pub struct Grid {
    pub span: Span,
    pub files: Labels,
    pub ranks: Labels,
}

/// The files or ranks of a grid.
#[derive(Debug, Clone)]
pub enum Labels {
    /// `a..h` or `1..8`.
    Range { from: Name, to: Name, span: Span },
    List(Vec<Name>),
}

#[derive(Debug, Clone)]
pub struct Headings {
    pub span: Span,
    /// `headings NAME { ... }`: a named ring; the unnamed block is the main ring.
    pub ring: Option<Name>,
    pub headings: Vec<HeadingDecl>,
}

#[derive(Debug, Clone)]
pub struct HeadingDecl {
    pub span: Span,
    pub name: Name,
    pub vector: Option<Vector>,
}

#[derive(Debug, Clone, Copy)]
pub struct Vector {
    pub span: Span,
    pub dx: Int,
    pub dy: Int,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub span: Span,
    pub name: Name,
    pub members: Vec<Name>,
}

#[derive(Debug, Clone)]
pub struct Seam {
    pub span: Span,
    pub name: Name,
    /// `for PIECE...`: the pieces this seam applies to (empty: all pieces).
    pub pieces: Vec<Name>,
    pub when: Expr,
    pub to: ExprPair,
    pub heading: SeamHeading,
}

#[derive(Debug, Clone)]
pub struct ExprPair {
    pub span: Span,
    pub x: Expr,
    pub y: Expr,
}

#[derive(Debug, Clone)]
pub enum SeamHeading {
    /// `heading same`.
    Same(Span),
    /// `heading (DX, DY)`.
    Vector(ExprPair),
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Int(i64),
    /// A variable as written; the frontend decides which names exist.
    Var(String),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "mod",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }
}

/// `cells p q r`.
#[derive(Debug, Clone)]
pub struct CellsDecl {
    pub span: Span,
    pub cells: Vec<Name>,
}

/// `link A H -> B H2`.
#[derive(Debug, Clone)]
pub struct Link {
    pub span: Span,
    pub from: Name,
    pub from_heading: Name,
    pub to: Name,
    pub to_heading: Name,
}

// ---------------------------------------------------------------- pieces

#[derive(Debug, Clone)]
pub struct Piece {
    pub span: Span,
    pub name: Name,
    pub symbol: Name,
    pub royal: Option<Span>,
    pub resets_clock: Option<Span>,
    /// `cannot-check`: the piece never attacks a royal piece.
    pub cannot_check: Option<Span>,
    /// `crowns KINDS`: the piece enters from the hand onto an own piece of these kinds.
    pub crowns: Vec<Crowns>,
    /// `captured-as PIECE`: the kind a capture under `rules { drops }` puts in the hand.
    pub captured_as: Option<Box<Name>>,
    /// `fen "+P"`: the piece's FEN token (the string's text, spanned).
    pub fen: Option<Box<Name>>,
    pub rules: Vec<Rule>,
}

/// `crowns R B N`.
#[derive(Debug, Clone)]
pub struct Crowns {
    pub span: Span,
    pub carriers: Vec<Name>,
}

/// `MODIFIER* LEG (then LEG)*`.
#[derive(Debug, Clone)]
pub struct Rule {
    pub span: Span,
    pub modifiers: Vec<Modifier>,
    pub legs: Vec<Leg>,
    /// `on { CELLS }` or `on ZONE`: the cells the rule applies from.
    pub on: Option<RuleOn>,
    /// `onto ZONE`: the cells the rule's moves may end on.
    pub onto: Option<Zone>,
    /// `over [not] KINDS`: the kinds a hop may jump over.
    pub over: Option<KindFilter>,
    /// `takes [not] KINDS`: the kinds the rule may capture.
    pub takes: Option<KindFilter>,
}

/// `over not C`, `takes K`: piece kinds by symbol or name, or every kind but those (`not`).
#[derive(Debug, Clone)]
pub struct KindFilter {
    pub span: Span,
    pub negated: bool,
    pub kinds: Vec<Name>,
}

/// The cells a rule applies from.
#[derive(Debug, Clone)]
pub struct RuleOn {
    pub span: Span,
    pub target: OnTarget,
}

#[derive(Debug, Clone)]
pub enum OnTarget {
    /// `on { a1 b2 }`: these cells, for every side.
    Cells { span: Span, cells: Vec<Name> },
    /// `on NAME`: the side's zone of that name.
    Zone(Name),
    /// `on sides 5` (any zone form).
    Form(Zone),
}

#[derive(Debug, Clone, Copy)]
pub struct Modifier {
    pub span: Span,
    pub kind: ModifierKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModifierKind {
    MoveOnly,
    CaptureOnly,
    Initial,
    Leap,
    EnPassantTarget,
    EnPassant,
    /// The cells the move passes must be transit cells, none of them attacked.
    AcrossTransit,
    /// The path repeats in the same direction, landing after each repetition (the nightrider).
    Ride,
}

impl ModifierKind {
    pub fn keyword(self) -> &'static str {
        match self {
            ModifierKind::MoveOnly => "move-only",
            ModifierKind::CaptureOnly => "capture-only",
            ModifierKind::Initial => "initial",
            ModifierKind::Leap => "leap",
            ModifierKind::EnPassantTarget => "en-passant-target",
            ModifierKind::EnPassant => "en-passant",
            ModifierKind::AcrossTransit => "across-transit",
            ModifierKind::Ride => "ride",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Leg {
    pub span: Span,
    /// `slide` rather than `step` (also set for `hop`, which follows its headings as a slide).
    pub slides: bool,
    /// `hop`: the leg jumps over one piece (the screen).
    pub hop: bool,
    /// `next` after the headings: a hop that lands just beyond its screen.
    pub next: Option<Span>,
    /// The `step`/`slide` keyword.
    pub keyword: Span,
    pub dirs: LegDirs,
    /// `bending K...`: the turns a slide makes after its first step, one per step in turn.
    pub bending: Option<Bending>,
    /// `avoid ...`: seams this leg may not step across.
    pub avoid: Vec<Name>,
    /// `avoid ZONE` (a zone form): cells this leg may not enter.
    pub avoid_cells: Option<Zone>,
}

/// What follows `step`/`slide`. The grammar accepts every form on every leg; which forms a leg
/// may use is a semantic rule.
#[derive(Debug, Clone)]
pub enum LegDirs {
    Straight(Span),
    Turn(Turn),
    Dirs(Dirs),
    /// `distance N [by GROUP]`: every cell exactly N steps away (a whole rule of its own).
    Distance { span: Span, steps: Int, by: Option<DirSet> },
    /// `wind GROUP within ZONE`: every cell of the zone reachable through empty cells of it (a
    /// whole rule of its own).
    Wind { span: Span, dirs: DirSet, zone: Zone },
    /// `betza "..."`: moves in Betza's notation (a whole rule of its own); `text` spans the
    /// letters inside the quotes.
    Betza { span: Span, text: Name },
}

/// `bending +2 -2`: per step after the first, the turn from straight on (cycled); each amount
/// may have alternatives (`+-2`), every combination giving its own slide.
#[derive(Debug, Clone)]
pub struct Bending {
    pub span: Span,
    pub amounts: Vec<Turn>,
}

#[derive(Debug, Clone)]
pub struct Dirs {
    pub span: Span,
    pub set: DirSet,
    pub turn: Option<Turn>,
}

#[derive(Debug, Clone)]
pub enum DirSet {
    /// A heading, group, `all` or `forward`.
    Name(Name),
    /// `{ H1 H2 ... }`.
    Set { span: Span, names: Vec<Name> },
}

/// `turn K` where K is `+1`, `-2`, `+-1`, `3`, ...
#[derive(Debug, Clone)]
pub struct Turn {
    pub span: Span,
    /// The rotations, in order; `+-1` gives `[1, -1]`.
    pub amounts: Vec<i64>,
}

// ---------------------------------------------------------------- sides

#[derive(Debug, Clone)]
pub struct Side {
    pub span: Span,
    pub name: Name,
    pub statements: Vec<SideStmt>,
}

#[derive(Debug, Clone)]
pub enum SideStmt {
    Forward { span: Span, spec: DirectionSpec },
    /// `direction NAME SPEC`: a further side-dependent heading set.
    Direction { span: Span, name: Name, spec: DirectionSpec },
    /// `zone NAME ZONE`: a named set of cells of the side.
    Zone { span: Span, name: Name, zone: Zone },
    Setup(Setup),
    /// `arrange CELLS { STEP, ... }`: pieces placed by the setup number.
    Arrange(Arrange),
    /// `atop { ... }`: pieces on top of the setup's pieces.
    Atop(Setup),
    /// `hand { K }`: pieces off the board at the start.
    Hand {
        span: Span,
        symbols: Vec<Name>,
    },
    Promote(Promote),
    /// `drop PIECES not on ZONE ... [one-per-file] [no-mate]`: limits on dropping from the hand.
    Drop(DropRule),
    Castle(Castle),
    /// `team NAME`.
    Team { span: Span, name: Name },
    /// `reach PIECE ZONE`: the side wins when such a piece of it stands on the zone.
    Reach { span: Span, piece: Name, zone: Zone },
}

/// What `forward` (or a `direction`) means for a side.
#[derive(Debug, Clone)]
pub enum DirectionSpec {
    /// The same headings everywhere (a heading, a group or `{ ... }`).
    Fixed(DirSet),
    /// Per cell, derived from the distance to a cell.
    Derived(DerivedDirs),
}

/// Which candidate headings a derived direction keeps on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derivation {
    /// Every heading whose step leads farther (`away`).
    Away,
    /// Of those, the ones leading farthest (`farthest`).
    Farthest,
    /// Every heading whose step leads nearer (`toward`).
    Toward,
    /// Of those, the ones leading nearest (`nearest`).
    Nearest,
}

/// `GROUP away|farthest from PLACE [by GROUP]`, `GROUP toward PLACE`, `GROUP nearest to PLACE`.
#[derive(Debug, Clone)]
pub struct DerivedDirs {
    pub span: Span,
    /// The candidate headings.
    pub candidates: DirSet,
    pub mode: Derivation,
    pub mode_span: Span,
    /// A cell, a zone of the side (both [`Zone::Named`]) or a zone form: distances count to its
    /// nearest cell.
    pub from: Zone,
    /// The headings whose steps the distance counts (`all` when omitted).
    pub by: Option<DirSet>,
}

impl DirSet {
    pub fn span(&self) -> Span {
        match self {
            DirSet::Name(n) => n.span,
            DirSet::Set { span, .. } => *span,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Setup {
    pub span: Span,
    pub groups: Vec<SetupGroup>,
}

/// A piece symbol and the cells it stands on.
#[derive(Debug, Clone)]
pub struct SetupGroup {
    pub symbol: Name,
    pub cells: Vec<Name>,
}

/// `drop P L not on rank 9 one-per-file no-mate`.
#[derive(Debug, Clone)]
pub struct DropRule {
    pub span: Span,
    pub pieces: Vec<Name>,
    /// The zones of every `not on ZONE`.
    pub not_on: Vec<Zone>,
    /// `one-per-file`: not on a file that holds a piece of the side of this kind.
    pub one_per_file: Option<Span>,
    /// `no-mate`: a drop of it may not checkmate.
    pub no_mate: Option<Span>,
}

#[derive(Debug, Clone)]
pub struct Promote {
    pub span: Span,
    pub piece: Name,
    pub choices: Vec<Name>,
    pub zone: Zone,
    /// `to captured ...`: only to a kind the side has fewer of on the board than it set up.
    pub captured: bool,
    /// `... optional`: the piece may also move into the zone without promoting.
    pub optional: bool,
    /// `... from-or-to`: a move that starts in the zone may promote too.
    pub from_or_to: bool,
}

#[derive(Debug, Clone)]
pub enum Zone {
    /// `rank 8` or `ranks 8..10` (`to` is the range's end).
    Rank { span: Span, rank: Name, to: Option<Name> },
    File { span: Span, file: Name, to: Option<Name> },
    Cells { span: Span, cells: Vec<Name> },
    /// `lines GROUP through CELL`: the cell and every cell its slides along these headings reach.
    Lines { span: Span, dirs: DirSet, through: Name },
    /// A zone the side declared with `zone NAME ...`.
    Named { span: Span, name: Name },
    /// `sides N`: the cells of `N` sides on a board of polygons.
    Sides { span: Span, count: Int },
    /// `around CELL`: the cells one step from it.
    Around { span: Span, cell: Name },
    /// `ring CELL`: the cells on the same hole's border as it.
    Ring { span: Span, cell: Name },
    /// `border` (every cell with a side on the border) or `inner` (every other cell).
    Border { span: Span, inner: bool },
}

impl Zone {
    pub fn span(&self) -> Span {
        match self {
            Zone::Rank { span, .. }
            | Zone::File { span, .. }
            | Zone::Cells { span, .. }
            | Zone::Lines { span, .. }
            | Zone::Named { span, .. }
            | Zone::Sides { span, .. }
            | Zone::Around { span, .. }
            | Zone::Ring { span, .. }
            | Zone::Border { span, .. } => *span,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Castle {
    pub span: Span,
    pub name: Name,
    pub fields: Vec<CastleField>,
}

#[derive(Debug, Clone)]
pub enum CastleField {
    /// `from` is `None` for `king -> CELL` (where the side's royal piece stands).
    King { span: Span, from: Option<Name>, to: Name },
    /// With `pick`, `from` is a piece symbol: its first or last piece in the setup.
    Rook { span: Span, from: Name, pick: Option<Pick>, to: Name },
    /// `between`: derived from the king's and rook's cells instead of listed.
    Empty { span: Span, cells: Vec<Name>, between: bool },
    Safe { span: Span, cells: Vec<Name>, between: bool },
    Fen { span: Span, letter: Name },
}

/// `first` or `last`: which of a side's pieces of one symbol, in cell order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    First,
    Last,
}

/// `arrange CELLS { STEP, ... }`.
#[derive(Debug, Clone)]
pub struct Arrange {
    pub span: Span,
    pub cells: Vec<Name>,
    pub steps: Vec<ArrangeStep>,
}

/// One step of an arrangement: pieces (symbols), in order, on free cells of `on` (or of the
/// arrangement).
#[derive(Debug, Clone)]
pub struct ArrangeStep {
    pub span: Span,
    pub pieces: Vec<Name>,
    pub on: Option<Vec<Name>>,
}

// ---------------------------------------------------------------- rules

#[derive(Debug, Clone)]
pub struct Rules {
    pub span: Span,
    pub settings: Vec<Setting>,
    /// The pieces of the `extinction` setting, if any.
    pub extinction: Vec<Name>,
    /// The group of the `facing` setting, if any.
    pub facing: Option<Name>,
}

#[derive(Debug, Clone)]
pub struct Setting {
    pub span: Span,
    pub kind: SettingKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    Stalemate(Outcome),
    StationaryMoves {
        allowed: bool,
    },
    FiftyMove(Int),
    Repetition(Int),
    GameEnd(GameEnd),
    Eliminated(Eliminated),
    /// `bare OUTCOME` (for the side left with royal pieces only), `None` for `bare ignored`;
    /// `counting-move` (true): the bare side moves once more before the game is decided.
    Bare(Option<Outcome>, bool),
    /// `royal-path unattacked` (true) or `any`.
    RoyalPath {
        unattacked: bool,
    },
    /// `setup N`: the default setup number of the `arrange` statements.
    Setup(Int),
    /// `check-limit N`: the side that has given N checks wins.
    CheckLimit(Int),
    /// `extinction ...`: the pieces (names or symbols) in `Rules::extinction`.
    Extinction,
    /// `drops`: captured pieces go to the capturer's hand.
    Drops,
    /// `pass`: a side not in check may pass instead of moving.
    Pass,
    /// `facing GROUP`: royal pieces seeing each other along the group's headings face each
    /// other; the group is `Rules::facing`.
    Facing,
}

/// `game-end`: what a side with no legal move means while three or more teams are in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    LastStanding,
    FirstMate,
}

/// `eliminated`: what becomes of the pieces of a side that is out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eliminated {
    Remove,
    Stay,
}

impl SettingKind {
    pub fn keyword(&self) -> &'static str {
        match self {
            SettingKind::Stalemate(_) => "stalemate",
            SettingKind::StationaryMoves { .. } => "stationary-moves",
            SettingKind::FiftyMove(_) => "fifty-move",
            SettingKind::Repetition(_) => "repetition",
            SettingKind::GameEnd(_) => "game-end",
            SettingKind::Eliminated(_) => "eliminated",
            SettingKind::Bare(..) => "bare",
            SettingKind::RoyalPath { .. } => "royal-path",
            SettingKind::Setup(_) => "setup",
            SettingKind::CheckLimit(_) => "check-limit",
            SettingKind::Extinction => "extinction",
            SettingKind::Drops => "drops",
            SettingKind::Pass => "pass",
            SettingKind::Facing => "facing",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Draw,
    Win,
    Loss,
}
