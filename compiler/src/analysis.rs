//! Analysis: warnings about a checked board, seen as a graph.
//!
//! The board becomes a petgraph graph: cells are nodes, every step `(cell, heading) -> (cell',
//! heading')` is an edge labelled with both headings. Two questions a variant author wants answered
//! before playing:
//! - can every cell be reached from the setup at all (by any step of any heading)? A cell no piece
//!   can ever reach is usually a missing seam or link;
//! - does every step have a way back? If a step from X heading H lands on Y heading H', the step
//!   from Y heading reverse(H') should land on X heading reverse(H). When it does not, sliders move
//!   differently in the two directions, which is rarely intended.
//!
//! Findings are grouped (one warning per problem kind or heading pair, with a count and a few
//! examples) and point at the source that caused them: the seam or link that made the step, else
//! the headings or the grid.

use std::collections::BTreeMap;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::unionfind::UnionFind;
use petgraph::visit::{Dfs, EdgeRef};

use crate::frontend::{Sources, StepOrigin};
use crate::model::{CellId, HeadingId, Variant};

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

/// All warnings for a checked variant.
pub fn analyze(variant: &Variant, sources: &Sources, file_id: usize) -> Vec<Diagnostic<usize>> {
    let graph = board_graph(variant);
    let mut out = Vec::new();
    out.extend(unreachable_cells(variant, sources, file_id, &graph));
    out.extend(irreversible_steps(variant, sources, file_id));
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
    // reverse[h]: the heading with the negated vector, when vectors exist.
    let reverse: Vec<Option<HeadingId>> = board
        .headings
        .iter()
        .map(|h| {
            let (dx, dy) = h.vector?;
            board.headings.iter().position(|g| g.vector == Some((-dx, -dy)))
        })
        .collect();
    let origin = |c: CellId, h: HeadingId| sources.step_origin.get(c * nh + h).copied().unwrap_or(StepOrigin::None);

    let mut groups: BTreeMap<(HeadingId, HeadingId), Vec<Irreversible>> = BTreeMap::new();
    for from in 0..board.cells.len() {
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
