//! Pieces: names and symbols, move rules (legs, modifiers, directions) and pieces' own step
//! functions for seams declared `for` them.

use super::*;

impl Frontend {

    pub(super) fn pieces(
        &mut self,
        pieces: &[&ast::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &mut Vec<ForwardUse>,
        pending_on: &mut Vec<(PieceId, usize, PendingOn, Span, bool)>,
    ) -> Vec<model::Piece> {
        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut symbols: HashMap<char, Span> = HashMap::new();
        let mut symbols_complete = true;
        let mut out = Vec::new();
        for p in pieces {
            if let Some(first) = names.get(p.name.text.as_str()) {
                self.duplicate("piece", &p.name.text, *first, p.name.span);
            }
            names.insert(&p.name.text, p.name.span);
            let symbol = match self.symbol(&p.symbol, "piece symbol") {
                Some(c) => {
                    if let Some(first) = symbols.get(&c) {
                        self.duplicate("piece symbol", &c.to_string(), *first, p.symbol.span);
                    }
                    symbols.insert(c, p.symbol.span);
                    c
                }
                None => {
                    symbols_complete = false;
                    // Keep resolving setups with the evident intent (`b` -> `B`), quietly.
                    recovered_symbol(&p.symbol.text)
                }
            };
            if p.rules.is_empty() && p.crowns.is_empty() {
                let label = self.primary(p.name.span, "this piece cannot move");
                self.error(format!("piece `{}` has no move rule", p.name.text), vec![label], vec![
                    "help: add a rule inside the braces, e.g. `step all` or `slide orth`".into(),
                ]);
            }
            if let (Some(c), Some(r)) = (p.crowns.first(), p.rules.first()) {
                let labels = vec![
                    self.primary(r.span, "a move of its own"),
                    self.secondary(c.span, "carried by another piece"),
                ];
                self.error(format!("piece `{}` both `crowns` and moves", p.name.text), labels, vec![
                    "note: a piece that `crowns` another has no moves of its own: it moves with the piece that carries it".into(),
                ]);
            }
            if let Some(c) = p.crowns.get(1) {
                let label = self.primary(c.span, "a second `crowns`");
                self.error(
                    format!("piece `{}` has two `crowns` lists", p.name.text),
                    vec![label],
                    vec!["help: list every kind that may carry it in one `crowns`".into()],
                );
            }
            let mut rules = Vec::new();
            for r in &p.rules {
                if let Some(ast::LegDirs::Betza { text, .. }) = r.legs.first().map(|l| &l.dirs) {
                    let expanded = self.betza(r, text, p, board, forward_uses);
                    let (on, onto, _) = self.places(r, board);
                    for rule in expanded.into_iter().flatten() {
                        if let Some((on, span)) = &on {
                            pending_on.push((out.len(), rules.len(), on.clone(), *span, false));
                        }
                        if let Some((onto, span)) = &onto {
                            pending_on.push((out.len(), rules.len(), onto.clone(), *span, true));
                        }
                        rules.push(rule);
                    }
                    continue;
                }
                if let Some((rule, on, onto)) = self.rule(r, p, pieces, board, directions, forward_uses) {
                    if let Some((on, span)) = on {
                        pending_on.push((out.len(), rules.len(), on, span, false));
                    }
                    if let Some((onto, span)) = onto {
                        pending_on.push((out.len(), rules.len(), onto, span, true));
                    }
                    rules.push(rule);
                }
            }
            out.push(model::Piece {
                name: p.name.text.clone(),
                symbol,
                royal: p.royal.is_some(),
                resets_clock: p.resets_clock.is_some(),
                cannot_check: p.cannot_check.is_some(),
                crowns: Vec::new(),
                crowned: None,
                captured_as: None,
                fen: None,
                rules,
                geometry: None,
            });
        }
        // Carriers are named by symbol or name, once every piece is known.
        for (i, p) in pieces.iter().enumerate() {
            let Some(c) = p.crowns.first() else { continue };
            let mut carriers = Vec::new();
            for name in &c.carriers {
                let found = pieces
                    .iter()
                    .position(|q| q.symbol.text == name.text || q.name.text == name.text);
                match found {
                    None => self.unknown(
                        "piece",
                        name,
                        " that could carry it",
                        pieces.iter().map(|q| q.name.text.as_str()),
                    ),
                    Some(k) if !pieces[k].crowns.is_empty() => {
                        let label = self.primary(name.span, "itself carried");
                        self.error(format!("`{}` cannot carry `{}`", name.text, p.name.text), vec![label], vec![
                            "note: a carrier stands on the board; pieces that `crowns` others never do".into(),
                        ]);
                    }
                    Some(k) => push_unique(&mut carriers, k),
                }
            }
            out[i].crowns = carriers;
        }
        if !pieces.is_empty() && !pieces.iter().any(|p| p.royal.is_some()) {
            // Point at the piece most likely meant to be royal.
            let king = pieces.iter().find(|p| p.name.text.to_lowercase().contains("king")).unwrap_or(&pieces[0]);
            let label = self.primary(king.name.span, "not marked `royal`");
            self.error("no piece is royal", vec![label], vec![
                format!("help: mark the piece whose capture loses, e.g. `piece {} {} royal {{ ... }}`", king.name.text, king.symbol.text),
                "note: check, checkmate and castling are about royal pieces".into(),
            ]);
        }
        self.symbols_complete = symbols_complete;
        out
    }

    /// A piece symbol or FEN letter: exactly one upper-case ASCII letter.
    pub(super) fn symbol(&mut self, name: &ast::Name, what: &str) -> Option<char> {
        let mut chars = name.text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => Some(c),
            (Some(c), None) if c.is_ascii_lowercase() => {
                let label = self.primary(name.span, "lower case");
                self.error(format!("a {what} must be an upper-case letter"), vec![label], vec![format!(
                    "help: write `{}`; the second side's FEN uses the lower-case letter",
                    c.to_ascii_uppercase()
                )]);
                None
            }
            _ => {
                let label = self.primary(name.span, "not a single letter");
                let note = if what == "piece symbol" {
                    "note: symbols are used in FEN, one letter per piece".to_string()
                } else {
                    "note: each castling rule is one letter of FEN's castling field (`K` and `Q` for the orthodox rules, or the rook's file in upper case); write one letter per rule".to_string()
                };
                self.error(format!("a {what} must be a single letter, found `{}`", name.text), vec![label], vec![note]);
                None
            }
        }
    }

    /// A checked rule, and its `on ...` (resolved once the sides are known).
    #[allow(clippy::type_complexity)]
    pub(super) fn rule(
        &mut self,
        r: &ast::Rule,
        piece: &ast::Piece,
        all: &[&ast::Piece],
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &mut Vec<ForwardUse>,
    ) -> Option<(
        model::MoveRule,
        Option<(PendingOn, Span)>,
        Option<(PendingOn, Span)>,
    )> {
        use ast::ModifierKind::*;
        let mut seen: HashMap<ast::ModifierKind, Span> = HashMap::new();
        for m in &r.modifiers {
            if let Some(first) = seen.get(&m.kind) {
                let labels = vec![self.primary(m.span, "repeated"), self.secondary(*first, "first here")];
                self.error(format!("modifier `{}` given twice", m.kind.keyword()), labels, vec![]);
            }
            seen.insert(m.kind, m.span);
        }
        let mut ok = true;
        if let (Some(&a), Some(&b)) = (seen.get(&MoveOnly), seen.get(&CaptureOnly)) {
            let labels = vec![self.primary(b, "must capture"), self.secondary(a, "may not capture")];
            self.error("`move-only` and `capture-only` contradict each other", labels, vec![]);
            ok = false;
        }
        if let (Some(&a), Some(&b)) = (seen.get(&MoveOnly), seen.get(&EnPassant)) {
            let labels = vec![self.primary(b, "en passant is a capture"), self.secondary(a, "but this rule may not capture")];
            self.error("`en-passant` on a `move-only` rule", labels, vec![]);
            ok = false;
        }
        if let (Some(&i), None) = (seen.get(&Initial), seen.get(&MoveOnly)) {
            let label = self.primary(i, "this rule may capture");
            self.error("`initial` is only supported on `move-only` rules", vec![label], vec![
                "note: attack tests do not know whether a piece has moved, so a capture that depends on it cannot be checked"
                    .into(),
                "help: add `move-only`, or drop `initial`".into(),
            ]);
            ok = false;
        }
        let slides = r.legs.iter().any(|l| l.slides);
        for kind in [EnPassantTarget, EnPassant] {
            if let (Some(&m), true) = (seen.get(&kind), slides) {
                let label = self.primary(m, "on a sliding rule");
                self.error(format!("`{}` is only supported on rules made of steps", kind.keyword()), vec![label], vec![
                    "help: write the move as `step` legs, e.g. `step forward then step straight`".into(),
                ]);
                ok = false;
            }
        }
        if let Some(&m) = seen.get(&Ride) {
            ok &= self.ride_checks(r, m, &seen);
        }
        let mode = if seen.contains_key(&MoveOnly) {
            model::Mode::MoveOnly
        } else if seen.contains_key(&CaptureOnly) {
            model::Mode::CaptureOnly
        } else {
            model::Mode::Both
        };

        let (first, rest) = r.legs.split_first()?;
        let (hop, over, takes) = self.hop_parts(r, &seen, all);
        ok &= hop.is_ok() && over.is_ok() && takes.is_ok();
        let (hop, over, takes) = (hop.unwrap_or(None), over.unwrap_or(None), takes.unwrap_or(None));
        let mut distance = None;
        let mut wind = None;
        let first_dirs = match &first.dirs {
            ast::LegDirs::Wind { dirs, zone, .. } => {
                let headings = self.heading_set(dirs, board, None);
                let cells = self.zone(zone, board, &HashMap::new());
                match (headings, cells) {
                    (Some(h), Some(mut c)) => {
                        c.sort_unstable();
                        c.dedup();
                        wind = Some((h, c));
                    }
                    _ => ok = false,
                }
                Some(model::Dirs::Headings(Vec::new()))
            }
            ast::LegDirs::Dirs(d) => self.dirs(d, piece, board, directions, forward_uses),
            ast::LegDirs::Distance { steps, by, .. } => {
                if let Some(next) = rest.first() {
                    let label = self.primary(next.span, "a further leg");
                    self.error("`distance` is a whole rule", vec![label], vec![
                        "note: `distance N` leaps to every cell N steps away; it takes no further legs".into(),
                    ]);
                    ok = false;
                }
                if !(1..=MAX_DISTANCE as i64).contains(&steps.value) {
                    let label = self.primary(steps.span, "out of range");
                    self.error(
                        format!("`distance` must be between 1 and {MAX_DISTANCE}"),
                        vec![label],
                        vec![],
                    );
                    ok = false;
                }
                let by = match by {
                    Some(set) => self.heading_set(set, board, None),
                    None => Some((0..board.board.headings.len()).collect()),
                };
                if let Some(by) = by {
                    distance = Some((steps.value.clamp(1, MAX_DISTANCE as i64) as u32, by));
                } else {
                    ok = false;
                }
                Some(model::Dirs::Headings(Vec::new()))
            }
            other => {
                let (span, word) = match other {
                    ast::LegDirs::Straight(s) => (*s, "`straight`"),
                    ast::LegDirs::Turn(t) => (t.span, "`turn`"),
                    ast::LegDirs::Dirs(_) | ast::LegDirs::Distance { .. } | ast::LegDirs::Wind { .. } | ast::LegDirs::Betza { .. } => {
                        (first.span, "")
                    }
                };
                let label = self.primary(span, "the first leg has no heading to keep or turn");
                self.error(format!("{word} used in the first leg"), vec![label], vec![
                    "help: start with headings, e.g. `step orth` or `slide forward`; `straight` and `turn` continue after `then`".into(),
                ]);
                None
            }
        };
        let mut legs = Vec::new();
        for leg in rest {
            let turns = match &leg.dirs {
                ast::LegDirs::Straight(_) => vec![0],
                ast::LegDirs::Turn(t) => self.turns(t),
                ast::LegDirs::Distance { span, .. } | ast::LegDirs::Wind { span, .. } | ast::LegDirs::Betza { span, .. } => {
                    let label = self.primary(*span, "in a later leg");
                    self.error("`distance` is a whole rule", vec![label], vec![
                        "note: `distance N` leaps to every cell N steps away; write it as the rule's only leg".into(),
                    ]);
                    ok = false;
                    continue;
                }
                ast::LegDirs::Dirs(d) => {
                    let label = self.primary(d.span, "a leg after `then` continues the heading the piece arrived with");
                    self.error("headings given in a later leg", vec![label], vec![
                        "help: write `straight` to keep the heading or `turn K` to rotate it".into(),
                    ]);
                    ok = false;
                    continue;
                }
            };
            let avoid = self.avoid(&leg.avoid, board);
            let Some(avoid_cells) = self.avoid_cells(&leg.avoid_cells, board) else {
                ok = false;
                continue;
            };
            let bending = self.bending(leg);
            legs.push(model::Leg {
                slides: leg.slides,
                turns,
                avoid,
                avoid_cells,
                bending,
            });
        }
        if let (Some(_), Some(zone)) = (&wind, &r.onto) {
            let label = self.primary(zone.span(), "on a winding rule");
            self.error("`onto` does not apply to `wind`", vec![label], vec![
                "help: wind within the cells it may end on: `wind orth within ZONE`".into(),
            ]);
            ok = false;
        }
        let (on, onto, places_ok) = self.places(r, board);
        ok &= places_ok;
        let first = first_dirs?;
        let first_avoid = self.avoid(&r.legs[0].avoid, board);
        let first_avoid_cells = self.avoid_cells(&r.legs[0].avoid_cells, board);
        let first_avoid_cells = first_avoid_cells?;
        let first_bending = self.bending(&r.legs[0]);
        let rule = model::MoveRule {
            mode,
            initial: seen.contains_key(&Initial),
            leap: seen.contains_key(&Leap),
            en_passant_target: seen.contains_key(&EnPassantTarget),
            en_passant: seen.contains_key(&EnPassant),
            across_transit: seen.contains_key(&AcrossTransit),
            ride: seen.contains_key(&Ride),
            span: r.span,
            text: String::new(),
            first,
            first_slides: r.legs.first().is_some_and(|l| l.slides),
            first_avoid,
            first_avoid_cells,
            first_bending,
            distance,
            wind,
            onto: None,
            hop,
            over,
            takes,
            legs,
            origins: None,
        };
        ok.then_some((rule, on, onto))
    }

    /// A rule's `on ...` and `onto ...`, to resolve once the sides are known; false after an error.
    #[allow(clippy::type_complexity)]
    fn places(&mut self, r: &ast::Rule, board: &BoardInfo) -> (Option<(PendingOn, Span)>, Option<(PendingOn, Span)>, bool) {
        let mut ok = true;
        let onto = match &r.onto {
            None => None,
            Some(ast::Zone::Named { name, span }) => Some((PendingOn::Zone(name.clone()), *span)),
            Some(zone) => match self.zone(zone, board, &HashMap::new()) {
                Some(cells) => Some((PendingOn::Cells(cells), zone.span())),
                None => {
                    ok = false;
                    None
                }
            },
        };
        let on = match &r.on {
            None => None,
            Some(on) => match &on.target {
                ast::OnTarget::Zone(name) => Some((PendingOn::Zone(name.clone()), on.span)),
                ast::OnTarget::Form(zone) => match self.zone(zone, board, &HashMap::new()) {
                    Some(cells) => Some((PendingOn::Cells(cells), on.span)),
                    None => {
                        ok = false;
                        None
                    }
                },
                ast::OnTarget::Cells { span, cells } => {
                    if cells.is_empty() {
                        let label = self.primary(*span, "no cells");
                        self.error("empty `on` list", vec![label], vec!["note: a rule `on { }` could never apply".into()]);
                        ok = false;
                    }
                    let mut ids = Vec::new();
                    for c in cells {
                        match self.cell_item(c, board, " on this board") {
                            Some(found) => found.into_iter().for_each(|id| push_unique(&mut ids, id)),
                            None => ok = false,
                        }
                    }
                    Some((PendingOn::Cells(ids), on.span))
                }
            },
        };
        (on, onto, ok)
    }

    /// What `ride` (at `at`) needs: a path of steps, none bending, no `distance` or `wind`, and
    /// none of the modifiers about passed cells.
    fn ride_checks(&mut self, r: &ast::Rule, at: Span, seen: &HashMap<ast::ModifierKind, Span>) -> bool {
        use ast::ModifierKind::*;
        let mut ok = true;
        for leg in &r.legs {
            let problem = match &leg.dirs {
                ast::LegDirs::Distance { .. } | ast::LegDirs::Wind { .. } | ast::LegDirs::Betza { .. } => {
                    Some("a whole rule of its own")
                }
                _ if leg.hop => Some("a hop"),
                _ if leg.slides => Some("a slide"),
                _ if leg.bending.is_some() => Some("a bending leg"),
                _ => None,
            };
            if let Some(what) = problem {
                let labels = vec![self.primary(leg.span, what), self.secondary(at, "repeats the path")];
                self.error("`ride` repeats a path of steps", labels, vec![
                    "help: write the repeated leap as steps, e.g. `ride step orth then step turn +-1` (the nightrider); `slide` already repeats one step".into(),
                ]);
                ok = false;
                break;
            }
        }
        // `leap` is allowed and changes nothing: a ride always leaps within its repetitions.
        for kind in [EnPassantTarget, EnPassant, AcrossTransit] {
            if let Some(&m) = seen.get(&kind) {
                let note = "note: this modifier is about the cells a path passes, which a ride leaps";
                let labels = vec![self.primary(m, "not with `ride`"), self.secondary(at, "here")];
                self.error(format!("`{}` does not combine with `ride`", kind.keyword()), labels, vec![note.into()]);
                ok = false;
            }
        }
        ok
    }

    /// A leg's `bending` turns (only slides bend).
    fn bending(&mut self, leg: &ast::Leg) -> Vec<Vec<i32>> {
        let Some(b) = &leg.bending else {
            return Vec::new();
        };
        if !leg.slides {
            let label = self.primary(b.span, "on a `step`");
            self.error(
                "`bending` needs a `slide`",
                vec![label],
                vec![
                    "note: a slide bends at every step after its first; a single step has none"
                        .into(),
                ],
            );
            return Vec::new();
        }
        b.amounts.iter().map(|t| self.turns(t)).collect()
    }

    /// The cells an `avoid ZONE` names (none without one), sorted; `None` after an error.
    fn avoid_cells(&mut self, zone: &Option<ast::Zone>, board: &BoardInfo) -> Option<Vec<CellId>> {
        let Some(zone) = zone else { return Some(Vec::new()) };
        let mut cells = self.zone(zone, board, &HashMap::new())?;
        cells.sort_unstable();
        cells.dedup();
        Some(cells)
    }

    /// Turn amounts, kept small (a turn by the number of headings is no turn).
    pub(super) fn turns(&mut self, t: &ast::Turn) -> Vec<i32> {
        let mut out = Vec::new();
        for &a in &t.amounts {
            match i32::try_from(a) {
                Ok(a) if a.unsigned_abs() as usize <= MAX_HEADINGS => push_unique(&mut out, a),
                _ => {
                    let label = self.primary(t.span, "too large");
                    self.error(format!("turn by {a} is out of range"), vec![label], vec![]);
                }
            }
        }
        out
    }

    pub(super) fn dirs(
        &mut self,
        d: &ast::Dirs,
        piece: &ast::Piece,
        board: &BoardInfo,
        directions: &[String],
        forward_uses: &mut Vec<ForwardUse>,
    ) -> Option<model::Dirs> {
        let turns = match &d.turn {
            Some(t) => self.turns(t),
            None => vec![0],
        };
        if let ast::DirSet::Name(name) = &d.set {
            let is_board_name = board.headings_by_name.contains_key(&name.text) || board.groups.contains_key(&name.text);
            if let Some(direction) = directions.iter().position(|d| *d == name.text).filter(|_| !is_board_name) {
                forward_uses.push(ForwardUse { direction, piece: piece.name.text.clone(), span: name.span });
                return Some(model::Dirs::Side { direction, turns });
            }
        }
        let headings = self.heading_set(&d.set, board, Some(directions))?;
        let mut out = Vec::new();
        for h in headings {
            for &k in &turns {
                push_unique(&mut out, board.board.rotate(h, k));
            }
        }
        Some(model::Dirs::Headings(out))
    }
}

/// The symbol an invalid one most likely meant (`b` -> `B`), for resolving setups after the error.
fn recovered_symbol(text: &str) -> char {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => '?',
    }
}
