//! Perft suites as data files (tests/perft/*.txt), one driver.

mod common;

use std::fs;

/// Depths whose expected count is above this are left to the benchmark.
const NODE_BUDGET: u64 = 5_000_000;

struct Case {
    name: String,
    fen: String,
    counts: Vec<u64>,
}

fn read_suite(path: &str) -> (String, Vec<Case>) {
    let text = fs::read_to_string(common::root().join(path)).unwrap();
    let mut variant = None;
    let mut cases = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(v) = line.strip_prefix("variant:") {
            variant = Some(v.trim().to_string());
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "bad suite line: {line}");
        cases.push(Case {
            name: parts[0].into(),
            fen: parts[1].into(),
            counts: parts[2].split_whitespace().map(|n| n.parse().unwrap()).collect(),
        });
    }
    (variant.expect("suite names its variant"), cases)
}

#[test]
fn orthodox_suite_matches_published_counts() {
    let (variant, cases) = read_suite("tests/perft/orthodox.txt");
    let engine = common::engine(&variant);
    let mut checked = 0;
    for case in &cases {
        for (i, &expected) in case.counts.iter().enumerate() {
            if expected > NODE_BUDGET {
                break;
            }
            let depth = i + 1;
            let got = engine.perft(Some(&case.fen), depth).unwrap();
            assert_eq!(got, expected, "{} perft({depth})", case.name);
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} counts checked");
}

#[test]
fn orthodox_start_from_setup_equals_start_fen() {
    let engine = common::engine("examples/orthodox.orbis");
    assert_eq!(
        engine.position_text(None).unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn divide_sums_to_perft() {
    let engine = common::engine("examples/orthodox.orbis");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let divide = engine.divide(Some(kiwipete), 3).unwrap();
    assert_eq!(divide.len(), 48);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 97862);
}

/// perft(1..4) from the start of the non-orthodox examples, as snapshots (no published counts
/// exist; the reference-engine test cross-checks the lower depths independently).
#[test]
fn start_perft_snapshots() {
    for path in ["examples/cylindrical.orbis", "examples/spherical/nadvorney.orbis"] {
        let engine = common::engine(path);
        let counts: Vec<String> = (1..=4).map(|d| format!("perft({d}) = {}", engine.perft(None, d).unwrap())).collect();
        let name = path.trim_start_matches("examples/").trim_end_matches(".orbis").replace('/', "-");
        insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("perft-start-{name}"), counts.join("\n"));
        });
    }
}
