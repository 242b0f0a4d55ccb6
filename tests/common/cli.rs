//! Running the `orbis` binary as a user would, for the CLI tests: its exit code and output, and
//! temporary files that clean up after themselves.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn root() -> PathBuf {
    super::root()
}

/// What one run of the binary did.
pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub what: String,
}

impl Out {
    /// Exit code 0 and nothing on stderr that looks like a panic.
    pub fn ok(&self) -> &Self {
        assert_eq!(
            self.code,
            Some(0),
            "{}: expected success\nstdout:\n{}\nstderr:\n{}",
            self.what,
            self.stdout,
            self.stderr
        );
        self.no_panic()
    }

    /// Exit code 1 with an `error:` line on stderr whose text contains every one of `needles`.
    pub fn fails_with(&self, needles: &[&str]) -> &Self {
        assert_eq!(
            self.code,
            Some(1),
            "{}: expected exit code 1\nstdout:\n{}\nstderr:\n{}",
            self.what,
            self.stdout,
            self.stderr
        );
        self.no_panic();
        assert!(self.stderr.contains("error"), "{}: no error message on stderr:\n{}", self.what, self.stderr);
        let lower = self.stderr.to_lowercase();
        for n in needles {
            assert!(
                lower.contains(&n.to_lowercase()),
                "{}: stderr does not mention {n:?}:\n{}",
                self.what,
                self.stderr
            );
        }
        self
    }

    pub fn no_panic(&self) -> &Self {
        assert!(!self.stderr.contains("panicked"), "{}: panicked:\n{}", self.what, self.stderr);
        assert!(
            !matches!(self.code, Some(101) | Some(134)) && self.code.is_some(),
            "{}: crashed ({:?}):\n{}",
            self.what,
            self.code,
            self.stderr
        );
        self
    }

    pub fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 1, "{}: --json must print exactly one line:\n{}", self.what, self.stdout);
        serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{}: not JSON ({e}):\n{}", self.what, self.stdout))
    }
}

pub fn orbis<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Out {
    let what = format!(
        "orbis {}",
        args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
    );
    let out = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(args)
        .current_dir(root())
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    Out {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what,
    }
}

/// A file under the temporary directory with a name no other test (or test run) uses; removed on drop.
pub struct Temp(pub PathBuf);

impl Temp {
    pub fn new(name: &str) -> Temp {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        Temp(std::env::temp_dir().join(format!("orbis-cli-{}-{nanos}-{n}-{name}", std::process::id())))
    }

    pub fn with(name: &str, bytes: &[u8]) -> Temp {
        let t = Temp::new(name);
        std::fs::write(&t.0, bytes).unwrap();
        t
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("temporary paths are UTF-8 here")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

