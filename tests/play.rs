//! `orbis play` driven through standard input as a person would type: a scripted game to mate,
//! commands, mistakes, and save/load round trips.

mod common;

use common::cli::Temp;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `orbis play ARGS` with `input` typed line by line; returns its exit code and output.
fn play(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .arg("play")
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
    assert!(text.contains("1. Pe2-e4 Pe7-e5 2. Ng1-f3 *"), "{text}");
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
