//! Seam expressions (the condition, landing position and heading vector of a `seam` or
//! `identify`): type-checked once, then evaluated per step with `x`, `y`, `dx`, `dy`. Apart
//! because they are a small language of their own, used by seams and identified positions alike.

use super::*;

impl Frontend {
    /// Type-checks a seam: the condition is a condition, coordinates and vectors are numbers,
    /// variables exist.
    pub(super) fn check_seam(&mut self, s: &ast::Seam, kind: &str) -> bool {
        let mut ok = true;
        match self.expr_type(&s.when) {
            Some(Type::Bool) => {}
            Some(Type::Int) => {
                let label = self.primary(s.when.span, "this is a number");
                self.error(format!("the condition of {kind} `{}` is not a condition", s.name.text), vec![label], vec!["help: compare it, e.g. `y > 7`".into()]);
                ok = false;
            }
            None => ok = false,
        }
        let mut pairs = vec![(&s.to, "landing coordinate")];
        if let ast::SeamHeading::Vector(v) = &s.heading {
            pairs.push((v, "heading vector"));
        }
        for (pair, what) in pairs {
            for e in [&pair.x, &pair.y] {
                match self.expr_type(e) {
                    Some(Type::Int) => {}
                    Some(Type::Bool) => {
                        let label = self.primary(e.span, "this is a condition");
                        self.error(format!("a {what} of {kind} `{}` must be a number", s.name.text), vec![label], vec![]);
                        ok = false;
                    }
                    None => ok = false,
                }
            }
        }
        ok
    }

    /// The type of an expression, or `None` after reporting an error in it.
    pub(super) fn expr_type(&mut self, e: &ast::Expr) -> Option<Type> {
        use ast::{BinOp::*, ExprKind};
        match &e.kind {
            ExprKind::Int(_) => Some(Type::Int),
            ExprKind::Var(v) => {
                if VARIABLES.contains(&v.as_str()) {
                    Some(Type::Int)
                } else {
                    let mut notes = vec!["note: seam expressions know `x`, `y` (where the step would land) and `dx`, `dy` (the heading's vector)".to_string()];
                    if let Some(best) = closest(v, VARIABLES.iter().copied()) {
                        notes.insert(0, format!("help: did you mean `{best}`?"));
                    }
                    let label = self.primary(e.span, "not a seam variable");
                    self.error(format!("unknown variable `{v}`"), vec![label], notes);
                    None
                }
            }
            ExprKind::Neg(inner) => self.operand(inner, Type::Int, "-").map(|_| Type::Int),
            ExprKind::Not(inner) => self.operand(inner, Type::Bool, "not").map(|_| Type::Bool),
            ExprKind::Binary(op, a, b) => {
                let (operand, result) = match op {
                    Add | Sub | Mul | Div | Mod => (Type::Int, Type::Int),
                    Lt | Le | Gt | Ge | Eq | Ne => (Type::Int, Type::Bool),
                    And | Or => (Type::Bool, Type::Bool),
                };
                let ta = self.operand(a, operand, op.symbol());
                let tb = self.operand(b, operand, op.symbol());
                (ta.is_some() && tb.is_some()).then_some(result)
            }
        }
    }

    pub(super) fn operand(&mut self, e: &ast::Expr, wanted: Type, op: &str) -> Option<Type> {
        let t = self.expr_type(e)?;
        if t == wanted {
            return Some(t);
        }
        let (expected, found) = match wanted {
            Type::Int => ("a number", "a condition"),
            Type::Bool => ("a condition", "a number"),
        };
        let label = self.primary(e.span, format!("this is {found}"));
        self.error(format!("`{op}` expects {expected}, found {found}"), vec![label], vec![]);
        None
    }
}

// ---------------------------------------------------------------- seam expressions

pub(super) const VARIABLES: [&str; 4] = ["x", "y", "dx", "dy"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Type {
    Int,
    Bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Value {
    Int(i64),
    Bool(bool),
}

/// The variables of a seam expression for one step.
pub(super) struct Env {
    pub(super) x: i64,
    pub(super) y: i64,
    pub(super) dx: i64,
    pub(super) dy: i64,
}

/// The first use of one of `vars` in an expression: its span and name.
pub(super) fn find_var(e: &ast::Expr, vars: &[&str]) -> Option<(Span, String)> {
    match &e.kind {
        ast::ExprKind::Int(_) => None,
        ast::ExprKind::Var(v) => vars.contains(&v.as_str()).then(|| (e.span, v.clone())),
        ast::ExprKind::Neg(a) | ast::ExprKind::Not(a) => find_var(a, vars),
        ast::ExprKind::Binary(_, a, b) => find_var(a, vars).or_else(|| find_var(b, vars)),
    }
}

pub(super) fn eval_pair(p: &ast::ExprPair, env: &Env) -> Result<(i64, i64), String> {
    Ok((eval_int(&p.x, env)?, eval_int(&p.y, env)?))
}

pub(super) fn eval_int(e: &ast::Expr, env: &Env) -> Result<i64, String> {
    match eval(e, env)? {
        Value::Int(i) => Ok(i),
        Value::Bool(_) => Err("a condition where a number was expected".into()),
    }
}

pub(super) fn eval_bool(e: &ast::Expr, env: &Env) -> Result<bool, String> {
    match eval(e, env)? {
        Value::Bool(b) => Ok(b),
        Value::Int(_) => Err("a number where a condition was expected".into()),
    }
}

/// Evaluates a type-checked seam expression. Arithmetic is checked; `mod` is Euclidean (never
/// negative), `/` rounds toward negative infinity to match it.
pub(super) fn eval(e: &ast::Expr, env: &Env) -> Result<Value, String> {
    use ast::{BinOp::*, ExprKind};
    let overflow = || "arithmetic overflow".to_string();
    Ok(match &e.kind {
        ExprKind::Int(i) => Value::Int(*i),
        ExprKind::Var(v) => Value::Int(match v.as_str() {
            "x" => env.x,
            "y" => env.y,
            "dx" => env.dx,
            "dy" => env.dy,
            other => return Err(format!("unknown variable `{other}`")),
        }),
        ExprKind::Neg(a) => Value::Int(eval_int(a, env)?.checked_neg().ok_or_else(overflow)?),
        ExprKind::Not(a) => Value::Bool(!eval_bool(a, env)?),
        ExprKind::Binary(And, a, b) => Value::Bool(eval_bool(a, env)? && eval_bool(b, env)?),
        ExprKind::Binary(Or, a, b) => Value::Bool(eval_bool(a, env)? || eval_bool(b, env)?),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval_int(a, env)?, eval_int(b, env)?);
            match op {
                Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
                Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
                Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
                Div | Mod if b == 0 => return Err(format!("division by zero ({a} {} 0)", op.symbol())),
                Div => Value::Int(a.checked_div_euclid(b).ok_or_else(overflow)?),
                Mod => Value::Int(a.checked_rem_euclid(b).ok_or_else(overflow)?),
                Lt => Value::Bool(a < b),
                Le => Value::Bool(a <= b),
                Gt => Value::Bool(a > b),
                Ge => Value::Bool(a >= b),
                Eq => Value::Bool(a == b),
                Ne => Value::Bool(a != b),
                And | Or => return Err("internal: logical operator on numbers".into()),
            }
        }
    })
}
