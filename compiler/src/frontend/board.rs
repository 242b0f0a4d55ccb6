//! The board front end for grids, seams and links: headings, groups, cells, identified positions,
//! seam expressions and the step function (boards of polygons: `polygons.rs`).

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

    /// Type-checks a seam: the condition is a condition, coordinates and vectors are numbers,
    /// variables exist.
    pub(super) fn check_seam(&mut self, s: &ast::Seam, kind: &str) -> bool {
        let mut ok = true;
        match self.expr_type(&s.when) {
            Some(Type::Bool) => {}
            Some(Type::Int) => {
                let label = self.primary(s.when.span, "this is a number");
                self.error(format!("the condition of {kind} `{}` is not a condition", s.name.text), vec![label], vec!["help: compare it, e.g. `y > 7`".into()]);
                ok = false;
            }
            None => ok = false,
        }
        let mut pairs = vec![(&s.to, "landing coordinate")];
        if let ast::SeamHeading::Vector(v) = &s.heading {
            pairs.push((v, "heading vector"));
        }
        for (pair, what) in pairs {
            for e in [&pair.x, &pair.y] {
                match self.expr_type(e) {
                    Some(Type::Int) => {}
                    Some(Type::Bool) => {
                        let label = self.primary(e.span, "this is a condition");
                        self.error(format!("a {what} of {kind} `{}` must be a number", s.name.text), vec![label], vec![]);
                        ok = false;
                    }
                    None => ok = false,
                }
            }
        }
        ok
    }

    /// The type of an expression, or `None` after reporting an error in it.
    pub(super) fn expr_type(&mut self, e: &ast::Expr) -> Option<Type> {
        use ast::{BinOp::*, ExprKind};
        match &e.kind {
            ExprKind::Int(_) => Some(Type::Int),
            ExprKind::Var(v) => {
                if VARIABLES.contains(&v.as_str()) {
                    Some(Type::Int)
                } else {
                    let mut notes = vec!["note: seam expressions know `x`, `y` (where the step would land) and `dx`, `dy` (the heading's vector)".to_string()];
                    if let Some(best) = closest(v, VARIABLES.iter().copied()) {
                        notes.insert(0, format!("help: did you mean `{best}`?"));
                    }
                    let label = self.primary(e.span, "not a seam variable");
                    self.error(format!("unknown variable `{v}`"), vec![label], notes);
                    None
                }
            }
            ExprKind::Neg(inner) => self.operand(inner, Type::Int, "-").map(|_| Type::Int),
            ExprKind::Not(inner) => self.operand(inner, Type::Bool, "not").map(|_| Type::Bool),
            ExprKind::Binary(op, a, b) => {
                let (operand, result) = match op {
                    Add | Sub | Mul | Div | Mod => (Type::Int, Type::Int),
                    Lt | Le | Gt | Ge | Eq | Ne => (Type::Int, Type::Bool),
                    And | Or => (Type::Bool, Type::Bool),
                };
                let ta = self.operand(a, operand, op.symbol());
                let tb = self.operand(b, operand, op.symbol());
                (ta.is_some() && tb.is_some()).then_some(result)
            }
        }
    }

    pub(super) fn operand(&mut self, e: &ast::Expr, wanted: Type, op: &str) -> Option<Type> {
        let t = self.expr_type(e)?;
        if t == wanted {
            return Some(t);
        }
        let (expected, found) = match wanted {
            Type::Int => ("a number", "a condition"),
            Type::Bool => ("a condition", "a number"),
        };
        let label = self.primary(e.span, format!("this is {found}"));
        self.error(format!("`{op}` expects {expected}, found {found}"), vec![label], vec![]);
        None
    }

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

// ---------------------------------------------------------------- seam expressions

pub(super) const VARIABLES: [&str; 4] = ["x", "y", "dx", "dy"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Type {
    Int,
    Bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Value {
    Int(i64),
    Bool(bool),
}

/// The variables of a seam expression for one step.
pub(super) struct Env {
    x: i64,
    y: i64,
    dx: i64,
    dy: i64,
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

/// The first use of one of `vars` in an expression: its span and name.
pub(super) fn find_var(e: &ast::Expr, vars: &[&str]) -> Option<(Span, String)> {
    match &e.kind {
        ast::ExprKind::Int(_) => None,
        ast::ExprKind::Var(v) => vars.contains(&v.as_str()).then(|| (e.span, v.clone())),
        ast::ExprKind::Neg(a) | ast::ExprKind::Not(a) => find_var(a, vars),
        ast::ExprKind::Binary(_, a, b) => find_var(a, vars).or_else(|| find_var(b, vars)),
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

pub(super) fn eval_pair(p: &ast::ExprPair, env: &Env) -> Result<(i64, i64), String> {
    Ok((eval_int(&p.x, env)?, eval_int(&p.y, env)?))
}

pub(super) fn eval_int(e: &ast::Expr, env: &Env) -> Result<i64, String> {
    match eval(e, env)? {
        Value::Int(i) => Ok(i),
        Value::Bool(_) => Err("a condition where a number was expected".into()),
    }
}

pub(super) fn eval_bool(e: &ast::Expr, env: &Env) -> Result<bool, String> {
    match eval(e, env)? {
        Value::Bool(b) => Ok(b),
        Value::Int(_) => Err("a number where a condition was expected".into()),
    }
}

/// Evaluates a type-checked seam expression. Arithmetic is checked; `mod` is Euclidean (never
/// negative), `/` rounds toward negative infinity to match it.
pub(super) fn eval(e: &ast::Expr, env: &Env) -> Result<Value, String> {
    use ast::{BinOp::*, ExprKind};
    let overflow = || "arithmetic overflow".to_string();
    Ok(match &e.kind {
        ExprKind::Int(i) => Value::Int(*i),
        ExprKind::Var(v) => Value::Int(match v.as_str() {
            "x" => env.x,
            "y" => env.y,
            "dx" => env.dx,
            "dy" => env.dy,
            other => return Err(format!("unknown variable `{other}`")),
        }),
        ExprKind::Neg(a) => Value::Int(eval_int(a, env)?.checked_neg().ok_or_else(overflow)?),
        ExprKind::Not(a) => Value::Bool(!eval_bool(a, env)?),
        ExprKind::Binary(And, a, b) => Value::Bool(eval_bool(a, env)? && eval_bool(b, env)?),
        ExprKind::Binary(Or, a, b) => Value::Bool(eval_bool(a, env)? || eval_bool(b, env)?),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval_int(a, env)?, eval_int(b, env)?);
            match op {
                Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
                Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
                Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
                Div | Mod if b == 0 => return Err(format!("division by zero ({a} {} 0)", op.symbol())),
                Div => Value::Int(a.checked_div_euclid(b).ok_or_else(overflow)?),
                Mod => Value::Int(a.checked_rem_euclid(b).ok_or_else(overflow)?),
                Lt => Value::Bool(a < b),
                Le => Value::Bool(a <= b),
                Gt => Value::Bool(a > b),
                Ge => Value::Bool(a >= b),
                Eq => Value::Bool(a == b),
                Ne => Value::Bool(a != b),
                And | Or => return Err("internal: logical operator on numbers".into()),
            }
        }
    })
}
