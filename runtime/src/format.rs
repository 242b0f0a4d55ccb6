//! The `.orbt` binary format of [`Tables`]: what `orbis compile` writes and the runtime loads.
//!
//! Layout, byte by byte, in docs/table-format.md. In short: a 16-byte header (magic, version,
//! reserved flags, payload length, CRC-32 of the payload), then the payload: little-endian
//! fields, `u32`-counted arrays and UTF-8 strings, in a fixed order of sections.
//!
//! Loading never panics and never trusts the file: [`Tables::from_bytes`] checks the header, the
//! checksum and every length before it allocates, then runs [`Tables::validate`], so a loaded
//! table's indices are all in range and the runtime can follow them without bounds surprises.

use std::fmt;

use crate::tables::{
    Attack, CastleInfo, DropInfo, Eliminated, GameEnd, GridInfo, KindInfo, Layout, LayoutCell, LayoutLabel, LayoutView, Outcome, PromotionInfo, Ray,
    RulesInfo, SideInfo, Tables, Winder, Hopper,
};

/// First four bytes of every table file.
pub const MAGIC: [u8; 4] = *b"ORBT";
/// The layout this build writes. Any layout change bumps it.
pub const FORMAT_VERSION: u16 = 12;
/// The oldest version this build still reads: version 10 is version 11 without the passing
/// section (no `pass`, no `facing`), version 9 is version 10 without the hoppers and
/// hands sections (no hops, `takes`, counting move, drops, `captured-as`, FEN tokens or
/// promotions counting the start cell), version 7 is version 8 without the winders section
/// (no winding rules), version 6 is version 7 without the stacks section
/// (no stacks, crowning, hands or pieces that give no check), version 5 is version 6 without the sides' teams
/// (each side its own team) and the `game-end` and `eliminated` rules (read as their defaults),
/// version 4 is version 5 without the views' labels (read as none), version 3 version 4 without
/// the `layout` section (read as `None`).
pub const OLDEST_READ_VERSION: u16 = 3;
/// Bytes before the payload: magic, version, flags, payload length, checksum.
pub const HEADER_LEN: usize = 16;
/// The largest table file the CLI reads (docs/limits.md); tables of the examples are far smaller.
pub const MAX_TABLE_BYTES: u64 = 64 << 20;
/// At most this many colored kinds (`sides * kinds`): a set of them is a `u64`.
pub const MAX_COLORED_KINDS: usize = 64;

/// Kind flag bits in the file.
const KIND_ROYAL: u8 = 1;
const KIND_RESETS_CLOCK: u8 = 2;

/// Attack tags in the file.
const ATTACK_DIRECT: u8 = 0;
const ATTACK_LINE: u8 = 1;

/// Why bytes are not a loadable table. Each variant says what a user can act on: wrong file,
/// wrong orbis version, damaged file, or a compiler bug (invalid content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The file does not start with `ORBT`: not an orbis table at all.
    BadMagic { found: Vec<u8> },
    /// Written by an orbis with another layout.
    UnsupportedVersion { found: u16 },
    /// Reserved header flags are set: written by a newer writer this build cannot honor.
    UnsupportedFlags { found: u16 },
    /// The bytes end before `section` does. Sizes are in bytes from the start of the file.
    Truncated { section: &'static str, expected: u64, found: u64 },
    /// The payload is damaged.
    ChecksumMismatch { stored: u32, computed: u32 },
    /// Bytes after the end of `section` (the file, or the last payload section).
    TrailingBytes { after: &'static str, extra: u64 },
    /// A string is not UTF-8.
    InvalidUtf8 { field: String },
    /// Well-formed bytes, but `field` breaks an invariant the runtime relies on.
    Invalid { field: String, problem: String },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::BadMagic { found } => write!(
                f,
                "not an orbis table: expected the magic bytes \"ORBT\", found \"{}\"",
                found.escape_ascii()
            ),
            FormatError::UnsupportedVersion { found } => write!(
                f,
                "unsupported table format version {found}: this build reads version {FORMAT_VERSION} \
                 (and older ones from {OLDEST_READ_VERSION}) (recompile the variant with this orbis)"
            ),
            FormatError::UnsupportedFlags { found } => {
                write!(f, "unsupported table header flags {found:#06x}: this build knows no flags")
            }
            FormatError::Truncated { section, expected, found } => {
                write!(f, "truncated table: {section} needs {expected} bytes, the file has {found}")
            }
            FormatError::ChecksumMismatch { stored, computed } => write!(
                f,
                "damaged table: payload checksum is {computed:#010x}, the header says {stored:#010x}"
            ),
            FormatError::TrailingBytes { after, extra } => {
                write!(f, "malformed table: {extra} unexpected bytes after the {after}")
            }
            FormatError::InvalidUtf8 { field } => write!(f, "invalid table: {field} is not valid UTF-8"),
            FormatError::Invalid { field, problem } => write!(f, "invalid table: {field}: {problem}"),
        }
    }
}

impl std::error::Error for FormatError {}

pub(crate) fn invalid(field: impl Into<String>, problem: impl Into<String>) -> FormatError {
    FormatError::Invalid { field: field.into(), problem: problem.into() }
}

impl Tables {
    /// Serializes to the `.orbt` format (docs/table-format.md).
    ///
    /// Panics only if an array has more than `u32::MAX` entries, which no valid table has.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.str(&self.name);
        w.strs(&self.cells);
        w.strs(&self.headings);
        match &self.grid {
            None => w.u8(0),
            Some(g) => {
                w.u8(1);
                w.u16(g.width);
                w.u16(g.height);
                w.strs(&g.files);
                w.strs(&g.ranks);
                w.u16s(&g.cell_at);
            }
        }
        w.count(self.step.len());
        for &(cell, heading) in &self.step {
            w.u16(cell);
            w.u8(heading);
        }
        w.u16s(&self.transit);
        w.count(self.aliases.len());
        for (name, cell) in &self.aliases {
            w.str(name);
            w.u16(*cell);
        }
        w.count(self.kinds.len());
        for k in &self.kinds {
            w.str(&k.name);
            w.u32(k.symbol as u32);
            w.u8(if k.royal { KIND_ROYAL } else { 0 } | if k.resets_clock { KIND_RESETS_CLOCK } else { 0 });
        }
        w.count(self.sides.len());
        for s in &self.sides {
            w.str(&s.name);
            w.count(s.setup.len());
            for &(cell, kind) in &s.setup {
                w.u16(cell);
                w.u8(kind);
            }
            w.count(s.promotions.len());
            for p in &s.promotions {
                w.u8(p.kind);
                w.count(p.choices.len());
                w.bytes(&p.choices);
                w.u16s(&p.zone);
            }
            w.count(s.castles.len());
            for c in &s.castles {
                w.str(&c.name);
                w.u16(c.king_from);
                w.u16(c.king_to);
                w.u16(c.rook_from);
                w.u16(c.rook_to);
                w.u16s(&c.empty);
                w.u16s(&c.safe);
                match c.fen {
                    None => w.u8(0),
                    Some(ch) => {
                        w.u8(1);
                        w.u32(ch as u32);
                    }
                }
            }
        }
        w.u8(self.rules.stalemate as u8);
        w.u8(self.rules.stationary_moves as u8);
        w.u16(self.rules.fifty_move);
        w.u8(self.rules.repetition);
        w.count(self.ray_index.len());
        for &range in &self.ray_index {
            w.range(range);
        }
        w.count(self.rays.len());
        for r in &self.rays {
            w.u8(r.flags);
            w.u8(r.heading);
            w.range(r.must_empty);
            w.range(r.cells);
        }
        w.u16s(&self.pool);
        w.u32s(&self.attack_index);
        w.count(self.attacks.len());
        for a in &self.attacks {
            match *a {
                Attack::Direct { ck, cells } => {
                    w.u8(ATTACK_DIRECT);
                    w.u8(ck);
                    w.range(cells);
                }
                Attack::Line { cells, masks } => {
                    w.u8(ATTACK_LINE);
                    w.range(cells);
                    w.u32(masks);
                }
            }
        }
        w.count(self.masks.len());
        for &m in &self.masks {
            w.0.extend_from_slice(&m.to_le_bytes());
        }
        match &self.layout {
            None => w.u8(0),
            Some(l) => {
                w.u8(1);
                w.count(l.shades.len());
                w.bytes(&l.shades);
                w.count(l.views.len());
                for v in &l.views {
                    w.str(&v.name);
                    w.count(v.cells.len());
                    for c in &v.cells {
                        w.u16(c.cell);
                        w.point(c.label);
                        w.count(c.contours.len());
                        for contour in &c.contours {
                            w.points(contour);
                        }
                        w.points(&c.ports);
                    }
                    w.count(v.labels.len());
                    for l in &v.labels {
                        w.point(l.at);
                        w.u32(l.size.to_bits());
                        w.str(&l.text);
                    }
                }
            }
        }
        // Version 6: the players section (teams and the rules of games of three or more teams).
        for s in &self.sides {
            w.str(&s.team);
        }
        w.u8(self.rules.game_end as u8);
        w.u8(self.rules.eliminated as u8);
        // Version 7: the stacks section (pieces that give no check, crowning, stacks, hands, and
        // the rules on bare royals and royal paths).
        for k in &self.kinds {
            w.u8(k.cannot_check as u8);
            w.count(k.crowns.len());
            w.bytes(&k.crowns);
            match k.crowned {
                Some((carrier, crown)) => {
                    w.u8(1);
                    w.u8(carrier);
                    w.u8(crown);
                }
                None => w.u8(0),
            }
        }
        for s in &self.sides {
            w.count(s.atop.len());
            for &(cell, kind) in &s.atop {
                w.u16(cell);
                w.u8(kind);
            }
            w.count(s.hand.len());
            w.bytes(&s.hand);
        }
        // Since version 10, 4 to 6 are the outcomes with `counting-move`.
        w.u8(match self.rules.bare {
            None => 0,
            Some(o) => 1 + o as u8 + 3 * self.rules.bare_counting as u8,
        });
        w.u8(self.rules.royal_path_unattacked as u8);
        // Version 8: the winders section (winding rules).
        w.count(self.winders.len());
        for wd in &self.winders {
            w.u8(wd.kind);
            w.u8(wd.flags);
            w.u16s(&wd.zone);
            for next in &wd.adjacency {
                w.u16s(next);
            }
        }
        // Version 9: the goals section (check limit, extinction, cells to reach).
        w.u8(self.rules.check_limit);
        w.u32(self.rules.extinction as u32);
        w.u32((self.rules.extinction >> 32) as u32);
        for s in &self.sides {
            w.count(s.reach.len());
            for &(kind, cell) in &s.reach {
                w.u8(kind);
                w.u16(cell);
            }
            // Per promotion: bit 0 `captured`, bit 1 `optional`.
            for p in &s.promotions {
                w.u8(p.captured as u8 | (p.optional as u8) << 1);
            }
        }
        // Version 10: the hoppers section (hops and `takes`).
        w.count(self.hoppers.len());
        for h in &self.hoppers {
            w.u8(h.ck);
            w.u8(h.flags);
            for m in [h.over, h.takes] {
                w.u32(m as u32);
                w.u32((m >> 32) as u32);
            }
            w.u16s(&h.onto);
            w.count(h.lines.len());
            for (from, cells) in &h.lines {
                w.u16(*from);
                w.u16s(cells);
            }
        }
        // Version 10: the hands section (drops, `captured-as`, FEN tokens, `from-or-to`).
        w.u8(self.rules.drops as u8);
        for k in &self.kinds {
            match k.captured_as {
                Some(c) => {
                    w.u8(1);
                    w.u8(c);
                }
                None => w.u8(0),
            }
            w.str(&k.fen);
        }
        for s in &self.sides {
            for p in &s.promotions {
                w.u8(p.from_or_to as u8);
            }
            w.count(s.drops.len());
            for d in &s.drops {
                w.u8(d.kind);
                w.u16s(&d.forbidden);
                w.u8(d.one_per_file as u8 | (d.no_mate as u8) << 1);
            }
        }

        // Version 11: the passing section (`pass`, `facing`).
        w.u8(self.rules.pass as u8);
        w.count(self.facing.len());
        for (from, cells) in &self.facing {
            w.u16(*from);
            w.u16s(cells);
        }

        let payload = w.0;
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&len32(payload.len()).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a `.orbt` file and validates it. Never panics, whatever the bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tables, FormatError> {
        let file_len = bytes.len() as u64;
        let magic_seen = &bytes[..bytes.len().min(4)];
        if magic_seen != &MAGIC[..magic_seen.len()] {
            return Err(FormatError::BadMagic { found: magic_seen.to_vec() });
        }
        if bytes.len() < HEADER_LEN {
            return Err(FormatError::Truncated {
                section: "header",
                expected: HEADER_LEN as u64,
                found: file_len,
            });
        }
        let le16 = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let le32 = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        let version = le16(4);
        if !(OLDEST_READ_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(FormatError::UnsupportedVersion { found: version });
        }
        let flags = le16(6);
        if flags != 0 {
            return Err(FormatError::UnsupportedFlags { found: flags });
        }
        let payload_len = le32(8) as u64;
        let stored = le32(12);
        let expected = HEADER_LEN as u64 + payload_len;
        if file_len < expected {
            return Err(FormatError::Truncated { section: "payload", expected, found: file_len });
        }
        if file_len > expected {
            return Err(FormatError::TrailingBytes { after: "payload", extra: file_len - expected });
        }
        let payload = &bytes[HEADER_LEN..];
        let computed = crc32fast::hash(payload);
        if computed != stored {
            return Err(FormatError::ChecksumMismatch { stored, computed });
        }
        let tables = read_payload(&mut Reader { bytes: payload, pos: 0, section: "name" }, version)?;
        tables.validate()?;
        Ok(tables)
    }

}

/// Narrows a length for the file; tables never come near 4 G entries.
fn len32(n: usize) -> u32 {
    u32::try_from(n).expect("orbis table array longer than u32::MAX")
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn count(&mut self, n: usize) {
        self.u32(len32(n));
    }
    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
    fn range(&mut self, (start, end): (u32, u32)) {
        self.u32(start);
        self.u32(end);
    }
    fn str(&mut self, s: &str) {
        self.count(s.len());
        self.bytes(s.as_bytes());
    }
    fn strs(&mut self, v: &[String]) {
        self.count(v.len());
        v.iter().for_each(|s| self.str(s));
    }
    fn u16s(&mut self, v: &[u16]) {
        self.count(v.len());
        v.iter().for_each(|&x| self.u16(x));
    }
    fn u32s(&mut self, v: &[u32]) {
        self.count(v.len());
        v.iter().for_each(|&x| self.u32(x));
    }
    fn point(&mut self, [x, y]: [f32; 2]) {
        self.0.extend_from_slice(&x.to_le_bytes());
        self.0.extend_from_slice(&y.to_le_bytes());
    }
    fn points(&mut self, v: &[[f32; 2]]) {
        self.count(v.len());
        v.iter().for_each(|&p| self.point(p));
    }
}

/// Reads the payload; `section` names where a read failed.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    section: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let remaining = self.bytes.len() - self.pos;
        if n > remaining {
            return Err(FormatError::Truncated {
                section: self.section,
                expected: (HEADER_LEN + self.pos) as u64 + n as u64,
                found: (HEADER_LEN + self.bytes.len()) as u64,
            });
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, FormatError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, FormatError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, FormatError> {
        let b = self.take(8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn range(&mut self) -> Result<(u32, u32), FormatError> {
        Ok((self.u32()?, self.u32()?))
    }
    /// An element count; checked against the bytes left so a corrupt count cannot make us
    /// allocate gigabytes (each element takes at least `min_size` bytes).
    fn count(&mut self, min_size: usize) -> Result<usize, FormatError> {
        let n = self.u32()? as usize;
        let remaining = self.bytes.len() - self.pos;
        if n.saturating_mul(min_size) > remaining {
            return Err(FormatError::Truncated {
                section: self.section,
                expected: (HEADER_LEN + self.pos) as u64 + n as u64 * min_size as u64,
                found: (HEADER_LEN + self.bytes.len()) as u64,
            });
        }
        Ok(n)
    }
    fn bool(&mut self, field: &dyn Fn() -> String) -> Result<bool, FormatError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(invalid(field(), format!("boolean byte is {b}; it must be 0 or 1"))),
        }
    }
    fn char(&mut self, field: &dyn Fn() -> String) -> Result<char, FormatError> {
        let v = self.u32()?;
        char::from_u32(v).ok_or_else(|| invalid(field(), format!("{v:#x} is not a Unicode scalar value")))
    }
    fn str(&mut self, field: &dyn Fn() -> String) -> Result<String, FormatError> {
        let n = self.count(1)?;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| FormatError::InvalidUtf8 { field: field() })
    }
    fn strs(&mut self, what: &str) -> Result<Vec<String>, FormatError> {
        let n = self.count(4)?;
        (0..n).map(|i| self.str(&|| format!("{what} {i}"))).collect()
    }
    fn u16s(&mut self) -> Result<Vec<u16>, FormatError> {
        let n = self.count(2)?;
        (0..n).map(|_| self.u16()).collect()
    }
    fn u32s(&mut self) -> Result<Vec<u32>, FormatError> {
        let n = self.count(4)?;
        (0..n).map(|_| self.u32()).collect()
    }
    fn point(&mut self) -> Result<[f32; 2], FormatError> {
        Ok([f32::from_bits(self.u32()?), f32::from_bits(self.u32()?)])
    }
    fn points(&mut self) -> Result<Vec<[f32; 2]>, FormatError> {
        let n = self.count(8)?;
        (0..n).map(|_| self.point()).collect()
    }
}

fn read_payload(r: &mut Reader, version: u16) -> Result<Tables, FormatError> {
    r.section = "name";
    let name = r.str(&|| "variant name".to_string())?;
    r.section = "cells";
    let cells = r.strs("cell name")?;
    r.section = "headings";
    let headings = r.strs("heading name")?;

    r.section = "grid";
    let grid = if r.bool(&|| "grid presence byte".to_string())? {
        Some(GridInfo {
            width: r.u16()?,
            height: r.u16()?,
            files: r.strs("grid file")?,
            ranks: r.strs("grid rank")?,
            cell_at: r.u16s()?,
        })
    } else {
        None
    };

    r.section = "step";
    let n = r.count(3)?;
    let step = (0..n).map(|_| Ok((r.u16()?, r.u8()?))).collect::<Result<Vec<_>, FormatError>>()?;

    r.section = "transit";
    let transit = r.u16s()?;

    r.section = "aliases";
    let n = r.count(6)?;
    let mut aliases = Vec::with_capacity(n);
    for i in 0..n {
        let name = r.str(&|| format!("alias {i} name"))?;
        aliases.push((name, r.u16()?));
    }

    r.section = "kinds";
    let n = r.count(9)?;
    let mut kinds = Vec::with_capacity(n);
    for k in 0..n {
        let name = r.str(&|| format!("kind {k} name"))?;
        let symbol = r.char(&|| format!("kind {k} symbol"))?;
        let flags = r.u8()?;
        if flags & !(KIND_ROYAL | KIND_RESETS_CLOCK) != 0 {
            return Err(invalid(format!("kind {k} flags"), format!("unknown bits in {flags:#04x}")));
        }
        kinds.push(KindInfo {
            name,
            symbol,
            royal: flags & KIND_ROYAL != 0,
            resets_clock: flags & KIND_RESETS_CLOCK != 0,
            cannot_check: false,
            crowns: Vec::new(),
            crowned: None,
            captured_as: None,
            fen: String::new(),
        });
    }

    r.section = "sides";
    let n = r.count(16)?;
    let mut sides = Vec::with_capacity(n);
    for s in 0..n {
        let name = r.str(&|| format!("side {s} name"))?;
        // The team (version 6) is read with the players section, at the end.
        let team = name.clone();
        let m = r.count(3)?;
        let setup = (0..m).map(|_| Ok((r.u16()?, r.u8()?))).collect::<Result<Vec<_>, FormatError>>()?;
        let m = r.count(9)?;
        let mut promotions = Vec::with_capacity(m);
        for _ in 0..m {
            let kind = r.u8()?;
            let c = r.count(1)?;
            let choices = r.take(c)?.to_vec();
            let zone = r.u16s()?;
            promotions.push(PromotionInfo { kind, choices, zone, ..PromotionInfo::default() });
        }
        let m = r.count(21)?;
        let mut castles = Vec::with_capacity(m);
        for c in 0..m {
            let name = r.str(&|| format!("side {s} castle {c} name"))?;
            let (king_from, king_to, rook_from, rook_to) = (r.u16()?, r.u16()?, r.u16()?, r.u16()?);
            let empty = r.u16s()?;
            let safe = r.u16s()?;
            let fen_field = || format!("side {s} castle {c} fen");
            let fen = if r.bool(&fen_field)? { Some(r.char(&fen_field)?) } else { None };
            castles.push(CastleInfo { name, king_from, king_to, rook_from, rook_to, empty, safe, fen });
        }
        sides.push(SideInfo {
            name,
            team,
            setup,
            atop: Vec::new(),
            hand: Vec::new(),
            promotions,
            drops: Vec::new(),
            castles,
            reach: Vec::new(),
        });
    }

    r.section = "rules";
    let stalemate = match r.u8()? {
        0 => Outcome::Draw,
        1 => Outcome::Win,
        2 => Outcome::Loss,
        b => {
            return Err(invalid(
                "rules stalemate",
                format!("outcome byte is {b}; it must be 0 (draw), 1 (win) or 2 (loss)"),
            ))
        }
    };
    let stationary_moves = r.bool(&|| "rules stationary_moves".to_string())?;
    let mut rules = RulesInfo { stalemate, stationary_moves, fifty_move: r.u16()?, repetition: r.u8()?, ..RulesInfo::default() };

    r.section = "ray_index";
    let ray_index = if version >= 12 {
        let n = r.count(8)?;
        (0..n).map(|_| r.range()).collect::<Result<Vec<_>, FormatError>>()?
    } else {
        // Before version 12 an entry's rays ended where the next entry's began.
        r.u32s()?.windows(2).map(|w| (w[0], w[1])).collect()
    };
    r.section = "rays";
    let n = r.count(18)?;
    let rays = (0..n)
        .map(|_| Ok(Ray { flags: r.u8()?, heading: r.u8()?, must_empty: r.range()?, cells: r.range()? }))
        .collect::<Result<Vec<_>, FormatError>>()?;
    r.section = "pool";
    let pool = r.u16s()?;
    r.section = "attack_index";
    let attack_index = r.u32s()?;

    r.section = "attacks";
    let n = r.count(10)?;
    let mut attacks = Vec::with_capacity(n);
    for i in 0..n {
        attacks.push(match r.u8()? {
            ATTACK_DIRECT => Attack::Direct { ck: r.u8()?, cells: r.range()? },
            ATTACK_LINE => Attack::Line { cells: r.range()?, masks: r.u32()? },
            t => {
                return Err(invalid(
                    format!("attack {i}"),
                    format!("tag {t}; it must be 0 (direct) or 1 (line)"),
                ))
            }
        });
    }

    r.section = "masks";
    let n = r.count(8)?;
    let masks = (0..n).map(|_| r.u64()).collect::<Result<Vec<_>, FormatError>>()?;

    // Version 3 ends here; version 4 adds the layout.
    let layout = if version >= 4 { read_layout(r, version)? } else { None };
    // Version 6 adds the players section.
    if version >= 6 {
        r.section = "players";
        for (s, side) in sides.iter_mut().enumerate() {
            side.team = r.str(&|| format!("side {s} team"))?;
        }
        rules.game_end = match r.u8()? {
            0 => GameEnd::LastStanding,
            1 => GameEnd::FirstMate,
            b => return Err(invalid("rules game_end", format!("byte is {b}; it must be 0 (last-standing) or 1 (first-mate)"))),
        };
        rules.eliminated = match r.u8()? {
            0 => Eliminated::Remove,
            1 => Eliminated::Stay,
            b => return Err(invalid("rules eliminated", format!("byte is {b}; it must be 0 (remove) or 1 (stay)"))),
        };
    }
    // Version 7 adds the stacks section.
    if version >= 7 {
        r.section = "stacks";
        for (k, kind) in kinds.iter_mut().enumerate() {
            kind.cannot_check = match r.u8()? {
                0 => false,
                1 => true,
                b => {
                    return Err(invalid(
                        format!("kind {k} cannot_check"),
                        format!("byte is {b}; it must be 0 or 1"),
                    ))
                }
            };
            let n = r.count(1)?;
            kind.crowns = (0..n)
                .map(|_| r.u8())
                .collect::<Result<Vec<_>, FormatError>>()?;
            kind.crowned = match r.u8()? {
                0 => None,
                1 => Some((r.u8()?, r.u8()?)),
                b => {
                    return Err(invalid(
                        format!("kind {k} crowned"),
                        format!("byte is {b}; it must be 0 or 1"),
                    ))
                }
            };
        }
        for side in sides.iter_mut() {
            let n = r.count(3)?;
            side.atop = (0..n)
                .map(|_| Ok((r.u16()?, r.u8()?)))
                .collect::<Result<Vec<_>, FormatError>>()?;
            let n = r.count(1)?;
            side.hand = (0..n)
                .map(|_| r.u8())
                .collect::<Result<Vec<_>, FormatError>>()?;
        }
        let bare = r.u8()?;
        rules.bare_counting = bare >= 4 && version >= 10;
        rules.bare = match (bare, rules.bare_counting) {
            (0, false) => None,
            (1, false) | (4, true) => Some(Outcome::Draw),
            (2, false) | (5, true) => Some(Outcome::Win),
            (3, false) | (6, true) => Some(Outcome::Loss),
            (b, _) => {
                let most = if version >= 10 { "6 (loss, counting move)" } else { "3 (loss)" };
                return Err(invalid("rules bare", format!("byte is {b}; it must be 0 (ignored) to {most}")));
            }
        };
        rules.royal_path_unattacked = match r.u8()? {
            0 => false,
            1 => true,
            b => {
                return Err(invalid(
                    "rules royal_path",
                    format!("byte is {b}; it must be 0 or 1"),
                ))
            }
        };
    }
    // Version 8 adds the winders section.
    let mut winders = Vec::new();
    if version >= 8 {
        r.section = "winders";
        let n = r.count(10)?;
        for _ in 0..n {
            let kind = r.u8()?;
            let flags = r.u8()?;
            let zone = r.u16s()?;
            let adjacency = (0..zone.len()).map(|_| r.u16s()).collect::<Result<Vec<_>, FormatError>>()?;
            winders.push(Winder { kind, flags, zone, adjacency });
        }
    }

    // Version 9 adds the goals section.
    if version >= 9 {
        r.section = "goals";
        rules.check_limit = r.u8()?;
        rules.extinction = u64::from(r.u32()?) | u64::from(r.u32()?) << 32;
        for side in sides.iter_mut() {
            let n = r.count(3)?;
            side.reach = (0..n).map(|_| Ok((r.u8()?, r.u16()?))).collect::<Result<Vec<_>, FormatError>>()?;
            for p in side.promotions.iter_mut() {
                match r.u8()? {
                    b @ 0..=3 => (p.captured, p.optional) = (b & 1 != 0, b & 2 != 0),
                    b => return Err(invalid("promotion flags", format!("byte is {b}; it must be 0 to 3"))),
                }
            }
        }
    }

    // Version 10 adds the hoppers section.
    let mut hoppers = Vec::new();
    if version >= 10 {
        r.section = "hoppers";
        let n = r.count(30)?;
        for _ in 0..n {
            let ck = r.u8()?;
            let flags = r.u8()?;
            let over = u64::from(r.u32()?) | u64::from(r.u32()?) << 32;
            let takes = u64::from(r.u32()?) | u64::from(r.u32()?) << 32;
            let onto = r.u16s()?;
            let lines = r.count(6)?;
            let lines = (0..lines).map(|_| Ok((r.u16()?, r.u16s()?))).collect::<Result<Vec<_>, FormatError>>()?;
            hoppers.push(Hopper { ck, flags, over, takes, onto, lines });
        }
    }

    // Version 10 adds the hands section.
    if version >= 10 {
        r.section = "hands";
        rules.drops = match r.u8()? {
            b @ 0..=1 => b == 1,
            b => return Err(invalid("drops rule", format!("byte is {b}; it must be 0 or 1"))),
        };
        for (k, kind) in kinds.iter_mut().enumerate() {
            kind.captured_as = match r.u8()? {
                0 => None,
                1 => Some(r.u8()?),
                b => return Err(invalid("captured-as tag", format!("byte is {b}; it must be 0 or 1"))),
            };
            kind.fen = r.str(&|| format!("kind {k} FEN token"))?;
        }
        for side in sides.iter_mut() {
            for p in side.promotions.iter_mut() {
                p.from_or_to = match r.u8()? {
                    b @ 0..=1 => b == 1,
                    b => return Err(invalid("promotion from-or-to", format!("byte is {b}; it must be 0 or 1"))),
                };
            }
            let n = r.count(7)?;
            for _ in 0..n {
                let kind = r.u8()?;
                let forbidden = r.u16s()?;
                let flags = r.u8()?;
                if flags > 3 {
                    return Err(invalid("drop flags", format!("byte is {flags}; it must be 0 to 3")));
                }
                side.drops.push(DropInfo { kind, forbidden, one_per_file: flags & 1 != 0, no_mate: flags & 2 != 0 });
            }
        }
    }

    // Version 11 adds the passing section.
    let mut facing = Vec::new();
    if version >= 11 {
        r.section = "passing";
        rules.pass = match r.u8()? {
            b @ 0..=1 => b == 1,
            b => return Err(invalid("pass rule", format!("byte is {b}; it must be 0 or 1"))),
        };
        let n = r.count(6)?;
        facing = (0..n).map(|_| Ok((r.u16()?, r.u16s()?))).collect::<Result<Vec<_>, FormatError>>()?;
    }

    let extra = r.bytes.len() - r.pos;
    if extra != 0 {
        return Err(FormatError::TrailingBytes {
            after: match version {
                11.. => "passing section (the last of the payload)",
                10 => "hands section (the last of the payload)",
                9 => "goals section (the last of the payload)",
                8 => "winders section (the last of the payload)",
                7 => "stacks section (the last of the payload)",
                6 => "players section (the last of the payload)",
                4 | 5 => "layout section (the last of the payload)",
                _ => "masks section (the last of the payload)",
            },
            extra: extra as u64,
        });
    }
    Ok(Tables {
        name,
        cells,
        headings,
        grid,
        step,
        transit,
        aliases,
        kinds,
        sides,
        rules,
        ray_index,
        rays,
        pool,
        attack_index,
        attacks,
        masks,
        winders,
        hoppers,
        facing,
        layout,
    })
}

fn read_layout(r: &mut Reader, version: u16) -> Result<Option<Layout>, FormatError> {
    r.section = "layout";
    if !r.bool(&|| "layout presence byte".to_string())? {
        return Ok(None);
    }
    let n = r.count(1)?;
    let shades = r.take(n)?.to_vec();
    let n = r.count(8)?;
    let mut views = Vec::with_capacity(n);
    for v in 0..n {
        let name = r.str(&|| format!("layout view {v} name"))?;
        let m = r.count(18)?;
        let mut cells = Vec::with_capacity(m);
        for _ in 0..m {
            let cell = r.u16()?;
            let label = r.point()?;
            let k = r.count(4)?;
            let contours = (0..k).map(|_| r.points()).collect::<Result<Vec<_>, FormatError>>()?;
            let ports = r.points()?;
            cells.push(LayoutCell { cell, label, contours, ports });
        }
        let mut labels = Vec::new();
        if version >= 5 {
            let k = r.count(16)?;
            for _ in 0..k {
                let at = r.point()?;
                let size = f32::from_bits(r.u32()?);
                let text = r.str(&|| format!("layout view {v} label text"))?;
                labels.push(LayoutLabel { at, size, text });
            }
        }
        views.push(LayoutView { name, cells, labels });
    }
    Ok(Some(Layout { shades, views }))
}
