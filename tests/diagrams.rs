//! Diagrams (`orbis diagram`) for every example: text and SVG snapshots (snapshots/diagram-*), every
//! SVG parsed as XML and rendered to pixels with resvg, and the README's pictures kept current.
//!
//! Set `ORBIS_DIAGRAM_PNG=DIR` to also write each rendered SVG as a PNG into DIR (to look at them).

mod common;

use orbis_diagram::{Format, Options};
use orbis_runtime::Engine;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every example variant (libraries, which have no game of their own, are skipped), by snapshot name.
fn examples() -> Vec<(String, Engine)> {
    let mut out = Vec::new();
    for rel in common::example_files() {
        let source = std::fs::read_to_string(root().join(&rel)).expect("readable");
        let checked = orbis_compiler::check(&rel, &source);
        assert!(!checked.has_errors(), "{rel}:\n{}", checked.render(false));
        let Some(variant) = &checked.variant else { continue };
        let engine = Engine::new(orbis_compiler::lower::lower(variant)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let name = rel.trim_start_matches("examples/").trim_end_matches(".orbis").replace('/', "-");
        out.push((name, engine));
    }
    assert!(out.len() >= 3, "examples not found");
    out
}

/// The examples whose diagrams are snapshots: those on grids. The games on boards of polygons (the
/// cube games) draw several hundred cells a picture; their boards are snapshots in
/// tests/polygon_diagrams.rs, and here their pictures are parsed and rendered like every other.
fn snapshot_examples() -> Vec<(String, Engine)> {
    examples().into_iter().filter(|(_, e)| e.tables().grid.is_some()).collect()
}

/// The diagrams every example gets: (label, options without the format).
fn requests(engine: &Engine) -> Vec<(String, Options)> {
    let t = engine.tables();
    let mut out = vec![("board".to_string(), Options { empty: true, ..Options::default() }), ("setup".to_string(), Options::default())];
    if t.grid.is_some() {
        out.push(("neighbours".to_string(), Options { neighbours: true, ..Options::default() }));
    }
    // One movement diagram per piece kind: the first side's piece alone on its first start cell
    // (near an edge, where the seams show), with its rays.
    for (kind, k) in t.kinds.iter().enumerate() {
        let cell = t.sides[0].setup.iter().find(|&&(_, kk)| kk as usize == kind).map(|&(c, _)| c as usize).unwrap_or(0);
        let spec = format!("{}@{}", k.name, t.cells[cell]);
        out.push((format!("moves {spec}"), Options { moves: Some(spec), paths: true, ..Options::default() }));
    }
    let hemispheres = Options { hemispheres: true, ..Options::default() };
    if orbis_diagram::render(engine, &hemispheres).is_ok() {
        out.push(("hemispheres".to_string(), hemispheres));
    }
    out
}

fn render(engine: &Engine, opts: &Options, format: Format) -> String {
    orbis_diagram::render(engine, &Options { format, ..opts.clone() }).unwrap_or_else(|e| panic!("{e}"))
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text)
    });
}

#[test]
fn text_diagrams() {
    for (name, engine) in snapshot_examples() {
        let mut all = String::new();
        for (label, opts) in requests(&engine) {
            all.push_str(&format!("=== {label}\n"));
            all.push_str(&render(&engine, &opts, Format::Text));
        }
        snapshot(&format!("diagram-text-{name}"), &all);
    }
}

#[test]
fn svg_diagrams() {
    for (name, engine) in snapshot_examples() {
        let mut all = String::new();
        for (label, opts) in requests(&engine) {
            all.push_str(&format!("<!-- {label} -->\n"));
            all.push_str(&render(&engine, &opts, Format::Svg));
        }
        snapshot(&format!("diagram-svg-{name}"), &all);
    }
}

/// Parses an SVG and checks that it is one self-contained `svg` element with a viewBox.
fn check_xml(label: &str, svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{label}: not well-formed XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{label}");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"), "{label}");
    let view: Vec<f64> = root
        .attribute("viewBox")
        .unwrap_or_else(|| panic!("{label}: no viewBox"))
        .split_whitespace()
        .map(|v| v.parse().expect("number"))
        .collect();
    assert!(view.len() == 4 && view[2] > 0.0 && view[3] > 0.0, "{label}: viewBox {view:?}");
    let ids: Vec<&str> = doc.descendants().filter_map(|n| n.attribute("id")).collect();
    for node in doc.descendants().filter(|n| n.is_element()) {
        let tag = node.tag_name().name();
        assert!(!matches!(tag, "image" | "script" | "foreignObject" | "style"), "{label}: <{tag}> is not self-contained");
        for attr in node.attributes() {
            assert!(!attr.value().contains("url(http") && !attr.value().contains("@import"), "{label}: external reference");
            if attr.name() == "href" {
                let target = attr.value().strip_prefix('#').unwrap_or_else(|| panic!("{label}: external href {}", attr.value()));
                assert!(ids.contains(&target), "{label}: href to a missing #{target}");
            }
        }
    }
}

/// Renders an SVG with resvg; checks it is not blank; optionally writes it as a PNG.
fn check_pixels(label: &str, svg: &str, fonts: &std::sync::Arc<resvg::usvg::fontdb::Database>) {
    let opt = resvg::usvg::Options { fontdb: fonts.clone(), ..Default::default() };
    let scale: f32 = std::env::var("ORBIS_DIAGRAM_PNG_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let tree = resvg::usvg::Tree::from_str(svg, &opt).unwrap_or_else(|e| panic!("{label}: resvg cannot read it: {e}"));
    let size = tree.size().to_int_size();
    assert!(size.width() > 100 && size.height() > 100, "{label}: {size:?}");
    let (w, h) = ((size.width() as f32 * scale) as u32, (size.height() as f32 * scale) as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).expect("pixmap");
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let px = pixmap.pixels();
    let ink = px.iter().filter(|p| p.alpha() > 0 && (p.red() < 240 || p.green() < 240 || p.blue() < 240)).count();
    assert!(ink * 20 > px.len(), "{label}: almost blank ({ink} of {} pixels drawn)", px.len());
    let distinct: std::collections::BTreeSet<(u8, u8, u8)> = px.iter().map(|p| (p.red(), p.green(), p.blue())).collect();
    assert!(distinct.len() > 8, "{label}: only {} colours", distinct.len());
    if let Some(dir) = std::env::var_os("ORBIS_DIAGRAM_PNG") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("png dir");
        let file = label.replace(['/', ' ', '@'], "_");
        pixmap.save_png(dir.join(format!("{file}.png"))).expect("png written");
    }
}

#[test]
fn svgs_are_valid_xml_and_render() {
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_system_fonts();
    let fonts = std::sync::Arc::new(db);
    common::for_each_parallel(&examples(), |(name, engine)| {
        let mut reqs = requests(engine);
        // A movement diagram in the start position: the first side's last set-up piece.
        let t = engine.tables();
        if let Some(&(cell, _)) = t.sides[0].setup.last() {
            let opts = Options { moves: Some(t.cells[cell as usize].clone()), ..Options::default() };
            reqs.push(("moves in the start position".into(), opts));
        }
        for (label, opts) in reqs {
            let svg = render(engine, &opts, Format::Svg);
            let label = format!("{name} {label}");
            check_xml(&label, &svg);
            check_pixels(&label, &svg, &fonts);
        }
    });
    for (file, _, _) in readme_images() {
        let svg = std::fs::read_to_string(root().join(file)).expect("README image");
        check_xml(file, &svg);
        check_pixels(file, &svg, &fonts);
    }
}

/// The README's pictures: (file, variant, options). Regenerate them with the commands in README.md
/// ("Diagrams"), or `UPDATE_IMAGES=1 cargo test --test diagrams readme_images_are_current`.
fn readme_images() -> Vec<(&'static str, &'static str, Options)> {
    vec![
        ("docs/images/nadvorney-board.svg", "examples/spherical/nadvorney.orbis", Options::default()),
        (
            "docs/images/nadvorney-bishop-g3.svg",
            "examples/spherical/nadvorney.orbis",
            Options { moves: Some("Bishop@g3".into()), paths: true, headings: vec!["SW".into()], ..Options::default() },
        ),
    ]
}

#[test]
fn readme_images_are_current() {
    for (file, variant, opts) in readme_images() {
        let source = std::fs::read_to_string(root().join(variant)).expect("variant");
        let checked = orbis_compiler::check(variant, &source);
        let engine = Engine::new(orbis_compiler::lower::lower(checked.variant.as_ref().expect("compiles"))).expect("loads");
        let svg = render(&engine, &opts, Format::Svg);
        let path = root().join(file);
        if std::env::var_os("UPDATE_IMAGES").is_some() {
            std::fs::write(&path, &svg).expect("written");
        }
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(current == svg, "{file} is out of date: regenerate it (README.md, \"Diagrams\")");
    }
}

/// A tool, not a check: `ORBIS_RENDER_SVG=FILE.svg cargo test --test diagrams render_file -- --ignored`
/// writes FILE.svg.png (at `ORBIS_DIAGRAM_PNG_SCALE`), to look at an SVG as a picture.
#[test]
#[ignore]
fn render_file() {
    let Some(file) = std::env::var_os("ORBIS_RENDER_SVG") else { return };
    let svg = std::fs::read_to_string(&file).expect("readable SVG");
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_system_fonts();
    let dir = PathBuf::from(&file).parent().map(Path::to_path_buf).unwrap_or_default();
    std::env::set_var("ORBIS_DIAGRAM_PNG", &dir);
    let name = PathBuf::from(&file).file_name().expect("file name").to_string_lossy().to_string();
    check_pixels(&name, &svg, &std::sync::Arc::new(db));
}

/// The commands README.md documents regenerate the committed pictures byte for byte.
#[test]
fn readme_commands_regenerate_the_images() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_orbis")).args(args).current_dir(root()).output().expect("runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let commands: Vec<&str> = readme.lines().filter(|l| l.starts_with("cargo run -- diagram ")).collect();
    assert_eq!(commands.len(), readme_images().len(), "README lists one command per picture");
    for line in commands {
        let words: Vec<&str> = line.trim_start_matches("cargo run -- ").split_whitespace().collect();
        let o = words.iter().position(|w| *w == "-o").expect("-o OUT");
        let file = words[o + 1];
        let mut args = words[..o].to_vec();
        args.extend_from_slice(&words[o + 2..]);
        let expected = std::fs::read(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(run(&args) == expected, "`{line}` does not reproduce {file}");
    }
    // Text and errors.
    let text = String::from_utf8(run(&["diagram", "examples/orthodox.orbis", "--moves", "Knight@e4", "--format", "text"])).expect("UTF-8");
    assert!(text.contains("moves (8): d2 f2 c3 g3 c5 g5 d6 f6"), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(["diagram", "examples/orthodox.orbis", "--hemispheres"])
        .current_dir(root())
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--hemispheres needs"));
}
