//! docs/spherical-family.md, generated: the Spherical Chess versions side by side, every cell
//! computed from the compiled tables of the variant files in examples/spherical/.
//!
//! `cargo test --test family_table` fails when the committed page differs from what the files
//! give; `UPDATE_DOCS=1 cargo test --test family_table` rewrites it.

mod common;

use common::{cell, destinations, heading, kind, walk};
use orbis_runtime::tables::{Tables, NO_CELL};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const PAGE: &str = "docs/spherical-family.md";
const REGENERATE: &str = "UPDATE_DOCS=1 cargo test --test family_table";

/// The probes: a bishop leaving `PROBE_CELL` with `PROBE_HEADING` crosses the pole on its first
/// step; knights, bishops and kings are looked at on the end rank and the rank next to it.
const PROBE_CELL: &str = "g1";
const PROBE_HEADING: &str = "SW";
const NEXT_RANK_CELL: &str = "g2";
const PERFT_DEPTH: usize = 3;

/// Grid coordinates of each cell (`None` for cells off the grid, such as poles).
fn coords(t: &Tables) -> Vec<Option<(i32, i32)>> {
    let g = t.grid.as_ref().expect("a grid board");
    let mut out = vec![None; t.cells.len()];
    for (i, &c) in g.cell_at.iter().enumerate() {
        if c != NO_CELL {
            out[c as usize] = Some(((i % g.width as usize) as i32, (i / g.width as usize) as i32));
        }
    }
    out
}

/// Each heading's vector: the grid offset most of its steps between grid cells make (files taken
/// round the shortest way, as files wrap on every globe). `None` for headings no grid step uses.
fn vectors(t: &Tables, xy: &[Option<(i32, i32)>]) -> Vec<Option<(i32, i32)>> {
    let w = t.grid.as_ref().unwrap().width as i32;
    let nh = t.headings.len();
    (0..nh)
        .map(|h| {
            let mut count: BTreeMap<(i32, i32), usize> = BTreeMap::new();
            for c in 0..t.cells.len() {
                let (to, _) = t.step[c * nh + h];
                if let (Some((x0, y0)), Some(Some((x1, y1)))) = (xy[c], xy.get(to as usize)) {
                    let dx = (x1 - x0).rem_euclid(w);
                    let dx = if dx > w / 2 { dx - w } else { dx };
                    *count.entry((dx, y1 - y0)).or_default() += 1;
                }
            }
            count.into_iter().max_by_key(|&(v, n)| (n, std::cmp::Reverse(v))).map(|(v, _)| v)
        })
        .collect()
}

/// The diagonal at the pole: where a step from the probe cell with the probe heading comes out on
/// the grid again (through the step table, over any off-grid pole cells), and with which heading.
fn diagonal(t: &Tables, xy: &[Option<(i32, i32)>], vec: &[Option<(i32, i32)>]) -> String {
    let w = t.grid.as_ref().unwrap().width as i32;
    let (from, h) = (cell(t, PROBE_CELL), heading(t, PROBE_HEADING));
    let states = walk(t, from, h, t.cells.len());
    let &(to, arrival) = states.iter().find(|(c, _)| xy[*c].is_some()).expect("the diagonal comes back to the grid");
    let (x0, y0) = xy[from].unwrap();
    let (x1, y1) = xy[to].unwrap();
    let (dx0, dy0) = vec[h].unwrap();
    assert!((x1 - x0).rem_euclid(w) != dx0.rem_euclid(w) || y1 - y0 != dy0, "{}: the probe step does not cross a pole", t.name);
    // The bishop's own ray agrees with the step table.
    let bishop = bishop_first_landing(t, xy);
    assert_eq!(bishop, Some(to), "{}: the bishop's ray and the step table disagree", t.name);
    // The file offset the short way round, and whether it is along the way the piece was going
    // east or west ("on") or against it ("back"); half the board round is neither.
    let d = (x1 - x0).rem_euclid(w);
    let offset = if d > w / 2 { d - w } else { d };
    let n = format!("{} file{}", offset.abs(), if offset.abs() == 1 { "" } else { "s" });
    let files = match offset.signum() * dx0.signum() {
        _ if 2 * offset.abs() == w || offset == 0 || dx0 == 0 => n,
        1 => format!("{n} on"),
        _ => format!("{n} back"),
    };
    let (dx1, _) = vec[arrival].expect("a grid heading");
    let turn = if dx1 == -dx0 { "turns" } else { "goes on" };
    format!("{PROBE_CELL} {PROBE_HEADING} → {} {} ({files}, {turn})", t.cells[to], t.headings[arrival])
}

/// The first grid cell of the white bishop's ray from the probe cell with the probe heading.
fn bishop_first_landing(t: &Tables, xy: &[Option<(i32, i32)>]) -> Option<usize> {
    let i = kind(t, "Bishop") * t.cells.len() + cell(t, PROBE_CELL);
    let h = heading(t, PROBE_HEADING) as u8;
    t.rays_at(i)
        .iter()
        .filter(|r| r.heading == h)
        .flat_map(|r| t.pool[r.cells.0 as usize..r.cells.1 as usize].iter())
        .map(|&c| c as usize)
        .find(|&c| xy[c].is_some())
}

/// Whether every bishop move from a grid cell to a grid cell keeps the square's colour.
fn bishop_keeps_colour(t: &Tables, xy: &[Option<(i32, i32)>]) -> bool {
    let colour = |c: usize| xy[c].map(|(x, y)| (x + y).rem_euclid(2));
    (0..t.cells.len()).filter(|&c| xy[c].is_some()).all(|c| {
        destinations(t, "Bishop", &t.cells[c]).iter().all(|d| {
            let d = cell(t, d);
            colour(d).is_none() || colour(d) == colour(c)
        })
    })
}

fn listed(cells: &BTreeSet<String>) -> String {
    format!("{}: {}", cells.len(), cells.iter().cloned().collect::<Vec<_>>().join(" "))
}

fn castling(t: &Tables) -> String {
    let per_side: Vec<(String, String)> = t
        .sides
        .iter()
        .map(|s| (s.name.clone(), s.castles.iter().map(|c| c.name.clone()).collect::<Vec<_>>().join(" ")))
        .collect();
    if per_side.windows(2).all(|w| w[0].1 == w[1].1) {
        let sides: Vec<&str> = per_side.iter().map(|(s, _)| s.as_str()).collect();
        format!("{} ({})", per_side[0].1, sides.join(", "))
    } else {
        per_side.iter().map(|(s, c)| format!("{s}: {c}")).collect::<Vec<_>>().join("; ")
    }
}

/// One row of the table.
fn row(file: &str) -> Vec<String> {
    let t = common::tables(file);
    let xy = coords(&t);
    let vec = vectors(&t, &xy);
    let name = file.rsplit('/').next().unwrap();
    let bishop = (destinations(&t, "Bishop", PROBE_CELL).len(), destinations(&t, "Bishop", NEXT_RANK_CELL).len());
    let knight = (destinations(&t, "Knight", PROBE_CELL), destinations(&t, "Knight", NEXT_RANK_CELL));
    let perft = common::engine(file).perft(None, PERFT_DEPTH).expect("start position");
    vec![
        format!("{} ([{name}](../{file}))", t.name),
        t.cells.len().to_string(),
        diagonal(&t, &xy, &vec),
        if bishop_keeps_colour(&t, &xy) { "yes" } else { "no" }.to_string(),
        listed(&knight.0),
        listed(&knight.1),
        listed(&destinations(&t, "King", PROBE_CELL)),
        castling(&t),
        if t.rules.stationary_moves { "allowed" } else { "forbidden" }.to_string(),
        perft.to_string(),
        format!("{} / {}", bishop.0, bishop.1),
        format!("{} / {}", knight.0.len(), knight.1.len()),
    ]
}

/// The spherical versions: the variant files directly in examples/spherical/ (libraries left out).
fn versions() -> Vec<String> {
    common::variant_files().into_iter().filter(|f| f.strip_prefix("examples/spherical/").is_some_and(|r| !r.contains('/'))).collect()
}

fn page() -> String {
    let header = [
        "version (file)".to_string(),
        "cells".to_string(),
        format!("diagonal at the pole (a step from {PROBE_CELL} heading {PROBE_HEADING})"),
        "bishops keep their colour".to_string(),
        format!("knight from {PROBE_CELL}"),
        format!("knight from {NEXT_RANK_CELL}"),
        format!("king from {PROBE_CELL}"),
        "castling".to_string(),
        "stationary moves".to_string(),
        format!("perft({PERFT_DEPTH}) from the start"),
        format!("bishop destinations {PROBE_CELL} / {NEXT_RANK_CELL}"),
        format!("knight destinations {PROBE_CELL} / {NEXT_RANK_CELL}"),
    ];
    let mut out = String::new();
    writeln!(out, "# The Spherical Chess family side by side\n").unwrap();
    writeln!(
        out,
        "Generated by `tests/family_table.rs` from the variant files in `examples/spherical/`; do not edit by \
         hand. Each file is compiled through the whole pipeline (the tables round-trip through the binary \
         format) and every cell below is computed from the compiled tables: the diagonal from the step table \
         (the first square on the board after the crossing, files counted the short way round, \"back\" against \
         the east-west way the piece was going; \"turns\" when the east-west part of its heading is reversed, \
         \"goes on\" when it is kept), colour keeping from every bishop move on an empty \
         board, destinations from the white piece's rays on an empty board (cells a piece only crosses, such \
         as Boholy's poles, left out), castling from the rule names of each side, perft by the engine. \
         `cargo test --test family_table` fails when this page is out of date; to regenerate it:\n"
    )
    .unwrap();
    writeln!(out, "```\n{REGENERATE}\n```\n").unwrap();
    writeln!(out, "| {} |", header.join(" | ")).unwrap();
    writeln!(out, "|{}", "---|".repeat(header.len())).unwrap();
    for file in versions() {
        writeln!(out, "| {} |", row(&file).join(" | ")).unwrap();
    }
    out
}

#[test]
fn spherical_family_page_is_current() {
    let generated = page();
    let path = common::root().join(PAGE);
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed.lines().zip(generated.lines()).position(|(a, b)| a != b).unwrap_or(committed.lines().count().min(generated.lines().count()));
        panic!(
            "{PAGE} is out of date (first difference at line {}):\n  committed: {}\n  generated: {}\nregenerate it with `{REGENERATE}`",
            first + 1,
            committed.lines().nth(first).unwrap_or("<end of file>"),
            generated.lines().nth(first).unwrap_or("<end of file>"),
        );
    }
}
