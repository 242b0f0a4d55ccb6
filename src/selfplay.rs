//! `orbis selfplay`: the engine against itself from varied openings, and a balance report (wins
//! by side, draws, game lengths, the first side's advantage with a confidence interval), so a
//! designer can tell whether a variant is balanced. Games of two sides.

use orbis_runtime::{Engine, SearchLimits};
use serde_json::{json, Value};

/// How the games are played.
pub struct Plan {
    pub limits: SearchLimits,
    /// Random legal moves that open each game (varied openings), from `seed`.
    pub opening_plies: u32,
    pub seed: u64,
    /// A game still going after this many plies counts as a draw.
    pub max_plies: u32,
}

/// How one game ended: the winning side (0 or 1) or a draw, and its length in plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub winner: Option<usize>,
    pub plies: u32,
    pub end: String,
}

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The winner a status text names (`Engine::play_status`): checkmate loses for the mated side;
/// stalemate and bare as their text says; everything else is a draw.
fn winner(status: &str, sides: &[String]) -> Option<usize> {
    let side_of = |name: &str| sides.iter().position(|s| s == name);
    let first_word = |rest: &str| rest.split_whitespace().next().map(str::to_string).unwrap_or_default();
    if let Some(rest) = status.strip_prefix("checkmate: ") {
        return side_of(&first_word(rest)).map(|l| 1 - l);
    }
    for prefix in ["stalemate: ", "bare: "] {
        if let Some(rest) = status.strip_prefix(prefix) {
            let side = side_of(&first_word(rest))?;
            if status.contains("a loss for") {
                return Some(1 - side);
            }
            if status.contains("a win for") {
                return Some(side);
            }
        }
    }
    None
}

/// Plays game `index` of the plan.
pub fn play_one(engine: &Engine, plan: &Plan, index: u32) -> Result<Game, String> {
    let sides: Vec<String> = engine.tables().sides.iter().map(|s| s.name.clone()).collect();
    let mut state = (plan.seed ^ u64::from(index).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
    let mut moves: Vec<String> = Vec::new();
    loop {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let (text, status) = engine.play_status(None, &refs).map_err(|e| e.to_string())?;
        if status != "ongoing" {
            return Ok(Game { winner: winner(&status, &sides), plies: moves.len() as u32, end: status });
        }
        if moves.len() as u32 >= plan.max_plies {
            return Ok(Game { winner: None, plies: moves.len() as u32, end: format!("move limit ({} plies)", plan.max_plies) });
        }
        let mv = if (moves.len() as u32) < plan.opening_plies {
            let legal = engine.moves(Some(&text)).map_err(|e| e.to_string())?;
            legal[(next(&mut state) % legal.len() as u64) as usize].notation.clone()
        } else {
            let r = engine.search(Some(&text), &[], plan.limits).map_err(|e| e.to_string())?;
            r.best.map(|m| m.notation).ok_or("the engine found no move in an ongoing game")?
        };
        moves.push(mv);
    }
}

/// The report over finished games: text and JSON.
pub fn report(engine: &Engine, games: &[Game]) -> (String, Value) {
    let sides: Vec<String> = engine.tables().sides.iter().map(|s| s.name.clone()).collect();
    let n = games.len().max(1) as f64;
    let wins = [0, 1].map(|s| games.iter().filter(|g| g.winner == Some(s)).count());
    let draws = games.len() - wins[0] - wins[1];
    // The first side's score (a draw counts half) and its 95% Wilson interval.
    let p = (wins[0] as f64 + draws as f64 / 2.0) / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    let (lo, hi) = ((centre - half).max(0.0), (centre + half).min(1.0));
    let lengths: Vec<u32> = games.iter().map(|g| g.plies).collect();
    let mean = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / n;
    let mut sorted = lengths.clone();
    sorted.sort_unstable();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
    // Lengths in buckets of ten plies.
    let mut buckets: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for &l in &lengths {
        *buckets.entry(l / 10 * 10).or_default() += 1;
    }
    let mut ends: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for g in games {
        let kind = g.end.split(':').next().unwrap_or("").split(" (").next().unwrap_or("").to_string();
        *ends.entry(kind).or_default() += 1;
    }
    let mut text = format!(
        "{} games of {}\n{} wins: {}\n{} wins: {}\ndraws: {}\ndecisive: {:.1}%\n",
        games.len(),
        engine.tables().name,
        sides[0],
        wins[0],
        sides[1],
        wins[1],
        draws,
        100.0 * (wins[0] + wins[1]) as f64 / n
    );
    text += &format!("{} scores {:.3} (95% interval {:.3} to {:.3}; 0.5 is balanced)\n", sides[0], p, lo, hi);
    text += &format!("length: mean {mean:.1} plies, median {median}, shortest {}, longest {}\n", sorted.first().unwrap_or(&0), sorted.last().unwrap_or(&0));
    text += "lengths (plies: games):";
    for (b, c) in &buckets {
        text += &format!(" {b}-{}: {c}", b + 9);
    }
    text += "\nendings:";
    for (e, c) in &ends {
        text += &format!(" {e}: {c};");
    }
    text.push('\n');
    let value = json!({
        "variant": engine.tables().name,
        "games": games.len(),
        "wins": { sides[0].clone(): wins[0], sides[1].clone(): wins[1] },
        "draws": draws,
        "first_side_score": p,
        "first_side_interval": [lo, hi],
        "length": { "mean": mean, "median": median, "min": sorted.first(), "max": sorted.last(), "buckets": buckets },
        "endings": ends,
        "games_detail": games.iter().map(|g| json!({ "winner": g.winner.map(|w| sides[w].clone()), "plies": g.plies, "end": g.end })).collect::<Vec<_>>(),
    });
    (text, value)
}

#[cfg(test)]
mod tests {
    use super::winner;

    #[test]
    fn winners_from_status_texts() {
        let sides = vec!["white".to_string(), "black".to_string()];
        assert_eq!(winner("checkmate: black is mated", &sides), Some(0));
        assert_eq!(winner("checkmate: white is mated", &sides), Some(1));
        assert_eq!(winner("stalemate: black cannot move; a loss for the stalemated side", &sides), Some(0));
        assert_eq!(winner("stalemate: black cannot move; a win for the stalemated side", &sides), Some(1));
        assert_eq!(winner("stalemate: black cannot move; a draw", &sides), None);
        assert_eq!(winner("bare: white has only royal pieces left; a loss for white", &sides), Some(1));
        assert_eq!(winner("draw by repetition", &sides), None);
    }
}
