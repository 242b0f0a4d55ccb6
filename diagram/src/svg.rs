//! SVG output: self-contained (no external fonts or images), one `viewBox`, scales cleanly.
//!
//! Every view places cells through a [`Geom`]: a shape and a centre per cell, and how a step between
//! two cells is drawn (a straight line, or a break at a seam). Pieces, marks and paths are drawn
//! the same way on every layout.
//!
//! The cell geometry is in `svg_geom.rs`, the legends below a diagram in `svg_legend.rs`, the view
//! of boards of polygon cells in `svg_layout.rs`.

use crate::board::{Board, Edge};
use crate::pieces;
use crate::scene::Scene;
use crate::svg_geom::{grid_geom, place, square, CellGeom, Geom, Kind, Link};
use crate::svg_legend::{legends, paragraph};
use std::fmt::Write;

pub use crate::svg_layout::layout_board;

const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
pub(crate) const LIGHT: &str = "#f0dcb4";
pub(crate) const DARK: &str = "#b58a63";
pub(crate) const INK: &str = "#2b2b2b";
const MUTED: &str = "#6b6b6b";
pub(crate) const CAPTURE: &str = "#d62828";
const SEAM_COLOURS: [&str; 8] = ["#2f6fbf", "#c2571a", "#2d8a4e", "#8a3fb3", "#b8860b", "#0f8b8d", "#b03060", "#556b2f"];

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A number with at most two decimals, no trailing zeros.
pub(crate) fn n(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let s = format!("{r:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Approximate width of a text in the sans-serif fonts used.
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
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

/// A growing SVG document.
pub(crate) struct Doc {
    pub(crate) defs: String,
    pub(crate) body: String,
}

impl Doc {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, fill: &str, extra: &str, content: &str) {
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

    pub(crate) fn finish(self, width: f64, height: f64, title: &str) -> String {
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
pub(crate) fn title_height(scene: &Scene) -> f64 {
    if scene.detail.is_some() { 76.0 } else { 58.0 }
}

pub(crate) fn header(doc: &mut Doc, scene: &Scene, width: f64, pad: f64) {
    let fit = |text: &str, size: f64| size.min((width - 2.0 * pad) / (0.6 * text.chars().count().max(1) as f64));
    doc.text(pad, pad + 18.0, fit(&scene.title, 20.0), "start", INK, " font-weight=\"bold\"", &scene.title);
    doc.text(pad, pad + 40.0, fit(&scene.subtitle, 13.0), "start", MUTED, "", &scene.subtitle);
    if let Some(detail) = &scene.detail {
        doc.text(pad, pad + 58.0, fit(detail, 12.0), "start", MUTED, " font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"", detail);
    }
}

/// Glyph definitions for the pieces that appear; returns their ids by (side, kind).
pub(crate) fn define_glyph(doc: &mut Doc, b: &Board, side: usize, kind: usize) -> String {
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
pub(crate) fn draw_content(doc: &mut Doc, b: &Board, geom: &Geom, scene: &Scene, s: f64) {
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
