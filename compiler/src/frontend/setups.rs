//! Setups chosen by number (`arrange`: Chess960's 960 arrays and other shuffles) and castling
//! rules, which may take the king's and the rook's start from the setup and derive the cells that
//! must be empty and safe (Chess960 castling).

use super::*;

/// The most ways an arrangement may have (setup numbers fit in 32 bits); docs/limits.md.
pub const MAX_ARRANGEMENTS: u64 = 1 << 32;

/// How the setup number of the `arrange` statements is chosen (`orbis ... --setup N | --seed S`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SetupChoice {
    /// The variant's `rules { setup N }`, else 0.
    #[default]
    Default,
    /// This number (an error when the arrangement has fewer ways).
    Number(u64),
    /// A number drawn from this seed, uniformly over the arrangement's ways.
    Seed(u64),
}

/// SplitMix64: the number drawn from a seed (the same on every platform and version).
pub fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// n choose k, `None` past [`MAX_ARRANGEMENTS`].
fn choose(n: u64, k: u64) -> Option<u64> {
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
        if r > u128::from(MAX_ARRANGEMENTS) {
            return None;
        }
    }
    Some(r as u64)
}

/// The `index`-th k-subset of `0..n` in lexicographic order (index < C(n, k)).
fn unrank(n: u64, k: u64, mut index: u64) -> Vec<usize> {
    let mut out = Vec::new();
    let mut next = 0;
    for left in (1..=k).rev() {
        let mut c = next;
        loop {
            // Subsets starting with `c`: choose the remaining `left - 1` from the cells after it.
            let with = choose(n - c - 1, left - 1).unwrap_or(u64::MAX);
            if index < with {
                break;
            }
            index -= with;
            c += 1;
        }
        out.push(c as usize);
        next = c + 1;
    }
    out
}

impl Frontend {
    /// The pieces an `arrange` statement places for the chosen setup number: (cell, piece, the
    /// span of the step). `None` after reporting an error.
    pub(super) fn arrange(&mut self, a: &ast::Arrange, ast_pieces: &[&ast::Piece], pieces: &[model::Piece], board: &BoardInfo) -> Option<Vec<(CellId, PieceId, Span)>> {
        let mut ok = true;
        let cells = self.cell_list(&a.cells, board, " on this board", &mut ok);
        // Per step: its pieces, its candidate cells (positions in `cells`) and its ways.
        let mut steps: Vec<(Vec<PieceId>, Vec<usize>, u64)> = Vec::new();
        let mut placed = 0usize;
        let mut total: u64 = 1;
        for (i, step) in a.steps.iter().enumerate() {
            let kinds: Vec<Option<PieceId>> = step
                .pieces
                .iter()
                .map(|p| self.piece_ref(p, ast_pieces, pieces, format!("unknown piece `{}` in an arrangement", p.text)))
                .collect();
            let candidates: Vec<usize> = match &step.on {
                None => (0..cells.len()).collect(),
                Some(names) => {
                    let on = self.cell_list(names, board, " on this board", &mut ok);
                    let mut positions = Vec::new();
                    for c in on {
                        match cells.iter().position(|&x| x == c) {
                            Some(p) => positions.push(p),
                            None => {
                                let label = self.primary(step.span, format!("`{}` is not arranged", board.board.cells[c].name));
                                self.error(format!("a step of the arrangement names `{}`, which is not among its cells", board.board.cells[c].name), vec![label], vec![]);
                                ok = false;
                            }
                        }
                    }
                    positions.sort_unstable();
                    positions
                }
            };
            // The step's free cells must not depend on where earlier steps put their pieces.
            let mut taken = 0usize;
            for (j, (earlier, earlier_cells, _)) in steps.iter().enumerate() {
                let inside = earlier_cells.iter().filter(|c| candidates.contains(c)).count();
                if inside == earlier_cells.len() {
                    taken += earlier.len();
                } else if inside != 0 {
                    let labels = vec![self.primary(step.span, "these cells"), self.secondary(a.steps[j].span, "overlap these in part")];
                    self.error("the free cells of this step depend on where an earlier step put its pieces", labels, vec![
                        "note: each step's `on` cells must contain, or be apart from, the cells of every earlier step, so that every setup number gives one setup".into(),
                    ]);
                    ok = false;
                }
            }
            let free = candidates.len().saturating_sub(taken);
            let k = step.pieces.len();
            if k > free {
                let label = self.primary(step.span, format!("{k} pieces, {free} free cells"));
                self.error(format!("step {} of the arrangement has more pieces than free cells", i + 1), vec![label], vec![]);
                ok = false;
            }
            let ways = choose(free as u64, k.min(free) as u64);
            match ways.and_then(|w| total.checked_mul(w)).filter(|&t| t <= MAX_ARRANGEMENTS) {
                Some(t) => total = t,
                None => {
                    let label = self.primary(a.span, "too many ways");
                    self.error(format!("the arrangement has more than {MAX_ARRANGEMENTS} ways"), vec![label], vec!["note: setup numbers must fit in 32 bits".into()]);
                    return None;
                }
            }
            placed += k;
            match kinds.into_iter().collect::<Option<Vec<_>>>() {
                Some(kinds) => steps.push((kinds, candidates, ways.unwrap_or(1))),
                None => ok = false,
            }
        }
        if placed > cells.len() {
            ok = false;
        }
        if !ok {
            return None;
        }
        let number = match self.setup {
            SetupChoice::Default => self.default_setup,
            SetupChoice::Number(n) => n,
            SetupChoice::Seed(s) => mix(s) % total,
        };
        if number >= total {
            let label = self.primary(a.span, format!("{total} ways: setups 0 to {}", total - 1));
            self.error(format!("setup {number} is out of range for this arrangement"), vec![label], vec![]);
            return None;
        }
        self.arrangement_ways.push((total, a.span));
        // Digits of the number, least significant for the first step.
        let mut rest = number;
        let mut filled = vec![false; cells.len()];
        let mut out = Vec::new();
        for ((kinds, candidates, ways), step) in steps.iter().zip(&a.steps) {
            let digit = rest % ways;
            rest /= ways;
            let free: Vec<usize> = candidates.iter().copied().filter(|&c| !filled[c]).collect();
            for (slot, &kind) in unrank(free.len() as u64, kinds.len() as u64, digit).into_iter().zip(kinds) {
                filled[free[slot]] = true;
                out.push((cells[free[slot]], kind, step.span));
            }
        }
        Some(out)
    }

    /// Checks that every side's arrangement has as many ways (they share the setup number).
    pub(super) fn check_arrangement_ways(&mut self) {
        let ways = std::mem::take(&mut self.arrangement_ways);
        if let Some(&(first, first_span)) = ways.first() {
            for &(n, span) in &ways[1..] {
                if n != first {
                    let labels = vec![self.primary(span, format!("{n} ways")), self.secondary(first_span, format!("{first} ways"))];
                    self.error("arrangements of different sides have different numbers of ways", labels, vec![
                        "note: every `arrange` of the variant reads the same setup number".into(),
                    ]);
                }
            }
        }
    }

    /// A castling rule, once the side's setup is known: `king -> g1` starts where the side's
    /// royal piece stands, `rook R last -> f1` from its last `R` in cell order; `empty between`
    /// and `safe between` are derived on the rank or file of the four cells. `setup_complete`
    /// false: a failed lookup in the setup was caused by an error reported already.
    pub(super) fn castle(&mut self, c: &ast::Castle, board: &BoardInfo, setup: &[(CellId, PieceId)], pieces: &[model::Piece], setup_complete: bool) -> Option<model::Castle> {
        let mut king = None;
        let mut rook = None;
        let mut empty = Vec::new();
        let mut safe = Vec::new();
        let (mut empty_between, mut safe_between) = (None, None);
        let mut fen = None;
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        let mut ok = true;
        let context = format!(" on this board (castling rule `{}`)", c.name.text);
        for f in &c.fields {
            let (word, span) = match f {
                ast::CastleField::King { span, .. } => ("king", *span),
                ast::CastleField::Rook { span, .. } => ("rook", *span),
                ast::CastleField::Empty { span, .. } => ("empty", *span),
                ast::CastleField::Safe { span, .. } => ("safe", *span),
                ast::CastleField::Fen { span, .. } => ("fen", *span),
            };
            if let Some(first) = seen.get(word) {
                let labels = vec![self.primary(span, format!("a second `{word}`")), self.secondary(*first, "first here")];
                self.error(format!("castling rule `{}` gives `{word}` twice", c.name.text), labels, vec![]);
                ok = false;
                continue;
            }
            seen.insert(word, span);
            let mut cell = |fe: &mut Frontend, n: &ast::Name| {
                let r = fe.cell(n, &board.cells_by_name, board.cells_complete, &context);
                ok &= r.is_some();
                r
            };
            match f {
                ast::CastleField::King { from: Some(from), to, .. } => king = cell(self, from).zip(cell(self, to)),
                ast::CastleField::King { from: None, to, span } => {
                    let to = cell(self, to);
                    let royals: Vec<CellId> = setup.iter().filter(|&&(_, p)| pieces.get(p).is_some_and(|p| p.royal)).map(|&(c, _)| c).collect();
                    match royals.as_slice() {
                        [from] => king = to.map(|t| (*from, t)),
                        _ if !setup_complete => ok = false,
                        _ => {
                            let label = self.primary(*span, format!("the side sets up {} royal pieces", royals.len()));
                            self.error(format!("castling rule `{}` needs one royal piece in the setup to start from", c.name.text), vec![label], vec![
                                "help: name the king's start: `king e1 -> g1`".into(),
                            ]);
                            ok = false;
                        }
                    }
                }
                ast::CastleField::Rook { from, pick: None, to, .. } => rook = cell(self, from).zip(cell(self, to)),
                ast::CastleField::Rook { from, pick: Some(pick), to, span } => {
                    let to = cell(self, to);
                    let mut mine: Vec<CellId> = setup.iter().filter(|&&(_, p)| pieces.get(p).is_some_and(|p| p.symbol.to_string() == from.text)).map(|&(c, _)| c).collect();
                    mine.sort_unstable();
                    let found = if *pick == ast::Pick::First { mine.first() } else { mine.last() };
                    match found {
                        Some(&f) => rook = to.map(|t| (f, t)),
                        None if !setup_complete => ok = false,
                        None => {
                            let label = self.primary(*span, format!("no `{}` in the setup", from.text));
                            self.error(format!("castling rule `{}` takes a `{}` the side does not set up", c.name.text, from.text), vec![label], vec![]);
                            ok = false;
                        }
                    }
                }
                ast::CastleField::Empty { cells, between, span } => {
                    empty = self.cell_list(cells, board, &context, &mut ok);
                    empty_between = between.then_some(*span);
                }
                ast::CastleField::Safe { cells, between, span } => {
                    safe = self.cell_list(cells, board, &context, &mut ok);
                    safe_between = between.then_some(*span);
                }
                ast::CastleField::Fen { letter, .. } => {
                    fen = self.symbol(letter, "FEN castling letter");
                    ok &= fen.is_some();
                }
            }
        }
        for (word, example) in [("king", "king e1 -> g1"), ("rook", "rook h1 -> f1")] {
            if !seen.contains_key(word) {
                let label = self.primary(c.name.span, format!("no `{word}` move"));
                self.error(format!("castling rule `{}` is missing `{word}`", c.name.text), vec![label], vec![format!("help: add e.g. `{example}`")]);
                ok = false;
            }
        }
        let ((king_from, king_to), (rook_from, rook_to)) = (king?, rook?);
        if king_from == rook_from {
            let label = self.primary(c.span, "the king and the rook start on the same cell");
            self.error(format!("castling rule `{}` is impossible", c.name.text), vec![label], vec![]);
            ok = false;
        }
        if king_to == rook_to {
            let label = self.primary(c.span, "the king and the rook end on the same cell");
            self.error(format!("castling rule `{}` is impossible", c.name.text), vec![label], vec![]);
            ok = false;
        }
        if let Some(span) = empty_between.or(safe_between) {
            match line_between(&board.board, [king_from, king_to, rook_from, rook_to]) {
                Some(line) => {
                    let at = |c: CellId| line.iter().position(|&x| x == c).unwrap_or(0);
                    if empty_between.is_some() {
                        let (lo, hi) = [king_from, king_to, rook_from, rook_to].iter().map(|&c| at(c)).fold((usize::MAX, 0), |(l, h), p| (l.min(p), h.max(p)));
                        empty = line[lo..=hi].iter().copied().filter(|&c| c != king_from && c != rook_from).collect();
                    }
                    if safe_between.is_some() {
                        let (a, b) = (at(king_from).min(at(king_to)), at(king_from).max(at(king_to)));
                        safe = line[a..=b].to_vec();
                    }
                }
                None => {
                    let label = self.primary(span, "`between` needs the cells on one rank or file");
                    self.error(format!("castling rule `{}`: the king's and the rook's cells are not on one rank or file of the grid", c.name.text), vec![label], vec![
                        "help: list the cells: `empty f1 g1  safe e1 f1 g1`".into(),
                    ]);
                    ok = false;
                }
            }
        }
        ok.then_some(model::Castle { name: c.name.text.clone(), king_from, king_to, rook_from, rook_to, empty, safe, fen })
    }
}

/// The cells of the grid rank (or file) that holds all of `cells`, in grid order; `None` when
/// they share neither.
fn line_between(board: &model::Board, cells: [CellId; 4]) -> Option<Vec<CellId>> {
    let grid = board.grid.as_ref()?;
    let coords: Vec<(i32, i32)> = cells.iter().map(|&c| board.cells[c].coords).collect::<Option<_>>()?;
    let width = grid.files.len() as i32;
    let at = |x: i32, y: i32| grid.cell_at.get((y * width + x) as usize).copied().flatten();
    if coords.iter().all(|c| c.1 == coords[0].1) {
        (0..width).map(|x| at(x, coords[0].1)).collect()
    } else if coords.iter().all(|c| c.0 == coords[0].0) {
        (0..grid.ranks.len() as i32).map(|y| at(coords[0].0, y)).collect()
    } else {
        None
    }
}

impl Frontend {
    /// Every side must start with a piece of each `extinction` kind (else it would have lost
    /// before the first move).
    pub(super) fn check_extinction(&mut self, kinds: &[PieceId], pieces: &[model::Piece], sides: &[model::Side], block: &ast::Rules) {
        let span = block.settings.iter().find(|s| matches!(s.kind, ast::SettingKind::Extinction)).map_or(block.span, |s| s.span);
        for &k in kinds {
            for side in sides {
                let has = side.setup.iter().chain(&side.atop).any(|&(_, p)| p == k) || side.hand.contains(&k);
                if !has {
                    let label = self.primary(span, format!("`{}` must not die out", pieces[k].name));
                    self.error(format!("side `{}` sets up no `{}`: it would have lost before the first move", side.name, pieces[k].name), vec![label], vec![]);
                }
            }
        }
    }
}
