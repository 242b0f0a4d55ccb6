//! Every file in examples/invalid must fail to check, with diagnostics that are snapshotted (and
//! reviewed) in snapshots/; every other example must check without errors.

mod common;

use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

#[test]
fn invalid_examples_report_errors() {
    let files = common::orbis_files(&examples().join("invalid"));
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
    let mut checked_any = false;
    for rel in common::example_files() {
        let source = std::fs::read_to_string(common::root().join(&rel)).expect("readable");
        let checked = orbis_compiler::check(&rel, &source);
        assert!(!checked.has_errors(), "{rel}:\n{}", checked.render(false));
        assert!(checked.variant.is_some() || checked.library, "{rel}: neither a variant nor a library");
        checked_any = true;
    }
    assert!(checked_any);
}
