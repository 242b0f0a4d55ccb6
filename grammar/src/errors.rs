//! Syntax errors in words: pest's error turned into one message that names what was expected
//! and what was found (never pest's rule names).

use crate::ast::Span;
use crate::{Rule, SyntaxError};

pub(crate) fn convert_error(source: &str, error: pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let pos = pos.min(source.len());
    let (found, found_span) = describe_found(source, pos);
    let mut wanted: Vec<String> = Vec::new();
    let message = match &error.variant {
        ErrorVariant::ParsingError { positives, negatives } => {
            for rule in positives {
                let word = describe_rule(*rule).to_string();
                if !wanted.contains(&word) {
                    wanted.push(word);
                }
            }
            if !wanted.is_empty() {
                format!("expected {}, found {found}", join_or(&wanted))
            } else if !negatives.is_empty() {
                let mut unwanted: Vec<&'static str> = negatives.iter().map(|r| describe_rule(*r)).collect();
                unwanted.dedup();
                format!("unexpected {}", join_or(&unwanted))
            } else {
                format!("unexpected {found}")
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError { span: found_span, message }
}

/// The token at `pos`, for "found ...", and its span.
fn describe_found(source: &str, pos: usize) -> (String, Span) {
    let rest = source.get(pos..).unwrap_or("");
    let mut chars = rest.char_indices();
    match chars.next() {
        None => ("end of file".to_string(), Span::new(pos, pos)),
        Some((_, c)) if c.is_ascii_alphanumeric() || c == '_' => {
            let len = rest
                .char_indices()
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '\'' | '-')))
                .map_or(rest.len(), |(i, _)| i);
            let word = &rest[..len];
            let shown: String = word.chars().take(30).collect();
            (format!("`{shown}`"), Span::new(pos, pos + len))
        }
        Some((_, c)) => {
            let len = c.len_utf8();
            let shown = if c == '\n' { "end of line".to_string() } else { format!("`{c}`") };
            (shown, Span::new(pos, pos + len))
        }
    }
}

fn join_or<S: AsRef<str>>(words: &[S]) -> String {
    let words: Vec<&str> = words.iter().map(|w| w.as_ref()).collect();
    match words.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Human words for what a rule would have accepted.
fn describe_rule(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::equals => "`=`",
        Rule::arrow => "`->`",
        Rule::dots => "`..`",
        Rule::ident => "a name",
        Rule::int | Rule::number => "a number",
        Rule::string | Rule::string_body => "a string in double quotes",
        Rule::label => "a file or rank name",
        Rule::kw_variant => "`variant \"NAME\"`",
        Rule::kw_library | Rule::library_decl => "`library \"NAME\"`",
        Rule::kw_include | Rule::include => "`include \"FILE\"`",
        Rule::kw_polygon | Rule::polygon => "`polygon`",
        Rule::border_side => "`-` (a side on the border)",
        Rule::kw_mesh | Rule::mesh | Rule::mesh_inline | Rule::mesh_file => "`mesh`",
        Rule::kw_face | Rule::mesh_face => "`face`",
        Rule::kw_box | Rule::box_surface => "`box`",
        Rule::kw_web | Rule::web => "`web`",
        Rule::kw_order | Rule::web_order => "`order`",
        Rule::web_face => "`face \"LABEL\" VERTICES`",
        Rule::kw_for | Rule::seam_for => "`for`",
        Rule::kw_avoid | Rule::avoid => "`avoid`",
        Rule::kw_board | Rule::board => "`board`",
        Rule::kw_piece | Rule::piece => "`piece`",
        Rule::kw_side | Rule::side => "`side`",
        Rule::kw_rules | Rule::rules => "`rules`",
        Rule::kw_grid | Rule::grid => "`grid`",
        Rule::kw_files => "`files`",
        Rule::kw_ranks => "`ranks`",
        Rule::kw_wrap | Rule::wrap => "`wrap`",
        Rule::kw_headings | Rule::headings => "`headings`",
        Rule::kw_group | Rule::group => "`group`",
        Rule::kw_seam | Rule::seam => "`seam`",
        Rule::kw_when => "`when`",
        Rule::kw_to => "`to`",
        Rule::kw_heading => "`heading`",
        Rule::kw_same | Rule::same => "`same`",
        Rule::kw_cells | Rule::cells_decl | Rule::zone_cells => "`cells`",
        Rule::kw_link | Rule::link | Rule::link_part => "`link`",
        Rule::kw_transit | Rule::transit => "`transit`",
        Rule::kw_identify | Rule::identify => "`identify`",
        Rule::kw_direction | Rule::direction => "`direction`",
        Rule::kw_away | Rule::away => "`away`",
        Rule::kw_farthest | Rule::farthest => "`farthest`",
        Rule::kw_toward | Rule::toward => "`toward`",
        Rule::kw_nearest | Rule::nearest => "`nearest`",
        Rule::kw_from => "`from`",
        Rule::kw_by => "`by`",
        Rule::kw_zone | Rule::zone_decl => "`zone`",
        Rule::kw_lines | Rule::zone_lines => "`lines`",
        Rule::kw_sides | Rule::zone_sides => "`sides`",
        Rule::kw_around | Rule::zone_around => "`around`",
        Rule::kw_ring | Rule::zone_ring => "`ring`",
        Rule::kw_border | Rule::zone_border => "`border`",
        Rule::kw_inner | Rule::zone_inner => "`inner`",
        Rule::kw_through => "`through`",
        Rule::zone_name => "a zone name",
        Rule::rule_on => "`on`",
        Rule::kw_royal | Rule::royal => "`royal`",
        Rule::kw_resets | Rule::resets_clock => "`resets-clock`",
        Rule::kw_then => "`then`",
        Rule::kw_step => "`step`",
        Rule::kw_slide => "`slide`",
        Rule::leg_kind | Rule::leg => "`step`, `slide` or `hop`",
        Rule::kw_next | Rule::hop_next => "`next`",
        Rule::kw_over | Rule::rule_over => "`over`",
        Rule::kw_takes | Rule::rule_takes => "`takes`",
        Rule::kind_filter | Rule::negated => "piece kinds",
        Rule::kw_straight | Rule::straight => "`straight`",
        Rule::kw_turn | Rule::turn => "`turn`",
        Rule::turn_amount => "a turn such as `+1`, `-2` or `+-1`",
        Rule::kw_forward | Rule::forward => "`forward`",
        Rule::kw_setup | Rule::setup => "`setup`",
        Rule::kw_promote | Rule::promote => "`promote`",
        Rule::kw_on => "`on`",
        Rule::kw_rank | Rule::zone_rank => "`rank`",
        Rule::kw_file | Rule::zone_file => "`file`",
        Rule::kw_castle | Rule::castle => "`castle`",
        Rule::kw_king | Rule::castle_king => "`king`",
        Rule::kw_rook | Rule::castle_rook => "`rook`",
        Rule::kw_empty | Rule::castle_empty => "`empty`",
        Rule::kw_safe | Rule::castle_safe => "`safe`",
        Rule::kw_fen | Rule::castle_fen => "`fen`",
        Rule::kw_stalemate | Rule::stalemate => "`stalemate`",
        Rule::kw_stationary | Rule::stationary => "`stationary-moves`",
        Rule::kw_fifty | Rule::fifty => "`fifty-move`",
        Rule::kw_repetition | Rule::repetition => "`repetition`",
        Rule::kw_team | Rule::team => "`team`",
        Rule::kw_game_end | Rule::game_end => "`game-end`",
        Rule::kw_eliminated | Rule::eliminated => "`eliminated`",
        Rule::game_end_kind => "`last-standing` or `first-mate`",
        Rule::eliminated_kind => "`remove` or `stay`",
        Rule::kw_cannot_check | Rule::cannot_check => "`cannot-check`",
        Rule::kw_crowns | Rule::crowns => "`crowns`",
        Rule::kw_bending | Rule::bending => "`bending`",
        Rule::kw_distance | Rule::distance_leg => "`distance`",
        Rule::kw_onto | Rule::rule_onto => "`onto`",
        Rule::kw_atop | Rule::atop => "`atop`",
        Rule::kw_hand | Rule::hand => "`hand`",
        Rule::kw_bare | Rule::bare => "`bare`",
        Rule::bare_outcome => "`draw`, `win`, `loss` or `ignored`",
        Rule::counting_move => "`counting-move`",
        Rule::kw_royal_path | Rule::royal_path => "`royal-path`",
        Rule::kw_wind | Rule::wind_rule => "`wind`",
        Rule::kw_within => "`within`",
        Rule::kw_arrange | Rule::arrange => "`arrange`",
        Rule::arrange_step => "pieces to arrange (`B on { b1 d1 }`, `N N`)",
        Rule::kw_between | Rule::between => "`between`",
        Rule::kw_betza | Rule::betza_rule => "`betza`",
        Rule::kw_as => "`as`",
        Rule::include_only => "`{ PIECES }`",
        Rule::include_piece => "a piece name",
        Rule::castle_pick => "a piece symbol and `first` or `last`",
        Rule::pick => "`first` or `last`",
        Rule::setup_number => "`setup`",
        Rule::kw_reach | Rule::reach => "`reach`",
        Rule::kw_captured | Rule::captured => "`captured`",
        Rule::kw_optional | Rule::optional => "`optional`",
        Rule::kw_check_limit | Rule::check_limit => "`check-limit`",
        Rule::kw_extinction | Rule::extinction => "`extinction`",
        Rule::kw_captured_as | Rule::captured_as => "`captured-as`",
        Rule::piece_fen => "`fen \"TOKEN\"`",
        Rule::kw_drop | Rule::drop_rule => "`drop`",
        Rule::kw_drops | Rule::drops => "`drops`",
        Rule::kw_pass | Rule::pass => "`pass`",
        Rule::kw_facing | Rule::facing => "`facing`",
        Rule::kw_from_or_to | Rule::from_or_to => "`from-or-to`",
        Rule::kw_one_per_file | Rule::one_per_file => "`one-per-file`",
        Rule::kw_no_mate | Rule::no_mate => "`no-mate`",
        Rule::drop_not_on => "`not on ZONE`",
        Rule::royal_path_kind => "`unattacked` or `any`",
        Rule::kw_and => "`and`",
        Rule::kw_or => "`or`",
        Rule::kw_not => "`not`",
        Rule::kw_mod => "`mod`",
        Rule::file => "a variant",
        Rule::variant_decl => "`variant \"NAME\"`",
        Rule::label_range => "a range such as `a..h`",
        Rule::label_list => "a list of names",
        Rule::heading_decl => "a heading name",
        Rule::vector => "a vector `(dx, dy)`",
        Rule::expr_pair => "a pair `(X, Y)`",
        Rule::expr
        | Rule::or_expr
        | Rule::and_expr
        | Rule::not_expr
        | Rule::cmp_expr
        | Rule::sum
        | Rule::product
        | Rule::unary
        | Rule::neg => "an expression",
        Rule::variable => "a variable (`x`, `y`, `dx` or `dy`)",
        Rule::cmp_op => "a comparison (`<`, `<=`, `>`, `>=`, `==`, `!=`)",
        Rule::add_op => "`+` or `-`",
        Rule::mul_op => "`*`, `/` or `mod`",
        Rule::piece_rule => "a piece rule",
        Rule::modifier => "a modifier (`move-only`, `capture-only`, `initial`, `leap`, `en-passant-target`, `en-passant`, `across-transit`)",
        Rule::dirs => "a heading, group, `all` or `forward`",
        Rule::dir_set => "`{ HEADING ... }`",
        Rule::cell_range => "a range of cells (`a1..h2`)",
        Rule::symbol => "a piece symbol (one upper-case letter)",
        Rule::setup_group => "a piece symbol followed by cells",
        Rule::outcome => "`draw`, `win` or `loss`",
        Rule::permission => "`forbidden` or `allowed`",
        // Silent rules: pest never reports them, but the enum has them.
        _ => "more input",
    }
}
