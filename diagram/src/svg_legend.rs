//! The legends below an SVG diagram (pieces and sides, marks, the headings of the rays drawn, seam
//! crossings) and the wrapped text blocks (the seams of a grid). Apart from the views because
//! every view ends with them.

use crate::board::Board;
use crate::pieces;
use crate::scene::Scene;
use crate::svg::{define_glyph, heading_colour, n, text_width, Doc, CAPTURE, INK};
use crate::svg_geom::{Geom, Link};
use std::fmt::Write;

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
pub(crate) fn paragraph(doc: &mut Doc, lines: &[(String, String)], x: f64, y: f64) -> f64 {
    let mut cy = y;
    for (swatch, line) in lines {
        let _ = writeln!(doc.body, "<g transform=\"translate({} {})\">{swatch}</g>", n(x), n(cy));
        doc.text(x + 28.0, cy + 14.0, 13.0, "start", INK, "", line);
        cy += 22.0;
    }
    cy - y
}

/// The legends below a diagram: pieces, marks, path colours. Returns the height used.
pub(crate) fn legends(doc: &mut Doc, b: &Board, scene: &Scene, geom: Option<&Geom>, x: f64, y: f64, width: f64) -> f64 {
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
