//! Analysis: warnings about a checked board, seen as a graph.
//!
//! The board becomes a petgraph graph: cells are nodes, every step `(cell, heading) -> (cell',
//! heading')` is an edge labelled with both headings. Two questions a variant author wants answered
//! before playing:
//! - can every cell be reached from the setup at all (by any step of any heading)? A cell no piece
//!   can ever reach is usually a missing seam or link;
//! - does every step have a way back? If a step from X heading H lands on Y heading H', the step
//!   from Y heading reverse(H') should land on X heading reverse(H). When it does not, sliders move
//!   differently in the two directions, which is rarely intended. Steps from a cell that two
//!   headings leave the same way (a cone point at the cell's centre) are not checked.
//!
//! It also warns about rules that can never take effect (promotion zones never reached, pieces that
//! can never move, castling moves that are not lines, royal pieces that can never be checked,
//! transit cells no move crosses); those facts come from [`crate::report::sanity`], the warnings
//! point at the rule responsible.
//!
//! Findings are grouped (one warning per problem kind or heading pair, with a count and a few
//! examples) and point at the source that caused them: the seam or link that made the step, else
//! the headings or the grid.

use std::collections::BTreeMap;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::unionfind::UnionFind;
use petgraph::visit::{Dfs, EdgeRef};

use orbis_grammar::ast;

use crate::frontend::{Sources, StepOrigin};
use crate::model::{CellId, HeadingId, Variant};
use crate::report::{sanity, Ctx};

/// How many examples a warning lists.
const EXAMPLES: usize = 3;

/// The board as a graph: node `i` is cell `i`; edges carry (heading on leaving, heading on arrival).
pub type BoardGraph = DiGraph<CellId, (HeadingId, HeadingId)>;

/// Builds the step graph of a board.
pub fn board_graph(variant: &Variant) -> BoardGraph {
    let board = &variant.board;
    let mut graph = BoardGraph::with_capacity(board.cells.len(), board.step.len());
    for cell in 0..board.cells.len() {
        graph.add_node(cell);
    }
    for cell in 0..board.cells.len() {
        for heading in 0..board.headings.len() {
            if let Some((to, arrival)) = board.step(cell, heading) {
                graph.add_edge(NodeIndex::new(cell), NodeIndex::new(to), (heading, arrival));
            }
        }
    }
    graph
}

/// All warnings for a checked variant. `ast` is the parsed file, for pointing at rules.
pub fn analyze(variant: &Variant, sources: &Sources, ast: &ast::File, file_id: usize) -> Vec<Diagnostic<usize>> {
    let graph = board_graph(variant);
    let mut out = Vec::new();
    out.extend(unreachable_cells(variant, sources, file_id, &graph));
    out.extend(irreversible_steps(variant, sources, file_id));
    let ctx = Ctx::new(variant);
    out.extend(rule_sanity(&ctx, &sanity::analyze(&ctx), ast, file_id));
    out
}

/// An error when the initial position could not arise in play, as the runtime judges a position
/// it reads (`Position::check`): the side before the first in turn order in check, a piece in a
/// compulsory promotion zone of its own, a side without its royal piece. Play from it would
/// begin with a move that answers no rule (taking a king), so it is refused as a position given
/// to `--position` is.
pub fn initial_position(variant: &Variant, tables: &orbis_runtime::Tables, file: &ast::File, file_id: usize) -> Option<Diagnostic<usize>> {
    let engine = orbis_runtime::Engine::new(tables.clone()).ok()?;
    let problem = engine.check_start().err()?;
    // (At the first side's setup: the position is the sides' setups together.)
    let first = side_ast(file, &variant.sides.first()?.name);
    let span = first.and_then(|a| {
        a.statements.iter().find_map(|st| match st {
            ast::SideStmt::Setup(setup) => Some(setup.span),
            _ => None,
        })
    });
    let mut d = Diagnostic::error().with_message(format!("the initial position cannot arise in play: {}", problem.0));
    if let Some(span) = span.or_else(|| first.map(|a| a.name.span)) {
        d = d.with_labels(vec![Label::primary(file_id, span.range()).with_message("the sides' setups make the initial position")]);
    }
    Some(d)
}

/// The AST of side `name`.
fn side_ast<'a>(file: &'a ast::File, name: &str) -> Option<&'a ast::Side> {
    file.items.iter().find_map(|i| match i {
        ast::Item::Side(s) if s.name.text == name => Some(s),
        _ => None,
    })
}

fn piece_ast<'a>(file: &'a ast::File, name: &str) -> Option<&'a ast::Piece> {
    file.items.iter().find_map(|i| match i {
        ast::Item::Piece(p) if p.name.text == name => Some(p),
        _ => None,
    })
}

/// Warnings for rules that can never take effect (report group 5), each at the responsible rule.
fn rule_sanity(ctx: &Ctx, s: &sanity::Sanity, file: &ast::File, file_id: usize) -> Vec<Diagnostic<usize>> {
    let v = ctx.v;
    let mut out = Vec::new();
    let cell = |c: CellId| v.board.cells[c].name.as_str();
    let piece = |p: usize| v.pieces[p].name.as_str();
    let side = |sd: usize| v.sides[sd].name.as_str();
    let fallback = |sd: usize| side_ast(file, side(sd)).map(|a| a.name.span);

    for p in &s.promotions {
        if !p.reachable.is_empty() || p.zone.is_empty() {
            continue;
        }
        let span = side_ast(file, side(p.side))
            .and_then(|a| {
                a.statements
                    .iter()
                    .filter_map(|st| match st {
                        ast::SideStmt::Promote(pr) => Some(pr),
                        _ => None,
                    })
                    .nth(p.index)
                    .map(|pr| pr.zone.span())
            })
            .or_else(|| fallback(p.side));
        let mut d = Diagnostic::warning().with_message(format!(
            "the {} {} can never reach its promotion zone",
            side(p.side),
            piece(p.piece)
        ));
        if let Some(span) = span {
            d = d.with_labels(vec![Label::primary(file_id, span.range()).with_message("no cell of this zone is reachable")]);
        }
        let zone: Vec<&str> = p.zone.iter().take(EXAMPLES * 2).map(|&c| cell(c)).collect();
        out.push(d.with_notes(vec![format!(
            "note: the zone is {}{}; from its setup the piece never gets there, even on an empty board",
            zone.join(" "),
            if p.zone.len() > zone.len() { " ..." } else { "" }
        )]));
    }

    for &(sd, p) in &s.never_move {
        let on_board = v.sides[sd].setup.iter().any(|&(_, q)| q == p);
        if !on_board {
            continue;
        }
        let mut d = Diagnostic::warning().with_message(format!("the {} {} has no move from any cell", side(sd), piece(p)));
        if let Some(a) = piece_ast(file, piece(p)) {
            d = d.with_labels(vec![Label::primary(file_id, a.name.span.range()).with_message("its rules give no move anywhere on this board")]);
        }
        out.push(d);
    }
    for &(sd, p, c) in &s.immobile {
        if s.never_move.contains(&(sd, p)) {
            continue;
        }
        let span = side_ast(file, side(sd)).and_then(|a| {
            a.statements.iter().find_map(|st| match st {
                ast::SideStmt::Setup(setup) => setup.groups.iter().flat_map(|g| g.cells.iter()).find(|n| n.text == cell(c)).map(|n| n.span),
                _ => None,
            })
        });
        let mut d = Diagnostic::warning().with_message(format!(
            "the {} {} on {} can never make a first move: its rules give no move from there",
            side(sd),
            piece(p),
            cell(c)
        ));
        if let Some(span) = span.or_else(|| fallback(sd)) {
            d = d.with_labels(vec![Label::primary(file_id, span.range()).with_message("set up here")]);
        }
        out.push(d);
    }

    for k in &s.castles {
        if k.lines() {
            continue;
        }
        let span = side_ast(file, side(k.side)).and_then(|a| {
            a.statements.iter().find_map(|st| match st {
                ast::SideStmt::Castle(c) if c.name.text == k.name => {
                    let which = if k.king_off_line() { "king" } else { "rook" };
                    c.fields
                        .iter()
                        .find_map(|f| match (f, which) {
                            (ast::CastleField::King { span, .. }, "king") | (ast::CastleField::Rook { span, .. }, "rook") => Some(*span),
                            _ => None,
                        })
                        .or(Some(c.span))
                }
                _ => None,
            })
        });
        let (who, (from, to)) = if k.king_off_line() { ("king", k.king) } else { ("rook", k.rook) };
        let mut d = Diagnostic::warning().with_message(format!(
            "castling `{}` of {}: the {who}'s move {}-{} is not along a line",
            k.name,
            side(k.side),
            cell(from),
            cell(to)
        ));
        if let Some(span) = span {
            d = d.with_labels(vec![Label::primary(file_id, span.range()).with_message("no heading leads from the first cell to the second")]);
        }
        out.push(d.with_notes(vec!["note: the cells it passes cannot be checked for `empty` and `safe`".into()]));
    }

    for r in &s.royals {
        if !r.checked_by.is_empty() {
            continue;
        }
        let mut d = Diagnostic::warning().with_message(format!(
            "the royal {} {} can never be checked: no enemy piece can attack a cell it can stand on",
            side(r.side),
            piece(r.piece)
        ));
        if let Some(a) = piece_ast(file, piece(r.piece)) {
            let span = a.royal.unwrap_or(a.name.span);
            d = d.with_labels(vec![Label::primary(file_id, span.range()).with_message("royal here")]);
        }
        out.push(d.with_notes(vec!["note: check, checkmate and the rule against moving into check never apply to it".into()]));
    }

    for &(c, crossed) in &s.transit {
        if crossed {
            continue;
        }
        let span = file.items.iter().find_map(|i| match i {
            ast::Item::Board(b) => b.statements.iter().find_map(|st| match st {
                ast::BoardStmt::Transit(decl) => decl.cells.iter().find(|n| n.text == cell(c)).map(|n| n.span),
                _ => None,
            }),
            _ => None,
        });
        let mut d = Diagnostic::warning().with_message(format!("no move crosses the transit cell `{}`", cell(c)));
        if let Some(span) = span {
            d = d.with_labels(vec![Label::primary(file_id, span.range()).with_message("declared transit here")]);
        }
        out.push(d.with_notes(vec![
            "note: pieces never stop on a transit cell, and no rule passes this one: it plays no part in the game".into(),
            "help: add a rule that crosses it (e.g. `across-transit`), or link it to the board so that slides pass it".into(),
        ]));
    }
    out
}

/// Cells no piece could ever reach from the setup, grouped into connected regions.
fn unreachable_cells(variant: &Variant, sources: &Sources, file_id: usize, graph: &BoardGraph) -> Option<Diagnostic<usize>> {
    let cells = &variant.board.cells;
    let mut dfs = Dfs::empty(graph);
    let mut reached = vec![false; cells.len()];
    for side in &variant.sides {
        for &(cell, _) in &side.setup {
            if reached[cell] {
                continue;
            }
            dfs.move_to(NodeIndex::new(cell));
            while let Some(n) = dfs.next(graph) {
                reached[n.index()] = true;
            }
        }
    }
    let unreached: Vec<CellId> = (0..cells.len()).filter(|&c| !reached[c]).collect();
    if unreached.is_empty() {
        return None;
    }

    // Regions of unreachable cells (steps in either direction join cells).
    let mut regions = UnionFind::<usize>::new(cells.len());
    for edge in graph.edge_references() {
        let (a, b) = (edge.source().index(), edge.target().index());
        if !reached[a] && !reached[b] {
            regions.union(a, b);
        }
    }
    let mut by_region: BTreeMap<usize, Vec<CellId>> = BTreeMap::new();
    for &c in &unreached {
        by_region.entry(regions.find(c)).or_default().push(c);
    }
    let mut regions: Vec<Vec<CellId>> = by_region.into_values().collect();
    regions.sort_by_key(|r| r[0]);

    let mut notes = Vec::new();
    for (i, region) in regions.iter().enumerate().take(EXAMPLES) {
        let names: Vec<&str> = region.iter().take(8).map(|&c| cells[c].name.as_str()).collect();
        let more = if region.len() > names.len() { format!(" and {} more", region.len() - names.len()) } else { String::new() };
        let kind = if region.len() == 1 { "an isolated cell".to_string() } else { format!("a region of {} cells", region.len()) };
        let which = if regions.len() == 1 { String::new() } else { format!("{} ", ordinal(i)) };
        notes.push(format!("note: {which}{kind}: {}{more}", names.join(" ")));
    }
    if regions.len() > EXAMPLES {
        notes.push(format!("note: and {} more regions", regions.len() - EXAMPLES));
    }
    notes.push("help: join these cells to the rest of the board with `link` statements or seams, or remove them".into());

    // Point at where the unreachable cells were declared (grid statement or `cells` names).
    let mut labels: Vec<Label<usize>> = Vec::new();
    let mut spans = Vec::new();
    for &c in &unreached {
        if let Some(&span) = sources.cell_decls.get(c) {
            if !spans.contains(&span) {
                spans.push(span);
            }
        }
    }
    for (i, span) in spans.iter().take(EXAMPLES).enumerate() {
        let message = if i == 0 { "declared here" } else { "" };
        labels.push(Label::primary(file_id, span.range()).with_message(message));
    }
    if labels.is_empty() {
        labels.push(Label::primary(file_id, sources.board.range()).with_message("on this board"));
    }
    let n = unreached.len();
    let message = if n == 1 {
        format!("cell `{}` can never be reached from the setup", cells[unreached[0]].name)
    } else {
        format!("{n} cells can never be reached from the setup ({} separate regions)", regions.len())
    };
    Some(Diagnostic::warning().with_message(message).with_labels(labels).with_notes(notes))
}

fn ordinal(i: usize) -> &'static str {
    ["first", "second", "third"].get(i).copied().unwrap_or("another")
}

/// One failure of a step to reverse.
struct Irreversible {
    from: CellId,
    to: CellId,
    arrival: HeadingId,
    /// Where the reverse step goes instead (`None`: off the board).
    back: Option<(CellId, HeadingId)>,
    origin: StepOrigin,
    back_origin: StepOrigin,
}

/// Steps whose reverse step does not lead back, one warning per (heading, arrival heading) pair.
fn irreversible_steps(variant: &Variant, sources: &Sources, file_id: usize) -> Vec<Diagnostic<usize>> {
    let board = &variant.board;
    let nh = board.headings.len();
    let reverse = board.reverse_headings();
    let origin = |c: CellId, h: HeadingId| sources.step_origin.get(c * nh + h).copied().unwrap_or(StepOrigin::None);

    // A cell that several headings leave the same way (a pole or cone point at the cell's centre,
    // such as a pole that is one quarter square) has no heading frame a piece could come back
    // with: steps from it are not checked.
    let cone = |c: CellId| {
        let steps: Vec<(CellId, HeadingId)> = (0..nh).filter_map(|h| board.step(c, h)).collect();
        (1..steps.len()).any(|i| steps[..i].contains(&steps[i]))
    };
    let mut groups: BTreeMap<(HeadingId, HeadingId), Vec<Irreversible>> = BTreeMap::new();
    for from in 0..board.cells.len() {
        if cone(from) {
            continue;
        }
        for h in 0..nh {
            let Some((to, arrival)) = board.step(from, h) else { continue };
            let (Some(rev_h), Some(rev_arrival)) = (reverse[h], reverse[arrival]) else { continue };
            let back = board.step(to, rev_arrival);
            if back != Some((from, rev_h)) {
                groups.entry((h, arrival)).or_default().push(Irreversible {
                    from,
                    to,
                    arrival,
                    back,
                    origin: origin(from, h),
                    back_origin: origin(to, rev_arrival),
                });
            }
        }
    }

    let cell = |c: CellId| board.cells[c].name.as_str();
    let heading = |h: HeadingId| board.headings[h].name.as_str();
    let mut out = Vec::new();
    for ((h, arrival), cases) in groups {
        let (Some(rev_h), Some(rev_arrival)) = (reverse[h], reverse[arrival]) else { continue };
        let first = &cases[0];
        let back = match first.back {
            Some((c, g)) => format!("leads to `{}` heading `{}`", cell(c), heading(g)),
            None => "leads off the board".to_string(),
        };
        let message = format!(
            "a step from `{}` heading `{}` lands on `{}` heading `{}`, but the reverse step from `{}` heading `{}` {back}, not back to `{}` heading `{}`",
            cell(first.from),
            heading(h),
            cell(first.to),
            heading(first.arrival),
            cell(first.to),
            heading(rev_arrival),
            cell(first.from),
            heading(rev_h),
        );
        let mut notes = Vec::new();
        if cases.len() > 1 {
            let examples: Vec<String> = cases
                .iter()
                .skip(1)
                .take(EXAMPLES)
                .map(|c| format!("`{}` {} -> `{}` {}", cell(c.from), heading(h), cell(c.to), heading(c.arrival)))
                .collect();
            let more = cases.len() - 1 - examples.len();
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            notes.push(format!(
                "note: {} steps heading `{}` that arrive heading `{}` do not reverse; also {}{more}",
                cases.len(),
                heading(h),
                heading(arrival),
                examples.join(", ")
            ));
        }
        let mut pairs = vec![format!("`{}` for `{}`", heading(rev_h), heading(h))];
        if arrival != h {
            pairs.push(format!("`{}` for `{}`", heading(rev_arrival), heading(arrival)));
        }
        notes.push(format!("note: the reverse of a heading is the heading with the negated vector ({})", pairs.join(", ")));

        let mut labels: Vec<Label<usize>> = Vec::new();
        let mut blamed: Vec<(StepOrigin, &str)> = Vec::new();
        for c in &cases {
            if !blamed.iter().any(|(o, _)| *o == c.origin) {
                blamed.push((c.origin, "makes this step"));
            }
        }
        for c in &cases {
            if !blamed.iter().any(|(o, _)| *o == c.back_origin) {
                blamed.push((c.back_origin, "makes the reverse step"));
            }
        }
        for (i, (o, what)) in blamed.iter().enumerate() {
            let (span, name) = match o {
                StepOrigin::Seam(s) => match sources.seams.get(*s) {
                    Some((name, span)) => (*span, format!("seam `{name}` {what}")),
                    None => continue,
                },
                StepOrigin::Link(l) => match sources.links.get(*l) {
                    Some(span) => (*span, format!("this link {what}")),
                    None => continue,
                },
                StepOrigin::Grid => (sources.headings, format!("the grid with these headings {what}")),
                StepOrigin::None => (sources.board, "the board's edge stops the reverse step".to_string()),
            };
            let label = if i == 0 { Label::primary(file_id, span.range()) } else { Label::secondary(file_id, span.range()) };
            labels.push(label.with_message(name));
        }
        out.push(Diagnostic::warning().with_message(message).with_labels(labels).with_notes(notes));
    }
    out
}
