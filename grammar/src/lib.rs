//! The orbis variant language: a pest grammar (`orbis.pest`) and a typed AST with spans.
//!
//! [`parse`] turns source text into an [`ast::File`] or syntax errors. pest stops at the first
//! syntax error, so a failed parse reports exactly one [`SyntaxError`]; the semantic checks of the
//! compiler, which run on a successful parse, report as many errors as they find.
//!
//! Parsing never panics: nesting depth is bounded before pest runs (pest recurses on parentheses),
//! and the AST builder reports a grammar/AST mismatch as an error instead of unwrapping.

pub mod ast;
mod errors;
mod pieces;

use ast::*;
use errors::convert_error;
use pieces::build_piece;
use pest::iterators::Pair;
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "orbis.pest"]
struct OrbisParser;

/// Deepest parenthesis nesting accepted in seam expressions; deeper input is rejected before pest
/// recurses into it.
const MAX_NESTING: usize = 64;

/// Longest chain of operators in one expression; the expression tree is as deep as the chain and
/// later stages walk it recursively.
const MAX_EXPR_DEPTH: usize = 256;

/// A syntax error: where and what, in words (never pest rule names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// Parses a variant file.
pub fn parse(source: &str) -> Result<File, Vec<SyntaxError>> {
    parse_at(source, 0)
}

/// Parses a file whose spans start at `base`: a compiler reading several files gives each its own
/// range of offsets, so a span alone says which file it points into.
pub fn parse_at(source: &str, base: usize) -> Result<File, Vec<SyntaxError>> {
    let shift = |mut e: SyntaxError| {
        e.span = Span::new(e.span.start + base, e.span.end + base);
        vec![e]
    };
    check_nesting(source).map_err(shift)?;
    let mut pairs = OrbisParser::parse(Rule::file, source).map_err(|e| shift(convert_error(source, e)))?;
    let file = pairs.next().ok_or_else(|| shift(internal(Span::new(0, 0))))?;
    BASE.with(|b| b.set(base));
    let built = build_file(file);
    BASE.with(|b| b.set(0));
    built.map_err(|e| vec![e])
}

/// Rejects parentheses nested deeper than [`MAX_NESTING`] (comments and strings excluded).
fn check_nesting(source: &str) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut in_string = false;
    for (i, c) in source.char_indices() {
        match c {
            '\n' => {
                in_comment = false;
                in_string = false;
            }
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => in_comment = true,
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(SyntaxError {
                        span: Span::new(i, i + 1),
                        message: format!("parentheses nested more than {MAX_NESTING} deep"),
                    });
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn internal(span: Span) -> SyntaxError {
    SyntaxError { span, message: "internal error: the parser and the syntax tree disagree".to_string() }
}

// ---------------------------------------------------------------- AST building

/// The pair's span without trailing whitespace and comments: pest leaves the whitespace skipped
/// before a failed optional part inside the rule, so the end is taken from the last child.
fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let mut end = s.end();
    let mut last = pair.clone().into_inner().last();
    while let Some(child) = last {
        end = child.as_span().end();
        if child.as_rule() == Rule::string {
            // Its last child is the text inside the quotes; the closing quote is part of it.
            break;
        }
        last = child.into_inner().last();
    }
    let base = BASE.with(|b| b.get());
    Span::new(base + s.start(), base + end)
}

thread_local! {
    /// The offset added to every span of the parse under way (see [`parse_at`]).
    static BASE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn name_of(pair: &Pair<Rule>) -> Name {
    if pair.as_rule() == Rule::cell_range {
        // A rectangle of cells travels as one name, `A..B` (see `Name::range`).
        let ends: Vec<String> = pair.clone().into_inner().filter(|p| p.as_rule() == Rule::ident).map(|p| p.as_str().to_string()).collect();
        return Name { text: ends.join(".."), span: span_of(pair) };
    }
    Name { text: pair.as_str().to_string(), span: span_of(pair) }
}

fn is_punctuation(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::lbrace | Rule::rbrace | Rule::lparen | Rule::rparen | Rule::comma | Rule::colon | Rule::equals | Rule::arrow | Rule::dots
    )
}

/// Keywords and punctuation: structure the builder does not need to see.
fn is_keyword(rule: Rule) -> bool {
    is_punctuation(rule) || matches!(
        rule,
        Rule::kw_variant
            | Rule::kw_captured_as
            | Rule::kw_drop
            | Rule::kw_drops
            | Rule::kw_pass
            | Rule::kw_facing
            | Rule::kw_from_or_to
            | Rule::kw_one_per_file
            | Rule::kw_no_mate
            | Rule::kw_arrange
            | Rule::kw_reach
            | Rule::kw_captured
            | Rule::kw_optional
            | Rule::kw_check_limit
            | Rule::kw_extinction
            | Rule::kw_between
            | Rule::kw_betza
            | Rule::kw_as
            | Rule::kw_library
            | Rule::kw_include
            | Rule::kw_for
            | Rule::kw_avoid
            | Rule::kw_board
            | Rule::kw_piece
            | Rule::kw_side
            | Rule::kw_rules
            | Rule::kw_grid
            | Rule::kw_files
            | Rule::kw_ranks
            | Rule::kw_wrap
            | Rule::kw_headings
            | Rule::kw_group
            | Rule::kw_seam
            | Rule::kw_when
            | Rule::kw_to
            | Rule::kw_heading
            | Rule::kw_same
            | Rule::kw_cells
            | Rule::kw_link
            | Rule::kw_transit
            | Rule::kw_polygon
            | Rule::kw_mesh
            | Rule::kw_face
            | Rule::kw_box
            | Rule::kw_web
            | Rule::kw_order
            | Rule::kw_identify
            | Rule::kw_direction
            | Rule::kw_away
            | Rule::kw_farthest
            | Rule::kw_toward
            | Rule::kw_nearest
            | Rule::kw_from
            | Rule::kw_by
            | Rule::kw_zone
            | Rule::kw_lines
            | Rule::kw_sides
            | Rule::kw_around
            | Rule::kw_ring
            | Rule::kw_through
            | Rule::kw_royal
            | Rule::kw_resets
            | Rule::kw_then
            | Rule::kw_step
            | Rule::kw_slide
            | Rule::kw_straight
            | Rule::kw_turn
            | Rule::kw_forward
            | Rule::kw_setup
            | Rule::kw_promote
            | Rule::kw_on
            | Rule::kw_rank
            | Rule::kw_file
            | Rule::kw_castle
            | Rule::kw_king
            | Rule::kw_rook
            | Rule::kw_empty
            | Rule::kw_safe
            | Rule::kw_fen
            | Rule::kw_stalemate
            | Rule::kw_stationary
            | Rule::kw_fifty
            | Rule::kw_repetition
            | Rule::kw_team
            | Rule::kw_game_end
            | Rule::kw_eliminated
            | Rule::kw_and
            | Rule::kw_or
            | Rule::kw_not
            | Rule::kw_mod
            | Rule::kw_cannot_check
            | Rule::kw_crowns
            | Rule::kw_bending
            | Rule::kw_distance
            | Rule::kw_onto
            | Rule::kw_atop
            | Rule::kw_hand
            | Rule::kw_bare
            | Rule::kw_royal_path
            | Rule::kw_wind
            | Rule::kw_within
            | Rule::kw_next
            | Rule::kw_over
            | Rule::kw_takes
    )
}

/// The children of a pair without keywords, taken in order; a missing child is an internal error.
struct Children<'i> {
    span: Span,
    pairs: std::iter::Peekable<std::vec::IntoIter<Pair<'i, Rule>>>,
}

impl<'i> Children<'i> {
    fn of(pair: Pair<'i, Rule>) -> Children<'i> {
        let span = span_of(&pair);
        let pairs: Vec<_> = pair.into_inner().filter(|p| !is_keyword(p.as_rule())).collect();
        Children { span, pairs: pairs.into_iter().peekable() }
    }

    fn next(&mut self) -> Result<Pair<'i, Rule>, SyntaxError> {
        self.pairs.next().ok_or_else(|| internal(self.span))
    }

    fn name(&mut self) -> Result<Name, SyntaxError> {
        self.next().map(|p| name_of(&p))
    }

    /// Takes the next child if it has this rule.
    fn next_if(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        self.pairs.next_if(|p| p.as_rule() == rule)
    }

    fn rest(self) -> impl Iterator<Item = Pair<'i, Rule>> {
        self.pairs
    }
}

fn int_of(pair: &Pair<Rule>) -> Result<Int, SyntaxError> {
    let span = span_of(pair);
    pair.as_str()
        .parse::<i64>()
        .map(|value| Int { value, span })
        .map_err(|_| SyntaxError { span, message: format!("the number `{}` is too large", pair.as_str()) })
}

fn build_file(pair: Pair<Rule>) -> Result<File, SyntaxError> {
    let mut children = Children::of(pair);
    let decl = children.next()?;
    let library = decl.as_rule() == Rule::library_decl;
    let variant_span = span_of(&decl);
    let mut decl_children = Children::of(decl);
    let string = decl_children.next()?;
    let body = Children::of(string).next()?;
    let variant = name_of(&body);
    let mut items = Vec::new();
    let mut includes = Vec::new();
    for item in children.rest() {
        match item.as_rule() {
            Rule::include => {
                let mut c = Children::of(item);
                let string = c.next()?;
                let path = name_of(&Children::of(string).next()?);
                let only = match c.rest().next() {
                    Some(list) => Some(
                        Children::of(list)
                            .rest()
                            .map(|piece| {
                                let mut pc = Children::of(piece);
                                let name = pc.name()?;
                                let symbol = pc.rest().next().map(|p| name_of(&p));
                                Ok(IncludePiece { name, symbol })
                            })
                            .collect::<Result<Vec<_>, SyntaxError>>()?,
                    ),
                    None => None,
                };
                includes.push(Include { path, only });
            }
            Rule::board => items.push(Item::Board(build_board(item)?)),
            Rule::piece => items.push(Item::Piece(build_piece(item)?)),
            Rule::side => items.push(Item::Side(build_side(item)?)),
            Rule::rules => items.push(Item::Rules(build_rules(item)?)),
            Rule::EOI => {}
            _ => return Err(internal(span_of(&item))),
        }
    }
    Ok(File { variant, variant_span, library, includes, items })
}

fn build_board(pair: Pair<Rule>) -> Result<Board, SyntaxError> {
    let span = span_of(&pair);
    let keyword = pair
        .clone()
        .into_inner()
        .next()
        .map_or(Span::new(span.start, span.start), |k| span_of(&k));
    let mut statements = Vec::new();
    for stmt in Children::of(pair).rest() {
        let stmt_span = span_of(&stmt);
        statements.push(match stmt.as_rule() {
            Rule::grid => {
                let mut c = Children::of(stmt);
                let files = build_labels(c.next()?)?;
                let ranks = build_labels(c.next()?)?;
                BoardStmt::Grid(Grid { span: stmt_span, files, ranks })
            }
            Rule::wrap => BoardStmt::Wrap(stmt_span),
            Rule::headings => {
                let mut headings = Vec::new();
                let mut children = Children::of(stmt);
                let ring = children.next_if(Rule::ident).map(|p| name_of(&p));
                for decl in children.rest() {
                    let decl_span = span_of(&decl);
                    let mut c = Children::of(decl);
                    let name = c.name()?;
                    let vector = match c.next_if(Rule::vector) {
                        Some(v) => {
                            let vspan = span_of(&v);
                            let mut vc = Children::of(v);
                            let dx = int_of(&vc.next()?)?;
                            let dy = int_of(&vc.next()?)?;
                            Some(Vector { span: vspan, dx, dy })
                        }
                        None => None,
                    };
                    headings.push(HeadingDecl { span: decl_span, name, vector });
                }
                BoardStmt::Headings(Headings { span: stmt_span, ring, headings })
            }
            Rule::group => {
                let mut c = Children::of(stmt);
                let name = c.name()?;
                let members = c.rest().map(|p| name_of(&p)).collect();
                BoardStmt::Group(Group { span: stmt_span, name, members })
            }
            Rule::seam => {
                let mut c = Children::of(stmt);
                let name = c.name()?;
                let pieces = match c.next_if(Rule::seam_for) {
                    Some(f) => Children::of(f).rest().map(|p| name_of(&p)).collect(),
                    None => Vec::new(),
                };
                let when = build_expr(c.next()?, 0)?;
                let to = build_pair(c.next()?)?;
                let heading_pair = c.next()?;
                let heading = match heading_pair.as_rule() {
                    Rule::same => SeamHeading::Same(span_of(&heading_pair)),
                    _ => SeamHeading::Vector(build_pair(heading_pair)?),
                };
                BoardStmt::Seam(Seam { span: stmt_span, name, pieces, when, to, heading })
            }
            Rule::identify => {
                let mut c = Children::of(stmt);
                let name = c.name()?;
                let when = build_expr(c.next()?, 0)?;
                let to = build_pair(c.next()?)?;
                let heading_pair = c.next()?;
                let heading = match heading_pair.as_rule() {
                    Rule::same => SeamHeading::Same(span_of(&heading_pair)),
                    _ => SeamHeading::Vector(build_pair(heading_pair)?),
                };
                BoardStmt::Identify(Seam { span: stmt_span, name, pieces: Vec::new(), when, to, heading })
            }
            Rule::cells_decl => {
                let cells = Children::of(stmt).rest().map(|p| name_of(&p)).collect();
                BoardStmt::Cells(CellsDecl { span: stmt_span, cells })
            }
            Rule::link => {
                let mut parts = Vec::new();
                for part in Children::of(stmt).rest() {
                    let inner = Children::of(part).next()?;
                    parts.push(match inner.as_rule() {
                        Rule::dir_set => (span_of(&inner), Children::of(inner).rest().map(|p| name_of(&p)).collect::<Vec<_>>(), true),
                        _ => (span_of(&inner), vec![name_of(&inner)], false),
                    });
                }
                let lists: Vec<&(Span, Vec<Name>, bool)> = parts.iter().filter(|p| p.2).collect();
                let n = lists.first().map_or(1, |l| l.1.len());
                if let Some(bad) = lists.iter().find(|l| l.1.len() != n) {
                    return Err(SyntaxError {
                        span: bad.0,
                        message: format!("the lists of a `link` must be equally long: this one has {}, the first {n}", bad.1.len()),
                    });
                }
                if parts.len() != 4 {
                    return Err(internal(stmt_span));
                }
                let pick = |k: usize, i: usize| -> Name {
                    let (_, names, list) = &parts[k];
                    if *list { names[i].clone() } else { names[0].clone() }
                };
                for i in 0..n {
                    statements.push(BoardStmt::Link(Link {
                        span: stmt_span,
                        from: pick(0, i),
                        from_heading: pick(1, i),
                        to: pick(2, i),
                        to_heading: pick(3, i),
                    }));
                }
                continue;
            }
            Rule::transit => {
                let cells = Children::of(stmt).rest().map(|p| name_of(&p)).collect();
                BoardStmt::Transit(CellsDecl { span: stmt_span, cells })
            }
            Rule::polygon => {
                let mut c = Children::of(stmt);
                let name = c.name()?;
                let sides = c.rest().map(|p| (p.as_rule() != Rule::border_side).then(|| name_of(&p))).collect();
                BoardStmt::Polygon(Polygon { span: stmt_span, name, sides })
            }
            Rule::mesh => {
                let inner = Children::of(stmt).next()?;
                let source = match inner.as_rule() {
                    Rule::mesh_file => {
                        let mut c = Children::of(inner);
                        let path = name_of(&Children::of(c.next()?).next()?);
                        MeshSource::File { path, names: c.rest().map(|p| name_of(&p)).collect() }
                    }
                    _ => {
                        let mut faces = Vec::new();
                        for face in Children::of(inner).rest() {
                            let span = span_of(&face);
                            let mut c = Children::of(face);
                            let name = c.name()?;
                            faces.push(MeshFace { span, name, vertices: c.rest().map(|p| name_of(&p)).collect() });
                        }
                        MeshSource::Inline(faces)
                    }
                };
                BoardStmt::Mesh(Mesh { span: stmt_span, source })
            }
            Rule::web => {
                let mut order = Vec::new();
                let mut faces = Vec::new();
                for part in Children::of(stmt).rest() {
                    match part.as_rule() {
                        Rule::web_order => order = Children::of(part).rest().map(|p| name_of(&p)).collect(),
                        _ => {
                            let span = span_of(&part);
                            let mut c = Children::of(part);
                            let label = name_of(&Children::of(c.next()?).next()?);
                            faces.push(WebFace { span, label, vertices: c.rest().map(|p| name_of(&p)).collect() });
                        }
                    }
                }
                BoardStmt::Web(Web { span: stmt_span, order, faces })
            }
            Rule::box_surface => {
                let mut c = Children::of(stmt);
                let sizes = [int_of(&c.next()?)?, int_of(&c.next()?)?, int_of(&c.next()?)?];
                BoardStmt::Box(BoxSurface { span: stmt_span, sizes })
            }
            _ => return Err(internal(stmt_span)),
        });
    }
    Ok(Board { span, keyword, statements })
}

fn build_labels(pair: Pair<Rule>) -> Result<Labels, SyntaxError> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::label_range => {
            let mut c = Children::of(pair);
            Ok(Labels::Range { from: c.name()?, to: c.name()?, span })
        }
        Rule::label_list => Ok(Labels::List(Children::of(pair).rest().map(|p| name_of(&p)).collect())),
        _ => Err(internal(span)),
    }
}

fn build_pair(pair: Pair<Rule>) -> Result<ExprPair, SyntaxError> {
    let span = span_of(&pair);
    let mut c = Children::of(pair);
    let x = build_expr(c.next()?, 0)?;
    let y = build_expr(c.next()?, 0)?;
    Ok(ExprPair { span, x, y })
}

fn too_deep(span: Span) -> SyntaxError {
    SyntaxError { span, message: format!("expression is too long or too deeply nested (more than {MAX_EXPR_DEPTH} levels)") }
}

/// Builds an expression from any of the precedence levels; `depth` bounds the tree's depth.
fn build_expr(pair: Pair<Rule>, depth: usize) -> Result<Expr, SyntaxError> {
    let span = span_of(&pair);
    if depth > MAX_EXPR_DEPTH {
        return Err(too_deep(span));
    }
    match pair.as_rule() {
        Rule::expr => build_expr(Children::of(pair).next()?, depth + 1),
        Rule::or_expr | Rule::and_expr | Rule::cmp_expr | Rule::sum | Rule::product => {
            let op_of_keyword = match pair.as_rule() {
                Rule::or_expr => Some(BinOp::Or),
                Rule::and_expr => Some(BinOp::And),
                _ => None,
            };
            // Keywords (`and`, `or`) are the operators of these levels, so keep them here.
            let mut inner = pair.into_inner().filter(|p| !is_punctuation(p.as_rule()));
            let first = inner.next().ok_or_else(|| internal(span))?;
            let mut acc = build_expr(first, depth + 1)?;
            let mut chain = 0usize;
            while let Some(op_pair) = inner.next() {
                let op = match op_of_keyword {
                    Some(op) => op,
                    None => binop_of(&op_pair)?,
                };
                let rhs = build_expr(inner.next().ok_or_else(|| internal(span))?, depth + 1)?;
                chain += 1;
                if depth + chain > MAX_EXPR_DEPTH {
                    return Err(too_deep(span));
                }
                let s = Span::new(acc.span.start, rhs.span.end);
                acc = Expr { span: s, kind: ExprKind::Binary(op, Box::new(acc), Box::new(rhs)) };
            }
            Ok(acc)
        }
        Rule::not_expr => {
            let parts: Vec<_> = pair.into_inner().filter(|p| !is_punctuation(p.as_rule())).collect();
            let (last, nots) = parts.split_last().ok_or_else(|| internal(span))?;
            if nots.len() + depth > MAX_EXPR_DEPTH {
                return Err(too_deep(span));
            }
            let mut e = build_expr(last.clone(), depth + 1)?;
            for not in nots.iter().rev() {
                e = Expr { span: Span::new(span_of(not).start, e.span.end), kind: ExprKind::Not(Box::new(e)) };
            }
            Ok(e)
        }
        Rule::unary => {
            let parts: Vec<_> = pair.into_inner().filter(|p| !is_punctuation(p.as_rule())).collect();
            let (last, negs) = parts.split_last().ok_or_else(|| internal(span))?;
            if negs.len() + depth > MAX_EXPR_DEPTH {
                return Err(too_deep(span));
            }
            let mut e = build_expr(last.clone(), depth + 1)?;
            for neg in negs.iter().rev() {
                e = Expr { span: Span::new(span_of(neg).start, e.span.end), kind: ExprKind::Neg(Box::new(e)) };
            }
            Ok(e)
        }
        Rule::number => Ok(Expr { span, kind: ExprKind::Int(int_of(&pair)?.value) }),
        Rule::variable => Ok(Expr { span, kind: ExprKind::Var(pair.as_str().to_string()) }),
        _ => Err(internal(span)),
    }
}

fn binop_of(pair: &Pair<Rule>) -> Result<BinOp, SyntaxError> {
    Ok(match pair.as_str() {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "mod" => BinOp::Mod,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        _ => return Err(internal(span_of(pair))),
    })
}

fn build_side(pair: Pair<Rule>) -> Result<Side, SyntaxError> {
    let span = span_of(&pair);
    let mut c = Children::of(pair);
    let name = c.name()?;
    let mut statements = Vec::new();
    for stmt in c.rest() {
        let sspan = span_of(&stmt);
        statements.push(match stmt.as_rule() {
            Rule::forward => SideStmt::Forward { span: sspan, spec: build_direction_spec(Children::of(stmt).next()?)? },
            Rule::direction => {
                let mut c = Children::of(stmt);
                let name = c.name()?;
                SideStmt::Direction { span: sspan, name, spec: build_direction_spec(c.next()?)? }
            }
            Rule::zone_decl => {
                let mut c = Children::of(stmt);
                let name = c.name()?;
                SideStmt::Zone { span: sspan, name, zone: build_zone(c.next()?)? }
            }
            Rule::setup => SideStmt::Setup(build_setup(stmt)?),
            Rule::atop => SideStmt::Atop(build_setup(stmt)?),
            Rule::arrange => {
                let mut cells = Vec::new();
                let mut steps = Vec::new();
                for p in Children::of(stmt).rest() {
                    if p.as_rule() != Rule::arrange_step {
                        cells.push(name_of(&p));
                        continue;
                    }
                    let step_span = span_of(&p);
                    let mut pieces = Vec::new();
                    let mut on = None;
                    for q in Children::of(p).rest() {
                        match q.as_rule() {
                            Rule::dir_set => on = Some(Children::of(q).rest().map(|c| name_of(&c)).collect()),
                            _ => pieces.push(name_of(&q)),
                        }
                    }
                    steps.push(ArrangeStep { span: step_span, pieces, on });
                }
                SideStmt::Arrange(Arrange { span: sspan, cells, steps })
            }
            Rule::hand => SideStmt::Hand {
                span: sspan,
                symbols: Children::of(stmt).rest().map(|p| name_of(&p)).collect(),
            },
            Rule::promote => {
                let mut pc = Children::of(stmt);
                let piece = pc.name()?;
                let mut choices = Vec::new();
                let mut zone = None;
                let (mut captured, mut optional, mut from_or_to) = (false, false, false);
                for p in pc.rest() {
                    match p.as_rule() {
                        Rule::ident => choices.push(name_of(&p)),
                        Rule::captured => captured = true,
                        Rule::optional => optional = true,
                        Rule::from_or_to => from_or_to = true,
                        _ => zone = Some(build_zone(p)?),
                    }
                }
                let zone = zone.ok_or_else(|| internal(sspan))?;
                SideStmt::Promote(Promote { span: sspan, piece, choices, zone, captured, optional, from_or_to })
            }
            Rule::drop_rule => {
                let mut rule = DropRule { span: sspan, pieces: Vec::new(), not_on: Vec::new(), one_per_file: None, no_mate: None };
                for p in Children::of(stmt).rest() {
                    match p.as_rule() {
                        Rule::ident => rule.pieces.push(name_of(&p)),
                        Rule::drop_not_on => rule.not_on.push(build_zone(Children::of(p).next()?)?),
                        Rule::one_per_file => rule.one_per_file = Some(span_of(&p)),
                        Rule::no_mate => rule.no_mate = Some(span_of(&p)),
                        _ => return Err(internal(span_of(&p))),
                    }
                }
                SideStmt::Drop(rule)
            }
            Rule::castle => {
                let mut cc = Children::of(stmt);
                let cname = cc.name()?;
                let mut fields = Vec::new();
                for f in cc.rest() {
                    let fspan = span_of(&f);
                    fields.push(match f.as_rule() {
                        Rule::castle_king => {
                            let names: Vec<Name> = Children::of(f).rest().map(|p| name_of(&p)).collect();
                            let (from, to) = match names.as_slice() {
                                [to] => (None, to.clone()),
                                [from, to] => (Some(from.clone()), to.clone()),
                                _ => return Err(internal(fspan)),
                            };
                            CastleField::King { span: fspan, from, to }
                        }
                        Rule::castle_rook => {
                            let mut fc = Children::of(f);
                            let first = fc.next()?;
                            let (from, pick) = if first.as_rule() == Rule::castle_pick {
                                let mut pc = Children::of(first);
                                let symbol = pc.name()?;
                                let pick = if pc.next()?.as_str() == "last" { Pick::Last } else { Pick::First };
                                (symbol, Some(pick))
                            } else {
                                (name_of(&first), None)
                            };
                            CastleField::Rook { span: fspan, from, pick, to: fc.name()? }
                        }
                        Rule::castle_empty | Rule::castle_safe => {
                            let items: Vec<Pair<Rule>> = Children::of(f.clone()).rest().collect();
                            let between = items.iter().any(|p| p.as_rule() == Rule::between);
                            let cells = items.iter().filter(|p| p.as_rule() != Rule::between).map(name_of).collect();
                            if f.as_rule() == Rule::castle_empty {
                                CastleField::Empty { span: fspan, cells, between }
                            } else {
                                CastleField::Safe { span: fspan, cells, between }
                            }
                        }
                        Rule::castle_fen => CastleField::Fen { span: fspan, letter: Children::of(f).name()? },
                        _ => return Err(internal(fspan)),
                    });
                }
                SideStmt::Castle(Castle { span: sspan, name: cname, fields })
            }
            Rule::team => SideStmt::Team { span: sspan, name: Children::of(stmt).name()? },
            Rule::reach => {
                let mut c = Children::of(stmt);
                let piece = c.name()?;
                SideStmt::Reach { span: sspan, piece, zone: build_zone(c.next()?)? }
            }
            _ => return Err(internal(sspan)),
        });
    }
    Ok(Side { span, name, statements })
}

/// A `setup` or `atop` block: piece symbols, each followed by its cells.
fn build_setup(stmt: Pair<Rule>) -> Result<Setup, SyntaxError> {
    let span = span_of(&stmt);
    let mut groups = Vec::new();
    for group in Children::of(stmt).rest() {
        let mut gc = Children::of(group);
        let symbol = gc.name()?;
        let cells = gc.rest().map(|p| name_of(&p)).collect();
        groups.push(SetupGroup { symbol, cells });
    }
    Ok(Setup { span, groups })
}

/// A zone form (`rank`, `file`, `cells`, `lines`) or the name of a side's zone.
fn build_zone(p: Pair<Rule>) -> Result<Zone, SyntaxError> {
    let span = span_of(&p);
    Ok(match p.as_rule() {
        Rule::zone_rank | Rule::zone_file => {
            let is_rank = p.as_rule() == Rule::zone_rank;
            let mut c = Children::of(p);
            let first = c.name()?;
            let to = c.rest().next().map(|q| name_of(&q));
            if is_rank {
                Zone::Rank { span, rank: first, to }
            } else {
                Zone::File { span, file: first, to }
            }
        }
        Rule::zone_cells => Zone::Cells { span, cells: Children::of(p).rest().map(|q| name_of(&q)).collect() },
        Rule::zone_lines => {
            let mut c = Children::of(p);
            let dirs = build_dir_set(c.next()?);
            let through = c.name()?;
            Zone::Lines { span, dirs, through }
        }
        Rule::zone_name => Zone::Named { span, name: Children::of(p).name()? },
        Rule::zone_sides => Zone::Sides { span, count: int_of(&Children::of(p).next()?)? },
        Rule::zone_around => Zone::Around { span, cell: Children::of(p).name()? },
        Rule::zone_ring => Zone::Ring { span, cell: Children::of(p).name()? },
        Rule::zone_border => Zone::Border { span, inner: false },
        Rule::zone_inner => Zone::Border { span, inner: true },
        _ => return Err(internal(span)),
    })
}

/// A heading, group or `{ ... }` set.
fn build_dir_set(p: Pair<Rule>) -> DirSet {
    match p.as_rule() {
        Rule::dir_set => DirSet::Set { span: span_of(&p), names: Children::of(p).rest().map(|q| name_of(&q)).collect() },
        _ => DirSet::Name(name_of(&p)),
    }
}

/// `forward`'s or a `direction`'s meaning: a heading, or a derived per-cell set.
fn build_direction_spec(p: Pair<Rule>) -> Result<DirectionSpec, SyntaxError> {
    let span = span_of(&p);
    match p.as_rule() {
        Rule::ident | Rule::dir_set => Ok(DirectionSpec::Fixed(build_dir_set(p))),
        Rule::derived_dirs => {
            let mut c = Children::of(p);
            let candidates = build_dir_set(c.next()?);
            let rule = c.next()?;
            let mode = match rule.as_rule() {
                Rule::away => Derivation::Away,
                Rule::farthest => Derivation::Farthest,
                Rule::toward => Derivation::Toward,
                _ => Derivation::Nearest,
            };
            let mode_span = span_of(&rule);
            let place = c.next()?;
            let from = match place.as_rule() {
                Rule::ident => Zone::Named { span: span_of(&place), name: name_of(&place) },
                _ => build_zone(place)?,
            };
            let by = c.rest().next().map(build_dir_set);
            Ok(DirectionSpec::Derived(DerivedDirs { span, candidates, mode, mode_span, from, by }))
        }
        _ => Err(internal(span)),
    }
}

fn build_rules(pair: Pair<Rule>) -> Result<Rules, SyntaxError> {
    let span = span_of(&pair);
    let mut settings = Vec::new();
    let mut extinction = Vec::new();
    let mut facing = None;
    for s in Children::of(pair).rest() {
        let sspan = span_of(&s);
        let rule = s.as_rule();
        if rule == Rule::drops {
            settings.push(Setting { span: sspan, kind: SettingKind::Drops });
            continue;
        }
        if rule == Rule::pass {
            settings.push(Setting { span: sspan, kind: SettingKind::Pass });
            continue;
        }
        if rule == Rule::facing {
            let group = Children::of(s).next()?;
            facing = Some(name_of(&group));
            settings.push(Setting { span: sspan, kind: SettingKind::Facing });
            continue;
        }
        if rule == Rule::extinction {
            extinction.extend(Children::of(s).rest().map(|p| name_of(&p)));
            settings.push(Setting { span: sspan, kind: SettingKind::Extinction });
            continue;
        }
        let counting = s.clone().into_inner().any(|p| p.as_rule() == Rule::counting_move);
        let value = Children::of(s).next()?;
        let kind = match rule {
            Rule::stalemate => SettingKind::Stalemate(match value.as_str() {
                "draw" => Outcome::Draw,
                "win" => Outcome::Win,
                "loss" => Outcome::Loss,
                _ => return Err(internal(sspan)),
            }),
            Rule::stationary => SettingKind::StationaryMoves { allowed: value.as_str() == "allowed" },
            Rule::fifty => SettingKind::FiftyMove(int_of(&value)?),
            Rule::repetition => SettingKind::Repetition(int_of(&value)?),
            Rule::game_end => SettingKind::GameEnd(match value.as_str() {
                "last-standing" => GameEnd::LastStanding,
                "first-mate" => GameEnd::FirstMate,
                _ => return Err(internal(sspan)),
            }),
            Rule::eliminated => SettingKind::Eliminated(match value.as_str() {
                "remove" => Eliminated::Remove,
                "stay" => Eliminated::Stay,
                _ => return Err(internal(sspan)),
            }),
            Rule::bare => SettingKind::Bare(
                match value.as_str() {
                    "draw" => Some(Outcome::Draw),
                    "win" => Some(Outcome::Win),
                    "loss" => Some(Outcome::Loss),
                    "ignored" => None,
                    _ => return Err(internal(sspan)),
                },
                counting,
            ),
            Rule::royal_path => SettingKind::RoyalPath {
                unattacked: value.as_str() == "unattacked",
            },
            Rule::setup_number => SettingKind::Setup(int_of(&value)?),
            Rule::check_limit => SettingKind::CheckLimit(int_of(&value)?),
            _ => return Err(internal(sspan)),
        };
        settings.push(Setting { span: sspan, kind });
    }
    Ok(Rules { span, settings, extinction, facing })
}

#[cfg(test)]
mod tests;
