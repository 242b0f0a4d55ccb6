//! The SVG view of boards of polygon cells, drawn from the layout views in their tables (the cube's
//! net, a sphere flattened round a cell, two halves). Apart from `svg.rs`, whose views are drawn
//! from the grid; this one shares their drawing of cells, pieces, marks and rays.

use crate::board::Board;
use crate::scene::Scene;
use crate::svg::{draw_content, header, n, title_height, Doc, DARK, INK, LIGHT};
use crate::svg_geom::{CellGeom, Geom, Kind};
use crate::svg_legend::legends;
use std::fmt::Write;

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
