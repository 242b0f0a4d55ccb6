//! Checks of loaded [`Tables`]: every index the runtime follows is in range and the invariants it
//! relies on hold, so a table file (trusted or not) can never make the runtime panic. Called by
//! [`Tables::from_bytes`] after decoding, and by the engine on tables built in memory.

use crate::format::{invalid, FormatError, MAX_COLORED_KINDS};
use crate::tables::{hop, ray, Attack, Layout, Tables, NO_CELL};

impl Tables {
    /// Checks every index the runtime follows, and the few invariants it relies on (sizes that
    /// fit their integer types, at most 64 colored kinds). The first problem found is returned,
    /// naming the field.
    pub fn validate(&self) -> Result<(), FormatError> {
        let n_cells = self.cells.len();
        let n_headings = self.headings.len();
        let n_kinds = self.kinds.len();
        if n_kinds < 64 && self.rules.extinction >> n_kinds != 0 {
            return Err(invalid("rules extinction", format!("names a kind beyond the {n_kinds} kinds")));
        }
        let n_sides = self.sides.len();
        if n_cells > NO_CELL as usize {
            return Err(invalid(
                "cells",
                format!("{n_cells} cells; at most {NO_CELL} fit (cell {NO_CELL} is NO_CELL)"),
            ));
        }
        if n_headings > 256 {
            return Err(invalid("headings", format!("{n_headings} headings; at most 256 fit in a u8")));
        }
        if n_kinds == 0 {
            return Err(invalid("kinds", "no kinds; a variant has at least one piece"));
        }
        if n_sides < 2 {
            return Err(invalid("sides", format!("{n_sides} sides; a variant has at least two")));
        }
        let mut teams: Vec<&str> = self.sides.iter().map(|s| s.team.as_str()).collect();
        teams.sort_unstable();
        teams.dedup();
        if teams.len() < 2 {
            return Err(invalid("sides", format!("every side is in team {}; a variant has at least two teams", teams[0])));
        }
        let n_ck = n_kinds * n_sides;
        if n_ck > MAX_COLORED_KINDS {
            return Err(invalid(
                "kinds",
                format!("{n_sides} sides x {n_kinds} kinds = {n_ck} colored kinds; at most {MAX_COLORED_KINDS} are supported"),
            ));
        }

        let cell_name = |c: u16| match self.cells.get(c as usize) {
            Some(name) => name.clone(),
            None => format!("#{c}"),
        };
        let check_cell = |field: &dyn Fn() -> String, c: u16| -> Result<(), FormatError> {
            if (c as usize) < n_cells {
                Ok(())
            } else {
                Err(invalid(field(), format!("cell {c} is out of range ({n_cells} cells)")))
            }
        };
        let check_cells = |field: &dyn Fn() -> String, cs: &[u16]| -> Result<(), FormatError> {
            cs.iter().try_for_each(|&c| check_cell(field, c))
        };
        let check_kind = |field: &dyn Fn() -> String, k: u8| -> Result<(), FormatError> {
            if (k as usize) < n_kinds {
                Ok(())
            } else {
                Err(invalid(field(), format!("kind {k} is out of range ({n_kinds} kinds)")))
            }
        };
        let check_letter = |field: &dyn Fn() -> String, ch: char| -> Result<(), FormatError> {
            if ch.is_alphabetic() && ch.is_uppercase() {
                Ok(())
            } else {
                Err(invalid(field(), format!("{ch:?} is not an upper-case letter")))
            }
        };

        // Step function: dense, one entry per (cell, heading).
        let step_len = n_cells as u64 * n_headings as u64;
        if self.step.len() as u64 != step_len {
            return Err(invalid(
                "step",
                format!(
                    "length {} but cells x headings = {n_cells} x {n_headings} = {step_len}",
                    self.step.len()
                ),
            ));
        }
        for (i, &(to, h)) in self.step.iter().enumerate() {
            let field = || {
                format!("step from {} heading {}", self.cells[i / n_headings], self.headings[i % n_headings])
            };
            if to == NO_CELL {
                if h != 0 {
                    return Err(invalid(field(), format!("off-board step has heading {h}; it must be 0")));
                }
                continue;
            }
            check_cell(&field, to)?;
            if h as usize >= n_headings {
                return Err(invalid(
                    field(),
                    format!("arrival heading {h} is out of range ({n_headings} headings)"),
                ));
            }
        }

        for (i, &c) in self.transit.iter().enumerate() {
            check_cell(&|| format!("transit cell {i}"), c)?;
        }
        for (i, (name, c)) in self.aliases.iter().enumerate() {
            check_cell(&|| format!("alias {i} ({name})"), *c)?;
            if self.cells.contains(name) || self.aliases[..i].iter().any(|(a, _)| a == name) {
                return Err(invalid(format!("alias {i} ({name})"), "the name is already a cell or an alias"));
            }
        }

        if let Some(g) = &self.grid {
            if g.files.len() != g.width as usize || g.ranks.len() != g.height as usize {
                return Err(invalid(
                    "grid",
                    format!(
                        "{} files and {} ranks for a {}x{} grid",
                        g.files.len(),
                        g.ranks.len(),
                        g.width,
                        g.height
                    ),
                ));
            }
            let area = g.width as usize * g.height as usize;
            if g.cell_at.len() != area {
                return Err(invalid(
                    "grid cell_at",
                    format!(
                        "length {} but width x height = {}x{} = {area}",
                        g.cell_at.len(),
                        g.width,
                        g.height
                    ),
                ));
            }
            for (i, &c) in g.cell_at.iter().enumerate() {
                if c != NO_CELL {
                    let w = g.width as usize;
                    check_cell(&|| format!("grid cell_at ({}, {})", i % w, i / w), c)?;
                }
            }
        }

        for (k, kind) in self.kinds.iter().enumerate() {
            let field = || format!("kind {k} ({})", kind.name);
            check_letter(&|| format!("kind {k} ({}) symbol", kind.name), kind.symbol)?;
            kind.crowns
                .iter()
                .try_for_each(|&c| check_kind(&field, c))?;
            if kind
                .crowns
                .iter()
                .any(|&c| !self.kinds[c as usize].crowns.is_empty())
            {
                return Err(invalid(field(), "a carrier of it is itself carried"));
            }
            if let Some((carrier, crown)) = kind.crowned {
                check_kind(&field, carrier)?;
                check_kind(&field, crown)?;
                let (c, k2) = (&self.kinds[carrier as usize], &self.kinds[crown as usize]);
                if !k2.crowns.contains(&carrier) || c.crowned.is_some() || c.symbol != kind.symbol {
                    return Err(invalid(
                        field(),
                        format!(
                            "crowned kind of {} and {} that does not match them",
                            c.name, k2.name
                        ),
                    ));
                }
                continue;
            }
            for &c in &kind.crowns {
                if !self.kinds.iter().any(|o| o.crowned == Some((c, k as u8))) {
                    return Err(invalid(field(), format!("no crowned kind for carrier {c}")));
                }
            }
            if let Some(j) = self.kinds[..k]
                .iter()
                .position(|o| o.symbol == kind.symbol && o.crowned.is_none())
            {
                return Err(invalid(
                    format!("kind {k} ({}) symbol", kind.name),
                    format!("{:?} is also the symbol of kind {j} ({})", kind.symbol, self.kinds[j].name),
                ));
            }
        }

        for (i, wd) in self.winders.iter().enumerate() {
            let field = || format!("winder {i}");
            check_kind(&field, wd.kind)?;
            check_cells(&field, &wd.zone)?;
            if wd.adjacency.len() != wd.zone.len() || wd.flags & !(ray::QUIET | ray::CAPTURE) != 0 || wd.flags == 0 {
                return Err(invalid(field(), "its adjacency does not match its zone, or its flags are not quiet/capture"));
            }
            for next in &wd.adjacency {
                if next.iter().any(|c| !wd.zone.contains(c)) {
                    return Err(invalid(field(), "a step leaves its zone"));
                }
            }
        }

        let colored = self.sides.len() * self.kinds.len();
        for (i, h) in self.hoppers.iter().enumerate() {
            let field = || format!("hopper {i}");
            check_cells(&field, &h.onto)?;
            if h.ck as usize >= colored {
                return Err(invalid(field(), format!("colored kind {} is out of range (sides x kinds = {colored})", h.ck)));
            }
            let f = h.flags;
            if f & !hop::ALL != 0 || f & (hop::QUIET | hop::CAPTURE) == 0 || (f & hop::NEXT != 0 && f & hop::SCREEN == 0) {
                return Err(invalid(field(), format!("flags {f:#x} are not quiet/capture with a valid screen")));
            }
            for (from, cells) in &h.lines {
                check_cells(&field, &[*from])?;
                check_cells(&field, cells)?;
            }
        }
        crate::drops::validate_hands(self)?;
        for (from, cells) in &self.facing {
            let field = || "facing line".to_string();
            check_cells(&field, &[*from])?;
            check_cells(&field, cells)?;
        }

        let mut occupied = vec![false; n_cells];
        for (s, side) in self.sides.iter().enumerate() {
            for &(cell, kind) in &side.setup {
                let field = || format!("side {s} ({}) setup", side.name);
                check_cell(&field, cell)?;
                check_kind(&field, kind)?;
                if std::mem::replace(&mut occupied[cell as usize], true) {
                    return Err(invalid(field(), format!("cell {} is set up twice", cell_name(cell))));
                }
            }
            let stack_field = || format!("side {s} ({}) atop", side.name);
            for (i, &(cell, kind)) in side.atop.iter().enumerate() {
                check_cell(&stack_field, cell)?;
                check_kind(&stack_field, kind)?;
                if !side.setup.iter().any(|&(c, _)| c == cell)
                    || side.atop[..i].iter().any(|&(c, _)| c == cell)
                {
                    return Err(invalid(
                        stack_field(),
                        format!(
                            "cell {} holds no setup piece of the side, or two pieces atop",
                            cell_name(cell)
                        ),
                    ));
                }
                if !self.kinds[kind as usize].crowns.is_empty() {
                    return Err(invalid(
                        stack_field(),
                        "a crowning kind stands atop a piece",
                    ));
                }
            }
            for &kind in &side.hand {
                let field = || format!("side {s} ({}) hand", side.name);
                check_kind(&field, kind)?;
                let k = &self.kinds[kind as usize];
                if k.crowns.is_empty() && (k.royal || k.crowned.is_some() || k.captured_as.is_some()) {
                    return Err(invalid(
                        field(),
                        "a royal, crowned or promoted kind that crowns no piece is in the hand",
                    ));
                }
            }
            for &(kind, cell) in &side.reach {
                let field = || format!("side {s} ({}) reach", side.name);
                check_kind(&field, kind)?;
                check_cells(&field, &[cell])?;
            }
            if !side.hand.is_empty() && self.sides.len() != 2 {
                return Err(invalid(format!("side {s} ({}) hand", side.name), "hands need a game of two sides"));
            }
            for (p, promo) in side.promotions.iter().enumerate() {
                let field = || format!("side {s} ({}) promotion {p}", side.name);
                check_kind(&field, promo.kind)?;
                promo.choices.iter().try_for_each(|&k| check_kind(&field, k))?;
                check_cells(&field, &promo.zone)?;
                if promo.from_or_to && !promo.optional {
                    return Err(invalid(field(), "a promotion counting its start cell is not optional"));
                }
            }
            for (d, drop) in side.drops.iter().enumerate() {
                let field = || format!("side {s} ({}) drop {d}", side.name);
                check_kind(&field, drop.kind)?;
                check_cells(&field, &drop.forbidden)?;
                if drop.one_per_file && self.grid.is_none() {
                    return Err(invalid(field(), "one piece per file on a board without a grid"));
                }
            }
            for (c, castle) in side.castles.iter().enumerate() {
                let field = || format!("side {s} ({}) castle {c} ({})", side.name, castle.name);
                for cell in [castle.king_from, castle.king_to, castle.rook_from, castle.rook_to] {
                    check_cell(&field, cell)?;
                }
                check_cells(&field, &castle.empty)?;
                check_cells(&field, &castle.safe)?;
                // make/unmake move exactly two pieces onto two empty cells.
                if castle.king_from == castle.rook_from || castle.king_to == castle.rook_to {
                    return Err(invalid(field(), "the king and the rook share a start or an end cell"));
                }
                for to in [castle.king_to, castle.rook_to] {
                    if to != castle.king_from && to != castle.rook_from && !castle.empty.contains(&to) {
                        return Err(invalid(field(), format!("landing cell {} is not among the empty cells", cell_name(to))));
                    }
                }
                if let Some(ch) = castle.fen {
                    check_letter(&|| format!("{} fen letter", field()), ch)?;
                }
            }
        }

        check_ranges("ray_index", &self.ray_index, n_ck as u64 * n_cells as u64, "rays", self.rays.len())?;
        let pool_len = self.pool.len();
        for (i, r) in self.rays.iter().enumerate() {
            let field = || format!("ray {i}");
            // All eight flag bits have a meaning (tables.rs `ray`), so any byte is a valid set.
            if r.heading as usize >= n_headings {
                return Err(invalid(
                    field(),
                    format!("heading {} is out of range ({n_headings} headings)", r.heading),
                ));
            }
            check_range(&field, "must_empty", r.must_empty, "the pool", pool_len)?;
            check_range(&field, "cells", r.cells, "the pool", pool_len)?;
            // Move generation reads the first destination of these rays unconditionally.
            if r.flags & (ray::EP_CAPTURE | ray::PASS_UNATTACKED) != 0 && r.cells.0 == r.cells.1 {
                return Err(invalid(field(), "an en-passant or pass-unattacked ray has no destination cell"));
            }
            if r.flags & ray::SLIDE == 0 && r.cells.1 - r.cells.0 != 1 {
                return Err(invalid(
                    field(),
                    format!(
                        "a step ray (no slide flag) has {} destination cells; it must have 1",
                        r.cells.1 - r.cells.0
                    ),
                ));
            }
        }
        for (i, &c) in self.pool.iter().enumerate() {
            check_cell(&|| format!("pool[{i}]"), c)?;
        }

        check_index("attack_index", &self.attack_index, n_cells as u64 + 1, "attacks", self.attacks.len())?;
        for (i, a) in self.attacks.iter().enumerate() {
            let field = || format!("attack {i}");
            match *a {
                Attack::Direct { ck, cells } => {
                    if ck as usize >= n_ck {
                        return Err(invalid(
                            field(),
                            format!("colored kind {ck} is out of range ({n_ck} colored kinds)"),
                        ));
                    }
                    check_range(&field, "cells", cells, "the pool", pool_len)?;
                }
                Attack::Line { cells, masks } => {
                    check_range(&field, "cells", cells, "the pool", pool_len)?;
                    if cells.0 == cells.1 {
                        return Err(invalid(field(), "an attack line has no cells".to_string()));
                    }
                    let end = masks as u64 + (cells.1 - cells.0) as u64;
                    if end > self.masks.len() as u64 {
                        return Err(invalid(
                            field(),
                            format!(
                                "masks range {masks}..{end} is outside the masks (length {})",
                                self.masks.len()
                            ),
                        ));
                    }
                }
            }
        }
        if n_ck < 64 {
            for (i, &m) in self.masks.iter().enumerate() {
                if m >> n_ck != 0 {
                    return Err(invalid(
                        format!("masks[{i}]"),
                        format!("{m:#x} names colored kinds beyond the {n_ck} that exist"),
                    ));
                }
            }
        }
        if let Some(layout) = &self.layout {
            self.validate_layout(layout)?;
        }
        Ok(())
    }

    /// The layout: a shade per cell, cells in range and at most once per view, contours of at
    /// least three points, at most one port per heading, every coordinate finite.
    fn validate_layout(&self, layout: &Layout) -> Result<(), FormatError> {
        let n_cells = self.cells.len();
        if layout.shades.len() != n_cells {
            return Err(invalid("layout shades", format!("{} shades for {n_cells} cells", layout.shades.len())));
        }
        if let Some(s) = layout.shades.iter().find(|&&s| s > 3) {
            return Err(invalid("layout shades", format!("shade {s}; shades are 0 to 3")));
        }
        let finite = |p: &[f32; 2]| p[0].is_finite() && p[1].is_finite();
        for (v, view) in layout.views.iter().enumerate() {
            let mut seen = vec![false; n_cells];
            for (i, c) in view.cells.iter().enumerate() {
                let field = || format!("layout view {v} ({}) cell {i}", view.name);
                if c.cell as usize >= n_cells {
                    return Err(invalid(field(), format!("cell {} is out of range ({n_cells} cells)", c.cell)));
                }
                if std::mem::replace(&mut seen[c.cell as usize], true) {
                    return Err(invalid(field(), format!("{} is drawn twice in this view", self.cells[c.cell as usize])));
                }
                if c.contours.is_empty() || c.contours.iter().any(|k| k.len() < 3) {
                    return Err(invalid(field(), "an outline needs at least one contour of at least three points"));
                }
                if c.ports.len() > self.headings.len() {
                    return Err(invalid(field(), format!("{} ports for {} headings", c.ports.len(), self.headings.len())));
                }
                if !finite(&c.label) || !c.contours.iter().flatten().chain(&c.ports).all(finite) {
                    return Err(invalid(field(), "a coordinate is not a finite number"));
                }
            }
            for (i, l) in view.labels.iter().enumerate() {
                if !finite(&l.at) || !l.size.is_finite() || l.size <= 0.0 {
                    return Err(invalid(format!("layout view {v} ({}) label {i}", view.name), "a label needs a finite place and a positive size"));
                }
            }
        }
        Ok(())
    }
}

/// `start..end` must lie within `0..len` of `target`.
fn check_range(
    field: &dyn Fn() -> String,
    what: &str,
    (start, end): (u32, u32),
    target: &str,
    len: usize,
) -> Result<(), FormatError> {
    if start > end {
        return Err(invalid(field(), format!("{what} range {start}..{end} is reversed")));
    }
    if end as u64 > len as u64 {
        return Err(invalid(
            field(),
            format!("{what} range {start}..{end} is outside {target} (length {len})"),
        ));
    }
    Ok(())
}

/// A CSR-style index: exactly `expected_len` entries, non-decreasing, last ≤ `target_len`.
/// An index of ranges: `expected_len` of them, each `start <= end <= target_len`.
fn check_ranges(name: &str, index: &[(u32, u32)], expected_len: u64, target: &str, target_len: usize) -> Result<(), FormatError> {
    if index.len() as u64 != expected_len {
        return Err(invalid(name, format!("length {} but {expected_len} expected", index.len())));
    }
    for (i, &(start, end)) in index.iter().enumerate() {
        if start > end || end as usize > target_len {
            return Err(invalid(format!("{name}[{i}]"), format!("range {start}..{end} is not within {target} (length {target_len})")));
        }
    }
    Ok(())
}

fn check_index(
    name: &str,
    index: &[u32],
    expected_len: u64,
    target: &str,
    target_len: usize,
) -> Result<(), FormatError> {
    if index.len() as u64 != expected_len {
        return Err(invalid(name, format!("length {} but {expected_len} expected", index.len())));
    }
    for (i, pair) in index.windows(2).enumerate() {
        if pair[0] > pair[1] {
            return Err(invalid(
                format!("{name}[{}]", i + 1),
                format!("{} is less than the previous entry {}", pair[1], pair[0]),
            ));
        }
    }
    if let Some(&last) = index.last() {
        if last as u64 > target_len as u64 {
            return Err(invalid(
                format!("{name}[{}]", index.len() - 1),
                format!("{last} is past the end of {target} (length {target_len})"),
            ));
        }
    }
    Ok(())
}
