//! Betza's notation (`betza "fmWfceFifmnD"`): moves written the way variant references write
//! them, expanded here into ordinary rules, so everything after the frontend sees plain rules.
//!
//! It needs a board whose headings include the eight compass points (grids and the grid-based
//! spheres); directions (`f`, `l`, ...) are taken from the side's `forward`, so the second side's
//! `fW` steps towards the first. docs/language.md, "Betza's notation", is the reference.

use super::*;

/// The compass points as vectors, `k` eighths of a turn clockwise from (0, 1).
const POINTS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The eight compass headings of a board: `points[k]` has vector `POINTS[k]`; `sign` is 1 when
/// `turn +1` goes clockwise on this board (its ring lists them clockwise), else -1.
struct Compass {
    points: [HeadingId; 8],
    sign: i32,
}

/// The compass of a board whose headings include the eight unit vectors in one ring, in order.
fn compass(board: &model::Board) -> Option<Compass> {
    if board.complex.is_some() {
        return None;
    }
    let mut points = [0; 8];
    for (k, &v) in POINTS.iter().enumerate() {
        points[k] = board.headings.iter().position(|h| h.vector == Some(v))?;
    }
    for sign in [1, -1] {
        if (0..8).all(|k| board.rotate(points[k], sign) == points[(k + 1) % 8]) {
            return Some(Compass { points, sign });
        }
    }
    None
}

/// A leaper's (long, short) offsets by letter; `K`, `R`, `B` and `Q` are compounds of these.
fn atom(letter: char) -> Option<(i32, i32)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// How far an atom goes: one leap, or repeated (a rider), without limit or up to `n` times.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    Once,
    Ride(Option<u32>),
}

/// One group of the notation: lower-case modifiers, then an upper-case atom.
struct Group {
    /// (letter, byte offset in the text) of each modifier.
    mods: Vec<(char, usize)>,
    /// The atoms it stands for (a compound stands for several), each with its reach.
    atoms: Vec<((i32, i32), Reach)>,
    /// Byte range of the atom letter(s) and range digits in the text.
    at: (usize, usize),
}

/// A path's shape: its later legs' turns and its reach; moves of one shape share a rule.
type Shape = (Vec<i32>, Reach);

/// The longest range a Betza rider may be limited to (`W8`).
const MAX_RANGE: u32 = 64;

/// A move of an atom as a path on the compass: the first point (eighths clockwise from forward)
/// and, per later step, the turn in eighths (0 straight on, or one eighth).
fn path(x: i32, y: i32) -> (usize, Vec<i32>) {
    let index = |v: (i32, i32)| POINTS.iter().position(|&p| p == v).unwrap_or(0);
    let (ax, ay) = (x.abs(), y.abs());
    let diagonal = (x.signum(), y.signum());
    if ax == 0 || ay == 0 || ax == ay {
        return (index(diagonal), vec![0; ax.max(ay) as usize - 1]);
    }
    // Orthogonal steps along the longer axis first, then diagonal ones: the FIDE knight's path
    // (and the xiangqi horse's, which a piece in the first cell blocks).
    let (long, short, axis) = if ax > ay { (ax, ay, (x.signum(), 0)) } else { (ay, ax, (0, y.signum())) };
    let first = index(axis);
    let turn = (index(diagonal) as i32 - first as i32 + 8) % 8;
    let turn = if turn == 1 { 1 } else { -1 };
    let mut turns = vec![0; (long - short - 1) as usize];
    turns.push(turn);
    turns.extend(std::iter::repeat_n(0, short as usize - 1));
    (first, turns)
}

/// Whether the move `(x, y)` (forward is +y, right is +x) is in a direction clause: one letter,
/// or two (`fl`: forward and left; `ff`: the narrow forward moves; `ll`: the wide left ones).
fn in_clause(clause: &[char], (x, y): (i32, i32)) -> bool {
    let oblique = x != 0 && y != 0 && x.abs() != y.abs();
    let one = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => x == 0 || (oblique && y.abs() > x.abs()),
        's' => y == 0 || (oblique && x.abs() > y.abs()),
        _ => false,
    };
    match *clause {
        [c] => one(c),
        [a, b] if a == b && matches!(a, 'f' | 'b') => one(a) && one('v'),
        [a, b] if a == b => one(a) && one('s'),
        [a, b] => one(a) && one(b),
        _ => false,
    }
}

/// Splits direction letters into clauses: `f` or `b` followed by `l`, `r`, `s`, `v` or itself,
/// and `l` or `r` followed by `f`, `b`, `v`, `s` or itself, form one clause; other letters stand
/// alone. The moves are those of any clause.
fn clauses(letters: &[char]) -> Vec<Vec<char>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let a = letters[i];
        let pairs = match letters.get(i + 1) {
            Some(&b) => match a {
                'f' | 'b' => matches!(b, 'l' | 'r' | 's' | 'v') || b == a,
                'l' | 'r' => matches!(b, 'f' | 'b' | 'v' | 's') || b == a,
                _ => false,
            },
            None => false,
        };
        if pairs {
            out.push(vec![a, letters[i + 1]]);
            i += 2;
        } else {
            out.push(vec![a]);
            i += 1;
        }
    }
    out
}

impl Frontend {
    /// The rules a `betza "..."` rule stands for, or `None` after reporting its errors.
    pub(super) fn betza(
        &mut self,
        r: &ast::Rule,
        text: &ast::Name,
        piece: &ast::Piece,
        board: &BoardInfo,
        forward_uses: &mut Vec<ForwardUse>,
    ) -> Option<Vec<model::MoveRule>> {
        let span_at = |a: usize, b: usize| Span { start: text.span.start + a, end: text.span.start + b };
        if let Some(m) = r.modifiers.first() {
            let labels = vec![self.primary(m.span, "a modifier"), self.secondary(r.legs[0].span, "on Betza's notation")];
            self.error(format!("`{}` before `betza`", m.kind.keyword()), labels, vec![
                "help: write it in the notation: `m` move only, `c` capture only, `i` initial, `n` not leaping, `e` en passant".into(),
            ]);
            return None;
        }
        let Some(compass) = compass(&board.board) else {
            let label = self.primary(r.legs[0].span, "Betza's notation");
            self.error("`betza` needs the eight compass headings", vec![label], vec![
                "note: the board's headings must include the vectors (0, 1), (1, 1), (1, 0), ... (-1, 1), listed in turn order in one `headings` block".into(),
                "help: write the moves as rules (`step orth`, `leap step orth then step turn +-1`, ...)".into(),
            ]);
            return None;
        };
        let groups = self.betza_groups(text, &span_at)?;
        let en_passant_in_text = groups.iter().any(|g| g.mods.iter().any(|&(c, _)| c == 'e'));
        let mut out = Vec::new();
        let mut ok = true;
        for g in &groups {
            let has = |c: char| g.mods.iter().find(|&&(m, _)| m == c).map(|&(_, at)| span_at(at, at + 1));
            let (m, c, i, e, n) = (has('m'), has('c'), has('i'), has('e'), has('n'));
            // `p` hops like a cannon (lands anywhere beyond the screen), `g` like a grasshopper.
            let hop = match (has('p'), has('g')) {
                (Some(_), None) => Some(model::Hop::Far),
                (None, Some(_)) => Some(model::Hop::Next),
                (None, None) => None,
                (Some(p), Some(_)) => {
                    let label = self.primary(p, "`p` and `g` together");
                    self.error("a Betza hop is `p` or `g`, not both", vec![label], vec![]);
                    ok = false;
                    continue;
                }
            };
            let mode = match (m.is_some(), c.is_some() || e.is_some()) {
                (true, false) => model::Mode::MoveOnly,
                (false, true) => model::Mode::CaptureOnly,
                _ => model::Mode::Both,
            };
            if let (Some(i), model::Mode::CaptureOnly | model::Mode::Both) = (i, mode) {
                let label = self.primary(i, "on moves that may capture");
                self.error("Betza's `i` is only supported on moves that do not capture (`im...`)", vec![label], vec![
                    "note: attack tests do not know whether a piece has moved, so a capture that depends on it cannot be checked".into(),
                ]);
                ok = false;
            }
            let letters: Vec<char> = g.mods.iter().map(|&(c, _)| c).filter(|c| "fblrvs".contains(*c)).collect();
            let clauses = clauses(&letters);
            let directional = !clauses.is_empty();
            // Moves grouped by path shape: (turns, reach) -> first points.
            let mut shapes: Vec<(Shape, Vec<usize>)> = Vec::new();
            for &((a, b), reach) in &g.atoms {
                let mut moves = Vec::new();
                for (x, y) in [(a, b), (b, a)] {
                    for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        push_unique(&mut moves, (x * sx, y * sy));
                    }
                }
                for (x, y) in moves {
                    if directional && !clauses.iter().any(|cl| in_clause(cl, (x, y))) {
                        continue;
                    }
                    let (first, turns) = path(x, y);
                    match shapes.iter_mut().find(|(k, _)| *k == (turns.clone(), reach)) {
                        Some((_, firsts)) => push_unique(firsts, first),
                        None => shapes.push(((turns, reach), vec![first])),
                    }
                }
            }
            let atom_span = span_at(g.at.0, g.at.1);
            if shapes.is_empty() {
                let label = self.primary(span_at(g.mods.first().map_or(g.at.0, |m| m.1), g.at.1), "no move");
                self.error("these directions select no move of the atom", vec![label], vec![
                    "note: `f` `b` `l` `r` are forward, backward, left, right of the side's `forward`; `v` and `s` the vertical and sideways moves; `ff` the narrow forward ones".into(),
                ]);
                ok = false;
                continue;
            }
            if directional {
                let span = span_at(g.mods[0].1, g.at.1);
                forward_uses.push(ForwardUse { direction: 0, piece: piece.name.text.clone(), span });
            }
            let mut limited_reported = false;
            let mut hop_reported = false;
            for ((turns, reach), firsts) in shapes {
                let first = if directional {
                    model::Dirs::Side { direction: 0, turns: firsts.iter().map(|&k| k as i32 * compass.sign).collect() }
                } else {
                    model::Dirs::Headings(firsts.iter().map(|&k| compass.points[k]).collect())
                };
                let leg = |t: i32| model::Leg { slides: false, turns: vec![t * compass.sign], avoid: 0, avoid_cells: Vec::new(), bending: Vec::new() };
                let base = model::MoveRule {
                    mode,
                    initial: i.is_some(),
                    leap: n.is_none() && !turns.is_empty(),
                    en_passant: e.is_some(),
                    legs: turns.iter().map(|&t| leg(t)).collect(),
                    ..model::MoveRule::along(first, r.span)
                };
                let single = turns.is_empty();
                if let Some(hop) = hop {
                    if reach == Reach::Ride(None) && single {
                        out.push(model::MoveRule { first_slides: true, hop: Some(hop), ..base });
                    } else if !hop_reported {
                        hop_reported = true;
                        let label = self.primary(atom_span, "not a rider of single steps");
                        self.error("Betza's `p` and `g` hop along lines: `R`, `B`, `Q`, `WW` or `FF`", vec![label], vec![
                            "note: `pR` is a cannon that moves and captures beyond its screen, `mRcpR` the xiangqi cannon, `gQ` the grasshopper".into(),
                        ]);
                        ok = false;
                    }
                    continue;
                }
                match reach {
                    Reach::Once => {
                        // An initial move-only path that does not leap, in a text that captures
                        // en passant, makes the cells it passes capturable (the pawn's `ifmnD`).
                        let target = en_passant_in_text && base.initial && mode == model::Mode::MoveOnly && !base.leap && !single;
                        out.push(model::MoveRule { en_passant_target: target, ..base });
                    }
                    Reach::Ride(None) if single => out.push(model::MoveRule { first_slides: true, ..base }),
                    Reach::Ride(Some(range)) if single => {
                        // Up to `range` steps, each path through empty cells.
                        for k in 1..=range {
                            let legs = (1..k).map(|_| leg(0)).collect();
                            let target = en_passant_in_text && base.initial && mode == model::Mode::MoveOnly && k > 1;
                            out.push(model::MoveRule { legs, en_passant_target: target, ..base.clone() });
                        }
                    }
                    Reach::Ride(None) => {
                        if let Some(n) = n {
                            let label = self.primary(n, "a rider that does not leap");
                            self.error("Betza's `n` is not supported on riders of leaps", vec![label], vec![
                                "note: a rider of leaps (`NN`) lands on cells that must be empty and leaps the cells between them".into(),
                            ]);
                            ok = false;
                        }
                        out.push(model::MoveRule { ride: true, leap: true, ..base });
                    }
                    Reach::Ride(Some(_)) if !limited_reported => {
                        limited_reported = true;
                        let label = self.primary(atom_span, "a limited rider of leaps");
                        self.error("a range on a rider of leaps is not supported", vec![label], vec![
                            "help: write the leaps it may make as separate atoms, or `NN` without a range".into(),
                        ]);
                        ok = false;
                    }
                    Reach::Ride(Some(_)) => {}
                }
            }
        }
        ok.then_some(out)
    }

    /// The groups of a Betza text, or `None` after reporting what is not understood.
    fn betza_groups(&mut self, text: &ast::Name, span_at: &dyn Fn(usize, usize) -> Span) -> Option<Vec<Group>> {
        let chars: Vec<(usize, char)> = text.text.char_indices().collect();
        let mut groups = Vec::new();
        let mut mods = Vec::new();
        let mut i = 0;
        let mut ok = true;
        while i < chars.len() {
            let (at, c) = chars[i];
            i += 1;
            if c == ' ' {
                // Spaces may separate groups: `fmW cF`.
                continue;
            }
            if "mcfblrvsniepg".contains(c) && c.is_ascii_lowercase() {
                mods.push((c, at));
                continue;
            }
            let compound: Option<Vec<((i32, i32), Reach)>> = match c {
                'K' => Some(vec![((1, 0), Reach::Once), ((1, 1), Reach::Once)]),
                'R' => Some(vec![((1, 0), Reach::Ride(None))]),
                'B' => Some(vec![((1, 1), Reach::Ride(None))]),
                'Q' => Some(vec![((1, 0), Reach::Ride(None)), ((1, 1), Reach::Ride(None))]),
                _ => atom(c).map(|a| vec![(a, Reach::Once)]),
            };
            let Some(mut atoms) = compound else {
                let label = self.primary(span_at(at, at + c.len_utf8()), "not understood");
                let note = match c {
                    c if c.is_ascii_lowercase() => format!("note: `{c}` is a modifier orbis does not support; supported: m c f b l r v s n i e p g"),
                    _ => "note: atoms are W F D N A H C Z G and the compounds K R B Q; a doubled atom (`NN`) rides; a number after it limits the range (`W2`)".to_string(),
                };
                self.error(format!("`{c}` in Betza's notation"), vec![label], vec![note]);
                ok = false;
                mods.clear();
                continue;
            };
            let start = at;
            let mut end = at + 1;
            if chars.get(i).map(|&(_, d)| d) == Some(c) && atom(c).is_some() {
                // A doubled atom rides: `WW` is the rook, `NN` the nightrider.
                for a in &mut atoms {
                    a.1 = Reach::Ride(None);
                }
                end += 1;
                i += 1;
            }
            let digits_from = i;
            while chars.get(i).is_some_and(|&(_, d)| d.is_ascii_digit()) {
                i += 1;
            }
            if i > digits_from {
                let (first, last) = (chars[digits_from].0, chars[i - 1].0 + 1);
                end = last;
                match text.text[first..last].parse::<u32>() {
                    Ok(n) if (1..=MAX_RANGE).contains(&n) => {
                        for a in &mut atoms {
                            a.1 = Reach::Ride(Some(n));
                        }
                    }
                    _ => {
                        let label = self.primary(span_at(first, last), "out of range");
                        self.error(format!("a Betza range must be between 1 and {MAX_RANGE}"), vec![label], vec![]);
                        ok = false;
                    }
                }
            }
            groups.push(Group { mods: std::mem::take(&mut mods), atoms, at: (start, end) });
        }
        if let Some(&(_, at)) = mods.first() {
            let label = self.primary(span_at(at, text.text.len()), "no atom after these");
            self.error("Betza's modifiers must be followed by an atom", vec![label], vec![
                "note: modifiers come before the atom they apply to: `mfW`, `cfF`".into(),
            ]);
            ok = false;
        }
        if groups.is_empty() && ok {
            let label = self.primary(text.span, "no moves");
            self.error("empty Betza notation", vec![label], vec![]);
            ok = false;
        }
        ok.then_some(groups)
    }
}
