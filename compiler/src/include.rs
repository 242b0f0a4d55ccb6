//! `include "FILE"`: reading a variant together with the libraries it builds on.
//!
//! Every file is parsed at its own base offset, so a span says which file it points into; the
//! diagnostics of all later stages are written with global spans and mapped to (file, local range)
//! once at the end ([`Sources::locate`]). The files are then merged into one AST:
//! included declarations come first; a declaration of the including file replaces an included one
//! of the same name (a piece, a seam, an `identify`, a castling rule, a side's `forward`, `direction`
//! or `zone`, a `rules` setting), blocks of the same kind
//! (the board, a side of the same name, `rules`) are joined. Within one file, duplicates stay
//! errors for the frontend to report. A library is merged once, where it is first included.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use orbis_grammar::ast::{self, BoardStmt, Item, Span};
use std::path::{Path, PathBuf};

/// All source files of one check, each with its range of global offsets.
pub struct Sources {
    pub files: SimpleFiles<String, String>,
    /// (base offset, length, file id), in order of `base`.
    ranges: Vec<(usize, usize, usize)>,
    /// Libraries already included (canonical paths): each is merged once, however many files
    /// include it (a library that two others build on would otherwise declare everything twice).
    included: Vec<PathBuf>,
}

impl Default for Sources {
    fn default() -> Self {
        Sources { files: SimpleFiles::new(), ranges: Vec::new(), included: Vec::new() }
    }
}

impl Sources {
    /// Adds a file; returns its id and the base offset its spans start at.
    pub fn add(&mut self, name: String, source: String) -> (usize, usize) {
        let base = self.ranges.last().map_or(0, |&(b, len, _)| b + len + 1);
        let len = source.len();
        let id = self.files.add(name, source);
        self.ranges.push((base, len, id));
        (id, base)
    }

    /// The file a global range lies in, and the range within that file.
    pub fn locate(&self, range: std::ops::Range<usize>) -> (usize, std::ops::Range<usize>) {
        let i = self.ranges.partition_point(|&(base, _, _)| base <= range.start).saturating_sub(1);
        match self.ranges.get(i) {
            Some(&(base, len, id)) => {
                let start = (range.start - base).min(len);
                let end = range.end.saturating_sub(base).clamp(start, len);
                (id, start..end)
            }
            None => (0, 0..0),
        }
    }

    /// The text a global span covers, in whichever file it lies.
    pub fn text(&self, span: Span) -> Option<&str> {
        let (id, range) = self.locate(span.range());
        codespan_reporting::files::Files::source(&self.files, id).ok()?.get(range)
    }

    /// Rewrites labels written with global ranges into (file, local range).
    pub fn map(&self, diagnostics: &mut [Diagnostic<usize>]) {
        for d in diagnostics {
            for label in &mut d.labels {
                let (id, range) = self.locate(label.range.clone());
                label.file_id = id;
                label.range = range;
            }
        }
    }
}

/// The error for an include that cannot be read or forms a cycle.
fn include_error(message: String, span: Span, label: &str) -> Diagnostic<usize> {
    Diagnostic::error().with_message(message).with_labels(vec![Label::primary(0, span.range()).with_message(label.to_string())])
}

/// Reads `file`'s includes (recursively, relative to `dir`) and merges everything into one AST.
/// Errors (syntax errors of included files, unreadable files, cycles) are returned with global
/// spans, together with the best merge possible. `syntax` turns a syntax error into a diagnostic,
/// given where its file ends.
pub fn resolve(
    file: ast::File,
    path: &Path,
    sources: &mut Sources,
    stack: &mut Vec<PathBuf>,
    errors: &mut Vec<Diagnostic<usize>>,
    syntax: &dyn Fn(orbis_grammar::SyntaxError, usize) -> Diagnostic<usize>,
) -> ast::File {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    // Mesh files are named relative to the file that names them.
    let mut file = file;
    for item in &mut file.items {
        if let Item::Board(b) = item {
            for s in &mut b.statements {
                if let BoardStmt::Mesh(ast::Mesh { source: ast::MeshSource::File { path, .. }, .. }) = s {
                    path.text = dir.join(&path.text).display().to_string();
                }
            }
        }
    }
    let mut included = Vec::new();
    for include in &file.includes {
        let inc = &include.path;
        let target = dir.join(&inc.text);
        let canonical = target.canonicalize().unwrap_or_else(|_| target.clone());
        if stack.contains(&canonical) {
            let start = stack.iter().position(|p| *p == canonical).unwrap_or(0);
            let chain: Vec<String> = stack[start..]
                .iter()
                .chain(std::iter::once(&canonical))
                .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
                .collect();
            errors.push(include_error(
                format!("include cycle: {}", chain.join(" -> ")),
                inc.span,
                "this include closes the cycle",
            ));
            continue;
        }
        // A library taken whole is merged once; pieces taken by name come each time they are named.
        if include.only.is_none() && sources.included.contains(&canonical) {
            continue;
        }
        if sources.ranges.len() > crate::input::MAX_INCLUDED_FILES {
            errors.push(include_error(
                format!("more than {} included files", crate::input::MAX_INCLUDED_FILES),
                inc.span,
                "one include too many",
            ));
            return file;
        }
        let text = match crate::input::read_source(&target) {
            Ok(t) => t,
            Err(e) => {
                errors.push(include_error(e, inc.span, "included here"));
                continue;
            }
        };
        let (_, base) = sources.add(target.display().to_string(), text.clone());
        match orbis_grammar::parse_at(&text, base) {
            Err(es) => errors.extend(es.into_iter().map(|e| syntax(e, base + text.len()))),
            Ok(sub) => {
                if !sub.library {
                    errors.push(include_error(
                        format!("`{}` is a variant, not a library", inc.text),
                        inc.span,
                        "only files that start with `library \"...\"` can be included",
                    ));
                    continue;
                }
                if include.only.is_none() {
                    sources.included.push(canonical.clone());
                }
                stack.push(canonical);
                let lib = resolve(sub, &target, sources, stack, errors, syntax);
                stack.pop();
                included.push(match &include.only {
                    Some(only) => only_pieces(lib, inc, only, errors),
                    None => lib,
                });
            }
        }
    }
    included.into_iter().rev().fold(file, |acc, lib| merge(lib, acc))
}

/// The pieces `only` names of a resolved library, nothing else, under their new symbols.
fn only_pieces(lib: ast::File, inc: &ast::Name, only: &[ast::IncludePiece], errors: &mut Vec<Diagnostic<usize>>) -> ast::File {
    if only.is_empty() {
        errors.push(include_error(format!("nothing taken from `{}`", inc.text), inc.span, "an empty list of pieces"));
    }
    let mut pieces: Vec<ast::Piece> = lib
        .items
        .into_iter()
        .filter_map(|item| match item {
            Item::Piece(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut names: Vec<String> = pieces.iter().map(|p| p.name.text.clone()).collect();
    names.sort_unstable();
    let mut items = Vec::new();
    for want in only {
        match pieces.iter().position(|p| p.name.text == want.name.text) {
            Some(i) => {
                let mut p = pieces.swap_remove(i);
                if let Some(symbol) = &want.symbol {
                    p.symbol = symbol.clone();
                }
                items.push(Item::Piece(p));
            }
            None => {
                let d = include_error(format!("no piece `{}` in `{}`", want.name.text, inc.text), want.name.span, "not in the library, or named twice")
                    .with_notes(vec![format!("note: its pieces are {}", names.join(", "))]);
                errors.push(d);
            }
        }
    }
    ast::File { items, includes: Vec::new(), ..lib }
}

/// `base`'s declarations, then `top`'s; `top` replaces what it redefines by name.
fn merge(base: ast::File, top: ast::File) -> ast::File {
    let mut top_pieces = Vec::new();
    let mut top_seams = Vec::new();
    let mut top_identify = Vec::new();
    let mut top_castles: Vec<(String, String)> = Vec::new();
    // (side, what, name): `forward`, `direction NAME`, `zone NAME`.
    let mut top_side_decls: Vec<(String, &'static str, String)> = Vec::new();
    let mut top_settings = Vec::new();
    for item in &top.items {
        match item {
            Item::Piece(p) => top_pieces.push(p.name.text.clone()),
            Item::Board(b) => {
                for s in &b.statements {
                    match s {
                        BoardStmt::Seam(seam) => top_seams.push(seam.name.text.clone()),
                        BoardStmt::Identify(id) => top_identify.push(id.name.text.clone()),
                        _ => {}
                    }
                }
            }
            Item::Side(side) => {
                for s in &side.statements {
                    if let ast::SideStmt::Castle(c) = s {
                        top_castles.push((side.name.text.clone(), c.name.text.clone()));
                    }
                    if let Some((what, name)) = side_decl_key(s) {
                        top_side_decls.push((side.name.text.clone(), what, name));
                    }
                }
            }
            Item::Rules(r) => top_settings.extend(r.settings.iter().map(setting_key)),
        }
    }

    // The included declarations, less those the including file redefines.
    let mut items: Vec<Item> = Vec::new();
    for item in base.items {
        match item {
            Item::Piece(p) if top_pieces.contains(&p.name.text) => {}
            Item::Board(mut b) => {
                b.statements.retain(|s| match s {
                    BoardStmt::Seam(seam) => !top_seams.contains(&seam.name.text),
                    BoardStmt::Identify(id) => !top_identify.contains(&id.name.text),
                    _ => true,
                });
                items.push(Item::Board(b));
            }
            Item::Side(mut side) => {
                let name = side.name.text.clone();
                side.statements.retain(|st| {
                    let castle = matches!(st, ast::SideStmt::Castle(c) if top_castles.contains(&(name.clone(), c.name.text.clone())));
                    let decl = side_decl_key(st).is_some_and(|(what, n)| top_side_decls.contains(&(name.clone(), what, n)));
                    !castle && !decl
                });
                items.push(Item::Side(side));
            }
            Item::Rules(mut r) => {
                r.settings.retain(|st| !top_settings.contains(&setting_key(st)));
                if !r.settings.iter().any(|st| matches!(st.kind, ast::SettingKind::Extinction)) {
                    r.extinction.clear();
                }
                items.push(Item::Rules(r));
            }
            other => items.push(other),
        }
    }
    // The including file's: its first block of each kind joins the included one.
    let included = items.len();
    let mut joined_board = false;
    let mut joined_rules = false;
    let mut joined_sides: Vec<String> = Vec::new();
    for item in top.items {
        let target = match &item {
            Item::Board(_) if !joined_board => {
                joined_board = true;
                items[..included].iter().position(|i| matches!(i, Item::Board(_)))
            }
            Item::Rules(_) if !joined_rules => {
                joined_rules = true;
                items[..included].iter().position(|i| matches!(i, Item::Rules(_)))
            }
            Item::Side(s) if !joined_sides.contains(&s.name.text) => {
                joined_sides.push(s.name.text.clone());
                items[..included].iter().position(|i| matches!(i, Item::Side(t) if t.name.text == s.name.text))
            }
            _ => None,
        };
        match (target.map(|t| &mut items[t]), item) {
            (Some(Item::Board(existing)), Item::Board(mut b)) => existing.statements.append(&mut b.statements),
            (Some(Item::Rules(existing)), Item::Rules(mut r)) => {
                existing.settings.append(&mut r.settings);
                existing.extinction.append(&mut r.extinction);
            }
            (Some(Item::Side(existing)), Item::Side(mut s)) => existing.statements.append(&mut s.statements),
            (_, item) => items.push(item),
        }
    }
    ast::File { items, ..top }
}

/// The key under which a side statement replaces an included one: `forward`, `team`, a
/// `direction` or a `zone` by name.
fn side_decl_key(s: &ast::SideStmt) -> Option<(&'static str, String)> {
    match s {
        ast::SideStmt::Forward { .. } => Some(("forward", String::new())),
        ast::SideStmt::Direction { name, .. } => Some(("direction", name.text.clone())),
        ast::SideStmt::Zone { name, .. } => Some(("zone", name.text.clone())),
        ast::SideStmt::Team { .. } => Some(("team", String::new())),
        _ => None,
    }
}

/// Which setting a `rules` entry sets.
fn setting_key(s: &ast::Setting) -> std::mem::Discriminant<ast::SettingKind> {
    std::mem::discriminant(&s.kind)
}
