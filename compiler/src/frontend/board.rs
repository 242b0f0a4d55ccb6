//! The board front end for grids, seams and links: the board's statements, headings, groups,
//! cells (the grid's and named ones), file and rank labels, seams checked and links applied.
//! Apart: identified positions (`identify.rs`), seam expressions (`seam_exprs.rs`), the step
//! function through the seams (`steps.rs`); boards of polygons: `polygons.rs`.

use super::*;

impl Frontend {

    pub(super) fn board(&mut self, b: &ast::Board) -> BoardInfo {
        if Self::is_polygon_board(b) {
            return self.polygon_board(b);
        }
        let mut grid_stmt = None;
        let mut wrap_stmt: Option<Span> = None;
        let mut headings_stmts: Vec<&ast::Headings> = Vec::new();
        let mut groups = Vec::new();
        let mut seams = Vec::new();
        let mut identifies: Vec<&ast::Seam> = Vec::new();
        let mut cell_stmts = Vec::new();
        let mut transit_stmts: Vec<&ast::CellsDecl> = Vec::new();
        let mut links = Vec::new();
        for stmt in &b.statements {
            match stmt {
                ast::BoardStmt::Grid(g) => match grid_stmt {
                    None => grid_stmt = Some(g),
                    Some(first) => {
                        let labels = vec![self.primary(g.span, "a second grid"), self.secondary(first.span, "first grid")];
                        self.error("a board has at most one `grid`", labels, vec!["help: add further cells with `cells` and `link`".into()]);
                    }
                },
                ast::BoardStmt::Wrap(span) => match wrap_stmt {
                    None => wrap_stmt = Some(*span),
                    Some(first) => self.duplicate("statement", "wrap files", first, *span),
                },
                ast::BoardStmt::Headings(h) => {
                    let same_ring = headings_stmts.iter().find(|f| f.ring.as_ref().map(|n| &n.text) == h.ring.as_ref().map(|n| &n.text));
                    match (same_ring, &h.ring) {
                        (Some(first), None) => {
                            let labels = vec![self.primary(h.span, "a second `headings` block"), self.secondary(first.span, "first `headings` block")];
                            self.error("duplicate `headings` block", labels, vec![
                                "help: declare the main headings in one block, in compass order; further rings need a name: `headings NAME { ... }`".into(),
                            ]);
                        }
                        (Some(first), Some(name)) => {
                            let first_span = first.ring.as_ref().map_or(first.span, |n| n.span);
                            self.duplicate("heading ring", &name.text, first_span, name.span);
                        }
                        (None, _) => headings_stmts.push(h),
                    }
                }
                ast::BoardStmt::Transit(t) => transit_stmts.push(t),
                ast::BoardStmt::Group(g) => groups.push(g),
                ast::BoardStmt::Seam(s) => seams.push(s),
                ast::BoardStmt::Identify(s) => identifies.push(s),
                ast::BoardStmt::Cells(c) => cell_stmts.push(c),
                ast::BoardStmt::Link(l) => links.push(l),
                // Boards of polygons are built by `polygon_board`.
                ast::BoardStmt::Polygon(_) | ast::BoardStmt::Mesh(_) | ast::BoardStmt::Box(_) | ast::BoardStmt::Web(_) => {}
            }
        }

        let mut sources = Sources { board: b.keyword, ..Sources::default() };

        // Headings.
        let mut headings = Vec::new();
        let mut headings_by_name: HashMap<String, HeadingId> = HashMap::new();
        let mut headings_complete = true;
        let mut rings: Vec<Vec<HeadingId>> = Vec::new();
        if let Some(first) = headings_stmts.first() {
            sources.headings = first.span;
        }
        if headings_stmts.iter().all(|h| h.ring.is_some()) {
            if let Some(h) = headings_stmts.first() {
                let label = self.primary(h.span, "only named rings");
                self.error("missing the main `headings` block", vec![label], vec!["help: declare the compass headings in an unnamed `headings { ... }` block".into()]);
                headings_complete = false;
            }
        }
        if headings_stmts.is_empty() {
            let label = self.primary(b.keyword, "this board declares no headings");
            self.error(
                "missing `headings`",
                vec![label],
                vec!["help: add e.g. `headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) }`; pieces move along headings".into()],
            );
            headings_complete = false;
        }
        let mut by_vector: HashMap<(i64, i64), &ast::HeadingDecl> = HashMap::new();
        let mut decl_of: HashMap<String, Span> = HashMap::new();
        for h in &headings_stmts {
            rings.push(Vec::new());
            let ring = rings.len() - 1;
            {
                if h.headings.is_empty() {
                    let label = self.primary(h.span, "no headings in this block");
                    self.error("empty `headings` block", vec![label], vec![]);
                    headings_complete = false;
                }
                for decl in &h.headings {
                    if let Some(first) = decl_of.get(&decl.name.text) {
                        self.duplicate("heading", &decl.name.text, *first, decl.name.span);
                        continue;
                    }
                    if is_reserved_direction(&decl.name.text) {
                        self.reserved(&decl.name, "heading");
                        headings_complete = false;
                        continue;
                    }
                    let vector = match decl.vector {
                        None => None,
                        Some(v) => {
                            let (dx, dy) = (v.dx.value, v.dy.value);
                            if dx == 0 && dy == 0 {
                                let label = self.primary(v.span, "a heading must move");
                                self.error(format!("heading `{}` has the zero vector", decl.name.text), vec![label], vec![]);
                            } else if let Some(other) = by_vector.get(&(dx, dy)) {
                                let labels = vec![
                                    self.primary(v.span, format!("`{}` has the vector ({dx}, {dy})", decl.name.text)),
                                    self.secondary(other.span, format!("and so has `{}`", other.name.text)),
                                ];
                                self.error(
                                    format!("headings `{}` and `{}` have the same vector", other.name.text, decl.name.text),
                                    labels,
                                    vec!["note: seams find headings by their vector, so vectors must be distinct".into()],
                                );
                            } else {
                                by_vector.insert((dx, dy), decl);
                            }
                            match (i32::try_from(dx), i32::try_from(dy)) {
                                (Ok(dx), Ok(dy)) => Some((dx, dy)),
                                _ => {
                                    let label = self.primary(v.span, "too large");
                                    self.error("heading vector out of range", vec![label], vec![]);
                                    None
                                }
                            }
                        }
                    };
                    decl_of.insert(decl.name.text.clone(), decl.name.span);
                    headings_by_name.insert(decl.name.text.clone(), headings.len());
                    rings[ring].push(headings.len());
                    headings.push(model::Heading { name: decl.name.text.clone(), vector, ring, kind: model::Kind::of_vector(vector) });
                    sources.heading_decls.push(decl.span);
                }
                if headings.len() > MAX_HEADINGS {
                    let label = self.primary(h.span, format!("{} headings", headings.len()));
                    self.error(format!("too many headings (at most {MAX_HEADINGS})"), vec![label], vec![]);
                    headings_complete = false;
                }
            }
        }

        // Groups (`all` is predefined).
        let mut group_map: HashMap<String, Vec<HeadingId>> = HashMap::new();
        let mut group_decl: HashMap<String, Span> = HashMap::new();
        for g in &groups {
            if let Some(first) = group_decl.get(&g.name.text) {
                self.duplicate("group", &g.name.text, *first, g.name.span);
                continue;
            }
            if is_reserved_direction(&g.name.text) {
                self.reserved(&g.name, "group");
                continue;
            }
            if let Some(&h) = headings_by_name.get(&g.name.text) {
                let labels = vec![
                    self.primary(g.name.span, "this group"),
                    self.secondary(sources.heading_decls.get(h).copied().unwrap_or(g.name.span), "has the name of this heading"),
                ];
                self.error(format!("group `{}` has the same name as a heading", g.name.text), labels, vec![]);
                continue;
            }
            let members = self.group_members(g, &headings_by_name, &group_map, headings.len(), headings_complete);
            group_decl.insert(g.name.text.clone(), g.name.span);
            group_map.insert(g.name.text.clone(), members);
        }

        // Cells: the grid first (rank by rank), then `cells`.
        let mut cells: Vec<model::Cell> = Vec::new();
        let mut cells_by_name: HashMap<String, CellId> = HashMap::new();
        let mut cells_complete = true;
        let mut grid = None;
        let mut aliases: Vec<model::Alias> = Vec::new();
        let mut alias_at: AliasMap = HashMap::new();
        if grid_stmt.is_none() {
            for s in &identifies {
                let label = self.primary(s.name.span, "there is no grid position to identify");
                self.error("`identify` needs a `grid`", vec![label], vec!["note: `identify` gives grid positions to other cells; boards of named cells can link them directly".into()]);
            }
        }
        if let Some(g) = grid_stmt {
            let files = self.labels(&g.files, "file");
            let ranks = self.labels(&g.ranks, "rank");
            match (files, ranks) {
                (Some(files), Some(ranks)) => {
                    let count = files.len().saturating_mul(ranks.len());
                    if count > MAX_CELLS {
                        let label = self.primary(g.span, format!("{} files × {} ranks = {count} cells", files.len(), ranks.len()));
                        self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
                        cells_complete = false;
                    } else {
                        // Identified positions name the cell at their target position.
                        let identified = self.identified_positions(&identifies, &files, &ranks, &headings);
                        let mut cell_at = Vec::with_capacity(count);
                        for (y, rank) in ranks.iter().enumerate() {
                            for (x, file) in files.iter().enumerate() {
                                if identified.contains_key(&(x as i64, y as i64)) {
                                    cell_at.push(None);
                                    continue;
                                }
                                let name = format!("{file}{rank}");
                                if let Some(&other) = cells_by_name.get(&name) {
                                    let label = self.primary(g.span, format!("`{name}` is both {} and {file}{rank}", describe_cell(&cells[other], &files, &ranks)));
                                    self.error(format!("grid cell name `{name}` is ambiguous"), vec![label], vec!["help: choose file and rank names that cannot run together".into()]);
                                    cells_complete = false;
                                    cell_at.push(Some(other));
                                    continue;
                                }
                                cells_by_name.insert(name.clone(), cells.len());
                                cell_at.push(Some(cells.len()));
                                // Counts are bounded by MAX_CELLS, so they fit i32.
                                cells.push(model::Cell { name, coords: Some((x as i32, y as i32)), transit: false });
                                sources.cell_decls.push(g.span);
                            }
                        }
                        let width = files.len();
                        let mut positions: Vec<&(i64, i64)> = identified.keys().collect();
                        positions.sort_by_key(|&&(x, y)| (y, x));
                        for &(x, y) in positions {
                            let ((tx, ty), map) = &identified[&(x, y)];
                            let Some(cell) = cell_at[*ty as usize * width + *tx as usize] else { continue };
                            let name = format!("{}{}", files[x as usize], ranks[y as usize]);
                            if let Some(&other) = cells_by_name.get(&name) {
                                let label = self.primary(g.span, format!("`{name}` is both {} and {name}", cells[other].name));
                                self.error(format!("grid cell name `{name}` is ambiguous"), vec![label], vec!["help: choose file and rank names that cannot run together".into()]);
                                cells_complete = false;
                                continue;
                            }
                            cells_by_name.insert(name.clone(), cell);
                            cell_at[y as usize * width + x as usize] = Some(cell);
                            alias_at.insert((x, y), (cell, map.clone()));
                            aliases.push(model::Alias { name, cell, coords: (x as i32, y as i32) });
                        }
                        grid = Some(model::Grid { files, ranks, cell_at });
                    }
                }
                _ => cells_complete = false,
            }
        }
        for stmt in &cell_stmts {
            for name in &stmt.cells {
                if let Some(&other) = cells_by_name.get(&name.text) {
                    let first = sources.cell_decls.get(other).copied().unwrap_or(name.span);
                    self.duplicate("cell", &name.text, first, name.span);
                    continue;
                }
                cells_by_name.insert(name.text.clone(), cells.len());
                cells.push(model::Cell { name: name.text.clone(), coords: None, transit: false });
                sources.cell_decls.push(name.span);
            }
        }
        if cells.len() > MAX_CELLS {
            let label = self.primary(b.keyword, format!("{} cells", cells.len()));
            self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
            cells_complete = false;
        }
        if cells.is_empty() && cells_complete {
            let label = self.primary(b.keyword, "this board has no cells");
            self.error("empty board", vec![label], vec!["help: add `grid files a..h ranks 1..8` or `cells ...`".into()]);
            cells_complete = false;
        }
        if let (Some(span), None) = (wrap_stmt, &grid) {
            if grid_stmt.is_none() {
                let label = self.primary(span, "there is no grid to wrap");
                self.error("`wrap files` needs a `grid`", vec![label], vec![]);
            }
        }

        let mut seam_names = vec!["wrap".to_string()];
        seam_names.extend(seams.iter().map(|s| s.name.text.clone()));
        // Transit cells.
        for stmt in &transit_stmts {
            for name in &stmt.cells {
                if let Some(c) = self.cell(name, &cells_by_name, cells_complete, " to be a transit cell") {
                    cells[c].transit = true;
                }
            }
        }
        let mut board = model::Board { cells, headings, grid, step: Vec::new(), crossed: Vec::new(), seams: seam_names, rings, aliases, complex: None };
        let step_len = board.cells.len().saturating_mul(board.headings.len());
        board.step = vec![None; step_len];
        board.crossed = vec![0; step_len];
        sources.step_origin = vec![StepOrigin::None; step_len];

        // Seams.
        let mut seen_seams: HashMap<String, Span> = HashMap::new();
        let mut seams_ok = true;
        if let Some(extra) = seams.get(MAX_SEAMS) {
            let label = self.primary(extra.name.span, format!("seam number {}", MAX_SEAMS + 1));
            self.error(format!("too many seams (at most {MAX_SEAMS})"), vec![label], vec![
                "note: a leg names the seams it may not cross (`avoid`), and the `wrap` join counts too: they are bits of one 32-bit mask".into(),
            ]);
            seams_ok = false;
        }
        for s in &seams {
            if s.name.text == "wrap" {
                let label = self.primary(s.name.span, "reserved for the `wrap files` join");
                self.error("a seam may not be named `wrap`", vec![label], vec![]);
                seams_ok = false;
            }
            if let Some(first) = seen_seams.get(&s.name.text) {
                self.duplicate("seam", &s.name.text, *first, s.name.span);
                seams_ok = false;
            }
            seen_seams.insert(s.name.text.clone(), s.name.span);
            seams_ok &= self.check_seam(s, "seam");
            if grid_stmt.is_none() {
                let label = self.primary(s.name.span, "this seam can never apply");
                self.error("a seam needs a `grid`", vec![label], vec!["note: seams continue grid steps that leave the grid".into()]);
                seams_ok = false;
            }
            sources.seams.push((s.name.text.clone(), s.span));
        }
        let seams_ok = seams_ok && board.grid.is_some() && cells_complete;
        if seams_ok {
            // Seams declared `for` some pieces give those pieces their own step function, built
            // once the pieces are known (`piece_geometries`).
            let general: Vec<usize> = (0..seams.len()).filter(|&i| seams[i].pieces.is_empty()).collect();
            let (step, crossed, origin) = self.grid_steps(&board, &alias_at, &seams, &general, wrap_stmt.is_some(), Some((sources.headings, &general)));
            board.step = step;
            board.crossed = crossed;
            sources.step_origin = origin;
        }

        // Links override the grid.
        let mut link_steps = Vec::new();
        let mut linked: HashMap<(CellId, HeadingId), Span> = HashMap::new();
        for l in &links {
            sources.links.push(l.span);
            let from = self.cell(&l.from, &cells_by_name, cells_complete, " on this board");
            let from_h = self.heading(&l.from_heading, &headings_by_name, headings_complete);
            let to = self.cell(&l.to, &cells_by_name, cells_complete, " on this board");
            let to_h = self.heading(&l.to_heading, &headings_by_name, headings_complete);
            if let (Some(from), Some(from_h), Some(to), Some(to_h)) = (from, from_h, to, to_h) {
                if let Some(first) = linked.get(&(from, from_h)) {
                    let labels = vec![
                        self.primary(l.span, format!("a second step from `{}` heading `{}`", l.from.text, l.from_heading.text)),
                        self.secondary(*first, "the first link for it"),
                    ];
                    self.error(format!("duplicate link from `{}` heading `{}`", l.from.text, l.from_heading.text), labels, vec![]);
                    continue;
                }
                linked.insert((from, from_h), l.span);
                let i = from * board.headings.len() + from_h;
                if let Some(slot) = board.step.get_mut(i) {
                    *slot = Some((to, to_h));
                    board.crossed[i] = 0;
                    sources.step_origin[i] = StepOrigin::Link(sources.links.len() - 1);
                    link_steps.push((i, (to, to_h)));
                }
            }
        }

        BoardInfo {
            board,
            sources,
            seams: seams.iter().map(|s| (*s).clone()).collect(),
            seams_ok,
            wrap: wrap_stmt.is_some(),
            link_steps,
            alias_at,
            cells_by_name,
            headings_by_name,
            groups: group_map,
            cells_complete,
            headings_complete,
        }
    }

    pub(super) fn reserved(&mut self, name: &ast::Name, what: &str) {
        let label = self.primary(name.span, format!("`{}` is predefined", name.text));
        self.error(format!("`{}` cannot be a {what} name", name.text), vec![label], vec![
            "note: `all` means every heading and `forward` the side's forward heading".into(),
        ]);
    }

    /// Files or ranks; `None` after an error.
    pub(super) fn labels(&mut self, labels: &ast::Labels, what: &str) -> Option<Vec<String>> {
        match labels {
            ast::Labels::List(names) => {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                let mut ok = true;
                for n in names {
                    if let Some(first) = seen.get(n.text.as_str()) {
                        self.duplicate(what, &n.text, *first, n.span);
                        ok = false;
                    }
                    seen.insert(&n.text, n.span);
                }
                ok.then(|| names.iter().map(|n| n.text.clone()).collect())
            }
            ast::Labels::Range { from, to, span } => {
                let letters = |s: &str| {
                    let mut c = s.chars();
                    match (c.next(), c.next()) {
                        (Some(ch), None) if ch.is_ascii_alphabetic() => Some(ch),
                        _ => None,
                    }
                };
                if let (Ok(a), Ok(b)) = (from.text.parse::<i64>(), to.text.parse::<i64>()) {
                    if a > b {
                        let label = self.primary(*span, format!("{a} comes after {b}"));
                        self.error(format!("empty {what} range"), vec![label], vec![format!("help: write `{b}..{a}`")]);
                        return None;
                    }
                    // In i128: the difference of two i64 may not fit an i64.
                    let count = i128::from(b) - i128::from(a) + 1;
                    if count > MAX_CELLS as i128 {
                        let label = self.primary(*span, format!("{count} {what}s"));
                        self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
                        return None;
                    }
                    return Some((a..=b).map(|i| i.to_string()).collect());
                }
                match (letters(&from.text), letters(&to.text)) {
                    (Some(a), Some(b)) if a.is_ascii_lowercase() == b.is_ascii_lowercase() => {
                        if a > b {
                            let label = self.primary(*span, format!("`{a}` comes after `{b}`"));
                            self.error(format!("empty {what} range"), vec![label], vec![format!("help: write `{b}..{a}`")]);
                            return None;
                        }
                        Some((a..=b).map(|c| c.to_string()).collect())
                    }
                    _ => {
                        let label = self.primary(*span, "not a range of single letters or of integers");
                        self.error(
                            format!("invalid {what} range"),
                            vec![label],
                            vec!["help: write a letter range like `a..h`, an integer range like `1..8`, or list the names".into()],
                        );
                        None
                    }
                }
            }
        }
    }

    pub(super) fn heading(&mut self, name: &ast::Name, headings: &HashMap<String, HeadingId>, complete: bool) -> Option<HeadingId> {
        match headings.get(&name.text) {
            Some(&h) => Some(h),
            None => {
                if complete {
                    self.unknown("heading", name, "", headings.keys().map(String::as_str));
                }
                None
            }
        }
    }
}
