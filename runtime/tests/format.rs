//! The `.orbt` format: round trip, and every kind of damaged or hostile file is rejected with the
//! right error and without a panic.

use orbis_runtime::format::{FormatError, FORMAT_VERSION, HEADER_LEN, MAGIC};
use orbis_runtime::inspect::inspect;
use orbis_runtime::tables::*;
use proptest::prelude::*;

const W: usize = 3;
const HEADINGS: [(&str, (i32, i32)); 4] = [("N", (0, 1)), ("E", (1, 0)), ("S", (0, -1)), ("W", (-1, 0))];
const KING: u8 = 0;
const PAWN: u8 = 1;
/// Colored kinds: side * 2 + kind.
const WHITE_KING: u8 = 0;
const BLACK_KING: u8 = 2;

fn cell(name: &str) -> u16 {
    let b = name.as_bytes();
    ((b[1] - b'1') as usize * W + (b[0] - b'a') as usize) as u16
}

fn cells(names: &str) -> Vec<u16> {
    names.split_whitespace().map(cell).collect()
}

/// The step function of a 3x3 grid with a seam on the top edge: going N off rank 3 from file x
/// lands on file 2 - x of rank 3 heading S (so `a3 N` arrives on `c3` heading S).
fn step(x: usize, y: usize, h: usize) -> (u16, u8) {
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
fn sample() -> Tables {
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
fn old_bytes(t: &Tables) -> Vec<u8> {
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
fn reseal(bytes: &mut [u8]) {
    let len = (bytes.len() - HEADER_LEN) as u32;
    bytes[8..12].copy_from_slice(&len.to_le_bytes());
    let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
}

/// `Err(Invalid)` and its field, or a panic with what came instead.
fn invalid_field(result: Result<Tables, FormatError>) -> (String, String) {
    match result {
        Err(FormatError::Invalid { field, problem }) => (field, problem),
        other => panic!("expected an invalid-content error, got {other:?}"),
    }
}

#[test]
fn sample_is_valid() {
    assert_eq!(sample().validate(), Ok(()));
}

#[test]
fn round_trip() {
    let t = sample();
    let bytes = t.to_bytes();
    assert_eq!(bytes[0..4], MAGIC);
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), FORMAT_VERSION);
    assert_eq!(bytes[6..8], [0, 0]);
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len() - HEADER_LEN);
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), crc32fast::hash(&bytes[HEADER_LEN..]));
    let back = Tables::from_bytes(&bytes).expect("round trip");
    assert_eq!(back, t);
    assert_eq!(back.to_bytes(), bytes, "writing is deterministic");

    let mut no_grid = t.clone();
    no_grid.grid = None;
    assert_eq!(Tables::from_bytes(&no_grid.to_bytes()), Ok(no_grid));
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = sample().to_bytes();
    for len in 0..bytes.len() {
        match Tables::from_bytes(&bytes[..len]) {
            Err(FormatError::Truncated { expected, found, .. }) => {
                assert_eq!(found, len as u64);
                assert!(expected > found);
            }
            other => panic!("length {len}: expected truncated, got {other:?}"),
        }
    }
}

#[test]
fn truncation_inside_a_valid_payload_names_the_section() {
    // The payload ends with the players section (since version 6), after the layout's presence
    // byte (since version 4), after the masks.
    let t = sample();
    let players = tail_len(&t);
    let mut bytes = t.to_bytes();
    bytes.pop();
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "passing", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - passing_len(&t) - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "hands", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - hands_len(&t) - passing_len(&t) - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "hoppers", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - hoppers_len(&t) - hands_len(&t) - passing_len(&t) - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "goals", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - hoppers_len(&t) - hands_len(&t) - passing_len(&t) - goals_len(&t) - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "winders", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - (winders_len(&t) + goals_len(&t) + hoppers_len(&t) + hands_len(&t) + passing_len(&t)) - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "stacks", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - (winders_len(&t) + goals_len(&t) + hoppers_len(&t) + hands_len(&t) + passing_len(&t)) - stacks_len(&t) - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "players", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - players - 1);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "layout", .. }), "{err:?}");
    let mut bytes = t.to_bytes();
    bytes.truncate(bytes.len() - players - 2);
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert!(matches!(err, FormatError::Truncated { section: "masks", .. }), "{err:?}");
    assert!(err.to_string().contains("masks"), "{err}");
}

#[test]
fn every_payload_byte_flip_fails_the_checksum() {
    let bytes = sample().to_bytes();
    for i in HEADER_LEN..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[i] ^= flip;
            match Tables::from_bytes(&damaged) {
                Err(FormatError::ChecksumMismatch { stored, computed }) => assert_ne!(stored, computed),
                other => panic!("byte {i} ^ {flip:#x}: expected checksum mismatch, got {other:?}"),
            }
        }
    }
}

#[test]
fn header_errors() {
    let bytes = sample().to_bytes();

    let mut wrong = bytes.clone();
    wrong[0..4].copy_from_slice(b"PK\x03\x04");
    let err = Tables::from_bytes(&wrong).unwrap_err();
    assert!(matches!(err, FormatError::BadMagic { .. }), "{err:?}");
    assert!(err.to_string().contains("not an orbis table"), "{err}");
    assert!(matches!(Tables::from_bytes(b"{\"a\""), Err(FormatError::BadMagic { .. })));
    assert!(matches!(Tables::from_bytes(b"OX"), Err(FormatError::BadMagic { .. })));

    let mut v2 = bytes.clone();
    v2[4..6].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = Tables::from_bytes(&v2).unwrap_err();
    assert_eq!(err, FormatError::UnsupportedVersion { found: FORMAT_VERSION + 1 });
    assert!(err.to_string().contains(&format!("version {}", FORMAT_VERSION + 1)), "{err}");
    assert!(err.to_string().contains(&format!("reads version {FORMAT_VERSION}")), "{err}");

    let mut flags = bytes.clone();
    flags[6] = 1;
    assert_eq!(Tables::from_bytes(&flags), Err(FormatError::UnsupportedFlags { found: 1 }));

    let mut stored = bytes.clone();
    stored[12] ^= 1;
    assert!(matches!(Tables::from_bytes(&stored), Err(FormatError::ChecksumMismatch { .. })));

    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0, 0, 0]);
    let err = Tables::from_bytes(&longer).unwrap_err();
    assert_eq!(err, FormatError::TrailingBytes { after: "payload", extra: 3 });
    assert!(err.to_string().contains("3 unexpected bytes"), "{err}");

    // Extra bytes inside the declared payload, after its last section.
    let mut padded = bytes.clone();
    padded.push(0);
    reseal(&mut padded);
    assert!(matches!(Tables::from_bytes(&padded), Err(FormatError::TrailingBytes { extra: 1, .. })));

    // A payload length that overflows nothing: u32::MAX is simply more than the file has.
    let mut huge = bytes.clone();
    huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Tables::from_bytes(&huge), Err(FormatError::Truncated { section: "payload", .. })));
}

#[test]
fn invalid_utf8_names_the_string() {
    let mut bytes = sample().to_bytes();
    // The payload opens with the variant name: u32 length, then its bytes.
    bytes[HEADER_LEN + 4] = 0xFF;
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    assert_eq!(err, FormatError::InvalidUtf8 { field: "variant name".into() });
    assert_eq!(err.to_string(), "invalid table: variant name is not valid UTF-8");
}

#[test]
fn bad_enum_bytes_are_content_errors() {
    // Find the stalemate byte as the only byte that differs between two outcomes.
    let mut a = sample();
    a.rules.stalemate = Outcome::Draw;
    let mut b = a.clone();
    b.rules.stalemate = Outcome::Win;
    let (ba, bb) = (a.to_bytes(), b.to_bytes());
    let diff: Vec<usize> = (HEADER_LEN..ba.len()).filter(|&i| ba[i] != bb[i]).collect();
    assert_eq!(diff.len(), 1);
    let mut bytes = ba.clone();
    bytes[diff[0]] = 3;
    reseal(&mut bytes);
    let (field, problem) = invalid_field(Tables::from_bytes(&bytes));
    assert_eq!(field, "rules stalemate");
    assert!(problem.contains("outcome byte is 3"), "{problem}");

    // The stationary-moves bool follows it.
    let mut bytes = ba.clone();
    bytes[diff[0] + 1] = 2;
    reseal(&mut bytes);
    assert_eq!(invalid_field(Tables::from_bytes(&bytes)).0, "rules stationary_moves");

    // A symbol that is not a Unicode scalar value: find it the same way.
    let mut c = a.clone();
    c.kinds[0].symbol = 'Q';
    let bc = c.to_bytes();
    let at = (HEADER_LEN..ba.len()).find(|&i| ba[i] != bc[i]).unwrap();
    let mut bytes = ba.clone();
    bytes[at..at + 4].copy_from_slice(&0xD800u32.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(invalid_field(Tables::from_bytes(&bytes)).0, "kind 0 symbol");
}

#[test]
fn out_of_range_index_with_valid_checksum() {
    let t = sample();
    let mut bytes = t.to_bytes();
    // The masks end just before the layout's presence byte and the players section; make the
    // last one name colored kinds that do not exist.
    let n = bytes.len() - tail_len(&t);
    bytes[n - 9..n - 1].copy_from_slice(&u64::MAX.to_le_bytes());
    reseal(&mut bytes);
    let err = Tables::from_bytes(&bytes).unwrap_err();
    let (field, _) = invalid_field(Err(err.clone()));
    assert_eq!(field, "masks[2]");
    assert!(err.to_string().starts_with("invalid table: masks[2]: "), "{err}");
}

#[test]
fn ray_range_outside_pool() {
    let mut t = sample();
    let pool_len = t.pool.len();
    t.rays[3].cells = (40, 52 + pool_len as u32);
    let err = Tables::from_bytes(&t.to_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "invalid table: ray 3: cells range 40..{} is outside the pool (length {pool_len})",
            52 + pool_len
        )
    );
}

/// Each broken invariant is caught, through the file, and the error names the field.
#[test]
fn validate_names_the_field() {
    type Edit = fn(&mut Tables);
    let cases: Vec<(&str, Edit)> = vec![
        ("step from a1 heading N", |t| t.step[0] = (9, 0)),
        ("step from a1 heading N", |t| t.step[0].1 = 4),
        ("step from a1 heading S", |t| t.step[2] = (NO_CELL, 1)),
        ("step", |t| {
            t.step.pop();
        }),
        ("grid cell_at", |t| {
            t.grid.as_mut().unwrap().cell_at.pop();
        }),
        ("grid cell_at (2, 1)", |t| t.grid.as_mut().unwrap().cell_at[5] = 9),
        ("grid", |t| {
            t.grid.as_mut().unwrap().files.pop();
        }),
        ("kind 1 (Pawn) symbol", |t| t.kinds[1].symbol = 'p'),
        ("kind 1 (Pawn) symbol", |t| t.kinds[1].symbol = 'K'),
        ("kinds", |t| {
            let k = t.kinds[1].clone();
            t.kinds
                .extend((0..31).map(|i| KindInfo { symbol: char::from(b'A' + (i % 26) as u8), ..k.clone() }));
        }),
        ("sides", |t| {
            t.sides.pop();
        }),
        ("side 0 (white) setup", |t| t.sides[0].setup[0].0 = 9),
        ("side 0 (white) setup", |t| t.sides[0].setup[0].1 = 2),
        ("side 1 (black) setup", |t| t.sides[1].setup[0].0 = 0),
        ("side 1 (black) promotion 0", |t| t.sides[1].promotions[0].choices.push(7)),
        ("side 0 (white) promotion 0", |t| t.sides[0].promotions[0].zone.push(NO_CELL)),
        ("side 0 (white) castle 0 (O-O)", |t| t.sides[0].castles[0].rook_to = 12),
        ("side 0 (white) castle 0 (O-O)", |t| t.sides[0].castles[0].safe.push(9)),
        ("side 0 (white) castle 0 (O-O) fen letter", |t| t.sides[0].castles[0].fen = Some('k')),
        ("ray_index", |t| {
            t.ray_index.pop();
        }),
        ("ray_index[3]", |t| t.ray_index[3] = (2, 1)),
        ("ray_index[35]", |t| t.ray_index[35].1 = t.rays.len() as u32 + 1),
        ("ray 0", |t| t.rays[0].heading = 4),
        ("transit cell 0", |t| t.transit.push(99)),
        ("ray 0", |t| t.rays[0].must_empty = (3, 2)),
        ("ray 0", |t| t.rays[0].cells.1 += 1),
        ("pool[0]", |t| t.pool[0] = 9),
        ("attack_index", |t| {
            t.attack_index.push(3);
        }),
        ("attack_index[5]", |t| t.attack_index[5] = 0),
        ("attack 1", |t| {
            t.attacks[1] = Attack::Direct { ck: 4, cells: (0, 1) };
        }),
        ("attack 0", |t| {
            t.attacks[0] = Attack::Line { cells: (0, 3), masks: 1 };
        }),
        ("attack 2", |t| {
            t.attacks[2] = Attack::Direct { ck: 0, cells: (0, 999) };
        }),
    ];
    for (expected, edit) in cases {
        let mut t = sample();
        edit(&mut t);
        let via_validate = t.validate();
        let (field, problem) = invalid_field(Tables::from_bytes(&t.to_bytes()));
        assert_eq!(field, expected, "problem: {problem}");
        assert!(matches!(via_validate, Err(FormatError::Invalid { .. })));
    }
}

#[test]
fn errors_display_and_are_std_errors() {
    let errors = [
        FormatError::BadMagic { found: b"PK".to_vec() },
        FormatError::UnsupportedVersion { found: 9 },
        FormatError::UnsupportedFlags { found: 4 },
        FormatError::Truncated { section: "rays", expected: 100, found: 90 },
        FormatError::ChecksumMismatch { stored: 1, computed: 2 },
        FormatError::TrailingBytes { after: "payload", extra: 2 },
        FormatError::InvalidUtf8 { field: "cell name 3".into() },
        FormatError::Invalid { field: "ray 17".into(), problem: "bad".into() },
    ];
    for e in errors {
        let as_std: &dyn std::error::Error = &e;
        assert!(!as_std.to_string().is_empty());
    }
    assert_eq!(
        FormatError::Truncated { section: "rays", expected: 100, found: 90 }.to_string(),
        "truncated table: rays needs 100 bytes, the file has 90"
    );
}

#[test]
fn inspect_shows_the_sample() {
    let text = inspect(&sample());
    for needle in [
        "variant \"Mini sphere\"",
        "counts: 9 cells, 4 headings, 2 kinds, 2 sides, 9 rays,",
        "  3 | a3 b3 c3",
        "  a3: N->c3/S E->b3 S->a2 W->-",
        "  a1: N->a2 E->b1 S->- W->-",
        "  1: P Pawn resets-clock",
        "    promote Pawn to King Pawn on a1 b1 c1",
        "    castle O-O: king a1->c1 rook c1->b1 empty [b1] safe [a1 b1 c1] fen K",
        "    castle Ω-swap: king c3->a3 rook a3->b3 empty [b3] safe [] fen -",
        "rules: stalemate loss, stationary-moves allowed, fifty-move 50, repetition 2",
        "  white Pawn b1:\n    N [quiet] -> b2\n    N [quiet initial ep-target] empty b2 -> b3\n    E [capture ep-capture] -> c1\n",
        "  black King c3:\n    N [slide quiet capture] -> a3 a2 a1\n",
        "    N [slide quiet returns] -> b2 b1",
        "  a1:\n    line a2 a3(black King) c3(black King, black Pawn)\n",
        "  b2:\n    direct white King from b3 c2 b1 a2\n    direct black King from b3 c2 b1 a2\n",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = Tables::from_bytes(&bytes);
    }

    #[test]
    fn random_bytes_after_a_valid_header_never_panic(
        payload in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        let mut bytes = vec![0; HEADER_LEN];
        bytes[0..4].copy_from_slice(&MAGIC);
        bytes[4..6].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&payload);
        reseal(&mut bytes);
        prop_assert!(Tables::from_bytes(&bytes).is_err());
    }

    /// Corrupt a real table past its checksum: every edit either loads a valid table or is
    /// rejected, never panics.
    #[test]
    fn resealed_corruption_never_panics(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        do_cut in any::<bool>(),
    ) {
        let mut bytes = sample().to_bytes();
        for (at, value) in edits {
            let i = HEADER_LEN + at.index(bytes.len() - HEADER_LEN);
            bytes[i] = value;
        }
        if do_cut {
            bytes.truncate(HEADER_LEN + cut.index(bytes.len() - HEADER_LEN));
        }
        reseal(&mut bytes);
        if let Ok(t) = Tables::from_bytes(&bytes) {
            prop_assert_eq!(t.validate(), Ok(()));
            let _ = inspect(&t);
        }
    }
}

/// A small layout: one view, two cells.
fn with_layout() -> Tables {
    use orbis_runtime::tables::{Layout, LayoutCell, LayoutLabel, LayoutView};
    let mut t = sample();
    let square = |x: f32, y: f32| vec![[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]];
    t.layout = Some(Layout {
        shades: (0..t.cells.len()).map(|c| (c % 2) as u8).collect(),
        views: vec![LayoutView {
            name: "net".into(),
            cells: vec![
                LayoutCell { cell: 0, label: [0.5, 0.5], contours: vec![square(0.0, 0.0)], ports: vec![[0.5, 0.0], [1.0, 0.0]] },
                LayoutCell { cell: 1, label: [1.5, 0.5], contours: vec![square(3.0, 3.0), square(1.0, 0.0)], ports: vec![] },
            ],
            labels: vec![LayoutLabel { at: [1.0, 2.0], size: 1.5, text: "1".into() }],
        }],
    });
    t
}

#[test]
fn layout_round_trips_and_is_validated() {
    let t = with_layout();
    assert_eq!(t.validate(), Ok(()));
    assert_eq!(Tables::from_bytes(&t.to_bytes()).expect("loads"), t);
    let text = orbis_runtime::inspect::inspect(&t);
    assert!(text.contains("layout: 1 view(s)") && text.contains("view \"net\": 2 cells"), "{text}");
    assert!(text.contains("label \"1\" at (1.00, 2.00), size 1.50"), "{text}");
    let broken = |f: &dyn Fn(&mut orbis_runtime::tables::Layout)| {
        let mut t = with_layout();
        f(t.layout.as_mut().expect("layout"));
        let bytes = t.to_bytes();
        invalid_field(Tables::from_bytes(&bytes))
    };
    assert_eq!(broken(&|l| { l.shades.pop(); }).0, "layout shades");
    assert_eq!(broken(&|l| l.shades[0] = 7).0, "layout shades");
    let (field, problem) = broken(&|l| l.views[0].cells[1].cell = 0);
    assert_eq!(field, "layout view 0 (net) cell 1");
    assert!(problem.contains("twice"), "{problem}");
    assert!(broken(&|l| l.views[0].cells[0].cell = 999).1.contains("out of range"));
    assert!(broken(&|l| l.views[0].cells[0].contours[0].truncate(2)).1.contains("three points"));
    assert!(broken(&|l| l.views[0].cells[0].label[1] = f32::NAN).1.contains("finite"));
    assert!(broken(&|l| l.views[0].cells[0].ports = vec![[0.0, 0.0]; 9]).1.contains("ports"));
    let (field, problem) = broken(&|l| l.views[0].labels[0].size = 0.0);
    assert_eq!(field, "layout view 0 (net) label 0");
    assert!(problem.contains("positive size"), "{problem}");
    assert!(broken(&|l| l.views[0].labels[0].at[0] = f32::INFINITY).1.contains("finite"));
}

/// The bytes of the players section (version 6, the last of the payload): each side's team, the
/// `game-end` and `eliminated` bytes.
fn players_len(t: &Tables) -> usize {
    t.sides.iter().map(|s| 4 + s.team.len()).sum::<usize>() + 2
}

/// The length of the stacks section (version 7), the last of the payload.
fn stacks_len(t: &Tables) -> usize {
    let kinds: usize = t.kinds.iter().map(|k| 1 + 4 + k.crowns.len() + if k.crowned.is_some() { 3 } else { 1 }).sum();
    let sides: usize = t.sides.iter().map(|s| 4 + 3 * s.atop.len() + 4 + s.hand.len()).sum();
    kinds + sides + 2
}

/// The length of the winders section (version 8), the last of the payload.
fn winders_len(t: &Tables) -> usize {
    4 + t.winders.iter().map(|w| 2 + 4 + 2 * w.zone.len() + w.adjacency.iter().map(|a| 4 + 2 * a.len()).sum::<usize>()).sum::<usize>()
}

/// The length of the goals section (version 9), the last of the payload.
fn goals_len(t: &Tables) -> usize {
    1 + 8 + t.sides.iter().map(|s| 4 + 3 * s.reach.len() + s.promotions.len()).sum::<usize>()
}

/// The length of the hoppers section (version 10), the last of the payload.
fn hoppers_len(t: &Tables) -> usize {
    4 + t.hoppers.iter().map(|h| 2 + 16 + 4 + 2 * h.onto.len() + 4 + h.lines.iter().map(|(_, l)| 2 + 4 + 2 * l.len()).sum::<usize>()).sum::<usize>()
}

/// The length of the hands section (version 10), the last of the payload.
fn hands_len(t: &Tables) -> usize {
    let kinds: usize = t.kinds.iter().map(|k| 1 + if k.captured_as.is_some() { 1 } else { 0 } + 4 + k.fen.len()).sum();
    let sides: usize = t.sides.iter().map(|s| s.promotions.len() + 4 + s.drops.iter().map(|d| 1 + 4 + 2 * d.forbidden.len() + 1).sum::<usize>()).sum();
    1 + kinds + sides
}

/// The length of the passing section (version 11), the last of the payload.
fn passing_len(t: &Tables) -> usize {
    1 + 4 + t.facing.iter().map(|(_, l)| 2 + 4 + 2 * l.len()).sum::<usize>()
}

/// The sections after the layout: players (version 6), stacks (version 7), winders (version 8),
/// goals (version 9), hoppers and hands (version 10), passing (version 11).
fn tail_len(t: &Tables) -> usize {
    players_len(t) + stacks_len(t) + winders_len(t) + goals_len(t) + hoppers_len(t) + hands_len(t) + passing_len(t)
}

/// `t` as a file of a version before 11 reads it: no `pass`, no `facing`.
fn without_passing(t: &Tables) -> Tables {
    let mut t = t.clone();
    t.rules.pass = false;
    t.facing.clear();
    t
}

/// `t` as a file of a version before 10 reads it: no hops (nor passing).
fn without_hoppers(t: &Tables) -> Tables {
    let mut t = without_passing(t);
    t.hoppers.clear();
    t
}

#[test]
fn version_11_files_are_still_read() {
    // Version 11 is version 12 with the ray index as one list of ends.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes[4..6].copy_from_slice(&11u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 11 loads"), t);
}

#[test]
fn colored_kinds_share_ray_ranges() {
    // Since version 12 two entries may name the same rays.
    let mut t = sample();
    let shared = t.ray_index.iter().copied().find(|&(a, b)| a < b).expect("a cell with rays");
    let last = t.ray_index.len() - 1;
    t.ray_index[last] = shared;
    let back = Tables::from_bytes(&t.to_bytes()).expect("loads");
    assert_eq!(back.rays_at(last), t.rays_at(t.ray_index.iter().position(|&r| r == shared).unwrap()));
    assert!(!back.rays_at(last).is_empty());
}

#[test]
fn version_10_files_are_still_read() {
    // Version 10 is version 11 without the passing section.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - passing_len(&t));
    bytes[4..6].copy_from_slice(&10u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 10 loads"), without_passing(&t));
}

#[test]
fn passing_section_is_validated() {
    let mut bad = sample();
    bad.facing[0].1.push(99);
    assert_eq!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0, "facing line");
    let mut bytes = sample().to_bytes();
    let at = bytes.len() - passing_len(&sample());
    bytes[at] = 2;
    reseal(&mut bytes);
    assert_eq!(invalid_field(Tables::from_bytes(&bytes)).0, "pass rule");
}
/// `t` as a file of a version before 10 reads it: no drops, `captured-as`, FEN tokens or
/// `from-or-to`.
fn without_hands(t: &Tables) -> Tables {
    let mut t = t.clone();
    t.rules.drops = false;
    for k in &mut t.kinds {
        k.captured_as = None;
        k.fen.clear();
    }
    for s in &mut t.sides {
        s.drops.clear();
        for p in &mut s.promotions {
            p.from_or_to = false;
        }
    }
    t
}

#[test]
fn version_9_files_are_still_read() {
    // Version 9 is version 10 without the hoppers and hands sections.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - hoppers_len(&t) - hands_len(&t) - passing_len(&t));
    bytes[4..6].copy_from_slice(&9u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 9 loads"), without_hands(&without_hoppers(&t)));
}

#[test]
fn hands_section_is_validated() {
    let mut bad = sample();
    bad.sides[0].drops[0].forbidden.push(99);
    assert!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0.ends_with("drop 0"));
    let mut bad = sample();
    bad.kinds[1].captured_as = Some(0);
    assert!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0.ends_with("captured-as"));
    let mut bad = sample();
    bad.kinds[1].fen = "P".into();
    assert!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0.ends_with("FEN token"));
    let mut bad = sample();
    bad.grid = None;
    bad.sides[0].drops[0].one_per_file = true;
    let (field, problem) = invalid_field(Tables::from_bytes(&bad.to_bytes()));
    assert!(field.ends_with("drop 0") && problem.contains("without a grid"), "{field}: {problem}");
    let mut bad = sample();
    bad.sides[0].atop = vec![(bad.sides[0].setup[1].0, 0)];
    assert_eq!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0, "rules drops");
}

/// `t` as a file of a version before 9 reads it: no goals (nor hops, nor hands).
fn without_goals(t: &Tables) -> Tables {
    let mut t = without_hands(&without_hoppers(t));
    t.rules.check_limit = 0;
    t.rules.extinction = 0;
    for s in &mut t.sides {
        s.reach.clear();
        for p in &mut s.promotions {
            (p.captured, p.optional) = (false, false);
        }
    }
    t
}

/// `t` as a file of a version before 8 reads it: no winding rules (nor goals).
fn without_winders(t: &Tables) -> Tables {
    let mut t = without_goals(t);
    t.winders.clear();
    t
}

#[test]
fn hoppers_are_validated() {
    let t = sample();
    let mut bad = t.clone();
    bad.hoppers[0].lines[0].1.push(99);
    let (field, problem) = invalid_field(Tables::from_bytes(&bad.to_bytes()));
    assert_eq!(field, "hopper 0");
    assert!(problem.contains("out of range"), "{problem}");
    for flags in [0, 8 | 1, 16 | 1] {
        let mut bad = t.clone();
        bad.hoppers[0].flags = flags;
        assert_eq!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0, "hopper 0", "flags {flags}");
    }
    let mut bad = t.clone();
    bad.hoppers[0].ck = 4;
    assert_eq!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0, "hopper 0");
}

#[test]
fn version_8_files_are_still_read() {
    // Version 8 is version 9 without the goals section.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - goals_len(&t) - hoppers_len(&t) - hands_len(&t) - passing_len(&t));
    bytes[4..6].copy_from_slice(&8u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 8 loads"), without_goals(&t));
}

#[test]
fn goals_section_is_validated() {
    let mut bad = sample();
    bad.sides[0].reach = vec![(9, 0)];
    let (field, _) = invalid_field(Tables::from_bytes(&bad.to_bytes()));
    assert!(field.ends_with("reach"), "{field}");
    let mut bad = sample();
    bad.rules.extinction = 1 << 9;
    assert_eq!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0, "rules extinction");
}

#[test]
fn version_7_files_are_still_read() {
    // Version 7 is version 8 without the winders section.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - (winders_len(&t) + goals_len(&t) + hoppers_len(&t) + hands_len(&t) + passing_len(&t)));
    bytes[4..6].copy_from_slice(&7u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 7 loads"), without_winders(&t));
}

#[test]
fn winders_are_validated() {
    let t = sample();
    let mut bad = t.clone();
    bad.winders[0].adjacency[0] = vec![cell("c3")];
    let (field, problem) = invalid_field(Tables::from_bytes(&bad.to_bytes()));
    assert_eq!(field, "winder 0");
    assert!(problem.contains("leaves its zone"), "{problem}");
    let mut bad = t.clone();
    bad.winders[0].flags = 0;
    assert_eq!(invalid_field(Tables::from_bytes(&bad.to_bytes())).0, "winder 0");
}

/// `t` as a file of a version before 7 reads it: no stacks, crowning, hands or pieces that give
/// no check; `bare` ignored, `royal-path` any.
fn without_stacks(t: &Tables) -> Tables {
    let mut t = t.clone();
    for k in &mut t.kinds {
        k.cannot_check = false;
        k.crowns.clear();
        k.crowned = None;
    }
    for s in &mut t.sides {
        s.atop.clear();
        s.hand.clear();
    }
    t.rules.bare = None;
    t.rules.royal_path_unattacked = false;
    t
}

#[test]
fn version_6_files_are_still_read() {
    // Version 6 is version 7 without the stacks section.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - stacks_len(&t) - (winders_len(&t) + goals_len(&t) + hoppers_len(&t) + hands_len(&t) + passing_len(&t)));
    bytes[4..6].copy_from_slice(&6u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 6 loads"), without_winders(&without_stacks(&t)));
}

#[test]
fn stacks_section_is_validated() {
    let t = sample();
    let bytes = t.to_bytes();
    let end = bytes.len() - (winders_len(&t) + goals_len(&t) + hoppers_len(&t) + hands_len(&t) + passing_len(&t));
    for (at, field) in [(end - 2, "rules bare"), (end - 1, "rules royal_path")] {
        let mut b = bytes.clone();
        b[at] = 9;
        reseal(&mut b);
        assert_eq!(invalid_field(Tables::from_bytes(&b)).0, field);
    }
    // A hand holding a piece that crowns nothing, and a piece atop an empty cell.
    let mut bad = t.clone();
    bad.sides[0].hand = vec![0];
    let (field, problem) = invalid_field(Tables::from_bytes(&bad.to_bytes()));
    assert!(field.ends_with("hand") && problem.contains("crowns no piece"), "{field}: {problem}");
    // (Stacks and drops exclude each other: the drops are left out.)
    let mut bad = without_hands(&t);
    bad.sides[0].atop = vec![(bad.sides[1].setup[0].0, 1)];
    let (field, _) = invalid_field(Tables::from_bytes(&bad.to_bytes()));
    assert!(field.ends_with("atop"), "{field}");
}

/// `t` as a file of a version before 6 reads it: each side its own team, the rules of games of
/// three or more teams at their defaults.
fn without_players(t: &Tables) -> Tables {
    let mut t = t.clone();
    for s in &mut t.sides {
        s.team = s.name.clone();
    }
    t.rules.game_end = GameEnd::LastStanding;
    t.rules.eliminated = Eliminated::Remove;
    t
}

#[test]
fn version_5_files_are_still_read() {
    // Version 5 is version 6 without the players section.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - tail_len(&t));
    bytes[4..6].copy_from_slice(&5u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 5 loads"), without_players(&without_stacks(&without_winders(&t))));
}

#[test]
fn players_section_is_validated() {
    let t = sample();
    let bytes = t.to_bytes();
    let end = bytes.len() - stacks_len(&t) - (winders_len(&t) + goals_len(&t) + hoppers_len(&t) + hands_len(&t) + passing_len(&t));
    for (at, field) in [(end - 2, "rules game_end"), (end - 1, "rules eliminated")] {
        let mut b = bytes.clone();
        b[at] = 9;
        reseal(&mut b);
        assert_eq!(invalid_field(Tables::from_bytes(&b)).0, field);
    }
    let mut one_team = t.clone();
    one_team.sides[1].team = "light".into();
    let (field, problem) = invalid_field(Tables::from_bytes(&one_team.to_bytes()));
    assert_eq!(field, "sides");
    assert!(problem.contains("at least two teams"), "{problem}");
}

#[test]
fn version_4_files_are_still_read() {
    // Version 4 is version 5 without the views' labels: the list (here the last 4 + 8 + 4 + 5
    // bytes: its count, the label's point, its size and its text "1") goes, and the view has
    // none.
    let t = with_layout();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - tail_len(&t) - 21);
    bytes[4..6].copy_from_slice(&4u16.to_le_bytes());
    reseal(&mut bytes);
    let mut expected = without_players(&without_stacks(&without_winders(&t)));
    expected.layout.as_mut().expect("layout").views[0].labels.clear();
    assert_eq!(Tables::from_bytes(&bytes).expect("version 4 loads"), expected);
}

#[test]
fn version_3_files_are_still_read() {
    // Version 3 is version 4 (and 5) without the layout section.
    let t = sample();
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - tail_len(&t) - 1);
    bytes[4..6].copy_from_slice(&3u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(Tables::from_bytes(&bytes).expect("version 3 loads"), without_players(&without_stacks(&without_winders(&t))));
    let mut bytes = t.to_bytes();
    bytes[4..6].copy_from_slice(&2u16.to_le_bytes());
    assert_eq!(Tables::from_bytes(&bytes).unwrap_err(), FormatError::UnsupportedVersion { found: 2 });
}

/// The counting move (version 10) is a value of the `bare` byte: it round-trips, and a version 9
/// file with such a value is refused by name.
#[test]
fn the_counting_move_round_trips_and_needs_version_10() {
    let mut t = sample();
    t.rules.bare_counting = true;
    assert_eq!(Tables::from_bytes(&t.to_bytes()).expect("loads"), t);
    let mut bytes = old_bytes(&t);
    bytes.truncate(bytes.len() - hoppers_len(&t) - hands_len(&t) - passing_len(&t));
    bytes[4..6].copy_from_slice(&9u16.to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(invalid_field(Tables::from_bytes(&bytes)).0, "rules bare");
}
