//! The messages a user meets for input that is wrong or beyond a limit, as snapshots: each must
//! say what is wrong and how to fix it (docs/limits.md). Diagnostics of variant files are
//! snapshotted per file by tests/diagnostics.rs (examples/invalid); these are the CLI's own.

mod common;

use common::cli::{orbis, Temp};

/// Stderr of a failing run, with the temporary path replaced by `TEMP`.
fn message(args: &[&str], temp: Option<&Temp>) -> String {
    let out = orbis(args);
    out.no_panic();
    assert_ne!(out.code, Some(0), "{}: should fail", out.what);
    match temp {
        Some(t) => out.stderr.replace(t.path(), "TEMP"),
        None => out.stderr,
    }
}

fn snapshot(name: &str, text: String) {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text)
    });
}

#[test]
fn not_utf8_names_the_byte() {
    let mut bytes = b"# orbis\nvariant \"x\"\n# caf".to_vec();
    bytes.extend([0xe9, b'\n']);
    let t = Temp::with("latin1.orbis", &bytes);
    snapshot("message-not-utf8", message(&["check", t.path()], Some(&t)));
}

#[test]
fn endless_input_names_the_limit() {
    snapshot("message-endless-source", message(&["check", "/dev/zero"], None));
    snapshot("message-endless-tables", message(&["inspect", "/dev/zero"], None));
    snapshot("message-endless-perft", message(&["perft", "/dev/zero", "--depth", "1"], None));
    let t = Temp::with("includes-zero.orbis", b"variant \"z\"\ninclude \"/dev/zero\"\n");
    snapshot("message-endless-include", message(&["check", t.path()], Some(&t)));
}

#[test]
fn depth_and_runs_beyond_their_limits() {
    snapshot("message-perft-depth", message(&["perft", "examples/orthodox.orbis", "--depth", "18446744073709551615"], None));
    snapshot("message-perft-bench", message(&["perft", "examples/orthodox.orbis", "--depth", "1", "--bench", "1000000"], None));
}

#[test]
fn an_illegal_move_in_after_is_no_bad_position() {
    // The third move is illegal: the pawn on e4 cannot step onto e5's pawn.
    snapshot("message-after-illegal", message(&["moves", "examples/orthodox.orbis", "--after", "e2e4", "e7e5", "e4e5"], None));
    // A piece named by its cell: its own moves are suggested.
    snapshot("message-after-illegal-piece", message(&["moves", "examples/orthodox.orbis", "--after", "g1g3"], None));
    // A promotion without its choice says which choices there are.
    snapshot(
        "message-after-promotion",
        message(&["moves", "examples/orthodox.orbis", "--position", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "--after", "b7b8"], None),
    );
    // After the end of the game.
    snapshot(
        "message-after-game-over",
        message(&["moves", "examples/orthodox.orbis", "--after", "f2f3", "e7e5", "g2g4", "d8h4", "a2a3"], None),
    );
}
