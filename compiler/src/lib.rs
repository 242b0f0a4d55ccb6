//! orbis compiler: source text -> AST (orbis-grammar) -> checked model -> runtime tables.
//!
//! Stages, each with its own type and invariant:
//! - `orbis_grammar::parse`: text to AST with spans; never panics; pest stops at the first syntax
//!   error, so a file with a syntax error gets exactly one diagnostic.
//! - `frontend`: AST to [`model::Variant`]: names resolved, everything validated, the step function
//!   computed; every semantic error found is reported as a codespan diagnostic.
//! - `analysis`: warnings from the board as a petgraph graph (unreachable cells, irreversible
//!   steps); runs only when there is no error.
//! - `walk`: every rule's rays on the empty board, walked once within the expansion budgets.
//! - `lower`: [`model::Variant`] to [`orbis_runtime::Tables`]; cannot fail.
//!
//! [`check`] runs the first three stages and keeps the source for rendering.

pub mod model;
pub mod complex;
pub mod frontend;
pub mod analysis;
pub mod walk;
pub mod lower;
pub mod layout;
pub mod report;
pub mod include;
pub mod input;

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

/// The result of checking one file: its diagnostics and, when there is no error, the variant.
pub struct Checked {
    pub files: SimpleFiles<String, String>,
    pub file_id: usize,
    /// Errors and warnings in source order of discovery.
    pub diagnostics: Vec<Diagnostic<usize>>,
    /// `Some` iff no diagnostic is an error and the file is a variant.
    pub variant: Option<model::Variant>,
    /// The variant lowered to the runtime's tables (`Some` with `variant`).
    pub tables: Option<orbis_runtime::Tables>,
    /// The file is a `library` (shared declarations for `include`), not a variant: it was parsed
    /// and its includes resolved, but it is checked only as part of the variants that include it.
    pub library: bool,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity >= Severity::Error)
    }

    /// All diagnostics, rustc style (`file:line:col`), optionally with ANSI colors.
    pub fn render(&self, color: bool) -> String {
        let config = term::Config::default();
        let mut out = String::new();
        for diagnostic in &self.diagnostics {
            let rendered = if color {
                let mut buffer = term::termcolor::Buffer::ansi();
                term::emit_to_write_style(&mut buffer, &config, &self.files, diagnostic)
                    .map(|()| String::from_utf8_lossy(buffer.as_slice()).into_owned())
            } else {
                term::emit_into_string(&config, &self.files, diagnostic)
            };
            match rendered {
                Ok(text) => out.push_str(&text),
                // Only possible if a label lies outside the file, which would be a compiler bug;
                // still show the message rather than nothing.
                Err(e) => out.push_str(&format!("{:?}: {} ({e})\n", diagnostic.severity, diagnostic.message)),
            }
        }
        out
    }
}

/// The rule-consistency report of a checked variant (`orbis check --report`), with the messages of
/// its warnings; `None` when the file has errors.
pub fn report(checked: &Checked) -> Option<report::Report> {
    let (variant, tables) = (checked.variant.as_ref()?, checked.tables.as_ref()?);
    let warnings = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.message.clone())
        .collect();
    Some(report::build(variant, tables, warnings))
}

/// Parses, checks and analyzes a variant. `name` is the file name shown in diagnostics; it is also
/// the path that `include`s are resolved against.
pub fn check(name: &str, source: &str) -> Checked {
    check_with(name, source, frontend::SetupChoice::Default)
}

/// [`check`] with the setup number of `arrange` statements chosen (`--setup N`, `--seed S`).
pub fn check_with(name: &str, source: &str, setup: frontend::SetupChoice) -> Checked {
    let mut sources = include::Sources::default();
    let (file_id, _) = sources.add(name.to_string(), source.to_string());
    let mut library = false;
    // Until the final mapping, labels carry global offsets (file id 0 is a placeholder).
    let (mut diagnostics, variant) = match orbis_grammar::parse(source) {
        Err(errors) => (errors.into_iter().map(|e| syntax_diagnostic(0, source.len(), e)).collect(), None),
        Ok(ast) => {
            let mut errors = Vec::new();
            let path = std::path::Path::new(name);
            let mut stack = vec![path.canonicalize().unwrap_or_else(|_| path.to_path_buf())];
            let ast = include::resolve(ast, path, &mut sources, &mut stack, &mut errors, &|e, end| syntax_diagnostic(0, end, e));
            library = ast.library;
            if !errors.is_empty() {
                (errors, None)
            } else if library {
                (Vec::new(), None)
            } else {
                let output = frontend::check(&ast, 0, setup);
                let mut diagnostics = output.diagnostics;
                let variant = match output.variant {
                    Some((variant, located)) => match walk::walk_all(&variant) {
                        Err(overflow) => {
                            diagnostics.push(expansion_diagnostic(&variant, &located, overflow));
                            None
                        }
                        Ok(walked) => {
                            let mut variant = variant;
                            variant.walked = walked.into();
                            diagnostics.extend(analysis::analyze(&variant, &located, &ast, 0));
                            for rule in variant.pieces.iter_mut().flat_map(|p| p.rules.iter_mut()) {
                                rule.text = sources.text(rule.span).map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")).unwrap_or_default();
                            }
                            // Lowered once here: the initial position is judged on the tables, as
                            // the runtime judges any position it reads, and an error refuses it.
                            let lowered = lower::lower(&variant);
                            match analysis::initial_position(&variant, &lowered, &ast, 0) {
                                Some(error) => {
                                    diagnostics.push(error);
                                    None
                                }
                                None => Some((variant, lowered)),
                            }
                        }
                    },
                    None => None,
                };
                (diagnostics, variant)
            }
        }
    };
    sources.map(&mut diagnostics);
    let (variant, tables) = variant.unzip();
    Checked { files: sources.files, file_id, diagnostics, variant, tables, library }
}

/// The error for rules whose paths multiply past the expansion limits.
fn expansion_diagnostic(v: &model::Variant, sources: &frontend::Sources, overflow: walk::Overflow) -> Diagnostic<usize> {
    match overflow {
        walk::Overflow::Rule { piece, rule, side, origin } => Diagnostic::error()
            .with_message(format!("the moves of `{}` multiply beyond what orbis expands", v.pieces[piece].name))
            .with_labels(vec![Label::primary(0, sources.rules[piece][rule].range()).with_message(format!(
                "from {} (side {}) this rule walks or writes more than {} cells",
                v.board.cells[origin].name,
                v.sides[side].name,
                walk::MAX_RULE_EXPANSION
            ))])
            .with_notes(vec![
                "note: every path of a rule that does not `leap` is a move of its own (the cells it passes must be empty), so each `slide` leg after the first multiplies the paths by the length of a line".into(),
                "help: use fewer legs, make the rule a `leap` if the cells passed need not be empty, or split it into several rules".into(),
            ]),
        walk::Overflow::Total => Diagnostic::error()
            .with_message(format!("the pieces' moves together expand to more than {} cells", walk::MAX_EXPANSION))
            .with_labels(vec![Label::primary(0, sources.board.range()).with_message("on this board")])
            .with_notes(vec!["help: use fewer or shorter rules, or a smaller board".into()]),
    }
}

/// A syntax error; `end` is where the file ends (in the same offsets as the error's span).
fn syntax_diagnostic(file_id: usize, end: usize, e: orbis_grammar::SyntaxError) -> Diagnostic<usize> {
    let at_end = e.span.start >= end;
    let label = if at_end { "the file ends here" } else { "unexpected here" };
    Diagnostic::error()
        .with_message(format!("syntax error: {}", e.message))
        .with_labels(vec![Label::primary(file_id, e.span.range()).with_message(label)])
}
