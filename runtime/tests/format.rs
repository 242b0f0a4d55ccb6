//! The `.orbt` format: round trip, and every kind of damaged or hostile file is rejected with the
//! right error and without a panic.

mod common;

use common::*;
use orbis_runtime::format::{FormatError, FORMAT_VERSION, HEADER_LEN, MAGIC};
use orbis_runtime::inspect::inspect;
use orbis_runtime::tables::*;
use proptest::prelude::*;

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
