//! The `.orbt` format's later sections: each validated, and the files of every older version
//! still read (the sections they lack read as empty).

mod common;

use common::*;
use orbis_runtime::format::FormatError;
use orbis_runtime::tables::*;

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
