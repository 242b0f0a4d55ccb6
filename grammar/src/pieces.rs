//! Pieces: their flags and rules (modifiers, legs, turns, kind filters) from pest pairs into the
//! AST.

use super::*;

pub(crate) fn build_piece(pair: Pair<Rule>) -> Result<Piece, SyntaxError> {
    let span = span_of(&pair);
    let mut c = Children::of(pair);
    let name = c.name()?;
    let symbol = c.name()?;
    let mut royal = None;
    let mut resets_clock = None;
    let mut cannot_check = None;
    let mut crowns = Vec::new();
    let mut rules = Vec::new();
    let (mut captured_as, mut fen) = (None, None);
    for child in c.rest() {
        let child_span = span_of(&child);
        match child.as_rule() {
            Rule::royal => royal = Some(child_span),
            Rule::resets_clock => resets_clock = Some(child_span),
            Rule::cannot_check => cannot_check = Some(child_span),
            Rule::crowns => crowns.push(Crowns {
                span: child_span,
                carriers: Children::of(child).rest().map(|p| name_of(&p)).collect(),
            }),
            Rule::piece_rule => rules.push(build_rule(child)?),
            Rule::captured_as => captured_as = Some(Box::new(Children::of(child).name()?)),
            Rule::piece_fen => fen = Some(Box::new(name_of(&Children::of(Children::of(child).next()?).next()?))),
            _ => return Err(internal(child_span)),
        }
    }
    Ok(Piece {
        span,
        name,
        symbol,
        royal,
        resets_clock,
        cannot_check,
        crowns,
        captured_as,
        fen,
        rules,
    })
}

fn build_rule(pair: Pair<Rule>) -> Result<Rule_, SyntaxError> {
    let span = span_of(&pair);
    let mut modifiers = Vec::new();
    let mut legs = Vec::new();
    let mut on = None;
    let mut onto = None;
    let (mut over, mut takes) = (None, None);
    for child in Children::of(pair).rest() {
        let child_span = span_of(&child);
        match child.as_rule() {
            Rule::modifier => {
                let kind = match child.as_str() {
                    "move-only" => ModifierKind::MoveOnly,
                    "capture-only" => ModifierKind::CaptureOnly,
                    "initial" => ModifierKind::Initial,
                    "leap" => ModifierKind::Leap,
                    "en-passant-target" => ModifierKind::EnPassantTarget,
                    "en-passant" => ModifierKind::EnPassant,
                    "across-transit" => ModifierKind::AcrossTransit,
                    "ride" => ModifierKind::Ride,
                    _ => return Err(internal(child_span)),
                };
                modifiers.push(Modifier { span: child_span, kind });
            }
            Rule::leg => legs.push(build_leg(child)?),
            Rule::distance_leg => {
                let mut dc = Children::of(child);
                let steps = int_of(&dc.next()?)?;
                let by = dc.rest().next().map(build_dir_set);
                legs.push(whole_rule_leg(child_span, false, LegDirs::Distance { span: child_span, steps, by }));
            }
            Rule::wind_rule => {
                let mut wc = Children::of(child);
                let dirs = build_dir_set(wc.next()?);
                let zone = build_zone(wc.next()?)?;
                legs.push(whole_rule_leg(child_span, true, LegDirs::Wind { span: child_span, dirs, zone }));
            }
            Rule::betza_rule => {
                let string = Children::of(child).next()?;
                let text = name_of(&Children::of(string).next()?);
                legs.push(whole_rule_leg(child_span, false, LegDirs::Betza { span: child_span, text }));
            }
            Rule::rule_onto => onto = Some(build_zone(Children::of(child).next()?)?),
            Rule::rule_over => over = Some(build_kind_filter(Children::of(child).next()?)),
            Rule::rule_takes => takes = Some(build_kind_filter(Children::of(child).next()?)),
            Rule::rule_on => {
                let inner = Children::of(child).next()?;
                let target = match inner.as_rule() {
                    Rule::dir_set => OnTarget::Cells {
                        span: span_of(&inner),
                        cells: Children::of(inner).rest().map(|p| name_of(&p)).collect(),
                    },
                    Rule::ident => OnTarget::Zone(name_of(&inner)),
                    _ => OnTarget::Form(build_zone(inner)?),
                };
                on = Some(RuleOn { span: child_span, target });
            }
            _ => return Err(internal(child_span)),
        }
    }
    Ok(Rule_ {
        span,
        modifiers,
        legs,
        on,
        onto,
        over,
        takes,
    })
}

/// `not C`, `K`: a kind filter of `over` or `takes`.
fn build_kind_filter(pair: Pair<Rule>) -> KindFilter {
    let span = span_of(&pair);
    let mut negated = false;
    let mut kinds = Vec::new();
    for p in Children::of(pair).rest() {
        if p.as_rule() == Rule::negated {
            negated = true;
        } else {
            kinds.push(name_of(&p));
        }
    }
    KindFilter { span, negated, kinds }
}

/// The one leg of a rule form that is a whole rule (`distance`, `wind`, `betza`).
fn whole_rule_leg(span: Span, slides: bool, dirs: LegDirs) -> Leg {
    Leg { span, slides, hop: false, next: None, keyword: span, dirs, bending: None, avoid: Vec::new(), avoid_cells: None }
}

/// The AST's piece rule; named apart from pest's generated `Rule` enum.
type Rule_ = ast::Rule;

fn build_leg(pair: Pair<Rule>) -> Result<Leg, SyntaxError> {
    let span = span_of(&pair);
    let mut c = Children::of(pair);
    let kind = c.next()?;
    let keyword = span_of(&kind);
    let slides = kind.as_str() != "step";
    let is_hop = kind.as_str() == "hop";
    let what = c.next()?;
    let dirs = match what.as_rule() {
        Rule::straight => LegDirs::Straight(span_of(&what)),
        Rule::turn => LegDirs::Turn(build_turn(what)?),
        Rule::dirs => {
            let dspan = span_of(&what);
            let mut dc = Children::of(what);
            let set_pair = dc.next()?;
            let set = match set_pair.as_rule() {
                Rule::dir_set => {
                    let sspan = span_of(&set_pair);
                    DirSet::Set { span: sspan, names: Children::of(set_pair).rest().map(|p| name_of(&p)).collect() }
                }
                _ => DirSet::Name(name_of(&set_pair)),
            };
            let turn = match dc.next_if(Rule::turn) {
                Some(t) => Some(build_turn(t)?),
                None => None,
            };
            LegDirs::Dirs(Dirs { span: dspan, set, turn })
        }
        _ => return Err(internal(span_of(&what))),
    };
    let next = c.next_if(Rule::hop_next).map(|n| span_of(&n));
    let bending = match c.next_if(Rule::bending) {
        Some(b) => {
            let bspan = span_of(&b);
            let mut amounts = Vec::new();
            for a in Children::of(b).rest() {
                amounts.push(turn_of(a)?);
            }
            Some(Bending {
                span: bspan,
                amounts,
            })
        }
        None => None,
    };
    let (mut avoid, mut avoid_cells) = (Vec::new(), None);
    if let Some(a) = c.next_if(Rule::avoid) {
        let inner = Children::of(a).next()?;
        match inner.as_rule() {
            Rule::dir_set => avoid = Children::of(inner).rest().map(|p| name_of(&p)).collect(),
            Rule::ident => avoid = vec![name_of(&inner)],
            _ => avoid_cells = Some(build_zone(inner)?),
        }
    }
    Ok(Leg {
        span,
        slides,
        hop: is_hop,
        next,
        keyword,
        dirs,
        bending,
        avoid,
        avoid_cells,
    })
}

fn build_turn(pair: Pair<Rule>) -> Result<Turn, SyntaxError> {
    let span = span_of(&pair);
    let amount = Children::of(pair).next()?;
    Ok(Turn {
        span,
        amounts: turn_of(amount)?.amounts,
    })
}

/// A `turn_amount` (`+1`, `-2`, `+-1`, `3`) as a turn of its own span.
fn turn_of(amount: Pair<Rule>) -> Result<Turn, SyntaxError> {
    let span = span_of(&amount);
    let text = amount.as_str();
    let aspan = span;
    let (signs, digits): (&[i64], &str) =
        if let Some(d) = text.strip_prefix("+-").or_else(|| text.strip_prefix("-+")) {
            (&[1, -1], d)
        } else if let Some(d) = text.strip_prefix('+') {
            (&[1], d)
        } else if let Some(d) = text.strip_prefix('-') {
            (&[-1], d)
        } else {
            (&[1], text)
        };
    let magnitude: i64 = digits.parse().map_err(|_| SyntaxError {
        span: aspan,
        message: format!("the turn `{text}` is too large"),
    })?;
    let mut amounts: Vec<i64> = signs.iter().map(|s| s * magnitude).collect();
    amounts.dedup();
    Ok(Turn { span, amounts })
}
