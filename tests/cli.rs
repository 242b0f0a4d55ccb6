//! The `orbis` command line as a user meets it: the real binary, its exit codes and its output.
//!
//! Every failure must be exit code 1 with an `error:` line on stderr that names the problem; a
//! panic (exit code 101, or 134 with `panic = "abort"`) is always a bug.

mod common;

use common::cli::{orbis, Out, Temp};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ORTHODOX: &str = "examples/orthodox.orbis";
const CYLINDRICAL: &str = "examples/cylindrical.orbis";
const NADVORNEY: &str = "examples/spherical/nadvorney.orbis";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `source` to a temporary table file.
fn compiled(source: &str) -> (Temp, Vec<u8>) {
    let t = Temp::new("tables.orbt");
    let out = orbis(&["compile", source, "-o", t.path()]);
    out.ok();
    assert!(out.stdout.contains(t.path()), "compile should say where it wrote:\n{}", out.stdout);
    let bytes = std::fs::read(&t.0).unwrap();
    (t, bytes)
}

/// Every example variant; the CLI tests compile and play them.
fn valid_examples() -> Vec<String> {
    let files = common::variant_files();
    assert!(files.len() >= 3, "{files:?}");
    files
}

/// `nodes N` of the text output.
fn text_nodes(out: &Out) -> u64 {
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("nodes "))
        .unwrap_or_else(|| panic!("{}: no nodes line:\n{}", out.what, out.stdout));
    line["nodes ".len()..].trim().parse().unwrap()
}

fn perft_json(file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["perft", file];
    args.extend_from_slice(extra);
    args.push("--json");
    let out = orbis(&args);
    out.ok();
    out.json()
}

fn moves_json(file: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["moves", file];
    args.extend_from_slice(extra);
    args.push("--json");
    let out = orbis(&args);
    out.ok();
    match out.json() {
        Value::Array(a) => a,
        other => panic!("{}: expected an array, got {other}", out.what),
    }
}

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_accepts_every_valid_example() {
    for file in valid_examples() {
        let out = orbis(&["check", &file]);
        out.ok();
        assert!(out.stdout.contains(&file) && out.stdout.contains("ok"), "{}:\n{}", out.what, out.stdout);
        assert!(!out.stderr.contains("error"), "{}: errors on a valid file:\n{}", out.what, out.stderr);
    }
}

#[test]
fn check_rejects_every_invalid_example_with_located_diagnostics() {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(root().join("examples/invalid")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() > 10);
    for path in files {
        let rel = format!("examples/invalid/{}", path.file_name().unwrap().to_str().unwrap());
        let out = orbis(&["check", &rel]);
        out.fails_with(&[]);
        assert!(!out.stdout.contains("ok"), "{}: says ok:\n{}", out.what, out.stdout);
        // rustc style: `FILE:LINE:COL` with LINE and COL 1-based numbers.
        let located = out.stderr.match_indices(&format!("{rel}:")).any(|(i, m)| {
            let rest = &out.stderr[i + m.len()..];
            let mut parts = rest.splitn(3, ':');
            let line = parts.next().unwrap_or("");
            let col: String = parts.next().unwrap_or("").chars().take_while(|c| c.is_ascii_digit()).collect();
            line.parse::<u32>().is_ok_and(|l| l >= 1) && col.parse::<u32>().is_ok_and(|c| c >= 1)
        });
        assert!(located, "{}: no {rel}:LINE:COL in the diagnostics:\n{}", out.what, out.stderr);
        // The same file must fail every command that reads source, with the same diagnostics.
        orbis(&["perft", &rel, "--depth", "1"]).fails_with(&[&rel]);
    }
}

#[test]
fn check_missing_file_is_a_clear_error() {
    let missing = Temp::new("does-not-exist.orbis");
    for cmd in ["check", "compile", "inspect"] {
        orbis(&[cmd, missing.path()]).fails_with(&["cannot read", missing.path()]);
    }
    orbis(&["perft", missing.path(), "--depth", "1"]).fails_with(&["cannot read", missing.path()]);
    orbis(&["moves", missing.path()]).fails_with(&["cannot read", missing.path()]);
    // A directory is not a file either.
    orbis(&["check", "examples"]).fails_with(&["examples"]);
}

#[test]
fn check_non_utf8_file_is_a_clear_error() {
    let mut bytes = std::fs::read(root().join(ORTHODOX)).unwrap();
    bytes.splice(0..0, [0xff, 0xfe, 0x80]);
    let t = Temp::with("latin.orbis", &bytes);
    orbis(&["check", t.path()]).fails_with(&["utf-8", t.path()]);
    orbis(&["compile", t.path(), "-o", Temp::new("x.orbt").path()]).fails_with(&["utf-8"]);
}

#[test]
fn check_empty_file_is_a_syntax_error() {
    let t = Temp::with("empty.orbis", b"");
    orbis(&["check", t.path()]).fails_with(&["syntax error", &format!("{}:1:1", t.path())]);
}

// ---------------------------------------------------------------------------------------------
// compile, inspect, perft from tables

#[test]
fn compile_then_inspect_and_perft_from_tables() {
    let (table, bytes) = compiled(ORTHODOX);
    assert!(bytes.starts_with(b"ORBT"), "table files start with the magic bytes");

    let out = orbis(&["inspect", table.path()]);
    out.ok();
    assert!(
        out.stdout.contains("Orthodox chess"),
        "inspect names the variant:\n{}",
        &out.stdout[..500.min(out.stdout.len())]
    );
    for cell in ["a1", "e4", "h8"] {
        assert!(out.stdout.contains(cell), "inspect names cell {cell}");
    }
    for kind in ["King", "Knight", "Pawn"] {
        assert!(out.stdout.contains(kind), "inspect names the piece {kind}");
    }

    let from_tables = orbis(&["perft", table.path(), "--depth", "3"]);
    from_tables.ok();
    let from_source = orbis(&["perft", ORTHODOX, "--depth", "3"]);
    from_source.ok();
    assert_eq!(text_nodes(&from_tables), 8902);
    assert_eq!(text_nodes(&from_source), 8902);
    assert!(from_tables.stdout.contains("depth 3"));
    assert!(from_tables.stdout.contains("nodes/s"));

    // Moves from tables and from source agree too.
    assert_eq!(moves_json(table.path(), &[]), moves_json(ORTHODOX, &[]));
}

#[test]
fn tables_and_source_agree_on_every_example() {
    for file in valid_examples() {
        let (table, _) = compiled(&file);
        let a = perft_json(&file, &["--depth", "3"]);
        let b = perft_json(table.path(), &["--depth", "3"]);
        assert_eq!(a["nodes"], b["nodes"], "{file}");
        assert_eq!(moves_json(&file, &[]), moves_json(table.path(), &[]), "{file}");
    }
}

#[test]
fn compile_writes_next_to_the_source_by_default() {
    let src = Temp::with("default.orbis", &std::fs::read(root().join(ORTHODOX)).unwrap());
    let expected = Temp(src.0.with_extension("orbt"));
    let out = orbis(&["compile", src.path()]);
    out.ok();
    assert!(expected.0.exists(), "compile FILE writes FILE.orbt:\n{}", out.stdout);
    assert!(out.stdout.contains(expected.path()));
    assert!(std::fs::read(&expected.0).unwrap().starts_with(b"ORBT"));
}

#[test]
fn compile_refuses_invalid_source_and_unwritable_output() {
    let out_file = Temp::new("never.orbt");
    orbis(&["compile", "examples/invalid/unknown-piece.orbis", "-o", out_file.path()])
        .fails_with(&["unknown-piece.orbis:"]);
    assert!(!out_file.0.exists(), "no table is written for an invalid variant");
    let dir = Temp::new("no-such-dir");
    let target = dir.0.join("x.orbt");
    orbis(&["compile", ORTHODOX, "-o", target.to_str().unwrap()]).fails_with(&["cannot write"]);
}

#[test]
fn inspect_refuses_source_files() {
    orbis(&["inspect", ORTHODOX]).fails_with(&["not an orbis table", "ORBT"]);
}

// ---------------------------------------------------------------------------------------------
// damaged tables

/// IEEE CRC-32 (what the table header stores), so tests can damage a payload consistently.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Runs every command that reads tables on `bytes`; each must fail cleanly naming `needles`.
fn table_fails(name: &str, bytes: &[u8], needles: &[&str]) {
    let t = Temp::with(name, bytes);
    orbis(&["inspect", t.path()]).fails_with(needles);
    orbis(&["perft", t.path(), "--depth", "1"]).fails_with(needles);
    orbis(&["moves", t.path()]).fails_with(needles);
}

#[test]
fn damaged_tables_are_refused_with_a_reason() {
    let (_t, good) = compiled(ORTHODOX);
    assert_eq!(
        crc32(&good[16..]),
        u32::from_le_bytes(good[12..16].try_into().unwrap()),
        "the header CRC is IEEE CRC-32"
    );

    table_fails("trunc-payload.orbt", &good[..100], &["truncated"]);
    table_fails("trunc-last.orbt", &good[..good.len() - 1], &["truncated"]);
    table_fails("trunc-header.orbt", &good[..10], &["truncated", "header"]);
    table_fails("magic-only.orbt", b"ORBT", &["truncated"]);

    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    table_fails("flipped.orbt", &flipped, &["checksum"]);

    let mut version = good.clone();
    let next = orbis_runtime::format::FORMAT_VERSION + 1;
    version[4..6].copy_from_slice(&next.to_le_bytes());
    table_fails("version.orbt", &version, &[&format!("version {next}"), "recompile"]);

    let mut flags = good.clone();
    flags[6] = 1;
    table_fails("flags.orbt", &flags, &["flags"]);

    let mut trailing = good.clone();
    trailing.push(0);
    table_fails("trailing.orbt", &trailing, &["unexpected bytes"]);

    let mut length = good.clone();
    length[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    table_fails("length.orbt", &length, &["truncated"]);
}

#[test]
fn wrong_magic_is_not_a_table() {
    let (_t, good) = compiled(ORTHODOX);
    let mut bad = good.clone();
    bad[..4].copy_from_slice(b"ORBX");
    let t = Temp::with("magic.bin", &bad);
    orbis(&["inspect", t.path()]).fails_with(&["not an orbis table", "ORBX"]);
    // perft and moves read source or tables: a binary file that is neither must say so, not only
    // complain about UTF-8 as if the user had meant source.
    for out in [orbis(&["perft", t.path(), "--depth", "1"]), orbis(&["moves", t.path()])] {
        out.fails_with(&["ORBT", "UTF-8"]);
    }
}

#[test]
fn garbage_never_panics() {
    // Deterministic pseudo-random bytes (xorshift).
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let garbage: Vec<u8> = (0..4096).map(|_| rnd() as u8).collect();
    for (name, bytes) in
        [("garbage.bin", garbage.clone()), ("orbt-garbage.orbt", [b"ORBT".as_slice(), &garbage].concat())]
    {
        let t = Temp::with(name, &bytes);
        orbis(&["check", t.path()]).fails_with(&[t.path()]);
        orbis(&["inspect", t.path()]).fails_with(&[t.path()]);
        orbis(&["perft", t.path(), "--depth", "2"]).fails_with(&[t.path()]);
        orbis(&["moves", t.path()]).fails_with(&[t.path()]);
    }

    // Damage inside the payload with a correct checksum: only validation stands between the bytes
    // and the engine. Every outcome is a clean refusal or a clean run, never a crash.
    let (_t, good) = compiled(ORTHODOX);
    let payload = good.len() - 16;
    for i in 0..48 {
        let mut bad = good.clone();
        let at = 16 + (i * 7919 + (rnd() as usize % 97)) % payload;
        bad[at] ^= 1 << (rnd() % 8);
        let crc = crc32(&bad[16..]);
        bad[12..16].copy_from_slice(&crc.to_le_bytes());
        let t = Temp::with(&format!("crc-fixed-{i}.orbt"), &bad);
        let out = orbis(&["perft", t.path(), "--depth", "2"]);
        out.no_panic();
        assert!(matches!(out.code, Some(0) | Some(1)), "byte {at}: exit {:?}\n{}", out.code, out.stderr);
        if out.code == Some(1) {
            assert!(
                out.stderr.contains(t.path()) && out.stderr.contains("error"),
                "byte {at}: unclear refusal:\n{}",
                out.stderr
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// perft

#[test]
fn perft_json_is_one_object() {
    let v = perft_json(ORTHODOX, &["--depth", "3"]);
    let obj = v.as_object().expect("a JSON object");
    assert_eq!(obj["nodes"].as_u64(), Some(8902));
    assert_eq!(obj["depth"].as_u64(), Some(3));
    let seconds = obj["seconds"].as_f64().expect("seconds is a number");
    assert!(seconds >= 0.0 && seconds.is_finite());
    assert!(obj["nps"].as_u64().is_some(), "nps is an integer: {}", obj["nps"]);
    assert!(!obj.contains_key("divide"));
}

#[test]
fn perft_divide_sums_to_the_total() {
    for depth in ["1", "2", "3"] {
        let out = orbis(&["perft", ORTHODOX, "--depth", depth, "--divide"]);
        out.ok();
        let mut sum = 0u64;
        let mut moves = BTreeSet::new();
        for line in out.stdout.lines() {
            if let Some((mv, n)) = line.split_once(": ") {
                sum += n.trim().parse::<u64>().unwrap_or_else(|_| panic!("bad divide line {line:?}"));
                assert!(moves.insert(mv.to_string()), "move {mv} listed twice");
            }
        }
        assert_eq!(moves.len(), 20);
        assert_eq!(sum, text_nodes(&out));
        let plain = orbis(&["perft", ORTHODOX, "--depth", depth]);
        assert_eq!(text_nodes(&plain), sum, "divide and perft agree at depth {depth}");
    }

    let v = perft_json(ORTHODOX, &["--depth", "3", "--divide", "--position", KIWIPETE]);
    let divide = v["divide"].as_array().expect("divide is an array");
    assert_eq!(divide.len(), 48);
    let sum: u64 = divide.iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
    assert!(divide.iter().all(|d| d["move"].is_string()));
    assert_eq!(sum, 97862);
    assert_eq!(v["nodes"].as_u64(), Some(97862));
}

#[test]
fn perft_depth_zero() {
    let out = orbis(&["perft", ORTHODOX, "--depth", "0"]);
    out.ok();
    assert_eq!(text_nodes(&out), 1, "perft(0) counts the root");
    // Divide at depth 0 has no moves to divide by: it must not report a total other than perft(0).
    let out = orbis(&["perft", ORTHODOX, "--depth", "0", "--divide"]);
    out.no_panic();
    if out.code == Some(0) {
        assert_eq!(text_nodes(&out), 1, "--divide --depth 0 contradicts perft --depth 0:\n{}", out.stdout);
    } else {
        out.fails_with(&["depth"]);
    }
}

#[test]
fn perft_from_positions() {
    let v = perft_json(ORTHODOX, &["--depth", "2", "--position", KIWIPETE]);
    assert_eq!(v["nodes"].as_u64(), Some(2039));
    let v = perft_json(ORTHODOX, &["--depth", "1", "-p", KIWIPETE]);
    assert_eq!(v["nodes"].as_u64(), Some(48));
    // The general notation, on the same board: the suite's position 3. Unlike FEN, it says which
    // pieces are unmoved (here the pawns that may still step twice).
    let general = "turn=white white=Ka5,Pb5,Rb4,Pe2,Pg2 black=Pc7,Pd6,Rh5,Pf4,Kh4 virgin=c7,e2,g2 clock=0 move=1";
    let v = perft_json(ORTHODOX, &["--depth", "3", "--position", general]);
    assert_eq!(v["nodes"].as_u64(), Some(2812));
    // Compiled tables take positions too.
    let (table, _) = compiled(ORTHODOX);
    let v = perft_json(table.path(), &["--depth", "2", "--position", KIWIPETE]);
    assert_eq!(v["nodes"].as_u64(), Some(2039));
}

#[test]
fn perft_bench_reports_runs() {
    let v = perft_json(ORTHODOX, &["--depth", "2", "--bench", "3"]);
    assert_eq!(v["nodes"].as_u64(), Some(400));
    assert_eq!(v["runs"].as_u64(), Some(3));
}

#[test]
fn perft_needs_a_depth() {
    let out = orbis(&["perft", ORTHODOX]);
    assert_eq!(out.code, Some(2), "a usage error is clap's exit code 2:\n{}", out.stderr);
    assert!(out.stderr.contains("--depth"));
    out.no_panic();
    let out = orbis(&["perft", ORTHODOX, "--depth", "-1"]);
    assert_eq!(out.code, Some(2));
    out.no_panic();
}

// ---------------------------------------------------------------------------------------------
// moves

fn check_move_objects(moves: &[Value]) {
    let mut notations = BTreeSet::new();
    for m in moves {
        let o = m.as_object().unwrap_or_else(|| panic!("a move is an object: {m}"));
        for key in ["from", "to", "notation"] {
            assert!(o.get(key).is_some_and(Value::is_string), "{key} is a string in {m}");
        }
        match &o["promotion"] {
            Value::Null => {}
            Value::String(s) => {
                assert!(s.chars().count() == 1 && s.chars().all(|c| c.is_alphabetic()), "promotion is a letter: {m}")
            }
            other => panic!("promotion is null or a letter, not {other}"),
        }
        let n = o["notation"].as_str().unwrap();
        assert!(notations.insert(n.to_string()), "notation {n} is given to two moves");
    }
}

#[test]
fn moves_json_at_the_start() {
    for file in [ORTHODOX, CYLINDRICAL, NADVORNEY] {
        let moves = moves_json(file, &[]);
        check_move_objects(&moves);
        assert_eq!(moves.len(), 20, "{file}");
        assert!(moves.iter().all(|m| m["promotion"].is_null()));
        let e4 = moves.iter().find(|m| m["from"] == "e2" && m["to"] == "e4").expect("e2-e4");
        assert_eq!(e4["notation"], "Pe2-e4");
        let nf3 = moves.iter().find(|m| m["from"] == "g1" && m["to"] == "f3").expect("Ng1-f3");
        assert_eq!(nf3["notation"], "Ng1-f3");
    }
}

#[test]
fn moves_text_at_the_start() {
    let out = orbis(&["moves", ORTHODOX]);
    out.ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(lines[1], "status: ongoing");
    assert_eq!(lines[2], "20 legal moves");
    assert_eq!(lines.len(), 23);
}

#[test]
fn moves_json_promotions() {
    // b7-b8 and b7xc8 promote, four ways each; the king has its own moves.
    let moves = moves_json(ORTHODOX, &["--position", "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1"]);
    check_move_objects(&moves);
    let mut by_target: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for m in moves.iter().filter(|m| m["from"] == "b7") {
        let p = m["promotion"].as_str().expect("a pawn reaching rank 8 promotes").to_string();
        let n = m["notation"].as_str().unwrap();
        assert!(n.ends_with(&format!("={p}")), "promotion notation {n}");
        by_target.entry((m["from"].to_string(), m["to"].to_string())).or_default().insert(p);
    }
    assert_eq!(by_target.len(), 2, "{by_target:?}");
    for (k, choices) in &by_target {
        assert_eq!(choices, &["B", "N", "Q", "R"].map(String::from).into_iter().collect::<BTreeSet<_>>(), "{k:?}");
    }
    assert!(moves.iter().any(|m| m["notation"] == "Pb7xc8=Q"));
    assert!(moves.iter().any(|m| m["notation"] == "Pb7-b8=N"));
    assert_eq!(moves.len(), 8 + 5);
}

#[test]
fn moves_after_and_status() {
    // Fool's mate.
    let out = orbis(&["moves", ORTHODOX, "--after", "f2-f3", "e7-e5", "g2-g4", "Qd8-h4"]);
    out.ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(lines[1].starts_with("status: checkmate"), "{}", out.stdout);
    assert!(lines[1].contains("white"), "the status names the mated side: {}", lines[1]);
    assert_eq!(lines[2], "0 legal moves");
    assert!(moves_json(ORTHODOX, &["--after", "f2-f3", "e7-e5", "g2-g4", "Qd8-h4"]).is_empty());

    // Nothing may be played after the mate.
    orbis(&["moves", ORTHODOX, "--after", "f2-f3", "e7-e5", "g2-g4", "Qd8-h4", "a2-a3"])
        .fails_with(&["a2-a3", "checkmate"]);

    // Illegal and unreadable moves.
    orbis(&["moves", ORTHODOX, "--after", "e2-e5"]).fails_with(&["e2-e5", "illegal move"]);
    orbis(&["moves", ORTHODOX, "--after", "e2-e4", "e2-e4"]).fails_with(&["e2-e4", "illegal move"]);
    orbis(&["moves", ORTHODOX, "--after", "Zz9-q0"]).fails_with(&["Zz9-q0"]);
    orbis(&["moves", ORTHODOX, "--after", ""]).fails_with(&["illegal move"]);
    // A promotion without its choice is legal but incomplete: say so.
    orbis(&["moves", ORTHODOX, "--position", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "--after", "b7-b8"])
        .fails_with(&["b7-b8", "=Q"]);

    // The documented spellings: full notation, without piece letter, FROMTO.
    for spelling in [["Pe2-e4", "Pe7-e5"], ["e2-e4", "e7-e5"], ["e2e4", "e7e5"]] {
        let out = orbis(&["moves", ORTHODOX, "--after", spelling[0], spelling[1]]);
        out.ok();
        assert!(
            out.stdout.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"),
            "{spelling:?}:\n{}",
            out.stdout
        );
    }

    // Stalemate and the fifty-move rule from a position.
    let out = orbis(&["moves", ORTHODOX, "--position", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    out.ok();
    assert!(out.stdout.contains("status: stalemate") && out.stdout.contains("draw"), "{}", out.stdout);
    let fifty = "4k3/8/8/8/8/8/8/4K2R w K - 100 80";
    let out = orbis(&["moves", ORTHODOX, "--position", fifty]);
    out.ok();
    assert!(out.stdout.contains("status: draw by the fifty-move rule"), "{}", out.stdout);
    orbis(&["moves", ORTHODOX, "--position", fifty, "--after", "Ke1-e2"]).fails_with(&["fifty-move"]);

    // Repetition: both knights out and back twice.
    let shuffle = ["Ng1-f3", "Ng8-f6", "Nf3-g1", "Nf6-g8"];
    let eight: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let mut args = vec!["moves", ORTHODOX, "--after"];
    args.extend_from_slice(&eight);
    let out = orbis(&args);
    out.ok();
    assert!(out.stdout.contains("status: draw by repetition"), "{}", out.stdout);
    args.push("Ng1-f3");
    orbis(&args).fails_with(&["repetition"]);
}

#[test]
fn moves_after_en_passant_and_castling() {
    let out = orbis(&["moves", ORTHODOX, "--after", "e2-e4", "a7-a6", "e4-e5", "d7-d5", "Pe5xd6ep"]);
    out.ok();
    assert!(out.stdout.starts_with("rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3\n"), "{}", out.stdout);
    // FROM-TO without the suffix is the same move (documented: the piece letter is optional).
    let out = orbis(&["moves", ORTHODOX, "--after", "e2-e4", "a7-a6", "e4-e5", "d7-d5", "e5-d6"]);
    out.ok();
    assert!(out.stdout.starts_with("rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3\n"), "{}", out.stdout);

    let out = orbis(&["moves", NADVORNEY, "--position", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "--after", "C0-0-0"]);
    out.ok();
    assert!(out.stdout.starts_with("4k3/8/8/8/8/8/8/2KR4 b - - 1 1\n"), "{}", out.stdout);
}

// ---------------------------------------------------------------------------------------------
// bad positions

#[test]
fn bad_positions_are_refused() {
    let cases: &[(&str, &[&str])] = &[
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", &["7 ranks"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", &["9 ranks"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", &["'X'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", &["'x'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", &["rank 1"]),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["rank 6"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", &["rank 1"]),
        ("rnbqkbnr/pppppppp/99999999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["rank 6"]),
        ("rnbqkbnr/pppppppp/18446744073709551616/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["rank 6"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", &["fields"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", &["fields"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", &["e3"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", &["z9"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", &["'X'"]),
        ("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["a8"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", &["'x'"]),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", &["'-1'"]),
        // The side not to move is in check.
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", &["black", "check"]),
        // A missing king.
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", &["black", "royal"]),
        ("4k3/8/8/8/8/8/8/8 b - - 0 1", &["white", "royal"]),
        // A pawn on its promotion rank.
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", &["h8", "promotion"]),
        ("4k3/8/8/8/8/8/8/4K2p w - - 0 1", &["h1", "promotion"]),
        // The general notation.
        ("turn=white white=Ke1", &["black", "royal"]),
        ("white=Ke1 black=Ke8", &["turn"]),
        ("turn=green white=Ke1 black=Ke8", &["green"]),
        ("turn=white white=Ke1,Qe1 black=Ke8", &["two pieces", "e1"]),
        ("turn=white white=Ke1,Xd4 black=Ke8", &["'X'"]),
        ("turn=white white=Ke1,Qz9 black=Ke8", &["z9"]),
        ("turn=white white=Ke1 black=Ke8 virgin=a1", &["a1"]),
        ("turn=white white=Ke1 black=Ke8 colour=red", &["colour"]),
        ("turn=white turn=black white=Ke1 black=Ke8", &["twice"]),
        ("turn=white white=Ke1 black=Ke8 e4", &["'e4'"]),
        ("turn=white white=Ke1 black=Ke8 ep=e3", &["ep"]),
        ("", &["turn"]),
    ];
    for (pos, needles) in cases {
        let mut needles = needles.to_vec();
        needles.push("position");
        orbis(&["moves", ORTHODOX, "--position", pos]).fails_with(&needles);
        orbis(&["perft", ORTHODOX, "--depth", "1", "--position", pos]).fails_with(&needles);
    }
}

// ---------------------------------------------------------------------------------------------
// help, output

#[test]
fn every_subcommand_has_help() {
    let top = orbis(&["--help"]);
    top.ok();
    let mut commands = Vec::new();
    let mut in_commands = false;
    for line in top.stdout.lines() {
        if line.starts_with("Commands:") {
            in_commands = true;
        } else if in_commands {
            match line.split_whitespace().next() {
                Some(name) if line.starts_with("  ") => commands.push(name.to_string()),
                _ => in_commands = false,
            }
        }
    }
    for expected in ["check", "compile", "inspect", "perft", "moves"] {
        assert!(commands.iter().any(|c| c == expected), "{expected} missing from --help:\n{}", top.stdout);
    }
    for cmd in commands.iter().filter(|c| *c != "help") {
        let out = orbis(&[cmd.as_str(), "--help"]);
        out.ok();
        assert!(out.stdout.contains("Usage:") && out.stdout.contains(cmd.as_str()), "{}:\n{}", out.what, out.stdout);
        let out = orbis(&["help", cmd.as_str()]);
        out.ok();
    }
    orbis(&["--version"]).ok();
    let none = orbis::<&str>(&[]);
    assert_eq!(none.code, Some(2), "no subcommand is a usage error");
    none.no_panic();
    let unknown = orbis(&["frobnicate"]);
    assert_eq!(unknown.code, Some(2));
    unknown.no_panic();
}

#[test]
fn closed_stdout_does_not_panic() {
    // `orbis inspect t.orbt | head -1`: the reader goes away while orbis is still writing.
    let (table, _) = compiled(ORTHODOX);
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(["inspect", table.path()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "a closed pipe made orbis panic:\n{stderr}");
    assert!(!matches!(out.status.code(), Some(101) | Some(134)), "exit {:?}", out.status.code());
}

#[test]
fn full_disk_is_an_error_not_a_panic() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let (table, _) = compiled(ORTHODOX);
    let out = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(["inspect", table.path()])
        .stdout(std::fs::OpenOptions::new().write(true).open(full).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error"), "{stderr}");
}

/// Files written into one fresh temporary directory (removed on drop), for includes.
struct TempDir(PathBuf);

impl TempDir {
    fn with(files: &[(&str, &str)]) -> TempDir {
        let dir = Temp::new("dir").0.clone();
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        TempDir(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("temporary paths are UTF-8 here").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Two libraries that build on the same third one: it is merged once, not declared twice.
#[test]
fn a_library_included_twice_is_merged_once() {
    let dir = TempDir::with(&[
        (
            "base.orbis",
            "library \"base\"\nboard { grid files a..c ranks 1..3 headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) } group orth = N E S W }\n\
             piece King K royal { step all }\n",
        ),
        ("a.orbis", "library \"a\"\ninclude \"base.orbis\"\npiece Rook R { slide orth }\n"),
        ("b.orbis", "library \"b\"\ninclude \"base.orbis\"\ninclude \"base.orbis\"\npiece Wazir W { step orth }\n"),
        (
            "v.orbis",
            "variant \"v\"\ninclude \"a.orbis\"\ninclude \"b.orbis\"\n\
             side white { setup { K a1 R b1 W c1 } }\nside black { setup { K c3 } }\n",
        ),
    ]);
    orbis(&["check", &dir.path("v.orbis")]).ok();
    orbis(&["moves", &dir.path("v.orbis")]).ok();
}

/// A castling rule whose king and rook end on one cell was accepted and crashed `unmake`; one
/// whose landing cell is not listed `empty` landed on a piece.
#[test]
fn castling_never_lands_on_a_piece() {
    let board = "variant \"c\"\nboard { grid files a..h ranks 1..2 headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) } group orth = N E S W }\n\
                 piece King K royal { step all }\npiece Rook R { slide orth }\n";
    let same = Temp::with(
        "same.orbis",
        format!("{board}side white {{ setup {{ K e1 R h1 }} castle OO {{ king e1 -> g1 rook h1 -> g1 empty f1 g1 }} }}\nside black {{ setup {{ K a2 }} }}\n").as_bytes(),
    );
    orbis(&["check", same.path()]).fails_with(&["castling rule `OO` is impossible", "end on the same cell"]);
    // No `empty` at all: the landing cells must still be empty (a black rook on d1 forbids it).
    let unlisted = Temp::with(
        "unlisted.orbis",
        format!("{board}side white {{ setup {{ K e1 R h1 }} castle OO {{ king e1 -> c1 rook h1 -> d1 }} }}\nside black {{ setup {{ K a2 R d1 }} }}\n").as_bytes(),
    );
    let out = orbis(&["moves", unlisted.path()]);
    out.ok();
    assert!(!out.stdout.lines().any(|l| l == "OO"), "castling onto d1 where a rook stands:\n{}", out.stdout);
    orbis(&["perft", unlisted.path(), "--depth", "4"]).ok();
}

/// FEN of a board with one rank has no `/`: it is still read as FEN.
#[test]
fn fen_of_a_one_rank_board_reads_back() {
    let file = Temp::with(
        "rank.orbis",
        b"variant \"r\"\nboard { grid files a..h ranks 1..1 headings { E (1, 0) W (-1, 0) } }\n\
          piece King K royal { step all }\npiece Rook R { slide all }\n\
          side white { setup { K e1 R h1 } }\nside black { setup { K a1 } }\n",
    );
    let out = orbis(&["moves", file.path()]);
    out.ok();
    assert!(out.stdout.starts_with("k3K2R w - - 0 1\n"), "{}", out.stdout);
    orbis(&["moves", file.path(), "--position", "k3K2R w - - 0 1", "--after", "Rh1-h2"]).fails_with(&["illegal move"]);
    orbis(&["moves", file.path(), "--position", "k3K2R w - - 0 1", "--after", "Rh1-f1"]).ok();
}

/// `moves` and `perft` agree on a position given in the general notation, even where FEN could
/// not say that a piece has moved (a pawn on its start square without `virgin`).
#[test]
fn moves_and_perft_agree_on_general_positions() {
    let pos = "turn=white white=Ke1,Pe2 black=Ke8";
    let moves = orbis(&["moves", ORTHODOX, "--position", pos]);
    moves.ok();
    assert!(!moves.stdout.contains("Pe2-e4"), "a moved pawn has no double step:\n{}", moves.stdout);
    assert!(moves.stdout.starts_with(pos), "FEN would lose the pawn's state:\n{}", moves.stdout);
    let perft = orbis(&["perft", ORTHODOX, "--position", pos, "--depth", "1"]);
    perft.ok();
    assert!(perft.stdout.contains("nodes 5\n"), "{}", perft.stdout);
    assert!(moves.stdout.contains("\n5 legal moves\n"), "{}", moves.stdout);
}

/// The en-passant victim of the general notation must be a piece that can just have passed the
/// cells (here the black king was taken en passant).
#[test]
fn general_en_passant_victim_is_checked() {
    orbis(&["perft", ORTHODOX, "--depth", "2", "--position", "turn=white white=Ke1,Pe5 black=Ke8,Pd5 ep=d6:e8"])
        .fails_with(&["en passant", "e8"]);
    orbis(&["perft", ORTHODOX, "--depth", "2", "--position", "turn=white white=Ke1,Pe5 black=Ke8,Pd5 ep=d6:d5"]).ok();
    orbis(&["moves", "examples/spherical/boholy.orbis", "--position", "turn=white white=Kg1 black=Ke8 ep=south-pole:e8"])
        .fails_with(&["en passant"]);
}

/// Tables that passed `validate` but crashed the runtime: castling onto one cell, or onto a cell
/// not required empty; en-passant and pass-unattacked rays without a destination.
#[test]
fn validate_rejects_tables_that_crash_the_runtime() {
    let (_t, bytes) = compiled(ORTHODOX);
    let good = orbis_runtime::Tables::from_bytes(&bytes).expect("compiled tables load");
    let mut t = good.clone();
    let c = &mut t.sides[0].castles[0];
    c.rook_to = c.king_to;
    assert!(t.validate().unwrap_err().to_string().contains("share a start or an end cell"));
    let mut t = good.clone();
    let c = &mut t.sides[0].castles[0];
    let landing = c.king_to;
    c.empty.retain(|&x| x != landing);
    assert!(t.validate().unwrap_err().to_string().contains("not among the empty cells"));
    for flag in [orbis_runtime::tables::ray::EP_CAPTURE, orbis_runtime::tables::ray::PASS_UNATTACKED] {
        let mut t = good.clone();
        let r = t.rays.iter_mut().find(|r| r.flags & orbis_runtime::tables::ray::SLIDE != 0).unwrap();
        r.flags |= flag;
        r.cells.1 = r.cells.0;
        assert!(t.validate().unwrap_err().to_string().contains("no destination"), "flag {flag}");
    }
}

/// One rule for valid positions, whatever the command: the side that moved last (the side in the
/// game before the side to move) may not be in check; with three or more sides the others may.
#[test]
fn perft_and_moves_apply_the_same_position_rules() {
    const THREE: &str = "tests/nplayer/three.orbis";
    // Two sides: the side not to move in check is refused by both commands.
    let black_in_check = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
    orbis(&["perft", ORTHODOX, "-d", "1", "-p", black_in_check]).fails_with(&["black is in check but it is not their turn"]);
    orbis(&["moves", ORTHODOX, "-p", black_in_check]).fails_with(&["black is in check but it is not their turn"]);
    // The side to move in check is a position like any other, for both.
    let white_in_check = "4k3/8/8/8/8/8/8/4r1K1 w - - 0 1";
    orbis(&["perft", ORTHODOX, "-d", "1", "-p", white_in_check]).ok();
    orbis(&["moves", ORTHODOX, "-p", white_in_check]).ok();
    // Three sides: green moved last (before red); green in check is refused by both.
    let green_in_check = "turn=red red=Kc3,Re2 blue=Ka1 green=Ke5,Rd5";
    let needle = "green is in check, but it moved last (before red, whose turn it is)";
    orbis(&["perft", THREE, "-d", "1", "-p", green_in_check]).fails_with(&[needle]);
    orbis(&["moves", THREE, "-p", green_in_check]).fails_with(&[needle]);
    // Blue, which moves after red, may be in check at red's turn: both accept it, alike.
    let blue_in_check = "turn=red red=Kc3,Rb1 blue=Ke1 green=Ke5,Rd5";
    let perft = orbis(&["perft", THREE, "-d", "1", "-p", blue_in_check]);
    perft.ok();
    assert!(perft.stdout.starts_with("nodes 12\n"), "{}", perft.stdout);
    let moves = orbis(&["moves", THREE, "-p", blue_in_check]);
    moves.ok();
    assert!(moves.stdout.contains("\n12 legal moves\n"), "{}", moves.stdout);
}

#[test]
fn moves_shows_eliminations_and_results() {
    const THREE: &str = "tests/nplayer/three.orbis";
    let start = "turn=red red=Kc3,Rb2 blue=Ke1 green=Ke5,Rd5,Ra2";
    let out = orbis(&["moves", THREE, "-p", start, "--after", "Rb2-b1"]);
    out.ok();
    assert!(out.stdout.starts_with("turn=green red=Rb1,Kc3 blue= green=Ra2,Rd5,Ke5 out=blue clock=1 move=1\nstatus: ongoing; out: blue\n16 legal moves\n"), "{}", out.stdout);
    // The position text reads back, out-set included; perft names the sides that are out.
    let text = out.stdout.lines().next().unwrap_or_default();
    let perft = orbis(&["perft", THREE, "-d", "2", "-p", text]);
    perft.ok();
    assert!(perft.stdout.starts_with("out blue\nnodes "), "{}", perft.stdout);
    let json = orbis(&["perft", THREE, "-d", "1", "-p", text, "--json"]);
    json.ok();
    assert_eq!(json.json()["out"], serde_json::json!(["blue"]), "{}", json.stdout);
    // A side to move without a move (three teams playing) is out as the position is read.
    let stuck = orbis(&["perft", THREE, "-d", "1", "-p", "turn=blue red=Kc3,Rb2 blue=Ke1 green=Ke5,Rd5,Ra2"]);
    stuck.ok();
    assert!(stuck.stdout.starts_with("out blue\nnodes "), "{}", stuck.stdout);
    let first = orbis(&["moves", "tests/nplayer/three-first.orbis", "-p", start, "--after", "Rb2-b1"]);
    first.ok();
    assert!(first.stdout.contains("status: checkmate: blue is mated; blue loses\n0 legal moves"), "{}", first.stdout);
    orbis(&["moves", "tests/nplayer/three-first.orbis", "-p", start, "--after", "Rb2-b1", "Ke5-e4"])
        .fails_with(&["comes after the game ended (checkmate: blue is mated; blue loses)"]);
}

/// An including file's `team` replaces the included side's, like `forward`.
#[test]
fn an_including_file_replaces_a_sides_team() {
    let three = std::fs::read_to_string(root().join("tests/nplayer/three.orbis")).unwrap();
    let library = three.replace("variant \"Three kings\"", "library \"three\"").replace("side red {", "side red {\n  team red-team");
    let lib = Temp::with("three-lib.orbis", library.as_bytes());
    let variant = format!(
        "variant \"Two against one\"\ninclude \"{}\"\nside red {{ team pair }}\nside blue {{ team pair }}\nrules {{ eliminated stay }}\n",
        lib.path()
    );
    let file = Temp::with("two-against-one.orbis", variant.as_bytes());
    let (tables, _) = compiled(file.path());
    let out = orbis(&["inspect", tables.path()]);
    out.ok();
    for needle in ["0: red (team pair)", "1: blue (team pair)", "2: green\n", "game-end last-standing, eliminated stay"] {
        assert!(out.stdout.contains(needle), "{needle:?} in:\n{}", out.stdout);
    }
    // Red and blue are allies now: red's rook no longer takes blue's pawn on d1.
    let moves = orbis(&["moves", file.path()]);
    moves.ok();
    assert!(!moves.stdout.contains("Rb1xd1") && moves.stdout.contains("\n7 legal moves\n"), "{}", moves.stdout);
}

#[test]
fn perft_after_moves_in_any_notation() {
    // The same counts from a FEN as after the moves that reach it, written as Fairy-Stockfish
    // writes them (UCI coordinates, a lower-case promotion) or in SAN.
    let after_uci = perft_json("examples/orthodox.orbis", &["--depth", "2", "--after", "e2e4", "e7e5"]);
    let after_san = perft_json("examples/orthodox.orbis", &["--depth", "2", "--after", "e4", "e5"]);
    let from_fen = perft_json("examples/orthodox.orbis", &["--depth", "2", "--position", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"]);
    assert_eq!(after_uci["nodes"], from_fen["nodes"]);
    assert_eq!(after_san["nodes"], from_fen["nodes"]);
    let promoted = perft_json("examples/orthodox.orbis", &["--depth", "1", "--position", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "--after", "e7e8q"]);
    // After e8=Q+ the black king on h8 has two moves, g7 and h7.
    assert_eq!(promoted["nodes"], 2);
    orbis(&["perft", "examples/orthodox.orbis", "--depth", "1", "--after", "e2e5"]).fails_with(&["move 1", "illegal move 'e2e5'"]);
}

/// `--setup N` and `--seed S` choose the setup of a variant with `arrange` on every command; a
/// number out of range is a located error (exit 1), and both at once are refused.
#[test]
fn setup_and_seed_choose_the_arrangement() {
    const CHESS960: &str = "examples/fairy/chess960.orbis";
    let out = orbis(&["moves", CHESS960, "--setup", "0"]);
    out.ok();
    assert!(out.stdout.starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq"), "{}", out.stdout);
    let usual = orbis(&["perft", CHESS960, "--depth", "2"]);
    usual.ok();
    assert!(usual.stdout.contains("nodes 400"), "{}", usual.stdout);
    let a = orbis(&["moves", CHESS960, "--seed", "42"]);
    let b = orbis(&["moves", "--seed", "42", CHESS960]);
    a.ok();
    assert_eq!(a.stdout, b.stdout, "the same seed, the same setup");
    let out = orbis(&["perft", CHESS960, "--setup", "960", "--depth", "1"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(out.stderr.contains("setup 960 is out of range"), "{}", out.stderr);
    let both = orbis(&["perft", CHESS960, "--setup", "1", "--seed", "2", "--depth", "1"]);
    assert_eq!(both.code, Some(2), "{}", both.stderr);
}
