//! SVG output: self-contained (no external fonts or images), one `viewBox`, scales cleanly.
//!
//! Every view places cells through a [`Geom`]: a shape and a centre per cell, and how a step between
//! two cells is drawn (a straight line, or a break at a seam). Pieces, marks and paths are drawn
//! the same way on every layout.

use crate::board::{Board, Edge};
use crate::pieces;
use crate::scene::{Scene, Step};
use std::fmt::Write;

const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
const LIGHT: &str = "#f0dcb4";
const DARK: &str = "#b58a63";
const INK: &str = "#2b2b2b";
const MUTED: &str = "#6b6b6b";
const CAPTURE: &str = "#d62828";
const SEAM_COLOURS: [&str; 8] = ["#2f6fbf", "#c2571a", "#2d8a4e", "#8a3fb3", "#b8860b", "#0f8b8d", "#b03060", "#556b2f"];

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A number with at most two decimals, no trailing zeros.
fn n(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let s = format!("{r:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Approximate width of a text in the sans-serif fonts used.
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.6
}

/// The colour of a heading: its direction on a colour wheel (south red, north cyan, ...).
pub fn heading_colour(b: &Board, h: usize) -> String {
    let hue = match b.vectors[h] {
        Some((dx, dy)) => {
            let angle = (dy as f64).atan2(dx as f64).to_degrees();
            (angle - 270.0).rem_euclid(360.0)
        }
        None => (h as f64 * 137.5).rem_euclid(360.0),
    };
    hsl_hex(hue, 0.78, 0.43)
}

fn hsl_hex(h: f64, s: f64, l: f64) -> String {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp.rem_euclid(2.0) - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", to(r), to(g), to(b))
}

/// Where a cell is drawn.
#[derive(Clone)]
struct CellGeom {
    /// Outline path.
    d: String,
    cx: f64,
    cy: f64,
    /// Size of a piece glyph on it.
    size: f64,
}

/// How a step is drawn.
enum Link {
    Straight,
    /// A straight line between these two points instead of the centres (into or out of a ring).
    Between { from: (f64, f64), to: (f64, f64) },
    /// Leaves at `exit`, comes back in at `entry`.
    Break { exit: (f64, f64), entry: (f64, f64) },
}

enum Kind {
    /// Squares of side `s`; `flip` maps grid y to rows.
    Grid { s: f64 },
    /// Two discs: per cell its disc (0 north, 1 south), and the rim point of its file.
    Discs { disc: Vec<usize>, rim: Vec<(f64, f64)> },
    /// A view of a layout: per cell the points its headings leave through (empty when the cell
    /// is not in the view), whether it is drawn as a ring, and the view's centre.
    Layout { ports: Vec<Vec<(f64, f64)>>, ring: Vec<bool>, centre: (f64, f64), unit: f64 },
}

struct Geom {
    cells: Vec<Option<CellGeom>>,
    kind: Kind,
}

impl Geom {
    fn link(&self, b: &Board, st: &Step) -> Link {
        match &self.kind {
            Kind::Grid { s } => {
                if b.is_plain(st.from, st.heading, st.to) {
                    return Link::Straight;
                }
                let (Some(a), Some(c)) = (&self.cells[st.from], &self.cells[st.to]) else { return Link::Straight };
                let half = s / 2.0;
                let exit = match b.vectors[st.heading] {
                    Some((dx, dy)) => (a.cx + dx.signum() as f64 * half, a.cy - dy.signum() as f64 * half),
                    None => (a.cx, a.cy),
                };
                let entry = match b.vectors[st.arrival] {
                    Some((dx, dy)) => (c.cx - dx.signum() as f64 * half, c.cy + dy.signum() as f64 * half),
                    None => (c.cx, c.cy),
                };
                Link::Break { exit, entry }
            }
            Kind::Discs { disc, rim } => {
                if disc[st.from] == disc[st.to] {
                    Link::Straight
                } else {
                    Link::Break { exit: rim[st.from], entry: rim[st.to] }
                }
            }
            Kind::Layout { ports, ring, centre, unit } => {
                let (Some(a), Some(c)) = (&self.cells[st.from], &self.cells[st.to]) else { return Link::Straight };
                let exit = ports[st.from].get(st.heading).copied();
                // Where the step comes in: the port of the target that steps back to the start
                // (of the same kind, side or corner, when there is one).
                let back: Vec<usize> = (0..ports[st.to].len()).filter(|&g| b.step(st.to, g).map(|s| s.0) == Some(st.from)).collect();
                let entry_port = back.iter().copied().find(|g| g % 2 == st.heading % 2).or(back.first().copied());
                let entry = entry_port.and_then(|g| ports[st.to].get(g).copied());
                let (Some(exit), Some(entry)) = (exit, entry) else { return Link::Straight };
                // A ring's centre for this step: just inside it from the port.
                let inside = |p: (f64, f64)| {
                    let (dx, dy) = (p.0 - centre.0, p.1 - centre.1);
                    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                    (p.0 + dx / len * unit * 0.45, p.1 + dy / len * unit * 0.45)
                };
                let from = if ring[st.from] { inside(exit) } else { (a.cx, a.cy) };
                let to = if ring[st.to] { inside(entry) } else { (c.cx, c.cy) };
                // Glued in the drawing: the ports meet, or lie a side's length apart (the diagonal
                // through a vertex of three cells lands beyond the edge between the other two).
                let dist = |p: (f64, f64), q: (f64, f64)| ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
                let longest_side = |c: usize| {
                    let p = &ports[c];
                    (1..p.len()).step_by(2).map(|i| dist(p[i], p[(i + 2) % p.len()])).fold(0.0, f64::max)
                };
                let touching = dist(exit, entry) < 1.1 * longest_side(st.from).max(longest_side(st.to));
                if !touching {
                    Link::Break { exit, entry }
                } else if ring[st.from] || ring[st.to] {
                    Link::Between { from, to }
                } else {
                    Link::Straight
                }
            }
        }
    }

    /// The point a step from `cell` starts at or ends on: its centre, or inside a ring by the port.
    fn anchor(&self, cell: usize, port: (f64, f64)) -> (f64, f64) {
        match &self.kind {
            Kind::Layout { ring, centre, unit, .. } if ring[cell] => {
                let (dx, dy) = (port.0 - centre.0, port.1 - centre.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                (port.0 + dx / len * unit * 0.45, port.1 + dy / len * unit * 0.45)
            }
            _ => self.cells[cell].as_ref().map_or(port, |g| (g.cx, g.cy)),
        }
    }
}

/// A growing SVG document.
struct Doc {
    defs: String,
    body: String,
}

impl Doc {
    #[allow(clippy::too_many_arguments)]
    fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, fill: &str, extra: &str, content: &str) {
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" fill=\"{fill}\"{extra}>{}</text>",
            n(x),
            n(y),
            n(size),
            escape(content)
        );
    }

    fn arrow(&mut self, cx: f64, cy: f64, v: (i32, i32), len: f64, colour: &str, width: f64) {
        let (dx, dy) = (v.0 as f64, -(v.1 as f64));
        let norm = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / norm, dy / norm);
        let (x0, y0) = (cx - ux * len / 2.0, cy - uy * len / 2.0);
        let (x1, y1) = (cx + ux * len / 2.0, cy + uy * len / 2.0);
        let head = len * 0.45;
        let (px, py) = (-uy, ux);
        let a = (x1 - ux * head + px * head * 0.6, y1 - uy * head + py * head * 0.6);
        let c = (x1 - ux * head - px * head * 0.6, y1 - uy * head - py * head * 0.6);
        let _ = writeln!(
            self.body,
            "<path d=\"M{} {} L{} {} M{} {} L{} {} L{} {}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            n(x0), n(y0), n(x1), n(y1), n(a.0), n(a.1), n(x1), n(y1), n(c.0), n(c.1), n(width)
        );
    }

    fn finish(self, width: f64, height: f64, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"{FONT}\">",
            w = n(width),
            h = n(height)
        );
        let _ = writeln!(out, "<title>{}</title>", escape(title));
        if !self.defs.is_empty() {
            let _ = writeln!(out, "<defs>\n{}</defs>", self.defs);
        }
        let _ = writeln!(out, "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>", n(width), n(height));
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
    }
}

/// A legend: rows of items (a small drawing and a label), wrapped to the width.
struct Legend {
    items: Vec<(String, String)>,
}

impl Legend {
    /// Draws the items from (x, y) within `width`; returns the height used.
    fn draw(&self, doc: &mut Doc, x: f64, y: f64, width: f64) -> f64 {
        if self.items.is_empty() {
            return 0.0;
        }
        let (row_h, icon, gap, size) = (26.0, 22.0, 18.0, 13.0);
        let (mut cx, mut cy) = (x, y);
        for (draw, label) in &self.items {
            let w = icon + 6.0 + text_width(label, size);
            if cx > x && cx + w > x + width {
                cx = x;
                cy += row_h;
            }
            let _ = writeln!(doc.body, "<g transform=\"translate({} {})\">{draw}</g>", n(cx), n(cy));
            doc.text(cx + icon + 6.0, cy + icon / 2.0 + size * 0.36, size, "start", INK, "", label);
            cx += w + gap;
        }
        cy + row_h - y
    }
}

/// A wrapped block of lines of text; returns the height used.
fn paragraph(doc: &mut Doc, lines: &[(String, String)], x: f64, y: f64) -> f64 {
    let mut cy = y;
    for (swatch, line) in lines {
        let _ = writeln!(doc.body, "<g transform=\"translate({} {})\">{swatch}</g>", n(x), n(cy));
        doc.text(x + 28.0, cy + 14.0, 13.0, "start", INK, "", line);
        cy += 22.0;
    }
    cy - y
}

/// Board, setup, position and movement diagrams on the grid.
pub fn board(b: &Board, scene: &Scene) -> String {
    let s = 60.0;
    let pad = 18.0;
    let coord = 22.0;
    let tab = 30.0;
    let has_tab = |e: Edge| b.edge_steps.iter().any(|st| if scene.flip { st.edge.opposite() == e } else { st.edge == e });
    let tb = |e: Edge| if has_tab(e) { tab } else { 0.0 };
    let (bw, bh) = (b.width as f64 * s, b.height as f64 * s);
    let title_h = title_height(scene);
    let left = pad + coord + tb(Edge::Left);
    let top = pad + title_h + tb(Edge::Top);
    let mut geom = grid_geom(b, left, top, s, scene.flip);
    // Cells off the grid: a row below it.
    let extra_top = top + bh + tb(Edge::Bottom) + coord + 16.0;
    let extra_h = if b.extra.is_empty() { 0.0 } else { s + 30.0 };
    for (i, &c) in b.extra.iter().enumerate() {
        let x = left + i as f64 * (s + 10.0);
        geom.cells[c] = Some(square(x, extra_top + 18.0, s));
    }
    let width = (left + bw + tb(Edge::Right) + coord + pad).max(left + b.extra.len() as f64 * (s + 10.0) + pad).max(420.0);
    let mut doc = Doc { defs: String::new(), body: String::new() };
    header(&mut doc, scene, width, pad);

    // Squares.
    draw_cells(&mut doc, b, &geom, false);
    let _ = writeln!(
        doc.body,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#5a4632\" stroke-width=\"2\"/>",
        n(left), n(top), n(bw), n(bh)
    );
    if !b.extra.is_empty() {
        doc.text(left, extra_top + 10.0, 12.0, "start", MUTED, "", "cells off the grid");
        for &c in &b.extra {
            let g = geom.cells[c].clone().expect("placed");
            doc.text(g.cx, g.cy + s / 2.0 - 5.0, 10.0, "middle", MUTED, "", b.name(c));
        }
    }

    // Coordinates: files below, ranks on the left.
    let grid = b.t.grid.as_ref().expect("grid");
    for (x, f) in grid.files.iter().enumerate() {
        let cx = left + (place(b, scene.flip, x as i32, 0).0 + 0.5) * s;
        doc.text(cx, top + bh + tb(Edge::Bottom) + 16.0, 14.0, "middle", INK, "", f);
    }
    for (y, r) in grid.ranks.iter().enumerate() {
        let cy = top + place(b, scene.flip, 0, y as i32).1 * s + s / 2.0 + 5.0;
        doc.text(left - tb(Edge::Left) - 8.0, cy, 14.0, "end", INK, "", r);
    }

    // Seam tabs along the edges.
    for st in &b.edge_steps {
        let colour = SEAM_COLOURS[st.group % SEAM_COLOURS.len()];
        let (x, y) = b.pos[st.cell].expect("edge cell on the grid");
        let (col, row) = place(b, scene.flip, x, y);
        let (col, row) = (left + col * s, top + row * s);
        // Turned round, the tab sits on the opposite edge and its arrow points the other way.
        let edge = if scene.flip { st.edge.opposite() } else { st.edge };
        let (rx, ry, rw, rh) = match edge {
            Edge::Top => (col, top - tab, s, tab),
            Edge::Bottom => (col, top + bh, s, tab),
            Edge::Left => (left - tab, row, tab, s),
            Edge::Right => (left + bw, row, tab, s),
        };
        let _ = writeln!(
            doc.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\" fill-opacity=\"0.13\" stroke=\"{colour}\" stroke-width=\"1\" stroke-opacity=\"0.7\"/>",
            n(rx + 1.0), n(ry + 1.0), n(rw - 2.0), n(rh - 2.0)
        );
        let name = b.name(st.target);
        let fs = (12.0f64).min(if matches!(edge, Edge::Left | Edge::Right) { 26.0 } else { 34.0 } / (0.62 * name.chars().count() as f64));
        let v = b.vectors[st.arrival].unwrap_or((0, 0));
        let v = if scene.flip { (-v.0, -v.1) } else { v };
        match edge {
            Edge::Top | Edge::Bottom => {
                doc.text(rx + rw / 2.0 - 8.0, ry + rh / 2.0 + fs * 0.36, fs, "middle", colour, " font-weight=\"bold\"", name);
                doc.arrow(rx + rw - 14.0, ry + rh / 2.0, v, 13.0, colour, 2.0);
            }
            Edge::Left | Edge::Right => {
                doc.text(rx + rw / 2.0, ry + rh / 2.0 - 6.0, fs, "middle", colour, " font-weight=\"bold\"", name);
                doc.arrow(rx + rw / 2.0, ry + rh / 2.0 + 13.0, v, 13.0, colour, 2.0);
            }
        }
    }

    draw_content(&mut doc, b, &geom, scene, s);

    // Below: seams, pieces, marks, paths.
    let mut y = top + bh + tb(Edge::Bottom) + coord + 14.0 + extra_h;
    let seam_lines: Vec<(String, String)> = b
        .seam_groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let colour = SEAM_COLOURS[i % SEAM_COLOURS.len()];
            (
                format!("<rect x=\"1\" y=\"3\" width=\"20\" height=\"14\" fill=\"{colour}\" fill-opacity=\"0.13\" stroke=\"{colour}\"/>"),
                b.seam_description(g),
            )
        })
        .collect();
    if !seam_lines.is_empty() {
        doc.text(pad, y + 4.0, 13.0, "start", INK, " font-weight=\"bold\"", "Seams: a step off an edge lands on the named cell, heading the arrow's way");
        y += 14.0;
        y += paragraph(&mut doc, &seam_lines, pad, y);
        y += 6.0;
    }
    y += legends(&mut doc, b, scene, None, pad, y, width - 2.0 * pad);
    let height = y + pad;
    doc.finish(width, height, &format!("{} — {}", scene.title, scene.subtitle))
}

fn square(x: f64, y: f64, s: f64) -> CellGeom {
    CellGeom {
        d: format!("M{} {}h{}v{}h-{}Z", n(x), n(y), n(s), n(s), n(s)),
        cx: x + s / 2.0,
        cy: y + s / 2.0,
        size: s * 0.88,
    }
}

/// Where grid position (x, y) is drawn: its column from the left and row from the top.
fn place(b: &Board, flip: bool, x: i32, y: i32) -> (f64, f64) {
    let (w, h) = (b.width as i32, b.height as i32);
    if flip {
        ((w - 1 - x) as f64, y as f64)
    } else {
        (x as f64, (h - 1 - y) as f64)
    }
}

fn grid_geom(b: &Board, left: f64, top: f64, s: f64, flip: bool) -> Geom {
    let cells = (0..b.cells())
        .map(|c| {
            b.pos[c].map(|(x, y)| {
                let (col, row) = place(b, flip, x, y);
                square(left + col * s, top + row * s, s)
            })
        })
        .collect();
    Geom { cells, kind: Kind::Grid { s } }
}

fn draw_cells(doc: &mut Doc, b: &Board, geom: &Geom, outline: bool) {
    let mut light = String::new();
    let mut dark = String::new();
    for (c, g) in geom.cells.iter().enumerate() {
        if let Some(g) = g {
            if b.is_light(c) { &mut light } else { &mut dark }.push_str(&g.d);
        }
    }
    let stroke = if outline { " stroke=\"#5a4632\" stroke-width=\"0.6\"" } else { "" };
    let _ = writeln!(doc.body, "<path d=\"{light}\" fill=\"{LIGHT}\"{stroke}/>");
    let _ = writeln!(doc.body, "<path d=\"{dark}\" fill=\"{DARK}\"{stroke}/>");
}

/// The height of the title block.
fn title_height(scene: &Scene) -> f64 {
    if scene.detail.is_some() { 76.0 } else { 58.0 }
}

fn header(doc: &mut Doc, scene: &Scene, width: f64, pad: f64) {
    let fit = |text: &str, size: f64| size.min((width - 2.0 * pad) / (0.6 * text.chars().count().max(1) as f64));
    doc.text(pad, pad + 18.0, fit(&scene.title, 20.0), "start", INK, " font-weight=\"bold\"", &scene.title);
    doc.text(pad, pad + 40.0, fit(&scene.subtitle, 13.0), "start", MUTED, "", &scene.subtitle);
    if let Some(detail) = &scene.detail {
        doc.text(pad, pad + 58.0, fit(detail, 12.0), "start", MUTED, " font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"", detail);
    }
}

/// Glyph definitions for the pieces that appear; returns their ids by (side, kind).
fn define_glyph(doc: &mut Doc, b: &Board, side: usize, kind: usize) -> String {
    let id = format!("p{side}-{kind}");
    if !doc.defs.contains(&format!("id=\"{id}\"")) {
        let k = &b.t.kinds[kind];
        let side_name = &b.t.sides[side].name;
        let figure = match k.crowned {
            // A crowned piece: its carrier's figure under a crown.
            Some((carrier, _)) => {
                let c = &b.t.kinds[carrier as usize];
                format!(
                    "{}{}",
                    pieces::glyph(&c.name, c.symbol, side, side_name),
                    pieces::CROWN
                )
            }
            None => pieces::glyph(&k.name, k.symbol, side, side_name),
        };
        let _ = writeln!(doc.defs, "<g id=\"{id}\">{figure}</g>");
    }
    id
}

fn place_glyph(doc: &mut Doc, b: &Board, side: usize, kind: usize, cx: f64, cy: f64, size: f64) {
    let id = define_glyph(doc, b, side, kind);
    let _ = writeln!(
        doc.body,
        "<use href=\"#{id}\" transform=\"translate({} {}) scale({})\"/>",
        n(cx - size / 2.0),
        n(cy - size / 2.0),
        n(size / 100.0)
    );
}

/// Highlights, paths, pieces and marks.
fn draw_content(doc: &mut Doc, b: &Board, geom: &Geom, scene: &Scene, s: f64) {
    // The last move's cells, and royal pieces in check, under the pieces.
    for (c, g) in geom.cells.iter().enumerate() {
        let Some(g) = g else { continue };
        if scene.last.get(c) == Some(&true) {
            let _ = writeln!(doc.body, "<path class=\"last-move\" d=\"{}\" fill=\"#e8d44d\" fill-opacity=\"0.55\"/>", g.d);
        }
        if scene.check.get(c) == Some(&true) {
            let _ = writeln!(doc.body, "<path class=\"in-check\" d=\"{}\" fill=\"{CAPTURE}\" fill-opacity=\"0.55\"/>", g.d);
        }
    }
    if let Some(m) = &scene.movement {
        if let Some(g) = &geom.cells[m.cell] {
            let _ = writeln!(doc.body, "<path d=\"{}\" fill=\"#f5d742\" fill-opacity=\"0.75\"/>", g.d);
        }
        for (c, mark) in m.marks.iter().enumerate() {
            if mark.quiet || mark.capture_only {
                if let Some(g) = &geom.cells[c] {
                    let _ = writeln!(doc.body, "<path d=\"{}\" fill=\"#8fc16a\" fill-opacity=\"0.22\"/>", g.d);
                }
            }
        }
        if scene.paths {
            for line in &m.paths {
                draw_path(doc, b, geom, line, s);
            }
        }
    }
    for (c, p) in scene.pieces.iter().enumerate() {
        if let (Some(p), Some(g)) = (p, &geom.cells[c]) {
            match scene.under.get(c).copied().flatten() {
                // A stack: the hidden piece behind, lower left, the top one in front, upper right.
                Some(u) => {
                    let (size, shift) = (g.size * 0.66, g.size * 0.17);
                    place_glyph(doc, b, u.side, u.kind, g.cx - shift, g.cy + shift, size);
                    place_glyph(doc, b, p.side, p.kind, g.cx + shift, g.cy - shift, size);
                }
                None => place_glyph(doc, b, p.side, p.kind, g.cx, g.cy, g.size),
            }
        }
    }
    if let Some(m) = &scene.movement {
        for (c, mark) in m.marks.iter().enumerate() {
            let Some(g) = &geom.cells[c] else { continue };
            let r = g.size / 100.0 * 50.0;
            if mark.capture {
                let _ = writeln!(
                    doc.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{CAPTURE}\" stroke-width=\"{}\"/>",
                    n(g.cx), n(g.cy), n(r * 0.96), n(r * 0.12)
                );
            }
            if mark.quiet {
                let _ = writeln!(
                    doc.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#1f2a1a\" fill-opacity=\"0.62\" stroke=\"#ffffff\" stroke-width=\"{}\" stroke-opacity=\"0.8\"/>",
                    n(g.cx), n(g.cy), n(r * 0.3), n(r * 0.05)
                );
            }
            if mark.capture_only {
                let _ = writeln!(
                    doc.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{CAPTURE}\" fill-opacity=\"0.12\" stroke=\"{CAPTURE}\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"/>",
                    n(g.cx), n(g.cy), n(r * 0.42), n(r * 0.09), n(r * 0.16), n(r * 0.1)
                );
            }
        }
    }
    if scene.interactive {
        // Transparent hit areas on top, one per cell, named for the page's script.
        let _ = writeln!(doc.body, "<g class=\"cells\">");
        for (c, g) in geom.cells.iter().enumerate() {
            if let Some(g) = g {
                let _ = writeln!(doc.body, "<path class=\"cell\" data-cell=\"{}\" d=\"{}\" fill=\"#000000\" fill-opacity=\"0\"/>", escape(b.name(c)), g.d);
            }
        }
        let _ = writeln!(doc.body, "</g>");
    }
}

/// One ray as a line through the cell centres, coloured by heading, shifted a little to the right of
/// its travel so that a ray and its reverse lie side by side; broken at seams with a filled dot
/// where it leaves and a hollow one where it comes back in.
fn draw_path(doc: &mut Doc, b: &Board, geom: &Geom, line: &crate::scene::PathLine, s: f64) {
    let off = s * 0.07;
    let width = (s * 0.065).max(2.0);
    let shift = |p: (f64, f64), q: (f64, f64)| -> (f64, f64) {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        (-dy / len * off, dx / len * off)
    };
    let mut markers = String::new();
    // The last segment drawn (from, to, colour), for the arrowhead.
    type Segment = ((f64, f64), (f64, f64), String);
    let mut last: Option<Segment> = None;
    let _ = writeln!(doc.body, "<g stroke-width=\"{}\" stroke-linecap=\"round\" stroke-opacity=\"0.9\">", n(width));
    for st in &line.steps {
        let (Some(a), Some(c)) = (&geom.cells[st.from], &geom.cells[st.to]) else { continue };
        let colour = heading_colour(b, st.heading);
        let colour_in = heading_colour(b, st.arrival);
        let seg = |doc: &mut Doc, p: (f64, f64), q: (f64, f64), colour: &str| {
            let o = shift(p, q);
            let _ = writeln!(
                doc.body,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\"/>",
                n(p.0 + o.0), n(p.1 + o.1), n(q.0 + o.0), n(q.1 + o.1)
            );
            (p.0 + o.0, p.1 + o.1)
        };
        match geom.link(b, st) {
            Link::Straight => {
                seg(doc, (a.cx, a.cy), (c.cx, c.cy), &colour);
                last = Some(((a.cx, a.cy), (c.cx, c.cy), colour.clone()));
            }
            Link::Between { from, to } => {
                seg(doc, from, to, &colour);
                last = Some((from, to, colour.clone()));
            }
            Link::Break { exit, entry } => {
                let (start, end) = (geom.anchor(st.from, exit), geom.anchor(st.to, entry));
                let o1 = shift(start, exit);
                seg(doc, start, exit, &colour);
                let o2 = shift(entry, end);
                seg(doc, entry, end, &colour_in);
                let r = width * 1.25;
                let _ = writeln!(
                    markers,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\" stroke=\"#ffffff\" stroke-width=\"1.2\"/>",
                    n(exit.0 + o1.0), n(exit.1 + o1.1), n(r)
                );
                let _ = writeln!(
                    markers,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"{colour_in}\" stroke-width=\"{}\"/>",
                    n(entry.0 + o2.0), n(entry.1 + o2.1), n(r), n(width * 0.7)
                );
                last = Some((entry, end, colour_in.clone()));
            }
        }
    }
    doc.body.push_str("</g>\n");
    // An arrowhead where the ray ends.
    if let Some((p, q, colour)) = last {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let o = shift(p, q);
        let back = s * 0.2;
        let tip = (q.0 + o.0 - ux * s * 0.12, q.1 + o.1 - uy * s * 0.12);
        let w = s * 0.09;
        let base = (tip.0 - ux * back, tip.1 - uy * back);
        let _ = writeln!(
            markers,
            "<path d=\"M{} {} L{} {} L{} {} Z\" fill=\"{colour}\" stroke=\"#ffffff\" stroke-width=\"1\" stroke-linejoin=\"round\"/>",
            n(tip.0), n(tip.1), n(base.0 - uy * w), n(base.1 + ux * w), n(base.0 + uy * w), n(base.1 - ux * w)
        );
    }
    doc.body.push_str(&markers);
}

/// The legends below a diagram: pieces, marks, path colours. Returns the height used.
fn legends(doc: &mut Doc, b: &Board, scene: &Scene, geom: Option<&Geom>, x: f64, y: f64, width: f64) -> f64 {
    let mut items = Vec::new();
    // Pieces present, by kind, with the sides that have them.
    let mut kinds: Vec<(usize, usize)> = Vec::new();
    for p in scene.pieces.iter().chain(scene.under.iter()).flatten() {
        if !kinds.contains(&(p.kind, p.side)) {
            kinds.push((p.kind, p.side));
        }
    }
    if let Some(m) = &scene.movement {
        if !kinds.contains(&(m.piece.kind, m.piece.side)) {
            kinds.push((m.piece.kind, m.piece.side));
        }
    }
    let mut seen = Vec::new();
    kinds.sort();
    for &(kind, side) in &kinds {
        if seen.contains(&kind) {
            continue;
        }
        seen.push(kind);
        let id = define_glyph(doc, b, side, kind);
        let k = &b.t.kinds[kind];
        let symbol = match k.crowned {
            Some((_, crown)) => format!("{}({})", k.symbol, b.t.kinds[crown as usize].symbol),
            None => k.symbol.to_string(),
        };
        items.push((
            format!("<use href=\"#{id}\" transform=\"translate(-1 -2) scale(0.24)\"/>"),
            format!("{symbol} {}", k.name),
        ));
    }
    let sides: Vec<usize> = {
        let mut v: Vec<usize> = kinds.iter().map(|&(_, s)| s).collect();
        v.sort();
        v.dedup();
        v
    };
    if sides.len() > 1 || sides.first().is_some_and(|&s| s != 0) {
        for s in sides {
            let (fill, outline, _) = pieces::side_colours(s, &b.t.sides[s].name);
            items.push((
                format!("<circle cx=\"11\" cy=\"11\" r=\"8\" fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"1.5\"/>"),
                b.t.sides[s].name.clone(),
            ));
        }
    }
    let mut h = Legend { items }.draw(doc, x, y, width);
    if let Some(m) = &scene.movement {
        let mut items = Vec::new();
        if m.count(|k| k.quiet) > 0 {
            items.push((
                "<circle cx=\"11\" cy=\"11\" r=\"6\" fill=\"#1f2a1a\" fill-opacity=\"0.62\"/>".to_string(),
                "moves there".to_string(),
            ));
        }
        if m.count(|k| k.capture) > 0 {
            items.push((
                format!("<circle cx=\"11\" cy=\"11\" r=\"9\" fill=\"none\" stroke=\"{CAPTURE}\" stroke-width=\"2.5\"/>"),
                "captures".to_string(),
            ));
        }
        if m.count(|k| k.capture_only) > 0 {
            items.push((
                format!("<circle cx=\"11\" cy=\"11\" r=\"8\" fill=\"{CAPTURE}\" fill-opacity=\"0.12\" stroke=\"{CAPTURE}\" stroke-width=\"2.2\" stroke-dasharray=\"3 2\"/>"),
                "captures only (no move)".to_string(),
            ));
        }
        let mut headings: Vec<usize> = Vec::new();
        let mut seam = false;
        for line in m.paths.iter().filter(|_| scene.paths) {
            for st in &line.steps {
                for hh in [st.heading, st.arrival] {
                    if !headings.contains(&hh) {
                        headings.push(hh);
                    }
                }
                seam |= match &geom {
                    Some(g) => matches!(g.link(b, st), Link::Break { .. }),
                    None => !b.is_plain(st.from, st.heading, st.to),
                };
            }
        }
        headings.sort();
        for hh in headings {
            let colour = heading_colour(b, hh);
            items.push((
                format!("<line x1=\"2\" y1=\"11\" x2=\"20\" y2=\"11\" stroke=\"{colour}\" stroke-width=\"4\" stroke-linecap=\"round\"/>"),
                format!("heading {}", b.heading_name(hh)),
            ));
        }
        if seam {
            items.push((
                "<line x1=\"0\" y1=\"11\" x2=\"22\" y2=\"11\" stroke=\"#888888\" stroke-width=\"3\" stroke-dasharray=\"8 6\"/><circle cx=\"7\" cy=\"11\" r=\"4\" fill=\"#555555\" stroke=\"#ffffff\"/><circle cx=\"16\" cy=\"11\" r=\"4\" fill=\"#ffffff\" stroke=\"#555555\" stroke-width=\"2\"/>".to_string(),
                "leaves across a seam ● and comes back in ○".to_string(),
            ));
        }
        h += 4.0;
        h += Legend { items }.draw(doc, x, y + h, width);
    }
    h
}

/// The board inside two rings of the cells reached one and two steps beyond each edge.
pub fn neighbours(b: &Board, scene: &Scene) -> String {
    let s = 50.0;
    let pad = 18.0;
    let title_h = title_height(scene);
    let (w, h) = (b.width as i32, b.height as i32);
    let left = pad;
    let top = pad + title_h;
    let total_w = (w + 4) as f64 * s;
    let total_h = (h + 4) as f64 * s;
    let width = (total_w + 2.0 * pad).max(420.0);
    let mut doc = Doc { defs: String::new(), body: String::new() };
    header(&mut doc, scene, width, pad);
    let at = |vx: i32, vy: i32| (left + (vx + 2) as f64 * s, top + (h + 1 - vy) as f64 * s);
    for vy in -2..h + 2 {
        for vx in -2..w + 2 {
            let (x, y) = at(vx, vy);
            let inside = vx >= 0 && vy >= 0 && vx < w && vy < h;
            if inside {
                let Some(c) = b.cell_at(vx, vy) else { continue };
                let fill = if b.is_light(c) { LIGHT } else { DARK };
                let _ = writeln!(doc.body, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>", n(x), n(y), n(s), n(s));
                doc.text(x + s / 2.0, y + s / 2.0 + 5.0, 14.0, "middle", INK, "", b.name(c));
                continue;
            }
            let Some((c, arrival)) = b.virtual_cell(vx, vy) else {
                let _ = writeln!(
                    doc.body,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
                    n(x), n(y), n(s), n(s)
                );
                continue;
            };
            let fill = if b.is_light(c) { LIGHT } else { DARK };
            let _ = writeln!(
                doc.body,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" fill-opacity=\"0.5\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
                n(x), n(y), n(s), n(s)
            );
            doc.text(x + s / 2.0, y + s / 2.0 + 5.0, 14.0, "middle", "#3d5a80", " font-style=\"italic\"", b.name(c));
            // Where the walk arrives turned, show its heading.
            let cx = vx.clamp(0, w - 1);
            let cy = vy.clamp(0, h - 1);
            let expected = if vy != cy { (0, (vy - cy).signum()) } else { ((vx - cx).signum(), 0) };
            if let Some(v) = b.vectors[arrival] {
                if v != expected {
                    doc.arrow(x + s - 10.0, y + 11.0, v, 11.0, "#c2571a", 1.8);
                }
            }
        }
    }
    let (bx, by) = at(0, h - 1);
    let _ = writeln!(
        doc.body,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#3b2a1a\" stroke-width=\"3\"/>",
        n(bx), n(by), n(w as f64 * s), n(h as f64 * s)
    );
    let mut y = top + total_h + 18.0;
    let notes = [
        "Inside the frame: the board. Around it (italic): the cell one or two steps beyond",
        "each edge, straight out from the nearest edge cell (at the corners: along the rank,",
        "then turned outward). An orange arrow: the heading such a walk arrives with, where",
        "it comes back turned. Grey: no cell.",
    ];
    for line in notes {
        doc.text(pad, y, 12.5, "start", INK, "", line);
        y += 19.0;
    }
    doc.finish(width, y + pad, &format!("{} — {}", scene.title, scene.subtitle))
}

/// Two discs, north and south: each hemisphere's ranks as rings around its pole, files as sectors;
/// north seen from above its pole (files anticlockwise), south from below (clockwise), placed so
/// that together they read like the usual board.
pub fn hemispheres(b: &Board, scene: &Scene) -> String {
    let pad = 18.0;
    let title_h = title_height(scene);
    let big_r = 220.0;
    let pole_r = 0.26 * big_r;
    let (w, h) = (b.width, b.height);
    let north_ranks = h - h / 2; // the upper half (the larger one when odd)
    let south_ranks = h / 2;
    let rings = north_ranks.max(south_ranks) as f64;
    let ring_w = (big_r - pole_r) / rings;
    let width = 2.0 * (big_r + 46.0) + 2.0 * pad;
    let cx = width / 2.0;
    let north_cy = pad + title_h + 30.0 + big_r + 20.0;
    let south_cy = north_cy + 2.0 * big_r + 90.0;
    let dtheta = std::f64::consts::TAU / w as f64;
    // North: file x from angle 90° anticlockwise; south: from 270° clockwise.
    let angle = |disc: usize, x: f64| -> f64 {
        if disc == 0 {
            std::f64::consts::FRAC_PI_2 + x * dtheta
        } else {
            -std::f64::consts::FRAC_PI_2 - x * dtheta
        }
    };
    let point = |cy: f64, r: f64, a: f64| (cx + r * a.cos(), cy - r * a.sin());
    let mut cells = vec![None; b.cells()];
    let mut disc = vec![0; b.cells()];
    let mut rim = vec![(0.0, 0.0); b.cells()];
    for c in 0..b.cells() {
        let Some((x, y)) = b.pos[c] else { continue };
        let (d, ring, cy) = if y as usize >= south_ranks {
            (0, (h - 1 - y as usize) as f64, north_cy)
        } else {
            (1, y as f64, south_cy)
        };
        let (r0, r1) = (pole_r + ring * ring_w, pole_r + (ring + 1.0) * ring_w);
        let (a0, a1) = (angle(d, x as f64), angle(d, x as f64 + 1.0));
        let p = |r: f64, a: f64| point(cy, r, a);
        let (p00, p01, p11, p10) = (p(r0, a0), p(r0, a1), p(r1, a1), p(r1, a0));
        // SVG's y points down: anticlockwise on screen is sweep 0.
        let sweep_out = if d == 0 { 0 } else { 1 };
        let sweep_in = 1 - sweep_out;
        let dpath = format!(
            "M{} {}A{} {} 0 0 {sweep_out} {} {}L{} {}A{} {} 0 0 {sweep_in} {} {}Z",
            n(p10.0), n(p10.1), n(r1), n(r1), n(p11.0), n(p11.1), n(p01.0), n(p01.1), n(r0), n(r0), n(p00.0), n(p00.1)
        );
        let (rm, am) = ((r0 + r1) / 2.0, (a0 + a1) / 2.0);
        let centre = p(rm, am);
        let size = (ring_w.min(rm * dtheta) * 0.86).min(ring_w * 0.9);
        cells[c] = Some(CellGeom { d: dpath, cx: centre.0, cy: centre.1, size });
        disc[c] = d;
        rim[c] = p(big_r, am);
    }
    let geom = Geom { cells, kind: Kind::Discs { disc, rim } };
    let mut doc = Doc { defs: String::new(), body: String::new() };
    header(&mut doc, scene, width, pad);
    draw_cells(&mut doc, b, &geom, true);
    let grid = b.t.grid.as_ref().expect("grid");
    for (d, cy) in [(0, north_cy), (1, south_cy)] {
        let _ = writeln!(
            doc.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#5a4632\" stroke-width=\"2\"/>",
            n(cx), n(cy), n(big_r)
        );
        let _ = writeln!(
            doc.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#e9e9ef\" stroke=\"#5a4632\" stroke-width=\"1.5\"/>",
            n(cx), n(cy), n(pole_r)
        );
        doc.text(cx, cy + 4.5, 12.0, "middle", MUTED, "", if d == 0 { "N pole" } else { "S pole" });
        for (x, f) in grid.files.iter().enumerate() {
            let (lx, ly) = point(cy, big_r + 16.0, angle(d, x as f64 + 0.5));
            doc.text(lx, ly + 5.0, 15.0, "middle", INK, " font-weight=\"bold\"", f);
        }
        // Rank labels along the line between the last and the first file.
        let ranks: Vec<usize> = if d == 0 { (south_ranks..h).collect() } else { (0..south_ranks).collect() };
        for y in &ranks {
            let ring = if d == 0 { (h - 1 - y) as f64 } else { *y as f64 };
            let (lx, ly) = point(cy, pole_r + (ring + 0.5) * ring_w, angle(d, 0.0));
            let label = &grid.ranks[*y];
            let lw = text_width(label, 11.0) + 6.0;
            let _ = writeln!(
                doc.body,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"15\" rx=\"4\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#5a4632\" stroke-width=\"0.6\"/>",
                n(lx - lw / 2.0), n(ly - 7.5), n(lw)
            );
            doc.text(lx, ly + 4.0, 11.0, "middle", INK, "", label);
        }
        let (first, last) = (ranks.first().copied().unwrap_or(0), ranks.last().copied().unwrap_or(0));
        let caption = if d == 0 {
            format!("North hemisphere: ranks {}–{}, seen from above the pole", grid.ranks[first], grid.ranks[last])
        } else {
            format!("South hemisphere: ranks {}–{}, seen from below the pole", grid.ranks[first], grid.ranks[last])
        };
        doc.text(pad, cy - big_r - 34.0, 14.0, "start", INK, " font-weight=\"bold\"", &caption);
    }
    draw_content(&mut doc, b, &geom, scene, ring_w);
    let y = south_cy + big_r + 34.0;
    let used = legends(&mut doc, b, scene, None, pad, y, width - 2.0 * pad);
    doc.finish(width, y + used + pad, &format!("{} — {}", scene.title, scene.subtitle))
}

/// The colour of a shade of a polygon board.
fn shade_colour(shade: u8) -> &'static str {
    match shade {
        0 => LIGHT,
        1 => DARK,
        2 => "#d8c08e",
        _ => "#9d7b5b",
    }
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) };
    let (x, y) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (x * x + y * y).sqrt()
}

/// The caption of one of several views: its name; for the two halves of a sphere, which cell
/// each is centred on (the one drawn nearest the view's origin).
fn caption(b: &Board, view: &orbis_runtime::tables::LayoutView) -> String {
    let centre = view.cells.iter().min_by(|x, y| x.label[0].hypot(x.label[1]).total_cmp(&y.label[0].hypot(y.label[1])));
    match (view.name.as_str(), centre) {
        ("north", Some(c)) => format!("North half: round {}, seen from outside (heavy lines: the view's edge)", b.name(c.cell as usize)),
        ("south", Some(c)) => format!("South half: round {}, seen from outside, so from below (its top meets the north half's bottom)", b.name(c.cell as usize)),
        _ => view.name.clone(),
    }
}

/// Boards of polygon cells, drawn from the layout in their tables: each view (the cube's net, the
/// ball flattened round a cell) with every cell outlined, shaded and named; pieces, marks and rays
/// as on the grid, a ray's step drawn straight between centres where the two cells touch in the
/// drawing and broken (● leaves, ○ comes back in) where the drawing cuts the surface open.
pub fn layout_board(b: &Board, scene: &Scene) -> String {
    let layout = b.t.layout.as_ref().expect("a layout");
    // Board units to pixels: a typical cell 64 pixels across, small boards at least 640 wide.
    let span = layout
        .views
        .iter()
        .flat_map(|v| v.cells.iter().flat_map(|c| c.contours.iter().flatten()))
        .fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p[0] as f64), hi.max(p[0] as f64)));
    let unit = (640.0 / (span.1 - span.0).max(1.0)).clamp(64.0, 96.0);
    let pad = 18.0;
    let caption_h = if layout.views.len() > 1 { 26.0 } else { 0.0 };
    let title_h = title_height(scene);
    let bounds: Vec<(f64, f64, f64, f64)> = layout
        .views
        .iter()
        .map(|v| {
            let pts = v.cells.iter().flat_map(|c| c.contours.iter().flatten());
            pts.fold((f64::MAX, f64::MIN, f64::MAX, f64::MIN), |(x0, x1, y0, y1), p| {
                (x0.min(p[0] as f64), x1.max(p[0] as f64), y0.min(p[1] as f64), y1.max(p[1] as f64))
            })
        })
        .collect();
    let width = bounds.iter().map(|&(x0, x1, _, _)| (x1 - x0) * unit).fold(0.0, f64::max) + 2.0 * pad;
    let width = width.max(520.0);
    let mut doc = Doc { defs: String::new(), body: String::new() };
    header(&mut doc, scene, width, pad);
    let mut top = pad + title_h + 8.0;
    let mut geoms = Vec::new();
    for (view, &(x0, x1, y0, y1)) in layout.views.iter().zip(&bounds) {
        if caption_h > 0.0 {
            doc.text(pad, top + 16.0, 14.0, "start", INK, " font-weight=\"bold\"", &caption(b, view));
            top += caption_h;
        }
        let left = (width - (x1 - x0) * unit) / 2.0;
        let at = |p: &[f32; 2]| (left + (p[0] as f64 - x0) * unit, top + (y1 - p[1] as f64) * unit);
        let mut cells = vec![None; b.cells()];
        let mut ports = vec![Vec::new(); b.cells()];
        let mut ring = vec![false; b.cells()];
        let mut outline: Vec<Vec<(f64, f64)>> = vec![Vec::new(); b.cells()];
        for c in &view.cells {
            let cell = c.cell as usize;
            let mut d = String::new();
            for contour in &c.contours {
                for (i, p) in contour.iter().enumerate() {
                    let (x, y) = at(p);
                    let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, n(x), n(y));
                }
                d.push('Z');
            }
            let (cx, cy) = at(&c.label);
            // The largest disc round the label inside the cell (its distance to the outline).
            let mut r = f64::MAX;
            for contour in &c.contours {
                for i in 0..contour.len() {
                    r = r.min(segment_distance((cx, cy), at(&contour[i]), at(&contour[(i + 1) % contour.len()])));
                }
            }
            if c.contours.len() > 1 {
                r = r.min(unit * 0.5);
            }
            cells[cell] = Some(CellGeom { d, cx, cy, size: (2.0 * r).min(unit * 1.2) });
            ports[cell] = c.ports.iter().map(at).collect();
            ring[cell] = c.contours.len() > 1;
            if c.contours.len() == 1 {
                outline[cell] = c.contours[0].iter().map(at).collect();
            }
        }
        let centre = at(&[((x0 + x1) / 2.0) as f32, ((y0 + y1) / 2.0) as f32]);
        // Cells, by shade, outlined.
        let mut by_shade: [String; 4] = Default::default();
        for c in &view.cells {
            if let Some(g) = &cells[c.cell as usize] {
                by_shade[b.shade(c.cell as usize).min(3) as usize].push_str(&g.d);
            }
        }
        for (shade, d) in by_shade.iter().enumerate() {
            if !d.is_empty() {
                let _ = writeln!(doc.body, "<path d=\"{d}\" fill=\"{}\" fill-rule=\"evenodd\" stroke=\"#5a4632\" stroke-width=\"1\" stroke-linejoin=\"round\"/>", shade_colour(shade as u8));
            }
        }
        // Where the drawing cuts the surface open: sides whose neighbour is drawn elsewhere.
        let mut cuts = String::new();
        for c in &view.cells {
            let (cell, p) = (c.cell as usize, &ports[c.cell as usize]);
            for side in (0..p.len()).step_by(2) {
                let Some((to, _)) = b.step(cell, side) else { continue };
                let glued = ports[to].iter().any(|q| (q.0 - p[side].0).abs() + (q.1 - p[side].1).abs() < unit * 0.02);
                if !glued && p.len() >= 4 {
                    let (a, z) = (p[(side + p.len() - 1) % p.len()], p[side + 1]);
                    // Along the outline from corner to corner (a side drawn as an arc), else straight.
                    let o = &outline[cell];
                    let near = |q: (f64, f64)| (0..o.len()).find(|&i| (o[i].0 - q.0).abs() + (o[i].1 - q.1).abs() < 0.5);
                    let _ = write!(cuts, "M{} {}", n(a.0), n(a.1));
                    if let (Some(i), Some(j)) = (near(a), near(z)) {
                        let mut k = (i + 1) % o.len();
                        while k != j {
                            let _ = write!(cuts, "L{} {}", n(o[k].0), n(o[k].1));
                            k = (k + 1) % o.len();
                        }
                    }
                    let _ = write!(cuts, "L{} {}", n(z.0), n(z.1));
                }
            }
        }
        if !cuts.is_empty() {
            let _ = writeln!(doc.body, "<path d=\"{cuts}\" fill=\"none\" stroke=\"#3b2a1a\" stroke-width=\"3\" stroke-linecap=\"round\"/>");
        }
        // The view's own texts (a net's faces, a hole's mark), under the names and pieces.
        for l in &view.labels {
            let (x, y) = at(&l.at);
            let size = l.size as f64 * unit;
            doc.text(x, y + size * 0.36, size, "middle", "#5a4632", " font-weight=\"bold\" fill-opacity=\"0.3\"", &l.text);
        }
        let geom = Geom { cells, kind: Kind::Layout { ports, ring, centre, unit } };
        geoms.push(geom);
        top += (y1 - y0) * unit + 16.0;
    }
    for geom in &geoms {
        draw_content(&mut doc, b, geom, scene, unit * 0.8);
        // Names, over everything but small; beside a piece they move to the cell's lower part.
        for (cell, g) in geom.cells.iter().enumerate() {
            let Some(g) = g else { continue };
            let name = b.name(cell);
            let len = name.chars().count().max(1) as f64;
            let occupied = scene.pieces[cell].is_some();
            let fit = g.size * 0.92 / (0.6 * len);
            let (size, y) = if occupied { (fit.min(g.size * 0.2), g.cy + g.size * 0.42) } else { (fit.min(g.size * 0.34), g.cy) };
            let size = size.max(6.0);
            let fill = if b.shade(cell) == 1 || b.shade(cell) == 3 { "#1d140c" } else { INK };
            doc.text(g.cx, y + size * 0.35, size, "middle", fill, " fill-opacity=\"0.85\"", name);
        }
    }
    let y = top + 4.0;
    let used = legends(&mut doc, b, scene, geoms.first(), pad, y, width - 2.0 * pad);
    doc.finish(width, y + used + pad, &format!("{} — {}", scene.title, scene.subtitle))
}
