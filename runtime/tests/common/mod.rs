//! Fixtures shared by the `.orbt` format tests (`format.rs`, `format_versions.rs`): a small but
//! complete table, files as older versions wrote them, and the lengths of the sections each
//! version added.

#![allow(dead_code)]

use orbis_runtime::format::{FormatError, HEADER_LEN};
use orbis_runtime::tables::*;

pub const W: usize = 3;
pub const HEADINGS: [(&str, (i32, i32)); 4] = [("N", (0, 1)), ("E", (1, 0)), ("S", (0, -1)), ("W", (-1, 0))];
pub const KING: u8 = 0;
pub const PAWN: u8 = 1;
/// Colored kinds: side * 2 + kind.
pub const WHITE_KING: u8 = 0;
pub const BLACK_KING: u8 = 2;

pub fn cell(name: &str) -> u16 {
    let b = name.as_bytes();
    ((b[1] - b'1') as usize * W + (b[0] - b'a') as usize) as u16
}

pub fn cells(names: &str) -> Vec<u16> {
    names.split_whitespace().map(cell).collect()
}

/// The step function of a 3x3 grid with a seam on the top edge: going N off rank 3 from file x
/// lands on file 2 - x of rank 3 heading S (so `a3 N` arrives on `c3` heading S).
pub fn step(x: usize, y: usize, h: usize) -> (u16, u8) {
    let (dx, dy) = HEADINGS[h].1;
    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
    if (0..W as i32).contains(&nx) && (0..W as i32).contains(&ny) {
        ((ny as usize * W + nx as usize) as u16, h as u8)
    } else if ny >= W as i32 {
        (((W - 1) * W + (W - 1 - x)) as u16, 2)
    } else {
        (NO_CELL, 0)
    }
}

/// A small but complete table: 2 sides, 2 kinds, a 3x3 grid with a seam, rays using every flag,
/// direct and line attacks.
pub fn sample() -> Tables {
    let files = ["a", "b", "c"];
    let ranks = ["1", "2", "3"];
    let cell_names: Vec<String> = (0..W * W).map(|i| format!("{}{}", files[i % W], ranks[i / W])).collect();
    let step_fn = (0..W * W).flat_map(|i| (0..4).map(move |h| step(i % W, i / W, h))).collect();

    // (colored kind, cell, [(flags, heading, must_empty, cells)]), in colored kind then cell order.
    use ray::*;
    type RaySpec<'a> = (u8, u8, &'a str, &'a str);
    let ray_specs: Vec<(u8, &str, Vec<RaySpec>)> = vec![
        (WHITE_KING, "a1", vec![(QUIET | CAPTURE, 0, "", "a2"), (QUIET | CAPTURE, 1, "", "b1")]),
        (
            1, // white Pawn
            "b1",
            vec![
                (QUIET, 0, "", "b2"),
                (QUIET | INITIAL | EP_TARGET, 0, "b2", "b3"),
                (CAPTURE | EP_CAPTURE, 1, "", "c1"),
            ],
        ),
        (
            BLACK_KING,
            "c3",
            vec![(SLIDE | QUIET | CAPTURE, 0, "", "a3 a2 a1"), (QUIET | CAPTURE, 3, "", "b3")],
        ),
        (3, "b3", vec![(QUIET, 2, "", "b2"), (SLIDE | QUIET | RETURNS, 0, "", "b2 b1")]),
    ];
    let mut pool = Vec::new();
    let push = |pool: &mut Vec<u16>, names: &str| {
        let start = pool.len() as u32;
        pool.extend(cells(names));
        (start, pool.len() as u32)
    };
    let mut rays = Vec::new();
    let mut ray_index = Vec::new();
    for ck in 0..4u8 {
        for c in 0..(W * W) as u16 {
            let start = rays.len() as u32;
            for (_, _, specs) in ray_specs.iter().filter(|(k, name, _)| *k == ck && cell(name) == c) {
                for &(flags, heading, empty, dest) in specs {
                    let must_empty = push(&mut pool, empty);
                    let cells = push(&mut pool, dest);
                    rays.push(Ray { flags, heading, must_empty, cells });
                }
            }
            ray_index.push((start, rays.len() as u32));
        }
    }

    // a1 is attacked along a line N (through the seam); b2 directly by either king.
    let line = push(&mut pool, "a2 a3 c3");
    let around_b2 = push(&mut pool, "b3 c2 b1 a2");
    let attacks = vec![
        Attack::Line { cells: line, masks: 0 },
        Attack::Direct { ck: WHITE_KING, cells: around_b2 },
        Attack::Direct { ck: BLACK_KING, cells: around_b2 },
    ];
    let attack_index = vec![0, 1, 1, 1, 1, 3, 3, 3, 3, 3];
    let masks = vec![0, 1 << BLACK_KING, 1 << BLACK_KING | 1 << 3];

    Tables {
        name: "Mini sphere".into(),
        cells: cell_names,
        headings: HEADINGS.iter().map(|h| h.0.to_string()).collect(),
        grid: Some(GridInfo {
            width: W as u16,
            height: W as u16,
            files: files.iter().map(|s| s.to_string()).collect(),
            ranks: ranks.iter().map(|s| s.to_string()).collect(),
            cell_at: (0..(W * W) as u16).collect(),
        }),
        step: step_fn,
        transit: vec![],
        aliases: vec![],
        kinds: vec![
            KindInfo { name: "King".into(), symbol: 'K', royal: true, resets_clock: false, ..Default::default() },
            // A FEN token of a promoted form (version 10).
            KindInfo { name: "Pawn".into(), symbol: 'P', royal: false, resets_clock: true, cannot_check: true, fen: "+P".into(), ..Default::default() },
        ],
        sides: vec![
            SideInfo {
                name: "white".into(),
                team: "light".into(),
                setup: vec![(cell("a1"), KING), (cell("b1"), PAWN)],
                promotions: vec![PromotionInfo { kind: PAWN, choices: vec![KING], zone: cells("a3 b3 c3"), captured: true, optional: true, from_or_to: true }],
                // Drop limits (version 10).
                drops: vec![DropInfo { kind: PAWN, forbidden: cells("a3 b3"), one_per_file: false, no_mate: true }],
                castles: vec![CastleInfo {
                    name: "O-O".into(),
                    king_from: cell("a1"),
                    king_to: cell("c1"),
                    rook_from: cell("c1"),
                    rook_to: cell("b1"),
                    empty: cells("b1"),
                    safe: cells("a1 b1 c1"),
                    fen: Some('K'),
                }],
                // The King wins on c2 (version 9).
                reach: vec![(KING, cell("c2"))],
                ..Default::default()
            },
            SideInfo {
                name: "black".into(),
                team: "dark".into(),
                setup: vec![(cell("c3"), KING), (cell("b3"), PAWN)],
                promotions: vec![PromotionInfo {
                    kind: PAWN,
                    choices: vec![KING, PAWN],
                    zone: cells("a1 b1 c1"),
                    ..PromotionInfo::default()
                }],
                castles: vec![CastleInfo {
                    name: "Ω-swap".into(),
                    king_from: cell("c3"),
                    king_to: cell("a3"),
                    rook_from: cell("a3"),
                    rook_to: cell("b3"),
                    // The rook's landing cell must be empty (validate checks it).
                    empty: cells("b3"),
                    safe: vec![],
                    fen: None,
                }],
                ..Default::default()
            },
        ],
        rules: RulesInfo {
            stalemate: Outcome::Loss,
            stationary_moves: true,
            fifty_move: 50,
            repetition: 2,
            game_end: GameEnd::FirstMate,
            eliminated: Eliminated::Stay,
            bare: Some(Outcome::Win),
            bare_counting: false,
            royal_path_unattacked: true,
            check_limit: 3,
            extinction: 1 << PAWN,
            drops: true,
            pass: true,
        },
        ray_index,
        rays,
        pool,
        attack_index,
        attacks,
        masks,
        // The Pawn winds between a1 and b1 (version 8).
        winders: vec![orbis_runtime::tables::Winder {
            kind: PAWN,
            flags: 3,
            zone: vec![cell("a1"), cell("b1")],
            adjacency: vec![vec![cell("b1")], vec![cell("a1")]],
        }],
        // The white King hops north from a1 over one piece but a Pawn onto a3 (version 10).
        hoppers: vec![orbis_runtime::tables::Hopper {
            ck: WHITE_KING,
            flags: 7,
            over: !(1 << PAWN),
            takes: u64::MAX,
            onto: cells("a3"),
            lines: vec![(cell("a1"), cells("a2 a3"))],
        }],
        facing: vec![(0, vec![1, 2])],
        layout: None,
    }
}

/// `t` written as versions before 12 wrote it (header not resealed): `ray_index` one list of
/// `u32`, each entry's rays ending where the next entry's begin (`t`'s ranges follow each other).
pub fn old_bytes(t: &Tables) -> Vec<u8> {
    assert!(t.ray_index.windows(2).all(|w| w[0].1 == w[1].0), "ranges that follow each other");
    let bytes = t.to_bytes();
    let mut new = (t.ray_index.len() as u32).to_le_bytes().to_vec();
    for &(start, end) in &t.ray_index {
        new.extend(start.to_le_bytes());
        new.extend(end.to_le_bytes());
    }
    let at = bytes.windows(new.len()).position(|w| w == new).expect("the ray index in the file");
    let mut old = bytes[..at].to_vec();
    old.extend(((t.ray_index.len() + 1) as u32).to_le_bytes());
    old.extend(t.ray_index[0].0.to_le_bytes());
    for &(_, end) in &t.ray_index {
        old.extend(end.to_le_bytes());
    }
    old.extend(&bytes[at + new.len()..]);
    old
}

/// Recomputes the header's payload length and checksum after a test edits the payload, so the
/// loader gets past the checksum to the check under test.
pub fn reseal(bytes: &mut [u8]) {
    let len = (bytes.len() - HEADER_LEN) as u32;
    bytes[8..12].copy_from_slice(&len.to_le_bytes());
    let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
}

/// `Err(Invalid)` and its field, or a panic with what came instead.
pub fn invalid_field(result: Result<Tables, FormatError>) -> (String, String) {
    match result {
        Err(FormatError::Invalid { field, problem }) => (field, problem),
        other => panic!("expected an invalid-content error, got {other:?}"),
    }
}

/// The bytes of the players section (version 6, the last of the payload): each side's team, the
/// `game-end` and `eliminated` bytes.
pub fn players_len(t: &Tables) -> usize {
    t.sides.iter().map(|s| 4 + s.team.len()).sum::<usize>() + 2
}

/// The length of the stacks section (version 7), the last of the payload.
pub fn stacks_len(t: &Tables) -> usize {
    let kinds: usize = t.kinds.iter().map(|k| 1 + 4 + k.crowns.len() + if k.crowned.is_some() { 3 } else { 1 }).sum();
    let sides: usize = t.sides.iter().map(|s| 4 + 3 * s.atop.len() + 4 + s.hand.len()).sum();
    kinds + sides + 2
}

/// The length of the winders section (version 8), the last of the payload.
pub fn winders_len(t: &Tables) -> usize {
    4 + t.winders.iter().map(|w| 2 + 4 + 2 * w.zone.len() + w.adjacency.iter().map(|a| 4 + 2 * a.len()).sum::<usize>()).sum::<usize>()
}

/// The length of the goals section (version 9), the last of the payload.
pub fn goals_len(t: &Tables) -> usize {
    1 + 8 + t.sides.iter().map(|s| 4 + 3 * s.reach.len() + s.promotions.len()).sum::<usize>()
}

/// The length of the hoppers section (version 10), the last of the payload.
pub fn hoppers_len(t: &Tables) -> usize {
    4 + t.hoppers.iter().map(|h| 2 + 16 + 4 + 2 * h.onto.len() + 4 + h.lines.iter().map(|(_, l)| 2 + 4 + 2 * l.len()).sum::<usize>()).sum::<usize>()
}

/// The length of the hands section (version 10), the last of the payload.
pub fn hands_len(t: &Tables) -> usize {
    let kinds: usize = t.kinds.iter().map(|k| 1 + if k.captured_as.is_some() { 1 } else { 0 } + 4 + k.fen.len()).sum();
    let sides: usize = t.sides.iter().map(|s| s.promotions.len() + 4 + s.drops.iter().map(|d| 1 + 4 + 2 * d.forbidden.len() + 1).sum::<usize>()).sum();
    1 + kinds + sides
}

/// The length of the passing section (version 11), the last of the payload.
pub fn passing_len(t: &Tables) -> usize {
    1 + 4 + t.facing.iter().map(|(_, l)| 2 + 4 + 2 * l.len()).sum::<usize>()
}

/// The sections after the layout: players (version 6), stacks (version 7), winders (version 8),
/// goals (version 9), hoppers and hands (version 10), passing (version 11).
pub fn tail_len(t: &Tables) -> usize {
    players_len(t) + stacks_len(t) + winders_len(t) + goals_len(t) + hoppers_len(t) + hands_len(t) + passing_len(t)
}
