// The orbis play page. The game lives here (start position and moves played); every request
// sends it whole, and the server answers with the board, the legal moves and the status.
"use strict";

const game = { start: null, moves: [], flip: false };
let variant = null;     // /api/variant
let view = null;        // the last /api/view answer
let selected = null;    // the cell whose moves are shown
let selectedHand = null; // or the symbol of the hand's piece whose drops are shown
let busy = false;       // a request is on its way

const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `${response.status}`);
  return answer;
}

function setBusy(on, what) {
  busy = on;
  document.body.dataset.state = on ? what : "ready";
}

function say(message) {
  $("message").textContent = message || "";
}

function engineSide() {
  return $("engine-side").value;
}

async function refresh() {
  setBusy(true, "loading");
  try {
    view = await api("/api/view", game);
    say("");
  } catch (e) {
    say(e.message);
    setBusy(false);
    return;
  }
  selected = null;
  selectedHand = null;
  render();
  setBusy(false);
  await engineTurn();
}

function render() {
  $("board").innerHTML = view.svg;
  for (const cell of document.querySelectorAll("#board .cell")) {
    cell.addEventListener("click", () => clickCell(cell.dataset.cell));
  }
  renderHands();
  const list = $("move-list");
  list.innerHTML = "";
  view.played.forEach((m) => {
    const item = document.createElement("li");
    item.textContent = m;
    list.appendChild(item);
  });
  const status = $("status");
  status.className = "";
  if (view.over) {
    status.textContent = `Game over: ${view.status}`;
    status.classList.add("over");
  } else if (view.check.length > 0) {
    status.textContent = `${view.to_move} to move: check!`;
    status.classList.add("check");
  } else {
    status.textContent = `${view.to_move} to move`;
  }
  $("chooser").hidden = true;
  // A pass (`rules { pass }`) has no cell to click: a button, while it is legal for the player.
  $("pass").hidden = view.over || engineSide() === view.to_move || !view.legal.some((m) => m.kind === "pass");
  document.body.dataset.moves = String(view.played.length);
  document.body.dataset.over = String(view.over);
}

// The moves from the hand of the side to move that bring the piece `symbol` in (`P@e4`).
function handMoves(symbol) {
  return view.legal.filter((m) => (m.kind === "drop" || m.kind === "crown") && m.notation.startsWith(`${symbol}@`));
}

// Each side's pieces in hand with their counts; the side to move's are buttons that show where
// the piece may be dropped.
function renderHands() {
  const box = $("hand-rows");
  box.innerHTML = "";
  $("hands").hidden = view.hands.length === 0;
  for (const hand of view.hands) {
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.side = hand.side;
    const name = document.createElement("span");
    name.className = "hand-side";
    name.textContent = hand.side;
    row.appendChild(name);
    if (hand.pieces.length === 0) {
      const none = document.createElement("span");
      none.className = "hand-empty";
      none.textContent = "no pieces in hand";
      row.appendChild(none);
    }
    for (const piece of hand.pieces) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "held";
      button.dataset.symbol = piece.symbol;
      button.dataset.count = String(piece.count);
      button.title = `${piece.name} × ${piece.count}`;
      button.innerHTML = `${piece.svg}<span class="count">${piece.count}</span>`;
      button.disabled = view.over || hand.side !== view.to_move || handMoves(piece.symbol).length === 0;
      button.addEventListener("click", () => clickHand(piece.symbol));
      row.appendChild(button);
    }
    box.appendChild(row);
  }
}

function clickHand(symbol) {
  if (busy || !view || view.over) return;
  if (engineSide() === view.to_move) return;
  const again = selectedHand === symbol;
  showMoves(null);
  if (again) return;
  selectedHand = symbol;
  for (const m of handMoves(symbol)) {
    const el = document.querySelector(`#board .cell[data-cell="${CSS.escape(m.to)}"]`);
    if (el) el.classList.add("dest");
  }
  const button = document.querySelector(`#hands .hand[data-side="${CSS.escape(view.to_move)}"] .held[data-symbol="${CSS.escape(symbol)}"]`);
  if (button) button.classList.add("selected");
}

function showMoves(cell) {
  for (const el of document.querySelectorAll("#board .cell")) {
    el.classList.remove("selected", "dest");
  }
  for (const el of document.querySelectorAll("#hands .held")) el.classList.remove("selected");
  selected = cell;
  selectedHand = null;
  if (cell === null) return;
  for (const m of view.legal.filter((m) => m.from === cell)) {
    const el = document.querySelector(`#board .cell[data-cell="${CSS.escape(m.to)}"]`);
    if (el) el.classList.add("dest");
  }
  const el = document.querySelector(`#board .cell[data-cell="${CSS.escape(cell)}"]`);
  if (el) el.classList.add("selected");
}

function clickCell(cell) {
  if (busy || !view || view.over) return;
  if (engineSide() === view.to_move) return;
  // A piece chosen in the hand goes to the cell clicked, if it may.
  if (selectedHand !== null) {
    const drop = handMoves(selectedHand).find((m) => m.to === cell);
    showMoves(null);
    if (drop) return play(drop.notation);
  }
  // A drop (`P@e4`): clicking an empty cell the hand's pieces may go to offers them, unless the
  // selected piece moves there.
  const drops = view.legal.filter((m) => m.kind === "drop" && m.to === cell);
  const moveThere = selected !== null && view.legal.some((m) => m.from === selected && m.to === cell && m.kind !== "drop");
  if (drops.length > 0 && !moveThere) {
    showMoves(null);
    return drops.length === 1 ? play(drops[0].notation) : choose(drops);
  }
  if (selected !== null) {
    const choices = view.legal.filter((m) => m.from === selected && m.to === cell);
    if (choices.length === 1) return play(choices[0].notation);
    if (choices.length > 1) return choose(choices);
  }
  if (view.legal.some((m) => m.from === cell)) {
    showMoves(cell);
  } else {
    showMoves(null);
  }
}

// Several moves join the same two cells (promotions): a button for each.
function choose(choices) {
  const box = $("choices");
  box.innerHTML = "";
  for (const m of choices) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.promotion ? `${m.notation} (${m.promotion})` : m.notation;
    button.dataset.move = m.notation;
    button.addEventListener("click", () => play(m.notation));
    box.appendChild(button);
  }
  $("chooser").hidden = false;
}

async function play(notation) {
  game.moves.push(notation);
  await refresh();
}

async function engineTurn() {
  if (!view || view.over || engineSide() !== view.to_move) return;
  setBusy(true, "thinking");
  $("status").textContent = `${view.to_move} (engine) is thinking…`;
  try {
    const answer = await api("/api/engine", { start: game.start, moves: game.moves });
    game.moves.push(answer.move.notation);
  } catch (e) {
    say(e.message);
    setBusy(false);
    return;
  }
  setBusy(false);
  await refresh();
}

async function undo() {
  if (busy || game.moves.length === 0) return;
  game.moves.pop();
  // Against the engine, take back its reply too, so that it is the player's turn again.
  if (engineSide() !== "" && game.moves.length > 0) {
    try {
      const before = await api("/api/view", game);
      if (before.to_move === engineSide()) game.moves.pop();
    } catch (e) {
      say(e.message);
    }
  }
  await refresh();
}

async function start() {
  variant = await api("/api/variant");
  game.start = variant.start;
  document.title = `${variant.name} — orbis`;
  $("variant").textContent = variant.name;
  const select = $("engine-side");
  const none = new Option("nobody (two players)", "");
  select.add(none);
  for (const side of variant.sides) select.add(new Option(side, side));
  if (variant.sides.length > 1) select.value = variant.sides[variant.sides.length - 1];
  select.addEventListener("change", () => { if (!busy) engineTurn(); });
  $("flip").hidden = !variant.flippable;
  $("flip").addEventListener("click", () => { if (!busy) { game.flip = !game.flip; refresh(); } });
  $("new").addEventListener("click", () => { if (!busy) { game.moves = []; refresh(); } });
  $("undo").addEventListener("click", undo);
  $("pass").addEventListener("click", () => {
    const pass = view && view.legal.find((m) => m.kind === "pass");
    if (!busy && pass) play(pass.notation);
  });
  await refresh();
}

start().catch((e) => say(e.message));
