//! Diagrams of boards of polygon cells (`orbis diagram` from the layout the compiler puts in the
//! tables): the cube nets (8x8 and 5x5), the soccer ball flattened round pentagon A, Webball as
//! two halves round N and S, a queen's rays next to a corner triangle of the cube, a bishop's on
//! a hexagon of the ball and a rook's on a node of Webball, and the text view. SVG and text snapshots (snapshots/polygon-*), every SVG parsed, every cell drawn
//! and named exactly once per view, and the pictures in docs/images kept current.
//!
//! The variants are inline (the game files of the cube and the ball are their own work): the
//! board libraries of examples/boards with a few pieces.

mod common;

use orbis_diagram::{Format, Options};
use orbis_runtime::{Engine, Tables};

const CUBE_8: &str = r#"variant "Cube 8x8 board"
include "boards/cube-8x8.orbis"
piece King K royal { step all }
piece Queen Q { slide all }
piece Bishop B { slide diag }
side white { setup { K x3y3z7 Q x1y2z7 } }
side black { setup { K x4y4z0 B x5y2z0 } }
"#;

const CUBE_5: &str = r#"variant "Cube 5x5 board"
include "boards/cube-5x5.orbis"
piece King K royal { step all }
piece Queen Q { slide all }
side white { setup { K x2y2z4 } }
side black { setup { K x2y2z0 } }
"#;

const BALL: &str = r#"variant "Soccer ball board"
include "boards/soccer-ball.orbis"
piece King K royal { step orth }
piece Rook R { slide orth }
piece Bishop B { slide diag }
side white { setup { K x0 R A } }
side black { setup { K z0 B L } }
"#;

const WEBBALL: &str = r#"variant "Webball board"
include "boards/webball.orbis"
piece King K royal { step all }
piece Rook R { slide orth }
piece Bishop B { slide diag }
side white { setup { K S R P } }
side black { setup { K N B A } }
"#;

/// Compiled (through the binary format, so the layout section is read back) and loaded.
fn engine(name: &str, source: &str) -> Engine {
    let path = common::root().join(format!("examples/{name}.orbis"));
    let checked = orbis_compiler::check(path.to_str().expect("utf-8 path"), source);
    assert!(!checked.has_errors(), "{}", checked.render(false));
    let t = orbis_compiler::lower::lower(checked.variant.as_ref().expect("a variant"));
    Engine::new(Tables::from_bytes(&t.to_bytes()).expect("round trip")).expect("loads")
}

fn boards() -> Vec<(&'static str, Engine)> {
    vec![("cube-8x8", engine("cube8-diagram-test", CUBE_8)), ("cube-5x5", engine("cube5-diagram-test", CUBE_5)), ("soccer-ball", engine("ball-diagram-test", BALL)), ("webball", engine("webball-diagram-test", WEBBALL))]
}

fn render(engine: &Engine, opts: Options) -> String {
    orbis_diagram::render(engine, &opts).unwrap_or_else(|e| panic!("{e}"))
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text)
    });
}

fn queen_moves() -> Options {
    // Next to the corner triangle x7y7z7: its diagonal bends onto the edge line.
    Options { moves: Some("Queen@x6y6z7".into()), paths: true, ..Options::default() }
}

fn bishop_moves() -> Options {
    Options { moves: Some("Bishop@x2".into()), paths: true, ..Options::default() }
}

fn rook_moves() -> Options {
    // On node B, next to the equator: its line through BQ goes on into the south half.
    Options { moves: Some("Rook@B".into()), paths: true, ..Options::default() }
}

/// Parses the SVG; every cell's name is one `<text>`, and every text inside the drawing names a
/// cell or belongs to the title and legends.
fn check_svg(label: &str, svg: &str, t: &Tables) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{label}: not well-formed XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg", "{label}");
    let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    let views = &t.layout.as_ref().expect("layout").views;
    for (cell, name) in t.cells.iter().enumerate() {
        let count = texts.iter().filter(|&&x| x == name.as_str()).count();
        let drawn = views.iter().filter(|v| v.cells.iter().any(|c| c.cell as usize == cell)).count();
        assert_eq!(count, drawn, "{label}: cell {name} is named {count} times");
    }
    // Names stay legible at the natural size (Webball's; the cube's corner triangles are small).
    for node in doc.descendants().filter(|n| n.has_tag_name("text")).filter(|_| label.starts_with("webball")) {
        let size: f64 = node.attribute("font-size").and_then(|v| v.parse().ok()).unwrap_or(0.0);
        assert!(size >= 9.0, "{label}: {:?} at {size} px", node.text());
    }
}

#[test]
fn every_cell_is_drawn_once_per_view() {
    for (name, engine) in boards() {
        let t = engine.tables();
        let layout = t.layout.as_ref().unwrap_or_else(|| panic!("{name}: no layout"));
        assert_eq!(layout.views.len(), if name == "webball" { 2 } else { 1 }, "{name}");
        let mut all: Vec<u16> = layout.views.iter().flat_map(|v| v.cells.iter().map(|c| c.cell)).collect();
        all.sort();
        all.dedup();
        assert_eq!(all, (0..t.cells.len() as u16).collect::<Vec<_>>(), "{name}: every cell in some view");
        for view in &layout.views {
            let mut cells: Vec<u16> = view.cells.iter().map(|c| c.cell).collect();
            cells.sort();
            let mut once = cells.clone();
            once.dedup();
            assert_eq!(cells, once, "{name} {}: a cell drawn twice", view.name);
            if layout.views.len() == 1 {
                assert_eq!(cells, (0..t.cells.len() as u16).collect::<Vec<_>>(), "{name} {}", view.name);
            }
            for c in &view.cells {
                // Ports: a side and a corner per side of the cell.
                let k = c.ports.len() / 2;
                assert!(k >= 3 && c.ports.len() == 2 * k, "{name}: {} has {} ports", t.cells[c.cell as usize], c.ports.len());
            }
        }
    }
}

#[test]
fn the_cube_net_has_squares_and_corner_triangles() {
    let engine = engine("cube8-diagram-test", CUBE_8);
    let t = engine.tables();
    let view = &t.layout.as_ref().expect("layout").views[0];
    assert_eq!(view.name, "net");
    let triangles: Vec<&str> = view.cells.iter().filter(|c| c.contours[0].len() == 3).map(|c| t.cells[c.cell as usize].as_str()).collect();
    assert_eq!(triangles.len(), 8, "{triangles:?}");
    assert!(triangles.iter().all(|n| n.matches(['0', '7']).count() == 3), "{triangles:?}");
    assert!(view.cells.iter().all(|c| c.contours.len() == 1 && (c.contours[0].len() == 3 || c.contours[0].len() == 4)));
    // The faces numbered as the page's boards: 1 the top (z = 7), 2 y = 0, 3 z = 0, 4 y = 7,
    // 5 x = 0, 6 x = 7; each number in the middle of its face.
    let texts: Vec<&str> = view.labels.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["1", "2", "3", "4", "5", "6"]);
    for (label, middle) in view.labels.iter().zip(["x3y3z7", "x3y0z3", "x3y3z0", "x3y7z3", "x0y3z3", "x7y3z3"]) {
        let c = view.cells.iter().find(|c| t.cells[c.cell as usize] == middle).expect("drawn");
        let d = (label.at[0] - c.label[0]).hypot(label.at[1] - c.label[1]);
        assert!(d < 1.0, "face {} is labelled {d} from {middle}", label.text);
    }
    // Cells do not overlap: their labels (centroids) are at least half a unit apart.
    for (i, a) in view.cells.iter().enumerate() {
        for b in &view.cells[i + 1..] {
            let d = (a.label[0] - b.label[0]).hypot(a.label[1] - b.label[1]);
            assert!(d > 0.45, "{} and {} overlap", t.cells[a.cell as usize], t.cells[b.cell as usize]);
        }
    }
}

#[test]
fn the_ball_is_centred_on_a_with_l_as_the_outer_ring() {
    let engine = engine("ball-diagram-test", BALL);
    let t = engine.tables();
    let layout = t.layout.as_ref().expect("layout");
    let view = &layout.views[0];
    let cell = |n: &str| view.cells.iter().find(|c| t.cells[c.cell as usize] == n).expect("drawn");
    let a = cell("A");
    assert!(a.label[0].abs() < 1e-3 && a.label[1].abs() < 1e-3, "A is at the centre: {:?}", a.label);
    assert_eq!(cell("L").contours.len(), 2, "L is the ring");
    assert!(view.cells.iter().filter(|c| t.cells[c.cell as usize] != "L").all(|c| c.contours.len() == 1));
    // Pentagons dark, hexagons light.
    for c in 0..t.cells.len() {
        let pentagon = t.cells[c].len() == 1;
        assert_eq!(layout.shades[c], u8::from(pentagon), "{}", t.cells[c]);
    }
}

/// Whether `p` lies inside the closed polygon `poly` (even-odd).
fn inside(p: [f32; 2], poly: &[[f32; 2]]) -> bool {
    let mut inside = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
            inside = !inside;
        }
    }
    inside
}

/// Webball (a sphere with 12 holes) as two halves like the page's: round N (A, D, J
/// counterclockwise) and round S seen from below (P, U, X counterclockwise); every cell whole in
/// at least one, every step between two cells within one view, no cell over another.
#[test]
fn webball_is_drawn_as_two_halves_round_n_and_s() {
    let engine = engine("webball-diagram-test", WEBBALL);
    let t = engine.tables();
    let layout = t.layout.as_ref().expect("layout");
    let names: Vec<&str> = layout.views.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["north", "south"]);
    let find = |v: usize, n: &str| layout.views[v].cells.iter().find(|c| t.cells[c.cell as usize] == n);
    for (v, centre, ring) in [(0, "N", ["A", "D", "J"]), (1, "S", ["P", "U", "X"])] {
        let c = find(v, centre).unwrap_or_else(|| panic!("{centre} in view {v}"));
        assert!(c.label[0].abs() < 1e-3 && c.label[1].abs() < 1e-3, "{centre} at the centre of view {v}: {:?}", c.label);
        let angle = |n: &str| {
            let l = find(v, n).expect("drawn").label;
            l[1].atan2(l[0])
        };
        let turn = |a: f32, b: f32| (b - a).rem_euclid(std::f32::consts::TAU);
        let (a, b, c) = (angle(ring[0]), angle(ring[1]), angle(ring[2]));
        assert!(turn(a, b) < turn(a, c), "{ring:?} counterclockwise round {centre}");
    }
    // The voids' marks, each in the half nearer its centre: round N *, #, + and the three ? a
    // little north of the equator; round S the others.
    let marks = |v: usize| {
        let mut m: Vec<&str> = layout.views[v].labels.iter().map(|l| l.text.as_str()).collect();
        m.sort();
        m.join(" ")
    };
    assert_eq!(marks(0), "# * + ? ? ?");
    assert_eq!(marks(1), "# $ $ $ * +");
    // The halves hold about half the board each (with the equator's cells in both).
    for view in &layout.views {
        assert!(view.cells.len() > 85 && view.cells.len() < 120, "{}: {} cells", view.name, view.cells.len());
    }
    for view in &layout.views {
        for a in &view.cells {
            assert!(inside(a.label, &a.contours[0]), "{}: {}'s name inside it", view.name, t.cells[a.cell as usize]);
            for b in view.cells.iter().filter(|b| b.cell != a.cell) {
                assert!(!inside(a.label, &b.contours[0]), "{}: {} drawn over {}", view.name, t.cells[b.cell as usize], t.cells[a.cell as usize]);
            }
        }
    }
    let heads = t.headings.len();
    for from in 0..t.cells.len() {
        for h in 0..heads {
            let (to, _) = t.step[from * heads + h];
            if to == orbis_runtime::tables::NO_CELL {
                continue;
            }
            let together = layout.views.iter().any(|v| [from as u16, to].iter().all(|x| v.cells.iter().any(|c| c.cell == *x)));
            assert!(together, "the step from {} to {} is in no view", t.cells[from], t.cells[to as usize]);
        }
    }
}

#[test]
fn layout_sections_stay_small() {
    for (name, engine) in boards() {
        let t = engine.tables();
        let without = Tables { layout: None, ..t.clone() };
        let bytes = t.to_bytes().len() - without.to_bytes().len();
        eprintln!("{name}: layout section {bytes} bytes of {} in all", t.to_bytes().len());
        assert!(bytes < 64 * 1024, "{name}: {bytes} bytes");
    }
}

#[test]
fn svg_snapshots() {
    for (name, engine) in boards() {
        let t = engine.tables().clone();
        let board = render(&engine, Options { empty: true, ..Options::default() });
        check_svg(&format!("{name} board"), &board, &t);
        snapshot(&format!("polygon-svg-{name}-board"), &board);
        let setup = render(&engine, Options::default());
        check_svg(&format!("{name} setup"), &setup, &t);
    }
    let cube = engine("cube8-diagram-test", CUBE_8);
    let svg = render(&cube, queen_moves());
    check_svg("cube queen", &svg, cube.tables());
    snapshot("polygon-svg-cube-8x8-queen-moves", &svg);
    let ball = engine("ball-diagram-test", BALL);
    let svg = render(&ball, bishop_moves());
    check_svg("ball bishop", &svg, ball.tables());
    assert!(!svg.contains("across a seam"), "the ball is drawn without cuts");
    snapshot("polygon-svg-soccer-ball-bishop-moves", &svg);
    let web = engine("webball-diagram-test", WEBBALL);
    let svg = render(&web, rook_moves());
    check_svg("webball rook", &svg, web.tables());
    snapshot("polygon-svg-webball-rook-moves", &svg);
    // A sensible size: each half under 1,500 pixels.
    let doc = roxmltree::Document::parse(&svg).expect("parses");
    let size = |a: &str| doc.root_element().attribute(a).and_then(|v| v.parse::<f64>().ok()).expect("size");
    assert!(size("width") < 1500.0 && size("height") < 3000.0, "{} x {}", size("width"), size("height"));
}

#[test]
fn text_views() {
    let ball = engine("ball-diagram-test", BALL);
    let mut all = String::new();
    for opts in [Options::default(), bishop_moves(), Options { position: Some("turn=white white=Kx0,Ry6 black=Kz0,BL".into()), moves: Some("y6".into()), paths: true, ..Options::default() }] {
        all.push_str(&render(&ball, Options { format: Format::Text, ..opts }));
        all.push_str("===\n");
    }
    assert!(all.contains("  A  R    5-gon  sides: x0 x1 x2 x3 x4  corners: B C D E F"), "{all}");
    snapshot("polygon-text-soccer-ball", &all);
    let cube = engine("cube8-diagram-test", CUBE_8);
    let text = render(&cube, Options { format: Format::Text, ..queen_moves() });
    assert!(text.contains("x7y7z7") && text.contains("moves ("), "{text}");
    // The corner triangle: three sides (edge squares) and three corners (face squares).
    let line = text.lines().find(|l| l.trim_start().starts_with("x7y7z7 ")).expect("listed");
    assert!(line.contains("3-gon"), "{line}");
}

#[test]
fn grid_only_views_are_refused() {
    let ball = engine("ball-diagram-test", BALL);
    for opts in [Options { neighbours: true, ..Options::default() }, Options { hemispheres: true, ..Options::default() }] {
        let err = orbis_diagram::render(&ball, &opts).expect_err("refused");
        assert!(err.contains("polygon"), "{err}");
    }
}

/// The pictures in docs/images that docs/language.md ("Polygon boards") shows. Regenerate with
/// `UPDATE_IMAGES=1 cargo test --test polygon_diagrams`.
#[test]
fn polygon_images_are_current() {
    let images = [
        ("docs/images/cube-8x8-board.svg", engine("cube8-diagram-test", CUBE_8), Options { empty: true, ..Options::default() }),
        ("docs/images/soccer-ball-board.svg", engine("ball-diagram-test", BALL), Options { empty: true, ..Options::default() }),
        ("docs/images/cube-8x8-queen.svg", engine("cube8-diagram-test", CUBE_8), queen_moves()),
        ("docs/images/soccer-ball-bishop.svg", engine("ball-diagram-test", BALL), bishop_moves()),
        ("docs/images/webball-board.svg", engine("webball-diagram-test", WEBBALL), Options { empty: true, ..Options::default() }),
        ("docs/images/webball-rook.svg", engine("webball-diagram-test", WEBBALL), rook_moves()),
    ];
    for (file, engine, opts) in images {
        let svg = render(&engine, opts);
        let path = common::root().join(file);
        if std::env::var_os("UPDATE_IMAGES").is_some() {
            std::fs::write(&path, &svg).expect("written");
        }
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(current == svg, "{file} is out of date: UPDATE_IMAGES=1 cargo test --test polygon_diagrams");
    }
}
