//! The rule-consistency report: what a variant's definition implies (issue 5).
//!
//! Every fact is computed from the checked model ([`Variant`]) and the rays of its pieces on an
//! empty board ([`crate::walk::rule_rays`]), never from comments or hints in the file. Five groups:
//! - [`surface`]: the board as a complex of square cells (V, E, F, Euler characteristic,
//!   orientability, boundary, name, cone points);
//! - [`topology`]: self-adjacent cells, irreversible steps, closed lines, cells no piece reaches;
//! - [`pieces`]: mobility on an empty board, binding classes, reversibility of each rule;
//! - [`position`]: attacks in the initial position, captures at once, symmetry of the setups;
//! - [`sanity`]: promotion zones, immobile pieces, castling paths, royal pieces, transit cells.
//!
//! [`build`] computes all of them; [`Report::text`] and [`Report::json`] render them (field names
//! are documented in docs/analysis.md). The warnings of `orbis check` that come from these facts
//! are made in `analysis.rs`, from [`sanity::Sanity`].

pub mod pieces;
pub mod position;
pub mod sanity;
pub mod surface;
pub mod topology;

use std::borrow::Cow;

use orbis_runtime::tables::ray;
use serde_json::{json, Value};

use crate::walk::{hop_reach, wind_reach, PathRay};
use crate::model::{CellId, HeadingId, PieceId, Variant};

/// Per side, piece and cell: a list of `T`.
pub type PerPieceCell<T> = Vec<Vec<Vec<Vec<T>>>>;

/// Rays of every piece of every side from every cell, on an empty board, with the facts derived
/// from them that several analyses share.
pub struct Ctx<'a> {
    pub v: &'a Variant,
    /// `rays[side][piece][cell]`: (rule index, ray); the walked rays borrowed from the variant,
    /// the empty-board stand-ins of winding and hops owned.
    pub rays: PerPieceCell<(usize, Cow<'a, PathRay>)>,
    /// `moves[side][piece][cell]`: cells a moved piece can go to on an empty board (quiet rays).
    pub moves: PerPieceCell<CellId>,
    /// `attacks[side][piece][cell]`: cells a moved piece attacks (capturing rays).
    pub attacks: PerPieceCell<CellId>,
    /// `reach[side][piece]`: cells the piece can ever stand on (from the setup, through its own
    /// moves and captures, and through promotion).
    pub reach: Vec<Vec<Vec<bool>>>,
}

impl<'a> Ctx<'a> {
    pub fn new(v: &'a Variant) -> Ctx<'a> {
        let ncells = v.board.cells.len();
        let mut rays = Vec::new();
        let mut moves = Vec::new();
        let mut attacks = Vec::new();
        for side in 0..v.sides.len() {
            let mut rs = Vec::new();
            let mut ms = Vec::new();
            let mut ats = Vec::new();
            for (k, piece) in v.pieces.iter().enumerate() {
                // A piece whose rules are the same for every side moves as the first side's.
                if side > 0 && piece.rules.iter().all(|r| r.same_for_every_side()) {
                    let first: &PerPieceCell<(usize, Cow<PathRay>)> = &rays;
                    rs.push(first[0][k].clone());
                    let (m0, a0): (&PerPieceCell<CellId>, &PerPieceCell<CellId>) = (&moves, &attacks);
                    ms.push(m0[0][k].clone());
                    ats.push(a0[0][k].clone());
                    continue;
                }
                let mut per_cell = Vec::with_capacity(ncells);
                let mut m_cell = Vec::with_capacity(ncells);
                let mut a_cell = Vec::with_capacity(ncells);
                for origin in 0..ncells {
                    let mut list: Vec<(usize, Cow<PathRay>)> = Vec::new();
                    for (i, rule) in piece.rules.iter().enumerate() {
                        // Winding rules have no rays: their empty-board flood stands in.
                        // and hops (and `takes`) have none: their lines stand in.
                        let rays = if rule.wind.is_some() {
                            wind_reach(v, piece, rule, origin)
                        } else if rule.hop.is_some() || rule.takes.is_some() {
                            hop_reach(v, side, piece, rule, origin)
                        } else {
                            list.extend(v.walked().rule(k, i, side, origin).iter().map(|r| (i, Cow::Borrowed(r))));
                            continue;
                        };
                        list.extend(rays.into_iter().map(|r| (i, Cow::Owned(r))));
                    }
                    let (mut m, mut a) = (Vec::new(), Vec::new());
                    for (_, r) in &list {
                        if r.flags & ray::INITIAL != 0 {
                            continue;
                        }
                        // Transit cells are passed, never stopped on.
                        let stops = r.cells.iter().copied().filter(|&c| !v.board.cells[c].transit);
                        if r.flags & ray::QUIET != 0 {
                            m.extend(stops.clone());
                        }
                        if r.flags & ray::CAPTURE != 0 {
                            a.extend(stops);
                        }
                    }
                    per_cell.push(list);
                    for cells in [&mut m, &mut a] {
                        cells.sort_unstable();
                        cells.dedup();
                    }
                    m_cell.push(m);
                    a_cell.push(a);
                }
                rs.push(per_cell);
                ms.push(m_cell);
                ats.push(a_cell);
            }
            rays.push(rs);
            moves.push(ms);
            attacks.push(ats);
        }
        let mut ctx = Ctx { v, rays, moves, attacks, reach: Vec::new() };
        ctx.reach = (0..v.sides.len()).map(|s| ctx.closure(s)).collect();
        ctx
    }

    /// Whether `piece` of `side` must promote on `cell` (so it never stays there): a cell of one
    /// of its compulsory zones.
    pub fn promotes_on(&self, side: usize, piece: PieceId, cell: CellId) -> bool {
        self.v.sides[side].promotions.iter().any(|p| p.piece == piece && !p.optional && p.zone.contains(&cell))
    }

    /// Whether `piece` of `side` may promote on `cell` (a cell of any of its zones).
    pub fn may_promote_on(&self, side: usize, piece: PieceId, cell: CellId) -> bool {
        self.v.sides[side].promotions.iter().any(|p| p.piece == piece && p.zone.contains(&cell))
    }

    /// Every cell a moved piece can reach in one move or capture on an empty board.
    pub fn any_dest(&self, side: usize, piece: PieceId, cell: CellId) -> impl Iterator<Item = CellId> + '_ {
        self.moves[side][piece][cell].iter().chain(self.attacks[side][piece][cell].iter()).copied()
    }

    /// Cells each piece of `side` can ever occupy: a fixpoint over moves from the setup (initial
    /// rules from setup cells only) and promotions (a piece entering its zone becomes a choice).
    fn closure(&self, side: usize) -> Vec<Vec<bool>> {
        let v = self.v;
        let ncells = v.board.cells.len();
        let npieces = v.pieces.len();
        let mut reach = vec![vec![false; ncells]; npieces];
        let mut stack: Vec<(PieceId, CellId)> = Vec::new();
        // Pieces atop others start there too, and a crowned piece where its carrier starts.
        let side_info = &v.sides[side];
        let crowned = side_info
            .setup
            .iter()
            .chain(&side_info.atop)
            .flat_map(|&(cell, piece)| {
                v.pieces
                    .iter()
                    .enumerate()
                    .filter(move |(_, t)| t.crowned.is_some_and(|(c, _)| c == piece))
                    .map(move |(t, _)| (cell, t))
            });
        let starts: Vec<(CellId, PieceId)> = side_info
            .setup
            .iter()
            .chain(&side_info.atop)
            .copied()
            .chain(crowned)
            .collect();
        for &(cell, piece) in &starts {
            if !reach[piece][cell] {
                reach[piece][cell] = true;
                stack.push((piece, cell));
            }
            // Initial rules apply only from the setup cell.
            for (_, r) in &self.rays[side][piece][cell] {
                if r.flags & ray::INITIAL != 0 {
                    for &c in &r.cells {
                        if !reach[piece][c] {
                            reach[piece][c] = true;
                            stack.push((piece, c));
                        }
                    }
                }
            }
        }
        while let Some((piece, cell)) = stack.pop() {
            if self.may_promote_on(side, piece, cell) {
                for p in &v.sides[side].promotions {
                    if p.piece == piece && p.zone.contains(&cell) {
                        for &choice in &p.choices {
                            if !reach[choice][cell] {
                                reach[choice][cell] = true;
                                stack.push((choice, cell));
                            }
                        }
                    }
                }
                if self.promotes_on(side, piece, cell) {
                    continue;
                }
            }
            let next: Vec<CellId> = self.any_dest(side, piece, cell).collect();
            for c in next {
                if !reach[piece][c] {
                    reach[piece][c] = true;
                    stack.push((piece, c));
                }
            }
        }
        reach
    }

    pub fn cell(&self, c: CellId) -> &str {
        &self.v.board.cells[c].name
    }

    pub fn heading(&self, h: HeadingId) -> &str {
        &self.v.board.headings[h].name
    }

    pub fn names(&self, cells: impl IntoIterator<Item = CellId>) -> Vec<String> {
        cells.into_iter().map(|c| self.cell(c).to_string()).collect()
    }
}

/// Source text of each piece rule, for the report (`None` without source).
#[derive(Debug, Clone, Default)]
pub struct RuleTexts {
    /// `texts[piece][rule]`.
    pub texts: Vec<Vec<String>>,
}

impl RuleTexts {
    /// The rules as written (`MoveRule::text`); a rule with no text is described from the model,
    /// and the rules one text stands for (`betza "QN"`) each get their description after it.
    pub fn from_variant(v: &Variant) -> RuleTexts {
        let texts = v
            .pieces
            .iter()
            .map(|p| {
                p.rules
                    .iter()
                    .map(|r| {
                        let shared = p.rules.iter().filter(|o| o.span == r.span).count() > 1;
                        match (r.text.is_empty(), shared) {
                            (true, _) => describe_rule(v, r),
                            (false, false) => r.text.clone(),
                            (false, true) => format!("{}: {}", r.text, describe_rule(v, r)),
                        }
                    })
                    .collect()
            })
            .collect();
        RuleTexts { texts }
    }

    pub fn get(&self, v: &Variant, piece: PieceId, rule: usize) -> String {
        self.texts.get(piece).and_then(|t| t.get(rule)).cloned().unwrap_or_else(|| describe_rule(v, &v.pieces[piece].rules[rule]))
    }
}

/// A rule written back from the model (headings listed, groups expanded), for pieces whose
/// source is not at hand (e.g. from an included library).
pub fn describe_rule(v: &Variant, rule: &crate::model::MoveRule) -> String {
    use crate::model::{Dirs, Mode};
    let mut words: Vec<String> = Vec::new();
    match rule.mode {
        Mode::MoveOnly => words.push("move-only".into()),
        Mode::CaptureOnly => words.push("capture-only".into()),
        Mode::Both => {}
    }
    let flags = [
        (rule.initial, "initial"),
        (rule.leap, "leap"),
        (rule.en_passant_target, "en-passant-target"),
        (rule.en_passant, "en-passant"),
        (rule.across_transit, "across-transit"),
    ];
    for (on, w) in flags {
        if on {
            words.push(w.into());
        }
    }
    let turns = |ts: &[i32]| -> String {
        let list: Vec<String> = ts.iter().map(|t| format!("{t:+}")).collect();
        format!("turn {}", list.join(","))
    };
    let bending = |b: &[Vec<i32>]| -> Option<String> {
        if b.is_empty() {
            return None;
        }
        let amounts: Vec<String> = b
            .iter()
            .map(|alts| {
                alts.iter()
                    .map(|t| format!("{t:+}"))
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect();
        Some(format!("bending {}", amounts.join(" ")))
    };
    if let Some((by, zone)) = &rule.wind {
        let names: Vec<&str> = by.iter().map(|&h| v.board.headings[h].name.as_str()).collect();
        words.push(format!("wind {{ {} }} within {} cells", names.join(" "), zone.len()));
        return words.join(" ");
    }
    if let Some((steps, by)) = &rule.distance {
        let names: Vec<&str> = by
            .iter()
            .map(|&h| v.board.headings[h].name.as_str())
            .collect();
        words.push(format!("distance {steps} by {{ {} }}", names.join(" ")));
    } else {
        words.push(if rule.hop.is_some() {
            "hop".into()
        } else if rule.first_slides {
            "slide".into()
        } else {
            "step".into()
        });
    }
    match &rule.first {
        Dirs::Headings(hs) if rule.distance.is_some() && hs.is_empty() => {}
        Dirs::Headings(hs) => {
            let names: Vec<&str> = hs.iter().map(|&h| v.board.headings[h].name.as_str()).collect();
            words.push(if names.len() == 1 { names[0].to_string() } else { format!("{{ {} }}", names.join(" ")) });
        }
        Dirs::Side { direction, turns: ts } => {
            let name = v.directions.get(*direction).map_or("forward", String::as_str);
            words.push(if ts == &[0] { name.to_string() } else { format!("{name} {}", turns(ts)) });
        }
    }
    let avoid = |mask: u32| -> Option<String> {
        let names: Vec<&str> = (0..32).filter(|b| mask >> b & 1 != 0).filter_map(|b| v.board.seams.get(b).map(String::as_str)).collect();
        match names.len() {
            0 => None,
            1 => Some(format!("avoid {}", names[0])),
            _ => Some(format!("avoid {{ {} }}", names.join(" "))),
        }
    };
    let avoid_cells = |cells: &[usize]| -> Option<String> {
        match cells.len() {
            0 => None,
            1 => Some(format!("avoid cells {{ {} }}", v.board.cells[cells[0]].name)),
            n => Some(format!("avoid {n} cells")),
        }
    };
    if rule.hop == Some(crate::model::Hop::Next) {
        words.push("next".into());
    }
    words.extend(bending(&rule.first_bending));
    words.extend(avoid(rule.first_avoid));
    words.extend(avoid_cells(&rule.first_avoid_cells));
    for leg in &rule.legs {
        words.push("then".into());
        words.push(if leg.slides {
            "slide".into()
        } else {
            "step".into()
        });
        words.push(if leg.turns == [0] {
            "straight".into()
        } else {
            turns(&leg.turns)
        });
        words.extend(bending(&leg.bending));
        words.extend(avoid(leg.avoid));
        words.extend(avoid_cells(&leg.avoid_cells));
    }
    for (word, filter) in [("over", &rule.over), ("takes", &rule.takes)] {
        if let Some(kinds) = filter {
            let names: Vec<&str> = kinds.iter().map(|&k| v.pieces[k].name.as_str()).collect();
            words.push(format!("{word} {}", names.join(" ")));
        }
    }
    if let Some(per_side) = &rule.onto {
        let counts: Vec<String> = per_side
            .iter()
            .map(|cells| cells.len().to_string())
            .collect();
        words.push(format!("onto (cells per side: {})", counts.join(", ")));
    }
    if let Some(per_side) = &rule.origins {
        // The cells differ per side; give their number.
        let counts: Vec<String> = per_side.iter().map(|cells| cells.len().to_string()).collect();
        words.push(format!("on (cells per side: {})", counts.join(", ")));
    }
    words.join(" ")
}

/// The whole report.
pub struct Report {
    pub variant: String,
    pub surface: surface::Surface,
    pub topology: topology::Topology,
    pub pieces: Vec<pieces::PieceFacts>,
    pub position: position::PositionFacts,
    pub sanity: sanity::Sanity,
    /// Rendered warnings of `orbis check` (messages only), for the JSON form.
    pub warnings: Vec<String>,
    names: Names,
}

/// Cell, heading, piece and side names, so that rendering needs no model.
struct Names {
    cells: Vec<String>,
    headings: Vec<String>,
    pieces: Vec<String>,
    sides: Vec<String>,
}

/// Computes the report of a checked variant from its model and its tables (`Checked::tables`);
/// `warnings` are the messages of the analysis warnings.
pub fn build(v: &Variant, tables: &orbis_runtime::Tables, warnings: Vec<String>) -> Report {
    let ctx = Ctx::new(v);
    let texts = RuleTexts::from_variant(v);
    Report {
        variant: v.name.clone(),
        surface: surface::analyze(v),
        topology: topology::analyze(&ctx),
        pieces: pieces::analyze(&ctx, &texts),
        position: position::analyze(&ctx, tables),
        sanity: sanity::analyze(&ctx),
        warnings,
        names: Names {
            cells: v.board.cells.iter().map(|c| c.name.clone()).collect(),
            headings: v.board.headings.iter().map(|h| h.name.clone()).collect(),
            pieces: v.pieces.iter().map(|p| p.name.clone()).collect(),
            sides: v.sides.iter().map(|s| s.name.clone()).collect(),
        },
    }
}

/// How many cell names a list shows before "and N more".
pub const SHOW: usize = 8;

/// `a1 b2 c3 and 5 more`.
pub fn list(names: &[String], max: usize) -> String {
    if names.is_empty() {
        return "none".into();
    }
    let shown: Vec<&str> = names.iter().take(max).map(String::as_str).collect();
    if names.len() > max {
        format!("{} and {} more", shown.join(" "), names.len() - max)
    } else {
        shown.join(" ")
    }
}

impl Report {
    /// The report as text, one section per group.
    pub fn text(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("report: {}\n", self.variant));
        out.push_str("\nsurface\n");
        out.push_str(&surface::text(&self.surface));
        out.push_str("\ntopology of moves\n");
        out.push_str(&topology::text(&self.topology, &self.names.cells, &self.names.headings));
        out.push_str("\npieces\n");
        out.push_str(&pieces::text(&self.pieces, &self.names.cells, &self.names.pieces, &self.names.sides));
        out.push_str("\nposition\n");
        out.push_str(&position::text(&self.position, &self.names.cells, &self.names.pieces, &self.names.sides));
        out.push_str("\nrule sanity\n");
        out.push_str(&sanity::text(&self.sanity, &self.names.cells, &self.names.headings, &self.names.pieces, &self.names.sides));
        if !self.warnings.is_empty() {
            out.push_str(&format!("\n{} warning(s); `orbis check` shows them with their source lines\n", self.warnings.len()));
        }
        out
    }

    /// The report as one JSON object (docs/analysis.md).
    pub fn json(&self) -> Value {
        let n = &self.names;
        json!({
            "variant": self.variant,
            "surface": surface::json(&self.surface),
            "topology": topology::json(&self.topology, &n.cells, &n.headings),
            "pieces": pieces::json(&self.pieces, &n.cells, &n.pieces, &n.sides),
            "position": position::json(&self.position, &n.cells, &n.pieces, &n.sides),
            "sanity": sanity::json(&self.sanity, &n.cells, &n.headings, &n.pieces, &n.sides),
            "warnings": self.warnings,
        })
    }
}

/// Names of cells.
pub fn cell_names(names: &[String], cells: &[CellId]) -> Vec<String> {
    cells.iter().map(|&c| names[c].clone()).collect()
}
