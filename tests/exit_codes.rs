//! The `orbis` binary's exit codes over a matrix of bad inputs (issue 15: never crash, never hang,
//! never eat the machine):
//!
//! - 0: success;
//! - 1: an error in the user's input, explained on stderr by a line starting with `error` (a plain
//!   `error: ...` or a codespan diagnostic `error[...]`/`error:`);
//! - 2: a usage error (clap: unknown subcommand or option, missing argument, bad option value);
//! - never 101 (a panic), 134 (a panic with `panic = "abort"`, or an allocation failure), death by
//!   a signal, panic or backtrace text on stderr, a hang or a huge allocation.
//!
//! Each run has a time limit (it is killed and the test fails if it hangs) and, where `prlimit`
//! exists (Linux), an address-space limit, so that a runaway allocation fails the test instead of
//! eating the machine. tests/cli.rs checks what the messages say in detail; this file checks that
//! every command meets every kind of bad input with the right code.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const ORTHODOX: &str = "examples/orthodox.orbis";
const LIBRARY: &str = "examples/spherical/lib/globe.orbis";
/// Fool's mate: white is checkmated, the game is over.
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";

/// How long one run may take before it counts as a hang.
const TIME_LIMIT: Duration = Duration::from_secs(20);
/// How long a run that must fail fast on a limit may take.
const QUICK: Duration = Duration::from_secs(10);
/// The address space one run may use (where `prlimit` exists): far above what any command here
/// needs, far below what a runaway allocation asks for.
const MEMORY_LIMIT: u64 = 2 << 30;

// ---------------------------------------------------------------------------------------------
// Running the binary

/// What one run of the binary did.
struct Run {
    what: String,
    code: Option<i32>,
    signal: Option<i32>,
    hung: bool,
    elapsed: Duration,
    stdout: String,
    stderr: String,
}

fn prlimit() -> Option<&'static str> {
    static FOUND: OnceLock<Option<&'static str>> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let ok = Command::new("prlimit")
            .args([&format!("--as={MEMORY_LIMIT}"), "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some("prlimit")
    })
}

fn read_all(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = r.read_to_end(&mut out);
        out
    })
}

/// Runs `orbis ARGS` from the repository root, under the time limit (and memory limit).
fn orbis<S: AsRef<str>>(args: &[S]) -> Run {
    let args: Vec<&str> = args.iter().map(|a| a.as_ref()).collect();
    let what = format!("orbis {}", args.iter().map(|a| shorten(a)).collect::<Vec<_>>().join(" "));
    let mut cmd = match prlimit() {
        Some(p) => {
            let mut c = Command::new(p);
            c.arg(format!("--as={MEMORY_LIMIT}")).arg(env!("CARGO_BIN_EXE_orbis"));
            c
        }
        None => Command::new(env!("CARGO_BIN_EXE_orbis")),
    };
    cmd.args(&args)
        .current_dir(common::root())
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child: Child = cmd.spawn().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let out = read_all(child.stdout.take().expect("piped"));
    let err = read_all(child.stderr.take().expect("piped"));
    let mut hung = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            hung = true;
            let _ = child.kill();
            break child.wait().expect("wait after kill");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal = None;
    Run {
        what,
        code: status.code(),
        signal,
        hung,
        elapsed,
        stdout: String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned(),
    }
}

/// An argument as the failure messages show it (long positions cut short).
fn shorten(a: &str) -> String {
    if a.chars().count() > 80 {
        format!("{}...({} chars)", a.chars().take(60).collect::<String>(), a.chars().count())
    } else if a.contains(' ') || a.is_empty() {
        format!("{a:?}")
    } else {
        a.to_string()
    }
}

impl Run {
    fn report(&self) -> String {
        let cut = |s: &str| {
            if s.chars().count() > 3000 {
                format!("{}\n...({} bytes)", s.chars().take(3000).collect::<String>(), s.len())
            } else {
                s.to_string()
            }
        };
        format!(
            "{}\n  exit code {:?}, signal {:?}, {:.2?}{}\n  stdout:\n{}\n  stderr:\n{}",
            self.what,
            self.code,
            self.signal,
            self.elapsed,
            if self.hung { ", KILLED after the time limit (a hang)" } else { "" },
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }

    /// The rules every run obeys, whatever its input: it ends, by itself, without a panic.
    fn sane(&self) -> Result<(), String> {
        if self.hung {
            return Err(format!("hung (killed after {TIME_LIMIT:?})"));
        }
        if let Some(s) = self.signal {
            return Err(format!("killed by signal {s} (an abort, e.g. a failed allocation, or a crash)"));
        }
        match self.code {
            Some(0..=2) => {}
            Some(101) => return Err("exit code 101: a panic".into()),
            other => return Err(format!("exit code {other:?} is none of 0, 1, 2")),
        }
        for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace", "memory allocation of"] {
            if self.stderr.contains(bad) {
                return Err(format!("stderr contains {bad:?}"));
            }
        }
        Ok(())
    }

    fn error_line(&self) -> bool {
        self.stderr.lines().any(|l| l.trim_start().starts_with("error"))
    }

    /// `expect` checked, as a message on failure.
    fn check(&self, expect: &Expect) -> Result<(), String> {
        self.sane()?;
        let lower = self.stderr.to_lowercase();
        let mentions = |needles: &[&str]| -> Result<(), String> {
            match needles.iter().find(|n| !lower.contains(&n.to_lowercase())) {
                Some(n) => Err(format!("stderr does not mention {n:?}")),
                None => Ok(()),
            }
        };
        match expect {
            Expect::Ok => {
                if self.code != Some(0) {
                    return Err("expected success (exit code 0)".into());
                }
            }
            Expect::User(needles) => {
                if self.code != Some(1) {
                    return Err("expected exit code 1 (an error in the input)".into());
                }
                if !self.error_line() {
                    return Err("no line starting with `error` on stderr".into());
                }
                mentions(needles)?;
            }
            Expect::Usage => {
                if self.code != Some(2) {
                    return Err("expected exit code 2 (a usage error)".into());
                }
                // clap: `error: ...` and a pointer to `--help`, or the help itself (no command).
                if !self.error_line() && !self.stderr.contains("Usage:") {
                    return Err("neither a clap `error:` line nor the usage on stderr".into());
                }
            }
        }
        Ok(())
    }
}

/// What a run must do.
enum Expect {
    Ok,
    /// Exit code 1, an `error` line, and stderr mentions each of these (case-insensitive).
    User(&'static [&'static str]),
    Usage,
}

/// Collects every failing run of a test, so that one test reports all of its failures at once.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn expect<S: AsRef<str>>(&mut self, args: &[S], expect: Expect) -> Run {
        let run = orbis(args);
        if let Err(why) = run.check(&expect) {
            self.0.push(format!("{why}: {}", run.report()));
        }
        run
    }

    /// A failure found by the caller.
    fn add(&mut self, run: &Run, why: impl Into<String>) {
        self.0.push(format!("{}: {}", why.into(), run.report()));
    }

    fn assert_none(self) {
        assert!(self.0.is_empty(), "{} failing run(s):\n\n{}", self.0.len(), self.0.join("\n\n"));
    }
}

// ---------------------------------------------------------------------------------------------
// Temporary files

/// A path under the temporary directory that no other test (or run) uses; removed on drop.
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        Temp(std::env::temp_dir().join(format!("orbis-exit-{}-{nanos}-{n}-{name}", std::process::id())))
    }

    fn file(name: &str, bytes: &[u8]) -> Temp {
        let t = Temp::new(name);
        std::fs::write(&t.0, bytes).unwrap_or_else(|e| panic!("{}: {e}", t.0.display()));
        t
    }

    fn dir(name: &str) -> Temp {
        let t = Temp::new(name);
        std::fs::create_dir(&t.0).unwrap_or_else(|e| panic!("{}: {e}", t.0.display()));
        t
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temporary paths are UTF-8 here")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if self.0.is_dir() {
            let _ = std::fs::remove_dir_all(&self.0);
        } else {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// The orthodox example compiled by `orbis compile` into a temporary table file.
fn compiled_orthodox() -> (Temp, Vec<u8>) {
    let t = Temp::new("orthodox.orbt");
    let run = orbis(&["compile", ORTHODOX, "-o", t.path()]);
    if let Err(why) = run.check(&Expect::Ok) {
        panic!("cannot make the test tables: {why}: {}", run.report());
    }
    let bytes = std::fs::read(&t.0).expect("compile wrote the tables");
    assert!(bytes.starts_with(b"ORBT") && bytes.len() > 64, "tables start with ORBT");
    (t, bytes)
}

/// Every command that reads a file, on `file`. `out` is where `compile` writes.
fn commands_on(file: &str, out: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    vec![
        v(&["check", file]),
        v(&["check", file, "--report"]),
        v(&["check", file, "--json"]),
        v(&["compile", file, "-o", out]),
        v(&["inspect", file]),
        v(&["perft", file, "--depth", "1"]),
        v(&["moves", file]),
        v(&["diagram", file]),
        v(&["diagram", file, "--format", "text"]),
    ]
}

/// Deterministic bytes that are not UTF-8 (and not tables).
fn binary_bytes() -> Vec<u8> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut bytes: Vec<u8> = (0..4096)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect();
    bytes[0] = 0xff;
    bytes[1] = 0xfe;
    bytes
}

// ---------------------------------------------------------------------------------------------
// Success

#[test]
fn every_command_succeeds_on_good_input() {
    let mut f = Failures::default();
    let (table, _) = compiled_orthodox();
    let t = table.path();
    let out = Temp::new("out.svg");
    for args in [
        vec!["--help"],
        vec!["--version"],
        vec!["help"],
        vec!["check", ORTHODOX],
        vec!["check", ORTHODOX, "--report"],
        vec!["check", ORTHODOX, "--json"],
        vec!["check", LIBRARY],
        vec!["inspect", t],
        vec!["perft", ORTHODOX, "--depth", "0"],
        vec!["perft", ORTHODOX, "--depth", "2"],
        vec!["perft", t, "--depth", "2", "--divide"],
        vec!["perft", ORTHODOX, "--depth", "1", "--json", "--bench", "2"],
        vec!["perft", ORTHODOX, "--depth", "1", "--position", MATED],
        vec!["moves", ORTHODOX],
        vec!["moves", t, "--json"],
        vec!["moves", ORTHODOX, "--after", "e2-e4", "e7-e5", "Ng1-f3"],
        vec!["moves", ORTHODOX, "--position", MATED],
        vec!["moves", ORTHODOX, "--position", "turn=white white=Ke1 black=Ke8"],
        vec!["diagram", ORTHODOX],
        vec!["diagram", t, "--format", "text"],
        vec!["diagram", ORTHODOX, "--moves", "e2", "--paths"],
        vec!["diagram", ORTHODOX, "--empty", "-o", out.path()],
    ] {
        f.expect(&args, Expect::Ok);
    }
    for cmd in ["check", "compile", "inspect", "perft", "moves", "diagram"] {
        f.expect(&[cmd, "--help"], Expect::Ok);
    }
    let o = Temp::new("o.orbt");
    f.expect(&["compile", ORTHODOX, "-o", o.path()], Expect::Ok);
    f.assert_none();
}

#[test]
fn every_example_variant_checks() {
    let mut f = Failures::default();
    let files = common::example_files();
    assert!(files.len() >= 10, "{files:?}");
    for file in files {
        f.expect(&["check", &file], Expect::Ok);
    }
    f.assert_none();
}

// ---------------------------------------------------------------------------------------------
// Errors in the input: exit code 1

#[test]
fn every_invalid_example_fails_every_command() {
    let mut f = Failures::default();
    let mut files = common::orbis_files(&common::root().join("examples/invalid"));
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    for path in files {
        let rel = path.strip_prefix(common::root()).expect("under the root").display().to_string();
        let out = Temp::new("invalid.orbt");
        for args in [
            vec!["check", &rel],
            vec!["check", &rel, "--json"],
            vec!["compile", &rel, "-o", out.path()],
            vec!["perft", &rel, "--depth", "1"],
        ] {
            let run = f.expect(&args, Expect::User(&[]));
            if args[0] == "compile" && out.0.exists() {
                f.add(&run, "compile wrote tables for an invalid file");
            }
        }
    }
    f.assert_none();
}

#[test]
fn bad_files_fail_every_command() {
    let mut f = Failures::default();
    let (_table, good) = compiled_orthodox();
    let missing = Temp::new("missing.orbis");
    let dir = Temp::dir("a-directory.orbis");
    let empty = Temp::file("empty.orbis", b"");
    let binary = Temp::file("binary.orbis", &binary_bytes());
    let truncated = Temp::file("truncated.orbt", &good[..good.len() / 2]);
    let header_only = Temp::file("header.orbt", &good[..12]);
    let mut flipped = good.clone();
    for i in [good.len() / 3, good.len() / 2, good.len() - 5] {
        flipped[i] ^= 0x5a;
    }
    let corrupted = Temp::file("corrupted.orbt", &flipped);
    let mut long = good.clone();
    long[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let bad_length = Temp::file("length.orbt", &long);
    let nul = Temp::file("nul.orbis", b"variant \"x\"\0\0\0");
    for (file, why) in [
        (missing.path(), "a missing file"),
        (dir.path(), "a directory"),
        (empty.path(), "an empty file"),
        (binary.path(), "a binary file"),
        (truncated.path(), "truncated tables"),
        (header_only.path(), "a table header alone"),
        (corrupted.path(), "corrupted tables"),
        (bad_length.path(), "tables with a huge length"),
        (nul.path(), "NUL bytes in source"),
    ] {
        let out = Temp::new("out.orbt");
        for args in commands_on(file, out.path()) {
            let run = f.expect(&args, Expect::User(&[]));
            if run.code == Some(1) && !run.stderr.contains(file) {
                f.add(&run, format!("the error about {why} does not name the file"));
            }
            if args[0] == "compile" && out.0.exists() {
                f.add(&run, format!("compile wrote tables from {why}"));
            }
        }
    }
    f.assert_none();
}

#[test]
fn source_and_tables_in_the_wrong_place() {
    let mut f = Failures::default();
    let (table, _) = compiled_orthodox();
    let out = Temp::new("out.orbt");
    // Tables are not source; source is not tables; a library is no game.
    f.expect(&["check", table.path()], Expect::User(&[]));
    f.expect(&["check", table.path(), "--report"], Expect::User(&[]));
    f.expect(&["compile", table.path(), "-o", out.path()], Expect::User(&[]));
    f.expect(&["inspect", ORTHODOX], Expect::User(&[]));
    f.expect(&["check", LIBRARY, "--report"], Expect::User(&["library"]));
    f.expect(&["compile", LIBRARY, "-o", out.path()], Expect::User(&["library"]));
    f.expect(&["perft", LIBRARY, "--depth", "1"], Expect::User(&["library"]));
    f.expect(&["moves", LIBRARY], Expect::User(&["library"]));
    f.expect(&["diagram", LIBRARY], Expect::User(&["library"]));
    // Outputs that cannot be written.
    let dir = Temp::dir("out-dir");
    f.expect(&["compile", ORTHODOX, "-o", dir.path()], Expect::User(&["cannot write"]));
    f.expect(&["compile", ORTHODOX, "-o", "/nonexistent-orbis-dir/x.orbt"], Expect::User(&["cannot write"]));
    f.expect(&["diagram", ORTHODOX, "-o", "/nonexistent-orbis-dir/x.svg"], Expect::User(&["cannot write"]));
    f.assert_none();
}

/// Positions that cannot be read or cannot arise, for every command that takes `--position`.
#[test]
fn bad_positions_fail() {
    let mut f = Failures::default();
    let long = "p".repeat(100_000);
    let positions: Vec<&str> = vec![
        "garbage",
        "",
        "   ",
        "hello world and more words",
        // Too many and too few ranks.
        "8/8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8/8/8/8 w KQkq - 0 1",
        "8/8 w - - 0 1",
        // An unknown piece, a rank too long, a huge empty run.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/99999999999999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Both kings missing, one missing.
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        // The side not to move in check; a pawn on its promotion rank.
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        // Bad castling rights, en passant, clocks.
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1",
        "4k3/8/8/8/8/8/8/4K3 w - - -5 1",
        "4k3/8/8/8/8/8/8/4K3 z - - 0 1",
        // Non-ASCII.
        "♔♕♖/8/8/8/8/8/8/8 w - - 0 1",
        // The general notation.
        "turn=purple white=Ke1 black=Ke8",
        "turn=white white=Kz9 black=Ke8",
        "turn=white white=Ke1 white=Ke2 black=Ke8",
        "turn=white white=Ke1,Ke1 black=Ke8",
        "turn=white black=Ke8",
        "turn=white white=Ke1 black=Ke8 ep=e3:e4",
        "turn=white white=Ke1 black=Ke8 clock=-1",
        "=",
        "==== = =",
        &long,
    ];
    for pos in positions {
        for args in [
            vec!["perft", ORTHODOX, "--depth", "1", "--position", pos],
            vec!["moves", ORTHODOX, "--position", pos],
            vec!["diagram", ORTHODOX, "--position", pos],
        ] {
            f.expect(&args, Expect::User(&[]));
        }
    }
    f.assert_none();
}

#[test]
fn bad_moves_fail() {
    let mut f = Failures::default();
    let long = "e2-e4 ".repeat(20_000);
    let cases: Vec<Vec<&str>> = vec![
        // Illegal, garbage, empty.
        vec!["e2-e5"],
        vec!["Ke1-e3"],
        vec!["zzz"],
        vec![""],
        vec!["e2-e4", "e2-e4"],
        vec!["e2-e4", "@@@@"],
        vec!["e7-e5"],
        vec!["e2-e4", "e7-e5", "O-O"],
        vec!["♔e1-e2"],
        vec![long.as_str()],
    ];
    for moves in &cases {
        let mut args = vec!["moves", ORTHODOX, "--after"];
        args.extend(moves.iter().copied());
        f.expect(&args, Expect::User(&[]));
    }
    // More moves than any game (the list is refused, or its second move is illegal).
    let many = vec!["e2-e4"; 20_001];
    let mut args = vec!["moves", ORTHODOX, "--after"];
    args.extend(many);
    let run = f.expect(&args, Expect::User(&[]));
    if run.elapsed > QUICK {
        f.add(&run, "too slow for a refusal");
    }
    // A move after the game has ended.
    f.expect(&["moves", ORTHODOX, "--position", MATED, "--after", "a2-a3"], Expect::User(&[]));
    f.expect(&["moves", ORTHODOX, "--after", "f2-f3", "e7-e5", "g2-g4", "Qd8-h4", "a2-a3"], Expect::User(&[]));
    // Diagram requests that name no piece or cell.
    for bad in ["z9", "Zebra@e2", "Q@z9", "@", "e4"] {
        f.expect(&["diagram", ORTHODOX, "--moves", bad], Expect::User(&[]));
    }
    f.assert_none();
}

// ---------------------------------------------------------------------------------------------
// Usage errors: exit code 2

#[test]
fn usage_errors_exit_2() {
    let mut f = Failures::default();
    let cases: Vec<Vec<&str>> = vec![
        vec![],
        vec!["frobnicate"],
        vec!["frobnicate", ORTHODOX],
        vec!["--frobnicate"],
        vec!["check"],
        vec!["check", ORTHODOX, ORTHODOX],
        vec!["check", ORTHODOX, "--frobnicate"],
        vec!["compile"],
        vec!["compile", ORTHODOX, "-o"],
        vec!["inspect"],
        vec!["perft", ORTHODOX],
        vec!["perft", "--depth", "1"],
        vec!["perft", ORTHODOX, "--depth"],
        vec!["perft", ORTHODOX, "--depth", "-1"],
        vec!["perft", ORTHODOX, "--depth", "abc"],
        vec!["perft", ORTHODOX, "--depth", "1.5"],
        vec!["perft", ORTHODOX, "--depth", ""],
        vec!["perft", ORTHODOX, "--depth", "99999999999999999999999999"],
        vec!["perft", ORTHODOX, "--depth", "1", "--bench", "abc"],
        vec!["perft", ORTHODOX, "--depth", "1", "--bench", "-3"],
        vec!["perft", ORTHODOX, "--depth", "1", "--position"],
        vec!["moves"],
        vec!["moves", ORTHODOX, "--after"],
        vec!["moves", ORTHODOX, "--position"],
        vec!["diagram"],
        vec!["diagram", ORTHODOX, "--format", "png"],
        vec!["diagram", ORTHODOX, "--format", ""],
        vec!["diagram", ORTHODOX, "--moves"],
    ];
    for args in cases {
        f.expect(&args, Expect::Usage);
    }
    f.assert_none();
}

// ---------------------------------------------------------------------------------------------
// Limits: known problem cases (issue 15)

/// Whether a refusal names the depth limit.
fn names_depth_limit(run: &Run) -> bool {
    let s = run.stderr.to_lowercase();
    s.contains("depth") && ["limit", "at most", "..=", "maximum", "not in", "too deep", "beyond"].iter().any(|w| s.contains(w))
}

#[test]
fn perft_depth_beyond_any_integer_is_refused_quickly() {
    let mut f = Failures::default();
    for depth in ["18446744073709551615", "18446744073709551616", "4294967296", "1000000000000"] {
        let run = orbis(&["perft", ORTHODOX, "--depth", depth]);
        if let Err(why) = run.sane() {
            f.add(&run, why);
        } else if !matches!(run.code, Some(1) | Some(2)) || !run.error_line() || !names_depth_limit(&run) {
            f.add(&run, "expected exit code 1 or 2 with an error naming the depth limit");
        } else if run.elapsed > QUICK {
            f.add(&run, "too slow for a refusal");
        }
    }
    f.assert_none();
}

#[test]
fn perft_huge_depth_of_a_finished_game() {
    // A mated position has no moves: a deep count is 0 at once, or the depth is refused; it must
    // never allocate per ply of the requested depth.
    let mut f = Failures::default();
    for args in [
        vec!["perft", ORTHODOX, "--depth", "4000000", "--position", MATED],
        vec!["perft", ORTHODOX, "--depth", "4000000", "--position", MATED, "--divide"],
        vec!["perft", ORTHODOX, "--depth", "4000000", "--position", MATED, "--json"],
    ] {
        let run = orbis(&args);
        if let Err(why) = run.sane() {
            f.add(&run, why);
            continue;
        }
        let zero = run.code == Some(0)
            && (run.stdout.lines().any(|l| l.trim() == "nodes 0") || run.stdout.contains("\"nodes\":0"));
        let refused = matches!(run.code, Some(1) | Some(2)) && run.error_line() && names_depth_limit(&run);
        if !(zero || refused) {
            f.add(&run, "expected exit code 0 with 0 nodes, or a refusal naming the depth limit");
        } else if run.elapsed > QUICK {
            f.add(&run, "too slow");
        }
    }
    f.assert_none();
}

/// The orthodox example with `edit` applied to its source, in a temporary file.
fn orthodox_with(name: &str, edit: impl Fn(&str) -> String) -> Temp {
    let source = std::fs::read_to_string(common::root().join(ORTHODOX)).expect("orthodox source");
    let edited = edit(&source);
    assert_ne!(edited, source, "the edit changed nothing");
    Temp::file(name, edited.as_bytes())
}

#[test]
fn a_grid_beyond_every_limit_is_a_diagnostic() {
    let mut f = Failures::default();
    for (name, grid) in [
        ("huge-grid.orbis", "grid files -1..9223372036854775807 ranks 1..8"),
        ("huge-ranks.orbis", "grid files a..h ranks -9223372036854775808..9223372036854775807"),
        ("wide-grid.orbis", "grid files 1..100000 ranks 1..100000"),
    ] {
        let file = orthodox_with(name, |s| s.replace("grid files a..h ranks 1..8", grid));
        let out = Temp::new("out.orbt");
        for args in [
            vec!["check", file.path()],
            vec!["check", file.path(), "--json"],
            vec!["compile", file.path(), "-o", out.path()],
            vec!["perft", file.path(), "--depth", "1"],
        ] {
            let run = f.expect(&args, Expect::User(&[]));
            if run.elapsed > QUICK {
                f.add(&run, "too slow for a refusal");
            }
        }
    }
    f.assert_none();
}

/// Whether a refusal names a size limit.
fn names_size_limit(run: &Run) -> bool {
    let s = run.stderr.to_lowercase();
    ["limit", "larger than", "too large", "too big"].iter().any(|w| s.contains(w))
}

#[test]
fn endless_input_files_are_refused_quickly() {
    let mut f = Failures::default();
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let including = orthodox_with("include-dev-zero.orbis", |s| {
        s.replacen("variant \"Orthodox chess\"", "variant \"Orthodox chess\"\ninclude \"/dev/zero\"", 1)
    });
    let out = Temp::new("out.orbt");
    for file in ["/dev/zero", including.path()] {
        // (`inspect` reads tables only: it refuses the including file as source, not for its size.)
        for args in commands_on(file, out.path()).into_iter().filter(|a| !(a[0] == "inspect" && a[1] != "/dev/zero")) {
            let run = f.expect(&args, Expect::User(&[]));
            if run.code == Some(1) && !names_size_limit(&run) {
                f.add(&run, "the refusal does not name the size limit");
            }
            if run.elapsed > QUICK {
                f.add(&run, "too slow for a refusal");
            }
        }
    }
    f.assert_none();
}
