//! `orbis uci`: the Universal Chess Interface over standard input and output, for variants on grid
//! boards with two sides, so that match runners and GUIs can drive the engine. Moves are in the
//! coordinate form (`e2e4`, `e7e8q`, castling as the king's move `e1g1`, drops `P@e4`, Shogi's
//! promotions `c7c8+`), positions `startpos` or FEN. The search runs on its own thread, so `stop` ends it early with the best move so far.

use orbis_runtime::{Engine, MoveInfo, SearchLimits};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A move in UCI's coordinate form (Fairy-Stockfish's for drops and promoted pieces).
fn uci_move(m: &MoveInfo) -> String {
    m.uci.clone()
}

/// The position after `position ...`: its text, or why it was refused.
fn set_position(engine: &Engine, args: &str) -> Result<String, String> {
    let (base, moves) = match args.split_once(" moves ") {
        Some((b, m)) => (b.trim(), m.split_whitespace().collect::<Vec<_>>()),
        None => (args.trim().trim_end_matches(" moves").trim(), Vec::new()),
    };
    let mut text = if base == "startpos" {
        engine.position_text(None).map_err(|e| e.to_string())?
    } else if let Some(fen) = base.strip_prefix("fen ") {
        engine.position_text(Some(fen.trim())).map_err(|e| e.to_string())?
    } else {
        return Err(format!("position: expected `startpos` or `fen FEN`, found `{base}`"));
    };
    for mv in moves {
        let legal = engine.moves(Some(&text)).map_err(|e| e.to_string())?;
        let Some(m) = legal.iter().find(|m| uci_move(m) == mv) else {
            return Err(format!("position: illegal move `{mv}`"));
        };
        text = engine.play(Some(&text), &[m.notation.as_str()]).map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// The limits of a `go` command for the side to move (`white`: the first side).
fn limits(args: &str, white: bool) -> SearchLimits {
    let words: Vec<&str> = args.split_whitespace().collect();
    let value = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1)).and_then(|v| v.parse::<u64>().ok());
    let mut l = SearchLimits::default();
    if let Some(d) = value("depth") {
        l.depth = Some(d.clamp(1, 64) as u32);
    }
    if let Some(ms) = value("movetime") {
        l.movetime = Some(Duration::from_millis(ms.max(1)));
    }
    if let Some(n) = value("nodes") {
        l.nodes = Some(n.max(1));
    }
    let (time, inc) = if white { (value("wtime"), value("winc")) } else { (value("btime"), value("binc")) };
    if let (Some(t), None) = (time, l.movetime) {
        // A thirtieth of the clock and most of the increment, never less than 10 ms.
        let moves_to_go = value("movestogo").unwrap_or(30).max(1);
        l.movetime = Some(Duration::from_millis((t / moves_to_go + inc.unwrap_or(0) * 3 / 4).max(10)));
    }
    if words.contains(&"infinite") || (l.depth.is_none() && l.movetime.is_none() && l.nodes.is_none()) {
        l.depth = Some(64);
    }
    l
}

/// Speaks UCI until `quit` or the end of the input.
pub fn run(engine: &Engine, input: impl BufRead, out: &mut (impl Write + Send)) -> Result<(), String> {
    let t = engine.tables();
    if t.grid.is_none() || t.sides.len() != 2 {
        return Err("uci needs a variant on a grid board with two sides (FEN positions and coordinate moves)".into());
    }
    let stop = AtomicBool::new(false);
    let mut position = engine.position_text(None).map_err(|e| e.to_string())?;
    let io = |e: std::io::Error| e.to_string();
    let out = std::sync::Mutex::new(out);
    let say = |line: &str| -> Result<(), String> {
        let mut o = out.lock().map_err(|_| "output lock poisoned".to_string())?;
        writeln!(o, "{line}").and_then(|()| o.flush()).map_err(io)
    };
    std::thread::scope(|scope| -> Result<(), String> {
        let mut searching: Option<std::thread::ScopedJoinHandle<'_, Result<(), String>>> = None;
        let mut quit = false;
        for line in input.lines() {
            let line = line.map_err(io)?;
            let (cmd, args) = line.trim().split_once(' ').map_or((line.trim(), ""), |(c, a)| (c, a.trim()));
            // Every command but `stop`, `isready` and `quit` waits for a running search.
            if !matches!(cmd, "stop" | "isready" | "quit" | "") {
                if let Some(h) = searching.take() {
                    h.join().map_err(|_| "the search thread failed".to_string())??;
                }
            }
            match cmd {
                "uci" => {
                    say(&format!("id name orbis ({})", t.name))?;
                    say("id author the orbis developers")?;
                    say("uciok")?;
                }
                "isready" => say("readyok")?,
                "ucinewgame" => position = engine.position_text(None).map_err(|e| e.to_string())?,
                "position" => match set_position(engine, args) {
                    Ok(p) => position = p,
                    Err(e) => say(&format!("info string error: {e}"))?,
                },
                "go" => {
                    let white = position.split_whitespace().nth(1).is_none_or(|s| s != "b");
                    let l = limits(args, white);
                    stop.store(false, Ordering::SeqCst);
                    let (pos, stop, say) = (position.clone(), &stop, &say);
                    searching = Some(scope.spawn(move || {
                        let r = engine.search_until(Some(&pos), &[], l, Some(stop)).map_err(|e| e.to_string())?;
                        let score = match r.score {
                            orbis_runtime::Score::Cp(cp) => format!("cp {cp}"),
                            orbis_runtime::Score::Mate(n) => format!("mate {n}"),
                        };
                        // The principal variation in coordinates, replayed move by move.
                        let mut pv = Vec::new();
                        let mut at = pos.clone();
                        for n in &r.pv {
                            let legal = engine.moves(Some(&at)).map_err(|e| e.to_string())?;
                            let Some(m) = legal.iter().find(|m| m.notation == *n) else { break };
                            pv.push(uci_move(m));
                            at = engine.play(Some(&at), &[n.as_str()]).map_err(|e| e.to_string())?;
                        }
                        say(&format!("info depth {} score {score} nodes {} time {} pv {}", r.depth, r.nodes, r.elapsed.as_millis(), pv.join(" ")))?;
                        say(&format!("bestmove {}", r.best.as_ref().map_or("0000".to_string(), uci_move)))
                    }));
                }
                "stop" => stop.store(true, Ordering::SeqCst),
                "quit" => {
                    quit = true;
                    break;
                }
                "" => {}
                other => say(&format!("info string unknown command: {other}"))?,
            }
        }
        // `quit` stops a running search; at the end of the input it finishes (scripts).
        if let Some(h) = searching.take() {
            if quit {
                stop.store(true, Ordering::SeqCst);
            }
            h.join().map_err(|_| "the search thread failed".to_string())??;
        }
        Ok(())
    })
}
