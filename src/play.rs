//! `orbis play`: a game in the terminal, one line a move or a command, over any input and output
//! (so the tests drive it through standard input). The position is always replayed from the start
//! position and the moves played (`Engine::play_status`), so undo, redo, repetition and the end of
//! the game follow the variant's rules without any state of their own.

use orbis_runtime::Engine;
use std::io::{BufRead, Write};

/// How the engine chooses a move: from the game (its start and the moves played, so that
/// repetitions count) to a move's notation.
pub type Chooser<'e> = Box<dyn Fn(Option<&str>, &[&str]) -> Result<String, String> + 'e>;

/// Who the engine plays, if anyone (`--engine`), and how it chooses its moves.
#[derive(Default)]
pub struct Opponent<'e> {
    /// Side names the engine moves for.
    pub sides: Vec<String>,
    pub choose: Option<Chooser<'e>>,
}

/// One game: its start, the moves played and the moves undone (for `redo`).
pub struct Session<'e> {
    engine: &'e Engine,
    start: Option<String>,
    moves: Vec<String>,
    undone: Vec<String>,
    opponent: Opponent<'e>,
    /// The board drawn turned round (`flip`; grid boards).
    flipped: bool,
}

const HELP: &str = "\
commands:
  MOVE             play a move: its notation (Ng1-f3, Pe7-e8=Q, O-O, K@Rz2, pass) or short (g1f3, e7e8=Q)
  moves [CELL]     the legal moves (of the piece on CELL)
  undo / redo      take back the last move / play it again
  new              start again from the start position
  flip             turn the board round (grid boards)
  save FILE        write the game as PGN
  load FILE        read a game saved as PGN
  help             this text
  quit             leave";

impl<'e> Session<'e> {
    pub fn new(engine: &'e Engine, start: Option<String>, opponent: Opponent<'e>) -> Session<'e> {
        Session { engine, start, moves: Vec::new(), undone: Vec::new(), opponent, flipped: false }
    }

    fn moves(&self) -> Vec<&str> {
        self.moves.iter().map(String::as_str).collect()
    }

    /// The current position's text and the game's status.
    fn state(&self) -> Result<(String, String), String> {
        self.engine.play_status(self.start.as_deref(), &self.moves()).map_err(|e| e.to_string())
    }

    /// The board (the last move and a royal in check marked), the side to move and how the game
    /// stands.
    fn show(&self, out: &mut impl Write) -> Result<(), String> {
        let view = self.engine.view(self.start.as_deref(), &self.moves()).map_err(|e| e.to_string())?;
        let opts = orbis_diagram::Options {
            position: Some(view.text.clone()),
            format: orbis_diagram::Format::Text,
            last: view.last.iter().flat_map(|m| [m.from.clone(), m.to.clone()]).collect(),
            check: view.check.clone(),
            flip: self.flipped,
            ..Default::default()
        };
        let board = orbis_diagram::render(self.engine, &opts)?;
        let mut lines = String::new();
        lines += &board;
        if let Some(last) = self.moves.last() {
            lines += &format!("last move: {last}\n");
        }
        if !view.is_over() && !view.check.is_empty() {
            lines += &format!("check: {} ({})\n", view.to_move, view.check.join(" "));
        }
        if view.is_over() {
            lines += &format!("game over: {}\n", view.status);
        } else {
            lines += &format!("{} to move\n", view.to_move);
        }
        write!(out, "{lines}").map_err(|e| e.to_string())
    }

    /// Plays `text` if it is a legal move; the error names the legal moves otherwise.
    fn play(&mut self, text: &str) -> Result<(), String> {
        let mut moves = self.moves();
        moves.push(text);
        let (after, _) = self.engine.play_status(self.start.as_deref(), &moves).map_err(|e| e.to_string())?;
        // Store the move as the engine writes it, so saved games read back anywhere.
        let before = self.state()?.0;
        let notation = self
            .engine
            .moves(Some(&before))
            .map_err(|e| e.to_string())?
            .into_iter()
            .find(|m| self.engine.play(Some(&before), &[m.notation.as_str()]).is_ok_and(|p| p == after))
            .map_or_else(|| text.to_string(), |m| m.notation);
        self.moves.push(notation);
        self.undone.clear();
        Ok(())
    }

    /// The engine's move for the side to move, if it plays that side and the game goes on.
    fn engine_turn(&mut self, out: &mut impl Write) -> Result<bool, String> {
        let Some(choose) = &self.opponent.choose else { return Ok(false) };
        let (text, status) = self.state()?;
        let turn = side_to_move(self.engine, &text);
        if status != "ongoing" || !self.opponent.sides.contains(&turn) {
            return Ok(false);
        }
        let mv = choose(self.start.as_deref(), &self.moves())?;
        writeln!(out, "{turn} plays {mv}").map_err(|e| e.to_string())?;
        self.play(&mv)?;
        Ok(true)
    }

    /// Runs the game: reads lines from `input` until `quit` or its end, writing to `out`.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        writeln!(out, "{}\ntype `help` for the commands", self.engine.tables().name).map_err(io)?;
        while self.engine_turn(out)? {}
        self.show(out)?;
        for line in input.lines() {
            let line = line.map_err(io)?;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
            let reply: Result<bool, String> = match word {
                "quit" | "exit" => return Ok(()),
                "help" => writeln!(out, "{HELP}").map_err(io).map(|_| false),
                "moves" => self.list_moves(rest, out).map(|_| false),
                "undo" => match self.moves.pop() {
                    Some(m) => {
                        self.undone.push(m);
                        Ok(true)
                    }
                    None => Err("nothing to undo".into()),
                },
                "redo" => match self.undone.pop() {
                    Some(m) => {
                        self.moves.push(m);
                        Ok(true)
                    }
                    None => Err("nothing to redo".into()),
                },
                "flip" => {
                    if self.engine.tables().grid.is_none() {
                        Err("`flip` turns grid boards round; this board has no second side's view".into())
                    } else {
                        self.flipped = !self.flipped;
                        Ok(true)
                    }
                }
                "new" => {
                    self.moves.clear();
                    self.undone.clear();
                    Ok(true)
                }
                "save" if !rest.is_empty() => {
                    std::fs::write(rest, self.pgn()).map_err(|e| format!("cannot write {rest}: {e}"))?;
                    writeln!(out, "saved to {rest}").map_err(io).map(|_| false)
                }
                "load" if !rest.is_empty() => self.load(rest).map(|_| true),
                "save" | "load" => Err(format!("`{word}` needs a file name: `{word} game.pgn`")),
                _ => self.play(line).map(|_| true).map_err(|e| e.replace("move 1: ", "")),
            };
            match reply {
                Ok(true) => {
                    if word != "undo" {
                        while self.engine_turn(out)? {}
                    }
                    self.show(out)?;
                }
                Ok(false) => {}
                Err(e) => writeln!(out, "{e}").map_err(io)?,
            }
        }
        Ok(())
    }

    fn list_moves(&self, cell: &str, out: &mut impl Write) -> Result<(), String> {
        let (text, _) = self.state()?;
        let moves = self.engine.moves(Some(&text)).map_err(|e| e.to_string())?;
        let list: Vec<String> = moves.into_iter().filter(|m| cell.is_empty() || m.from == cell).map(|m| m.notation).collect();
        let what = if cell.is_empty() { String::new() } else { format!(" from {cell}") };
        writeln!(out, "{} legal move{}{what}: {}", list.len(), if list.len() == 1 { "" } else { "s" }, list.join(" ")).map_err(|e| e.to_string())
    }

    /// The game as PGN: the seven tags, the variant and, when it did not start from the setup,
    /// its start position (FEN on grid boards, else the general notation). Moves are in SAN on
    /// grid boards of two sides (so other chess tools read them), else in orbis's notation.
    pub fn pgn(&self) -> String {
        let tables = self.engine.tables();
        let mut s = String::from("[Event \"orbis game\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n");
        let side = |i: usize| tables.sides.get(i).map_or("?".to_string(), |s| s.name.replace('"', "'"));
        s += &format!("[White \"{}\"]\n[Black \"{}\"]\n", side(0), side(1));
        s += &format!("[Variant \"{}\"]\n", tables.name.replace('"', "'"));
        if let Some(start) = &self.start {
            s += &format!("[SetUp \"1\"]\n[FEN \"{start}\"]\n");
        }
        // Which side moved first, and the move number it starts at (from the FEN's counters).
        let start_text = self.engine.position_text(self.start.as_deref()).unwrap_or_default();
        let black_first = tables.sides.len() == 2 && side_to_move(self.engine, &start_text) == tables.sides[1].name;
        let first_number: usize = start_text.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
        let result = match self.state().map(|(_, status)| status) {
            Ok(status) if status.starts_with("checkmate") || status.starts_with("bare") => {
                // The side that made the last move won.
                let white_moved_last = (self.moves.len() + black_first as usize) % 2 == 1;
                if white_moved_last { "1-0" } else { "0-1" }
            }
            Ok(status) if status.starts_with("draw") => "1/2-1/2",
            _ => "*",
        };
        s += &format!("[Result \"{result}\"]\n\n");
        let san = tables.grid.is_some() && tables.sides.len() == 2;
        let moves = match san {
            true => self.engine.san(self.start.as_deref(), &self.moves()).unwrap_or_else(|_| self.moves.clone()),
            false => self.moves.clone(),
        };
        let mut line = String::new();
        for (i, m) in moves.iter().enumerate() {
            let ply = i + black_first as usize;
            let number = first_number + ply / 2;
            if ply.is_multiple_of(2) {
                line += &format!("{number}. ");
            } else if i == 0 {
                line += &format!("{number}... ");
            }
            line += m;
            line.push(' ');
        }
        s + line.trim_end() + &format!(" {result}\n")
    }

    /// Reads a game saved by `save` (or any PGN of this variant in orbis's move notation).
    fn load(&mut self, path: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let (start, moves) = parse_pgn(&text)?;
        let view = self.engine.view(start.as_deref(), &moves.iter().map(String::as_str).collect::<Vec<_>>()).map_err(|e| format!("{path}: {e}"))?;
        self.start = start;
        // Kept in orbis's notation, whatever notation the file used (SAN, coordinates).
        self.moves = view.played;
        self.undone.clear();
        Ok(())
    }
}

/// The side to move in a position's text (FEN's `w`/`b`, or the general notation's `turn=`).
pub fn side_to_move(engine: &Engine, text: &str) -> String {
    let sides = &engine.tables().sides;
    if let Some(turn) = text.split_whitespace().find_map(|t| t.strip_prefix("turn=")) {
        return turn.to_string();
    }
    match text.split_whitespace().nth(1) {
        Some("b") if sides.len() > 1 => sides[1].name.clone(),
        _ => sides[0].name.clone(),
    }
}

/// The start position (the `FEN` tag) and the moves of a PGN game; comments, move numbers and the
/// result are skipped.
pub fn parse_pgn(text: &str) -> Result<(Option<String>, Vec<String>), String> {
    let mut start = None;
    let mut body = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            let tag = tag.trim_end_matches(']');
            if let Some((name, value)) = tag.split_once(' ') {
                if name == "FEN" {
                    start = Some(value.trim().trim_matches('"').to_string());
                }
            }
        } else {
            body += line;
            body.push('\n');
        }
    }
    // Comments `{...}` and `;...`, variations `(...)` and annotation glyphs `$n` are skipped;
    // move numbers may stand alone (`12.`, `12...`) or stick to the move (`12.Nf3`).
    let mut clean = String::new();
    let (mut in_comment, mut depth) = (false, 0usize);
    for line in body.split('\n') {
        for c in line.chars() {
            match c {
                '}' if in_comment => in_comment = false,
                _ if in_comment => {}
                '{' => in_comment = true,
                ';' => break,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                c => clean.push(c),
            }
        }
        clean.push(' ');
    }
    let mut moves = Vec::new();
    for token in clean.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            continue;
        }
        // A move number: digits followed by dots.
        let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let token = match token[digits..].strip_prefix('.') {
            Some(rest) if digits > 0 => rest.trim_start_matches('.'),
            _ => token,
        };
        if token.is_empty() || token.starts_with('$') {
            continue;
        }
        moves.push(token.to_string());
    }
    Ok((start, moves))
}
