//! Pieces in hand and drops: what a capture puts in the hand (`drops`, `captured-as`), where a
//! piece from the hand may be dropped (`drop ... not on`, `one-per-file`, `no-mate`), and the
//! drops of a position, listed or counted.
//!
//! A drop puts a piece on an empty cell and moves no other piece, so it never uncovers an attack
//! on its own side: out of check every drop is legal (but a `no-mate` drop that would checkmate),
//! in check exactly those on a cell that stops every check.

use crate::bits::CellSet;
use crate::format::{invalid, FormatError};
use crate::game::Game;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::tables::{Tables, NO_CELL};

/// What a game with hands needs, per colored kind (`ck`).
#[derive(Clone, Debug)]
pub struct Hands<B> {
    /// Captured pieces go to the capturer's hand (`rules { drops }`).
    pub capture_to_hand: bool,
    /// Per ck of a captured piece: the kind (not colored) the capturer's hand receives.
    pub hand_kind: Vec<u8>,
    /// Per ck: the cells it may be dropped on (transit cells and `not on` zones left out).
    pub cells: Vec<B>,
    /// Per ck: at most one piece of it per file (`one-per-file`).
    pub one_per_file: Vec<bool>,
    /// Per ck: a drop of it may not checkmate (`no-mate`).
    pub no_mate: Vec<bool>,
    /// Per cell: the cells of its grid file (empty without a grid).
    pub file: Vec<B>,
    /// The kinds (bit `k`) that may ever be in a hand: neither royal nor promoted (`captured-as`)
    /// nor crowned, as a capture, a FEN hand (`Game::holdable`) and the table checks of a start
    /// hand allow (a game with drops has two sides, so at most 32 kinds). The drops loop over
    /// these only (half of Shogi's kinds are promoted ones).
    pub droppable: u64,
    /// Per ck: the cells where a dropped piece counts as unmoved (where its side's setup has a
    /// piece of its kind, castling cells excepted: as FEN reads positions).
    pub virgin: Vec<B>,
}

impl<B: CellSet> Hands<B> {
    /// The hands of a game where captures go to the hand or a side starts with a piece to drop;
    /// `None` otherwise.
    pub fn new(tables: &Tables, transit: B) -> Option<Hands<B>> {
        let (sides, kinds, cells) = (tables.sides.len(), tables.kinds.len(), tables.cells.len());
        let starts_with_drop = tables.sides.iter().any(|s| s.hand.iter().any(|&k| tables.kinds[k as usize].crowns.is_empty()));
        if !tables.rules.drops && !starts_with_drop {
            return None;
        }
        let all = B::from_cells(0..cells).and_not(transit);
        let mut h = Hands {
            capture_to_hand: tables.rules.drops,
            hand_kind: (0..sides * kinds).map(|ck| tables.kinds[ck % kinds].captured_as.unwrap_or((ck % kinds) as u8)).collect(),
            cells: vec![all; sides * kinds],
            one_per_file: vec![false; sides * kinds],
            no_mate: vec![false; sides * kinds],
            file: vec![B::default(); cells],
            virgin: vec![B::default(); sides * kinds],
            droppable: 0,
        };
        for (k, kind) in tables.kinds.iter().enumerate() {
            if k < 64 && droppable(kind) {
                h.droppable |= 1 << k;
            }
        }
        if let Some(g) = &tables.grid {
            let w = g.width as usize;
            for x in 0..w {
                let file = B::from_cells(g.cell_at.iter().skip(x).step_by(w).filter(|&&c| c != NO_CELL).map(|&c| c as usize));
                for c in file.iter() {
                    h.file[c] = file;
                }
            }
        }
        for (s, side) in tables.sides.iter().enumerate() {
            for d in &side.drops {
                let ck = s * kinds + d.kind as usize;
                h.cells[ck] = h.cells[ck].and_not(B::from_cells(d.forbidden.iter().map(|&c| c as usize)));
                h.one_per_file[ck] = d.one_per_file;
                h.no_mate[ck] = d.no_mate;
            }
            for &(cell, kind) in &side.setup {
                let castling = side.castles.iter().any(|c| c.king_from == cell || c.rook_from == cell);
                if !castling {
                    h.virgin[s * kinds + kind as usize].insert(cell as usize);
                }
            }
        }
        Some(h)
    }
}

/// The table checks of hands (`Tables::validate`): kinds in range, `captured-as` not royal nor
/// itself captured as another, drops only in games of two sides without stacks or crowning.
pub(crate) fn validate_hands(t: &Tables) -> Result<(), FormatError> {
    let kinds = t.kinds.len();
    for (k, kind) in t.kinds.iter().enumerate() {
        let field = || format!("kind {k} ({}) captured-as", kind.name);
        if let Some(c) = kind.captured_as {
            let Some(to) = t.kinds.get(c as usize) else {
                return Err(invalid(field(), format!("kind {c} is out of range ({kinds} kinds)")));
            };
            if to.royal || to.captured_as.is_some() || kind.royal || c as usize == k {
                return Err(invalid(field(), "a royal kind, the kind itself or a kind captured as another"));
            }
        }
        let fen = kind.fen.as_str();
        let letter = fen.strip_prefix('+').or_else(|| fen.strip_suffix('~'));
        if !fen.is_empty() && !letter.is_some_and(|l| l.len() == 1 && l.chars().all(|c| c.is_ascii_uppercase())) {
            return Err(invalid(format!("kind {k} ({}) FEN token", kind.name), format!("{fen:?} is not `+X` or `X~`")));
        }
    }
    let drops = t.rules.drops || t.sides.iter().any(|s| !s.drops.is_empty() || s.hand.iter().any(|&k| t.kinds.get(k as usize).is_some_and(|k| k.crowns.is_empty())));
    if drops {
        let crowning = t.kinds.iter().any(|k| !k.crowns.is_empty());
        let stacks = t.sides.iter().any(|s| !s.atop.is_empty());
        if crowning || stacks || t.sides.len() != 2 {
            return Err(invalid("rules drops", "drops need a game of two sides without stacks or crowning"));
        }
    }
    Ok(())
}

impl<B: CellSet> Position<B> {
    /// Drops of the side to move, legal ones only: appended to `out` when given, and counted.
    /// `check`: whether the side is in check and, if known, the cells that stop every check
    /// (`None` in check: each drop is judged by playing it), and the cells a drop onto is judged
    /// by playing it (the watched cells: in a royal piece's hop zone a dropped piece may be a
    /// screen).
    #[inline(never)]
    pub(crate) fn drops(&mut self, game: &Game<B>, h: &Hands<B>, check: Option<(bool, Option<B>, B)>, out: Option<&mut Vec<Move>>) -> u64 {
        // Most positions hold nothing (`Position::held`), and most others nothing of the side
        // to move: answered here, without the set-up of the loop over the kinds held (the
        // bytes or-ed together, which compiles without a branch a kind). (Reading the bytes in
        // every position cost Shogi 2.2 instructions a leaf.)
        debug_assert_eq!(self.held as usize, self.hand.iter().map(|&n| n as usize).sum::<usize>());
        let base = self.to_move * game.kinds;
        if self.held == 0 || (*self.hand)[base..base + game.kinds].iter().fold(0, |a, &n| a | n) == 0 {
            return 0;
        }
        self.drops_held(game, h, check, out)
    }

    /// [`Position::drops`] when the side holds a piece.
    #[inline(never)]
    fn drops_held(&mut self, game: &Game<B>, h: &Hands<B>, check: Option<(bool, Option<B>, B)>, mut out: Option<&mut Vec<Move>>) -> u64 {
        let us = self.to_move;
        let mut n = 0;
        let mut kinds = h.droppable;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let ck = us * game.kinds + k;
            if self.hand[ck] == 0 {
                continue;
            }
            let mut targets = h.cells[ck].and_not(self.occupied);
            if h.one_per_file[ck] {
                for c in self.by_ck[ck].iter() {
                    targets = targets.and_not(h.file[c]);
                }
            }
            // The drops judged one by one: those played to be judged (in check without known
            // stops, onto a watched cell), and those of a `no-mate` kind that give check (every drop
            // of one attacking along lines or hopping).
            let played = match check {
                Some((true, Some(stops), watched)) => {
                    targets = targets.and(stops);
                    targets.and(watched)
                }
                Some((true, None, _)) => targets,
                Some((false, _, watched)) => targets.and(watched),
                None => B::default(),
            };
            let mut one_by_one = played;
            if h.no_mate[ck] {
                one_by_one = one_by_one.or(targets.and(self.checking_cells(game, ck)));
            }
            let by_set = targets.and_not(one_by_one);
            n += by_set.count() as u64;
            if let Some(out) = out.as_deref_mut() {
                for to in by_set.iter() {
                    out.push(drop_move(to, k));
                }
            }
            for to in one_by_one.iter() {
                let mv = drop_move(to, k);
                if (played.has(to) && !self.drop_is_safe(game, mv)) || (h.no_mate[ck] && self.drop_mates(game, mv)) {
                    continue;
                }
                n += 1;
                if let Some(out) = out.as_deref_mut() {
                    out.push(mv);
                }
            }
        }
        n
    }

    /// The cells from which a piece of `ck` would attack a royal piece of an opponent: every cell
    /// for kinds that attack along lines, else the cells of their direct attacks.
    fn checking_cells(&self, game: &Game<B>, ck: usize) -> B {
        if game.line_ck_mask >> ck & 1 != 0 || game.winding || game.hopping {
            return B::from_cells(0..game.cells);
        }
        let us = self.to_move;
        let mut cells = B::default();
        for &side in &game.opponents[us] {
            for r in self.royals(game, side).iter() {
                let di = r * game.sides + us;
                for &(a, set) in &game.direct[game.direct_index[di] as usize..game.direct_index[di + 1] as usize] {
                    if a as usize == ck {
                        cells = cells.or(set);
                    }
                }
            }
        }
        cells
    }

    /// Whether the drop leaves no royal piece of the mover attacked, judged by playing it.
    fn drop_is_safe(&mut self, game: &Game<B>, mv: Move) -> bool {
        let us = self.to_move;
        let undo = self.make_move_unkeyed(game, mv);
        let ok = !self.in_check(game, us);
        self.unmake(game, &undo);
        ok
    }

    /// Whether the drop checkmates: the opponent to move is in check and has no legal move
    /// (asked as [`Position::has_legal_move`], which stops at the first move it counts).
    fn drop_mates(&mut self, game: &Game<B>, mv: Move) -> bool {
        let undo = self.make_move(game, mv);
        let mate = self.in_check(game, self.to_move) && !self.has_legal_move(game, &mut Vec::new());
        self.unmake(game, &undo);
        mate
    }
}

/// Whether a game with drops may hold `kind` in a hand: neither royal nor a promoted form
/// (`captured-as`) nor crowned ([`Hands::droppable`], `Game::holdable`).
fn droppable(kind: &crate::tables::KindInfo) -> bool {
    !kind.royal && kind.captured_as.is_none() && kind.crowned.is_none()
}

/// The drop of kind `kind` (not colored) from the hand onto `to`.
pub fn drop_move(to: usize, kind: usize) -> Move {
    Move { from: to as u16, to: to as u16, kind: MoveKind::Drop, promotion: NO_PROMOTION, aux: kind as u32 }
}

impl<B: CellSet> Game<B> {
    /// The FEN token of `kind`: its `fen` (`+P`, `Q~`) or its symbol, upper case.
    pub fn fen_token(&self, kind: usize) -> String {
        let k = &self.tables.kinds[kind];
        if k.fen.is_empty() {
            k.symbol.to_string()
        } else {
            k.fen.clone()
        }
    }

    /// The letter UCI and Fairy-Stockfish add to a move promoting to `kind`: `+` for a `+X`
    /// token, else the token's letter in lower case (`q` for `Q~`).
    pub fn uci_promotion(&self, kind: usize) -> String {
        let t = self.fen_token(kind);
        if t.starts_with('+') {
            "+".into()
        } else {
            t[..1].to_lowercase()
        }
    }

    /// Whether a position may hold `kind` in a hand: crowning pieces (up to the number the
    /// side starts with) and, in games with drops, every kind that is neither royal nor a
    /// promoted form.
    pub(crate) fn holdable(&self, kind: usize) -> bool {
        let k = &self.tables.kinds[kind];
        !k.crowns.is_empty() || (self.hands.is_some() && droppable(k))
    }

    /// The piece of a FEN board token starting with `ch` (`P`, `p`, `+P`, `Q~`), taking its
    /// further characters from `rest`: (side, kind), or `None` when no kind has the token.
    pub(crate) fn read_fen_piece(&self, ch: char, rest: &mut std::iter::Peekable<std::str::Chars>) -> Option<(usize, usize)> {
        let token = if ch == '+' {
            let l = rest.next()?;
            format!("+{l}")
        } else if rest.peek() == Some(&'~') {
            rest.next();
            format!("{ch}~")
        } else {
            ch.to_string()
        };
        let letter = token.chars().find(|c| c.is_ascii_alphabetic())?;
        let side = usize::from(letter.is_ascii_lowercase());
        let upper = token.to_ascii_uppercase();
        let kind = (0..self.kinds).find(|&k| self.tables.kinds[k].fen == upper && !upper.is_empty())
            .or_else(|| (token.len() == 1).then(|| (0..self.kinds).find(|&k| self.tables.kinds[k].symbol == letter.to_ascii_uppercase() && self.tables.kinds[k].crowned.is_none())).flatten())?;
        Some((side, kind))
    }
}

/// A FEN board field split into the board and the hand: `BOARD[HAND]`, or the hand as one rank
/// more than the board has (`.../Qn`, Fairy-Stockfish's other form; only in games with `hands`).
pub(crate) fn split_fen_hand(field: &str, height: usize, hands: bool) -> (&str, Option<&str>) {
    if let Some(open) = field.find('[') {
        if let Some(body) = field[open + 1..].strip_suffix(']') {
            return (&field[..open], Some(body));
        }
    }
    if hands && field.split('/').count() == height + 1 {
        if let Some(cut) = field.rfind('/') {
            return (&field[..cut], Some(&field[cut + 1..]));
        }
    }
    (field, None)
}

impl<B: CellSet> Position<B> {
    /// Puts the pieces of a FEN hand (`Qn`, `-` or empty for none) in the hands.
    pub(crate) fn read_fen_hand(&mut self, game: &Game<B>, hand: &str) -> Result<(), crate::notation::PositionError> {
        let err = |m: String| Err(crate::notation::PositionError(m));
        if game.hands.is_none() {
            return err(format!("FEN hand '[{hand}]' in a game without drops"));
        }
        if hand == "-" {
            return Ok(());
        }
        let mut chars = hand.chars().peekable();
        while let Some(ch) = chars.next() {
            let Some((side, kind)) = game.read_fen_piece(ch, &mut chars) else {
                return err(format!("unknown piece letter '{ch}' in the FEN hand"));
            };
            self.hold(game, side, kind)?;
        }
        Ok(())
    }

    /// Adds one `kind` to `side`'s hand, if a hand may hold it.
    pub(crate) fn hold(&mut self, game: &Game<B>, side: usize, kind: usize) -> Result<(), crate::notation::PositionError> {
        let name = &game.tables.kinds[kind].name;
        if !game.holdable(kind) {
            return Err(crate::notation::PositionError(format!("hand: {name} cannot be held (royal, a promoted form, or a game without drops)")));
        }
        let ck = side * game.kinds + kind;
        let starts = game.tables.sides[side].hand.iter().filter(|&&h| h as usize == kind).count() as u8;
        let limit = if game.tables.kinds[kind].crowns.is_empty() { u8::MAX } else { starts };
        if self.hand[ck] >= limit {
            return Err(crate::notation::PositionError(format!("hand: {} holds more {name} than it can", game.tables.sides[side].name)));
        }
        self.add_to_hand(game, ck, 1);
        Ok(())
    }

    /// The hands in FEN, `[QRn]`: the first side's pieces in upper case, then the second's.
    pub(crate) fn fen_hand(&self, game: &Game<B>) -> String {
        let mut out = String::from("[");
        for s in 0..game.sides.min(2) {
            for k in 0..game.kinds {
                let t = game.fen_token(k);
                let t = if s == 0 { t } else { t.to_ascii_lowercase() };
                for _ in 0..self.hand[s * game.kinds + k] {
                    out += &t;
                }
            }
        }
        out.push(']');
        out
    }
}
