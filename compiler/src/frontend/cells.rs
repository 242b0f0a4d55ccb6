//! Naming cells: one cell by name, and lists of cells where an item may be a rectangle `A..B`
//! of the grid.

use super::*;

impl Frontend {
    pub(super) fn cell(&mut self, name: &ast::Name, cells: &HashMap<String, CellId>, complete: bool, context: &str) -> Option<CellId> {
        if name.range().is_some() {
            let label = self.primary(name.span, "a range of cells");
            self.error(format!("`{}` is a range of cells, where one cell is expected", name.text), vec![label], vec![]);
            return None;
        }
        match cells.get(&name.text) {
            Some(&c) => Some(c),
            None => {
                if complete {
                    self.unknown("cell", name, context, cells.keys().map(String::as_str));
                }
                None
            }
        }
    }

    /// The cells an item of a list of cells names: one cell, or for a range `A..B` every cell of
    /// the grid's rectangle with corners A and B (in grid order, each once; an identified position
    /// gives its cell). `None` after reporting an error.
    pub(super) fn cell_item(&mut self, name: &ast::Name, board: &BoardInfo, context: &str) -> Option<Vec<CellId>> {
        let Some((a, b)) = name.range() else {
            return self.cell(name, &board.cells_by_name, board.cells_complete, context).map(|c| vec![c]);
        };
        let Some(grid) = &board.board.grid else {
            let label = self.primary(name.span, "a range of cells needs a grid");
            self.error(format!("the range `{}` needs a `grid` board", name.text), vec![label], vec!["note: on other boards list the cells one by one".into()]);
            return None;
        };
        let width = grid.files.len() as i32;
        let mut corners = Vec::new();
        for end in [a, b] {
            let own = board.board.cells.iter().find(|c| c.name == end).and_then(|c| c.coords);
            let coords = own.or_else(|| board.board.aliases.iter().find(|al| al.name == end).map(|al| al.coords));
            match coords {
                Some(xy) => corners.push(xy),
                None => {
                    if board.cells_complete {
                        let label = self.primary(name.span, format!("`{end}` is no cell of the grid"));
                        self.error(format!("unknown corner `{end}` of the range `{}`", name.text), vec![label], vec!["note: a range `A..B` takes two cells of the grid as corners".into()]);
                    }
                    return None;
                }
            }
        }
        let (x0, x1) = (corners[0].0.min(corners[1].0), corners[0].0.max(corners[1].0));
        let (y0, y1) = (corners[0].1.min(corners[1].1), corners[0].1.max(corners[1].1));
        let mut out = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let at = grid.cell_at.get((y * width + x) as usize).copied().flatten();
                let cell = at.or_else(|| board.board.aliases.iter().find(|al| al.coords == (x, y)).map(|al| al.cell));
                if let Some(c) = cell {
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        Some(out)
    }

    /// Every cell a list of cells names (ranges expanded, each cell once); clears `ok` on an error.
    pub(super) fn cell_list(&mut self, names: &[ast::Name], board: &BoardInfo, context: &str, ok: &mut bool) -> Vec<CellId> {
        let mut out = Vec::new();
        for n in names {
            match self.cell_item(n, board, context) {
                Some(found) => found.into_iter().for_each(|c| push_unique(&mut out, c)),
                None => *ok = false,
            }
        }
        out
    }
}
