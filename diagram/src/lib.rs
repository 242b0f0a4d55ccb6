//! orbis diagrams: boards, setups, positions and piece moves drawn from the compiled tables, as SVG
//! or as text.
//!
//! Nothing here is variant-specific. The grid layout places the cells; the step function shows the
//! seams (a step that does not land on its grid neighbour); the rays give the moves. Stages:
//! [`board::Board`] reads the geometry off the tables, [`scene`] decides what stands where and
//! where a piece goes, [`svg`] and [`text`] draw it.
//!
//! ```text
//! orbis diagram FILE [--position POS | --empty] [--moves CELL|PIECE@CELL [--paths [--heading H]...]]
//!                    [--neighbours | --hemispheres] [--flip] [--format svg|text] [-o OUT]
//! ```

pub mod board;
pub mod pieces;
pub mod scene;
pub mod svg;
mod svg_geom;
mod svg_layout;
mod svg_legend;
pub mod text;

use board::Board;
use orbis_runtime::{CellSet, Engine, Game, Position};
use scene::{Piece, Scene};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Svg,
    Text,
}

/// What to draw.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A position (FEN or the general notation); the start position when `None`.
    pub position: Option<String>,
    /// `CELL` (the piece standing there) or `PIECE@CELL` (that piece alone on the board, or put
    /// into `position` when one is given). `PIECE` is a name or a symbol (a lower-case symbol is the
    /// second side's piece), optionally `SIDE:PIECE`.
    pub moves: Option<String>,
    /// Draw the rays of the `moves` piece.
    pub paths: bool,
    /// With `paths`: only the rays that leave with these headings (all when empty).
    pub headings: Vec<String>,
    /// The board alone, without pieces.
    pub empty: bool,
    /// The neighbour diagram instead of the board.
    pub neighbours: bool,
    /// The two-hemisphere view (boards whose ranks are rings closed over two poles).
    pub hemispheres: bool,
    pub format: Format,
    /// Cells of the last move played, marked on the board.
    pub last: Vec<String>,
    /// Cells of royal pieces in check, marked on the board.
    pub check: Vec<String>,
    /// Turn a grid board round (the second side's view): files and ranks run the other way.
    pub flip: bool,
    /// SVG: put a hit area with a `data-cell` attribute on every cell (for `orbis serve`).
    pub interactive: bool,
}

/// Renders a diagram of the loaded variant.
pub fn render(engine: &Engine, opts: &Options) -> Result<String, String> {
    let t = engine.tables();
    let b = Board::new(t)?;
    if opts.neighbours && opts.hemispheres {
        return Err("--neighbours and --hemispheres are two different views; pick one".into());
    }
    if !opts.headings.is_empty() && !opts.paths {
        return Err("--heading chooses which rays --paths draws; add --paths".into());
    }
    if opts.paths && opts.moves.is_none() {
        return Err("--paths draws the rays of a piece: give it with --moves CELL or --moves PIECE@CELL".into());
    }
    if opts.neighbours && (opts.moves.is_some() || opts.position.is_some()) {
        return Err("--neighbours draws the board and its surroundings; it takes no --moves or --position".into());
    }
    if b.is_polygonal() && (opts.neighbours || opts.hemispheres) {
        return Err("--neighbours and --hemispheres draw grid boards; a board of polygon cells is drawn from its layout (every cell with its neighbours: --format text)".into());
    }
    if opts.hemispheres && !b.has_poles() {
        return Err("--hemispheres needs a board whose ranks are closed rings and whose end ranks close over poles".into());
    }
    let State {
        pieces,
        under,
        unmoved,
        text: position_text,
        hand,
    } = position_state(engine, opts.position.as_deref())?;
    if opts.flip && (b.is_polygonal() || opts.hemispheres || opts.neighbours) {
        return Err("--flip turns a grid board round; boards of polygon cells and the hemisphere and neighbour views have no second side's view".into());
    }
    let marked = |names: &[String], what: &str| -> Result<Vec<bool>, String> {
        let mut on = vec![false; t.cells.len()];
        for name in names {
            let c = t.cell_by_name(name).ok_or_else(|| format!("{what}: there is no cell '{name}' on this board"))?;
            on[c as usize] = true;
        }
        Ok(on)
    };
    let mut scene = Scene {
        title: t.name.clone(),
        subtitle: String::new(),
        detail: position_text.clone(),
        pieces,
        under,
        movement: None,
        paths: opts.paths,
        last: marked(&opts.last, "last move")?,
        check: marked(&opts.check, "check")?,
        flip: opts.flip,
        interactive: opts.interactive,
    };
    let mut where_ = match &position_text {
        Some(_) => "given position".to_string(),
        None => "start position".to_string(),
    };
    if !hand.is_empty() {
        where_ += &format!(" (in hand: {hand})");
    }
    if opts.neighbours {
        scene.subtitle = "neighbours: the cells one and two steps beyond each edge".into();
        scene.pieces = vec![None; t.cells.len()];
        scene.under = vec![None; t.cells.len()];
        return Ok(match opts.format {
            Format::Svg => svg::neighbours(&b, &scene),
            Format::Text => trim_lines(&text::neighbours(&b, &scene)),
        });
    }
    if opts.empty {
        if opts.position.is_some() {
            return Err("--empty draws the board without pieces; it takes no --position".into());
        }
        scene.pieces = vec![None; t.cells.len()];
        scene.under = vec![None; t.cells.len()];
    }
    if let Some(spec) = &opts.moves {
        let (piece, cell, alone) = parse_moves(&b, spec, &scene.pieces)?;
        let unmoved_here: Vec<bool> = if alone {
            // A piece on its own start cell has not moved (its initial moves count).
            let start = t.sides[piece.side].setup.iter().any(|&(c, k)| c as usize == cell && k as usize == piece.kind);
            (0..t.cells.len()).map(|c| c == cell && start).collect()
        } else {
            unmoved.clone()
        };
        if alone && opts.position.is_none() {
            scene.pieces = vec![None; t.cells.len()];
            scene.under = vec![None; t.cells.len()];
        }
        scene.pieces[cell] = None;
        let mut m = scene::movement(&b, &scene.pieces, &unmoved_here, piece, cell);
        if !opts.headings.is_empty() {
            for h in &opts.headings {
                if !t.headings.contains(h) {
                    return Err(format!("--heading: no heading '{h}'; the headings are {}", t.headings.join(" ")));
                }
            }
            m.paths.retain(|p| opts.headings.contains(&t.headings[p.heading]));
            // Only the cells on the rays shown.
            let on_rays: Vec<usize> = m.paths.iter().flat_map(|p| p.steps.iter().map(|s| s.to)).collect();
            for (c, mark) in m.marks.iter_mut().enumerate() {
                if !on_rays.contains(&c) {
                    *mark = scene::Mark::default();
                }
            }        }
        let kind = &t.kinds[piece.kind];
        let total = m.count(|k| k.quiet || k.capture);
        let on = if opts.empty || (alone && opts.position.is_none()) { "on an empty board".to_string() } else { format!("in the {where_}") };
        let plural = if total == 1 { "" } else { "s" };
        let rays = match (opts.paths, opts.headings.is_empty()) {
            (false, _) => String::new(),
            (true, true) => ", with its rays".to_string(),
            (true, false) => format!(
                " along its {} ray{}",
                opts.headings.join(" "),
                if opts.headings.len() == 1 { "" } else { "s" }
            ),
        };
        scene.subtitle =
            format!("{} ({}) on {} {on}: {total} move{plural}{rays}", kind.name, t.sides[piece.side].name, b.name(cell));
        scene.pieces[cell] = Some(piece);
        scene.movement = Some(m);
    } else if opts.empty {
        scene.subtitle = "the board".into();
    } else {
        scene.subtitle = where_;
    }
    if opts.hemispheres {
        scene.subtitle.push_str(" — two hemispheres");
    }
    if b.is_polygonal() {
        return Ok(match opts.format {
            Format::Svg => svg::layout_board(&b, &scene),
            Format::Text => trim_lines(&text::polygon_board(&b, &scene)),
        });
    }
    Ok(match (opts.format, opts.hemispheres) {
        (Format::Svg, false) => svg::board(&b, &scene),
        (Format::Svg, true) => svg::hemispheres(&b, &scene),
        (Format::Text, false) => trim_lines(&text::board(&b, &scene)),
        (Format::Text, true) => trim_lines(&text::hemispheres(&b, &scene)),
    })
}

fn trim_lines(s: &str) -> String {
    s.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// What a position puts on the board: top pieces, hidden pieces, unmoved cells, the position's
/// text when one was given, and the pieces in hand in words.
struct State {
    pieces: Vec<Option<Piece>>,
    under: Vec<Option<Piece>>,
    unmoved: Vec<bool>,
    text: Option<String>,
    hand: String,
}

fn position_state(engine: &Engine, text: Option<&str>) -> Result<State, String> {
    orbis_runtime::with_game!(engine, g => state(g, text))
}

fn state<B: CellSet>(g: &Game<B>, text: Option<&str>) -> Result<State, String> {
    let pos = match text {
        Some(t) => Position::parse(g, t).map_err(|e| e.to_string())?,
        None => Position::start(g),
    };
    let kinds = g.tables.kinds.len();
    let piece = |v: u8| {
        (v != 0).then(|| Piece {
            side: (v as usize - 1) / kinds,
            kind: (v as usize - 1) % kinds,
        })
    };
    let hand: Vec<String> = (0..g.sides)
        .filter_map(|s| {
            let held: String = (0..kinds)
                .flat_map(|k| std::iter::repeat_n(g.symbol(k), pos.hand[s * kinds + k] as usize))
                .collect();
            (!held.is_empty()).then(|| format!("{} {held}", g.tables.sides[s].name))
        })
        .collect();
    Ok(State {
        pieces: pos.board.iter().map(|&v| piece(v)).collect(),
        under: pos.under.iter().map(|&v| piece(v)).collect(),
        unmoved: (0..g.tables.cells.len())
            .map(|c| pos.virgin.has(c))
            .collect(),
        text: text.map(|_| pos.to_text(g)),
        hand: hand.join(", "),
    })
}

/// `CELL`, or `[SIDE:]PIECE@CELL`. Returns the piece, its cell, and whether it was named (set alone).
fn parse_moves(b: &Board, spec: &str, pieces: &[Option<Piece>]) -> Result<(Piece, usize, bool), String> {
    let t = b.t;
    let cell_of = |name: &str| {
        t.cell_by_name(name).map(usize::from).ok_or_else(|| format!("--moves: there is no cell '{name}' on this board"))
    };
    let Some((who, at)) = spec.rsplit_once('@') else {
        let cell = cell_of(spec)?;
        let piece = pieces[cell].ok_or_else(|| {
            format!("--moves: no piece stands on {spec} in this position (name one: --moves PIECE@{spec}, e.g. {}@{spec})", t.kinds[0].name)
        })?;
        return Ok((piece, cell, false));
    };
    let cell = cell_of(at)?;
    let (side_name, piece_name) = match who.split_once(':') {
        Some((s, p)) => (Some(s), p),
        None => (None, who),
    };
    let mut side = match side_name {
        Some(s) => Some(
            t.sides
                .iter()
                .position(|x| x.name.eq_ignore_ascii_case(s))
                .ok_or_else(|| format!("--moves: there is no side '{s}'"))?,
        ),
        None => None,
    };
    let mut chars = piece_name.chars();
    let kind = match (chars.next(), chars.next()) {
        (Some(c), None) => {
            if side.is_none() {
                side = Some(if c.is_lowercase() && t.sides.len() > 1 { 1 } else { 0 });
            }
            t.kinds.iter().position(|k| k.symbol.eq_ignore_ascii_case(&c))
        }
        _ => t.kinds.iter().position(|k| k.name.eq_ignore_ascii_case(piece_name)),
    };
    let kind = kind.ok_or_else(|| {
        let names: Vec<String> = t.kinds.iter().map(|k| format!("{} ({})", k.name, k.symbol)).collect();
        format!("--moves: no piece '{piece_name}'; the pieces are {}", names.join(", "))
    })?;
    Ok((Piece { side: side.unwrap_or(0), kind }, cell, true))
}
