//! Piece glyphs drawn for orbis: the six usual chess figures as SVG paths in a 100 × 100 box
//! (base line at y = 88), and a labelled disc for any other piece.

/// The usual figures, by piece name (case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Figure {
    pub fn of_name(name: &str) -> Option<Figure> {
        Some(match name.to_ascii_lowercase().as_str() {
            "king" => Figure::King,
            "queen" => Figure::Queen,
            "rook" => Figure::Rook,
            "bishop" => Figure::Bishop,
            "knight" => Figure::Knight,
            "pawn" => Figure::Pawn,
            _ => return None,
        })
    }

    /// The filled outline, then the detail lines drawn in the contrasting colour.
    fn shapes(self) -> (&'static str, &'static str) {
        match self {
            Figure::Pawn => (
                concat!(
                    "M50 17 A12.5 12.5 0 0 1 58.5 38.6 L62 44 H38 L41.5 38.6 A12.5 12.5 0 0 1 50 17 Z ",
                    "M41 44 H59 C59 58 64 68 72 80 H28 C36 68 41 58 41 44 Z ",
                    "M23 88 Q23 80 31 80 H69 Q77 80 77 88 Z"
                ),
                "M36 44 H64",
            ),
            Figure::Rook => (
                concat!(
                    "M27 16 H38 V24 H45 V16 H55 V24 H62 V16 H73 V36 L66 42 H34 L27 36 Z ",
                    "M35 42 H65 L68 72 H32 Z M29 72 H71 L73 80 H27 Z ",
                    "M23 88 Q23 80 31 80 H69 Q77 80 77 88 Z"
                ),
                "M27 36 H73 M32 72 H68",
            ),
            Figure::Bishop => (
                concat!(
                    "M50 6 A5.5 5.5 0 1 1 49.99 6 Z ",
                    "M50 16 C36 28 32 42 39 56 H61 C68 42 64 28 50 16 Z ",
                    "M37 56 H63 L61 63 H39 Z ",
                    "M41 63 H59 C60 70 66 76 72 80 H28 C34 76 40 70 41 63 Z ",
                    "M23 88 Q23 80 31 80 H69 Q77 80 77 88 Z"
                ),
                "M55 28 L46 41 M38 56 H62",
            ),
            Figure::Queen => (
                concat!(
                    "M14 22 A5 5 0 1 1 13.99 22 Z M32 14 A5 5 0 1 1 31.99 14 Z M50 10 A5 5 0 1 1 49.99 10 Z ",
                    "M68 14 A5 5 0 1 1 67.99 14 Z M86 22 A5 5 0 1 1 85.99 22 Z ",
                    "M16 27 L34 46 L32 19 L44 42 L50 15 L56 42 L68 19 L66 46 L84 27 L72 60 H28 Z ",
                    "M28 60 H72 L69 68 H31 Z ",
                    "M32 68 H68 C68 73 71 77 74 80 H26 C29 77 32 73 32 68 Z ",
                    "M23 88 Q23 80 31 80 H69 Q77 80 77 88 Z"
                ),
                "M29 60 H71 M32 68 H68",
            ),
            Figure::King => (
                concat!(
                    "M46.5 4 H53.5 V11 H60 V18 H53.5 V27 H46.5 V18 H40 V11 H46.5 Z ",
                    "M50 36 C56 26 76 24 80 38 C84 50 72 58 68 62 H32 C28 58 16 50 20 38 C24 24 44 26 50 36 Z ",
                    "M32 62 H68 L66 69 H34 Z ",
                    "M34 69 H66 C66 74 70 78 74 80 H26 C30 78 34 74 34 69 Z ",
                    "M23 88 Q23 80 31 80 H69 Q77 80 77 88 Z"
                ),
                "M50 36 V60 M33 62 H67 M35 69 H65",
            ),
            Figure::Knight => (
                concat!(
                    "M30 80 C30 66 36 60 44 52 C40 53 32 56 26 57 C19 58 13 53 15 47 C17 42 24 38 29 32 ",
                    "C33 27 36 22 39 18 L37 8 L45 14 L50 7 L54 16 C68 21 78 36 76 56 C75 66 72 74 72 80 Z ",
                    "M23 88 Q23 80 31 80 H69 Q77 80 77 88 Z"
                ),
                "M37 28 A2.6 2.6 0 1 1 36.99 28 Z M20 50 L24 49 M55 20 C64 28 69 40 68 54",
            ),
        }
    }
}

/// The colours of pieces: white, black, red, blue, green, gold (fill, outline, detail).
const PALETTE: [(&str, (&str, &str, &str)); 6] = [
    ("white", ("#fbfbf8", "#1c1c1c", "#1c1c1c")),
    ("black", ("#262626", "#0a0a0a", "#e8e8e8")),
    ("red", ("#d64545", "#5a1010", "#ffe3e3")),
    ("blue", ("#3b6fd6", "#102a5a", "#e3ecff")),
    ("green", ("#3aa657", "#0f3d1c", "#e3ffe9")),
    ("gold", ("#c08a2a", "#4a3208", "#fff3d6")),
];

/// Fill, outline and detail colours of the pieces of side number `side`, named `name`: the colour
/// the name says when it is one of the palette's (a side `red` is red wherever it is declared),
/// else the palette's colour in declaration order.
pub fn side_colours(side: usize, name: &str) -> (&'static str, &'static str, &'static str) {
    let named = PALETTE.iter().find(|(n, _)| n.eq_ignore_ascii_case(name) || (*n == "gold" && name.eq_ignore_ascii_case("yellow")));
    named.map_or(PALETTE[side.min(PALETTE.len() - 1)].1, |(_, c)| *c)
}

/// The `<g>` (in a 100 × 100 box) for a piece of `side`: a figure when the name is a usual one, a
/// disc with the symbol otherwise.
/// A crown drawn over a piece that carries a royal piece (crowning, `crowns`).
pub const CROWN: &str = "<path d=\"M30 20 L27 2 L40 12 L50 0 L60 12 L73 2 L70 20 Z\" fill=\"#e8b923\" stroke=\"#5a4000\" stroke-width=\"2.4\" stroke-linejoin=\"round\"/>";

pub fn glyph(name: &str, symbol: char, side: usize, side_name: &str) -> String {
    let (fill, outline, detail) = side_colours(side, side_name);
    match Figure::of_name(name) {
        Some(f) => {
            let (body, lines) = f.shapes();
            format!(
                "<g stroke-linejoin=\"round\" stroke-linecap=\"round\"><path d=\"{body}\" fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"3.2\"/><path d=\"{lines}\" fill=\"none\" stroke=\"{detail}\" stroke-width=\"2.6\"/></g>"
            )
        }
        None => format!(
            "<g><circle cx=\"50\" cy=\"52\" r=\"34\" fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"3.2\"/><circle cx=\"50\" cy=\"52\" r=\"28\" fill=\"none\" stroke=\"{detail}\" stroke-width=\"1.6\" opacity=\"0.6\"/><text x=\"50\" y=\"52\" dy=\"0.35em\" text-anchor=\"middle\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-weight=\"bold\" font-size=\"36\" fill=\"{detail}\">{}</text></g>",
            crate::svg::escape(&symbol.to_string())
        ),
    }
}
