//! `orbis serve` in a real headless Chromium, used as a person uses it: load the page, click a
//! pawn and see its destinations, move, get the engine's reply, play through to a mate, promote
//! through the chooser, turn the board round, play on the soccer ball, and drop from Crazyhouse's
//! hands. Screenshots go to
//! `target/web-screenshots/` (look at them).
//!
//! Chromium is Debian's `chromium` (`/usr/bin/chromium`, or the path in `ORBIS_CHROMIUM`), driven
//! over the DevTools protocol by the `headless_chrome` crate. `.ci/run` installs it and sets `CI`;
//! without Chromium these tests fail under CI and are skipped (with a message) elsewhere.

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("ORBIS_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].iter().map(PathBuf::from).find(|p| p.exists())
}

/// A headless browser, or `None` (skip) outside CI when there is none.
fn browser() -> Option<Browser> {
    let Some(path) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium is missing under CI: .ci/run installs Debian's chromium (or set ORBIS_CHROMIUM)"
        );
        eprintln!("skipped: no Chromium here (install Debian's chromium or set ORBIS_CHROMIUM)");
        return None;
    };
    let profile = tempdir("chromium-profile");
    let profile_arg = format!("--user-data-dir={}", profile.display());
    // This machine's network is closed: without these flags Chromium keeps trying to reach out.
    let flags = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        profile_arg.as_str(),
    ];
    let args: Vec<&OsStr> = flags.iter().map(OsStr::new).collect();
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1300, 1000)))
        .idle_browser_timeout(Duration::from_secs(120))
        .args(args)
        .build()
        .expect("launch options");
    Some(Browser::new(options).expect("Chromium starts"))
}

fn tempdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `orbis serve` on a free port, stopped when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(file: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
            .args(["serve", file, "--port", "0", "--time", "150"])
            .args(extra)
            .current_dir(root())
            .stdout(Stdio::piped())
            .spawn()
            .expect("orbis serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the address line");
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("no address in {line:?}")).to_string();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn eval(tab: &Tab, js: &str) -> serde_json::Value {
    tab.evaluate(js, false).unwrap_or_else(|e| panic!("{js}: {e}")).value.unwrap_or(serde_json::Value::Null)
}

fn text(tab: &Tab, js: &str) -> String {
    match eval(tab, js) {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}

/// Waits until the page is idle with `moves` moves played.
fn settle(tab: &Tab, moves: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let state = text(tab, "document.body.dataset.state || ''");
        let played = text(tab, "document.body.dataset.moves || ''");
        if state == "ready" && played == moves.to_string() {
            return;
        }
        assert!(Instant::now() < deadline, "the page did not reach {moves} moves (state {state:?}, moves {played:?}, message {:?})", text(tab, "document.getElementById('message').textContent"));
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn click_cell(tab: &Tab, cell: &str) {
    tab.find_element(&format!("#board .cell[data-cell='{cell}']")).unwrap_or_else(|e| panic!("cell {cell}: {e}")).click().expect("click");
}

/// The cells marked as destinations, sorted.
fn destinations(tab: &Tab) -> Vec<String> {
    let list = text(tab, "[...document.querySelectorAll('#board .cell.dest')].map(e => e.dataset.cell).sort().join(' ')");
    list.split_whitespace().map(str::to_string).collect()
}

fn moves_listed(tab: &Tab) -> Vec<String> {
    let list = text(tab, "[...document.querySelectorAll('#move-list li')].map(e => e.textContent).join(' ')");
    list.split_whitespace().map(str::to_string).collect()
}

fn screenshot(tab: &Tab, name: &str) -> PathBuf {
    let png = tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).expect("screenshot");
    let dir = root().join("target").join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let path = dir.join(name);
    std::fs::write(&path, png).expect("write screenshot");
    path
}

fn open(browser: &Browser, server: &Server) -> Arc<Tab> {
    let tab = browser.new_tab().expect("tab");
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&server.url).expect("navigate").wait_until_navigated().expect("loaded");
    tab.wait_for_element("#board .cell").expect("the board is drawn");
    tab
}

#[test]
fn a_game_against_the_engine_then_a_mate_between_two_players() {
    let Some(browser) = browser() else { return };
    let server = Server::start("examples/orthodox.orbis", &[]);
    let tab = open(&browser, &server);
    settle(&tab, 0);
    assert_eq!(text(&tab, "document.getElementById('status').textContent"), "white to move");

    // A pawn's destinations, then the move and the engine's reply.
    click_cell(&tab, "e2");
    assert_eq!(destinations(&tab), ["e3", "e4"]);
    click_cell(&tab, "e4");
    settle(&tab, 2);
    let listed = moves_listed(&tab);
    assert_eq!(listed[0], "Pe2-e4");
    assert_eq!(listed.len(), 2, "the engine replied: {listed:?}");
    // The last move is marked on the board.
    assert_eq!(eval(&tab, "document.querySelectorAll('#board .last-move').length"), 2);

    // Undo takes back the engine's reply and the player's move.
    tab.find_element("#undo").expect("undo").click().expect("click");
    settle(&tab, 0);

    // Two players at one screen: the fool's mate, by clicks.
    eval(&tab, "document.getElementById('engine-side').value = ''");
    tab.find_element("#new").expect("new").click().expect("click");
    settle(&tab, 0);
    for (i, (from, to)) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")].into_iter().enumerate() {
        click_cell(&tab, from);
        assert!(destinations(&tab).contains(&to.to_string()), "{from} reaches {to}");
        click_cell(&tab, to);
        settle(&tab, i + 1);
    }
    let status = text(&tab, "document.getElementById('status').textContent");
    assert!(status.contains("checkmate"), "{status}");
    assert_eq!(text(&tab, "document.body.dataset.over"), "true");
    // The mated king is marked.
    assert_eq!(eval(&tab, "document.querySelectorAll('#board .in-check').length"), 1);
    // No more moves are taken.
    click_cell(&tab, "e1");
    assert!(destinations(&tab).is_empty());
    let shot = screenshot(&tab, "orthodox-fools-mate.png");
    assert!(std::fs::metadata(&shot).expect("written").len() > 10_000);

    // Flip: the first rank is drawn on top.
    let y = |cell: &str| eval(&tab, &format!("document.querySelector(\"#board .cell[data-cell='{cell}']\").getBoundingClientRect().top")).as_f64().expect("a number");
    assert!(y("e1") > y("e8"));
    tab.find_element("#flip").expect("flip").click().expect("click");
    settle(&tab, 4);
    assert!(y("e1") < y("e8"), "turned round");
    screenshot(&tab, "orthodox-flipped.png");
}

#[test]
fn promotion_offers_a_choice() {
    let Some(browser) = browser() else { return };
    let server = Server::start("examples/orthodox.orbis", &["--position", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1"]);
    let tab = open(&browser, &server);
    eval(&tab, "document.getElementById('engine-side').value = ''");
    settle(&tab, 0);
    click_cell(&tab, "e7");
    click_cell(&tab, "e8");
    assert_eq!(text(&tab, "document.getElementById('chooser').hidden"), "false");
    let offered = text(&tab, "[...document.querySelectorAll('#choices button')].map(b => b.dataset.move).sort().join(' ')");
    assert_eq!(offered, "Pe7-e8=B Pe7-e8=N Pe7-e8=Q Pe7-e8=R");
    tab.find_element("#choices button[data-move='Pe7-e8=Q']").expect("the queen").click().expect("click");
    settle(&tab, 1);
    assert_eq!(moves_listed(&tab), ["Pe7-e8=Q"]);
    assert_eq!(text(&tab, "document.getElementById('status').textContent"), "black to move: check!");
    screenshot(&tab, "orthodox-promotion.png");
}

/// Janggi's pass has no cell to click: a button offers it while it is legal, and two passes end
/// the game.
#[test]
fn janggi_passes_by_a_button() {
    let Some(browser) = browser() else { return };
    let server = Server::start("examples/fairy/janggi.orbis", &[]);
    let tab = open(&browser, &server);
    eval(&tab, "document.getElementById('engine-side').value = ''");
    settle(&tab, 0);
    assert_eq!(text(&tab, "document.getElementById('pass').hidden"), "false");
    screenshot(&tab, "janggi-pass.png");
    tab.find_element("#pass").expect("the pass button").click().expect("click");
    settle(&tab, 1);
    assert_eq!(moves_listed(&tab), ["pass"]);
    tab.find_element("#pass").expect("the pass button").click().expect("click");
    settle(&tab, 2);
    assert_eq!(text(&tab, "document.getElementById('status').textContent"), "Game over: draw: both sides passed");
    assert_eq!(text(&tab, "document.getElementById('pass').hidden"), "true");
}

#[test]
fn the_soccer_ball_is_played_by_clicks() {
    let Some(browser) = browser() else { return };
    let server = Server::start("examples/soccer-ball/soccer-ball.orbis", &[]);
    let tab = open(&browser, &server);
    settle(&tab, 0);
    // No second side's view of the ball.
    assert_eq!(text(&tab, "document.getElementById('flip').hidden"), "true");
    let from = text(&tab, "view.legal[0].from");
    let expected = text(&tab, &format!("[...new Set(view.legal.filter(m => m.from === '{from}').map(m => m.to))].sort().join(' ')"));
    click_cell(&tab, &from);
    assert_eq!(destinations(&tab).join(" "), expected);
    let to = expected.split_whitespace().next().expect("a destination").to_string();
    click_cell(&tab, &to);
    settle(&tab, 2);
    assert_eq!(moves_listed(&tab).len(), 2, "the engine replied on the ball");
    let shot = screenshot(&tab, "soccer-ball.png");
    assert!(Path::new(&shot).exists());
}

#[test]
fn crazyhouse_shows_both_hands_and_drops_from_them() {
    let Some(browser) = browser() else { return };
    let server = Server::start("examples/fairy/crazyhouse.orbis", &[]);
    let tab = open(&browser, &server);
    eval(&tab, "document.getElementById('engine-side').value = ''");
    settle(&tab, 0);
    let hands = |tab: &Tab| text(tab, "[...document.querySelectorAll('#hands .hand')].map(h => h.dataset.side + ':' + [...h.querySelectorAll('.held')].map(b => b.dataset.symbol + b.dataset.count).join(',')).join(' ')");
    assert_eq!(hands(&tab), "white: black:");
    // Two captures: each side holds a pawn.
    for (i, (from, to)) in [("e2", "e4"), ("d7", "d5"), ("e4", "d5"), ("d8", "d5")].into_iter().enumerate() {
        click_cell(&tab, from);
        click_cell(&tab, to);
        settle(&tab, i + 1);
    }
    assert_eq!(hands(&tab), "white:P1 black:P1");
    assert_eq!(text(&tab, "document.getElementById('hands').hidden"), "false");
    // The side to move's pawn in hand: its drops are shown, then one is played.
    tab.find_element("#hands .hand[data-side='white'] .held[data-symbol='P']").expect("white's pawn").click().expect("click");
    let cells = destinations(&tab);
    assert!(cells.contains(&"e4".to_string()) && !cells.iter().any(|c| c.ends_with('1') || c.ends_with('8')), "{cells:?}");
    screenshot(&tab, "crazyhouse-hands.png");
    click_cell(&tab, "e4");
    settle(&tab, 5);
    assert_eq!(moves_listed(&tab).last().map(String::as_str), Some("P@e4"));
    assert_eq!(hands(&tab), "white: black:P1");
    screenshot(&tab, "crazyhouse-dropped.png");
}
