//! The three ways to build a board of polygons lower to the same model: a die (six squares) as
//! `polygon` neighbour lists, as an inline `mesh`, and from an OBJ file give the same cells, the
//! same steps through every side and corner, and the same surface.

use orbis_compiler::model::Variant;

// (Kings step orthogonally: stepping through corners too, those on top and bottom would attack
// each other, an initial position that cannot arise.)
const PIECES: &str = "piece King K royal { step orth }\npiece Rook R { slide orth }\nside white { setup { K top } }\nside black { setup { K bottom } }\n";

fn variant(board: &str, dir: &std::path::Path) -> Variant {
    let source = format!("variant \"Die\"\nboard {{\n{board}\n}}\n{PIECES}");
    let path = dir.join("die.orbis");
    let checked = orbis_compiler::check(path.to_str().expect("utf-8 path"), &source);
    assert!(!checked.has_errors(), "{board}\n{}", checked.render(false));
    checked.variant.expect("a variant")
}

/// A step by names: from (cell, heading) to (cell, heading), if anywhere.
type Step = (String, String, Option<(String, String)>);

/// Every step, by cell and heading names.
fn steps(v: &Variant) -> Vec<Step> {
    let mut out = Vec::new();
    for (c, cell) in v.board.cells.iter().enumerate() {
        for (h, heading) in v.board.headings.iter().enumerate() {
            let to = v.board.step(c, h).map(|(d, a)| (v.board.cells[d].name.clone(), v.board.headings[a].name.clone()));
            out.push((cell.name.clone(), heading.name.clone(), to));
        }
    }
    out.sort();
    out
}

#[test]
fn polygons_meshes_and_files_build_the_same_die() {
    let dir = std::env::temp_dir().join(format!("orbis-die-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Vertices 1..8 of the unit cube; faces counterclockwise seen from outside.
    let mesh = "mesh {\n face bottom 1 4 3 2  face top 5 6 7 8  face front 1 2 6 5\n face back 3 4 8 7  face left 1 5 8 4  face right 2 3 7 6\n}";
    let polygons = "polygon bottom { left back right front }\npolygon top { front right back left }\npolygon front { bottom right top left }\npolygon back { bottom left top right }\npolygon left { front top back bottom }\npolygon right { bottom back top front }";
    let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 3 4 8 7\nf 1 5 8 4\nf 2/1 3/1 7/1 6/1\n";
    std::fs::write(dir.join("die.obj"), obj).expect("write the OBJ file");
    let from_file = "mesh \"die.obj\" { bottom top front back left right }";
    let a = variant(mesh, &dir);
    let b = variant(polygons, &dir);
    let c = variant(from_file, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    // The lists name each side's cell in the mesh's order of edges, so the steps agree exactly.
    assert_eq!(steps(&a), steps(&b));
    assert_eq!(steps(&a), steps(&c));
    for v in [&a, &b, &c] {
        let s = v.board.complex.as_ref().expect("complex").surface();
        assert_eq!((s.vertices, s.edges, s.faces, s.euler), (8, 12, 6, 2));
        assert_eq!(s.name(), "sphere");
        // A die's rook goes round: from the top across the front, bottom and back.
        let top = v.board.cells.iter().position(|c| c.name == "top").expect("top");
        let rook = &v.pieces[1];
        let rays = orbis_compiler::walk::rule_rays(v, 0, rook, &rook.rules[0], top);
        assert_eq!(rays.len(), 4);
        assert!(rays.iter().all(|r| r.cells.len() == 3), "round the die and back");
    }
    // Only the mesh file knows where its faces are.
    assert!(c.board.complex.as_ref().expect("complex").positions.iter().all(Option::is_some));
}
