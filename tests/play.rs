//! `orbis play` driven through standard input as a person would type: a scripted game to mate,
//! commands, mistakes, and save/load round trips.

mod common;

use common::cli::Temp;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `orbis COMMAND ARGS` with `input` typed line by line; returns its exit code and output.
fn run(command: &str, args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .arg(command)
        .args(args)
        .current_dir(common::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("orbis runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
    let out = child.wait_with_output().expect("orbis ends");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn play(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    run("play", args, input)
}

fn uci(file: &str, input: &str) -> (Option<i32>, String, String) {
    run("uci", &[file], input)
}

#[test]
fn a_scripted_game_ends_in_mate() {
    // Fool's mate, in the long and the short notations.
    let (code, out, err) = play(&["examples/orthodox.orbis"], "f2f3\nPe7-e5\ng2-g4\nd8h4\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("last move: Qd8-h4"), "{out}");
    assert!(out.contains("game over: checkmate: white is mated"), "{out}");
    assert!(out.contains("white to move"), "{out}");
}

#[test]
fn check_and_the_last_move_are_marked_and_flip_turns_the_board() {
    // 1. e4 f5 2. Qh5+: the black king on e8 in check, the queen's move marked.
    let (code, out, err) = play(&["examples/orthodox.orbis"], "e2e4\nf7f5\nd1h5\nflip\n");
    assert_eq!(code, Some(0), "{err}");
    let boards: Vec<&str> = out.split("Orthodox chess — ").collect();
    let checked = boards[4];
    assert!(checked.contains("8 │ r  n  b  q !k! b  n  r │ 8"), "{checked}");
    assert!(checked.contains("5 │ ·     ·     ·  p  · (Q)│ 5"), "{checked}");
    assert!(checked.contains("1 │ R  N  B (·) K  B  N  R │ 1"), "{checked}");
    assert!(checked.contains("marks: (x) the last move, !x! in check"), "{checked}");
    assert!(checked.contains("check: black (e8)"), "{checked}");
    // Turned round: the first rank on top, the files from h to a.
    let flipped = boards[5];
    let rows: Vec<&str> = flipped.lines().filter(|l| l.contains('│')).collect();
    assert!(rows[0].starts_with("1 │ R  N  B  K (·) B  N  R"), "{flipped}");
    assert!(flipped.contains("     h  g  f  e  d  c  b  a"), "{flipped}");
    // Boards of polygons have no second side's view.
    let (_, out, _) = play(&["examples/soccer-ball/soccer-ball.orbis"], "flip\n");
    assert!(out.contains("`flip` turns grid boards round"), "{out}");
}

#[test]
fn mistakes_get_a_message_and_the_game_goes_on() {
    let (code, out, _) = play(&["examples/orthodox.orbis"], "e2e5\nmoves g1\nsave\nundo\nbanana\ne2e4\nquit\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("illegal move 'e2e5'"), "{out}");
    assert!(out.contains("2 legal moves from g1: Ng1-f3 Ng1-h3"), "{out}");
    assert!(out.contains("`save` needs a file name"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("illegal move 'banana'"), "{out}");
    assert!(out.contains("last move: Pe2-e4"), "{out}");
    assert!(out.contains("black to move"), "{out}");
}

#[test]
fn undo_redo_and_new() {
    let (_, out, _) = play(&["examples/orthodox.orbis"], "e2e4\ne7e5\nundo\nundo\nredo\nnew\nquit\n");
    let lasts: Vec<&str> = out.lines().filter(|l| l.starts_with("last move:") || l.ends_with("to move")).collect();
    assert_eq!(
        lasts,
        ["white to move", "last move: Pe2-e4", "black to move", "last move: Pe7-e5", "white to move", "last move: Pe2-e4", "black to move", "white to move", "last move: Pe2-e4", "black to move", "white to move"]
    );
}

#[test]
fn a_saved_game_loads_back_and_reads_as_pgn() {
    let pgn = Temp::new("game.pgn");
    let script = format!("e2e4\ne7e5\ng1f3\nsave {}\nquit\n", pgn.path());
    let (code, _, err) = play(&["examples/orthodox.orbis"], &script);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    assert!(text.contains("[Variant \"Orthodox chess\"]"), "{text}");
    assert!(text.contains("1. e4 e5 2. Nf3 *"), "{text}");
    let (_, out, _) = play(&["examples/orthodox.orbis"], &format!("load {}\nb8c6\nquit\n", pgn.path()));
    assert!(out.contains("last move: Ng1-f3"), "{out}");
    assert!(out.contains("last move: Nb8-c6"), "{out}");
}

#[test]
fn a_game_on_the_soccer_ball_from_a_position_saves_its_start() {
    let pgn = Temp::new("ball.pgn");
    let script = format!("K@Rz2\nK@Nx3\nPz1-y3\nsave {}\nquit\n", pgn.path());
    let (code, out, err) = play(&["examples/soccer-ball/soccer-ball.orbis"], &script);
    assert_eq!(code, Some(0), "{err}");
    // Pz1-y3 uncovers the Bishop on z1, which mates the Knight that carries Black's King.
    assert!(out.contains("game over: checkmate: black is mated"), "{out}");
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    assert!(text.contains("1. K@Rz2 K@Nx3 2. Pz1-y3 1-0"), "{text}");
    // From a position: the FEN tag holds it, and loading replays from there.
    let start = "turn=white white=W(K)L,Pz2 black=N(K)x3,Pz0 clock=0 move=10";
    let script = format!("Pz2-y5\nsave {}\nquit\n", pgn.path());
    let (code, _, err) = play(&["examples/soccer-ball/soccer-ball.orbis", "--position", start], &script);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    assert!(text.contains(&format!("[FEN \"{start}\"]")), "{text}");
    let (_, out, _) = play(&["examples/soccer-ball/soccer-ball.orbis"], &format!("load {}\nquit\n", pgn.path()));
    assert!(out.contains("last move: Pz2-y5"), "{out}");
}

#[test]
fn a_bad_start_position_is_an_error() {
    let (code, _, err) = play(&["examples/orthodox.orbis", "--position", "8/8/8/8/8/8/8/8 w - - 0 1"], "quit\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("bad position"), "{err}");
}

#[test]
fn the_engine_answers_every_move() {
    let (code, out, err) = play(&["examples/orthodox.orbis", "--engine", "black", "--time", "50"], "e2e4\nd2d4\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("black plays ")).count(), 2, "{out}");
    assert_eq!(out.lines().filter(|l| *l == "white to move").count(), 3, "{out}");
    // The engine plays both sides of a whole game on the soccer ball, to its end.
    let (code, out, err) = play(&["examples/soccer-ball/soccer-ball.orbis", "--engine", "both", "--time", "20"], "quit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("game over: "), "{out}");
    let (code, _, err) = play(&["examples/orthodox.orbis", "--engine", "purple"], "quit\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("--engine purple: not a side (white, black)"), "{err}");
}

#[test]
fn search_finds_a_mate_from_the_command_line() {
    let out = common::cli::orbis(&["search", "examples/orthodox.orbis", "--position", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "3", "--json"]);
    let v = out.ok().json();
    assert_eq!(v["best"], "Ra1-a8");
    assert_eq!(v["score"]["mate"], 1);
    let out = common::cli::orbis(&["search", "examples/orthodox.orbis"]);
    out.fails_with(&["--depth N or --movetime MS"]);
}

#[test]
fn uci_answers_a_match_runner() {
    let script = "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1\ngo depth 3\n\
                  position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo movetime 200\n\
                  position startpos moves e2e5\nfoo\nposition fen 7k/P7/8/8/8/8/8/K7 w - - 0 1\ngo depth 2\n";
    let (code, out, err) = uci("examples/orthodox.orbis", script);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[..4], ["id name orbis (Orthodox chess)", "id author the orbis developers", "uciok", "readyok"]);
    let best: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("bestmove ")).collect();
    assert_eq!(best.len(), 3, "{out}");
    assert_eq!(best[1], "a1a8", "the back-rank mate: {out}");
    assert_eq!(best[2], "a7a8q", "promotion in coordinates: {out}");
    assert!(out.contains("info string error: position: illegal move `e2e5`"), "{out}");
    assert!(out.contains("info string unknown command: foo"), "{out}");
    assert!(out.contains("score mate 1"), "{out}");
    // A spherical variant on a grid board is driven the same way (castling across the pole's files).
    let (code, out, err) = uci("examples/spherical/nadvorney.orbis", "position startpos moves e2e4\ngo depth 3\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ") && l.len() >= 13), "{out}");
    let (code, _, err) = uci("examples/soccer-ball/soccer-ball.orbis", "uci\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("uci needs a variant on a grid board with two sides"), "{err}");
}

#[test]
fn selfplay_reports_the_balance() {
    let out = common::cli::orbis(&["selfplay", "examples/soccer-ball/soccer-ball.orbis", "--games", "6", "--depth", "1", "--json"]);
    let v = out.ok().json();
    assert_eq!(v["games"], 6);
    let (w, b, d) = (v["wins"]["white"].as_u64().unwrap(), v["wins"]["black"].as_u64().unwrap(), v["draws"].as_u64().unwrap());
    assert_eq!(w + b + d, 6);
    let p = v["first_side_score"].as_f64().unwrap();
    let (lo, hi) = (v["first_side_interval"][0].as_f64().unwrap(), v["first_side_interval"][1].as_f64().unwrap());
    assert!(lo <= p && p <= hi && (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi), "{v}");
    assert_eq!(v["games_detail"].as_array().unwrap().len(), 6);
    // The same seed plays the same games at a fixed depth.
    let again = common::cli::orbis(&["selfplay", "examples/soccer-ball/soccer-ball.orbis", "--games", "6", "--depth", "1", "--json"]);
    assert_eq!(again.ok().json(), v);
    let text = common::cli::orbis(&["selfplay", "examples/orthodox.orbis", "--games", "2", "--depth", "1", "--max-plies", "40"]);
    assert!(text.ok().stdout.contains("2 games of Orthodox chess"), "{}", text.stdout);
    common::cli::orbis(&["selfplay", "examples/cube/cube-8x8-four-player.orbis"]).fails_with(&["two sides"]);
}

#[test]
fn the_hands_are_shown_and_a_drop_is_typed() {
    // Crazyhouse: two pawn captures put a pawn in each hand; white drops its pawn on e4.
    let (code, out, err) = play(&["examples/fairy/crazyhouse.orbis"], "e2e4\nd7d5\ne4d5\nd8d5\nP@e4\n");
    assert_eq!(code, Some(0), "{err}");
    let boards: Vec<&str> = out.split("Crazyhouse — ").collect();
    assert!(boards[5].starts_with("given position (in hand: white P, black P)"), "{}", boards[5]);
    let dropped = boards[6];
    assert!(dropped.starts_with("given position (in hand: black P)"), "{dropped}");
    assert!(dropped.contains("4 │    ·     · (P) ·     · │ 4"), "{dropped}");
    assert!(dropped.contains("last move: P@e4"), "{dropped}");
}
