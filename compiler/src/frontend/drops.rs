//! Pieces in hand and drops (docs/language.md, "Pieces in hand and drops"): the pieces'
//! `captured-as` and `fen` tokens, the sides' `drop` limits, and what drops cannot be combined
//! with.

use super::*;

impl Frontend {
    /// Resolves each piece's `captured-as` (another piece, itself never captured as a third) and
    /// checks its `fen` token (`+X` or `X~`, unique).
    pub(super) fn piece_hand_forms(&mut self, ast_pieces: &[&ast::Piece], pieces: &mut [model::Piece]) {
        let mut tokens: HashMap<String, Span> = HashMap::new();
        for (i, p) in ast_pieces.iter().enumerate() {
            if let Some(fen) = &p.fen {
                let t = fen.text.as_str();
                let letter = t.strip_prefix('+').or_else(|| t.strip_suffix('~'));
                let ok = letter.is_some_and(|l| l.len() == 1 && l.chars().all(|c| c.is_ascii_uppercase()));
                if !ok {
                    let label = self.primary(fen.span, "not `+X` or `X~`");
                    self.error(format!("`{}` is no FEN token of a promoted piece", fen.text), vec![label], vec![
                        "note: a piece's FEN token is its symbol unless it is a promoted form: `+P` (Shogi) or `Q~` (Crazyhouse), with an upper-case letter".into(),
                    ]);
                } else if let Some(first) = tokens.get(t) {
                    self.duplicate("FEN token", t, *first, fen.span);
                } else {
                    tokens.insert(t.to_string(), fen.span);
                    if let Some(piece) = pieces.get_mut(i) {
                        piece.fen = Some(t.to_string());
                    }
                }
            }
            let Some(name) = &p.captured_as else { continue };
            let Some(k) = self.piece_ref(name, ast_pieces, pieces, format!("unknown piece `{}` in `captured-as`", name.text)) else { continue };
            let problem = if k == i {
                Some("the piece itself")
            } else if ast_pieces[k].captured_as.is_some() {
                Some("itself captured as another piece")
            } else if ast_pieces[k].royal.is_some() {
                Some("a royal piece, which no hand holds")
            } else if p.royal.is_some() {
                Some("but royal pieces are never captured")
            } else {
                None
            };
            match problem {
                Some(why) => {
                    let label = self.primary(name.span, why);
                    self.error(format!("`{}` cannot be captured as `{}`", p.name.text, name.text), vec![label], vec![
                        "note: `captured-as` names the unpromoted piece a captured promoted piece returns to the hand as".into(),
                    ]);
                }
                None => {
                    if let Some(piece) = pieces.get_mut(i) {
                        piece.captured_as = Some(k);
                    }
                }
            }
        }
    }

    /// A side's `drop` statements: per piece named, the cells it may not be dropped on and its
    /// limits. A piece named in two statements collects both.
    pub(super) fn side_drops(
        &mut self,
        s: &ast::Side,
        ast_pieces: &[&ast::Piece],
        pieces: &[model::Piece],
        board: &BoardInfo,
        zones: &HashMap<String, Vec<CellId>>,
    ) -> Vec<model::DropRule> {
        let mut out: Vec<model::DropRule> = Vec::new();
        for stmt in &s.statements {
            let ast::SideStmt::Drop(d) = stmt else { continue };
            if let Some(span) = d.one_per_file {
                if board.board.grid.is_none() {
                    let label = self.primary(span, "this board has no files");
                    self.error("`one-per-file` needs a grid board", vec![label], vec![
                        "note: a file is a column of the grid (cells of one file letter); boards of polygons and boards of links have none".into(),
                    ]);
                }
            }
            let mut forbidden = Vec::new();
            for z in &d.not_on {
                if let Some(cells) = self.zone(z, board, zones) {
                    for c in cells {
                        push_unique(&mut forbidden, c);
                    }
                }
            }
            for name in &d.pieces {
                let Some(k) = self.piece_ref(name, ast_pieces, pieces, format!("unknown piece `{}` to drop", name.text)) else { continue };
                if pieces[k].royal || !pieces[k].crowns.is_empty() || pieces[k].captured_as.is_some() {
                    let why = if pieces[k].royal {
                        "royal: never captured, never in the hand"
                    } else if pieces[k].captured_as.is_some() {
                        "a promoted form: it goes to the hand as the piece it was promoted from"
                    } else {
                        "it enters by crowning"
                    };
                    let label = self.primary(name.span, why);
                    self.error(format!("`{}` is never dropped", name.text), vec![label], vec![]);
                    continue;
                }
                let i = match out.iter().position(|r| r.piece == k) {
                    Some(i) => i,
                    None => {
                        out.push(model::DropRule { piece: k, ..Default::default() });
                        out.len() - 1
                    }
                };
                let rule = &mut out[i];
                for &c in &forbidden {
                    push_unique(&mut rule.forbidden, c);
                }
                rule.one_per_file |= d.one_per_file.is_some() && board.board.grid.is_some();
                rule.no_mate |= d.no_mate.is_some();
            }
        }
        out
    }

    /// What drops cannot be combined with (stacks and crowning), and `drop` statements that could
    /// never apply (no piece ever reaches the hand).
    pub(super) fn check_drops(&mut self, ast_sides: &[&ast::Side], pieces: &[model::Piece], sides: &[model::Side], rules: &model::Rules, block: Option<&ast::Rules>) {
        let droppable_in_hand = sides.iter().any(|s| s.hand.iter().any(|&k| pieces[k].crowns.is_empty()));
        let drops_span = block.and_then(|b| b.settings.iter().find(|s| s.kind == ast::SettingKind::Drops)).map(|s| s.span);
        if rules.drops || droppable_in_hand {
            if sides.len() != 2 {
                let label = self.primary(drops_span.unwrap_or_default(), format!("{} sides", sides.len()));
                self.error("drops need a game of two sides", vec![label], vec![
                    "note: a side going out of a game of several would have to give up its hand; not in the language yet".into(),
                ]);
            }
            let crowning = pieces.iter().any(|p| !p.crowns.is_empty());
            let stacks = sides.iter().any(|s| !s.atop.is_empty());
            if crowning || stacks {
                let span = drops_span
                    .or_else(|| ast_sides.iter().flat_map(|s| &s.statements).find_map(|st| match st {
                        ast::SideStmt::Hand { span, .. } => Some(*span),
                        _ => None,
                    }))
                    .unwrap_or_default();
                let label = self.primary(span, "pieces are dropped from the hand here");
                let what = if crowning { "crowning (`crowns`)" } else { "stacks (`atop`)" };
                self.error(format!("drops cannot be combined with {what}"), vec![label], vec![
                    "note: a captured stack or crowned piece would have to go to the hand as two pieces; not in the language yet".into(),
                ]);
            }
            return;
        }
        for s in ast_sides {
            for st in &s.statements {
                if let ast::SideStmt::Drop(d) = st {
                    let label = self.primary(d.span, "no piece ever reaches the hand");
                    self.error("`drop` limits without drops", vec![label], vec![
                        "help: add `drops` to the `rules` (captured pieces go to the capturer's hand) or put pieces in the side's `hand`".into(),
                    ]);
                }
            }
        }
    }
}
