//! Hops (`hop DIRS [next]`) and the kind filters of rules (`over KINDS`, `takes KINDS`).

use super::*;

impl Frontend {
    /// A rule's hop (`hop DIRS [next]`) and its kind filters (`over`, `takes`), checked: a hop is
    /// a rule of one leg, `over` needs a hop, `takes` a rule of one `slide` or `hop` leg that may
    /// capture. `Err` when an error was reported.
    #[allow(clippy::type_complexity)]
    pub(super) fn hop_parts(
        &mut self,
        r: &ast::Rule,
        seen: &HashMap<ast::ModifierKind, Span>,
        all: &[&ast::Piece],
    ) -> (Result<Option<model::Hop>, ()>, Result<Option<Vec<PieceId>>, ()>, Result<Option<Vec<PieceId>>, ()>) {
        use ast::ModifierKind::*;
        let mut hop_ok = true;
        for leg in &r.legs {
            if let (Some(n), false) = (leg.next, leg.hop) {
                let label = self.primary(n, "on a leg that does not hop");
                self.error("`next` is only for `hop` legs", vec![label], vec![
                    "help: `hop DIRS next` lands just beyond the piece it jumps over (a grasshopper)".into(),
                ]);
                hop_ok = false;
            }
        }
        let hop_leg = r.legs.iter().position(|l| l.hop);
        if let Some(i) = hop_leg {
            if r.legs.len() > 1 {
                let other = if i == 0 { &r.legs[1] } else { &r.legs[0] };
                let labels = vec![self.primary(r.legs[i].keyword, "a hop"), self.secondary(other.span, "another leg")];
                self.error("a `hop` is a whole rule of one leg", labels, vec![
                    "note: a hop follows its headings as a slide, over one piece; it does not combine with `then`".into(),
                    "help: write the hop as a rule of its own, e.g. `capture-only hop orth`".into(),
                ]);
                hop_ok = false;
            }
            for kind in [Leap, AcrossTransit, Initial] {
                if let Some(&m) = seen.get(&kind) {
                    let labels = vec![self.primary(m, "not for a hop"), self.secondary(r.legs[i].keyword, "the hop")];
                    self.error(format!("`{}` does not apply to a `hop`", kind.keyword()), labels, vec![
                        "note: a hop passes exactly one piece, its screen, the other cells it passes empty; it does not depend on whether the piece has moved".into(),
                    ]);
                    hop_ok = false;
                }
            }
        }
        let hop = hop_leg.map(|i| if r.legs[i].next.is_some() { model::Hop::Next } else { model::Hop::Far });
        let mut over = Ok(None);
        if let Some(f) = &r.over {
            over = if hop.is_none() {
                let label = self.primary(f.span, "no hop in this rule");
                self.error("`over` applies only to a `hop`", vec![label], vec![
                    "note: `over KINDS` says which pieces a hop may jump over".into(),
                ]);
                Err(())
            } else {
                self.kind_filter(f, all).map(Some)
            };
        }
        let mut takes = Ok(None);
        if let Some(f) = &r.takes {
            let one_line = r.legs.len() == 1 && r.legs[0].slides && matches!(r.legs[0].dirs, ast::LegDirs::Dirs(_));
            takes = if let Some(&m) = seen.get(&MoveOnly) {
                let labels = vec![self.primary(f.span, "what it may capture"), self.secondary(m, "but it may not capture")];
                self.error("`takes` on a `move-only` rule", labels, vec![]);
                Err(())
            } else if !one_line {
                let label = self.primary(f.span, "on this rule");
                self.error("`takes` applies only to a rule of one `slide` or `hop` leg", vec![label], vec![
                    "note: such rules are walked along their lines; steps, leaps, `wind` and `distance` cannot restrict their captures".into(),
                ]);
                Err(())
            } else {
                self.kind_filter(f, all).map(Some)
            };
        }
        (if hop_ok { Ok(hop) } else { Err(()) }, over, takes)
    }

    /// The piece kinds a filter (`over`, `takes`) admits: those named, or with `not` every other
    /// declared kind.
    fn kind_filter(&mut self, f: &ast::KindFilter, all: &[&ast::Piece]) -> Result<Vec<PieceId>, ()> {
        let mut named = Vec::new();
        let mut ok = true;
        for name in &f.kinds {
            match all.iter().position(|q| q.symbol.text == name.text || q.name.text == name.text) {
                Some(k) => push_unique(&mut named, k),
                None => {
                    self.unknown("piece", name, "", all.iter().map(|q| q.name.text.as_str()));
                    ok = false;
                }
            }
        }
        if !ok {
            return Err(());
        }
        let kinds: Vec<PieceId> = if f.negated { (0..all.len()).filter(|k| !named.contains(k)).collect() } else { named };
        if kinds.is_empty() {
            let label = self.primary(f.span, "no kind left");
            self.error("this filter admits no piece", vec![label], vec!["note: `not` excludes every declared piece here".into()]);
            return Err(());
        }
        Ok(kinds)
    }
}
