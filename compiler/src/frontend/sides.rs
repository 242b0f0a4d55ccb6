//! Sides (forward and other directions derived from distances, zones, setups, promotions,
//! castling) and the game's `rules` settings.

use super::*;

impl Frontend {

    #[allow(clippy::too_many_arguments)]
    pub(super) fn sides(
        &mut self,
        file: &ast::File,
        sides: &[&ast::Side],
        ast_pieces: &[&ast::Piece],
        pieces: &[model::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &[ForwardUse],
    ) -> (Vec<model::Side>, Vec<HashMap<String, Vec<CellId>>>) {
        if sides.len() < 2 {
            let (span, found) = match sides.first() {
                Some(s) => (s.name.span, "the only side"),
                None => (file.variant_span, "this variant has no side"),
            };
            let label = self.primary(span, found);
            self.error(format!("a variant needs at least two sides, found {}", sides.len()), vec![label], vec![
                "help: add e.g. `side black { forward S setup { ... } }`; sides play in the order they are declared".into(),
            ]);
        }
        let any_royal = pieces.iter().any(|p| p.royal);
        let mut names: HashMap<&str, Span> = HashMap::new();
        // Which side put which piece where, for "two pieces on one cell".
        let mut occupied: HashMap<CellId, Span> = HashMap::new();
        let mut out = Vec::new();
        let mut zones = Vec::new();
        for s in sides {
            if let Some(first) = names.get(s.name.text.as_str()) {
                self.duplicate("side", &s.name.text, *first, s.name.span);
            }
            names.insert(&s.name.text, s.name.span);
            let (side, side_zones) = self.side(s, ast_pieces, pieces, board, directions, forward_uses, any_royal, &mut occupied);
            out.push(side);
            zones.push(side_zones);
        }
        self.teams(sides, &out);
        (out, zones)
    }

    /// The names rules may use for side-dependent headings: `forward`, then every `direction` the
    /// sides declare, in order of first declaration.
    pub(super) fn direction_names(&mut self, sides: &[&ast::Side], board: &BoardInfo) -> Vec<String> {
        let mut out = vec!["forward".to_string()];
        for s in sides {
            for stmt in &s.statements {
                let ast::SideStmt::Direction { name, .. } = stmt else { continue };
                if out.contains(&name.text) {
                    continue;
                }
                if is_reserved_direction(&name.text) {
                    self.reserved(name, "direction");
                    continue;
                }
                if board.headings_by_name.contains_key(&name.text) || board.groups.contains_key(&name.text) {
                    let label = self.primary(name.span, "also the name of a heading or group of the board");
                    self.error(format!("direction `{}` has the name of a heading or group", name.text), vec![label], vec![
                        "note: rules name headings, groups and directions alike, so the names must differ".into(),
                    ]);
                    continue;
                }
                out.push(name.text.clone());
            }
        }
        out
    }

    /// Fills in the rules' `on ...` once every side's zones are known.
    pub(super) fn resolve_origins(
        &mut self,
        pieces: &mut [model::Piece],
        pending: Vec<(PieceId, usize, PendingOn, Span, bool)>,
        sides: &[model::Side],
        zones: &[HashMap<String, Vec<CellId>>],
    ) {
        for (p, r, on, _span, onto) in pending {
            let origins = match on {
                PendingOn::Cells(cells) => vec![cells; sides.len()],
                PendingOn::Zone(name) => {
                    let mut per_side = Vec::new();
                    for (sd, side) in sides.iter().enumerate() {
                        match zones[sd].get(&name.text) {
                            Some(cells) => per_side.push(cells.clone()),
                            None => {
                                let label = self.primary(name.span, format!("a rule of `{}` applies on `{}`", pieces[p].name, name.text));
                                let mut notes = vec![format!("help: declare it in the side, e.g. `zone {} cells {{ ... }}`", name.text)];
                                if let Some(best) = closest(&name.text, zones[sd].keys().map(String::as_str)) {
                                    notes.insert(0, format!("help: did you mean `{best}`?"));
                                }
                                self.error(format!("side `{}` has no zone `{}`", side.name, name.text), vec![label], notes);
                                per_side.push(Vec::new());
                            }
                        }
                    }
                    per_side
                }
            };
            if onto {
                pieces[p].rules[r].onto = Some(origins);
            } else {
                pieces[p].rules[r].origins = Some(origins);
            }
        }
    }

    /// A set of headings: a heading, a group, `all` or `{ ... }`. In a piece rule, `directions`
    /// are the sides' direction names (`forward`, ...), which depend on the side and so cannot
    /// stand inside a set.
    pub(super) fn heading_set(&mut self, set: &ast::DirSet, board: &BoardInfo, directions: Option<&[String]>) -> Option<Vec<HeadingId>> {
        let names: Vec<&ast::Name> = match set {
            ast::DirSet::Name(n) => vec![n],
            ast::DirSet::Set { span, names } => {
                if names.is_empty() {
                    let label = self.primary(*span, "no headings");
                    self.error("empty heading set", vec![label], vec![]);
                    return None;
                }
                names.iter().collect()
            }
        };
        let in_rule = directions.is_some();
        let directions = directions.unwrap_or_default();
        let mut out = Vec::new();
        let mut ok = true;
        for name in names {
            let is_board_name = board.headings_by_name.contains_key(&name.text) || board.groups.contains_key(&name.text);
            if directions.contains(&name.text) && !is_board_name {
                let label = self.primary(name.span, format!("`{}` depends on the side", name.text));
                self.error(format!("`{}` inside a heading set", name.text), vec![label], vec![format!("help: write a separate rule with `{}`", name.text)]);
                ok = false;
            } else if name.text == "all" {
                for h in 0..board.board.headings.len() {
                    push_unique(&mut out, h);
                }
            } else if let Some(&h) = board.headings_by_name.get(&name.text) {
                push_unique(&mut out, h);
            } else if let Some(hs) = board.groups.get(&name.text) {
                for &h in hs {
                    push_unique(&mut out, h);
                }
            } else {
                ok = false;
                if board.headings_complete {
                    let candidates: Vec<&str> = board
                        .headings_by_name
                        .keys()
                        .chain(board.groups.keys())
                        .map(String::as_str)
                        .chain(["all"])
                        .chain(directions.iter().map(String::as_str))
                        .collect();
                    let mut notes = Vec::new();
                    if let Some(best) = closest(&name.text, candidates.iter().copied()) {
                        notes.push(format!("help: did you mean `{best}`?"));
                    }
                    let what = if in_rule { "not a heading, a group, `all`, `forward` or a side's `direction`" } else { "not a heading, a group or `all`" };
                    let label = self.primary(name.span, what);
                    self.error(format!("unknown heading or group `{}`", name.text), vec![label], notes);
                }
            }
        }
        ok.then_some(out)
    }

    /// What `forward` or a `direction` means on every cell; `zones` are the side's own.
    pub(super) fn direction_spec(&mut self, spec: &ast::DirectionSpec, board: &BoardInfo, zones: &HashMap<String, Vec<CellId>>) -> Option<Vec<Vec<HeadingId>>> {
        let ncells = board.board.cells.len();
        match spec {
            ast::DirectionSpec::Fixed(set) => {
                let hs = self.heading_set(set, board, None)?;
                Some(vec![hs; ncells])
            }
            ast::DirectionSpec::Derived(d) => {
                use ast::Derivation::*;
                let candidates = self.heading_set(&d.candidates, board, None);
                let by = match &d.by {
                    Some(set) => self.heading_set(set, board, None),
                    None => Some((0..board.board.headings.len()).collect()),
                };
                // A name is a zone of the side if it declares one, else a cell.
                let from = match &d.from {
                    ast::Zone::Named { name, .. } if !zones.contains_key(&name.text) => {
                        self.cell(name, &board.cells_by_name, board.cells_complete, " on this board (nor a zone of this side)").map(|c| vec![c])
                    }
                    zone => self.zone(zone, board, zones),
                };
                let (candidates, by, from) = (candidates?, by?, from?);
                let dist = distances(&board.board, &from, &by);
                let outward = matches!(d.mode, Away | Farthest);
                let mut out = vec![Vec::new(); ncells];
                for (c, hs) in out.iter_mut().enumerate() {
                    let Some(here) = dist[c] else { continue };
                    let leading: Vec<(HeadingId, u32)> = candidates
                        .iter()
                        .filter_map(|&h| {
                            let (t, _) = board.board.step(c, h)?;
                            let there = dist[t]?;
                            (if outward { there > here } else { there < here }).then_some((h, there))
                        })
                        .collect();
                    let best = if outward { leading.iter().map(|&(_, d)| d).max() } else { leading.iter().map(|&(_, d)| d).min() };
                    let extreme = matches!(d.mode, Farthest | Nearest);
                    *hs = leading.iter().filter(|&&(_, there)| !extreme || Some(there) == best).map(|&(h, _)| h).collect();
                }
                if board.cells_complete && out.iter().all(Vec::is_empty) {
                    let what = if outward { "farther from" } else { "nearer to" };
                    let label = self.primary(d.span, format!("no heading leads {what} it anywhere"));
                    self.diagnostics.push(Diagnostic::warning().with_message("this direction is empty on every cell").with_labels(vec![label]).with_notes(vec![
                        format!("note: no step along these headings leads {what} {} (counting steps along the `by` headings)", match &d.from {
                            ast::Zone::Named { name, .. } => format!("`{}`", name.text),
                            _ => "the zone".into(),
                        }),
                    ]));
                }
                Some(out)
            }
        }
    }

    /// Teams: a side without `team` is a team of its own, named after it, so no other side may
    /// name that team; and at least two teams play.
    fn teams(&mut self, sides: &[&ast::Side], model: &[model::Side]) {
        for s in sides {
            for stmt in &s.statements {
                let ast::SideStmt::Team { name, .. } = stmt else { continue };
                let Some(other) = sides.iter().find(|o| o.name.text == name.text && o.name.text != s.name.text) else {
                    continue;
                };
                let joined = other.statements.iter().any(|st| matches!(st, ast::SideStmt::Team { name: t, .. } if t.text == name.text));
                if !joined {
                    let labels = vec![self.primary(name.span, "the team of another side"), self.secondary(other.name.span, "a team of its own")];
                    self.error(format!("side `{}` joins team `{}`, the team of side `{}` alone", s.name.text, name.text, other.name.text), labels, vec![
                        format!("help: a side without `team` is a team of its own, named after it; give the team another name, or put `team {}` in side `{}` too", name.text, other.name.text),
                    ]);
                }
            }
        }
        // (Without any `team`, sides with one name are a duplicate, reported already.)
        if sides.len() >= 2 && model.len() == sides.len() && model.iter().all(|m| m.team == model[0].team) {
            let labels: Vec<_> = sides
                .iter()
                .filter_map(|s| s.statements.iter().find_map(|st| match st {
                    ast::SideStmt::Team { name, .. } => Some(name.span),
                    _ => None,
                }))
                .map(|span| self.primary(span, "the same team"))
                .collect();
            if labels.is_empty() {
                return;
            }
            self.error(format!("every side is in team `{}`: a game needs at least two teams", model[0].team), labels, vec![
                "help: a side without `team` is a team of its own".into(),
            ]);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn side(
        &mut self,
        s: &ast::Side,
        ast_pieces: &[&ast::Piece],
        pieces: &[model::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &[ForwardUse],
        any_royal: bool,
        occupied: &mut HashMap<CellId, Span>,
    ) -> (model::Side, HashMap<String, Vec<CellId>>) {
        let ncells = board.board.cells.len();
        // Per direction: the headings per cell, and where it was declared.
        let mut side_directions: Vec<Vec<Vec<HeadingId>>> = vec![vec![Vec::new(); ncells]; directions.len()];
        let mut declared: Vec<Option<Span>> = vec![None; directions.len()];
        // Zones first: promotions may name them.
        let mut zones: HashMap<String, Vec<CellId>> = HashMap::new();
        let mut zone_spans: HashMap<String, Span> = HashMap::new();
        for stmt in &s.statements {
            let ast::SideStmt::Zone { name, zone, .. } = stmt else { continue };
            if let Some(first) = zone_spans.get(&name.text) {
                self.duplicate("zone", &name.text, *first, name.span);
                continue;
            }
            zone_spans.insert(name.text.clone(), name.span);
            if let Some(cells) = self.zone(zone, board, &HashMap::new()) {
                zones.insert(name.text.clone(), cells);
            }
        }
        let mut setup = Vec::new();
        let mut promotions: Vec<model::Promotion> = Vec::new();
        // Per promoting piece: its first rule's span, choices and `captured` (several zones must agree).
        let mut promoted: HashMap<PieceId, (Span, Vec<Option<PieceId>>, bool)> = HashMap::new();
        let mut castles = Vec::new();
        let mut castle_names: HashMap<&str, Span> = HashMap::new();
        let mut setup_seen = false;
        let mut setup_complete = true;
        let mut team: Option<&ast::Name> = None;
        let mut reach = Vec::new();

        for stmt in &s.statements {
            match stmt {
                ast::SideStmt::Zone { .. }
                | ast::SideStmt::Atop(_)
                | ast::SideStmt::Drop(_)
                | ast::SideStmt::Hand { .. } => {}
                ast::SideStmt::Reach { piece, zone, .. } => {
                    let p = self.piece_ref(piece, ast_pieces, pieces, format!("unknown piece `{}` to reach a goal", piece.text));
                    if let (Some(p), Some(cells)) = (p, self.zone(zone, board, &zones)) {
                        reach.push((p, cells));
                    }
                }
                ast::SideStmt::Team { span, name } => match team {
                    Some(first) => {
                        let labels = vec![self.primary(*span, "a second `team`"), self.secondary(first.span, "first here")];
                        self.error(format!("side `{}` names its team twice", s.name.text), labels, vec![
                            "note: a side belongs to one team".into(),
                        ]);
                    }
                    None => team = Some(name),
                },
                ast::SideStmt::Forward { span, spec } | ast::SideStmt::Direction { span, spec, .. } => {
                    let (d, word) = match stmt {
                        ast::SideStmt::Direction { name, .. } => match directions.iter().position(|x| *x == name.text) {
                            Some(d) => (d, format!("direction `{}`", name.text)),
                            // An invalid name, reported already.
                            None => continue,
                        },
                        _ => (0, "`forward`".to_string()),
                    };
                    if let Some(first) = declared[d] {
                        let labels = vec![self.primary(*span, format!("a second {word}")), self.secondary(first, "first here")];
                        self.error(format!("side `{}` declares {word} twice", s.name.text), labels, vec![]);
                        continue;
                    }
                    declared[d] = Some(*span);
                    if let Some(per_cell) = self.direction_spec(spec, board, &zones) {
                        side_directions[d] = per_cell;
                    }
                }
                ast::SideStmt::Setup(setup_stmt) => {
                    setup_seen = true;
                    for (symbol, cells) in setup_groups(setup_stmt, ast_pieces, board) {
                        let piece = self.piece_ref(
                            symbol,
                            ast_pieces,
                            pieces,
                            format!(
                                "unknown piece `{}` in the setup of `{}`",
                                symbol.text, s.name.text
                            ),
                        );
                        setup_complete &= piece.is_some();
                        for cell_name in cells {
                            let Some(found) = self.cell_item(cell_name, board, " on this board") else {
                                setup_complete = false;
                                continue;
                            };
                            for cell in found {
                                // A merged cell is named by its own name, whichever name was written.
                                let own = board.board.cells[cell].name.clone();
                                let written = if own == cell_name.text || cell_name.range().is_some() { String::new() } else { format!(" (written `{}`)", cell_name.text) };
                                if board.board.cells[cell].transit {
                                    let label = self.primary(cell_name.span, "a transit cell");
                                    self.error(format!("`{own}` is a transit cell: no piece can stand there"), vec![label], vec![
                                        "note: pieces cross transit cells but never stop on them".into(),
                                    ]);
                                    continue;
                                }
                                if let Some(first) = occupied.get(&cell) {
                                    let labels = vec![
                                        self.primary(cell_name.span, format!("a second piece on `{own}`{written}")),
                                        self.secondary(*first, "first placed here"),
                                    ];
                                    let mut notes = Vec::new();
                                    let names: Vec<&str> = board.board.aliases.iter().filter(|a| a.cell == cell).map(|a| a.name.as_str()).collect();
                                    if !names.is_empty() {
                                        notes.push(format!("note: `{own}` is also named {} (`identify`)", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")));
                                    }
                                    self.error(format!("two pieces on `{own}`"), labels, notes);
                                    continue;
                                }
                                occupied.insert(cell, cell_name.span);
                                if let Some(p) = piece {
                                    setup.push((cell, p));
                                }
                            }
                        }
                    }
                }
                ast::SideStmt::Promote(p) => {
                    let piece = self.piece_ref(&p.piece, ast_pieces, pieces, format!("promotion of an unknown piece `{}`", p.piece.text));
                    let choices: Vec<Option<PieceId>> = p.choices.iter().map(|c| self.piece_ref(c, ast_pieces, pieces, format!("promotion to an unknown piece `{}`", c.text))).collect();
                    let zone = self.zone(&p.zone, board, &zones);
                    if let Some(piece) = piece {
                        if let Some((first, first_choices, first_captured)) = promoted.get(&piece) {
                            let same = |a: &[Option<PieceId>], b: &[Option<PieceId>]| a.iter().all(|c| b.contains(c)) && b.iter().all(|c| a.contains(c));
                            if !same(first_choices, &choices) || *first_captured != p.captured {
                                let labels = vec![self.primary(p.span, "other choices"), self.secondary(*first, "first here")];
                                self.error(format!("side `{}` promotes `{}` with different choices in different zones", s.name.text, p.piece.text), labels, vec![
                                    "note: a piece's promotion zones (optional or compulsory) share one list of choices, `captured` or not".into(),
                                    "help: give every `promote` of the piece the same choices".into(),
                                ]);
                                continue;
                            }
                        } else {
                            promoted.insert(piece, (p.span, choices.clone(), p.captured));
                        }
                    }
                    if let Some(piece) = piece {
                        if let Some(i) = choices.iter().position(|&c| c == Some(piece)) {
                            let label = self.primary(p.choices[i].span, "the piece that promotes");
                            self.error(format!("`{}` cannot promote to itself", p.piece.text), vec![label], vec![
                                "note: a piece that reaches its promotion zone must become another piece; one that stayed would stand where no position allows it".into(),
                                format!("help: remove `{}` from the choices", p.choices[i].text),
                            ]);
                            continue;
                        }
                    }
                    if let Some(i) = choices.iter().position(|c| c.is_some_and(|c| pieces.get(c).is_some_and(|k| k.royal))) {
                        let label = self.primary(p.choices[i].span, "a royal piece");
                        self.error(format!("`{}` cannot promote to the royal piece `{}`", p.piece.text, p.choices[i].text), vec![label], vec![
                            "note: the new royal piece could stand attacked, and legality judges a promotion as the move of the piece that promotes; orbis does not support promotion to a royal piece".into(),
                            format!("help: remove `{}` from the choices, or make it a piece that is not royal", p.choices[i].text),
                        ]);
                        continue;
                    }
                    if let (Some(piece), Some(choices), Some(zone)) = (piece, choices.into_iter().collect::<Option<Vec<_>>>(), zone) {
                        let mut unique = Vec::new();
                        for c in choices {
                            push_unique(&mut unique, c);
                        }
                        if p.from_or_to && !p.optional {
                            let label = self.primary(p.span, "`from-or-to` without `optional`");
                            self.error(format!("side `{}`: a promotion counting the start cell must be optional", s.name.text), vec![label], vec![
                                "note: a piece may stand in a zone it promotes in only where promotion is optional; add `optional`".into(),
                            ]);
                            continue;
                        }
                        promotions.push(model::Promotion { piece, choices: unique, zone, captured: p.captured, optional: p.optional, from_or_to: p.from_or_to });
                    }
                }
                ast::SideStmt::Castle(c) => {
                    if let Some(first) = castle_names.get(c.name.text.as_str()) {
                        self.duplicate("castling rule", &c.name.text, *first, c.name.span);
                        continue;
                    }
                    castle_names.insert(&c.name.text, c.name.span);
                    castles.push(c);
                }
                ast::SideStmt::Arrange(a) => {
                    setup_seen = true;
                    let Some(placed) = self.arrange(a, ast_pieces, pieces, board) else {
                        setup_complete = false;
                        continue;
                    };
                    for (cell, piece, span) in placed {
                        let own = board.board.cells[cell].name.clone();
                        if board.board.cells[cell].transit {
                            let label = self.primary(span, format!("`{own}` is a transit cell"));
                            self.error(format!("`{own}` is a transit cell: no piece can stand there"), vec![label], vec![]);
                            continue;
                        }
                        if let Some(first) = occupied.get(&cell) {
                            let labels = vec![self.primary(span, format!("a second piece on `{own}`")), self.secondary(*first, "first placed here")];
                            self.error(format!("two pieces on `{own}`"), labels, vec![]);
                            continue;
                        }
                        occupied.insert(cell, span);
                        setup.push((cell, piece));
                    }
                }
            }
        }

        for (d, name) in directions.iter().enumerate() {
            if declared[d].is_some() {
                continue;
            }
            let Some(use_) = forward_uses.iter().find(|u| u.direction == d) else { continue };
            if d == 0 {
                let labels = vec![
                    self.primary(s.name.span, format!("side `{}` has no `forward`", s.name.text)),
                    self.secondary(use_.span, format!("`{}` moves `forward`", use_.piece)),
                ];
                self.error(format!("side `{}` needs a `forward` heading", s.name.text), labels, vec![
                    "help: add e.g. `forward N` to the side".into(),
                ]);
            } else {
                let labels = vec![
                    self.primary(s.name.span, format!("side `{}` has no direction `{name}`", s.name.text)),
                    self.secondary(use_.span, format!("`{}` moves along `{name}`", use_.piece)),
                ];
                self.error(format!("side `{}` needs the direction `{name}`", s.name.text), labels, vec![format!(
                    "help: add e.g. `direction {name} N` to the side"
                )]);
            }
        }
        let (atop, hand) = self.stacks_and_hand(s, ast_pieces, pieces, board, &setup);
        let royal_in_setup = setup
            .iter()
            .chain(&atop)
            .any(|&(_, p)| pieces.get(p).is_some_and(|p| p.royal))
            || hand.iter().any(|&p| pieces.get(p).is_some_and(|p| p.royal));
        if any_royal && !royal_in_setup && setup_complete {
            let royals: Vec<String> = pieces.iter().filter(|p| p.royal).map(|p| format!("`{}` ({})", p.name, p.symbol)).collect();
            let label = self.primary(s.name.span, if setup_seen { "its setup has no royal piece" } else { "this side has no setup" });
            self.error(format!("side `{}` has no royal piece", s.name.text), vec![label], vec![format!(
                "help: set up one of the royal pieces: {}",
                royals.join(", ")
            )]);
        }

        // Castling must move this side's royal piece and another piece of it.
        let owner: HashMap<CellId, PieceId> = setup.iter().copied().collect();
        let mut model_castles = Vec::new();
        for c in castles {
            let Some(castle) = self.castle(c, board, &setup, pieces, setup_complete) else { continue };
            let king_span = c.fields.iter().find_map(|f| match f {
                ast::CastleField::King { from, span, .. } => Some(from.as_ref().map_or(*span, |f| f.span)),
                _ => None,
            });
            let rook_span = c.fields.iter().find_map(|f| match f {
                ast::CastleField::Rook { from, .. } => Some(from.span),
                _ => None,
            });
            if setup_complete {
                match owner.get(&castle.king_from).and_then(|&p| pieces.get(p)) {
                    Some(p) if p.royal => {}
                    other => {
                        let found = other.map_or("it is empty".to_string(), |p| format!("it holds a `{}`", p.name));
                        let label = self.primary(king_span.unwrap_or(c.name.span), format!("{found} in the setup"));
                        self.error(
                            format!("castling rule `{}` moves a king from `{}`, but the side has no royal piece there", c.name.text, board.board.cells[castle.king_from].name),
                            vec![label],
                            vec![],
                        );
                    }
                }
                if !owner.contains_key(&castle.rook_from) {
                    let label = self.primary(rook_span.unwrap_or(c.name.span), "empty in the setup");
                    self.error(
                        format!("castling rule `{}` moves a rook from `{}`, but the side has no piece there", c.name.text, board.board.cells[castle.rook_from].name),
                        vec![label],
                        vec![],
                    );
                }
            }
            model_castles.push(castle);
        }

        let drops = self.side_drops(s, ast_pieces, pieces, board, &zones);
        let team = team.map_or_else(|| s.name.text.clone(), |t| t.text.clone());
        let side = model::Side {
            name: s.name.text.clone(),
            team,
            directions: side_directions,
            setup,
            atop,
            hand,
            promotions,
            drops,
            castles: model_castles,
            reach,
        };
        (side, zones)
    }

    /// A side's `atop` pieces (each on a setup piece of the side, one per cell) and `hand`
    /// (pieces that `crowns` others only).
    fn stacks_and_hand(
        &mut self,
        s: &ast::Side,
        ast_pieces: &[&ast::Piece],
        pieces: &[model::Piece],
        board: &BoardInfo,
        setup: &[(CellId, PieceId)],
    ) -> (Vec<(CellId, PieceId)>, Vec<PieceId>) {
        let mut atop: Vec<(CellId, PieceId)> = Vec::new();
        let mut hand = Vec::new();
        for stmt in &s.statements {
            match stmt {
                ast::SideStmt::Atop(a) => {
                    for (symbol, cells) in setup_groups(a, ast_pieces, board) {
                        let piece = self.piece_ref(
                            symbol,
                            ast_pieces,
                            pieces,
                            format!(
                                "unknown piece `{}` in `atop` of `{}`",
                                symbol.text, s.name.text
                            ),
                        );
                        for cell_name in cells {
                            let Some(found) = self.cell_item(cell_name, board, " on this board") else {
                                continue;
                            };
                            for cell in found {
                                let own = &board.board.cells[cell].name;
                                if !setup.iter().any(|&(c, _)| c == cell) {
                                    let label =
                                        self.primary(cell_name.span, "no piece of the side beneath");
                                    self.error(format!("nothing to stand on at `{own}`"), vec![label], vec![format!(
                                        "note: `atop` puts a piece on top of one of the side's own setup pieces; `{own}` holds none"
                                    )]);
                                    continue;
                                }
                                if atop.iter().any(|&(c, _)| c == cell) {
                                    let label = self.primary(cell_name.span, "a third piece");
                                    self.error(
                                        format!("two pieces atop `{own}`"),
                                        vec![label],
                                        vec!["note: stacks hold two pieces".into()],
                                    );
                                    continue;
                                }
                                if let Some(p) = piece {
                                    if !pieces[p].crowns.is_empty() {
                                        let label =
                                            self.primary(symbol.span, "carried by other pieces");
                                        self.error(format!("`{}` cannot stand atop a piece", symbol.text), vec![label], vec![
                                            "help: put it in the side's `hand`: it enters by crowning a piece".into(),
                                        ]);
                                        continue;
                                    }
                                    atop.push((cell, p));
                                }
                            }
                        }
                    }
                }
                ast::SideStmt::Hand { symbols, .. } => {
                    for sym in symbols {
                        let Some(p) = self.piece_ref(
                            sym,
                            ast_pieces,
                            pieces,
                            format!(
                                "unknown piece `{}` in the hand of `{}`",
                                sym.text, s.name.text
                            ),
                        ) else {
                            continue;
                        };
                        if pieces[p].royal && pieces[p].crowns.is_empty() {
                            let label = self.primary(sym.span, "a royal piece that does not `crowns` others");
                            self.error(format!("`{}` cannot start in the hand", sym.text), vec![label], vec![
                                "note: pieces in the hand enter play by crowning a piece they name in `crowns`, or, not royal, by a drop onto an empty cell".into(),
                            ]);
                            continue;
                        }
                        if pieces[p].crowns.is_empty() && ast_pieces[p].captured_as.is_some() {
                            let label = self.primary(sym.span, "a promoted piece (`captured-as`)");
                            self.error(format!("`{}` cannot start in the hand", sym.text), vec![label], vec![
                                "note: a hand holds unpromoted pieces: a captured promoted piece goes there as the piece it names in `captured-as`".into(),
                            ]);
                            continue;
                        }
                        if !pieces[p].crowns.is_empty() && hand.contains(&p) {
                            let label = self.primary(sym.span, "a second one");
                            self.error(
                                format!("two `{}` in the hand of `{}`", sym.text, s.name.text),
                                vec![label],
                                vec!["note: each crowning piece is held once".into()],
                            );
                            continue;
                        }
                        hand.push(p);
                    }
                }
                _ => {}
            }
        }
        (atop, hand)
    }

    /// A piece named by symbol (as in FEN and setups) or by name.
    pub(super) fn piece_ref(&mut self, name: &ast::Name, ast_pieces: &[&ast::Piece], pieces: &[model::Piece], message: String) -> Option<PieceId> {
        if let Some(i) = pieces.iter().position(|p| p.symbol.to_string() == name.text) {
            return Some(i);
        }
        if let Some(i) = ast_pieces.iter().position(|p| p.name.text == name.text) {
            return Some(i);
        }
        if !self.symbols_complete {
            return None;
        }
        let candidates: Vec<String> = pieces.iter().map(|p| p.symbol.to_string()).chain(pieces.iter().map(|p| p.name.clone())).collect();
        let mut notes = Vec::new();
        if let Some(best) = closest(&name.text, candidates.iter().map(String::as_str)) {
            notes.push(format!("help: did you mean `{best}`?"));
        }
        let symbols: Vec<String> = pieces.iter().filter(|p| p.symbol != '?').map(|p| format!("{} ({})", p.symbol, p.name)).collect();
        if !symbols.is_empty() {
            notes.push(format!("note: the pieces are {}", symbols.join(", ")));
        }
        let label = self.primary(name.span, "no piece has this symbol or name");
        self.error(message, vec![label], notes);
        None
    }

    /// The board's complex of polygons, for zones that need one (`what` names the zone form).
    fn polygon_complex<'b>(&mut self, board: &'b BoardInfo, span: Span, what: &str) -> Option<&'b crate::complex::Complex> {
        if board.board.complex.is_none() {
            let label = self.primary(span, "this board is not made of polygons");
            self.error(format!("`{what}` zone on a board without polygon cells"), vec![label], vec![
                "note: borders and holes come from the gluing of a board built with `polygon`, `mesh`, `box` or `web`".into(),
            ]);
        }
        board.board.complex.as_ref()
    }

    pub(super) fn zone(&mut self, zone: &ast::Zone, board: &BoardInfo, zones: &HashMap<String, Vec<CellId>>) -> Option<Vec<CellId>> {
        let grid = board.board.grid.as_ref();
        match zone {
            ast::Zone::Named { name, .. } => match zones.get(&name.text) {
                Some(cells) => Some(cells.clone()),
                None => {
                    self.unknown("zone", name, " in this side (declare it with `zone NAME ...`)", zones.keys().map(String::as_str));
                    None
                }
            },
            ast::Zone::Sides { count, span } => {
                let Some(complex) = &board.board.complex else {
                    let label = self.primary(*span, "this board is not made of polygons");
                    self.error("`sides` zone on a board without polygon cells", vec![label], vec!["note: `sides N` takes the cells of N sides of a board built with `polygon`, `mesh`, `box` or `web`".into()]);
                    return None;
                };
                let cells: Vec<CellId> = (0..complex.len()).filter(|&c| complex.degree(c) as i64 == count.value).collect();
                if cells.is_empty() && board.cells_complete {
                    let mut degrees: Vec<usize> = (0..complex.len()).map(|c| complex.degree(c)).collect();
                    degrees.sort();
                    degrees.dedup();
                    let label = self.primary(*span, format!("no cell has {} sides", count.value));
                    self.error("empty zone", vec![label], vec![format!("note: the cells of this board have {} sides", degrees.iter().map(usize::to_string).collect::<Vec<_>>().join(", "))]);
                    return None;
                }
                Some(cells)
            }
            ast::Zone::Around { cell, .. } => {
                let c = self.cell(cell, &board.cells_by_name, board.cells_complete, " on this board")?;
                let h = board.board.headings.len();
                let mut out = Vec::new();
                for heading in 0..h {
                    if let Some((d, _)) = board.board.step(c, heading) {
                        if d != c {
                            push_unique(&mut out, d);
                        }
                    }
                }
                Some(out)
            }
            ast::Zone::Ring { cell, span } => {
                let complex = self.polygon_complex(board, *span, "ring")?;
                let c = self.cell(cell, &board.cells_by_name, board.cells_complete, " on this board")?;
                let holes = complex.holes();
                match holes.iter().find(|h| h.contains(&c)) {
                    Some(ring) => Some(ring.clone()),
                    None => {
                        let label = self.primary(cell.span, "no side of this cell is on the border");
                        self.error(format!("`{}` is on no hole's border", cell.text), vec![label], vec!["note: `ring CELL` is the cells round the same hole (a void) as CELL".into()]);
                        None
                    }
                }
            }
            ast::Zone::Border { span, inner } => {
                let complex = self.polygon_complex(board, *span, if *inner { "inner" } else { "border" })?;
                Some((0..complex.len()).filter(|&c| complex.sides[c].iter().any(Option::is_none) != *inner).collect())
            }
            ast::Zone::Lines { dirs, through, .. } => {
                let hs = self.heading_set(dirs, board, None);
                let cell = self.cell(through, &board.cells_by_name, board.cells_complete, " on this board");
                let (hs, cell) = (hs?, cell?);
                let mut out = vec![cell];
                for h in hs {
                    let mut seen = HashSet::new();
                    let (mut c, mut heading) = (cell, h);
                    while let Some((n, nh)) = board.board.step(c, heading) {
                        if n == cell || !seen.insert((n, nh)) {
                            break;
                        }
                        push_unique(&mut out, n);
                        (c, heading) = (n, nh);
                    }
                }
                Some(out)
            }
            ast::Zone::Rank { rank, to, .. } | ast::Zone::File { file: rank, to, .. } => {
                let is_rank = matches!(zone, ast::Zone::Rank { .. });
                let what = if is_rank { "rank" } else { "file" };
                let Some(grid) = grid else {
                    if board.cells_complete {
                        let label = self.primary(zone.span(), format!("this board has no grid, so no {what}s"));
                        self.error(format!("`{what}` zone without a grid"), vec![label], vec!["help: list the cells: `on cells { ... }`".into()]);
                    }
                    return None;
                };
                let labels = if is_rank { &grid.ranks } else { &grid.files };
                let index_of = |fe: &mut Frontend, name: &ast::Name| {
                    let index = labels.iter().position(|l| *l == name.text);
                    if index.is_none() {
                        let span = match (labels.first(), labels.last()) {
                            (Some(a), Some(b)) => format!(" (this board's {what}s are {a} to {b})"),
                            _ => String::new(),
                        };
                        fe.unknown(what, name, &span, labels.iter().map(String::as_str));
                    }
                    index
                };
                let first = index_of(self, rank);
                let last = match to {
                    Some(to) => index_of(self, to),
                    None => first,
                };
                let (first, last) = (first?, last?);
                if first > last {
                    let label = self.primary(zone.span(), format!("`{}` comes after `{}` on this board", labels[first], labels[last]));
                    self.error(format!("empty {what} range"), vec![label], vec![format!("help: write `{}..{}`", labels[last], labels[first])]);
                    return None;
                }
                let width = grid.files.len();
                let at: Vec<CellId> = (first..=last)
                    .flat_map(|index| -> Vec<Option<CellId>> {
                        if is_rank {
                            (0..width).map(|x| grid.cell_at.get(index * width + x).copied().flatten()).collect()
                        } else {
                            (0..grid.ranks.len()).map(|y| grid.cell_at.get(y * width + index).copied().flatten()).collect()
                        }
                    })
                    .flatten()
                    .collect();
                // An identified position names a cell that may be listed already.
                let mut cells = Vec::new();
                for c in at {
                    push_unique(&mut cells, c);
                }
                Some(cells)
            }
            ast::Zone::Cells { span, cells } => {
                if cells.is_empty() {
                    let label = self.primary(*span, "no cells");
                    self.error("empty promotion zone", vec![label], vec![]);
                    return None;
                }
                let mut out = Vec::new();
                let mut ok = true;
                for c in cells {
                    match self.cell_item(c, board, " on this board") {
                        Some(found) => found.into_iter().for_each(|id| push_unique(&mut out, id)),
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
        }
    }

    // ------------------------------------------------------------ rules

    pub(super) fn rules(&mut self, block: Option<&ast::Rules>) -> model::Rules {
        let mut rules = model::Rules::default();
        let Some(block) = block else { return rules };
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        for s in &block.settings {
            let word = s.kind.keyword();
            if let Some(first) = seen.get(word) {
                let labels = vec![self.primary(s.span, "set again here"), self.secondary(*first, "first set here")];
                self.error(format!("`{word}` is set twice"), labels, vec![]);
                continue;
            }
            seen.insert(word, s.span);
            match s.kind {
                ast::SettingKind::Stalemate(o) => {
                    rules.stalemate = match o {
                        ast::Outcome::Draw => model::Outcome::Draw,
                        ast::Outcome::Win => model::Outcome::Win,
                        ast::Outcome::Loss => model::Outcome::Loss,
                    }
                }
                ast::SettingKind::StationaryMoves { allowed } => rules.stationary_moves = allowed,
                ast::SettingKind::GameEnd(g) => {
                    rules.last_standing = g == ast::GameEnd::LastStanding
                }
                ast::SettingKind::Eliminated(e) => {
                    rules.remove_eliminated = e == ast::Eliminated::Remove
                }
                ast::SettingKind::Bare(o, counting) => {
                    if counting && o.is_none() {
                        let label = self.primary(s.span, "nothing to count for");
                        self.error("`counting-move` with `bare ignored`", vec![label], vec![
                            "note: `counting-move` gives the bare side one more move before `bare` decides the game; with `ignored` nothing is decided".into(),
                        ]);
                    }
                    rules.bare_counting = counting;
                    rules.bare = o.map(|o| match o {
                        ast::Outcome::Draw => model::Outcome::Draw,
                        ast::Outcome::Win => model::Outcome::Win,
                        ast::Outcome::Loss => model::Outcome::Loss,
                    })
                }
                ast::SettingKind::RoyalPath { unattacked } => {
                    rules.royal_path_unattacked = unattacked
                }
                ast::SettingKind::Extinction => {}
                ast::SettingKind::Drops => rules.drops = true,
                ast::SettingKind::Pass => rules.pass = true,
                // Resolved with the board (`Frontend::facing`).
                ast::SettingKind::Facing => {}
                ast::SettingKind::CheckLimit(n) => match u8::try_from(n.value) {
                    Ok(v) if v > 0 => rules.check_limit = v,
                    _ => {
                        let label = self.primary(n.span, "out of range");
                        self.error(format!("check-limit {} is out of range", n.value), vec![label], vec!["note: the limit is 1 to 255 checks".into()]);
                    }
                },
                ast::SettingKind::Setup(n) => {
                    if !(0..MAX_ARRANGEMENTS as i64).contains(&n.value) {
                        let label = self.primary(n.span, "out of range");
                        self.error(format!("setup number {} is out of range", n.value), vec![label], vec![format!("note: setup numbers are 0 to {}", MAX_ARRANGEMENTS - 1)]);
                    }
                }
                ast::SettingKind::FiftyMove(n) => match u16::try_from(n.value) {
                    Ok(v) => rules.fifty_move = u32::from(v),
                    Err(_) => {
                        let label = self.primary(n.span, "out of range");
                        self.error("`fifty-move` must be between 0 (off) and 65535 plies", vec![label], vec![]);
                    }
                },
                ast::SettingKind::Repetition(n) => match u8::try_from(n.value) {
                    Ok(v) if v != 1 => rules.repetition = u32::from(v),
                    _ => {
                        let label = self.primary(n.span, "out of range");
                        self.error("`repetition` must be 0 (off) or between 2 and 255", vec![label], vec![]);
                    }
                },
            }
        }
        rules
    }

    /// The headings of `facing GROUP` (royal pieces, which every variant has, face each other).
    pub(super) fn facing(&mut self, group: &ast::Name, board: &BoardInfo) -> Vec<HeadingId> {
        self.heading_set(&ast::DirSet::Name(group.clone()), board, None).unwrap_or_default()
    }
}

/// A setup's (or `atop`'s) groups: a piece symbol and its cells. A lone capital that names a
/// cell and no piece (the soccer ball's pentagon `A`) is a cell of the group before it.
fn setup_groups<'a>(
    setup: &'a ast::Setup,
    ast_pieces: &[&ast::Piece],
    board: &BoardInfo,
) -> Vec<(&'a ast::Name, Vec<&'a ast::Name>)> {
    let mut groups: Vec<(&ast::Name, Vec<&ast::Name>)> = Vec::new();
    for group in &setup.groups {
        let is_piece = ast_pieces
            .iter()
            .any(|p| p.symbol.text == group.symbol.text || p.name.text == group.symbol.text);
        match groups.last_mut() {
            Some((_, cells))
                if !is_piece
                    && (board.cells_by_name.contains_key(&group.symbol.text)
                        || !board.cells_complete) =>
            {
                cells.push(&group.symbol);
                cells.extend(group.cells.iter());
            }
            _ => groups.push((&group.symbol, group.cells.iter().collect())),
        }
    }
    groups
}
