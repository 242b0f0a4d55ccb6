//! Frontend: AST to [`model::Variant`].
//!
//! Resolves every name, validates everything the model's invariants promise, and computes the step
//! function of the board (grid, `wrap files`, seams, links). It keeps going after an error so one
//! run reports as many problems as it can; the variant exists only when there was no error.
//! Where a name failed to resolve, later checks that depend on it stay quiet instead of piling up
//! follow-on errors.

use std::collections::{HashMap, HashSet};

mod betza;
mod board;
mod cells;
mod drops;
mod setups;

pub use setups::{mix, SetupChoice, MAX_ARRANGEMENTS};
mod hops;
mod identify;
mod pieces;
mod polygons;
mod seam_exprs;
mod sides;
mod steps;
mod web;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use orbis_grammar::ast::{self, Span};

use crate::model::{self, CellId, HeadingId, PieceId};

/// Largest board the runtime tables can address (cells are `u16`, one value means "no cell").
/// The runtime plays boards of up to this many cells (its widest cell set).
pub const MAX_CELLS: usize = orbis_runtime::engine::MAX_CELLS;
/// Headings are stored as `u8` in the runtime tables.
pub const MAX_HEADINGS: usize = 256;
/// Named seams per board: with the `wrap` join, one bit each of the `u32` that records which
/// seams a step crosses (for `avoid`).
pub const MAX_SEAMS: usize = 31;
/// Sets of colored kinds (side × piece) are `u64` bitmasks in the runtime.
pub const MAX_COLORED_KINDS: usize = 64;
/// How many examples a grouped diagnostic lists.
const EXAMPLES: usize = 3;

/// A step function, the seams each step crosses, and where each step came from.
type GridSteps = (Vec<Option<(CellId, HeadingId)>>, Vec<u32>, Vec<StepOrigin>);

/// Where a step of the board came from, so analysis can blame the right source line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepOrigin {
    /// No step: the edge of the board.
    None,
    /// A plain grid step (after `wrap files`).
    Grid,
    /// The seam with this index in [`Sources::seams`].
    Seam(usize),
    /// The link with this index in [`Sources::links`].
    Link(usize),
}

/// Source locations of the board, for diagnostics after the frontend (analysis).
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The `board` keyword.
    pub board: Span,
    /// The `headings { ... }` block.
    pub headings: Span,
    /// Each heading's declaration, by [`HeadingId`].
    pub heading_decls: Vec<Span>,
    /// Each seam's name and whole statement.
    pub seams: Vec<(String, Span)>,
    pub links: Vec<Span>,
    /// Where each cell was declared (the `grid` statement or its name in `cells`), by [`CellId`].
    pub cell_decls: Vec<Span>,
    /// Parallel to [`model::Board::step`].
    pub step_origin: Vec<StepOrigin>,
    /// Each move rule, by piece and rule (parallel to [`model::Piece::rules`]).
    pub rules: Vec<Vec<Span>>,
}

/// The frontend's result: diagnostics (errors and warnings) and, iff there was no error, the
/// variant with its source locations.
pub struct Output {
    pub diagnostics: Vec<Diagnostic<usize>>,
    pub variant: Option<(model::Variant, Sources)>,
}

/// Checks a parsed file. `file_id` is the file's id in the caller's file database.
pub fn check(file: &ast::File, file_id: usize, setup: SetupChoice) -> Output {
    let mut fe = Frontend { file_id, diagnostics: Vec::new(), symbols_complete: true, setup, default_setup: 0, arrangement_ways: Vec::new() };
    let variant = fe.variant(file);
    let has_errors = fe.diagnostics.iter().any(|d| d.severity >= codespan_reporting::diagnostic::Severity::Error);
    Output { diagnostics: fe.diagnostics, variant: if has_errors { None } else { variant } }
}

struct Frontend {
    file_id: usize,
    diagnostics: Vec<Diagnostic<usize>>,
    /// False when a piece symbol was invalid: an unknown symbol may then be that piece, so it is
    /// not reported again.
    symbols_complete: bool,
    /// How the setup number of `arrange` statements is chosen, and the variant's default.
    setup: SetupChoice,
    default_setup: u64,
    /// The ways of each `arrange` met so far (they must agree).
    arrangement_ways: Vec<(u64, Span)>,
}

/// The board as resolved so far; `complete` flags say whether lookups failing there are real errors
/// (otherwise the cause was already reported).
struct BoardInfo {
    board: model::Board,
    sources: Sources,
    /// Every seam, in order (bit `i + 1` of a crossing mask), to build piece-specific geometries.
    seams: Vec<ast::Seam>,
    /// The seams could be evaluated (no error in them, a complete grid).
    seams_ok: bool,
    wrap: bool,
    /// Steps set by `link`, which override seams in every geometry.
    link_steps: Vec<(usize, (CellId, HeadingId))>,
    /// Identified grid positions: the cell they name and, per heading, the heading a piece arriving
    /// there with it has on that cell (`None`: the heading has no vector, or its map failed).
    alias_at: AliasMap,
    cells_by_name: HashMap<String, CellId>,
    headings_by_name: HashMap<String, HeadingId>,
    groups: HashMap<String, Vec<HeadingId>>,
    cells_complete: bool,
    headings_complete: bool,
}

/// Identified grid positions: (x, y) -> (cell, arrival heading per heading).
type AliasMap = HashMap<(i64, i64), (CellId, Vec<Option<HeadingId>>)>;

/// A use of a side direction (`forward` or a `direction`), remembered so a side without it can
/// point at it.
struct ForwardUse {
    /// Index into the variant's directions (0 is `forward`).
    direction: usize,
    piece: String,
    span: Span,
}

/// A rule's `on ...`, resolved once the sides are known.
#[derive(Clone)]
enum PendingOn {
    Cells(Vec<CellId>),
    Zone(ast::Name),
}

/// The largest `distance N` of a rule.
pub const MAX_DISTANCE: usize = 64;

impl Frontend {
    // ------------------------------------------------------------ diagnostics helpers

    fn primary(&self, span: Span, message: impl Into<String>) -> Label<usize> {
        Label::primary(self.file_id, span.range()).with_message(message.into())
    }

    fn secondary(&self, span: Span, message: impl Into<String>) -> Label<usize> {
        Label::secondary(self.file_id, span.range()).with_message(message.into())
    }

    fn error(&mut self, message: impl Into<String>, labels: Vec<Label<usize>>, notes: Vec<String>) {
        self.diagnostics
            .push(Diagnostic::error().with_message(message.into()).with_labels(labels).with_notes(notes));
    }

    fn duplicate(&mut self, what: &str, name: &str, first: Span, again: Span) {
        let labels = vec![
            self.primary(again, format!("{what} `{name}` defined again here")),
            self.secondary(first, "first defined here"),
        ];
        self.error(format!("duplicate {what} `{name}`"), labels, vec![]);
    }

    /// "unknown cell `i1`" with a did-you-mean help when a close name exists.
    fn unknown<'c>(&mut self, what: &str, name: &ast::Name, context: &str, candidates: impl Iterator<Item = &'c str>) {
        let mut notes = Vec::new();
        if let Some(best) = closest(&name.text, candidates) {
            notes.push(format!("help: did you mean `{best}`?"));
        }
        let label = self.primary(name.span, format!("no {what} named `{}`{context}", name.text));
        self.error(format!("unknown {what} `{}`", name.text), vec![label], notes);
    }

    /// A group's headings: headings, earlier groups or `all` (of `headings` headings); unknown
    /// names are reported when `complete`.
    fn group_members(
        &mut self,
        g: &ast::Group,
        headings_by_name: &HashMap<String, HeadingId>,
        groups: &HashMap<String, Vec<HeadingId>>,
        headings: usize,
        complete: bool,
    ) -> Vec<HeadingId> {
        let mut members = Vec::new();
        for m in &g.members {
            if let Some(&h) = headings_by_name.get(&m.text) {
                push_unique(&mut members, h);
            } else if let Some(hs) = groups.get(&m.text) {
                for &h in hs {
                    push_unique(&mut members, h);
                }
            } else if m.text == "all" {
                for h in 0..headings {
                    push_unique(&mut members, h);
                }
            } else if complete {
                let mut names: Vec<&str> = headings_by_name.keys().chain(groups.keys()).map(String::as_str).collect();
                names.sort();
                self.unknown("heading", m, " (groups list headings or earlier groups)", names.into_iter());
            }
        }
        members
    }

    // ------------------------------------------------------------ top level

    fn variant(&mut self, file: &ast::File) -> Option<(model::Variant, Sources)> {
        let mut boards = Vec::new();
        let mut pieces = Vec::new();
        let mut sides = Vec::new();
        let mut rules_blocks = Vec::new();
        for item in &file.items {
            match item {
                ast::Item::Board(b) => boards.push(b),
                ast::Item::Piece(p) => pieces.push(p),
                ast::Item::Side(s) => sides.push(s),
                ast::Item::Rules(r) => rules_blocks.push(r),
            }
        }
        if file.variant.text.trim().is_empty() {
            let label = self.primary(file.variant_span, "the variant needs a name");
            self.error("empty variant name", vec![label], vec![]);
        }
        for extra in boards.iter().skip(1) {
            let labels = vec![
                self.primary(extra.keyword, "a second board"),
                self.secondary(boards[0].keyword, "the board is defined here"),
            ];
            self.error("a variant has exactly one board", labels, vec![]);
        }
        for extra in rules_blocks.iter().skip(1) {
            let labels = vec![
                self.primary(Span::new(extra.span.start, extra.span.start + 5), "a second `rules` block"),
                self.secondary(Span::new(rules_blocks[0].span.start, rules_blocks[0].span.start + 5), "first `rules` block"),
            ];
            self.error("duplicate `rules` block", labels, vec!["help: put all settings in one `rules { ... }`".into()]);
        }

        let board = match boards.first() {
            Some(b) => self.board(b),
            None => {
                let label = self.primary(file.variant_span, "this variant has no board");
                self.error(
                    "missing `board`",
                    vec![label],
                    vec!["help: add e.g. `board { grid files a..h ranks 1..8 headings { N (0, 1) ... } }`".into()],
                );
                BoardInfo {
                    board: model::Board {
                        cells: vec![],
                        headings: vec![],
                        grid: None,
                        step: vec![],
                        crossed: vec![],
                        seams: vec![],
                        rings: vec![],
                        aliases: vec![],
                        complex: None,
                    },
                    sources: Sources::default(),
                    seams: Vec::new(),
                    seams_ok: false,
                    wrap: false,
                    link_steps: Vec::new(),
                    alias_at: HashMap::new(),
                    cells_by_name: HashMap::new(),
                    headings_by_name: HashMap::new(),
                    groups: HashMap::new(),
                    cells_complete: false,
                    headings_complete: false,
                }
            }
        };

        // The default setup number is needed by the sides' arrangements, before the rules.
        for block in &rules_blocks {
            for s in &block.settings {
                if let ast::SettingKind::Setup(n) = s.kind {
                    self.default_setup = u64::try_from(n.value).unwrap_or(0);
                }
            }
        }
        let directions = self.direction_names(&sides, &board);
        let mut forward_uses = Vec::new();
        let mut pending_on = Vec::new();
        let mut model_pieces = self.pieces(&pieces, &board, &directions, &mut forward_uses, &mut pending_on);
        self.piece_geometries(&board, &pieces, &mut model_pieces);
        self.piece_hand_forms(&pieces, &mut model_pieces);
        if pieces.is_empty() {
            let label = self.primary(file.variant_span, "this variant declares no piece");
            self.error("no pieces", vec![label], vec!["help: add e.g. `piece King K royal { step all }`".into()]);
        }
        let (model_sides, zones) = self.sides(file, &sides, &pieces, &model_pieces, &board, &directions, &forward_uses);
        self.check_arrangement_ways();
        self.resolve_origins(&mut model_pieces, pending_on, &model_sides, &zones);
        self.crowned_pieces(&pieces, &mut model_pieces, &model_sides);
        let mut rules = self.rules(rules_blocks.first().copied());
        if rules.bare_counting && model_sides.len() != 2 {
            let at = rules_blocks.first().and_then(|b| b.settings.iter().find(|s| matches!(s.kind, ast::SettingKind::Bare(_, true)))).map(|s| s.span);
            if let Some(at) = at {
                let label = self.primary(at, format!("in a game of {} sides", model_sides.len()));
                self.error("`counting-move` needs a game of two sides", vec![label], vec![
                    "note: the bare side's one more move is answered by the side that bared it; with more sides that side is not defined".into(),
                ]);
            }
        }
        if let Some(block) = rules_blocks.first() {
            for name in &block.extinction {
                if let Some(p) = self.piece_ref(name, &pieces, &model_pieces, format!("unknown piece `{}` in `extinction`", name.text)) {
                    if !rules.extinction.contains(&p) {
                        rules.extinction.push(p);
                    }
                }
            }
            self.check_extinction(&rules.extinction, &model_pieces, &model_sides, block);
            if let Some(group) = &block.facing {
                rules.facing = self.facing(group, &board);
            }
        }
        self.check_drops(&sides, &model_pieces, &model_sides, &rules, rules_blocks.first().copied());

        let colored = model_sides.len().saturating_mul(model_pieces.len());
        if colored > MAX_COLORED_KINDS {
            let label = self.primary(file.variant_span, format!("{} sides × {} pieces = {colored} colored kinds", model_sides.len(), model_pieces.len()));
            self.error(
                format!("too many piece kinds: at most {MAX_COLORED_KINDS} side-and-piece combinations are supported"),
                vec![label],
                vec![],
            );
        }

        let variant = model::Variant {
            name: file.variant.text.clone(),
            board: board.board,
            pieces: model_pieces,
            sides: model_sides,
            rules,
            directions,
            walked: Default::default(),
        };
        let mut sources = board.sources;
        sources.rules = variant.pieces.iter().map(|p| p.rules.iter().map(|r| r.span).collect()).collect();
        Some((variant, sources))
    }

}

impl Frontend {
    /// Appends, for each piece that `crowns` others and each carrier, the crowned piece: the
    /// carrier's moves, royal as the crown is, giving no check when either gives none. Checks
    /// what crowning cannot do yet: carriers that promote, hands with more than two sides.
    fn crowned_pieces(
        &mut self,
        ast_pieces: &[&ast::Piece],
        pieces: &mut Vec<model::Piece>,
        sides: &[model::Side],
    ) {
        let base = pieces.len();
        for k in 0..base {
            for ci in 0..pieces[k].crowns.len() {
                let c = pieces[k].crowns[ci];
                if let Some(side) = sides
                    .iter()
                    .find(|s| s.promotions.iter().any(|p| p.piece == c))
                {
                    let span = ast_pieces[k]
                        .crowns
                        .first()
                        .map_or(ast_pieces[k].name.span, |x| x.span);
                    let label = self.primary(span, format!("`{}` may carry it", pieces[c].name));
                    self.error(format!("`{}` promotes in side `{}` and may carry `{}`", pieces[c].name, side.name, pieces[k].name), vec![label], vec![
                        "note: a crowned piece that promoted would have to pass its crown on; this is not in the language yet".into(),
                    ]);
                }
                let (carrier, crown) = (&pieces[c], &pieces[k]);
                let twin = model::Piece {
                    name: format!("{}+{}", carrier.name, crown.name),
                    symbol: carrier.symbol,
                    royal: crown.royal,
                    resets_clock: carrier.resets_clock,
                    cannot_check: carrier.cannot_check || crown.cannot_check,
                    crowns: Vec::new(),
                    crowned: Some((c, k)),
                    captured_as: None,
                    fen: None,
                    rules: carrier.rules.clone(),
                    geometry: carrier.geometry.clone(),
                };
                pieces.push(twin);
            }
        }
        let held = sides.iter().any(|s| !s.hand.is_empty());
        if held && sides.len() > 2 {
            let span = ast_pieces.first().map_or(Span::default(), |p| p.span);
            let label = self.primary(span, format!("{} sides", sides.len()));
            self.error("pieces in the hand need a game of two sides", vec![label], vec![
                "note: eliminating a side of a game of several would have to take its held pieces too; not in the language yet".into(),
            ]);
        }
    }
}

/// The fewest steps from `from` to every cell, stepping along the headings `by` only (`None`: no
/// such path).
fn distances(board: &model::Board, from: &[CellId], by: &[HeadingId]) -> Vec<Option<u32>> {
    let mut dist = vec![None; board.cells.len()];
    for &c in from {
        dist[c] = Some(0);
    }
    let mut queue: std::collections::VecDeque<CellId> = from.iter().copied().collect();
    while let Some(c) = queue.pop_front() {
        let d = dist[c].unwrap_or(0);
        for &h in by {
            if let Some((t, _)) = board.step(c, h) {
                if dist[t].is_none() {
                    dist[t] = Some(d + 1);
                    queue.push_back(t);
                }
            }
        }
    }
    dist
}

/// Names that mean something in every piece rule and so cannot name a heading or group.
fn is_reserved_direction(name: &str) -> bool {
    matches!(name, "all" | "forward" | "straight")
}

fn describe_cell(cell: &model::Cell, files: &[String], ranks: &[String]) -> String {
    match cell.coords {
        Some((x, y)) => format!(
            "{}{}",
            files.get(x as usize).map_or("?", String::as_str),
            ranks.get(y as usize).map_or("?", String::as_str)
        ),
        None => cell.name.clone(),
    }
}

fn push_unique<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
pub fn closest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    // One-letter names (symbols, headings like `N`) are one edit from every other one-letter
    // name, so only a change of case counts for them.
    let len = name.chars().count();
    let limit = if len <= 1 { 0 } else { (len / 3).max(1) };
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    let mut seen = HashSet::new();
    for c in candidates {
        if c == name || c == "?" || !seen.insert(c) {
            continue;
        }
        let c_lower = c.to_lowercase();
        // `diagonal` for `diag`, `South` for `S`: a prefix is as good as a typo.
        let prefix = !c.is_empty() && len > 1 && (lower.starts_with(&c_lower) || c_lower.starts_with(&lower));
        let d = if c_lower == lower || prefix { 0 } else { edit_distance(name, c) };
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
