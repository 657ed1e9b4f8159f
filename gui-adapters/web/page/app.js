// The page's logic: draws the board, sends the person's choices to marshal-web as JSON
// messages over one WebSocket, and shows what the server answers (README.md lists them).
"use strict";

const NAMES = { F: "Flag", B: "Bomb", S: "Spy", 2: "Scout", 3: "Miner", 4: "Sergeant", 5: "Lieutenant",
  6: "Captain", 7: "Major", 8: "Colonel", 9: "General", M: "Marshal", "?": "unknown" };
const ORDER = ["M", "9", "8", "7", "6", "5", "4", "3", "2", "S", "B", "F"];
const $ = (id) => document.getElementById(id);

const S = {
  ws: null, mode: "idle", info: null, human: "red", files: 10, ranks: 10,
  lakes: new Set(), zone: [], placed: {}, traySel: null, sel: null,
  view: null, legal: [], last: null, beliefs: {}, watching: false,
};

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}

function connect() {
  S.ws = new WebSocket(`ws://${location.host}/ws`);
  S.ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  S.ws.onclose = () => showError("The connection to the server is closed; reload the page.", true);
  // The server writes to the page after each message it reads, so the page keeps talking.
  setInterval(() => send({ type: "ping" }), 200);
}

let errorTimer = null;
function showError(text, fatal) {
  const el = $("error");
  el.textContent = text;
  el.hidden = false;
  el.dataset.fatal = fatal ? "1" : "0";
  clearTimeout(errorTimer);
  if (!fatal) errorTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

function file(sq) { return sq.charCodeAt(0) - 97; }
function rank(sq) { return parseInt(sq.slice(1), 10) - 1; }
function sqName(f, r) { return String.fromCharCode(97 + f) + (r + 1); }

// A position line (protocol.md 1.7) into squares and captured pieces.
function parsePosition(line) {
  const f = line.split(" ");
  const board = {};
  const rows = f[2].split("/");
  rows.forEach((row, i) => {
    const r = rows.length - 1 - i;
    let x = 0, k = 0;
    while (k < row.length) {
      const c = row[k];
      if (c === "." || c === "~") { x++; k++; continue; }
      const piece = { color: c === "r" ? "red" : "blue", ch: row[k + 1], moved: false, shown: false };
      k += 2;
      while (k < row.length && "'!*".includes(row[k])) {
        if (row[k] === "'") piece.moved = true;
        if (row[k] === "!") piece.shown = true;
        k++;
      }
      board[sqName(x, r)] = piece;
      x++;
    }
  });
  const [capRed, capBlue] = f[6].split("/").map((s) => (s === "-" ? [] : s.replace(/'/g, "").split("")));
  return { board, side: f[3] === "r" ? "red" : "blue", ply: +f[4], captured: { red: capRed, blue: capBlue } };
}

// Squares in drawing order: the person's own side at the bottom.
function drawOrder() {
  const out = [];
  for (let i = 0; i < S.ranks; i++) {
    for (let j = 0; j < S.files; j++) {
      const flip = S.human === "blue" && !S.watching;
      const r = flip ? i : S.ranks - 1 - i;
      const f = flip ? S.files - 1 - j : j;
      out.push(sqName(f, r));
    }
  }
  return out;
}

function pieceEl(color, ch, extra) {
  const el = document.createElement("div");
  el.className = `pc ${color}` + (ch === "?" ? " hidden" : "") + (extra ? " " + extra : "");
  el.textContent = ch === "?" ? "" : ch;
  el.title = `${color} ${NAMES[ch] || ch}`;
  el.dataset.ch = ch;
  return el;
}

function render() {
  const b = $("board");
  b.style.gridTemplateColumns = `repeat(${S.files}, 52px)`;
  b.innerHTML = "";
  const targets = new Set();
  if (S.sel && S.mode === "play") S.legal.filter((m) => m.startsWith(S.sel)).forEach((m) => targets.add(moveTo(m)));
  const movable = new Set(S.mode === "play" ? S.legal.map(moveFrom) : []);
  const board = S.mode === "setup" ? setupBoard() : (S.view ? S.view.board : {});
  for (const sq of drawOrder()) {
    const d = document.createElement("div");
    d.className = "sq";
    d.dataset.sq = sq;
    if (S.lakes.has(sq)) d.classList.add("lake");
    if (S.mode === "setup" && S.zone.includes(sq)) d.classList.add("zone");
    if (S.last && (S.last.from === sq || S.last.to === sq)) d.classList.add("last");
    if (S.sel === sq) d.classList.add("sel");
    if (targets.has(sq)) { d.classList.add("target"); if (board[sq]) d.classList.add("enemy"); }
    const p = board[sq];
    if (p) {
      const el = pieceEl(p.color, p.ch, movable.has(sq) ? "movable" : "");
      if (p.moved && p.ch === "?") {
        // A hidden piece that has moved is no Bomb or Flag: worth seeing at a glance.
        const s = document.createElement("span"); s.className = "shown"; s.textContent = "moved"; el.appendChild(s);
      }
      if (p.shown && p.color === S.human && !S.watching) {
        const s = document.createElement("span"); s.className = "shown"; s.textContent = "seen"; el.appendChild(s);
      }
      const bel = S.beliefs[sq];
      if (bel && $("beliefs-switch").checked && p.color === S.human) {
        const s = document.createElement("span");
        const [top, pr] = bel[0];
        s.className = "belief" + (top === p.ch ? " right" : "");
        s.textContent = `${top} ${Math.round(pr * 100)}%`;
        el.title += " | engine believes: " + bel.map(([c, q]) => `${c} ${Math.round(q * 100)}%`).join(", ");
        el.appendChild(s);
      }
      if ((S.mode === "play" && movable.has(sq)) || (S.mode === "setup" && p.color === S.human)) {
        el.draggable = true;
        el.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", "sq:" + sq); S.sel = sq; });
      }
      d.appendChild(el);
    }
    const coord = document.createElement("span"); coord.className = "coord"; coord.textContent = sq; d.appendChild(coord);
    d.addEventListener("click", () => clickSquare(sq));
    d.addEventListener("contextmenu", (e) => { if (S.mode === "setup") { e.preventDefault(); unplace(sq); } });
    d.addEventListener("dragover", (e) => e.preventDefault());
    d.addEventListener("drop", (e) => { e.preventDefault(); dropOn(sq, e.dataTransfer.getData("text/plain")); });
    b.appendChild(d);
  }
  renderTray();
}

function moveFrom(m) { return m.match(/^[a-j]\d+/)[0]; }
function moveTo(m) { return m.match(/^[a-j]\d+([a-j]\d+)/)[1]; }

// ---- setup editor ----
function setupBoard() {
  const board = {};
  for (const [sq, ch] of Object.entries(S.placed)) board[sq] = { color: S.human, ch };
  return board;
}
function trayCounts() {
  const left = Object.assign({}, S.info ? S.info.army : {});
  for (const ch of Object.values(S.placed)) left[ch]--;
  return left;
}
function renderTray() {
  const t = $("tray");
  t.innerHTML = "";
  if (S.mode !== "setup") return;
  const left = trayCounts();
  for (const ch of ORDER) {
    if (!left[ch]) continue;
    const el = pieceEl(S.human, ch, S.traySel === ch ? "sel" : "");
    const n = document.createElement("span"); n.className = "n"; n.textContent = left[ch]; el.appendChild(n);
    el.draggable = true;
    el.dataset.tray = ch;
    el.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", "tray:" + ch));
    el.addEventListener("click", () => { S.traySel = S.traySel === ch ? null : ch; render(); });
    t.appendChild(el);
  }
  $("setup-text").placeholder = "setup in our notation";
}
function place(sq, ch) {
  if (!S.zone.includes(sq) || !trayCounts()[ch]) return false;
  S.placed[sq] = ch;
  return true;
}
function unplace(sq) { delete S.placed[sq]; S.sel = null; render(); }
function swap(a, b) {
  const pa = S.placed[a], pb = S.placed[b];
  if (pb === undefined) delete S.placed[a]; else S.placed[a] = pb;
  if (pa === undefined) delete S.placed[b]; else S.placed[b] = pa;
}
function dropOn(sq, data) {
  if (S.mode === "setup") {
    if (data.startsWith("tray:")) {
      const ch = data.slice(5);
      if (S.placed[sq] && S.zone.includes(sq)) delete S.placed[sq];
      place(sq, ch);
    } else if (data.startsWith("sq:") && S.zone.includes(sq)) {
      swap(data.slice(3), sq);
    }
    S.sel = null;
    render();
  } else if (S.mode === "play" && data.startsWith("sq:")) {
    S.sel = data.slice(3);
    tryMove(S.sel, sq);
  }
}
function setupString() {
  const rows = [];
  for (let r = 0; r < S.info.setup_rows; r++) {
    let row = "";
    for (let c = 0; c < S.info.files; c++) row += S.placed[S.zone[r * S.info.files + c]] || ".";
    rows.push(row);
  }
  return rows.join("/");
}
function loadSetup(text) {
  const rows = text.trim().split("/");
  const placed = {};
  rows.forEach((row, r) => {
    let c = 0;
    for (let k = 0; k < row.length; k++) {
      let ch = row[k].toUpperCase();
      if (row.startsWith("10", k)) { ch = "M"; k++; } else if (ch === "1") ch = "S";
      if (ch !== ".") placed[S.zone[r * S.info.files + c]] = ch;
      c++;
    }
  });
  S.placed = placed;
  S.sel = null;
  render();
}

// ---- clicks ----
function clickSquare(sq) {
  if (S.mode === "setup") {
    if (S.traySel && S.zone.includes(sq)) {
      if (S.placed[sq]) delete S.placed[sq];
      place(sq, S.traySel);
      if (!trayCounts()[S.traySel]) S.traySel = null;
    } else if (S.sel && S.zone.includes(sq)) {
      if (S.sel !== sq) swap(S.sel, sq);
      S.sel = null;
    } else if (S.placed[sq]) {
      S.sel = sq;
    }
    render();
    return;
  }
  if (S.mode !== "play") return;
  if (S.sel && S.sel !== sq && S.legal.some((m) => m.startsWith(S.sel) && moveTo(m) === sq)) {
    tryMove(S.sel, sq);
    return;
  }
  S.sel = S.legal.some((m) => moveFrom(m) === sq) ? sq : null;
  render();
}
function tryMove(from, to) {
  const options = S.legal.filter((m) => moveFrom(m) === from && moveTo(m) === to);
  if (!options.length) { S.sel = null; render(); return; }
  if (options.length === 1) { sendMove(options[0]); return; }
  // With the rescue option a move onto the enemy's back row may bring a piece back.
  const box = $("combat");
  box.innerHTML = "Rescue? ";
  box.id = "combat";
  for (const m of options) {
    const btn = document.createElement("button");
    btn.textContent = m.includes("+") ? `bring back ${NAMES[m.split("+")[1][0]]} to ${m.split("+")[1].slice(1)}` : "no rescue";
    btn.onclick = () => sendMove(m);
    box.appendChild(btn);
  }
}
function sendMove(m) {
  S.sel = null;
  S.legal = [];
  send({ type: "move", move: m });
  render();
}

// ---- server messages ----
function onMessage(m) {
  switch (m.type) {
    case "hello": break;
    case "error":
      showError(m.message, m.fatal);
      if (m.fatal) { $("status").textContent = "The engine stopped: " + m.message; S.legal = []; render(); }
      break;
    case "newgame": startGameView(m); break;
    case "setup": $("setup-text").value = m.setup; loadSetup(m.setup); break;
    case "state": showState(m); break;
    case "info":
      $("search").textContent = `Engine: depth ${m.depth}  score ${m.score}  nodes ${Number(m.nodes).toLocaleString("en")}  (${m.time} ms)`;
      break;
    case "beliefs":
      S.beliefs = {};
      for (const p of m.pieces) S.beliefs[p.square] = p.probs;
      render();
      break;
    case "end":
      S.mode = "over";
      $("banner").textContent = `${m.text}: ${m.reason.replace(/_/g, " ")}`;
      $("banner").hidden = false;
      $("status").textContent = `Game over: ${m.text} (${m.reason.replace(/_/g, " ")})`;
      S.legal = [];
      render();
      break;
    case "record": {
      $("record-text").value = m.record;
      $("record-box").open = true;
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([m.record + "\n"], { type: "application/json" }));
      a.download = "marshal-game.json";
      a.click();
      break;
    }
    case "adjourned": S.mode = "over"; $("status").textContent = "Adjourned: load the saved record to continue."; render(); break;
    case "watching":
      S.watching = true; S.mode = "watch"; S.files = m.files; S.ranks = m.ranks; S.lakes = lakesOf(m.files, m.ranks);
      S.human = "red"; S.view = null; S.last = null; $("banner").hidden = true;
      $("setup-tools").hidden = true; $("play-tools").hidden = true; $("moves").innerHTML = "";
      $("status").textContent = `Watching ${m.red} (red) vs ${m.blue} (blue), ${m.variant}`;
      render();
      break;
    case "watch_state": showState(Object.assign({}, m, { view: m.position })); break;
  }
}
function lakesOf(files, ranks) {
  const mid = ranks / 2 - 1;
  const s = new Set();
  for (const f of [2, 3, 6, 7]) for (const r of [mid, mid + 1]) s.add(sqName(f, r));
  return s;
}
function startGameView(m) {
  S.info = m; S.human = m.human; S.files = m.files; S.ranks = m.ranks; S.watching = false;
  S.lakes = new Set(m.lakes); S.zone = m.zone; S.placed = {}; S.sel = null; S.traySel = null;
  S.view = null; S.last = null; S.beliefs = {}; S.legal = [];
  $("banner").hidden = true; $("error").hidden = true;
  $("moves").innerHTML = ""; $("combat").textContent = "No combat yet."; $("search").textContent = "Engine: -";
  $("record-text").value = "";
  $("record-box").open = false;
  if (m.loaded) {
    S.mode = "play";
    $("setup-tools").hidden = true; $("play-tools").hidden = false;
  } else {
    S.mode = "setup";
    $("setup-tools").hidden = false; $("play-tools").hidden = true;
    $("status").textContent = `Set up your ${m.human} army (${m.variant}).`;
  }
  render();
}
function showState(m) {
  if (!S.watching) { S.mode = "play"; $("setup-tools").hidden = true; $("play-tools").hidden = false; }
  S.view = parsePosition(m.view);
  S.legal = m.legal || [];
  S.last = m.last && m.last.move ? m.last : null;
  if (S.watching) {
    $("status").textContent = `Ply ${m.ply}: ${m.to_move} to move (${m.red} red vs ${m.blue} blue)`;
  } else if (S.mode === "play") {
    $("status").textContent = m.to_move === S.human ? `Your move (ply ${m.ply})` : `Marshal is thinking... (ply ${m.ply})`;
  }
  if (m.to_move !== S.human) S.beliefs = {};
  showCombat(m.last);
  showCaptured(S.view.captured);
  showMoves(m.moves);
  render();
}
function showCombat(last) {
  if (!last || !last.combat) return;
  const [, a, d] = last.token.match(/:(.)x(.)/) || [];
  const other = last.mover === "red" ? "blue" : "red";
  const result = { attacker_wins: "attacker wins", defender_wins: "defender wins", both_die: "both die", flag_captured: "the Flag is taken" }[last.combat];
  const box = $("combat");
  box.innerHTML = "";
  box.append(`Combat on ${last.to}: `, pieceChip(last.mover, a), ` ${NAMES[a]} attacks `, pieceChip(other, d),
    ` ${NAMES[d]}: ${result}`);
}
function pieceChip(color, ch) {
  const s = document.createElement("span"); s.className = `cap ${color}`; s.textContent = ch; return s;
}
function showCaptured(cap) {
  for (const c of ["red", "blue"]) {
    const el = $("cap-" + c);
    el.innerHTML = "";
    [...cap[c]].sort((x, y) => ORDER.indexOf(x) - ORDER.indexOf(y)).forEach((ch) => el.appendChild(pieceChip(c, ch)));
  }
}
function showMoves(moves) {
  const ol = $("moves");
  ol.innerHTML = "";
  // One line per turn: Red's move, then Blue's.
  const list = moves || [];
  for (let i = 0; i < list.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = list[i] + (i + 1 < list.length ? "  " + list[i + 1] : "");
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

// ---- controls ----
function rules() {
  const v = (id) => $(id).value;
  const c = (id) => ($(id).checked ? "on" : "off");
  return { "two-squares": v("two-squares"), "more-squares": c("more-squares"), "attacker-advantage": c("attacker-advantage"),
    "silent-defence": c("silent-defence"), rescue: c("rescue"), "max-plies": v("max-plies") || "0",
    "max-quiet-plies": v("max-quiet-plies") || "0" };
}
$("new-game").onclick = () => send({ type: "new", variant: $("variant").value, color: $("color").value,
  movetime: parseInt($("movetime").value, 10), rules: rules() });
$("gen-setup").onclick = () => send({ type: "generate" });
$("human-setup").onclick = () => send({ type: "human_setup" });
$("clear-setup").onclick = () => { S.placed = {}; render(); };
$("paste-setup").onclick = () => loadSetup($("setup-text").value);
$("copy-setup").onclick = () => { $("setup-text").value = setupString(); navigator.clipboard && navigator.clipboard.writeText(setupString()).catch(() => {}); };
$("start").onclick = () => send({ type: "start", setup: setupString() });
$("resign").onclick = () => send({ type: "resign" });
$("adjourn").onclick = () => send({ type: "adjourn" });
$("save").onclick = () => send({ type: "save" });
$("beliefs-switch").onchange = (e) => { send({ type: "beliefs", on: e.target.checked }); render(); };
$("load-game").onclick = async () => {
  const f = $("load-file").files[0];
  if (!f) { showError("Choose a record file first."); return; }
  send({ type: "load", record: await f.text(), color: $("color").value, movetime: parseInt($("movetime").value, 10) });
};
$("watch").onclick = () => send({ type: "watch", red: $("watch-red").value, blue: $("watch-blue").value,
  variant: $("variant").value, movetime: parseInt($("movetime").value, 10), delay: parseInt($("watch-delay").value, 10),
  rules: rules() });
$("stop-watch").onclick = () => { send({ type: "stop_watch" }); S.watching = false; S.mode = "idle"; $("status").textContent = "Stopped watching."; };

S.lakes = lakesOf(10, 10);
render();
connect();
