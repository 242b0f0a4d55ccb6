//! Positions and moves as text.
//!
//! Two position notations, both round-trip:
//! - FEN, for two-sided grid boards (the orthodox example reads any orthodox FEN as is);
//! - the general notation for any board:
//!   `turn=white white=Ke1,Ra1 black=Ke8 virgin=e1,a1 ep=e3:e4 clock=0 move=1`
//!   (`ep=CELLS:VICTIM` lists the en-passant cells, `,`-separated, and the piece that may be taken;
//!   `out=red,blue` the sides eliminated, in games of three or more teams).
//!
//! Moves are written `Ng1-f3`, `Bf1xb5`, `Pe7-e8=Q`, `Pe5xd6ep`, castling by its rule's name.
//!
//! A cell with several names (`identify`) is read under any of them and written under its own. FEN
//! lists every grid position: such a cell is written at its own position (its other positions count
//! as empty) and read at any one of them, never two.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::tables::{ray, NO_CELL};
use std::fmt;

/// A position text that cannot be read, or describes an impossible position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position: {}", self.0)
    }
}

impl std::error::Error for PositionError {}

/// A move text that is not one legal move of the position; the message suggests legal moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError(pub String);

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveError {}

/// How many legal moves an error message lists before it says how many more there are.
const SUGGESTED_MOVES: usize = 24;

fn err<T>(msg: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError(msg.into()))
}

impl<B: CellSet> Position<B> {
    /// Reads FEN (when the first field is not `KEY=VALUE`) or the general notation, then checks the
    /// position.
    pub fn parse(game: &Game<B>, text: &str) -> Result<Position<B>, PositionError> {
        let text = text.trim();
        // Every field of the general notation is KEY=VALUE; FEN's board field has no `=` (and no
        // `/` on a board of one rank).
        let fen = text.split_whitespace().next().is_some_and(|first| !first.contains('='));
        let mut pos = if fen { Self::from_fen(game, text)? } else { Self::from_general(game, text)? };
        pos.check(game)?;
        // A side to move without a legal move while three or more teams are in the game is out
        // at once (`game-end last-standing`): the position read is the one after that.
        pos.settle(game);
        Ok(pos)
    }

    fn kind_by_symbol(game: &Game<B>, symbol: char) -> Option<usize> {
        game.tables.kinds.iter().position(|k| k.symbol == symbol.to_ascii_uppercase())
    }

    /// Reads a FEN string (4 to 6 fields; missing clocks read as `0 1`).
    pub fn from_fen(game: &Game<B>, fen: &str) -> Result<Position<B>, PositionError> {
        let Some(grid) = &game.tables.grid else { return err("FEN needs a grid board; use the general notation") };
        if game.sides != 2 {
            return err("FEN describes two sides; use the general notation");
        }
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        // Check counters (`check-limit`), in either of Fairy-Stockfish's forms: the checks still
        // to give after the en-passant field (`3+3`), or those given at the end (`+0+2`).
        let mut given: Option<(u8, u8)> = None;
        let limit = game.tables.rules.check_limit;
        if limit > 0 {
            let pair = |s: &str| s.split_once('+').and_then(|(a, b)| Some((a.parse::<u8>().ok()?, b.parse::<u8>().ok()?)));
            if let Some(last) = fields.last().and_then(|l| l.strip_prefix('+')) {
                if let Some(p) = pair(last) {
                    given = Some(p);
                    fields.pop();
                }
            }
            if given.is_none() && fields.len() > 4 {
                if let Some((a, b)) = pair(fields[4]) {
                    if a > limit || b > limit {
                        return err(format!("check counters '{}' exceed the limit of {limit}", fields[4]));
                    }
                    given = Some((limit - a, limit - b));
                    fields.remove(4);
                }
            }
        }
        // Fairy-Stockfish writes Shogi's start without castling and en-passant fields (`w 0 1`).
        if fields.len() >= 3 && fields[2].bytes().all(|b| b.is_ascii_digit()) {
            fields.splice(2..2, ["-", "-"]);
        }
        if fields.len() < 4 || fields.len() > 6 {
            return err(format!("FEN has {} fields, expected 4 to 6", fields.len()));
        }
        let (w, h) = (grid.width as usize, grid.height as usize);
        let (board, hand) = crate::drops::split_fen_hand(fields[0], h, game.hands.is_some());
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != h {
            return err(format!("FEN has {} ranks, the board has {}", rows.len(), h));
        }
        let mut pos = Position::empty(game);
        for (ri, row) in rows.iter().enumerate() {
            let y = h - 1 - ri;
            let mut x = 0usize;
            let mut chars = row.chars().peekable();
            while let Some(ch) = chars.next() {
                if ch.is_ascii_digit() {
                    let mut n = ch.to_digit(10).unwrap_or(0) as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        chars.next();
                    }
                    if n > w - x {
                        return err(format!("FEN rank {} is longer than {} cells", grid.ranks[y], w));
                    }
                    x += n;
                    continue;
                }
                let Some((side, kind)) = game.read_fen_piece(ch, &mut chars) else {
                    return err(format!("unknown piece letter '{ch}' in FEN rank {}", grid.ranks[y]));
                };
                if x >= w {
                    return err(format!("FEN rank {} is longer than {} cells", grid.ranks[y], w));
                }
                let cell = grid.cell_at[y * w + x];
                if cell == NO_CELL {
                    return err(format!("FEN puts '{ch}' on a hole of the grid"));
                }
                if pos.board[cell as usize] != 0 {
                    // Only an identified cell appears twice in the grid.
                    return err(format!(
                        "FEN puts two pieces on {} (its names: {})",
                        game.cell_name(cell),
                        game.cell_names(cell).join(", ")
                    ));
                }
                pos.put(game, cell as usize, side * game.kinds + kind);
                x += 1;
            }
            if x != w {
                return err(format!("FEN rank {} has {} cells, the board has {}", grid.ranks[y], x, w));
            }
        }
        let side = match fields[1] {
            "w" => 0,
            "b" => 1,
            other => return err(format!("side to move '{other}' is not 'w' or 'b'")),
        };
        pos.set_to_move(game, side);
        if let Some(hand) = hand {
            pos.read_fen_hand(game, hand)?;
        }
        pos.mark_setup_virgins(game);
        if fields[2] != "-" {
            for ch in fields[2].chars() {
                let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let rules: Vec<_> = game.tables.sides[side]
                    .castles
                    .iter()
                    .filter(|c| c.fen == Some(ch.to_ascii_uppercase()))
                    .collect();
                if rules.is_empty() {
                    return err(format!("castling right '{ch}' names no castling rule of {}", game.tables.sides[side].name));
                }
                for c in rules {
                    for cell in [c.king_from, c.rook_from] {
                        if pos.board[cell as usize] == 0 || pos.side_at(game, cell as usize) != side {
                            return err(format!(
                                "castling right '{ch}' needs a {} piece on {}",
                                game.tables.sides[side].name,
                                game.cell_name(cell)
                            ));
                        }
                        pos.set_virgin(game, cell as usize);
                    }
                }
            }
        }
        if fields[3] != "-" {
            match game.cell_by_name(fields[3]) {
                Some(cell) => {
                    let victim = pos.find_en_passant_victim(game, cell as usize)?;
                    pos.set_en_passant(game, B::single(cell as usize), victim);
                }
                // Fairy-Stockfish writes several cells run together (Berolina's `d3c4`: the cell
                // passed and the cell reached): the cells a piece just passed are kept.
                None => {
                    let cells = split_cells(game, fields[3])
                        .ok_or_else(|| PositionError(format!("en-passant cell '{}' is not on the board", fields[3])))?;
                    let passed: Vec<(usize, u16)> =
                        cells.iter().filter_map(|&c| pos.find_en_passant_victim(game, c).ok().map(|v| (c, v))).collect();
                    // The cell reached is among the cells written: prefer the piece standing on
                    // it (another piece might have passed one of the cells on a longer path).
                    let reached = passed.iter().find(|p| cells.contains(&(p.1 as usize)));
                    let Some(&(_, victim)) = reached.or(passed.first()) else {
                        return err(format!("en-passant cells '{}' but no piece can just have passed them", fields[3]));
                    };
                    let set = B::from_cells(passed.iter().filter(|p| p.1 == victim).map(|p| p.0));
                    pos.set_en_passant(game, set, victim);
                }
            }
        }
        pos.check_en_passant(game)?;
        pos.halfmove = match fields.get(4) {
            Some(s) => s.parse().map_err(|_| PositionError(format!("halfmove clock '{s}' is not a number")))?,
            None => 0,
        };
        pos.fullmove = match fields.get(5) {
            Some(s) => s.parse().map_err(|_| PositionError(format!("move number '{s}' is not a number")))?,
            None => 1,
        };
        if let Some((w, b)) = given {
            pos.set_checks(game, 0, w);
            pos.set_checks(game, 1, b);
        }
        Ok(pos)
    }

    /// Marks as unmoved every piece standing where its side's setup has the same kind, except on
    /// castling cells, whose state FEN gives explicitly.
    fn mark_setup_virgins(&mut self, game: &Game<B>) {
        for (s, side) in game.tables.sides.iter().enumerate() {
            for &(cell, kind) in &side.setup {
                let castling = game.tables.sides[s].castles.iter().any(|c| c.king_from == cell || c.rook_from == cell);
                if !castling && self.board[cell as usize] as usize == s * game.kinds + kind as usize + 1 {
                    self.set_virgin(game, cell as usize);
                }
            }
        }
    }

    /// The piece that passed `cell` with an en-passant-target move and may be taken there.
    fn find_en_passant_victim(&self, game: &Game<B>, cell: usize) -> Result<u16, PositionError> {
        let mover = (self.to_move + game.sides - 1) % game.sides;
        for kind in 0..game.kinds {
            let ck = mover * game.kinds + kind;
            for from in 0..game.cells {
                if self.board[from] != 0 {
                    continue;
                }
                for r in game.rays_of(ck, from) {
                    if r.flags & ray::EP_TARGET != 0 && r.must_empty.has(cell) {
                        let to = game.cells_of(r.cells)[0] as usize;
                        if self.board[to] as usize == ck + 1 {
                            return Ok(to as u16);
                        }
                    }
                }
            }
        }
        err(format!("en-passant cell {} but no piece can just have passed it", game.cell_name(cell as u16)))
    }

    /// An error unless the en-passant cells, if any, are empty and were just passed by their
    /// victim ([`Position::ep_passed`]): FEN and the general text read them alike.
    fn check_en_passant(&self, game: &Game<B>) -> Result<(), PositionError> {
        if self.ep_victim != NO_CELL && !self.ep_passed(game, self.ep_cells, self.ep_victim as usize) {
            return err(format!(
                "en passant: the piece on {} cannot just have passed {} with an en-passant-target move",
                game.cell_name(self.ep_victim),
                self.ep_cells.iter().map(|c| game.cell_name(c as u16)).collect::<Vec<_>>().join(",")
            ));
        }
        Ok(())
    }

    /// Whether the piece on `victim`, of a side other than the one to move, can just have made an
    /// en-passant-target move from an empty cell that passed every cell of `cells` (all empty).
    fn ep_passed(&self, game: &Game<B>, cells: B, victim: usize) -> bool {
        let code = self.board[victim] as usize;
        if code == 0 || self.side_at(game, victim) == self.to_move || cells.intersects(self.occupied) {
            return false;
        }
        (0..game.cells).any(|from| {
            self.board[from] == 0
                && game.rays_of(code - 1, from).iter().any(|r| {
                    r.flags & ray::EP_TARGET != 0
                        && cells.and_not(r.must_empty).is_empty()
                        && game.cells_of(r.cells)[0] as usize == victim
                })
        })
    }

    /// Writes FEN (grid boards with two sides only, and no piece off the grid).
    pub fn to_fen(&self, game: &Game<B>) -> Option<String> {
        let grid = game.tables.grid.as_ref()?;
        if game.sides != 2 {
            return None;
        }
        let on_grid = B::from_cells(grid.cell_at.iter().filter(|&&c| c != NO_CELL).map(|&c| c as usize));
        if !self.occupied.and_not(on_grid).is_empty() {
            return None;
        }
        let (w, h) = (grid.width as usize, grid.height as usize);
        let mut out = String::new();
        for y in (0..h).rev() {
            let mut empty = 0;
            for x in 0..w {
                let cell = grid.cell_at[y * w + x];
                // An identified cell's piece is written at the cell's own position only.
                let code = if cell == NO_CELL || game.tables.is_alias_position(x, y) { 0 } else { self.board[cell as usize] };
                if code == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                let ck = code as usize - 1;
                let token = game.fen_token(ck % game.kinds);
                out += &if ck / game.kinds == 0 { token } else { token.to_ascii_lowercase() };
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if y > 0 {
                out.push('/');
            }
        }
        if game.hands.is_some() {
            out += &self.fen_hand(game);
        }
        out += if self.to_move == 0 { " w " } else { " b " };
        let rights = self.castling_rights(game);
        out += if rights.is_empty() { "-" } else { &rights };
        out.push(' ');
        match self.ep_cells.iter().next() {
            Some(c) => out += game.cell_name(c as u16),
            None => out.push('-'),
        }
        let limit = game.tables.rules.check_limit;
        if limit > 0 {
            let left = |s: usize| limit.saturating_sub(self.checks[s]);
            out += &format!(" {}+{}", left(0), left(1));
        }
        out += &format!(" {} {}", self.halfmove, self.fullmove);
        Some(out)
    }

    fn castling_rights(&self, game: &Game<B>) -> String {
        let mut out = String::new();
        for (s, side) in game.tables.sides.iter().enumerate() {
            let mut letters: Vec<char> = Vec::new();
            for c in &side.castles {
                if let Some(l) = c.fen {
                    if !letters.contains(&l) {
                        letters.push(l);
                    }
                }
            }
            for l in letters {
                let held = side
                    .castles
                    .iter()
                    .filter(|c| c.fen == Some(l))
                    .all(|c| self.virgin.has(c.king_from as usize) && self.virgin.has(c.rook_from as usize));
                if held {
                    out.push(if s == 0 { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        out
    }

    /// Reads the general notation.
    pub fn from_general(game: &Game<B>, text: &str) -> Result<Position<B>, PositionError> {
        let mut pos = Position::empty(game);
        let mut turn = None;
        // Applied once the pieces and the side to move are known (its hash depends on them).
        let mut ep = None;
        let mut seen_keys: Vec<&str> = Vec::new();
        for token in text.split_whitespace() {
            let Some((key, value)) = token.split_once('=') else {
                return err(format!("'{token}' is not KEY=VALUE"));
            };
            if seen_keys.contains(&key) {
                return err(format!("'{key}' is given twice"));
            }
            seen_keys.push(key);
            let cell = |name: &str| {
                game.cell_by_name(name).ok_or_else(|| PositionError(format!("'{name}' is not a cell of this board")))
            };
            let list = |v: &str| -> Vec<String> { v.split(',').filter(|s| !s.is_empty()).map(String::from).collect() };
            if let Some(side) = game.tables.sides.iter().position(|s| s.name == key) {
                for item in list(value) {
                    let (top, rest) = Self::read_piece(game, &item, &item)?;
                    let (hidden, rest) = match rest.strip_prefix('/') {
                        Some(r) => {
                            let (k, r) = Self::read_piece(game, &item, r)?;
                            (Some(k), r)
                        }
                        None => (None, rest),
                    };
                    let c = cell(rest)? as usize;
                    if pos.board[c] != 0 {
                        return err(format!("two pieces on {}", game.cell_name(c as u16)));
                    }
                    pos.put(game, c, side * game.kinds + top);
                    if let Some(k) = hidden {
                        if !game.stacks {
                            return err(format!("'{item}': this variant has no stacks"));
                        }
                        pos.put_under(game, c, side * game.kinds + k);
                    }
                }
                continue;
            }
            match key {
                "turn" => {
                    let Some(s) = game.tables.sides.iter().position(|s| s.name == value) else {
                        return err(format!("turn '{value}' is not a side"));
                    };
                    turn = Some(s);
                }
                "virgin" => {
                    for name in list(value) {
                        let c = cell(&name)? as usize;
                        pos.set_virgin(game, c);
                    }
                }
                "ep" => {
                    let Some((cells, victim)) = value.split_once(':') else {
                        return err("ep takes CELLS:VICTIM, e.g. ep=e3:e4");
                    };
                    // Cells are separated by `,` (names never hold one); `+`, the older separator, is
                    // read only on boards without `+` in their names (Webball has `N+`).
                    let plus = !game.tables.cells.iter().any(|c| c.contains('+'));
                    let mut set = B::default();
                    for name in cells.split(|ch| ch == ',' || (plus && ch == '+')) {
                        let c = cell(name)? as usize;
                        // (No move ends on a transit cell, so none is captured onto en passant;
                        // and a one-word set may not hold one, `crate::bits::Standing64`.)
                        if game.is_transit(c) {
                            return err(format!("the en passant cell {name} is a transit cell: no move ends there"));
                        }
                        set.insert(c);
                    }
                    ep = Some((set, cell(victim)?));
                }
                "hand" => {
                    for entry in list(value) {
                        let Some((side, symbols)) = entry.split_once(':') else {
                            return err(format!("hand: '{entry}' is not SIDE:PIECES, e.g. hand=white:K"));
                        };
                        let Some(s) = game.tables.sides.iter().position(|x| x.name == side) else {
                            return err(format!("hand: '{side}' is not a side"));
                        };
                        for sym in symbols.chars() {
                            let Some(k) = Self::kind_by_symbol(game, sym).filter(|&k| game.holdable(k) && sym.is_ascii_uppercase()) else {
                                return err(format!("hand: '{sym}' is not a piece that can be held (one that crowns others, or in a game with drops one neither royal nor promoted)"));
                            };
                            pos.hold(game, s, k)?;
                        }
                    }
                }
                "clock" => pos.halfmove = value.parse().map_err(|_| PositionError(format!("clock '{value}' is not a number")))?,
                "checks" => {
                    for entry in list(value) {
                        let (side, n) = entry.split_once(':').ok_or_else(|| PositionError(format!("checks: '{entry}' is not SIDE:COUNT")))?;
                        let Some(s) = game.tables.sides.iter().position(|x| x.name == side) else {
                            return err(format!("checks: no side '{side}'"));
                        };
                        let n: u8 = n.parse().map_err(|_| PositionError(format!("checks: '{n}' is not a number")))?;
                        if game.tables.rules.check_limit == 0 || n > game.tables.rules.check_limit {
                            return err(format!("checks: {side} cannot have given {n} checks in this variant"));
                        }
                        pos.set_checks(game, s, n);
                    }
                }
                "move" => pos.fullmove = value.parse().map_err(|_| PositionError(format!("move '{value}' is not a number")))?,
                "out" => {
                    for name in list(value) {
                        let Some(s) = game.tables.sides.iter().position(|s| s.name == name) else {
                            return err(format!("out: '{name}' is not a side"));
                        };
                        if pos.is_out(s) {
                            return err(format!("out: {name} is listed twice"));
                        }
                        pos.out |= 1 << s;
                        pos.hash ^= game.zobrist.out[s];
                    }
                }
                "pass" => {
                    use crate::passing::{ENDED_FACING, ENDED_PASSING, PASSED};
                    let Some(p) = &game.passing else { return err("pass: this variant has no `pass` or `facing` rule") };
                    let passes = match value {
                        "last" | "twice" if !p.pass => return err("pass: this variant has no `pass` rule"),
                        "facing" if !p.any_facing => return err("pass: this variant has no `facing` rule"),
                        "last" => PASSED,
                        "twice" => ENDED_PASSING,
                        "facing" => ENDED_FACING,
                        _ => return err(format!("pass '{value}' is not last, twice or facing")),
                    };
                    pos.hash ^= p.keys[pos.passes as usize] ^ p.keys[passes as usize];
                    pos.passes = passes;
                }
                _ => return err(format!("unknown key '{key}' (expected turn, a side name, out, hand, virgin, ep, checks, pass, clock or move)")),
            }
        }
        if pos.passes == crate::passing::ENDED_FACING && !pos.royals_face(game) {
            return err("pass=facing: no royal pieces face each other");
        }
        let Some(turn) = turn else { return err("missing turn=SIDE") };
        pos.set_to_move(game, turn);
        if let Some((cells, victim)) = ep {
            pos.set_en_passant(game, cells, victim);
        }
        for c in pos.virgin.iter() {
            if pos.board[c] == 0 {
                return err(format!("virgin cell {} is empty", game.cell_name(c as u16)));
            }
        }
        if pos.ep_victim != NO_CELL && pos.board[pos.ep_victim as usize] == 0 {
            return err(format!("en-passant victim cell {} is empty", game.cell_name(pos.ep_victim)));
        }
        pos.check_en_passant(game)?;
        Ok(pos)
    }

    /// A piece at the start of `text` (a symbol, and for a crowned piece its crown's in
    /// parentheses: `R(K)`), as a kind, and the rest of `text`. `item` is for messages.
    fn read_piece<'t>(
        game: &Game<B>,
        item: &str,
        text: &'t str,
    ) -> Result<(usize, &'t str), PositionError> {
        let mut chars = text.chars();
        let sym = chars.next().unwrap_or(' ');
        let Some(kind) = Self::kind_by_symbol(game, sym).filter(|_| sym.is_ascii_uppercase())
        else {
            return err(format!("'{item}': '{sym}' is not a piece symbol"));
        };
        let rest = chars.as_str();
        let Some(inner) = rest.strip_prefix('(') else {
            return Ok((kind, rest));
        };
        let mut chars = inner.chars();
        let crown = chars.next().unwrap_or(' ');
        let rest = chars.as_str().strip_prefix(')').ok_or_else(|| {
            PositionError(format!("'{item}': expected ')' after the crown '{crown}'"))
        })?;
        match game.tables.kinds.iter().position(|k| {
            k.crowned.is_some_and(|(c, r)| {
                c as usize == kind && game.tables.kinds[r as usize].symbol == crown
            })
        }) {
            Some(twin) => Ok((twin, rest)),
            None => err(format!("'{item}': '{crown}' cannot crown '{sym}'")),
        }
    }

    /// How a colored kind is written: its symbol, and a crowned piece's crown in parentheses.
    pub fn piece_text(game: &Game<B>, ck: usize) -> String {
        let kind = &game.tables.kinds[ck % game.kinds];
        match kind.crowned {
            Some((_, crown)) => format!("{}({})", kind.symbol, game.symbol(crown as usize)),
            None => kind.symbol.to_string(),
        }
    }

    /// Writes the general notation.
    pub fn to_general(&self, game: &Game<B>) -> String {
        let mut parts = vec![format!("turn={}", game.tables.sides[self.to_move].name)];
        for (s, side) in game.tables.sides.iter().enumerate() {
            let pieces: Vec<String> = self.by_side[s]
                .iter()
                .map(|c| {
                    let mut text = Self::piece_text(game, self.board[c] as usize - 1);
                    if self.stacked.has(c) {
                        text.push('/');
                        text += &Self::piece_text(game, self.under[c] as usize - 1);
                    }
                    text + game.cell_name(c as u16)
                })
                .collect();
            parts.push(format!("{}={}", side.name, pieces.join(",")));
        }
        let hands: Vec<String> = (0..game.sides)
            .filter_map(|s| {
                let held: String = (0..game.kinds)
                    .flat_map(|k| {
                        std::iter::repeat_n(game.symbol(k), self.hand[s * game.kinds + k] as usize)
                    })
                    .collect();
                (!held.is_empty()).then(|| format!("{}:{held}", game.tables.sides[s].name))
            })
            .collect();
        if !hands.is_empty() {
            parts.push(format!("hand={}", hands.join(",")));
        }
        if self.out != 0 {
            let out: Vec<&str> = (0..game.sides).filter(|&s| self.is_out(s)).map(|s| game.tables.sides[s].name.as_str()).collect();
            parts.push(format!("out={}", out.join(",")));
        }
        if !self.virgin.is_empty() {
            let v: Vec<&str> = self.virgin.iter().map(|c| game.cell_name(c as u16)).collect();
            parts.push(format!("virgin={}", v.join(",")));
        }
        if !self.ep_cells.is_empty() {
            let v: Vec<&str> = self.ep_cells.iter().map(|c| game.cell_name(c as u16)).collect();
            parts.push(format!("ep={}:{}", v.join(","), game.cell_name(self.ep_victim)));
        }
        if self.checks.iter().any(|&n| n > 0) {
            let given: Vec<String> = self.checks.iter().enumerate().map(|(s, n)| format!("{}:{n}", game.tables.sides[s].name)).collect();
            parts.push(format!("checks={}", given.join(",")));
        }
        match self.passes {
            crate::passing::PASSED => parts.push("pass=last".into()),
            crate::passing::ENDED_PASSING => parts.push("pass=twice".into()),
            crate::passing::ENDED_FACING => parts.push("pass=facing".into()),
            _ => {}
        }
        parts.push(format!("clock={}", self.halfmove));
        parts.push(format!("move={}", self.fullmove));
        parts.join(" ")
    }

    /// FEN where it describes this position, else the general notation. FEN cannot say which
    /// pieces have moved beyond the castling rights (a piece on a setup cell of its kind reads as
    /// unmoved) nor hold more than one en-passant cell, so it is used only when reading it back
    /// gives the same position: same hash, en passant and unmoved state where a move depends on it.
    pub fn to_text(&self, game: &Game<B>) -> String {
        self.to_fen(game)
            .filter(|fen| Self::from_fen(game, fen).is_ok_and(|back| self.same_as(game, &back)))
            .unwrap_or_else(|| self.to_general(game))
    }

    /// The same position for move generation and repetition.
    fn same_as(&self, game: &Game<B>, o: &Position<B>) -> bool {
        let matters = |p: &Position<B>| {
            let mut set = B::default();
            for c in p.virgin.iter() {
                let code = p.board[c] as usize;
                let castling = game.castle_cells.iter().any(|&(k, r)| k == c || r == c);
                if castling || (code != 0 && game.rays_of(code - 1, c).iter().any(|r| r.flags & ray::INITIAL != 0)) {
                    set.insert(c);
                }
            }
            set
        };
        self.hash == o.hash
            && self.board == o.board
            && self.under == o.under
            && self.hand == o.hand
            && self.to_move == o.to_move
            && self.out == o.out
            && self.ep_cells == o.ep_cells
            && self.ep_victim == o.ep_victim
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.checks == o.checks
            && matters(self) == matters(o)
    }

    /// Rejects positions that cannot arise: a piece on a transit cell, a side in the game without
    /// its royal piece, the side that moved last (the side in the game before the side to move)
    /// in check, a promoting piece standing in its promotion zone, sides out of a game where no
    /// side can go out, or so many out that fewer than two teams remain.
    pub fn check(&self, game: &Game<B>) -> Result<(), PositionError> {
        // (By the board, not the sets: a set may hold no transit cell, `crate::bits::Standing64`.)
        if let Some(c) = (0..game.cells).find(|&c| self.board[c] != 0 && game.is_transit(c)) {
            return err(format!("{} is a transit cell: no piece can stand there", game.cell_name(c as u16)));
        }
        let name = |s: usize| game.tables.sides[s].name.as_str();
        if self.out != 0 {
            if !game.eliminations {
                return err(if game.team_sides.len() < 3 {
                    "no side can be out: sides go out only in games of three or more teams"
                } else {
                    "no side can be out: under `game-end first-mate` the first mate ends the game"
                });
            }
            if game.live_teams(self.out) < 2 {
                return err("fewer than two teams are left in the game: it ended before");
            }
            if self.is_out(self.to_move) {
                return err(format!("turn: {} is out of the game", name(self.to_move)));
            }
        }
        let removed = game.tables.rules.eliminated == crate::tables::Eliminated::Remove;
        let any_royal = game.tables.kinds.iter().any(|k| k.royal);
        for s in 0..game.sides {
            if self.is_out(s) {
                if removed && !self.by_side[s].is_empty() {
                    return err(format!("{} is out, but has pieces on the board (`eliminated remove` takes them off)", name(s)));
                }
            } else if any_royal
                && self.royals(game, s).is_empty()
                && !(0..game.kinds)
                    .any(|k| game.royal[s * game.kinds + k] && self.hand[s * game.kinds + k] > 0)
            {
                return err(format!("{} has no royal piece", name(s)));
            }
            for k in 0..game.kinds {
                let ck = s * game.kinds + k;
                if let Some(p) = &game.promotion[ck] {
                    if let Some(c) = self.by_ck[ck].and(p.zone.and_not(p.optional)).iter().next() {
                        return err(format!(
                            "{} {} on {} stands in its promotion zone",
                            name(s),
                            game.tables.kinds[k].name,
                            game.cell_name(c as u16)
                        ));
                    }
                }
            }
        }
        // The side that moved last left no royal piece attacked. Under `eliminated remove` a side
        // going out may uncover an attack on it, so once a side is out that is not checked.
        let last = self.previous_live(game, self.to_move);
        // A pass while royal pieces face each other is legal in check, and ends the game
        // (`facing`): the side that passed may be in check then.
        let passed_in_check = self.passes == crate::passing::ENDED_FACING;
        if last != self.to_move && !(removed && self.out != 0) && !passed_in_check && self.in_check(game, last) {
            return err(if game.sides == 2 {
                format!("{} is in check but it is not their turn", name(last))
            } else {
                format!("{} is in check, but it moved last (before {}, whose turn it is)", name(last), name(self.to_move))
            });
        }
        Ok(())
    }

    /// The move in the notation described in the module documentation.
    pub fn notation(&self, game: &Game<B>, mv: Move) -> String {
        if mv.kind == MoveKind::Pass {
            return "pass".into();
        }
        if mv.kind == MoveKind::Castle {
            return game.tables.sides[self.to_move].castles[mv.aux as usize].name.clone();
        }
        if mv.kind == MoveKind::Drop {
            return format!("{}@{}", game.symbol(mv.aux as usize), game.cell_name(mv.to));
        }
        if mv.kind == MoveKind::Crown {
            // `K@Rz2`: the crown onto the Rook on z2 (the hidden one when the stack's top is no carrier).
            let cell = mv.to as usize;
            let carrier = if mv.aux & crate::position::CROWN_HIDDEN != 0 {
                self.under[cell]
            } else {
                self.board[cell]
            };
            return format!(
                "{}@{}{}",
                game.symbol((mv.aux & 0xff) as usize),
                Self::piece_text(game, carrier as usize - 1),
                game.cell_name(mv.to)
            );
        }
        let ck = self.board[mv.from as usize] as usize - 1;
        let capture = self.board[mv.to as usize] != 0 && mv.kind != MoveKind::Stationary || mv.kind == MoveKind::EnPassant;
        let mut s = format!(
            "{}{}{}{}",
            game.symbol(ck % game.kinds),
            game.cell_name(mv.from),
            if capture { 'x' } else { '-' },
            game.cell_name(mv.to)
        );
        if mv.promotion != NO_PROMOTION {
            s.push('=');
            s.push(game.symbol(mv.promotion as usize));
        }
        if mv.kind == MoveKind::EnPassant {
            s += "ep";
        }
        s
    }

    /// Finds the legal move written `text`: its notation, its name (castling), or `FROM-TO`,
    /// `FROMxTO`, `FROMTO`, `FROM-TO=Q`, with the piece letter and an en-passant `ep` optional,
    /// or on grid boards its SAN (`Nf3`, [`crate::san`]).
    pub fn parse_move(&mut self, game: &Game<B>, text: &str) -> Result<Move, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(game, &mut moves);
        let want = text.trim();
        // A move's own notation always reads as that move, even where a short form of another
        // move is spelt the same (Webball's Pawn on R, `PR-RV`, and Ringer on PR, `RPR-RV`).
        let exact: Vec<Move> = moves.iter().copied().filter(|&mv| self.notation(game, mv) == want).collect();
        if let [mv] = exact[..] {
            return Ok(mv);
        }
        let written = |mv: Move, promotion: bool| self.spellings(game, mv, promotion).iter().any(|s| s == want);
        let matches: Vec<Move> = moves.iter().copied().filter(|&mv| written(mv, true)).collect();
        match matches.len() {
            1 => Ok(matches[0]),
            0 => {
                // Standard algebraic notation (`Nf3`, `exd5`), as PGN from other tools writes it.
                if let Some(mv) = self.parse_san(game, &moves, want)? {
                    return Ok(mv);
                }
                // Castling as the royal piece's own move (`e1g1`, `Ke1-g1`), as coordinate
                // notation writes it: only where no other move is written so (on a sphere the
                // king may step e8-c8 over the pole).
                let castles: Vec<Move> = moves.iter().copied().filter(|&mv| self.castle_as_king_move(game, mv, want)).collect();
                if let [mv] = castles[..] {
                    return Ok(mv);
                }
                let choices: Vec<String> = moves
                    .iter()
                    .filter(|&&mv| mv.promotion != NO_PROMOTION && written(mv, false))
                    .map(|&mv| format!("={}", game.symbol(mv.promotion as usize)))
                    .collect();
                if !choices.is_empty() {
                    return Err(MoveError(format!("'{want}' promotes: add one of {}", choices.join(" "))));
                }
                Err(MoveError(format!("illegal move '{want}' in this position; {}", self.suggest(game, &moves, want))))
            }
            _ => {
                let readings: Vec<String> = matches.iter().map(|&mv| self.notation(game, mv)).collect();
                Err(MoveError(format!("'{want}' is ambiguous: it reads as {}", readings.join(" or "))))
            }
        }
    }

    /// The legal moves worth showing after `want` failed: those of the piece it starts from, if
    /// it names one that can move, else all of them (the first [`SUGGESTED_MOVES`]).
    fn suggest(&self, game: &Game<B>, moves: &[Move], want: &str) -> String {
        if moves.is_empty() {
            return "there are no legal moves (the game is over)".into();
        }
        let starts_from = |mv: Move| {
            if mv.kind == MoveKind::Drop {
                return want.contains('@');
            }
            if mv.kind == MoveKind::Pass {
                return false;
            }
            let symbol = game.symbol((self.board[mv.from as usize] as usize - 1) % game.kinds);
            let rest = want.strip_prefix(symbol).unwrap_or(want);
            mv.kind != MoveKind::Castle && game.cell_names(mv.from).iter().any(|name| rest.starts_with(name))
        };
        let mut own: Vec<String> = moves.iter().filter(|&&mv| starts_from(mv)).map(|&mv| self.notation(game, mv)).collect();
        let what = if own.is_empty() {
            own = moves.iter().map(|&mv| self.notation(game, mv)).collect();
            "the legal moves are"
        } else {
            "the legal moves of that piece are"
        };
        own.sort();
        let more = own.len().saturating_sub(SUGGESTED_MOVES);
        own.truncate(SUGGESTED_MOVES);
        let mut text = format!("{what} {}", own.join(" "));
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        text
    }

    /// Every accepted way to write `mv`, its notation first. Built from the cell names rather than
    /// by editing the notation, since cell names may contain `x` or `-`.
    /// `promotion: false` leaves out the promotion suffix (to recognise a missing one).
    /// Whether `want` writes the castling move `mv` as its royal piece's move.
    fn castle_as_king_move(&self, game: &Game<B>, mv: Move, want: &str) -> bool {
        if mv.kind != MoveKind::Castle {
            return false;
        }
        let c = &game.castles[self.to_move][mv.aux as usize];
        let symbol = game.symbol((self.board[c.king_from as usize] as usize - 1) % game.kinds);
        let (from, to) = (game.cell_name(c.king_from), game.cell_name(c.king_to));
        [format!("{from}{to}"), format!("{from}-{to}"), format!("{symbol}{from}-{to}"), format!("{symbol}{from}{to}")].iter().any(|s| s == want)
    }

    fn spellings(&self, game: &Game<B>, mv: Move, promotion: bool) -> Vec<String> {
        let notation = self.notation(game, mv);
        if mv.kind == MoveKind::Castle {
            return vec![notation];
        }
        if mv.kind == MoveKind::Pass {
            // Fairy-Stockfish writes a pass as the royal piece's move to its own cell (`e2e2`).
            let mut out = vec![notation];
            if self.board[mv.from as usize] != 0 {
                out.extend(game.cell_names(mv.from).iter().map(|name| format!("{name}{name}")));
            }
            return out;
        }
        if mv.kind == MoveKind::Drop {
            let symbol = game.symbol(mv.aux as usize);
            let mut out = vec![notation];
            out.extend(game.cell_names(mv.to).iter().map(|name| format!("{symbol}@{name}")));
            return out;
        }
        if mv.kind == MoveKind::Crown {
            let crown = game.symbol((mv.aux & 0xff) as usize);
            let mut out = vec![notation];
            out.extend(
                game.cell_names(mv.to)
                    .iter()
                    .map(|name| format!("{crown}@{name}")),
            );
            return out;
        }
        let symbol = game
            .symbol((self.board[mv.from as usize] as usize - 1) % game.kinds)
            .to_string();
        let promotion = if promotion && mv.promotion != NO_PROMOTION {
            format!("={}", game.symbol(mv.promotion as usize))
        } else {
            String::new()
        };
        let eps: &[&str] = if mv.kind == MoveKind::EnPassant {
            &["ep", ""]
        } else {
            &[""]
        };
        let mut out = vec![notation];
        // Every name of an identified cell is accepted.
        for from in game.cell_names(mv.from) {
            for to in game.cell_names(mv.to) {
                for piece in [symbol.as_str(), ""] {
                    for sep in ["-", "x", ""] {
                        for ep in eps {
                            out.push(format!("{piece}{from}{sep}{to}{promotion}{ep}"));
                        }
                    }
                }
                // UCI's coordinates, the promotion as a lower-case letter (`e7e8q`).
                if !promotion.is_empty() {
                    out.push(format!("{from}{to}{}", promotion[1..].to_lowercase()));
                    // Fairy-Stockfish's letter: `+` for Shogi's promoted pieces, `q` for `Q~`.
                    out.push(format!("{from}{to}{}", game.uci_promotion(mv.promotion as usize)));
                }
            }
        }
        out
    }
}

/// `text` as cell names run together (`d3c4`), read from the left taking the longest name each
/// time; `None` unless the whole text is read so.
fn split_cells<B: CellSet>(game: &Game<B>, text: &str) -> Option<Vec<usize>> {
    let mut cells = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let cut = (1..=rest.len()).rev().filter(|&n| rest.is_char_boundary(n)).find(|&n| game.cell_by_name(&rest[..n]).is_some())?;
        cells.push(game.cell_by_name(&rest[..cut])? as usize);
        rest = &rest[cut..];
    }
    (cells.len() > 1).then_some(cells)
}
