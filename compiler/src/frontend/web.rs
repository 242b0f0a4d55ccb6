//! `web { ... }`: the web of a polyhedron (Webball's board on a dodecahedron). From the faces, each
//! a cycle of named vertices counterclockwise seen from outside, it builds the cells as `polygon`
//! statements would list them:
//! - a *node* at each vertex `v` (named `v`), a polygon with a side for each edge and each face
//!   round the vertex, in turn: connector, ring cell, connector, ...;
//! - a *connector* on each edge (named by its two vertices, in the `order` given, else
//!   alphabetically): the two nodes and the ring cells on either side;
//! - round each face a *ring* about a void: at each corner a cell named vertex + label (`N*`), on
//!   each edge one named connector + label (`NA*`), each with its fourth side on the void (the
//!   border).
//!
//! The ring cell at a corner meets its node across a side, the connectors only at corners: so a
//! node has its connectors and ring cells as orthogonal neighbours and the edge ring cells as
//! diagonal ones, as the page describes.

use super::Frontend;
use orbis_grammar::ast::{self, Name, Span};
use std::collections::HashMap;

impl Frontend {
    /// The cells of a web as polygons (neighbours counterclockwise); `None` after an error.
    pub(super) fn web(&mut self, w: &ast::Web) -> Option<Vec<ast::Polygon>> {
        let mut ok = true;
        // Directed edges (u, v) -> the face that runs u -> v.
        let mut run: HashMap<(&str, &str), usize> = HashMap::new();
        for (f, face) in w.faces.iter().enumerate() {
            let k = face.vertices.len();
            if k < 3 {
                let label = self.primary(face.span, "fewer than three vertices");
                self.error("a face of a web needs three vertices or more", vec![label], vec![]);
                ok = false;
                continue;
            }
            for i in 0..k {
                let (u, v) = (face.vertices[i].text.as_str(), face.vertices[(i + 1) % k].text.as_str());
                if u == v || face.vertices.iter().filter(|x| x.text == u).count() > 1 {
                    let label = self.primary(face.vertices[i].span, "repeated");
                    self.error(format!("face `{}` repeats the vertex `{u}`", face.label.text), vec![label], vec![]);
                    ok = false;
                    break;
                }
                if let Some(&g) = run.get(&(u, v)) {
                    let labels = vec![self.primary(face.span, format!("runs {u} -> {v}")), self.secondary(w.faces[g].span, "and so does this face")];
                    self.error(format!("two faces run along the edge {u} -> {v} the same way"), labels, vec![
                        "help: list every face counterclockwise seen from outside, so that each edge is run once each way".into(),
                    ]);
                    ok = false;
                }
                run.insert((u, v), f);
            }
        }
        let mut missing: Vec<(&str, &str)> = run.keys().filter(|&&(u, v)| !run.contains_key(&(v, u))).copied().collect();
        missing.sort();
        if let Some(&(u, v)) = missing.first() {
            let f = run[&(u, v)];
            let label = self.primary(w.faces[f].span, format!("the edge {u} -> {v}"));
            self.error(format!("the edge {u}-{v} borders only one face (and {} more edges)", missing.len() - 1), vec![label], vec![
                "note: a web is built on a closed polyhedron: every edge borders two faces".into(),
            ]);
            ok = false;
        }
        if !ok {
            return None;
        }
        // Its cells (a node per vertex, a connector per edge, two ring cells per face corner) must
        // fit a board: checked before the work that grows with them.
        let vertices: std::collections::HashSet<&str> = run.keys().map(|&(u, _)| u).collect();
        let cells = vertices.len() + run.len() / 2 + 2 * w.faces.iter().map(|f| f.vertices.len()).sum::<usize>();
        if cells > super::MAX_CELLS {
            let label = self.primary(w.span, format!("{cells} cells"));
            self.error(format!("board too large: at most {} cells", super::MAX_CELLS), vec![label], vec![]);
            return None;
        }
        let rank: HashMap<&str, usize> = w.order.iter().enumerate().map(|(i, n)| (n.text.as_str(), i)).collect();
        let connector = |u: &str, v: &str| -> String {
            let key = |x: &str| (rank.get(x).copied().unwrap_or(usize::MAX), x.to_string());
            if key(u) <= key(v) { format!("{u}{v}") } else { format!("{v}{u}") }
        };
        let label = |f: usize| w.faces[f].label.text.as_str();
        // The vertex before and after `v` on face `f`.
        let around = |f: usize, v: &str| -> (String, String) {
            let vs = &w.faces[f].vertices;
            let i = vs.iter().position(|x| x.text == v).unwrap_or(0);
            let k = vs.len();
            (vs[(i + k - 1) % k].text.clone(), vs[(i + 1) % k].text.clone())
        };
        let name = |text: String, span: Span| Some(Name { text, span });
        let mut cells: Vec<ast::Polygon> = Vec::new();
        let mut done: Vec<String> = Vec::new();
        for face in &w.faces {
            for vertex in &face.vertices {
                let v = vertex.text.as_str();
                if done.iter().any(|d| d == v) {
                    continue;
                }
                done.push(v.to_string());
                // Round v counterclockwise: from the edge to the next vertex of a face, across
                // the face to the edge to its previous vertex, which the next face runs v -> that.
                let start = run.iter().filter(|(&(a, _), _)| a == v).map(|(_, &f)| f).min().unwrap_or(0);
                let mut sides = Vec::new();
                let mut f = start;
                for _ in 0..run.len() {
                    let (prev, next) = around(f, v);
                    sides.push(name(connector(v, &next), w.span));
                    sides.push(name(format!("{v}{}", label(f)), w.span));
                    f = run[&(v, prev.as_str())];
                    if f == start {
                        break;
                    }
                }
                cells.push(ast::Polygon { span: vertex.span, name: Name { text: v.to_string(), span: vertex.span }, sides });
            }
        }
        let mut edges: Vec<(&str, &str)> = run.keys().filter(|&&(u, v)| connector(u, v) == format!("{u}{v}")).copied().collect();
        edges.sort();
        for (u, v) in edges {
            let (left, right) = (run[&(u, v)], run[&(v, u)]);
            let c = connector(u, v);
            // Heading u -> v, the face running that way is on the left.
            let sides = vec![name(v.to_string(), w.span), name(format!("{c}{}", label(left)), w.span), name(u.to_string(), w.span), name(format!("{c}{}", label(right)), w.span)];
            cells.push(ast::Polygon { span: w.faces[left].span, name: Name { text: c, span: w.span }, sides });
        }
        for (f, face) in w.faces.iter().enumerate() {
            let k = face.vertices.len();
            for i in 0..k {
                let (u, v, x) = (&face.vertices[(i + k - 1) % k].text, &face.vertices[i].text, &face.vertices[(i + 1) % k].text);
                let l = label(f);
                // The corner at v: its node, the edge cell towards x, the void, the edge cell
                // towards u.
                cells.push(ast::Polygon {
                    span: face.span,
                    name: Name { text: format!("{v}{l}"), span: face.vertices[i].span },
                    sides: vec![name(v.clone(), face.span), name(format!("{}{l}", connector(v, x)), face.span), None, name(format!("{}{l}", connector(u, v)), face.span)],
                });
                // The edge v -> x: its connector, the corner cell at x, the void, the corner at v.
                cells.push(ast::Polygon {
                    span: face.span,
                    name: Name { text: format!("{}{l}", connector(v, x)), span: face.span },
                    sides: vec![name(connector(v, x), face.span), name(format!("{x}{l}"), face.span), None, name(format!("{v}{l}"), face.span)],
                });
            }
        }
        Some(cells)
    }
}
