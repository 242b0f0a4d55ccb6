//! Text output: a Unicode board for terminals, the neighbour table, rays as lists.
//!
//! Pieces are their symbols: upper case for the first side, lower case for the others. Dark empty
//! squares show `·`. In a movement diagram the piece is bracketed, `•` marks a move, `×` before a
//! piece a capture, a lone `×` a cell the piece could only capture on.

use crate::board::Board;
use crate::scene::{PathLine, Piece, Scene};
use std::fmt::Write;

fn symbol(b: &Board, p: Piece) -> String {
    let kind = &b.t.kinds[p.kind];
    // A crowned piece shows its crown as the general notation does: `R(K)`.
    let s = match kind.crowned {
        Some((_, crown)) => format!("{}({})", kind.symbol, b.t.kinds[crown as usize].symbol),
        None => kind.symbol.to_string(),
    };
    if p.side == 0 {
        s
    } else {
        s.to_lowercase()
    }
}

/// The pieces on a cell: the top one, and a hidden one beneath after a `/`.
fn stack_text(b: &Board, scene: &Scene, c: usize) -> Option<String> {
    let top = symbol(b, scene.pieces[c]?);
    Some(match scene.under.get(c).copied().flatten() {
        Some(u) => format!("{top}/{}", symbol(b, u)),
        None => top,
    })
}

/// Centres `s` in `w` columns.
fn centre(s: &str, w: usize) -> String {
    let len = s.chars().count();
    if len >= w {
        return s.to_string();
    }
    let left = (w - len).div_ceil(2);
    format!("{}{}{}", " ".repeat(left), s, " ".repeat(w - len - left))
}

fn cell_width(b: &Board, scene: &Scene) -> usize {
    let g = b.t.grid.as_ref().expect("grid");
    let files = g.files.iter().map(|f| f.chars().count()).max().unwrap_or(1);
    let names = b.t.cells.iter().map(|c| c.chars().count()).max().unwrap_or(2);
    // Stacks and crowned pieces (`P/R(K)`) need more room than one letter.
    let pieces = (0..scene.pieces.len()).filter_map(|c| stack_text(b, scene, c)).map(|t| t.chars().count() + 2).max().unwrap_or(0);
    (files + 2).max(3).max(names + 1).max(pieces)
}

fn rank_width(b: &Board) -> usize {
    let g = b.t.grid.as_ref().expect("grid");
    g.ranks.iter().map(|r| r.chars().count()).max().unwrap_or(1)
}

/// The board (with the position, and the movement marks when there are any).
pub fn board(b: &Board, scene: &Scene) -> String {
    let g = b.t.grid.as_ref().expect("grid");
    let cw = cell_width(b, scene);
    let rw = rank_width(b);
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", scene.title, scene.subtitle);
    if let Some(d) = &scene.detail {
        let _ = writeln!(out, "{d}");
    }
    // Turned round (`flip`), the first rank is on top and the files run right to left.
    let xs: Vec<i32> = if scene.flip { (0..b.width as i32).rev().collect() } else { (0..b.width as i32).collect() };
    let ys: Vec<i32> = if scene.flip { (0..b.height as i32).collect() } else { (0..b.height as i32).rev().collect() };
    let files: String = xs.iter().map(|&x| centre(&g.files[x as usize], cw)).collect();
    let _ = writeln!(out, "{}  {}", " ".repeat(rw + 1), files);
    let _ = writeln!(out, "{} ┌{}┐", " ".repeat(rw), "─".repeat(cw * b.width));
    for &y in &ys {
        let mut row = String::new();
        for &x in &xs {
            // A position that is another name of a cell (`identify`) stays blank: the cell is drawn
            // at its own position, as in the SVG view and FEN.
            let content = match b.cell_at(x, y).filter(|_| !b.t.is_alias_position(x as usize, y as usize)) {
                None => " ".repeat(cw),
                Some(c) => centre(&cell_text(b, scene, c), cw),
            };
            row.push_str(&content);
        }
        let r = &g.ranks[y as usize];
        let _ = writeln!(out, "{r:>rw$} │{row}│ {r}");
    }
    let _ = writeln!(out, "{} └{}┘", " ".repeat(rw), "─".repeat(cw * b.width));
    let _ = writeln!(out, "{}  {}", " ".repeat(rw + 1), files);
    if !b.extra.is_empty() {
        let list: Vec<String> = b.extra.iter().map(|&c| format!("{} {}", b.name(c), cell_text(b, scene, c).trim())).collect();
        let _ = writeln!(out, "off the grid: {}", list.join(", "));
    }
    legend(b, scene, &mut out);
    movement(b, scene, "rays (`~` crosses a seam, with the heading it arrives with when that changes):", &mut out);
    if scene.movement.is_none() {
        seams(b, &mut out);
    }
    out
}

/// A piece's moves, captures and (with `--paths`) rays, under the drawing; `rays` heads the rays.
fn movement(b: &Board, scene: &Scene, rays: &str, out: &mut String) {
    let Some(m) = &scene.movement else { return };
    let moves: Vec<&str> = (0..b.cells()).filter(|&c| m.marks[c].quiet).map(|c| b.name(c)).collect();
    let captures: Vec<&str> = (0..b.cells()).filter(|&c| m.marks[c].capture).map(|c| b.name(c)).collect();
    let only: Vec<&str> = (0..b.cells()).filter(|&c| m.marks[c].capture_only).map(|c| b.name(c)).collect();
    let _ = writeln!(out, "moves ({}): {}", moves.len(), moves.join(" "));
    if !captures.is_empty() {
        let _ = writeln!(out, "captures ({}): {}", captures.len(), captures.join(" "));
    }
    if !only.is_empty() {
        let _ = writeln!(out, "captures only ({}): {}", only.len(), only.join(" "));
    }
    if !m.paths.is_empty() && scene.paths {
        let _ = writeln!(out, "{rays}");
        for line in &m.paths {
            let _ = writeln!(out, "  {}", path_text(b, line));
        }
    }
}

/// A cell's text, bracketed when it is marked: `(·)` part of the last move, `!K!` in check.
fn cell_text(b: &Board, scene: &Scene, c: usize) -> String {
    let plain = piece_text(b, scene, c);
    if scene.check.get(c) == Some(&true) {
        format!("!{}!", plain.trim())
    } else if scene.last.get(c) == Some(&true) {
        let inner = plain.trim();
        format!("({})", if inner.is_empty() { "·" } else { inner })
    } else {
        plain
    }
}

fn piece_text(b: &Board, scene: &Scene, c: usize) -> String {
    let piece = stack_text(b, scene, c);
    if let Some(m) = &scene.movement {
        if m.cell == c {
            return format!("[{}]", symbol(b, m.piece));
        }
        let mark = m.marks[c];
        if mark.capture {
            return format!("×{}", piece.unwrap_or_default());
        }
        if mark.quiet {
            return "•".into();
        }
        if mark.capture_only {
            return "×".into();
        }
    }
    match piece {
        Some(p) => p,
        None if b.is_light(c) => " ".into(),
        None => "·".into(),
    }
}

fn legend(b: &Board, scene: &Scene, out: &mut String) {
    let mut kinds: Vec<usize> = scene
        .pieces
        .iter()
        .chain(scene.under.iter())
        .flatten()
        .map(|p| p.kind)
        .collect();
    if let Some(m) = &scene.movement {
        kinds.push(m.piece.kind);
    }
    kinds.sort();
    kinds.dedup();
    if kinds.is_empty() {
        return;
    }
    let names: Vec<String> = kinds
        .iter()
        .map(|&k| {
            format!(
                "{} {}",
                symbol(b, Piece { side: 0, kind: k }),
                b.t.kinds[k].name
            )
        })
        .collect();
    let sides: Vec<&str> = b.t.sides.iter().map(|s| s.name.as_str()).collect();
    let _ = writeln!(out, "pieces: {} ({} upper case, {} lower case)", names.join(", "), sides[0], sides[1..].join(", "));
    let mut marks = Vec::new();
    if scene.last.contains(&true) {
        marks.push("(x) the last move");
    }
    if scene.check.contains(&true) {
        marks.push("!x! in check");
    }
    if !marks.is_empty() {
        let _ = writeln!(out, "marks: {}", marks.join(", "));
    }
}

/// A ray: `SW: f2 e1 ~NW~ h1 g2 …`.
pub fn path_text(b: &Board, line: &PathLine) -> String {
    let mut s = format!("{}:", b.heading_name(line.heading));
    for (i, st) in line.steps.iter().enumerate() {
        // Boards of polygon cells have no seams: their steps are drawn as the gluing has them.
        let plain = b.is_polygonal() || b.is_plain(st.from, st.heading, st.to);
        if !plain {
            if st.arrival != st.heading {
                let _ = write!(s, " ~{}~", b.heading_name(st.arrival));
            } else {
                s.push_str(" ~");
            }
        }
        if i + 1 == line.steps.len() && line.returns {
            let _ = write!(s, " {} (back to the start)", b.name(st.to));
        } else {
            let _ = write!(s, " {}", b.name(st.to));
        }
    }
    s
}

fn seams(b: &Board, out: &mut String) {
    if b.seam_groups.is_empty() {
        return;
    }
    let _ = writeln!(out, "seams:");
    for (i, g) in b.seam_groups.iter().enumerate() {
        let _ = writeln!(out, "  {}", b.seam_description(g));
        let steps: Vec<String> = b
            .edge_steps
            .iter()
            .filter(|s| s.group == i)
            .map(|s| format!("{}→{}", b.name(s.cell), b.name(s.target)))
            .collect();
        let _ = writeln!(out, "    {}", steps.join(" "));
    }
}

/// The neighbour table: the board inside two rings of the cells one and two steps beyond each edge.
pub fn neighbours(b: &Board, scene: &Scene) -> String {
    let g = b.t.grid.as_ref().expect("grid");
    let cw = cell_width(b, scene);
    let rw = rank_width(b).max(2);
    let (w, h) = (b.width as i32, b.height as i32);
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", scene.title, scene.subtitle);
    let name = |vx: i32, vy: i32| -> String {
        let inside = vx >= 0 && vy >= 0 && vx < w && vy < h;
        let c = if inside { b.cell_at(vx, vy) } else { b.virtual_cell(vx, vy).map(|v| v.0) };
        centre(c.map(|c| b.name(c)).unwrap_or("-"), cw)
    };
    let head_ring = |a: &str, b2: &str| format!("{}{}", centre(a, cw), centre(b2, cw));
    let files: String = g.files.iter().map(|f| centre(f, cw)).collect();
    let _ = writeln!(out, "{} {} │{} │{}", " ".repeat(rw), head_ring("-2", "-1"), files, head_ring("+1", "+2"));
    let rule = || format!("{} {}┼{}┼{}", " ".repeat(rw), "─".repeat(2 * cw + 1), "─".repeat(cw * w as usize + 1), "─".repeat(2 * cw + 1));
    for vy in (-2..h + 2).rev() {
        if vy == h - 1 {
            let _ = writeln!(out, "{}", rule());
        }
        let label = if vy >= h {
            format!("+{}", vy - h + 1)
        } else if vy < 0 {
            format!("{vy}")
        } else {
            g.ranks[vy as usize].clone()
        };
        let left: String = (-2..0).map(|vx| name(vx, vy)).collect();
        let mid: String = (0..w).map(|vx| name(vx, vy)).collect();
        let right: String = (w..w + 2).map(|vx| name(vx, vy)).collect();
        let _ = writeln!(out, "{label:>rw$} {left} │{mid} │{right}");
        if vy == 0 {
            let _ = writeln!(out, "{}", rule());
        }
    }
    let _ = writeln!(out, "(ring rows and columns: one and two steps beyond the edge; '-': no cell)");
    out
}

/// The rings of each hemisphere, from the pole out.
pub fn hemispheres(b: &Board, scene: &Scene) -> String {
    let g = b.t.grid.as_ref().expect("grid");
    let (w, h) = (b.width as i32, b.height as i32);
    let south = h / 2;
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", scene.title, scene.subtitle);
    let ring = |y: i32, order: &mut dyn Iterator<Item = i32>| -> String {
        order
            .map(|x| match b.cell_at(x, y) {
                Some(c) => {
                    let t = cell_text(b, scene, c);
                    let t = t.trim();
                    if t.is_empty() || t == "·" { b.name(c).to_string() } else { format!("{}={}", b.name(c), t) }
                }
                None => "-".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(out, "north hemisphere, from the pole out (seen from above the pole, files anticlockwise):");
    for y in (south..h).rev() {
        let _ = writeln!(out, "  rank {}: {}", g.ranks[y as usize], ring(y, &mut (0..w)));
    }
    let _ = writeln!(out, "south hemisphere, from the pole out (seen from below the pole, files clockwise):");
    for y in 0..south {
        let _ = writeln!(out, "  rank {}: {}", g.ranks[y as usize], ring(y, &mut (0..w)));
    }
    out
}

/// The number of ports (headings) of a cell of a polygon board: as many as its drawing has, else
/// up to its last heading that leads somewhere.
fn ports_of(b: &Board, c: usize) -> usize {
    let drawn = b.t.layout.as_ref().and_then(|l| l.views.iter().flat_map(|v| &v.cells).find(|x| x.cell as usize == c)).map(|x| x.ports.len());
    match drawn {
        Some(k) if k > 0 => k,
        _ => (0..b.t.headings.len()).rev().find(|&h| b.step(c, h).is_some()).map_or(0, |h| h + 1),
    }
}

/// A board of polygon cells: each cell with what stands on it and its neighbours through each
/// side and each corner (from the step table), in the order of its headings.
pub fn polygon_board(b: &Board, scene: &Scene) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", scene.title, scene.subtitle);
    if let Some(d) = &scene.detail {
        let _ = writeln!(out, "{d}");
    }
    let names_w = b.t.cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let _ = writeln!(
        out,
        "{} cells; per cell: its piece, then the cells a step through each side and each corner reaches ('-': none)",
        b.cells()
    );
    for c in 0..b.cells() {
        let k = ports_of(b, c);
        let sides: Vec<&str> = (0..k).step_by(2).map(|h| b.step(c, h).map_or("-", |(to, _)| b.name(to))).collect();
        let corners: Vec<&str> = (1..k).step_by(2).map(|h| b.step(c, h).map_or("-", |(to, _)| b.name(to))).collect();
        let content = cell_text(b, scene, c);
        let content = if content.trim() == "·" { String::new() } else { content.trim().to_string() };
        let _ = writeln!(
            out,
            "  {:<names_w$} {:<4} {}-gon  sides: {}  corners: {}",
            b.name(c),
            content,
            k / 2,
            sides.join(" "),
            corners.join(" ")
        );
    }
    legend(b, scene, &mut out);
    movement(b, scene, "rays (by the heading they leave with):", &mut out);
    out
}
