//! The initial position: attacks, captures at once, symmetry of the setups.
//!
//! - Attacks: every piece standing where an enemy piece (of another team) could capture it at once (its capturing
//!   rays, initial ones included since nothing has moved, the cells passed empty), with the path.
//! - Captures at once: the legal moves of the side to move (the runtime's move generator on the
//!   compiled tables) that land on an enemy piece.
//! - Symmetry: an automorphism of the board (petgraph VF2 on the step graph, edges labelled by the
//!   kind of their headings, cells labelled by the piece each side has there) that maps the first
//!   side's setup onto the second's and every move of every piece of the first side onto the same
//!   piece's move of the second side (so pawns' forward directions and promotion zones correspond).

use petgraph::algo::isomorphism::subgraph_isomorphisms_iter;
use petgraph::graph::{DiGraph, NodeIndex};
use serde_json::{json, Value};

use super::Ctx;
use crate::model::{CellId, PieceId};
use orbis_runtime::tables::ray;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attack {
    pub attacker: (usize, PieceId, CellId),
    pub target: (usize, PieceId, CellId),
    /// The cells passed between them.
    pub path: Vec<CellId>,
}

#[derive(Debug, Clone)]
pub struct Symmetry {
    pub sides: (usize, usize),
    /// `map[cell]`: the image of each cell; `None` when no automorphism does it.
    pub map: Option<Vec<CellId>>,
    /// The map as a formula on grid coordinates, when it is one.
    pub formula: Option<String>,
    /// "reflection" or "rotation" (by the determinant of the formula), when known.
    pub kind: Option<String>,
    /// Automorphisms tried (VF2 matches of the labelled graphs).
    pub tried: usize,
    /// Where the first side's royal pieces stand (to show the map by).
    pub royal_cells: Vec<CellId>,
}

#[derive(Debug, Clone)]
pub struct PositionFacts {
    pub attacks: Vec<Attack>,
    pub to_move: usize,
    /// Legal captures of the side to move: (from, to); `None` if the runtime could not load.
    pub captures: Option<Vec<(String, String)>>,
    pub symmetry: Option<Symmetry>,
}

pub fn analyze(ctx: &Ctx, tables: &orbis_runtime::Tables) -> PositionFacts {
    let v = ctx.v;
    let ncells = v.board.cells.len();
    let mut at: Vec<Option<(usize, PieceId)>> = vec![None; ncells];
    for (s, side) in v.sides.iter().enumerate() {
        for &(c, p) in &side.setup {
            at[c] = Some((s, p));
        }
    }
    let mut attacks: Vec<Attack> = Vec::new();
    for (s, side) in v.sides.iter().enumerate() {
        for &(o, p) in &side.setup {
            for (ri, r) in &ctx.rays[s][p][o] {
                let rule = &v.pieces[p].rules[*ri];
                if rule.hop.is_some() || rule.takes.is_some() {
                    // Walked along their lines below: the report's rays only stand in for them.
                    continue;
                }
                if r.flags & ray::CAPTURE == 0 || r.must_empty.iter().any(|&c| at[c].is_some()) {
                    continue;
                }
                for (i, &c) in r.cells.iter().enumerate() {
                    let Some((ts, tp)) = at[c] else { continue };
                    if v.sides[ts].team != v.sides[s].team {
                        let mut path = r.must_empty.clone();
                        path.extend(&r.cells[..i]);
                        // Every distinct path: on a closed board a piece may see another two ways.
                        let a = Attack { attacker: (s, p, o), target: (ts, tp, c), path };
                        if !attacks.iter().any(|x| x.attacker == a.attacker && x.target == a.target && x.path == a.path) {
                            attacks.push(a);
                        }
                    }
                    break;
                }
            }
        }
    }
    // Hops and `takes` slides along their lines: the screen (a hop's first piece, of a kind it
    // may jump over), then the first piece beyond it (just beyond with `next`), or without a
    // screen the first piece, taken if an enemy of a kind the rule takes.
    for (s, side) in v.sides.iter().enumerate() {
        for &(o, p) in &side.setup {
            for rule in v.pieces[p].rules.iter().filter(|r| (r.hop.is_some() || r.takes.is_some()) && r.mode != crate::model::Mode::MoveOnly) {
                let admits = |f: &Option<Vec<PieceId>>, k: PieceId| f.as_ref().is_none_or(|f| f.contains(&k));
                for line in crate::walk::hop_lines(v, s, &v.pieces[p], rule, o) {
                    let mut start = 0;
                    if rule.hop.is_some() {
                        let Some(i) = line.iter().position(|&c| at[c].is_some()) else { continue };
                        if !at[line[i]].is_some_and(|(_, k)| admits(&rule.over, k)) {
                            continue;
                        }
                        start = i + 1;
                    }
                    let end = if rule.hop == Some(crate::model::Hop::Next) { line.len().min(start + 1) } else { line.len() };
                    let Some(j) = (start..end).find(|&j| at[line[j]].is_some()) else { continue };
                    let c = line[j];
                    let (ts, tp) = at[c].expect("occupied");
                    let onto = rule.onto.as_ref().is_none_or(|on| on[s].contains(&c));
                    if v.sides[ts].team != v.sides[s].team && admits(&rule.takes, tp) && onto {
                        let a = Attack { attacker: (s, p, o), target: (ts, tp, c), path: line[..j].to_vec() };
                        if !attacks.iter().any(|x| x.attacker == a.attacker && x.target == a.target && x.path == a.path) {
                            attacks.push(a);
                        }
                    }
                }
            }
        }
    }
    attacks.sort_by_key(|a| (a.target.0, a.target.2, a.attacker.2, a.path.len()));

    let captures = orbis_runtime::Engine::new(tables.clone()).ok().and_then(|engine| {
        let moves = engine.moves(None).ok()?;
        Some(
            moves
                .into_iter()
                .filter(|m| {
                    v.board.cells.iter().position(|c| c.name == m.to).and_then(|c| at[c]).is_some_and(|(s, _)| v.sides[s].team != v.sides[0].team)
                })
                .map(|m| (m.from, m.to))
                .collect(),
        )
    });

    let symmetry = if v.sides.len() >= 2 { Some(symmetry(ctx, 0, 1)) } else { None };
    PositionFacts { attacks, to_move: 0, captures, symmetry }
}

/// How many VF2 matches are tried before giving up.
const MAX_TRIES: usize = 20_000;

fn symmetry(ctx: &Ctx, a: usize, b: usize) -> Symmetry {
    let v = ctx.v;
    let board = &v.board;
    let ncells = board.cells.len();
    // Steps are labelled by their shape: a vector's, or for headings without one (the ports of
    // polygon cells, whose numbering differs from cell to cell) its kind of line.
    let label = |h: usize| -> (i32, i32) {
        match board.headings[h].vector {
            Some((dx, dy)) => (dx.abs().min(dy.abs()), dx.abs().max(dy.abs())),
            None => (-1, board.headings[h].kind.bit() as i32),
        }
    };
    let build = |side: usize| {
        let mut g: DiGraph<Option<PieceId>, Vec<(i32, i32)>> = DiGraph::new();
        let mut labels = vec![None; ncells];
        for &(c, p) in &v.sides[side].setup {
            labels[c] = Some(p);
        }
        for l in labels {
            g.add_node(l);
        }
        let mut edges: std::collections::BTreeMap<(usize, usize), Vec<(i32, i32)>> = Default::default();
        for c in 0..ncells {
            for h in 0..board.headings.len() {
                if let Some((to, _)) = board.step(c, h) {
                    edges.entry((c, to)).or_default().push(label(h));
                }
            }
        }
        for ((c, to), mut l) in edges {
            l.sort();
            g.add_edge(NodeIndex::new(c), NodeIndex::new(to), l);
        }
        g
    };
    let (g0, g1) = (build(a), build(b));
    let mut nm = |x: &Option<PieceId>, y: &Option<PieceId>| x == y;
    let mut em = |x: &Vec<(i32, i32)>, y: &Vec<(i32, i32)>| x == y;
    let mut tried = 0;
    let mut found = None;
    if let Some(iter) = subgraph_isomorphisms_iter(&&g0, &&g1, &mut nm, &mut em) {
        for map in iter {
            tried += 1;
            if equivariant(ctx, a, b, &map) {
                found = Some(map);
                break;
            }
            if tried >= MAX_TRIES {
                break;
            }
        }
    }
    let (formula, kind) = match &found {
        Some(map) => describe(ctx, map),
        None => (None, None),
    };
    let royal_cells = v.sides[a].setup.iter().filter(|&&(_, p)| v.pieces[p].royal).map(|&(c, _)| c).collect();
    Symmetry { sides: (a, b), map: found, formula, kind, tried, royal_cells }
}

/// Whether `map` carries every move, capture and promotion zone of side `a` to side `b`.
fn equivariant(ctx: &Ctx, a: usize, b: usize, map: &[usize]) -> bool {
    let image = |cells: &[CellId]| {
        let mut out: Vec<CellId> = cells.iter().map(|&c| map[c]).collect();
        out.sort_unstable();
        out
    };
    for p in 0..ctx.v.pieces.len() {
        for (c, &mc) in map.iter().enumerate() {
            if image(&ctx.moves[a][p][c]) != ctx.moves[b][p][mc] || image(&ctx.attacks[a][p][c]) != ctx.attacks[b][p][mc] {
                return false;
            }
        }
    }
    let sa = &ctx.v.sides[a];
    let sb = &ctx.v.sides[b];
    sa.promotions.len() == sb.promotions.len()
        && sa.promotions.iter().all(|pa| {
            sb.promotions.iter().any(|pb| {
                pb.piece == pa.piece && {
                    let mut z = pb.zone.clone();
                    z.sort_unstable();
                    image(&pa.zone) == z
                }
            })
        })
}

/// `x`, `7 - x`, `y + 4`, ...
fn affine(coef: (i32, i32), k: i32) -> String {
    let mut s = String::new();
    for (c, var) in [(coef.0, "x"), (coef.1, "y")] {
        match c {
            1 => s.push_str(var),
            -1 => s.push_str(&format!("-{var}")),
            _ => {}
        }
    }
    if s.starts_with('-') {
        if k != 0 {
            return format!("{k} - {}", s.get(1..).unwrap_or_default());
        }
        return s;
    }
    match k {
        0 => s,
        k if k > 0 => format!("{s} + {k}"),
        k => format!("{s} - {}", -k),
    }
}

/// The automorphism as a grid formula (exact, or with files taken modulo the width).
fn describe(ctx: &Ctx, map: &[usize]) -> (Option<String>, Option<String>) {
    let board = &ctx.v.board;
    let Some(grid) = &board.grid else { return (None, None) };
    let (w, h) = (grid.files.len() as i32, grid.ranks.len() as i32);
    let coords: Vec<Option<(i32, i32)>> = board.cells.iter().map(|c| c.coords).collect();
    let Some(c0) = (0..board.cells.len()).find(|&c| coords[c].is_some() && coords[map[c]].is_some()) else { return (None, None) };
    let (x0, y0) = coords[c0].unwrap_or_default();
    let (x1, y1) = coords[map[c0]].unwrap_or_default();
    let mats = [(1, 0, 0, 1), (-1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, -1), (0, 1, 1, 0), (0, -1, 1, 0), (0, 1, -1, 0), (0, -1, -1, 0)];
    for modular in [false, true] {
        for &(a, b, c, d) in &mats {
            let e = x1 - (a * x0 + b * y0);
            let f = y1 - (c * x0 + d * y0);
            let ok = (0..board.cells.len()).all(|cell| match (coords[cell], coords[map[cell]]) {
                (Some((x, y)), Some((mx, my))) => {
                    let (px, py) = (a * x + b * y + e, c * x + d * y + f);
                    if modular {
                        px.rem_euclid(w) == mx && py.rem_euclid(h) == my
                    } else {
                        px == mx && py == my
                    }
                }
                (None, None) => true,
                _ => false,
            });
            if ok {
                let (e, f) = if modular { (e.rem_euclid(w), f.rem_euclid(h)) } else { (e, f) };
                let mut xs = affine((a, b), e);
                let mut ys = affine((c, d), f);
                if modular {
                    xs = format!("({xs}) mod {w}");
                    ys = if c == 0 && d == 1 && f == 0 { ys } else { format!("({ys}) mod {h}") };
                }
                let kind = if a * d - b * c > 0 { "rotation or translation" } else { "reflection" };
                return (Some(format!("(x, y) -> ({xs}, {ys})")), Some(kind.to_string()));
            }
        }
    }
    (None, None)
}

pub fn text(p: &PositionFacts, cells: &[String], pieces: &[String], sides: &[String]) -> String {
    let mut out = String::new();
    let who = |(s, pc, c): (usize, PieceId, CellId)| format!("{} {} on {}", sides[s], pieces[pc], cells[c]);
    if p.attacks.is_empty() {
        out.push_str("  attacked at the start: none (a quiet start)\n");
    } else {
        out.push_str(&format!("  attacked at the start: {} attack(s)\n", p.attacks.len()));
        for a in &p.attacks {
            let path = if a.path.is_empty() { "directly".to_string() } else { format!("over {}", super::cell_names(cells, &a.path).join(" ")) };
            out.push_str(&format!("    {} by {} ({path})\n", who(a.target), who(a.attacker)));
        }
    }
    match &p.captures {
        None => out.push_str(&format!("  {} (to move) can capture at once: unknown (the runtime cannot load the tables)\n", sides[p.to_move])),
        Some(c) if c.is_empty() => out.push_str(&format!("  {} (to move) can capture at once: no\n", sides[p.to_move])),
        Some(c) => {
            let list: Vec<String> = c.iter().map(|(f, t)| format!("{f}x{t}")).collect();
            out.push_str(&format!("  {} (to move) can capture at once: {}\n", sides[p.to_move], list.join(" ")));
        }
    }
    match &p.symmetry {
        None => out.push_str("  symmetry: fewer than two sides\n"),
        Some(s) => {
            let (a, b) = s.sides;
            match &s.map {
                None => out.push_str(&format!(
                    "  symmetry: none: no automorphism of the board maps {}'s setup and moves onto {}'s ({} candidate(s) tried)\n",
                    sides[a], sides[b], s.tried
                )),
                Some(map) => {
                    let how = match (&s.formula, &s.kind) {
                        (Some(f), Some(k)) => format!("{f}, a {k}"),
                        _ => "an automorphism of the board".into(),
                    };
                    out.push_str(&format!("  symmetry: {}'s setup and moves are {}'s under {how}\n", sides[b], sides[a]));
                    let mut shown = s.royal_cells.clone();
                    shown.extend(corners(cells.len(), map));
                    let examples: Vec<String> = shown.into_iter().map(|c| format!("{} -> {}", cells[c], cells[map[c]])).collect();
                    let fixed = (0..map.len()).filter(|&c| map[c] == c).count();
                    out.push_str(&format!("    {}; {} fixed cell(s)\n", examples.join(", "), fixed));
                }
            }
        }
    }
    out
}

/// A few cells to show a map by: the first and last cells.
fn corners(n: usize, _map: &[usize]) -> Vec<CellId> {
    if n > 1 {
        vec![0, n - 1]
    } else {
        vec![0]
    }
}

pub fn json(p: &PositionFacts, cells: &[String], pieces: &[String], sides: &[String]) -> Value {
    let who = |(s, pc, c): (usize, PieceId, CellId)| json!({ "side": sides[s], "piece": pieces[pc], "cell": cells[c] });
    json!({
        "attacks": p.attacks.iter().map(|a| json!({
            "attacker": who(a.attacker), "target": who(a.target), "path": super::cell_names(cells, &a.path),
        })).collect::<Vec<_>>(),
        "quiet": p.attacks.is_empty(),
        "to_move": sides[p.to_move],
        "captures_at_once": p.captures.as_ref().map(|c| c.iter().map(|(f, t)| json!({ "from": f, "to": t })).collect::<Vec<_>>()),
        "symmetry": p.symmetry.as_ref().map(|s| json!({
            "sides": [sides[s.sides.0], sides[s.sides.1]],
            "symmetric": s.map.is_some(),
            "formula": s.formula,
            "kind": s.kind,
            "map": s.map.as_ref().map(|m| m.iter().enumerate().map(|(c, &d)| json!([cells[c], cells[d]])).collect::<Vec<_>>()),
            "tried": s.tried,
        })),
    })
}
