//! `orbis serve`: a local web page to play a variant against the engine or another person.
//!
//! The server keeps no game state. The page holds the game (the start position and the moves
//! played) and sends it whole with every request; the server replays it through
//! [`Engine::view`] and answers with the board drawn by the diagram crate, the legal moves and
//! the status, or with the engine's move. A bad request can therefore corrupt nothing: it gets a
//! 4xx answer with a message, and the next request starts from its own data again.
//!
//! Requests (JSON bodies and answers; errors are `{"error": "..."}`):
//! - `GET /`, `/app.js`, `/style.css`: the page.
//! - `GET /api/variant`: the variant's name, sides, the start position (null: the setup), whether
//!   the board can be turned round, and the engine's time limits.
//! - `POST /api/view` `{"start": FEN|null, "moves": [...], "flip": bool}`: the game after the moves
//!   (with each side's pieces in hand in games that have hands).
//! - `POST /api/engine` `{"start", "moves", "time_ms"}`: the engine's move there.

use orbis_runtime::{Engine, GameView, MoveInfo, RequestError, Score, SearchLimits};
use serde_json::{json, Value};
use std::io::Read;
use std::time::Duration;

/// The largest request body read; longer bodies get 413 (a game of the most moves a request may
/// play, [`orbis_runtime::engine::MAX_PLAYED_MOVES`], fits many times over).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Requests answered at the same time (each engine move holds one for its thinking time).
pub const WORKERS: usize = 4;

/// The longest start position text accepted.
pub const MAX_START_BYTES: usize = 4096;

const INDEX_HTML: &str = include_str!("web/index.html");
const APP_JS: &str = include_str!("web/app.js");
const STYLE_CSS: &str = include_str!("web/style.css");

/// What the server offers the page.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The position games start from (`--position`); the variant's setup when `None`.
    pub start: Option<String>,
    pub time: EngineTime,
}

/// How long the engine thinks.
#[derive(Debug, Clone, Copy)]
pub struct EngineTime {
    /// Thinking time per move when the page asks for none.
    pub default: Duration,
    /// The most a page may ask for.
    pub max: Duration,
}

/// An answer: status code, content type, body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    fn json(status: u16, value: Value) -> Reply {
        Reply { status, content_type: "application/json", body: value.to_string() }
    }

    fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply::json(status, json!({ "error": message.into() }))
    }

    fn asset(content_type: &'static str, body: &str) -> Reply {
        Reply { status: 200, content_type, body: body.to_string() }
    }
}

/// Serves the page on `address` until the process ends; `ready` is called with the bound
/// address (the port chosen when `address` asks for port 0).
pub fn run(engine: &Engine, address: &str, settings: &Settings, ready: impl FnOnce(&str)) -> Result<(), String> {
    let server = tiny_http::Server::http(address).map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let bound = match server.server_addr() {
        tiny_http::ListenAddr::IP(a) => a.to_string(),
        #[allow(unreachable_patterns)]
        _ => address.to_string(),
    };
    ready(&bound);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Ok(request) = server.recv() {
                    answer(engine, settings, request);
                }
            });
        }
    });
    Ok(())
}

/// Reads one request (its body bounded), handles it and writes the reply.
fn answer(engine: &Engine, settings: &Settings, mut request: tiny_http::Request) {
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let mut body = Vec::new();
    let read = request.as_reader().take(MAX_BODY_BYTES as u64 + 1).read_to_end(&mut body);
    let reply = match read {
        Err(e) => Reply::error(400, format!("cannot read the request body: {e}")),
        Ok(_) if body.len() > MAX_BODY_BYTES => Reply::error(413, format!("the request body is over {MAX_BODY_BYTES} bytes")),
        Ok(_) => handle(engine, settings, &method, &url, &body),
    };
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], reply.content_type.as_bytes()).expect("a valid header");
    let no_store = tiny_http::Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..]).expect("a valid header");
    let response = tiny_http::Response::from_string(reply.body).with_status_code(reply.status).with_header(header).with_header(no_store);
    // A client that went away gets no answer; nothing else to do.
    let _ = request.respond(response);
}

/// Answers one request: a pure function of the request, so tests call it directly.
pub fn handle(engine: &Engine, settings: &Settings, method: &str, url: &str, body: &[u8]) -> Reply {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let get = |reply: Reply| if method == "GET" { reply } else { Reply::error(405, format!("{path} answers GET only")) };
    match path {
        "/" | "/index.html" => get(Reply::asset("text/html; charset=utf-8", INDEX_HTML)),
        "/app.js" => get(Reply::asset("text/javascript; charset=utf-8", APP_JS)),
        "/style.css" => get(Reply::asset("text/css; charset=utf-8", STYLE_CSS)),
        "/api/variant" => get(variant(engine, settings)),
        "/api/view" | "/api/engine" if method != "POST" => Reply::error(405, format!("{path} answers POST only")),
        "/api/view" => match parse_game(body) {
            Ok(game) => view(engine, &game),
            Err(e) => Reply::error(400, e),
        },
        "/api/engine" => match parse_game(body) {
            Ok(game) => engine_move(engine, settings.time, &game),
            Err(e) => Reply::error(400, e),
        },
        _ => Reply::error(404, format!("no page {path}")),
    }
}

/// A game as the page sends it.
struct GameRequest {
    start: Option<String>,
    moves: Vec<String>,
    flip: bool,
    time_ms: Option<u64>,
}

impl GameRequest {
    fn moves(&self) -> Vec<&str> {
        self.moves.iter().map(String::as_str).collect()
    }
}

fn parse_game(body: &[u8]) -> Result<GameRequest, String> {
    let value: Value = serde_json::from_slice(body).map_err(|e| format!("the body is not JSON: {e}"))?;
    let object = value.as_object().ok_or("the body must be a JSON object")?;
    for key in object.keys() {
        if !["start", "moves", "flip", "time_ms"].contains(&key.as_str()) {
            return Err(format!("unknown field '{key}' (the fields are start, moves, flip, time_ms)"));
        }
    }
    let start = match object.get("start") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.len() > MAX_START_BYTES => return Err(format!("'start' is over {MAX_START_BYTES} bytes")),
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("'start' must be a position's text or null".into()),
    };
    let moves = match object.get("moves") {
        None => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|m| m.as_str().map(str::to_string).ok_or("'moves' must be a list of move texts"))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("'moves' must be a list of move texts".into()),
    };
    let flip = match object.get("flip") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("'flip' must be true or false".into()),
    };
    let time_ms = match object.get("time_ms") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().filter(|&t| t >= 1).ok_or("'time_ms' must be a whole number of milliseconds, at least 1")?),
    };
    Ok(GameRequest { start, moves, flip, time_ms })
}

/// A request's game that cannot be played is the client's error (400), whatever the reason.
fn request_error(e: RequestError) -> Reply {
    Reply::error(400, e.to_string())
}

fn variant(engine: &Engine, settings: &Settings) -> Reply {
    let t = engine.tables();
    let time = settings.time;
    Reply::json(
        200,
        json!({
            "name": t.name,
            "start": settings.start,
            "sides": t.sides.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            "flippable": t.grid.is_some(),
            "engine_time_ms": time.default.as_millis() as u64,
            "max_time_ms": time.max.as_millis() as u64,
        }),
    )
}

fn move_json(m: &MoveInfo) -> Value {
    json!({
        "from": m.from,
        "to": m.to,
        "notation": m.notation,
        "promotion": m.promotion.map(|c| c.to_string()),
        "kind": m.kind,
    })
}

fn view(engine: &Engine, game: &GameRequest) -> Reply {
    let view: GameView = match engine.view(game.start.as_deref(), &game.moves()) {
        Ok(v) => v,
        Err(e) => return request_error(e),
    };
    if game.flip && engine.tables().grid.is_none() {
        return Reply::error(400, "'flip' turns grid boards round; this board has no second side's view");
    }
    let opts = orbis_diagram::Options {
        position: Some(view.text.clone()),
        last: view.last.iter().flat_map(|m| [m.from.clone(), m.to.clone()]).collect(),
        check: view.check.clone(),
        flip: game.flip,
        interactive: true,
        ..Default::default()
    };
    let svg = match orbis_diagram::render(engine, &opts) {
        Ok(svg) => svg,
        Err(e) => return Reply::error(500, format!("cannot draw the board: {e}")),
    };
    Reply::json(
        200,
        json!({
            "svg": svg,
            "position": view.text,
            "status": view.status,
            "over": view.is_over(),
            "to_move": view.to_move,
            "check": view.check,
            "last": view.last.as_ref().map(move_json),
            "played": view.played,
            "legal": view.legal.iter().map(move_json).collect::<Vec<_>>(),
            "hands": hands_json(&view),
        }),
    )
}

/// The sides' hands (empty when the game has none): per side its name and the pieces held,
/// each with its symbol, name, count and figure (an `<svg>` as the board draws the piece).
fn hands_json(view: &GameView) -> Value {
    let hands = view.hands.iter().enumerate().map(|(side, hand)| {
        let pieces = hand.pieces.iter().map(|p| {
            let glyph = orbis_diagram::pieces::glyph(&p.name, p.symbol, side, &hand.side);
            json!({
                "symbol": p.symbol.to_string(),
                "name": p.name,
                "count": p.count,
                "svg": format!("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\">{glyph}</svg>"),
            })
        });
        json!({ "side": hand.side, "pieces": pieces.collect::<Vec<_>>() })
    });
    Value::Array(hands.collect())
}

fn engine_move(engine: &Engine, time: EngineTime, game: &GameRequest) -> Reply {
    let wanted = game.time_ms.map_or(time.default, Duration::from_millis);
    if wanted > time.max {
        return Reply::error(400, format!("'time_ms' {} is over the server's limit of {} ms", wanted.as_millis(), time.max.as_millis()));
    }
    let limits = SearchLimits { movetime: Some(wanted), ..Default::default() };
    let report = match engine.search(game.start.as_deref(), &game.moves(), limits) {
        Ok(r) => r,
        Err(e) => return request_error(e),
    };
    let Some(best) = report.best else {
        return Reply::error(409, "the game is over: there is no move to make");
    };
    let score = match report.score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    };
    Reply::json(
        200,
        json!({
            "move": move_json(&best),
            "score": score,
            "depth": report.depth,
            "nodes": report.nodes,
            "pv": report.pv,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(file: &str) -> Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let source = std::fs::read_to_string(&path).expect("the example");
        let checked = orbis_compiler::check(path.to_str().expect("utf-8 path"), &source);
        Engine::new(checked.tables.expect("the example checks")).expect("loads")
    }

    fn settings() -> Settings {
        Settings { start: None, time: EngineTime { default: Duration::from_millis(50), max: Duration::from_millis(500) } }
    }

    fn post(engine: &Engine, path: &str, body: &str) -> (u16, Value) {
        let reply = handle(engine, &settings(), "POST", path, body.as_bytes());
        let value = serde_json::from_str(&reply.body).expect("JSON");
        (reply.status, value)
    }

    #[test]
    fn the_view_replays_the_game_it_is_sent() {
        let e = engine("examples/orthodox.orbis");
        let (status, v) = post(&e, "/api/view", r#"{"moves": ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]}"#);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["over"], true);
        assert_eq!(v["status"], "checkmate: black is mated");
        assert_eq!(v["check"], json!(["e8"]));
        assert_eq!(v["last"]["notation"], "Qh5xf7");
        assert_eq!(v["played"][0], "Pe2-e4");
        assert_eq!(v["legal"], json!([]));
        let svg = v["svg"].as_str().expect("svg");
        assert_eq!(svg.matches("class=\"cell\"").count(), 64);
        assert!(svg.contains("data-cell=\"f7\""));
        assert_eq!(svg.matches("class=\"last-move\"").count(), 2);
        assert_eq!(svg.matches("class=\"in-check\"").count(), 1);
    }

    #[test]
    fn bad_requests_get_4xx_answers_with_a_message() {
        let e = engine("examples/orthodox.orbis");
        let cases: &[(&str, &str, &str, u16, &str)] = &[
            ("POST", "/api/view", "not json", 400, "not JSON"),
            ("POST", "/api/view", "[1, 2]", 400, "JSON object"),
            ("POST", "/api/view", r#"{"moves": "e2e4"}"#, 400, "list of move texts"),
            ("POST", "/api/view", r#"{"moves": [1]}"#, 400, "list of move texts"),
            ("POST", "/api/view", r#"{"moves": ["e2e5"]}"#, 400, "illegal move 'e2e5'"),
            ("POST", "/api/view", r#"{"moves": ["zz"]}"#, 400, "move 1"),
            ("POST", "/api/view", r#"{"start": "8/8/8/8 w"}"#, 400, ""),
            ("POST", "/api/view", r#"{"start": 5}"#, 400, "'start'"),
            ("POST", "/api/view", r#"{"flip": "yes"}"#, 400, "'flip'"),
            ("POST", "/api/view", r#"{"mvoes": []}"#, 400, "unknown field 'mvoes'"),
            ("POST", "/api/view", r#"{"moves": ["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"]}"#, 400, "after the game ended"),
            ("POST", "/api/engine", r#"{"moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}"#, 409, "game is over"),
            ("POST", "/api/engine", r#"{"time_ms": 0}"#, 400, "'time_ms'"),
            ("POST", "/api/engine", r#"{"time_ms": 999999}"#, 400, "limit of 500 ms"),
            ("POST", "/api/engine", r#"{"time_ms": -3}"#, 400, "'time_ms'"),
            ("GET", "/api/view", "", 405, "POST only"),
            ("POST", "/", "", 405, "GET only"),
            ("GET", "/etc/passwd", "", 404, "no page"),
            ("GET", "/../Cargo.toml", "", 404, "no page"),
        ];
        for &(method, path, body, code, message) in cases {
            let reply = handle(&e, &settings(), method, path, body.as_bytes());
            assert_eq!(reply.status, code, "{method} {path} {body}: {}", reply.body);
            let v: Value = serde_json::from_str(&reply.body).expect("JSON");
            let error = v["error"].as_str().unwrap_or_else(|| panic!("an error message: {}", reply.body));
            assert!(error.contains(message), "{method} {path} {body}: {error}");
        }
        let many = format!(r#"{{"moves": [{}]}}"#, vec!["\"e2e4\""; orbis_runtime::engine::MAX_PLAYED_MOVES + 1].join(","));
        assert_eq!(post(&e, "/api/view", &many).0, 400);
    }

    #[test]
    fn the_engine_answers_with_a_legal_move() {
        let e = engine("examples/orthodox.orbis");
        // Mate in one: the engine finds it.
        let (status, v) = post(&e, "/api/engine", r#"{"start": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "time_ms": 200}"#);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["move"]["notation"], "Ra1-a8");
        assert_eq!(v["score"]["mate"], 1);
    }

    #[test]
    fn the_page_and_its_files_are_served() {
        let e = engine("examples/orthodox.orbis");
        for (path, kind) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css")] {
            let reply = handle(&e, &settings(), "GET", path, b"");
            assert_eq!(reply.status, 200);
            assert!(reply.content_type.starts_with(kind));
        }
        let v: Value = serde_json::from_str(&handle(&e, &settings(), "GET", "/api/variant?x=1", b"").body).expect("JSON");
        assert_eq!(v["sides"], json!(["white", "black"]));
        assert_eq!(v["flippable"], true);
    }

    #[test]
    fn the_view_shows_both_hands() {
        let e = engine("examples/fairy/crazyhouse.orbis");
        let (status, v) = post(&e, "/api/view", r#"{"moves": []}"#);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["hands"], json!([{ "side": "white", "pieces": [] }, { "side": "black", "pieces": [] }]));
        // After two pawn captures each side holds a pawn; a drop is among the legal moves.
        let (status, v) = post(&e, "/api/view", r#"{"moves": ["e2e4", "d7d5", "e4d5", "d8d5"]}"#);
        assert_eq!(status, 200, "{v}");
        for (side, hand) in ["white", "black"].iter().zip(v["hands"].as_array().expect("hands")) {
            assert_eq!(hand["side"], *side);
            let pieces = hand["pieces"].as_array().expect("pieces");
            assert_eq!(pieces.len(), 1, "{hand}");
            assert_eq!((&pieces[0]["symbol"], &pieces[0]["name"], &pieces[0]["count"]), (&json!("P"), &json!("Pawn"), &json!(1)));
            assert!(pieces[0]["svg"].as_str().expect("svg").starts_with("<svg"));
        }
        assert!(v["legal"].as_array().expect("legal").iter().any(|m| m["notation"] == "P@e4" && m["kind"] == "drop"));
        // A game without hands has none.
        let (_, v) = post(&engine("examples/orthodox.orbis"), "/api/view", r#"{"moves": []}"#);
        assert_eq!(v["hands"], json!([]));
    }

    #[test]
    fn boards_of_polygons_are_served_but_not_flipped() {
        let e = engine("examples/soccer-ball/soccer-ball.orbis");
        let (status, v) = post(&e, "/api/view", r#"{"moves": []}"#);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["svg"].as_str().expect("svg").matches("class=\"cell\"").count(), 32);
        let (status, v) = post(&e, "/api/view", r#"{"flip": true}"#);
        assert_eq!(status, 400);
        assert!(v["error"].as_str().expect("message").contains("no second side's view"));
    }
}
