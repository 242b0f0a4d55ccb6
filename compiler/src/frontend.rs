//! Frontend: AST to [`model::Variant`].
//!
//! Resolves every name, validates everything the model's invariants promise, and computes the step
//! function of the board (grid, `wrap files`, seams, links). It keeps going after an error so one
//! run reports as many problems as it can; the variant exists only when there was no error.
//! Where a name failed to resolve, later checks that depend on it stay quiet instead of piling up
//! follow-on errors.

use std::collections::{HashMap, HashSet};

mod polygons;
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
pub fn check(file: &ast::File, file_id: usize) -> Output {
    let mut fe = Frontend { file_id, diagnostics: Vec::new(), symbols_complete: true };
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
enum PendingOn {
    Cells(Vec<CellId>),
    Zone(ast::Name),
}

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

        let directions = self.direction_names(&sides, &board);
        let mut forward_uses = Vec::new();
        let mut pending_on = Vec::new();
        let mut model_pieces = self.pieces(&pieces, &board, &directions, &mut forward_uses, &mut pending_on);
        self.piece_geometries(&board, &pieces, &mut model_pieces);
        if pieces.is_empty() {
            let label = self.primary(file.variant_span, "this variant declares no piece");
            self.error("no pieces", vec![label], vec!["help: add e.g. `piece King K royal { step all }`".into()]);
        }
        let (model_sides, zones) = self.sides(file, &sides, &pieces, &model_pieces, &board, &directions, &forward_uses);
        self.resolve_origins(&mut model_pieces, pending_on, &model_sides, &zones);
        let rules = self.rules(rules_blocks.first().copied());

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
        };
        let mut sources = board.sources;
        sources.rules = pieces.iter().map(|p| p.rules.iter().map(|r| r.span).collect()).collect();
        Some((variant, sources))
    }

    // ------------------------------------------------------------ board

    fn board(&mut self, b: &ast::Board) -> BoardInfo {
        if Self::is_polygon_board(b) {
            return self.polygon_board(b);
        }
        let mut grid_stmt = None;
        let mut wrap_stmt: Option<Span> = None;
        let mut headings_stmts: Vec<&ast::Headings> = Vec::new();
        let mut groups = Vec::new();
        let mut seams = Vec::new();
        let mut identifies: Vec<&ast::Seam> = Vec::new();
        let mut cell_stmts = Vec::new();
        let mut transit_stmts: Vec<&ast::CellsDecl> = Vec::new();
        let mut links = Vec::new();
        for stmt in &b.statements {
            match stmt {
                ast::BoardStmt::Grid(g) => match grid_stmt {
                    None => grid_stmt = Some(g),
                    Some(first) => {
                        let labels = vec![self.primary(g.span, "a second grid"), self.secondary(first.span, "first grid")];
                        self.error("a board has at most one `grid`", labels, vec!["help: add further cells with `cells` and `link`".into()]);
                    }
                },
                ast::BoardStmt::Wrap(span) => match wrap_stmt {
                    None => wrap_stmt = Some(*span),
                    Some(first) => self.duplicate("statement", "wrap files", first, *span),
                },
                ast::BoardStmt::Headings(h) => {
                    let same_ring = headings_stmts.iter().find(|f| f.ring.as_ref().map(|n| &n.text) == h.ring.as_ref().map(|n| &n.text));
                    match (same_ring, &h.ring) {
                        (Some(first), None) => {
                            let labels = vec![self.primary(h.span, "a second `headings` block"), self.secondary(first.span, "first `headings` block")];
                            self.error("duplicate `headings` block", labels, vec![
                                "help: declare the main headings in one block, in compass order; further rings need a name: `headings NAME { ... }`".into(),
                            ]);
                        }
                        (Some(first), Some(name)) => {
                            let first_span = first.ring.as_ref().map_or(first.span, |n| n.span);
                            self.duplicate("heading ring", &name.text, first_span, name.span);
                        }
                        (None, _) => headings_stmts.push(h),
                    }
                }
                ast::BoardStmt::Transit(t) => transit_stmts.push(t),
                ast::BoardStmt::Group(g) => groups.push(g),
                ast::BoardStmt::Seam(s) => seams.push(s),
                ast::BoardStmt::Identify(s) => identifies.push(s),
                ast::BoardStmt::Cells(c) => cell_stmts.push(c),
                ast::BoardStmt::Link(l) => links.push(l),
                // Boards of polygons are built by `polygon_board`.
                ast::BoardStmt::Polygon(_) | ast::BoardStmt::Mesh(_) | ast::BoardStmt::Box(_) | ast::BoardStmt::Web(_) => {}
            }
        }

        let mut sources = Sources { board: b.keyword, ..Sources::default() };

        // Headings.
        let mut headings = Vec::new();
        let mut headings_by_name: HashMap<String, HeadingId> = HashMap::new();
        let mut headings_complete = true;
        let mut rings: Vec<Vec<HeadingId>> = Vec::new();
        if let Some(first) = headings_stmts.first() {
            sources.headings = first.span;
        }
        if headings_stmts.iter().all(|h| h.ring.is_some()) {
            if let Some(h) = headings_stmts.first() {
                let label = self.primary(h.span, "only named rings");
                self.error("missing the main `headings` block", vec![label], vec!["help: declare the compass headings in an unnamed `headings { ... }` block".into()]);
                headings_complete = false;
            }
        }
        if headings_stmts.is_empty() {
            let label = self.primary(b.keyword, "this board declares no headings");
            self.error(
                "missing `headings`",
                vec![label],
                vec!["help: add e.g. `headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) }`; pieces move along headings".into()],
            );
            headings_complete = false;
        }
        let mut by_vector: HashMap<(i64, i64), &ast::HeadingDecl> = HashMap::new();
        let mut decl_of: HashMap<String, Span> = HashMap::new();
        for h in &headings_stmts {
            rings.push(Vec::new());
            let ring = rings.len() - 1;
            {
                if h.headings.is_empty() {
                    let label = self.primary(h.span, "no headings in this block");
                    self.error("empty `headings` block", vec![label], vec![]);
                    headings_complete = false;
                }
                for decl in &h.headings {
                    if let Some(first) = decl_of.get(&decl.name.text) {
                        self.duplicate("heading", &decl.name.text, *first, decl.name.span);
                        continue;
                    }
                    if is_reserved_direction(&decl.name.text) {
                        self.reserved(&decl.name, "heading");
                        headings_complete = false;
                        continue;
                    }
                    let vector = match decl.vector {
                        None => None,
                        Some(v) => {
                            let (dx, dy) = (v.dx.value, v.dy.value);
                            if dx == 0 && dy == 0 {
                                let label = self.primary(v.span, "a heading must move");
                                self.error(format!("heading `{}` has the zero vector", decl.name.text), vec![label], vec![]);
                            } else if let Some(other) = by_vector.get(&(dx, dy)) {
                                let labels = vec![
                                    self.primary(v.span, format!("`{}` has the vector ({dx}, {dy})", decl.name.text)),
                                    self.secondary(other.span, format!("and so has `{}`", other.name.text)),
                                ];
                                self.error(
                                    format!("headings `{}` and `{}` have the same vector", other.name.text, decl.name.text),
                                    labels,
                                    vec!["note: seams find headings by their vector, so vectors must be distinct".into()],
                                );
                            } else {
                                by_vector.insert((dx, dy), decl);
                            }
                            match (i32::try_from(dx), i32::try_from(dy)) {
                                (Ok(dx), Ok(dy)) => Some((dx, dy)),
                                _ => {
                                    let label = self.primary(v.span, "too large");
                                    self.error("heading vector out of range", vec![label], vec![]);
                                    None
                                }
                            }
                        }
                    };
                    decl_of.insert(decl.name.text.clone(), decl.name.span);
                    headings_by_name.insert(decl.name.text.clone(), headings.len());
                    rings[ring].push(headings.len());
                    headings.push(model::Heading { name: decl.name.text.clone(), vector, ring, kind: model::Kind::of_vector(vector) });
                    sources.heading_decls.push(decl.span);
                }
                if headings.len() > MAX_HEADINGS {
                    let label = self.primary(h.span, format!("{} headings", headings.len()));
                    self.error(format!("too many headings (at most {MAX_HEADINGS})"), vec![label], vec![]);
                    headings_complete = false;
                }
            }
        }

        // Groups (`all` is predefined).
        let mut group_map: HashMap<String, Vec<HeadingId>> = HashMap::new();
        let mut group_decl: HashMap<String, Span> = HashMap::new();
        for g in &groups {
            if let Some(first) = group_decl.get(&g.name.text) {
                self.duplicate("group", &g.name.text, *first, g.name.span);
                continue;
            }
            if is_reserved_direction(&g.name.text) {
                self.reserved(&g.name, "group");
                continue;
            }
            if let Some(&h) = headings_by_name.get(&g.name.text) {
                let labels = vec![
                    self.primary(g.name.span, "this group"),
                    self.secondary(sources.heading_decls.get(h).copied().unwrap_or(g.name.span), "has the name of this heading"),
                ];
                self.error(format!("group `{}` has the same name as a heading", g.name.text), labels, vec![]);
                continue;
            }
            let mut members = Vec::new();
            for m in &g.members {
                if let Some(&h) = headings_by_name.get(&m.text) {
                    push_unique(&mut members, h);
                } else if let Some(hs) = group_map.get(&m.text) {
                    for &h in hs {
                        push_unique(&mut members, h);
                    }
                } else if m.text == "all" {
                    for h in 0..headings.len() {
                        push_unique(&mut members, h);
                    }
                } else if headings_complete {
                    let names: Vec<String> = headings.iter().map(|h| h.name.clone()).chain(group_map.keys().cloned()).collect();
                    self.unknown("heading", m, " (groups list headings or earlier groups)", names.iter().map(String::as_str));
                }
            }
            group_decl.insert(g.name.text.clone(), g.name.span);
            group_map.insert(g.name.text.clone(), members);
        }

        // Cells: the grid first (rank by rank), then `cells`.
        let mut cells: Vec<model::Cell> = Vec::new();
        let mut cells_by_name: HashMap<String, CellId> = HashMap::new();
        let mut cells_complete = true;
        let mut grid = None;
        let mut aliases: Vec<model::Alias> = Vec::new();
        let mut alias_at: AliasMap = HashMap::new();
        if grid_stmt.is_none() {
            for s in &identifies {
                let label = self.primary(s.name.span, "there is no grid position to identify");
                self.error("`identify` needs a `grid`", vec![label], vec!["note: `identify` gives grid positions to other cells; boards of named cells can link them directly".into()]);
            }
        }
        if let Some(g) = grid_stmt {
            let files = self.labels(&g.files, "file");
            let ranks = self.labels(&g.ranks, "rank");
            match (files, ranks) {
                (Some(files), Some(ranks)) => {
                    let count = files.len().saturating_mul(ranks.len());
                    if count > MAX_CELLS {
                        let label = self.primary(g.span, format!("{} files × {} ranks = {count} cells", files.len(), ranks.len()));
                        self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
                        cells_complete = false;
                    } else {
                        // Identified positions name the cell at their target position.
                        let identified = self.identified_positions(&identifies, &files, &ranks, &headings);
                        let mut cell_at = Vec::with_capacity(count);
                        for (y, rank) in ranks.iter().enumerate() {
                            for (x, file) in files.iter().enumerate() {
                                if identified.contains_key(&(x as i64, y as i64)) {
                                    cell_at.push(None);
                                    continue;
                                }
                                let name = format!("{file}{rank}");
                                if let Some(&other) = cells_by_name.get(&name) {
                                    let label = self.primary(g.span, format!("`{name}` is both {} and {file}{rank}", describe_cell(&cells[other], &files, &ranks)));
                                    self.error(format!("grid cell name `{name}` is ambiguous"), vec![label], vec!["help: choose file and rank names that cannot run together".into()]);
                                    cells_complete = false;
                                    cell_at.push(Some(other));
                                    continue;
                                }
                                cells_by_name.insert(name.clone(), cells.len());
                                cell_at.push(Some(cells.len()));
                                // Counts are bounded by MAX_CELLS, so they fit i32.
                                cells.push(model::Cell { name, coords: Some((x as i32, y as i32)), transit: false });
                                sources.cell_decls.push(g.span);
                            }
                        }
                        let width = files.len();
                        let mut positions: Vec<&(i64, i64)> = identified.keys().collect();
                        positions.sort_by_key(|&&(x, y)| (y, x));
                        for &(x, y) in positions {
                            let ((tx, ty), map) = &identified[&(x, y)];
                            let Some(cell) = cell_at[*ty as usize * width + *tx as usize] else { continue };
                            let name = format!("{}{}", files[x as usize], ranks[y as usize]);
                            if let Some(&other) = cells_by_name.get(&name) {
                                let label = self.primary(g.span, format!("`{name}` is both {} and {name}", cells[other].name));
                                self.error(format!("grid cell name `{name}` is ambiguous"), vec![label], vec!["help: choose file and rank names that cannot run together".into()]);
                                cells_complete = false;
                                continue;
                            }
                            cells_by_name.insert(name.clone(), cell);
                            cell_at[y as usize * width + x as usize] = Some(cell);
                            alias_at.insert((x, y), (cell, map.clone()));
                            aliases.push(model::Alias { name, cell, coords: (x as i32, y as i32) });
                        }
                        grid = Some(model::Grid { files, ranks, cell_at });
                    }
                }
                _ => cells_complete = false,
            }
        }
        for stmt in &cell_stmts {
            for name in &stmt.cells {
                if let Some(&other) = cells_by_name.get(&name.text) {
                    let first = sources.cell_decls.get(other).copied().unwrap_or(name.span);
                    self.duplicate("cell", &name.text, first, name.span);
                    continue;
                }
                cells_by_name.insert(name.text.clone(), cells.len());
                cells.push(model::Cell { name: name.text.clone(), coords: None, transit: false });
                sources.cell_decls.push(name.span);
            }
        }
        if cells.len() > MAX_CELLS {
            let label = self.primary(b.keyword, format!("{} cells", cells.len()));
            self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
            cells_complete = false;
        }
        if cells.is_empty() && cells_complete {
            let label = self.primary(b.keyword, "this board has no cells");
            self.error("empty board", vec![label], vec!["help: add `grid files a..h ranks 1..8` or `cells ...`".into()]);
            cells_complete = false;
        }
        if let (Some(span), None) = (wrap_stmt, &grid) {
            if grid_stmt.is_none() {
                let label = self.primary(span, "there is no grid to wrap");
                self.error("`wrap files` needs a `grid`", vec![label], vec![]);
            }
        }

        let mut seam_names = vec!["wrap".to_string()];
        seam_names.extend(seams.iter().map(|s| s.name.text.clone()));
        // Transit cells.
        for stmt in &transit_stmts {
            for name in &stmt.cells {
                if let Some(c) = self.cell(name, &cells_by_name, cells_complete, " to be a transit cell") {
                    cells[c].transit = true;
                }
            }
        }
        let mut board = model::Board { cells, headings, grid, step: Vec::new(), crossed: Vec::new(), seams: seam_names, rings, aliases, complex: None };
        let step_len = board.cells.len().saturating_mul(board.headings.len());
        board.step = vec![None; step_len];
        board.crossed = vec![0; step_len];
        sources.step_origin = vec![StepOrigin::None; step_len];

        // Seams.
        let mut seen_seams: HashMap<String, Span> = HashMap::new();
        let mut seams_ok = true;
        if let Some(extra) = seams.get(MAX_SEAMS) {
            let label = self.primary(extra.name.span, format!("seam number {}", MAX_SEAMS + 1));
            self.error(format!("too many seams (at most {MAX_SEAMS})"), vec![label], vec![
                "note: a leg names the seams it may not cross (`avoid`), and the `wrap` join counts too: they are bits of one 32-bit mask".into(),
            ]);
            seams_ok = false;
        }
        for s in &seams {
            if s.name.text == "wrap" {
                let label = self.primary(s.name.span, "reserved for the `wrap files` join");
                self.error("a seam may not be named `wrap`", vec![label], vec![]);
                seams_ok = false;
            }
            if let Some(first) = seen_seams.get(&s.name.text) {
                self.duplicate("seam", &s.name.text, *first, s.name.span);
                seams_ok = false;
            }
            seen_seams.insert(s.name.text.clone(), s.name.span);
            seams_ok &= self.check_seam(s, "seam");
            if grid_stmt.is_none() {
                let label = self.primary(s.name.span, "this seam can never apply");
                self.error("a seam needs a `grid`", vec![label], vec!["note: seams continue grid steps that leave the grid".into()]);
                seams_ok = false;
            }
            sources.seams.push((s.name.text.clone(), s.span));
        }
        let seams_ok = seams_ok && board.grid.is_some() && cells_complete;
        if seams_ok {
            // Seams declared `for` some pieces give those pieces their own step function, built
            // once the pieces are known (`piece_geometries`).
            let general: Vec<usize> = (0..seams.len()).filter(|&i| seams[i].pieces.is_empty()).collect();
            let (step, crossed, origin) = self.grid_steps(&board, &alias_at, &seams, &general, wrap_stmt.is_some(), Some((sources.headings, &general)));
            board.step = step;
            board.crossed = crossed;
            sources.step_origin = origin;
        }

        // Links override the grid.
        let mut link_steps = Vec::new();
        let mut linked: HashMap<(CellId, HeadingId), Span> = HashMap::new();
        for l in &links {
            sources.links.push(l.span);
            let from = self.cell(&l.from, &cells_by_name, cells_complete, " on this board");
            let from_h = self.heading(&l.from_heading, &headings_by_name, headings_complete);
            let to = self.cell(&l.to, &cells_by_name, cells_complete, " on this board");
            let to_h = self.heading(&l.to_heading, &headings_by_name, headings_complete);
            if let (Some(from), Some(from_h), Some(to), Some(to_h)) = (from, from_h, to, to_h) {
                if let Some(first) = linked.get(&(from, from_h)) {
                    let labels = vec![
                        self.primary(l.span, format!("a second step from `{}` heading `{}`", l.from.text, l.from_heading.text)),
                        self.secondary(*first, "the first link for it"),
                    ];
                    self.error(format!("duplicate link from `{}` heading `{}`", l.from.text, l.from_heading.text), labels, vec![]);
                    continue;
                }
                linked.insert((from, from_h), l.span);
                let i = from * board.headings.len() + from_h;
                if let Some(slot) = board.step.get_mut(i) {
                    *slot = Some((to, to_h));
                    board.crossed[i] = 0;
                    sources.step_origin[i] = StepOrigin::Link(sources.links.len() - 1);
                    link_steps.push((i, (to, to_h)));
                }
            }
        }

        BoardInfo {
            board,
            sources,
            seams: seams.iter().map(|s| (*s).clone()).collect(),
            seams_ok,
            wrap: wrap_stmt.is_some(),
            link_steps,
            alias_at,
            cells_by_name,
            headings_by_name,
            groups: group_map,
            cells_complete,
            headings_complete,
        }
    }

    fn reserved(&mut self, name: &ast::Name, what: &str) {
        let label = self.primary(name.span, format!("`{}` is predefined", name.text));
        self.error(format!("`{}` cannot be a {what} name", name.text), vec![label], vec![
            "note: `all` means every heading and `forward` the side's forward heading".into(),
        ]);
    }

    /// Files or ranks; `None` after an error.
    fn labels(&mut self, labels: &ast::Labels, what: &str) -> Option<Vec<String>> {
        match labels {
            ast::Labels::List(names) => {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                let mut ok = true;
                for n in names {
                    if let Some(first) = seen.get(n.text.as_str()) {
                        self.duplicate(what, &n.text, *first, n.span);
                        ok = false;
                    }
                    seen.insert(&n.text, n.span);
                }
                ok.then(|| names.iter().map(|n| n.text.clone()).collect())
            }
            ast::Labels::Range { from, to, span } => {
                let letters = |s: &str| {
                    let mut c = s.chars();
                    match (c.next(), c.next()) {
                        (Some(ch), None) if ch.is_ascii_alphabetic() => Some(ch),
                        _ => None,
                    }
                };
                if let (Ok(a), Ok(b)) = (from.text.parse::<i64>(), to.text.parse::<i64>()) {
                    if a > b {
                        let label = self.primary(*span, format!("{a} comes after {b}"));
                        self.error(format!("empty {what} range"), vec![label], vec![format!("help: write `{b}..{a}`")]);
                        return None;
                    }
                    // In i128: the difference of two i64 may not fit an i64.
                    let count = i128::from(b) - i128::from(a) + 1;
                    if count > MAX_CELLS as i128 {
                        let label = self.primary(*span, format!("{count} {what}s"));
                        self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
                        return None;
                    }
                    return Some((a..=b).map(|i| i.to_string()).collect());
                }
                match (letters(&from.text), letters(&to.text)) {
                    (Some(a), Some(b)) if a.is_ascii_lowercase() == b.is_ascii_lowercase() => {
                        if a > b {
                            let label = self.primary(*span, format!("`{a}` comes after `{b}`"));
                            self.error(format!("empty {what} range"), vec![label], vec![format!("help: write `{b}..{a}`")]);
                            return None;
                        }
                        Some((a..=b).map(|c| c.to_string()).collect())
                    }
                    _ => {
                        let label = self.primary(*span, "not a range of single letters or of integers");
                        self.error(
                            format!("invalid {what} range"),
                            vec![label],
                            vec!["help: write a letter range like `a..h`, an integer range like `1..8`, or list the names".into()],
                        );
                        None
                    }
                }
            }
        }
    }

    fn cell(&mut self, name: &ast::Name, cells: &HashMap<String, CellId>, complete: bool, context: &str) -> Option<CellId> {
        match cells.get(&name.text) {
            Some(&c) => Some(c),
            None => {
                if complete {
                    self.unknown("cell", name, context, cells.keys().map(String::as_str));
                }
                None
            }
        }
    }

    fn heading(&mut self, name: &ast::Name, headings: &HashMap<String, HeadingId>, complete: bool) -> Option<HeadingId> {
        match headings.get(&name.text) {
            Some(&h) => Some(h),
            None => {
                if complete {
                    self.unknown("heading", name, "", headings.keys().map(String::as_str));
                }
                None
            }
        }
    }

    /// The positions the `identify` statements give to other cells: (x, y) -> (target position,
    /// arrival heading per heading). Reports every problem; a statement with errors identifies
    /// nothing, a position whose target is itself identified is dropped.
    #[allow(clippy::type_complexity)]
    fn identified_positions(
        &mut self,
        identifies: &[&ast::Seam],
        files: &[String],
        ranks: &[String],
        headings: &[model::Heading],
    ) -> HashMap<(i64, i64), ((i64, i64), Vec<Option<HeadingId>>)> {
        let (width, height) = (files.len() as i64, ranks.len() as i64);
        let pos_name = |x: i64, y: i64| format!("{}{}", files[x as usize], ranks[y as usize]);
        let by_vector: HashMap<(i64, i64), HeadingId> = headings
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.vector.map(|(dx, dy)| ((dx as i64, dy as i64), i)))
            .collect();
        let mut out: HashMap<(i64, i64), ((i64, i64), Vec<Option<HeadingId>>)> = HashMap::new();
        // Which statement identified a position, for "identified twice".
        let mut by: HashMap<(i64, i64), usize> = HashMap::new();
        let mut names: HashMap<&str, Span> = HashMap::new();
        for (k, s) in identifies.iter().enumerate() {
            if let Some(first) = names.get(s.name.text.as_str()) {
                self.duplicate("identify", &s.name.text, *first, s.name.span);
                continue;
            }
            names.insert(&s.name.text, s.name.span);
            if !self.check_identify(s) {
                continue;
            }
            let mut p = IdentifyProblems::default();
            let mut twice: Vec<((i64, i64), usize)> = Vec::new();
            let mut mine = Vec::new();
            for y in 0..height {
                for x in 0..width {
                    let env = Env { x, y, dx: 0, dy: 0 };
                    match eval_bool(&s.when, &env) {
                        Err(e) => {
                            p.failed.push(((x, y), e));
                            continue;
                        }
                        Ok(false) => continue,
                        Ok(true) => {}
                    }
                    let (tx, ty) = match eval_pair(&s.to, &env) {
                        Ok(t) => t,
                        Err(e) => {
                            p.failed.push(((x, y), e));
                            continue;
                        }
                    };
                    if (tx, ty) == (x, y) {
                        // A position identified with itself stays what it is.
                        continue;
                    }
                    if tx < 0 || ty < 0 || tx >= width || ty >= height {
                        p.off_board.push(((x, y), (tx, ty)));
                        continue;
                    }
                    let mut map = Vec::with_capacity(headings.len());
                    for (h, heading) in headings.iter().enumerate() {
                        let Some((dx, dy)) = heading.vector else {
                            map.push(None);
                            continue;
                        };
                        let env = Env { x, y, dx: dx as i64, dy: dy as i64 };
                        let arrival = match &s.heading {
                            ast::SeamHeading::Same(_) => Ok(Some(h)),
                            ast::SeamHeading::Vector(v) => eval_pair(v, &env).map(|vec| match by_vector.get(&vec) {
                                Some(&a) => Some(a),
                                None => {
                                    p.bad_heading.push(((x, y), h, vec));
                                    None
                                }
                            }),
                        };
                        match arrival {
                            Ok(a) => map.push(a),
                            Err(e) => {
                                p.failed.push(((x, y), e));
                                map.push(None);
                            }
                        }
                    }
                    if let Some(&other) = by.get(&(x, y)) {
                        twice.push(((x, y), other));
                        continue;
                    }
                    mine.push(((x, y), (tx, ty), map));
                }
            }
            let ok = p.off_board.is_empty() && p.bad_heading.is_empty() && p.failed.is_empty() && twice.is_empty();
            if let Some(&(_, other)) = twice.first() {
                let examples: Vec<String> = twice.iter().take(EXAMPLES).map(|&((x, y), _)| format!("`{}`", pos_name(x, y))).collect();
                let labels = vec![
                    self.primary(s.name.span, format!("identifies {} position(s) again", twice.len())),
                    self.secondary(identifies[other].name.span, "already identified here"),
                ];
                self.error(
                    format!("`identify {}` identifies positions that `{}` identifies already", s.name.text, identifies[other].name.text),
                    labels,
                    vec![format!("note: {}{}", examples.join(", "), if twice.len() > EXAMPLES { ", ..." } else { "" }), "help: narrow one of the conditions so that every position is identified once".into()],
                );
            }
            if !p.off_board.is_empty() {
                let examples: Vec<String> = p
                    .off_board
                    .iter()
                    .take(EXAMPLES)
                    .map(|&((x, y), (tx, ty))| format!("`{}` would be ({tx}, {ty})", pos_name(x, y)))
                    .collect();
                let labels = vec![
                    self.primary(s.to.span, format!("off the grid for {} position(s)", p.off_board.len())),
                    self.secondary(s.name.span, "in this identify"),
                ];
                self.error(format!("`identify {}` names positions off the grid", s.name.text), labels, vec![
                    format!("note: {}", examples.join("; ")),
                    format!("note: the grid spans x = 0..{} and y = 0..{} (0-based file and rank indices)", width - 1, height - 1),
                ]);
            }
            if !p.bad_heading.is_empty() {
                let examples: Vec<String> = p
                    .bad_heading
                    .iter()
                    .take(EXAMPLES)
                    .map(|&((x, y), h, (vx, vy))| format!("arriving on `{}` heading `{}` gives ({vx}, {vy})", pos_name(x, y), headings[h].name))
                    .collect();
                let span = match &s.heading {
                    ast::SeamHeading::Vector(v) => v.span,
                    ast::SeamHeading::Same(sp) => *sp,
                };
                let label = self.primary(span, format!("not the vector of a declared heading for {} arrival(s)", p.bad_heading.len()));
                self.error(format!("`identify {}` turns onto an undeclared heading", s.name.text), vec![label], vec![format!("note: {}", examples.join("; "))]);
            }
            if let Some(((x, y), e)) = p.failed.first() {
                let label = self.primary(s.span, e.clone());
                self.error(format!("`identify {}` cannot be evaluated", s.name.text), vec![label], vec![format!(
                    "note: first at `{}` ({} evaluation(s) failed)",
                    pos_name(*x, *y),
                    p.failed.len()
                )]);
            }
            if ok {
                for (pos, target, map) in mine {
                    by.insert(pos, k);
                    out.insert(pos, (target, map));
                }
            }
        }
        // A target must be a cell of its own: chains are not followed.
        let mut chained: Vec<((i64, i64), (i64, i64))> = out.iter().filter(|(_, (t, _))| out.contains_key(t)).map(|(&p, &(t, _))| (p, t)).collect();
        chained.sort_by_key(|&((x, y), _)| (y, x));
        let mut reported = HashSet::new();
        for &(pos, target) in &chained {
            let k = by[&pos];
            if !reported.insert(k) {
                continue;
            }
            let (tt, _) = out[&target];
            let labels = vec![
                self.primary(identifies[k].to.span, format!("`{}` is identified with `{}` here", pos_name(pos.0, pos.1), pos_name(target.0, target.1))),
                self.secondary(identifies[by[&target]].name.span, format!("but `{}` is itself identified with `{}` here", pos_name(target.0, target.1), pos_name(tt.0, tt.1))),
            ];
            let count = chained.iter().filter(|&&(p, _)| by[&p] == k).count();
            self.error(format!("`identify {}` identifies positions with positions that are not cells of their own", identifies[k].name.text), labels, vec![
                format!("note: {count} position(s); chains of identifications are not followed"),
                "help: identify with the cell's own position, or leave the target out of the condition".into(),
            ]);
        }
        for (pos, _) in chained {
            out.remove(&pos);
        }
        out
    }

    /// Type-checks an `identify`: as a seam, and the condition and target use only `x` and `y`.
    fn check_identify(&mut self, s: &ast::Seam) -> bool {
        let mut ok = self.check_seam(s, "identify");
        for e in [&s.when, &s.to.x, &s.to.y] {
            if let Some((span, v)) = find_var(e, &["dx", "dy"]) {
                let label = self.primary(span, "no heading here");
                self.error(format!("`{v}` in the condition or position of `identify {}`", s.name.text), vec![label], vec![
                    "note: which positions are identified, and with what, depends on `x` and `y` only; `dx` and `dy` may appear in the heading".into(),
                ]);
                ok = false;
            }
        }
        ok
    }

    /// Type-checks a seam: the condition is a condition, coordinates and vectors are numbers,
    /// variables exist.
    fn check_seam(&mut self, s: &ast::Seam, kind: &str) -> bool {
        let mut ok = true;
        match self.expr_type(&s.when) {
            Some(Type::Bool) => {}
            Some(Type::Int) => {
                let label = self.primary(s.when.span, "this is a number");
                self.error(format!("the condition of {kind} `{}` is not a condition", s.name.text), vec![label], vec!["help: compare it, e.g. `y > 7`".into()]);
                ok = false;
            }
            None => ok = false,
        }
        let mut pairs = vec![(&s.to, "landing coordinate")];
        if let ast::SeamHeading::Vector(v) = &s.heading {
            pairs.push((v, "heading vector"));
        }
        for (pair, what) in pairs {
            for e in [&pair.x, &pair.y] {
                match self.expr_type(e) {
                    Some(Type::Int) => {}
                    Some(Type::Bool) => {
                        let label = self.primary(e.span, "this is a condition");
                        self.error(format!("a {what} of {kind} `{}` must be a number", s.name.text), vec![label], vec![]);
                        ok = false;
                    }
                    None => ok = false,
                }
            }
        }
        ok
    }

    /// The type of an expression, or `None` after reporting an error in it.
    fn expr_type(&mut self, e: &ast::Expr) -> Option<Type> {
        use ast::{BinOp::*, ExprKind};
        match &e.kind {
            ExprKind::Int(_) => Some(Type::Int),
            ExprKind::Var(v) => {
                if VARIABLES.contains(&v.as_str()) {
                    Some(Type::Int)
                } else {
                    let mut notes = vec!["note: seam expressions know `x`, `y` (where the step would land) and `dx`, `dy` (the heading's vector)".to_string()];
                    if let Some(best) = closest(v, VARIABLES.iter().copied()) {
                        notes.insert(0, format!("help: did you mean `{best}`?"));
                    }
                    let label = self.primary(e.span, "not a seam variable");
                    self.error(format!("unknown variable `{v}`"), vec![label], notes);
                    None
                }
            }
            ExprKind::Neg(inner) => self.operand(inner, Type::Int, "-").map(|_| Type::Int),
            ExprKind::Not(inner) => self.operand(inner, Type::Bool, "not").map(|_| Type::Bool),
            ExprKind::Binary(op, a, b) => {
                let (operand, result) = match op {
                    Add | Sub | Mul | Div | Mod => (Type::Int, Type::Int),
                    Lt | Le | Gt | Ge | Eq | Ne => (Type::Int, Type::Bool),
                    And | Or => (Type::Bool, Type::Bool),
                };
                let ta = self.operand(a, operand, op.symbol());
                let tb = self.operand(b, operand, op.symbol());
                (ta.is_some() && tb.is_some()).then_some(result)
            }
        }
    }

    fn operand(&mut self, e: &ast::Expr, wanted: Type, op: &str) -> Option<Type> {
        let t = self.expr_type(e)?;
        if t == wanted {
            return Some(t);
        }
        let (expected, found) = match wanted {
            Type::Int => ("a number", "a condition"),
            Type::Bool => ("a condition", "a number"),
        };
        let label = self.primary(e.span, format!("this is {found}"));
        self.error(format!("`{op}` expects {expected}, found {found}"), vec![label], vec![]);
        None
    }

    /// Computes grid steps, then continues steps that leave the grid through the seams. Problems
    /// are collected per seam and reported once per seam with a few examples.
    /// The grid's step function with the seams `use_seams` (indices into `seams`, tried in that
    /// order), the seams each step crosses (bit 0 `wrap`, bit `i + 1` seam `i`), and where each
    /// step came from. With `report`, seams that fail are reported.
    #[allow(clippy::too_many_arguments)]
    fn grid_steps(
        &mut self,
        board: &model::Board,
        alias_at: &AliasMap,
        seams: &[&ast::Seam],
        use_seams: &[usize],
        wrap: bool,
        report: Option<(Span, &[usize])>,
    ) -> GridSteps {
        let nh = board.headings.len();
        let len = board.cells.len() * nh;
        let (mut step, mut crossed, mut origin) = (vec![None; len], vec![0u32; len], vec![StepOrigin::None; len]);
        let Some(grid) = &board.grid else { return (step, crossed, origin) };
        let width = grid.files.len() as i64;
        let height = grid.ranks.len() as i64;
        let by_vector: HashMap<(i64, i64), HeadingId> = board
            .headings
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.vector.map(|(dx, dy)| ((dx as i64, dy as i64), i)))
            .collect();
        let cell_at = |x: i64, y: i64| -> Option<CellId> {
            if x < 0 || y < 0 || x >= width || y >= height {
                return None;
            }
            grid.cell_at.get((y * width + x) as usize).copied().flatten()
        };
        // Where a piece arriving on grid position (x, y) with heading `h` lands, and with which
        // heading: on an identified position, the cell it names, with the heading turned into that
        // cell's frame (`None` when the turn failed; that was reported with the `identify`).
        let land = |x: i64, y: i64, h: HeadingId| -> Option<(CellId, Option<HeadingId>)> {
            let cell = cell_at(x, y)?;
            match alias_at.get(&(x, y)) {
                Some((_, map)) => Some((cell, map.get(h).copied().flatten())),
                None => Some((cell, Some(h))),
            }
        };
        // Wraps x, and says whether that crossed the join.
        let wrap_x = |x: i64| -> (i64, bool) {
            if wrap && width > 0 {
                let w = x.rem_euclid(width);
                (w, w != x)
            } else {
                (x, false)
            }
        };
        let mut problems: Vec<SeamProblems> = seams.iter().map(|_| SeamProblems::default()).collect();

        for (cell, c) in board.cells.iter().enumerate() {
            let Some((x, y)) = c.coords else { continue };
            for (h, heading) in board.headings.iter().enumerate() {
                let Some((dx, dy)) = heading.vector else { continue };
                let (dx, dy) = (dx as i64, dy as i64);
                let (nx, wrapped) = wrap_x(x as i64 + dx);
                let ny = y as i64 + dy;
                let i = cell * nh + h;
                let wrap_bit = if wrapped { 1 } else { 0 };
                if let Some((to, arrival)) = land(nx, ny, h) {
                    if let Some(arrival) = arrival {
                        step[i] = Some((to, arrival));
                        crossed[i] = wrap_bit;
                        origin[i] = StepOrigin::Grid;
                    }
                    continue;
                }
                let env = Env { x: nx, y: ny, dx, dy };
                for &si in use_seams {
                    let seam = seams[si];
                    let p = &mut problems[si];
                    match eval(&seam.when, &env) {
                        Err(e) => {
                            p.failed.push((cell, h, e));
                            break;
                        }
                        Ok(Value::Bool(false)) => continue,
                        Ok(_) => {}
                    }
                    let landing = eval_pair(&seam.to, &env);
                    let new_heading = match &seam.heading {
                        ast::SeamHeading::Same(_) => Ok(Some(h)),
                        ast::SeamHeading::Vector(v) => eval_pair(v, &env).map(|vec| by_vector.get(&vec).copied().ok_or(vec)).map(|r| match r {
                            Ok(h) => Some(h),
                            Err(vec) => {
                                p.bad_heading.push((cell, h, vec));
                                None
                            }
                        }),
                    };
                    match (landing, new_heading) {
                        (Err(e), _) | (_, Err(e)) => p.failed.push((cell, h, e)),
                        (Ok(_), Ok(None)) => {}
                        (Ok((tx, ty)), Ok(Some(h2))) => {
                            let (tx, wrapped_again) = wrap_x(tx);
                            match land(tx, ty, h2) {
                                Some((to, Some(arrival))) => {
                                    step[i] = Some((to, arrival));
                                    crossed[i] = wrap_bit | if wrapped_again { 1 } else { 0 } | 1 << (si + 1);
                                    origin[i] = StepOrigin::Seam(si);
                                }
                                Some((_, None)) => {}
                                None => p.off_board.push((cell, h, (tx, ty))),
                            }
                        }
                    }
                    break;
                }
            }
        }
        let Some((headings_span, to_report)) = report else { return (step, crossed, origin) };
        for (si, p) in problems.iter_mut().enumerate() {
            if !to_report.contains(&si) {
                *p = SeamProblems::default();
            }
        }

        let cell_name = |c: CellId| board.cells[c].name.clone();
        let heading_name = |h: HeadingId| board.headings[h].name.clone();
        for (seam, p) in seams.iter().zip(problems) {
            if !p.off_board.is_empty() {
                let examples: Vec<String> = p
                    .off_board
                    .iter()
                    .take(EXAMPLES)
                    .map(|&(c, h, (x, y))| format!("from `{}` heading `{}` it lands on ({x}, {y})", cell_name(c), heading_name(h)))
                    .collect();
                let mut notes = vec![format!("note: {}", examples.join("; "))];
                if p.off_board.len() > EXAMPLES {
                    notes[0].push_str(&format!("; and {} more", p.off_board.len() - EXAMPLES));
                }
                notes.push(format!("note: the grid spans x = 0..{} and y = 0..{} (0-based file and rank indices)", width - 1, height - 1));
                let labels = vec![
                    self.primary(seam.to.span, format!("lands off the board for {} step(s)", p.off_board.len())),
                    self.secondary(seam.name.span, "in this seam"),
                ];
                self.error(format!("seam `{}` leads off the board", seam.name.text), labels, notes);
            }
            if !p.bad_heading.is_empty() {
                let examples: Vec<String> = p
                    .bad_heading
                    .iter()
                    .take(EXAMPLES)
                    .map(|&(c, h, (vx, vy))| format!("from `{}` heading `{}` the new heading is ({vx}, {vy})", cell_name(c), heading_name(h)))
                    .collect();
                let span = match &seam.heading {
                    ast::SeamHeading::Vector(v) => v.span,
                    ast::SeamHeading::Same(s) => *s,
                };
                let label = self.primary(span, format!("not the vector of a declared heading for {} step(s)", p.bad_heading.len()));
                self.error(
                    format!("seam `{}` turns onto an undeclared heading", seam.name.text),
                    vec![label, self.secondary(headings_span, "headings are declared here")],
                    vec![format!("note: {}", examples.join("; "))],
                );
            }
            if let Some(&(c, h, ref e)) = p.failed.first() {
                let label = self.primary(seam.span, e.clone());
                self.error(
                    format!("seam `{}` cannot be evaluated", seam.name.text),
                    vec![label],
                    vec![format!("note: first at `{}` heading `{}` ({} step(s) in all)", cell_name(c), heading_name(h), p.failed.len())],
                );
            }
        }
        (step, crossed, origin)
    }

    /// Gives each piece named in a seam's `for` its own step function: the general seams and its
    /// own, in declaration order, then the links.
    fn piece_geometries(&mut self, board: &BoardInfo, pieces: &[&ast::Piece], model_pieces: &mut [model::Piece]) {
        let mut own: Vec<Vec<usize>> = vec![Vec::new(); model_pieces.len()];
        for (si, seam) in board.seams.iter().enumerate() {
            for name in &seam.pieces {
                match pieces.iter().position(|p| p.name.text == name.text) {
                    Some(pi) => push_unique(&mut own[pi], si),
                    None => self.unknown("piece", name, " (a seam's `for` names pieces)", pieces.iter().map(|p| p.name.text.as_str())),
                }
            }
        }
        if !board.seams_ok {
            return;
        }
        let seams: Vec<&ast::Seam> = board.seams.iter().collect();
        let mut reported: Vec<usize> = Vec::new();
        for (pi, mine) in own.iter().enumerate() {
            if mine.is_empty() {
                continue;
            }
            let order: Vec<usize> = (0..seams.len()).filter(|&i| seams[i].pieces.is_empty() || mine.contains(&i)).collect();
            // Problems of a piece-specific seam are reported once, with the first piece it is for.
            let fresh: Vec<usize> = mine.iter().copied().filter(|i| !reported.contains(i)).collect();
            reported.extend(&fresh);
            let (mut step, mut crossed, _) =
                self.grid_steps(&board.board, &board.alias_at, &seams, &order, board.wrap, Some((board.sources.headings, &fresh)));
            for &(i, target) in &board.link_steps {
                step[i] = Some(target);
                crossed[i] = 0;
            }
            model_pieces[pi].geometry = Some(model::OwnGeometry { step, crossed });
        }
    }

    /// The seams a leg may not cross, as a bit mask of [`model::Board::seams`].
    fn avoid(&mut self, names: &[ast::Name], board: &BoardInfo) -> u32 {
        let mut mask = 0;
        for name in names {
            match board.board.seams.iter().position(|s| *s == name.text) {
                Some(bit) => mask |= 1u32.checked_shl(bit as u32).unwrap_or(0),
                None if board.seams_ok || board.board.seams.is_empty() => {
                    self.unknown("seam", name, " (`avoid` names seams, or `wrap`)", board.board.seams.iter().map(String::as_str))
                }
                None => {}
            }
        }
        mask
    }

    // ------------------------------------------------------------ pieces

    fn pieces(
        &mut self,
        pieces: &[&ast::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &mut Vec<ForwardUse>,
        pending_on: &mut Vec<(PieceId, usize, PendingOn, Span)>,
    ) -> Vec<model::Piece> {
        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut symbols: HashMap<char, Span> = HashMap::new();
        let mut symbols_complete = true;
        let mut out = Vec::new();
        for p in pieces {
            if let Some(first) = names.get(p.name.text.as_str()) {
                self.duplicate("piece", &p.name.text, *first, p.name.span);
            }
            names.insert(&p.name.text, p.name.span);
            let symbol = match self.symbol(&p.symbol, "piece symbol") {
                Some(c) => {
                    if let Some(first) = symbols.get(&c) {
                        self.duplicate("piece symbol", &c.to_string(), *first, p.symbol.span);
                    }
                    symbols.insert(c, p.symbol.span);
                    c
                }
                None => {
                    symbols_complete = false;
                    // Keep resolving setups with the evident intent (`b` -> `B`), quietly.
                    recovered_symbol(&p.symbol.text)
                }
            };
            if p.rules.is_empty() {
                let label = self.primary(p.name.span, "this piece cannot move");
                self.error(format!("piece `{}` has no move rule", p.name.text), vec![label], vec![
                    "help: add a rule inside the braces, e.g. `step all` or `slide orth`".into(),
                ]);
            }
            let mut rules = Vec::new();
            for r in &p.rules {
                if let Some((rule, on)) = self.rule(r, p, board, directions, forward_uses) {
                    if let Some((on, span)) = on {
                        pending_on.push((out.len(), rules.len(), on, span));
                    }
                    rules.push(rule);
                }
            }
            out.push(model::Piece {
                name: p.name.text.clone(),
                symbol,
                royal: p.royal.is_some(),
                resets_clock: p.resets_clock.is_some(),
                rules,
                geometry: None,
            });
        }
        if !pieces.is_empty() && !pieces.iter().any(|p| p.royal.is_some()) {
            // Point at the piece most likely meant to be royal.
            let king = pieces.iter().find(|p| p.name.text.to_lowercase().contains("king")).unwrap_or(&pieces[0]);
            let label = self.primary(king.name.span, "not marked `royal`");
            self.error("no piece is royal", vec![label], vec![
                format!("help: mark the piece whose capture loses, e.g. `piece {} {} royal {{ ... }}`", king.name.text, king.symbol.text),
                "note: check, checkmate and castling are about royal pieces".into(),
            ]);
        }
        self.symbols_complete = symbols_complete;
        out
    }

    /// A piece symbol or FEN letter: exactly one upper-case ASCII letter.
    fn symbol(&mut self, name: &ast::Name, what: &str) -> Option<char> {
        let mut chars = name.text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => Some(c),
            (Some(c), None) if c.is_ascii_lowercase() => {
                let label = self.primary(name.span, "lower case");
                self.error(format!("a {what} must be an upper-case letter"), vec![label], vec![format!(
                    "help: write `{}`; the second side's FEN uses the lower-case letter",
                    c.to_ascii_uppercase()
                )]);
                None
            }
            _ => {
                let label = self.primary(name.span, "not a single letter");
                let note = if what == "piece symbol" {
                    "note: symbols are used in FEN, one letter per piece".to_string()
                } else {
                    "note: each castling rule is one letter of FEN's castling field (`K` and `Q` for the orthodox rules, or the rook's file in upper case); write one letter per rule".to_string()
                };
                self.error(format!("a {what} must be a single letter, found `{}`", name.text), vec![label], vec![note]);
                None
            }
        }
    }

    /// A checked rule, and its `on ...` (resolved once the sides are known).
    #[allow(clippy::type_complexity)]
    fn rule(
        &mut self,
        r: &ast::Rule,
        piece: &ast::Piece,
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &mut Vec<ForwardUse>,
    ) -> Option<(model::MoveRule, Option<(PendingOn, Span)>)> {
        use ast::ModifierKind::*;
        let mut seen: HashMap<ast::ModifierKind, Span> = HashMap::new();
        for m in &r.modifiers {
            if let Some(first) = seen.get(&m.kind) {
                let labels = vec![self.primary(m.span, "repeated"), self.secondary(*first, "first here")];
                self.error(format!("modifier `{}` given twice", m.kind.keyword()), labels, vec![]);
            }
            seen.insert(m.kind, m.span);
        }
        let mut ok = true;
        if let (Some(&a), Some(&b)) = (seen.get(&MoveOnly), seen.get(&CaptureOnly)) {
            let labels = vec![self.primary(b, "must capture"), self.secondary(a, "may not capture")];
            self.error("`move-only` and `capture-only` contradict each other", labels, vec![]);
            ok = false;
        }
        if let (Some(&a), Some(&b)) = (seen.get(&MoveOnly), seen.get(&EnPassant)) {
            let labels = vec![self.primary(b, "en passant is a capture"), self.secondary(a, "but this rule may not capture")];
            self.error("`en-passant` on a `move-only` rule", labels, vec![]);
            ok = false;
        }
        if let (Some(&i), None) = (seen.get(&Initial), seen.get(&MoveOnly)) {
            let label = self.primary(i, "this rule may capture");
            self.error("`initial` is only supported on `move-only` rules", vec![label], vec![
                "note: attack tests do not know whether a piece has moved, so a capture that depends on it cannot be checked"
                    .into(),
                "help: add `move-only`, or drop `initial`".into(),
            ]);
            ok = false;
        }
        let slides = r.legs.iter().any(|l| l.slides);
        for kind in [EnPassantTarget, EnPassant] {
            if let (Some(&m), true) = (seen.get(&kind), slides) {
                let label = self.primary(m, "on a sliding rule");
                self.error(format!("`{}` is only supported on rules made of steps", kind.keyword()), vec![label], vec![
                    "help: write the move as `step` legs, e.g. `step forward then step straight`".into(),
                ]);
                ok = false;
            }
        }
        let mode = if seen.contains_key(&MoveOnly) {
            model::Mode::MoveOnly
        } else if seen.contains_key(&CaptureOnly) {
            model::Mode::CaptureOnly
        } else {
            model::Mode::Both
        };

        let (first, rest) = r.legs.split_first()?;
        let first_dirs = match &first.dirs {
            ast::LegDirs::Dirs(d) => self.dirs(d, piece, board, directions, forward_uses),
            other => {
                let (span, word) = match other {
                    ast::LegDirs::Straight(s) => (*s, "`straight`"),
                    ast::LegDirs::Turn(t) => (t.span, "`turn`"),
                    ast::LegDirs::Dirs(_) => (first.span, ""),
                };
                let label = self.primary(span, "the first leg has no heading to keep or turn");
                self.error(format!("{word} used in the first leg"), vec![label], vec![
                    "help: start with headings, e.g. `step orth` or `slide forward`; `straight` and `turn` continue after `then`".into(),
                ]);
                None
            }
        };
        let mut legs = Vec::new();
        for leg in rest {
            let turns = match &leg.dirs {
                ast::LegDirs::Straight(_) => vec![0],
                ast::LegDirs::Turn(t) => self.turns(t),
                ast::LegDirs::Dirs(d) => {
                    let label = self.primary(d.span, "a leg after `then` continues the heading the piece arrived with");
                    self.error("headings given in a later leg", vec![label], vec![
                        "help: write `straight` to keep the heading or `turn K` to rotate it".into(),
                    ]);
                    ok = false;
                    continue;
                }
            };
            let avoid = self.avoid(&leg.avoid, board);
            legs.push(model::Leg { slides: leg.slides, turns, avoid });
        }
        let on = match &r.on {
            None => None,
            Some(on) => match &on.target {
                ast::OnTarget::Zone(name) => Some((PendingOn::Zone(name.clone()), on.span)),
                ast::OnTarget::Cells { span, cells } => {
                    if cells.is_empty() {
                        let label = self.primary(*span, "no cells");
                        self.error("empty `on` list", vec![label], vec!["note: a rule `on { }` could never apply".into()]);
                        ok = false;
                    }
                    let mut ids = Vec::new();
                    for c in cells {
                        match self.cell(c, &board.cells_by_name, board.cells_complete, " on this board") {
                            Some(id) => push_unique(&mut ids, id),
                            None => ok = false,
                        }
                    }
                    Some((PendingOn::Cells(ids), on.span))
                }
            },
        };
        let first = first_dirs?;
        let first_avoid = self.avoid(&r.legs[0].avoid, board);
        let rule = model::MoveRule {
            mode,
            initial: seen.contains_key(&Initial),
            leap: seen.contains_key(&Leap),
            en_passant_target: seen.contains_key(&EnPassantTarget),
            en_passant: seen.contains_key(&EnPassant),
            across_transit: seen.contains_key(&AcrossTransit),
            first,
            first_slides: r.legs.first().is_some_and(|l| l.slides),
            first_avoid,
            legs,
            origins: None,
        };
        ok.then_some((rule, on))
    }

    /// Turn amounts, kept small (a turn by the number of headings is no turn).
    fn turns(&mut self, t: &ast::Turn) -> Vec<i32> {
        let mut out = Vec::new();
        for &a in &t.amounts {
            match i32::try_from(a) {
                Ok(a) if a.unsigned_abs() as usize <= MAX_HEADINGS => push_unique(&mut out, a),
                _ => {
                    let label = self.primary(t.span, "too large");
                    self.error(format!("turn by {a} is out of range"), vec![label], vec![]);
                }
            }
        }
        out
    }

    fn dirs(
        &mut self,
        d: &ast::Dirs,
        piece: &ast::Piece,
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &mut Vec<ForwardUse>,
    ) -> Option<model::Dirs> {
        let turns = match &d.turn {
            Some(t) => self.turns(t),
            None => vec![0],
        };
        if let ast::DirSet::Name(name) = &d.set {
            let is_board_name = board.headings_by_name.contains_key(&name.text) || board.groups.contains_key(&name.text);
            if let Some(direction) = directions.iter().position(|d| *d == name.text).filter(|_| !is_board_name) {
                forward_uses.push(ForwardUse { direction, piece: piece.name.text.clone(), span: name.span });
                return Some(model::Dirs::Side { direction, turns });
            }
        }
        let headings = self.heading_set(&d.set, board, Some(directions))?;
        let mut out = Vec::new();
        for h in headings {
            for &k in &turns {
                push_unique(&mut out, board.board.rotate(h, k));
            }
        }
        Some(model::Dirs::Headings(out))
    }

    // ------------------------------------------------------------ sides

    #[allow(clippy::too_many_arguments)]
    fn sides(
        &mut self,
        file: &ast::File,
        sides: &[&ast::Side],
        ast_pieces: &[&ast::Piece],
        pieces: &[model::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &[ForwardUse],
    ) -> (Vec<model::Side>, Vec<HashMap<String, Vec<CellId>>>) {
        if sides.len() < 2 {
            let (span, found) = match sides.first() {
                Some(s) => (s.name.span, "the only side"),
                None => (file.variant_span, "this variant has no side"),
            };
            let label = self.primary(span, found);
            self.error(format!("a variant needs at least two sides, found {}", sides.len()), vec![label], vec![
                "help: add e.g. `side black { forward S setup { ... } }`; sides play in the order they are declared".into(),
            ]);
        }
        let any_royal = pieces.iter().any(|p| p.royal);
        let mut names: HashMap<&str, Span> = HashMap::new();
        // Which side put which piece where, for "two pieces on one cell".
        let mut occupied: HashMap<CellId, Span> = HashMap::new();
        let mut out = Vec::new();
        let mut zones = Vec::new();
        for s in sides {
            if let Some(first) = names.get(s.name.text.as_str()) {
                self.duplicate("side", &s.name.text, *first, s.name.span);
            }
            names.insert(&s.name.text, s.name.span);
            let (side, side_zones) = self.side(s, ast_pieces, pieces, board, directions, forward_uses, any_royal, &mut occupied);
            out.push(side);
            zones.push(side_zones);
        }
        (out, zones)
    }

    /// The names rules may use for side-dependent headings: `forward`, then every `direction` the
    /// sides declare, in order of first declaration.
    fn direction_names(&mut self, sides: &[&ast::Side], board: &BoardInfo) -> Vec<String> {
        let mut out = vec!["forward".to_string()];
        for s in sides {
            for stmt in &s.statements {
                let ast::SideStmt::Direction { name, .. } = stmt else { continue };
                if out.contains(&name.text) {
                    continue;
                }
                if is_reserved_direction(&name.text) {
                    self.reserved(name, "direction");
                    continue;
                }
                if board.headings_by_name.contains_key(&name.text) || board.groups.contains_key(&name.text) {
                    let label = self.primary(name.span, "also the name of a heading or group of the board");
                    self.error(format!("direction `{}` has the name of a heading or group", name.text), vec![label], vec![
                        "note: rules name headings, groups and directions alike, so the names must differ".into(),
                    ]);
                    continue;
                }
                out.push(name.text.clone());
            }
        }
        out
    }

    /// Fills in the rules' `on ...` once every side's zones are known.
    fn resolve_origins(
        &mut self,
        pieces: &mut [model::Piece],
        pending: Vec<(PieceId, usize, PendingOn, Span)>,
        sides: &[model::Side],
        zones: &[HashMap<String, Vec<CellId>>],
    ) {
        for (p, r, on, _span) in pending {
            let origins = match on {
                PendingOn::Cells(cells) => vec![cells; sides.len()],
                PendingOn::Zone(name) => {
                    let mut per_side = Vec::new();
                    for (sd, side) in sides.iter().enumerate() {
                        match zones[sd].get(&name.text) {
                            Some(cells) => per_side.push(cells.clone()),
                            None => {
                                let label = self.primary(name.span, format!("a rule of `{}` applies on `{}`", pieces[p].name, name.text));
                                let mut notes = vec![format!("help: declare it in the side, e.g. `zone {} cells {{ ... }}`", name.text)];
                                if let Some(best) = closest(&name.text, zones[sd].keys().map(String::as_str)) {
                                    notes.insert(0, format!("help: did you mean `{best}`?"));
                                }
                                self.error(format!("side `{}` has no zone `{}`", side.name, name.text), vec![label], notes);
                                per_side.push(Vec::new());
                            }
                        }
                    }
                    per_side
                }
            };
            pieces[p].rules[r].origins = Some(origins);
        }
    }

    /// A set of headings: a heading, a group, `all` or `{ ... }`. In a piece rule, `directions`
    /// are the sides' direction names (`forward`, ...), which depend on the side and so cannot
    /// stand inside a set.
    fn heading_set(&mut self, set: &ast::DirSet, board: &BoardInfo, directions: Option<&[String]>) -> Option<Vec<HeadingId>> {
        let names: Vec<&ast::Name> = match set {
            ast::DirSet::Name(n) => vec![n],
            ast::DirSet::Set { span, names } => {
                if names.is_empty() {
                    let label = self.primary(*span, "no headings");
                    self.error("empty heading set", vec![label], vec![]);
                    return None;
                }
                names.iter().collect()
            }
        };
        let in_rule = directions.is_some();
        let directions = directions.unwrap_or_default();
        let mut out = Vec::new();
        let mut ok = true;
        for name in names {
            let is_board_name = board.headings_by_name.contains_key(&name.text) || board.groups.contains_key(&name.text);
            if directions.contains(&name.text) && !is_board_name {
                let label = self.primary(name.span, format!("`{}` depends on the side", name.text));
                self.error(format!("`{}` inside a heading set", name.text), vec![label], vec![format!("help: write a separate rule with `{}`", name.text)]);
                ok = false;
            } else if name.text == "all" {
                for h in 0..board.board.headings.len() {
                    push_unique(&mut out, h);
                }
            } else if let Some(&h) = board.headings_by_name.get(&name.text) {
                push_unique(&mut out, h);
            } else if let Some(hs) = board.groups.get(&name.text) {
                for &h in hs {
                    push_unique(&mut out, h);
                }
            } else {
                ok = false;
                if board.headings_complete {
                    let candidates: Vec<&str> = board
                        .headings_by_name
                        .keys()
                        .chain(board.groups.keys())
                        .map(String::as_str)
                        .chain(["all"])
                        .chain(directions.iter().map(String::as_str))
                        .collect();
                    let mut notes = Vec::new();
                    if let Some(best) = closest(&name.text, candidates.iter().copied()) {
                        notes.push(format!("help: did you mean `{best}`?"));
                    }
                    let what = if in_rule { "not a heading, a group, `all`, `forward` or a side's `direction`" } else { "not a heading, a group or `all`" };
                    let label = self.primary(name.span, what);
                    self.error(format!("unknown heading or group `{}`", name.text), vec![label], notes);
                }
            }
        }
        ok.then_some(out)
    }

    /// What `forward` or a `direction` means on every cell.
    fn direction_spec(&mut self, spec: &ast::DirectionSpec, board: &BoardInfo) -> Option<Vec<Vec<HeadingId>>> {
        let ncells = board.board.cells.len();
        match spec {
            ast::DirectionSpec::Fixed(set) => {
                let hs = self.heading_set(set, board, None)?;
                Some(vec![hs; ncells])
            }
            ast::DirectionSpec::Derived(d) => {
                let candidates = self.heading_set(&d.candidates, board, None);
                let by = match &d.by {
                    Some(set) => self.heading_set(set, board, None),
                    None => Some((0..board.board.headings.len()).collect()),
                };
                let from = self.cell(&d.from, &board.cells_by_name, board.cells_complete, " on this board");
                let (candidates, by, from) = (candidates?, by?, from?);
                let dist = distances(&board.board, from, &by);
                let mut out = vec![Vec::new(); ncells];
                for (c, hs) in out.iter_mut().enumerate() {
                    let Some(here) = dist[c] else { continue };
                    let farther: Vec<(HeadingId, u32)> = candidates
                        .iter()
                        .filter_map(|&h| {
                            let (t, _) = board.board.step(c, h)?;
                            let there = dist[t]?;
                            (there > here).then_some((h, there))
                        })
                        .collect();
                    let best = farther.iter().map(|&(_, d)| d).max().unwrap_or(0);
                    *hs = farther.iter().filter(|&&(_, there)| !d.farthest || there == best).map(|&(h, _)| h).collect();
                }
                if board.cells_complete && out.iter().all(Vec::is_empty) {
                    let label = self.primary(d.span, "no heading leads away anywhere");
                    self.diagnostics.push(Diagnostic::warning().with_message("this direction is empty on every cell").with_labels(vec![label]).with_notes(vec![
                        format!("note: no step along these headings leads farther from `{}` (counting steps along the `by` headings)", d.from.text),
                    ]));
                }
                Some(out)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn side(
        &mut self,
        s: &ast::Side,
        ast_pieces: &[&ast::Piece],
        pieces: &[model::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &[ForwardUse],
        any_royal: bool,
        occupied: &mut HashMap<CellId, Span>,
    ) -> (model::Side, HashMap<String, Vec<CellId>>) {
        let ncells = board.board.cells.len();
        // Per direction: the headings per cell, and where it was declared.
        let mut side_directions: Vec<Vec<Vec<HeadingId>>> = vec![vec![Vec::new(); ncells]; directions.len()];
        let mut declared: Vec<Option<Span>> = vec![None; directions.len()];
        // Zones first: promotions may name them.
        let mut zones: HashMap<String, Vec<CellId>> = HashMap::new();
        let mut zone_spans: HashMap<String, Span> = HashMap::new();
        for stmt in &s.statements {
            let ast::SideStmt::Zone { name, zone, .. } = stmt else { continue };
            if let Some(first) = zone_spans.get(&name.text) {
                self.duplicate("zone", &name.text, *first, name.span);
                continue;
            }
            zone_spans.insert(name.text.clone(), name.span);
            if let Some(cells) = self.zone(zone, board, &HashMap::new()) {
                zones.insert(name.text.clone(), cells);
            }
        }
        let mut setup = Vec::new();
        let mut promotions: Vec<model::Promotion> = Vec::new();
        let mut promoted: HashMap<PieceId, Span> = HashMap::new();
        let mut castles = Vec::new();
        let mut castle_names: HashMap<&str, Span> = HashMap::new();
        let mut setup_seen = false;
        let mut setup_complete = true;

        for stmt in &s.statements {
            match stmt {
                ast::SideStmt::Zone { .. } => {}
                ast::SideStmt::Forward { span, spec } | ast::SideStmt::Direction { span, spec, .. } => {
                    let (d, word) = match stmt {
                        ast::SideStmt::Direction { name, .. } => match directions.iter().position(|x| *x == name.text) {
                            Some(d) => (d, format!("direction `{}`", name.text)),
                            // An invalid name, reported already.
                            None => continue,
                        },
                        _ => (0, "`forward`".to_string()),
                    };
                    if let Some(first) = declared[d] {
                        let labels = vec![self.primary(*span, format!("a second {word}")), self.secondary(first, "first here")];
                        self.error(format!("side `{}` declares {word} twice", s.name.text), labels, vec![]);
                        continue;
                    }
                    declared[d] = Some(*span);
                    if let Some(per_cell) = self.direction_spec(spec, board) {
                        side_directions[d] = per_cell;
                    }
                }
                ast::SideStmt::Setup(setup_stmt) => {
                    setup_seen = true;
                    // A lone capital that names a cell and no piece (the soccer ball's pentagon
                    // `A`) is a cell of the group before it.
                    let mut groups: Vec<(&ast::Name, Vec<&ast::Name>)> = Vec::new();
                    for group in &setup_stmt.groups {
                        let is_piece = ast_pieces.iter().any(|p| p.symbol.text == group.symbol.text || p.name.text == group.symbol.text);
                        match groups.last_mut() {
                            Some((_, cells)) if !is_piece && (board.cells_by_name.contains_key(&group.symbol.text) || !board.cells_complete) => {
                                cells.push(&group.symbol);
                                cells.extend(group.cells.iter());
                            }
                            _ => groups.push((&group.symbol, group.cells.iter().collect())),
                        }
                    }
                    for (symbol, cells) in groups {
                        let piece = self.piece_ref(symbol, ast_pieces, pieces, format!("unknown piece `{}` in the setup of `{}`", symbol.text, s.name.text));
                        setup_complete &= piece.is_some();
                        for cell_name in cells {
                            let Some(cell) = self.cell(cell_name, &board.cells_by_name, board.cells_complete, " on this board") else {
                                setup_complete = false;
                                continue;
                            };
                            // A merged cell is named by its own name, whichever name was written.
                            let own = board.board.cells[cell].name.clone();
                            let written = if own == cell_name.text { String::new() } else { format!(" (written `{}`)", cell_name.text) };
                            if board.board.cells[cell].transit {
                                let label = self.primary(cell_name.span, "a transit cell");
                                self.error(format!("`{own}` is a transit cell: no piece can stand there"), vec![label], vec![
                                    "note: pieces cross transit cells but never stop on them".into(),
                                ]);
                                continue;
                            }
                            if let Some(first) = occupied.get(&cell) {
                                let labels = vec![
                                    self.primary(cell_name.span, format!("a second piece on `{own}`{written}")),
                                    self.secondary(*first, "first placed here"),
                                ];
                                let mut notes = Vec::new();
                                let names: Vec<&str> = board.board.aliases.iter().filter(|a| a.cell == cell).map(|a| a.name.as_str()).collect();
                                if !names.is_empty() {
                                    notes.push(format!("note: `{own}` is also named {} (`identify`)", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")));
                                }
                                self.error(format!("two pieces on `{own}`"), labels, notes);
                                continue;
                            }
                            occupied.insert(cell, cell_name.span);
                            if let Some(p) = piece {
                                setup.push((cell, p));
                            }
                        }
                    }
                }
                ast::SideStmt::Promote(p) => {
                    let piece = self.piece_ref(&p.piece, ast_pieces, pieces, format!("promotion of an unknown piece `{}`", p.piece.text));
                    let choices: Vec<Option<PieceId>> = p.choices.iter().map(|c| self.piece_ref(c, ast_pieces, pieces, format!("promotion to an unknown piece `{}`", c.text))).collect();
                    let zone = self.zone(&p.zone, board, &zones);
                    if let Some(piece) = piece {
                        if let Some(first) = promoted.get(&piece) {
                            let labels = vec![self.primary(p.span, "a second promotion rule"), self.secondary(*first, "first here")];
                            self.error(format!("side `{}` promotes `{}` twice", s.name.text, p.piece.text), labels, vec![
                                "help: list all choices in one `promote` rule".into(),
                            ]);
                            continue;
                        }
                        promoted.insert(piece, p.span);
                    }
                    if let Some(piece) = piece {
                        if let Some(i) = choices.iter().position(|&c| c == Some(piece)) {
                            let label = self.primary(p.choices[i].span, "the piece that promotes");
                            self.error(format!("`{}` cannot promote to itself", p.piece.text), vec![label], vec![
                                "note: a piece that reaches its promotion zone must become another piece; one that stayed would stand where no position allows it".into(),
                                format!("help: remove `{}` from the choices", p.choices[i].text),
                            ]);
                            continue;
                        }
                    }
                    if let (Some(piece), Some(choices), Some(zone)) = (piece, choices.into_iter().collect::<Option<Vec<_>>>(), zone) {
                        let mut unique = Vec::new();
                        for c in choices {
                            push_unique(&mut unique, c);
                        }
                        promotions.push(model::Promotion { piece, choices: unique, zone });
                    }
                }
                ast::SideStmt::Castle(c) => {
                    if let Some(first) = castle_names.get(c.name.text.as_str()) {
                        self.duplicate("castling rule", &c.name.text, *first, c.name.span);
                        continue;
                    }
                    castle_names.insert(&c.name.text, c.name.span);
                    if let Some(castle) = self.castle(c, board) {
                        castles.push((castle, c));
                    }
                }
            }
        }

        for (d, name) in directions.iter().enumerate() {
            if declared[d].is_some() {
                continue;
            }
            let Some(use_) = forward_uses.iter().find(|u| u.direction == d) else { continue };
            if d == 0 {
                let labels = vec![
                    self.primary(s.name.span, format!("side `{}` has no `forward`", s.name.text)),
                    self.secondary(use_.span, format!("`{}` moves `forward`", use_.piece)),
                ];
                self.error(format!("side `{}` needs a `forward` heading", s.name.text), labels, vec![
                    "help: add e.g. `forward N` to the side".into(),
                ]);
            } else {
                let labels = vec![
                    self.primary(s.name.span, format!("side `{}` has no direction `{name}`", s.name.text)),
                    self.secondary(use_.span, format!("`{}` moves along `{name}`", use_.piece)),
                ];
                self.error(format!("side `{}` needs the direction `{name}`", s.name.text), labels, vec![format!(
                    "help: add e.g. `direction {name} N` to the side"
                )]);
            }
        }
        let royal_in_setup = setup.iter().any(|&(_, p)| pieces.get(p).is_some_and(|p| p.royal));
        if any_royal && !royal_in_setup && setup_complete {
            let royals: Vec<String> = pieces.iter().filter(|p| p.royal).map(|p| format!("`{}` ({})", p.name, p.symbol)).collect();
            let label = self.primary(s.name.span, if setup_seen { "its setup has no royal piece" } else { "this side has no setup" });
            self.error(format!("side `{}` has no royal piece", s.name.text), vec![label], vec![format!(
                "help: set up one of the royal pieces: {}",
                royals.join(", ")
            )]);
        }

        // Castling must move this side's royal piece and another piece of it.
        let owner: HashMap<CellId, PieceId> = setup.iter().copied().collect();
        let mut model_castles = Vec::new();
        for (castle, c) in castles {
            let king_span = c.fields.iter().find_map(|f| match f {
                ast::CastleField::King { from, .. } => Some(from.span),
                _ => None,
            });
            let rook_span = c.fields.iter().find_map(|f| match f {
                ast::CastleField::Rook { from, .. } => Some(from.span),
                _ => None,
            });
            if setup_complete {
                match owner.get(&castle.king_from).and_then(|&p| pieces.get(p)) {
                    Some(p) if p.royal => {}
                    other => {
                        let found = other.map_or("it is empty".to_string(), |p| format!("it holds a `{}`", p.name));
                        let label = self.primary(king_span.unwrap_or(c.name.span), format!("{found} in the setup"));
                        self.error(
                            format!("castling rule `{}` moves a king from `{}`, but the side has no royal piece there", c.name.text, board.board.cells[castle.king_from].name),
                            vec![label],
                            vec![],
                        );
                    }
                }
                if !owner.contains_key(&castle.rook_from) {
                    let label = self.primary(rook_span.unwrap_or(c.name.span), "empty in the setup");
                    self.error(
                        format!("castling rule `{}` moves a rook from `{}`, but the side has no piece there", c.name.text, board.board.cells[castle.rook_from].name),
                        vec![label],
                        vec![],
                    );
                }
            }
            model_castles.push(castle);
        }

        let side = model::Side { name: s.name.text.clone(), directions: side_directions, setup, promotions, castles: model_castles };
        (side, zones)
    }

    /// A piece named by symbol (as in FEN and setups) or by name.
    fn piece_ref(&mut self, name: &ast::Name, ast_pieces: &[&ast::Piece], pieces: &[model::Piece], message: String) -> Option<PieceId> {
        if let Some(i) = pieces.iter().position(|p| p.symbol.to_string() == name.text) {
            return Some(i);
        }
        if let Some(i) = ast_pieces.iter().position(|p| p.name.text == name.text) {
            return Some(i);
        }
        if !self.symbols_complete {
            return None;
        }
        let candidates: Vec<String> = pieces.iter().map(|p| p.symbol.to_string()).chain(pieces.iter().map(|p| p.name.clone())).collect();
        let mut notes = Vec::new();
        if let Some(best) = closest(&name.text, candidates.iter().map(String::as_str)) {
            notes.push(format!("help: did you mean `{best}`?"));
        }
        let symbols: Vec<String> = pieces.iter().filter(|p| p.symbol != '?').map(|p| format!("{} ({})", p.symbol, p.name)).collect();
        if !symbols.is_empty() {
            notes.push(format!("note: the pieces are {}", symbols.join(", ")));
        }
        let label = self.primary(name.span, "no piece has this symbol or name");
        self.error(message, vec![label], notes);
        None
    }

    fn zone(&mut self, zone: &ast::Zone, board: &BoardInfo, zones: &HashMap<String, Vec<CellId>>) -> Option<Vec<CellId>> {
        let grid = board.board.grid.as_ref();
        match zone {
            ast::Zone::Named { name, .. } => match zones.get(&name.text) {
                Some(cells) => Some(cells.clone()),
                None => {
                    self.unknown("zone", name, " in this side (declare it with `zone NAME ...`)", zones.keys().map(String::as_str));
                    None
                }
            },
            ast::Zone::Lines { dirs, through, .. } => {
                let hs = self.heading_set(dirs, board, None);
                let cell = self.cell(through, &board.cells_by_name, board.cells_complete, " on this board");
                let (hs, cell) = (hs?, cell?);
                let mut out = vec![cell];
                for h in hs {
                    let mut seen = HashSet::new();
                    let (mut c, mut heading) = (cell, h);
                    while let Some((n, nh)) = board.board.step(c, heading) {
                        if n == cell || !seen.insert((n, nh)) {
                            break;
                        }
                        push_unique(&mut out, n);
                        (c, heading) = (n, nh);
                    }
                }
                Some(out)
            }
            ast::Zone::Rank { rank, to, .. } | ast::Zone::File { file: rank, to, .. } => {
                let is_rank = matches!(zone, ast::Zone::Rank { .. });
                let what = if is_rank { "rank" } else { "file" };
                let Some(grid) = grid else {
                    if board.cells_complete {
                        let label = self.primary(zone.span(), format!("this board has no grid, so no {what}s"));
                        self.error(format!("`{what}` zone without a grid"), vec![label], vec!["help: list the cells: `on cells { ... }`".into()]);
                    }
                    return None;
                };
                let labels = if is_rank { &grid.ranks } else { &grid.files };
                let index_of = |fe: &mut Frontend, name: &ast::Name| {
                    let index = labels.iter().position(|l| *l == name.text);
                    if index.is_none() {
                        let span = match (labels.first(), labels.last()) {
                            (Some(a), Some(b)) => format!(" (this board's {what}s are {a} to {b})"),
                            _ => String::new(),
                        };
                        fe.unknown(what, name, &span, labels.iter().map(String::as_str));
                    }
                    index
                };
                let first = index_of(self, rank);
                let last = match to {
                    Some(to) => index_of(self, to),
                    None => first,
                };
                let (first, last) = (first?, last?);
                if first > last {
                    let label = self.primary(zone.span(), format!("`{}` comes after `{}` on this board", labels[first], labels[last]));
                    self.error(format!("empty {what} range"), vec![label], vec![format!("help: write `{}..{}`", labels[last], labels[first])]);
                    return None;
                }
                let width = grid.files.len();
                let at: Vec<CellId> = (first..=last)
                    .flat_map(|index| -> Vec<Option<CellId>> {
                        if is_rank {
                            (0..width).map(|x| grid.cell_at.get(index * width + x).copied().flatten()).collect()
                        } else {
                            (0..grid.ranks.len()).map(|y| grid.cell_at.get(y * width + index).copied().flatten()).collect()
                        }
                    })
                    .flatten()
                    .collect();
                // An identified position names a cell that may be listed already.
                let mut cells = Vec::new();
                for c in at {
                    push_unique(&mut cells, c);
                }
                Some(cells)
            }
            ast::Zone::Cells { span, cells } => {
                if cells.is_empty() {
                    let label = self.primary(*span, "no cells");
                    self.error("empty promotion zone", vec![label], vec![]);
                    return None;
                }
                let mut out = Vec::new();
                let mut ok = true;
                for c in cells {
                    match self.cell(c, &board.cells_by_name, board.cells_complete, " on this board") {
                        Some(id) => push_unique(&mut out, id),
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
        }
    }

    fn castle(&mut self, c: &ast::Castle, board: &BoardInfo) -> Option<model::Castle> {
        let mut king = None;
        let mut rook = None;
        let mut empty = Vec::new();
        let mut safe = Vec::new();
        let mut fen = None;
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        let mut ok = true;
        let context = format!(" on this board (castling rule `{}`)", c.name.text);
        for f in &c.fields {
            let (word, span) = match f {
                ast::CastleField::King { span, .. } => ("king", *span),
                ast::CastleField::Rook { span, .. } => ("rook", *span),
                ast::CastleField::Empty { span, .. } => ("empty", *span),
                ast::CastleField::Safe { span, .. } => ("safe", *span),
                ast::CastleField::Fen { span, .. } => ("fen", *span),
            };
            if let Some(first) = seen.get(word) {
                let labels = vec![self.primary(span, format!("a second `{word}`")), self.secondary(*first, "first here")];
                self.error(format!("castling rule `{}` gives `{word}` twice", c.name.text), labels, vec![]);
                ok = false;
                continue;
            }
            seen.insert(word, span);
            let mut cell = |fe: &mut Frontend, n: &ast::Name| {
                let r = fe.cell(n, &board.cells_by_name, board.cells_complete, &context);
                ok &= r.is_some();
                r
            };
            match f {
                ast::CastleField::King { from, to, .. } => king = cell(self, from).zip(cell(self, to)),
                ast::CastleField::Rook { from, to, .. } => rook = cell(self, from).zip(cell(self, to)),
                ast::CastleField::Empty { cells, .. } => empty = cells.iter().filter_map(|n| cell(self, n)).collect(),
                ast::CastleField::Safe { cells, .. } => safe = cells.iter().filter_map(|n| cell(self, n)).collect(),
                ast::CastleField::Fen { letter, .. } => {
                    fen = self.symbol(letter, "FEN castling letter");
                    ok &= fen.is_some();
                }
            }
        }
        for (word, example) in [("king", "king e1 -> g1"), ("rook", "rook h1 -> f1")] {
            if !seen.contains_key(word) {
                let label = self.primary(c.name.span, format!("no `{word}` move"));
                self.error(format!("castling rule `{}` is missing `{word}`", c.name.text), vec![label], vec![format!("help: add e.g. `{example}`")]);
                ok = false;
            }
        }
        let ((king_from, king_to), (rook_from, rook_to)) = (king?, rook?);
        if king_from == rook_from {
            let label = self.primary(c.span, "the king and the rook start on the same cell");
            self.error(format!("castling rule `{}` is impossible", c.name.text), vec![label], vec![]);
            ok = false;
        }
        if king_to == rook_to {
            let label = self.primary(c.span, "the king and the rook end on the same cell");
            self.error(format!("castling rule `{}` is impossible", c.name.text), vec![label], vec![]);
            ok = false;
        }
        ok.then_some(model::Castle { name: c.name.text.clone(), king_from, king_to, rook_from, rook_to, empty, safe, fen })
    }

    // ------------------------------------------------------------ rules

    fn rules(&mut self, block: Option<&ast::Rules>) -> model::Rules {
        let mut rules = model::Rules::default();
        let Some(block) = block else { return rules };
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        for s in &block.settings {
            let word = s.kind.keyword();
            if let Some(first) = seen.get(word) {
                let labels = vec![self.primary(s.span, "set again here"), self.secondary(*first, "first set here")];
                self.error(format!("`{word}` is set twice"), labels, vec![]);
                continue;
            }
            seen.insert(word, s.span);
            match s.kind {
                ast::SettingKind::Stalemate(o) => {
                    rules.stalemate = match o {
                        ast::Outcome::Draw => model::Outcome::Draw,
                        ast::Outcome::Win => model::Outcome::Win,
                        ast::Outcome::Loss => model::Outcome::Loss,
                    }
                }
                ast::SettingKind::StationaryMoves { allowed } => rules.stationary_moves = allowed,
                ast::SettingKind::FiftyMove(n) => match u16::try_from(n.value) {
                    Ok(v) => rules.fifty_move = u32::from(v),
                    Err(_) => {
                        let label = self.primary(n.span, "out of range");
                        self.error("`fifty-move` must be between 0 (off) and 65535 plies", vec![label], vec![]);
                    }
                },
                ast::SettingKind::Repetition(n) => match u8::try_from(n.value) {
                    Ok(v) if v != 1 => rules.repetition = u32::from(v),
                    _ => {
                        let label = self.primary(n.span, "out of range");
                        self.error("`repetition` must be 0 (off) or between 2 and 255", vec![label], vec![]);
                    }
                },
            }
        }
        rules
    }
}

/// The fewest steps from `from` to every cell, stepping along the headings `by` only (`None`: no
/// such path).
fn distances(board: &model::Board, from: CellId, by: &[HeadingId]) -> Vec<Option<u32>> {
    let mut dist = vec![None; board.cells.len()];
    dist[from] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
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

// ---------------------------------------------------------------- seam expressions

const VARIABLES: [&str; 4] = ["x", "y", "dx", "dy"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Type {
    Int,
    Bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    Int(i64),
    Bool(bool),
}

/// The variables of a seam expression for one step.
struct Env {
    x: i64,
    y: i64,
    dx: i64,
    dy: i64,
}

/// A grid position or vector `(x, y)`.
type Xy = (i64, i64);

/// Problems of one `identify`, by grid position.
#[derive(Default)]
struct IdentifyProblems {
    /// (position, target off the grid).
    off_board: Vec<(Xy, Xy)>,
    /// (position, heading, vector that no heading has).
    bad_heading: Vec<(Xy, HeadingId, Xy)>,
    /// (position, evaluation error).
    failed: Vec<(Xy, String)>,
}

/// The first use of one of `vars` in an expression: its span and name.
fn find_var(e: &ast::Expr, vars: &[&str]) -> Option<(Span, String)> {
    match &e.kind {
        ast::ExprKind::Int(_) => None,
        ast::ExprKind::Var(v) => vars.contains(&v.as_str()).then(|| (e.span, v.clone())),
        ast::ExprKind::Neg(a) | ast::ExprKind::Not(a) => find_var(a, vars),
        ast::ExprKind::Binary(_, a, b) => find_var(a, vars).or_else(|| find_var(b, vars)),
    }
}

#[derive(Default)]
struct SeamProblems {
    /// (cell, heading, landing coordinates off the grid).
    off_board: Vec<(CellId, HeadingId, (i64, i64))>,
    /// (cell, heading, vector that no heading has).
    bad_heading: Vec<(CellId, HeadingId, (i64, i64))>,
    /// (cell, heading, evaluation error such as division by zero).
    failed: Vec<(CellId, HeadingId, String)>,
}

fn eval_pair(p: &ast::ExprPair, env: &Env) -> Result<(i64, i64), String> {
    Ok((eval_int(&p.x, env)?, eval_int(&p.y, env)?))
}

fn eval_int(e: &ast::Expr, env: &Env) -> Result<i64, String> {
    match eval(e, env)? {
        Value::Int(i) => Ok(i),
        Value::Bool(_) => Err("a condition where a number was expected".into()),
    }
}

fn eval_bool(e: &ast::Expr, env: &Env) -> Result<bool, String> {
    match eval(e, env)? {
        Value::Bool(b) => Ok(b),
        Value::Int(_) => Err("a number where a condition was expected".into()),
    }
}

/// Evaluates a type-checked seam expression. Arithmetic is checked; `mod` is Euclidean (never
/// negative), `/` rounds toward negative infinity to match it.
fn eval(e: &ast::Expr, env: &Env) -> Result<Value, String> {
    use ast::{BinOp::*, ExprKind};
    let overflow = || "arithmetic overflow".to_string();
    Ok(match &e.kind {
        ExprKind::Int(i) => Value::Int(*i),
        ExprKind::Var(v) => Value::Int(match v.as_str() {
            "x" => env.x,
            "y" => env.y,
            "dx" => env.dx,
            "dy" => env.dy,
            other => return Err(format!("unknown variable `{other}`")),
        }),
        ExprKind::Neg(a) => Value::Int(eval_int(a, env)?.checked_neg().ok_or_else(overflow)?),
        ExprKind::Not(a) => Value::Bool(!eval_bool(a, env)?),
        ExprKind::Binary(And, a, b) => Value::Bool(eval_bool(a, env)? && eval_bool(b, env)?),
        ExprKind::Binary(Or, a, b) => Value::Bool(eval_bool(a, env)? || eval_bool(b, env)?),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval_int(a, env)?, eval_int(b, env)?);
            match op {
                Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
                Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
                Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
                Div | Mod if b == 0 => return Err(format!("division by zero ({a} {} 0)", op.symbol())),
                Div => Value::Int(a.checked_div_euclid(b).ok_or_else(overflow)?),
                Mod => Value::Int(a.checked_rem_euclid(b).ok_or_else(overflow)?),
                Lt => Value::Bool(a < b),
                Le => Value::Bool(a <= b),
                Gt => Value::Bool(a > b),
                Ge => Value::Bool(a >= b),
                Eq => Value::Bool(a == b),
                Ne => Value::Bool(a != b),
                And | Or => return Err("internal: logical operator on numbers".into()),
            }
        }
    })
}

/// The symbol an invalid one most likely meant (`b` -> `B`), for resolving setups after the error.
fn recovered_symbol(text: &str) -> char {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => '?',
    }
}
