//! The step function of a grid board: grid steps (after `wrap files`) continued through the seams
//! that apply, the seams each step crosses (for `avoid`), where each step came from, and the own
//! step functions of pieces a seam is `for`. Apart from `board.rs` because pieces need it again
//! once they are known, and its problems are reported per seam.

use super::*;
use super::seam_exprs::{eval, eval_pair, Env, Value};

impl Frontend {
    /// Computes grid steps, then continues steps that leave the grid through the seams. Problems
    /// are collected per seam and reported once per seam with a few examples.
    /// The grid's step function with the seams `use_seams` (indices into `seams`, tried in that
    /// order), the seams each step crosses (bit 0 `wrap`, bit `i + 1` seam `i`), and where each
    /// step came from. With `report`, seams that fail are reported.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn grid_steps(
        &mut self,
        board: &model::Board,
        alias_at: &AliasMap,
        seams: &[&ast::Seam],
        use_seams: &[usize],
        wrap: bool,
        report: Option<(Span, &[usize])>,
    ) -> GridSteps {
        let nh = board.headings.len();
        let len = board.cells.len() * nh;
        let (mut step, mut crossed, mut origin) = (vec![None; len], vec![0u32; len], vec![StepOrigin::None; len]);
        let Some(grid) = &board.grid else { return (step, crossed, origin) };
        let width = grid.files.len() as i64;
        let height = grid.ranks.len() as i64;
        let by_vector: HashMap<(i64, i64), HeadingId> = board
            .headings
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.vector.map(|(dx, dy)| ((dx as i64, dy as i64), i)))
            .collect();
        let cell_at = |x: i64, y: i64| -> Option<CellId> {
            if x < 0 || y < 0 || x >= width || y >= height {
                return None;
            }
            grid.cell_at.get((y * width + x) as usize).copied().flatten()
        };
        // Where a piece arriving on grid position (x, y) with heading `h` lands, and with which
        // heading: on an identified position, the cell it names, with the heading turned into that
        // cell's frame (`None` when the turn failed; that was reported with the `identify`).
        let land = |x: i64, y: i64, h: HeadingId| -> Option<(CellId, Option<HeadingId>)> {
            let cell = cell_at(x, y)?;
            match alias_at.get(&(x, y)) {
                Some((_, map)) => Some((cell, map.get(h).copied().flatten())),
                None => Some((cell, Some(h))),
            }
        };
        // Wraps x, and says whether that crossed the join.
        let wrap_x = |x: i64| -> (i64, bool) {
            if wrap && width > 0 {
                let w = x.rem_euclid(width);
                (w, w != x)
            } else {
                (x, false)
            }
        };
        let mut problems: Vec<SeamProblems> = seams.iter().map(|_| SeamProblems::default()).collect();

        for (cell, c) in board.cells.iter().enumerate() {
            let Some((x, y)) = c.coords else { continue };
            for (h, heading) in board.headings.iter().enumerate() {
                let Some((dx, dy)) = heading.vector else { continue };
                let (dx, dy) = (dx as i64, dy as i64);
                let (nx, wrapped) = wrap_x(x as i64 + dx);
                let ny = y as i64 + dy;
                let i = cell * nh + h;
                let wrap_bit = if wrapped { 1 } else { 0 };
                if let Some((to, arrival)) = land(nx, ny, h) {
                    if let Some(arrival) = arrival {
                        step[i] = Some((to, arrival));
                        crossed[i] = wrap_bit;
                        origin[i] = StepOrigin::Grid;
                    }
                    continue;
                }
                let env = Env { x: nx, y: ny, dx, dy };
                for &si in use_seams {
                    let seam = seams[si];
                    let p = &mut problems[si];
                    match eval(&seam.when, &env) {
                        Err(e) => {
                            p.failed.push((cell, h, e));
                            break;
                        }
                        Ok(Value::Bool(false)) => continue,
                        Ok(_) => {}
                    }
                    let landing = eval_pair(&seam.to, &env);
                    let new_heading = match &seam.heading {
                        ast::SeamHeading::Same(_) => Ok(Some(h)),
                        ast::SeamHeading::Vector(v) => eval_pair(v, &env).map(|vec| by_vector.get(&vec).copied().ok_or(vec)).map(|r| match r {
                            Ok(h) => Some(h),
                            Err(vec) => {
                                p.bad_heading.push((cell, h, vec));
                                None
                            }
                        }),
                    };
                    match (landing, new_heading) {
                        (Err(e), _) | (_, Err(e)) => p.failed.push((cell, h, e)),
                        (Ok(_), Ok(None)) => {}
                        (Ok((tx, ty)), Ok(Some(h2))) => {
                            let (tx, wrapped_again) = wrap_x(tx);
                            match land(tx, ty, h2) {
                                Some((to, Some(arrival))) => {
                                    step[i] = Some((to, arrival));
                                    crossed[i] = wrap_bit | if wrapped_again { 1 } else { 0 } | 1 << (si + 1);
                                    origin[i] = StepOrigin::Seam(si);
                                }
                                Some((_, None)) => {}
                                None => p.off_board.push((cell, h, (tx, ty))),
                            }
                        }
                    }
                    break;
                }
            }
        }
        let Some((headings_span, to_report)) = report else { return (step, crossed, origin) };
        for (si, p) in problems.iter_mut().enumerate() {
            if !to_report.contains(&si) {
                *p = SeamProblems::default();
            }
        }

        let cell_name = |c: CellId| board.cells[c].name.clone();
        let heading_name = |h: HeadingId| board.headings[h].name.clone();
        for (seam, p) in seams.iter().zip(problems) {
            if !p.off_board.is_empty() {
                let examples: Vec<String> = p
                    .off_board
                    .iter()
                    .take(EXAMPLES)
                    .map(|&(c, h, (x, y))| format!("from `{}` heading `{}` it lands on ({x}, {y})", cell_name(c), heading_name(h)))
                    .collect();
                let mut notes = vec![format!("note: {}", examples.join("; "))];
                if p.off_board.len() > EXAMPLES {
                    notes[0].push_str(&format!("; and {} more", p.off_board.len() - EXAMPLES));
                }
                notes.push(format!("note: the grid spans x = 0..{} and y = 0..{} (0-based file and rank indices)", width - 1, height - 1));
                let labels = vec![
                    self.primary(seam.to.span, format!("lands off the board for {} step(s)", p.off_board.len())),
                    self.secondary(seam.name.span, "in this seam"),
                ];
                self.error(format!("seam `{}` leads off the board", seam.name.text), labels, notes);
            }
            if !p.bad_heading.is_empty() {
                let examples: Vec<String> = p
                    .bad_heading
                    .iter()
                    .take(EXAMPLES)
                    .map(|&(c, h, (vx, vy))| format!("from `{}` heading `{}` the new heading is ({vx}, {vy})", cell_name(c), heading_name(h)))
                    .collect();
                let span = match &seam.heading {
                    ast::SeamHeading::Vector(v) => v.span,
                    ast::SeamHeading::Same(s) => *s,
                };
                let label = self.primary(span, format!("not the vector of a declared heading for {} step(s)", p.bad_heading.len()));
                self.error(
                    format!("seam `{}` turns onto an undeclared heading", seam.name.text),
                    vec![label, self.secondary(headings_span, "headings are declared here")],
                    vec![format!("note: {}", examples.join("; "))],
                );
            }
            if let Some(&(c, h, ref e)) = p.failed.first() {
                let label = self.primary(seam.span, e.clone());
                self.error(
                    format!("seam `{}` cannot be evaluated", seam.name.text),
                    vec![label],
                    vec![format!("note: first at `{}` heading `{}` ({} step(s) in all)", cell_name(c), heading_name(h), p.failed.len())],
                );
            }
        }
        (step, crossed, origin)
    }

    /// Gives each piece named in a seam's `for` its own step function: the general seams and its
    /// own, in declaration order, then the links.
    pub(super) fn piece_geometries(&mut self, board: &BoardInfo, pieces: &[&ast::Piece], model_pieces: &mut [model::Piece]) {
        let mut own: Vec<Vec<usize>> = vec![Vec::new(); model_pieces.len()];
        for (si, seam) in board.seams.iter().enumerate() {
            for name in &seam.pieces {
                match pieces.iter().position(|p| p.name.text == name.text) {
                    Some(pi) => push_unique(&mut own[pi], si),
                    None => self.unknown("piece", name, " (a seam's `for` names pieces)", pieces.iter().map(|p| p.name.text.as_str())),
                }
            }
        }
        if !board.seams_ok {
            return;
        }
        let seams: Vec<&ast::Seam> = board.seams.iter().collect();
        let mut reported: Vec<usize> = Vec::new();
        for (pi, mine) in own.iter().enumerate() {
            if mine.is_empty() {
                continue;
            }
            let order: Vec<usize> = (0..seams.len()).filter(|&i| seams[i].pieces.is_empty() || mine.contains(&i)).collect();
            // Problems of a piece-specific seam are reported once, with the first piece it is for.
            let fresh: Vec<usize> = mine.iter().copied().filter(|i| !reported.contains(i)).collect();
            reported.extend(&fresh);
            let (mut step, mut crossed, _) =
                self.grid_steps(&board.board, &board.alias_at, &seams, &order, board.wrap, Some((board.sources.headings, &fresh)));
            for &(i, target) in &board.link_steps {
                step[i] = Some(target);
                crossed[i] = 0;
            }
            model_pieces[pi].geometry = Some(model::OwnGeometry { step, crossed });
        }
    }

    /// The seams a leg may not cross, as a bit mask of [`model::Board::seams`].
    pub(super) fn avoid(&mut self, names: &[ast::Name], board: &BoardInfo) -> u32 {
        let mut mask = 0;
        for name in names {
            match board.board.seams.iter().position(|s| *s == name.text) {
                Some(bit) => mask |= 1u32.checked_shl(bit as u32).unwrap_or(0),
                None if board.seams_ok || board.board.seams.is_empty() => {
                    self.unknown("seam", name, " (`avoid` names seams, or `wrap`)", board.board.seams.iter().map(String::as_str))
                }
                None => {}
            }
        }
        mask
    }
}

#[derive(Default)]
pub(super) struct SeamProblems {
    /// (cell, heading, landing coordinates off the grid).
    off_board: Vec<(CellId, HeadingId, (i64, i64))>,
    /// (cell, heading, vector that no heading has).
    bad_heading: Vec<(CellId, HeadingId, (i64, i64))>,
    /// (cell, heading, evaluation error such as division by zero).
    failed: Vec<(CellId, HeadingId, String)>,
}
