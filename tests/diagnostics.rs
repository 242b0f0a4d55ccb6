//! Every file in examples/invalid must fail to check, with diagnostics that are snapshotted (and
//! reviewed) in snapshots/; every other example must check without errors.

use std::path::{Path, PathBuf};

fn orbis_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            orbis_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "orbis") {
            out.push(path);
        }
    }
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

#[test]
fn invalid_examples_report_errors() {
    let mut files = Vec::new();
    orbis_files(&examples().join("invalid"), &mut files);
    assert!(!files.is_empty(), "no invalid examples found");
    for path in files {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("file name").to_string();
        let source = std::fs::read_to_string(&path).expect("readable");
        let checked = orbis_compiler::check(&format!("examples/invalid/{name}.orbis"), &source);
        assert!(checked.has_errors(), "{name} should have errors:\n{}", checked.render(false));
        assert!(checked.variant.is_none(), "{name}: a variant despite errors");
        let text = checked.render(false);
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, text)
        });
    }
}

#[test]
fn valid_examples_have_no_errors() {
    let mut files = Vec::new();
    orbis_files(&examples(), &mut files);
    let invalid = examples().join("invalid");
    let mut checked_any = false;
    for path in files.iter().filter(|p| !p.starts_with(&invalid)) {
        let source = std::fs::read_to_string(path).expect("readable");
        let checked = orbis_compiler::check(&path.display().to_string(), &source);
        assert!(!checked.has_errors(), "{}:\n{}", path.display(), checked.render(false));
        assert!(checked.variant.is_some() || checked.library, "{}: neither a variant nor a library", path.display());
        checked_any = true;
    }
    assert!(checked_any);
}
