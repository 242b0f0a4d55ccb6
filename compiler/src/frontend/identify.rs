//! Identified positions: the grid positions `identify` gives to other cells, with the heading
//! each arrival turns into, and the checks of those statements. Apart from `board.rs`: an
//! `identify` is evaluated over every grid position, with problems of its own, before the grid's
//! cells are named.

use super::*;
use super::seam_exprs::{eval_bool, eval_pair, find_var, Env};

impl Frontend {
    /// The positions the `identify` statements give to other cells: (x, y) -> (target position,
    /// arrival heading per heading). Reports every problem; a statement with errors identifies
    /// nothing, a position whose target is itself identified is dropped.
    #[allow(clippy::type_complexity)]
    pub(super) fn identified_positions(
        &mut self,
        identifies: &[&ast::Seam],
        files: &[String],
        ranks: &[String],
        headings: &[model::Heading],
    ) -> HashMap<(i64, i64), ((i64, i64), Vec<Option<HeadingId>>)> {
        let (width, height) = (files.len() as i64, ranks.len() as i64);
        let pos_name = |x: i64, y: i64| format!("{}{}", files[x as usize], ranks[y as usize]);
        let by_vector: HashMap<(i64, i64), HeadingId> = headings
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.vector.map(|(dx, dy)| ((dx as i64, dy as i64), i)))
            .collect();
        let mut out: HashMap<(i64, i64), ((i64, i64), Vec<Option<HeadingId>>)> = HashMap::new();
        // Which statement identified a position, for "identified twice".
        let mut by: HashMap<(i64, i64), usize> = HashMap::new();
        let mut names: HashMap<&str, Span> = HashMap::new();
        for (k, s) in identifies.iter().enumerate() {
            if let Some(first) = names.get(s.name.text.as_str()) {
                self.duplicate("identify", &s.name.text, *first, s.name.span);
                continue;
            }
            names.insert(&s.name.text, s.name.span);
            if !self.check_identify(s) {
                continue;
            }
            let mut p = IdentifyProblems::default();
            let mut twice: Vec<((i64, i64), usize)> = Vec::new();
            let mut mine = Vec::new();
            for y in 0..height {
                for x in 0..width {
                    let env = Env { x, y, dx: 0, dy: 0 };
                    match eval_bool(&s.when, &env) {
                        Err(e) => {
                            p.failed.push(((x, y), e));
                            continue;
                        }
                        Ok(false) => continue,
                        Ok(true) => {}
                    }
                    let (tx, ty) = match eval_pair(&s.to, &env) {
                        Ok(t) => t,
                        Err(e) => {
                            p.failed.push(((x, y), e));
                            continue;
                        }
                    };
                    if (tx, ty) == (x, y) {
                        // A position identified with itself stays what it is.
                        continue;
                    }
                    if tx < 0 || ty < 0 || tx >= width || ty >= height {
                        p.off_board.push(((x, y), (tx, ty)));
                        continue;
                    }
                    let mut map = Vec::with_capacity(headings.len());
                    for (h, heading) in headings.iter().enumerate() {
                        let Some((dx, dy)) = heading.vector else {
                            map.push(None);
                            continue;
                        };
                        let env = Env { x, y, dx: dx as i64, dy: dy as i64 };
                        let arrival = match &s.heading {
                            ast::SeamHeading::Same(_) => Ok(Some(h)),
                            ast::SeamHeading::Vector(v) => eval_pair(v, &env).map(|vec| match by_vector.get(&vec) {
                                Some(&a) => Some(a),
                                None => {
                                    p.bad_heading.push(((x, y), h, vec));
                                    None
                                }
                            }),
                        };
                        match arrival {
                            Ok(a) => map.push(a),
                            Err(e) => {
                                p.failed.push(((x, y), e));
                                map.push(None);
                            }
                        }
                    }
                    if let Some(&other) = by.get(&(x, y)) {
                        twice.push(((x, y), other));
                        continue;
                    }
                    mine.push(((x, y), (tx, ty), map));
                }
            }
            let ok = p.off_board.is_empty() && p.bad_heading.is_empty() && p.failed.is_empty() && twice.is_empty();
            if let Some(&(_, other)) = twice.first() {
                let examples: Vec<String> = twice.iter().take(EXAMPLES).map(|&((x, y), _)| format!("`{}`", pos_name(x, y))).collect();
                let labels = vec![
                    self.primary(s.name.span, format!("identifies {} position(s) again", twice.len())),
                    self.secondary(identifies[other].name.span, "already identified here"),
                ];
                self.error(
                    format!("`identify {}` identifies positions that `{}` identifies already", s.name.text, identifies[other].name.text),
                    labels,
                    vec![format!("note: {}{}", examples.join(", "), if twice.len() > EXAMPLES { ", ..." } else { "" }), "help: narrow one of the conditions so that every position is identified once".into()],
                );
            }
            if !p.off_board.is_empty() {
                let examples: Vec<String> = p
                    .off_board
                    .iter()
                    .take(EXAMPLES)
                    .map(|&((x, y), (tx, ty))| format!("`{}` would be ({tx}, {ty})", pos_name(x, y)))
                    .collect();
                let labels = vec![
                    self.primary(s.to.span, format!("off the grid for {} position(s)", p.off_board.len())),
                    self.secondary(s.name.span, "in this identify"),
                ];
                self.error(format!("`identify {}` names positions off the grid", s.name.text), labels, vec![
                    format!("note: {}", examples.join("; ")),
                    format!("note: the grid spans x = 0..{} and y = 0..{} (0-based file and rank indices)", width - 1, height - 1),
                ]);
            }
            if !p.bad_heading.is_empty() {
                let examples: Vec<String> = p
                    .bad_heading
                    .iter()
                    .take(EXAMPLES)
                    .map(|&((x, y), h, (vx, vy))| format!("arriving on `{}` heading `{}` gives ({vx}, {vy})", pos_name(x, y), headings[h].name))
                    .collect();
                let span = match &s.heading {
                    ast::SeamHeading::Vector(v) => v.span,
                    ast::SeamHeading::Same(sp) => *sp,
                };
                let label = self.primary(span, format!("not the vector of a declared heading for {} arrival(s)", p.bad_heading.len()));
                self.error(format!("`identify {}` turns onto an undeclared heading", s.name.text), vec![label], vec![format!("note: {}", examples.join("; "))]);
            }
            if let Some(((x, y), e)) = p.failed.first() {
                let label = self.primary(s.span, e.clone());
                self.error(format!("`identify {}` cannot be evaluated", s.name.text), vec![label], vec![format!(
                    "note: first at `{}` ({} evaluation(s) failed)",
                    pos_name(*x, *y),
                    p.failed.len()
                )]);
            }
            if ok {
                for (pos, target, map) in mine {
                    by.insert(pos, k);
                    out.insert(pos, (target, map));
                }
            }
        }
        // A target must be a cell of its own: chains are not followed.
        let mut chained: Vec<((i64, i64), (i64, i64))> = out.iter().filter(|(_, (t, _))| out.contains_key(t)).map(|(&p, &(t, _))| (p, t)).collect();
        chained.sort_by_key(|&((x, y), _)| (y, x));
        let mut reported = HashSet::new();
        for &(pos, target) in &chained {
            let k = by[&pos];
            if !reported.insert(k) {
                continue;
            }
            let (tt, _) = out[&target];
            let labels = vec![
                self.primary(identifies[k].to.span, format!("`{}` is identified with `{}` here", pos_name(pos.0, pos.1), pos_name(target.0, target.1))),
                self.secondary(identifies[by[&target]].name.span, format!("but `{}` is itself identified with `{}` here", pos_name(target.0, target.1), pos_name(tt.0, tt.1))),
            ];
            let count = chained.iter().filter(|&&(p, _)| by[&p] == k).count();
            self.error(format!("`identify {}` identifies positions with positions that are not cells of their own", identifies[k].name.text), labels, vec![
                format!("note: {count} position(s); chains of identifications are not followed"),
                "help: identify with the cell's own position, or leave the target out of the condition".into(),
            ]);
        }
        for (pos, _) in chained {
            out.remove(&pos);
        }
        out
    }

    /// Type-checks an `identify`: as a seam, and the condition and target use only `x` and `y`.
    pub(super) fn check_identify(&mut self, s: &ast::Seam) -> bool {
        let mut ok = self.check_seam(s, "identify");
        for e in [&s.when, &s.to.x, &s.to.y] {
            if let Some((span, v)) = find_var(e, &["dx", "dy"]) {
                let label = self.primary(span, "no heading here");
                self.error(format!("`{v}` in the condition or position of `identify {}`", s.name.text), vec![label], vec![
                    "note: which positions are identified, and with what, depends on `x` and `y` only; `dx` and `dy` may appear in the heading".into(),
                ]);
                ok = false;
            }
        }
        ok
    }
}

/// A grid position or vector `(x, y)`.
pub(super) type Xy = (i64, i64);

/// Problems of one `identify`, by grid position.
#[derive(Default)]
pub(super) struct IdentifyProblems {
    /// (position, target off the grid).
    off_board: Vec<(Xy, Xy)>,
    /// (position, heading, vector that no heading has).
    bad_heading: Vec<(Xy, HeadingId, Xy)>,
    /// (position, evaluation error).
    failed: Vec<(Xy, String)>,
}
