//! Inputs found by fuzzing (docs/fuzzing.md), replayed through the code of their fuzz target.
//!
//! Every file under `fuzz/regressions/TARGET/` is an input that once crashed, hung or blew up the
//! memory of that target; every file under `fuzz/corpus/TARGET/` is a seed. Each is run through
//! the target's body, `fuzz/src/lib.rs` included here as it is (so the properties the targets
//! assert are checked too), and must return without panicking and within a time limit.
//! The `grammar` target's inputs go through the `compiler` body, which parses first.

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One input may take this long (in the test profile, on a loaded machine).
const LIMIT: Duration = Duration::from_secs(60);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn body(target: &str) -> fn(&[u8]) {
    match target {
        "grammar" | "compiler" => fuzz::compiler,
        "tables" => fuzz::tables,
        "position" => fuzz::position,
        "moves" => fuzz::moves,
        other => panic!("no fuzz target {other}"),
    }
}

/// Replays every file of `dir/TARGET/`; returns how many it ran.
fn replay_all(dir: &Path) -> usize {
    let mut ran = 0;
    let Ok(targets) = std::fs::read_dir(dir) else { return 0 };
    let mut targets: Vec<PathBuf> = targets.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    targets.sort();
    for target_dir in targets {
        let target = target_dir.file_name().unwrap().to_string_lossy().into_owned();
        let run = body(&target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&target_dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files.into_iter().filter(|f| f.is_file()) {
            let data = std::fs::read(&file).unwrap();
            let (done, wait) = mpsc::channel();
            let name = file.display().to_string();
            let start = Instant::now();
            // In a thread, so that a hang fails the test instead of stalling it.
            let worker = std::thread::spawn(move || {
                run(&data);
                let _ = done.send(());
            });
            match wait.recv_timeout(LIMIT) {
                Ok(()) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name} ({target}) takes more than {LIMIT:?}"),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = worker.join();
                    panic!("{name} ({target}) panicked (message above)");
                }
            }
            let _ = worker.join();
            assert!(start.elapsed() < LIMIT, "{name}: {:?}", start.elapsed());
            ran += 1;
        }
    }
    ran
}

#[test]
fn fuzz_regressions_replay_cleanly() {
    let ran = replay_all(&root().join("fuzz/regressions"));
    eprintln!("{ran} regression inputs replayed");
}

#[test]
fn fuzz_seed_corpora_replay_cleanly() {
    let ran = replay_all(&root().join("fuzz/corpus"));
    assert!(ran > 100, "only {ran} seed inputs under fuzz/corpus/");
}
