//! A readable dump of [`Tables`] for `orbis inspect FILE.orbt`: what the compiler decided, cell
//! by cell, so a wrong move or attack can be traced to its table entry.
//!
//! The text is stable (fixed order, no hash maps) so it can be diffed and snapshot-tested. It
//! never panics: an out-of-range index (in a table that skipped [`Tables::validate`]) prints as
//! `#N?` instead of a name.

use std::fmt::Write;

use crate::tables::{ray, Attack, Eliminated, GameEnd, Outcome, Tables, NO_CELL};

/// Ray flags in the order they are printed, with their words.
const RAY_FLAG_WORDS: [(u8, &str); 8] = [
    (ray::SLIDE, "slide"),
    (ray::QUIET, "quiet"),
    (ray::CAPTURE, "capture"),
    (ray::INITIAL, "initial"),
    (ray::EP_TARGET, "ep-target"),
    (ray::EP_CAPTURE, "ep-capture"),
    (ray::RETURNS, "returns"),
    (ray::PASS_UNATTACKED, "pass-unattacked"),
];

/// The whole table as text. See the module doc.
pub fn inspect(t: &Tables) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_all(&mut out, t);
    out
}

struct Names<'a>(&'a Tables);

impl Names<'_> {
    fn cell(&self, c: u16) -> String {
        if c == NO_CELL {
            return "-".to_string();
        }
        self.0.cells.get(c as usize).cloned().unwrap_or_else(|| format!("#{c}?"))
    }
    fn cells(&self, cs: &[u16]) -> String {
        cs.iter().map(|&c| self.cell(c)).collect::<Vec<_>>().join(" ")
    }
    fn heading(&self, h: u8) -> String {
        self.0.headings.get(h as usize).cloned().unwrap_or_else(|| format!("#{h}?"))
    }
    fn kind(&self, k: u8) -> String {
        self.0.kinds.get(k as usize).map(|k| k.name.clone()).unwrap_or_else(|| format!("#{k}?"))
    }
    fn side(&self, s: usize) -> String {
        self.0.sides.get(s).map(|s| s.name.clone()).unwrap_or_else(|| format!("#{s}?"))
    }
    /// "white King" for a colored kind.
    fn colored(&self, ck: usize) -> String {
        let n = self.0.kinds.len().max(1);
        format!("{} {}", self.side(ck / n), self.kind((ck % n) as u8))
    }
    /// Cells of a pool range; an out-of-range range prints as such rather than panicking.
    fn pool(&self, (start, end): (u32, u32)) -> Result<&[u16], String> {
        self.0
            .pool
            .get(start as usize..end as usize)
            .ok_or_else(|| format!("<bad pool range {start}..{end}>"))
    }
    fn pool_cells(&self, range: (u32, u32)) -> String {
        match self.pool(range) {
            Ok(cs) => self.cells(cs),
            Err(e) => e,
        }
    }
}

/// `start..end` of a CSR index, or an empty range if the index is short or broken.
fn index_range(index: &[u32], i: usize) -> std::ops::Range<usize> {
    match (index.get(i), index.get(i + 1)) {
        (Some(&a), Some(&b)) if a <= b => a as usize..b as usize,
        _ => 0..0,
    }
}

fn write_all(out: &mut String, t: &Tables) -> std::fmt::Result {
    let names = Names(t);
    let n_cells = t.cells.len();
    let n_headings = t.headings.len();
    let n_kinds = t.kinds.len();

    writeln!(out, "variant {:?}", t.name)?;
    writeln!(
        out,
        "counts: {} cells, {} headings, {} kinds, {} sides, {} rays, {} pool, {} attacks, {} masks",
        n_cells,
        n_headings,
        n_kinds,
        t.sides.len(),
        t.rays.len(),
        t.pool.len(),
        t.attacks.len(),
        t.masks.len()
    )?;

    match &t.grid {
        None => writeln!(out, "grid: none")?,
        Some(g) => {
            writeln!(out, "grid {}x{}:", g.width, g.height)?;
            let w = g.width as usize;
            let cell_w = t.cells.iter().map(|c| c.chars().count()).max().unwrap_or(1).max(1);
            let rank_w = g.ranks.iter().map(|r| r.chars().count()).max().unwrap_or(0);
            // Top rank first, as on a diagram; cells padded into columns, lines trimmed.
            for y in (0..g.height as usize).rev() {
                let rank = g.ranks.get(y).map(String::as_str).unwrap_or("?");
                let mut line = format!("  {rank:>rank_w$} |");
                for x in 0..w {
                    let name = match g.cell_at.get(y * w + x) {
                        Some(&NO_CELL) | None => ".".to_string(),
                        Some(&c) => names.cell(c),
                    };
                    write!(line, " {name:<cell_w$}")?;
                }
                writeln!(out, "{}", line.trim_end())?;
            }
            let mut line = format!("  {:rank_w$}  ", "");
            for f in &g.files {
                write!(line, " {f:<cell_w$}")?;
            }
            writeln!(out, "{}", line.trim_end())?;
        }
    }

    writeln!(out, "headings: {}", t.headings.join(" "))?;
    if !t.transit.is_empty() {
        let names: Vec<&str> = t.transit.iter().map(|&c| t.cells.get(c as usize).map_or("?", String::as_str)).collect();
        writeln!(out, "transit: {}", names.join(" "))?;
    }
    if !t.aliases.is_empty() {
        let pairs: Vec<String> = t.aliases.iter().map(|(a, c)| format!("{a}={}", names.cell(*c))).collect();
        writeln!(out, "aliases: {}", pairs.join(" "))?;
    }

    writeln!(out, "steps:")?;
    for c in 0..n_cells {
        write!(out, "  {}:", t.cells[c])?;
        for h in 0..n_headings {
            let (to, arrive) = t.step.get(c * n_headings + h).copied().unwrap_or((NO_CELL, 0));
            write!(out, " {}->{}", t.headings[h], names.cell(to))?;
            if to != NO_CELL && arrive as usize != h {
                write!(out, "/{}", names.heading(arrive))?;
            }
        }
        writeln!(out)?;
    }

    writeln!(out, "kinds:")?;
    for (k, kind) in t.kinds.iter().enumerate() {
        write!(out, "  {k}: {} {}", kind.symbol, kind.name)?;
        if kind.royal {
            write!(out, " royal")?;
        }
        if kind.resets_clock {
            write!(out, " resets-clock")?;
        }
        if kind.cannot_check {
            write!(out, " cannot-check")?;
        }
        if !kind.crowns.is_empty() {
            let carriers: Vec<String> = kind.crowns.iter().map(|&k| names.kind(k)).collect();
            write!(out, " crowns {}", carriers.join(" "))?;
        }
        if let Some((carrier, crown)) = kind.crowned {
            write!(out, " (crowned: {} carrying {})", names.kind(carrier), names.kind(crown))?;
        }
        writeln!(out)?;
    }

    writeln!(out, "sides:")?;
    for (s, side) in t.sides.iter().enumerate() {
        if side.team == side.name {
            writeln!(out, "  {s}: {}", side.name)?;
        } else {
            writeln!(out, "  {s}: {} (team {})", side.name, side.team)?;
        }
        let setup: Vec<String> =
            side.setup.iter().map(|&(c, k)| format!("{} {}", names.kind(k), names.cell(c))).collect();
        writeln!(out, "    setup: {}", setup.join(", "))?;
        if !side.atop.is_empty() {
            let atop: Vec<String> = side.atop.iter().map(|&(c, k)| format!("{} {}", names.kind(k), names.cell(c))).collect();
            writeln!(out, "    atop: {}", atop.join(", "))?;
        }
        if !side.hand.is_empty() {
            let hand: Vec<String> = side.hand.iter().map(|&k| names.kind(k)).collect();
            writeln!(out, "    hand: {}", hand.join(", "))?;
        }
        for p in &side.promotions {
            let choices: Vec<String> = p.choices.iter().map(|&k| names.kind(k)).collect();
            writeln!(
                out,
                "    promote {} to {} on {}",
                names.kind(p.kind),
                choices.join(" "),
                names.cells(&p.zone)
            )?;
        }
        for c in &side.castles {
            writeln!(
                out,
                "    castle {}: king {}->{} rook {}->{} empty [{}] safe [{}] fen {}",
                c.name,
                names.cell(c.king_from),
                names.cell(c.king_to),
                names.cell(c.rook_from),
                names.cell(c.rook_to),
                names.cells(&c.empty),
                names.cells(&c.safe),
                c.fen.map(String::from).unwrap_or_else(|| "-".to_string())
            )?;
        }
    }

    let r = &t.rules;
    let stalemate = match r.stalemate {
        Outcome::Draw => "draw",
        Outcome::Win => "win",
        Outcome::Loss => "loss",
    };
    writeln!(
        out,
        "rules: stalemate {stalemate}, stationary-moves {}, fifty-move {}, repetition {}, game-end {}, eliminated {}",
        if r.stationary_moves { "allowed" } else { "forbidden" },
        r.fifty_move,
        r.repetition,
        match r.game_end {
            GameEnd::LastStanding => "last-standing",
            GameEnd::FirstMate => "first-mate",
        },
        match r.eliminated {
            Eliminated::Remove => "remove",
            Eliminated::Stay => "stay",
        }
    )?;
    if r.bare.is_some() || r.royal_path_unattacked {
        let bare = match r.bare {
            None => "ignored",
            Some(Outcome::Draw) => "draw",
            Some(Outcome::Win) => "win",
            Some(Outcome::Loss) => "loss",
        };
        let counting = if r.bare_counting { " counting-move" } else { "" };
        writeln!(out, "       bare {bare}{counting}, royal-path {}", if r.royal_path_unattacked { "unattacked" } else { "any" })?;
    }
    if r.check_limit > 0 {
        writeln!(out, "       check-limit {}", r.check_limit)?;
    }
    if r.pass {
        writeln!(out, "       pass (two in a row: a draw)")?;
    }
    if !t.facing.is_empty() {
        writeln!(out, "       facing: {} lines along which royal pieces face each other", t.facing.len())?;
    }
    if r.extinction != 0 {
        let kinds: Vec<String> = (0..64).filter(|k| r.extinction >> k & 1 != 0).map(|k| names.kind(k as u8)).collect();
        writeln!(out, "       extinction {}", kinds.join(" "))?;
    }
    for s in &t.sides {
        for &(kind, cell) in &s.reach {
            writeln!(out, "reach: {} wins with {} on {}", s.name, names.kind(kind), names.cells(&[cell]))?;
        }
    }

    for w in &t.winders {
        writeln!(out, "wind: {} within {} cells ({})", names.kind(w.kind), w.zone.len(), names.cells(&w.zone))?;
    }
    for h in &t.hoppers {
        let (side, kind) = (h.ck as usize / n_kinds.max(1), h.ck as usize % n_kinds.max(1));
        let what = if h.flags & crate::tables::hop::SCREEN == 0 { "line" } else if h.flags & crate::tables::hop::NEXT != 0 { "hop next" } else { "hop" };
        writeln!(
            out,
            "{what}: side {side} {} from {} cells, over {:#x}, takes {:#x}, onto {} cells",
            names.kind(kind as u8),
            h.lines.len(),
            h.over,
            h.takes,
            h.onto.len()
        )?;
    }
    writeln!(out, "rays:")?;
    let n_ck = n_kinds * t.sides.len();
    for ck in 0..n_ck {
        for c in 0..n_cells {
            let rays = t.rays_at(ck * n_cells + c);
            if rays.is_empty() {
                continue;
            }
            writeln!(out, "  {} {}:", names.colored(ck), t.cells[c])?;
            for ray in rays {
                let flags: Vec<&str> =
                    RAY_FLAG_WORDS.iter().filter(|(bit, _)| ray.flags & bit != 0).map(|&(_, w)| w).collect();
                write!(out, "    {} [{}]", names.heading(ray.heading), flags.join(" "))?;
                if ray.must_empty.0 != ray.must_empty.1 {
                    write!(out, " empty {}", names.pool_cells(ray.must_empty))?;
                }
                writeln!(out, " -> {}", names.pool_cells(ray.cells))?;
            }
        }
    }

    writeln!(out, "attacks:")?;
    for c in 0..n_cells {
        let Some(attacks) = t.attacks.get(index_range(&t.attack_index, c)) else { continue };
        if attacks.is_empty() {
            continue;
        }
        writeln!(out, "  {}:", t.cells[c])?;
        for a in attacks {
            match *a {
                Attack::Direct { ck, cells } => writeln!(
                    out,
                    "    direct {} from {}",
                    names.colored(ck as usize),
                    names.pool_cells(cells)
                )?,
                Attack::Line { cells, masks } => {
                    write!(out, "    line")?;
                    match names.pool(cells) {
                        Err(e) => write!(out, " {e}")?,
                        Ok(cs) => {
                            for (i, &cell) in cs.iter().enumerate() {
                                write!(out, " {}", names.cell(cell))?;
                                let mask = t.masks.get(masks as usize + i).copied().unwrap_or(0);
                                let by: Vec<String> = (0..n_ck.min(64))
                                    .filter(|ck| mask >> ck & 1 != 0)
                                    .map(|ck| names.colored(ck))
                                    .collect();
                                if !by.is_empty() {
                                    write!(out, "({})", by.join(", "))?;
                                }
                            }
                        }
                    }
                    writeln!(out)?;
                }
            }
        }
    }

    if let Some(layout) = &t.layout {
        let counts: Vec<String> = (0..4u8)
            .map(|s| (s, layout.shades.iter().filter(|&&x| x == s).count()))
            .filter(|&(_, n)| n > 0)
            .map(|(s, n)| format!("{n} of shade {s}"))
            .collect();
        writeln!(out, "layout: {} view(s); cells {}", layout.views.len(), counts.join(", "))?;
        for view in &layout.views {
            writeln!(out, "  view {:?}: {} cells", view.name, view.cells.len())?;
            for l in &view.labels {
                writeln!(out, "    label {:?} at ({:.2}, {:.2}), size {:.2}", l.text, l.at[0], l.at[1], l.size)?;
            }
            for c in &view.cells {
                let sizes: Vec<String> = c.contours.iter().map(|k| k.len().to_string()).collect();
                writeln!(
                    out,
                    "    {}: label ({:.2}, {:.2}), outline {} point(s), {} port(s)",
                    names.cell(c.cell),
                    c.label[0],
                    c.label[1],
                    sizes.join(" + "),
                    c.ports.len()
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::*;

    /// Two cells on a line, one heading each way, one king per side.
    fn tiny() -> Tables {
        let (a, b) = (0u16, 1u16);
        Tables {
            name: "Tiny".into(),
            cells: vec!["a".into(), "b".into()],
            headings: vec!["E".into(), "W".into()],
            grid: Some(GridInfo {
                width: 2,
                height: 1,
                files: vec!["a".into(), "b".into()],
                ranks: vec!["1".into()],
                cell_at: vec![a, b],
            }),
            // a E -> b, a W -> b arriving E (a seam), b E -> off, b W -> a.
            step: vec![(b, 0), (b, 0), (NO_CELL, 0), (a, 1)],
            transit: vec![],
            aliases: vec![],
            kinds: vec![KindInfo { name: "King".into(), symbol: 'K', royal: true, resets_clock: false, ..Default::default() }],
            sides: vec![
                SideInfo {
                    name: "white".into(),
                    team: "white".into(),
                    setup: vec![(a, 0)],
                    promotions: vec![],
                    castles: vec![CastleInfo {
                        name: "O-O".into(),
                        king_from: a,
                        king_to: b,
                        rook_from: b,
                        rook_to: a,
                        empty: vec![],
                        safe: vec![a, b],
                        fen: Some('K'),
                    }],
                    ..Default::default()
                },
                SideInfo { name: "black".into(), team: "black".into(), setup: vec![(b, 0)], promotions: vec![], castles: vec![], ..Default::default() },
            ],
            rules: RulesInfo::default(),
            // white King on a: 1 ray; everything else: none.
            ray_index: vec![(0, 1), (1, 1), (1, 1), (1, 1)],
            rays: vec![Ray {
                flags: ray::QUIET | ray::CAPTURE,
                heading: 0,
                must_empty: (0, 0),
                cells: (0, 1),
            }],
            pool: vec![b, b],
            attack_index: vec![0, 1, 1],
            attacks: vec![Attack::Direct { ck: 1, cells: (1, 2) }],
            masks: vec![],
            winders: vec![],
            hoppers: vec![],
            facing: vec![],
            layout: None,
        }
    }

    #[test]
    fn dumps_every_section() {
        let t = tiny();
        assert_eq!(t.validate(), Ok(()));
        let text = inspect(&t);
        let expected = "\
variant \"Tiny\"
counts: 2 cells, 2 headings, 1 kinds, 2 sides, 1 rays, 2 pool, 1 attacks, 0 masks
grid 2x1:
  1 | a b
      a b
headings: E W
steps:
  a: E->b W->b/E
  b: E->- W->a
kinds:
  0: K King royal
sides:
  0: white
    setup: King a
    castle O-O: king a->b rook b->a empty [] safe [a b] fen K
  1: black
    setup: King b
rules: stalemate draw, stationary-moves forbidden, fifty-move 100, repetition 3, game-end last-standing, eliminated remove
rays:
  white King a:
    E [quiet capture] -> b
attacks:
  a:
    direct black King from b
";
        assert_eq!(text, expected);
    }

    #[test]
    fn never_panics_on_broken_indices() {
        let mut t = tiny();
        t.rays[0].cells = (5, 9);
        t.attacks = vec![Attack::Line { cells: (0, 2), masks: 40 }, Attack::Direct { ck: 9, cells: (0, 1) }];
        t.sides[0].setup.push((77, 9));
        t.step[0] = (300, 9);
        let text = inspect(&t);
        assert!(text.contains("<bad pool range 5..9>"));
        assert!(text.contains("#77?"));
    }
}
