// sudokit's page: plain JavaScript, no build step. The server does every
// piece of Sudoku work through its JSON API; this file only keeps the board.
"use strict";

const S = {
  puzzle: null, box: "", n: 0, br: 0, bc: 0, symbols: "",
  givens: [], values: [], revealed: [], marks: [], eliminated: new Set(),
  solution: null, several: false, selected: 0, pencil: false, undo: [], hint: null,
};
const $ = (id) => document.getElementById(id);

function setMessage(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = kind || "";
}

async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error("the server cannot be reached: " + e.message);
  }
  if (!response.ok) {
    let text = response.status + " " + response.statusText, body = null;
    try {
      body = await response.json();
      text = body.error || text;
    } catch (e) { /* not JSON */ }
    const error = new Error(text);
    error.body = body;  // e.g. the cells a hint found wrong
    throw error;
  }
  const type = response.headers.get("content-type") || "";
  return type.includes("application/json") ? response.json() : response.blob();
}

function line() {
  return S.values.map((v) => (v ? S.symbols[v - 1] : ".")).join("");
}

function snapshot() {
  S.undo.push({ values: S.values.slice(), marks: S.marks.slice(), revealed: S.revealed.slice(),
                eliminated: new Set(S.eliminated) });
  if (S.undo.length > 500) S.undo.shift();
}

function undo() {
  const last = S.undo.pop();
  if (!last) { setMessage("nothing to undo"); return; }
  Object.assign(S, last);
  clearWrong();
  update();
}

// -- the board ---------------------------------------------------------------------------

function build() {
  const board = $("board");
  board.innerHTML = "";
  const cell = S.n <= 9 ? 46 : S.n <= 12 ? 40 : S.n <= 16 ? 34 : 26;
  board.style.setProperty("--cell", cell + "px");
  board.style.gridTemplateColumns = `repeat(${S.n}, var(--cell))`;
  const sub = Math.ceil(Math.sqrt(S.n));
  for (let c = 0; c < S.n * S.n; c++) {
    const div = document.createElement("div");
    const row = Math.floor(c / S.n), col = c % S.n;
    div.className = "cell";
    if ((col + 1) % S.bc === 0 && col + 1 < S.n) div.classList.add("box-right");
    if ((row + 1) % S.br === 0 && row + 1 < S.n) div.classList.add("box-bottom");
    div.dataset.cell = c;
    div.dataset.name = `r${row + 1}c${col + 1}`;
    div.addEventListener("mousedown", (e) => { S.selected = c; update(); $("board").focus(); e.preventDefault(); });
    board.appendChild(div);
  }
  board.dataset.sub = sub;
  const pad = $("keypad");
  pad.innerHTML = "";
  for (let v = 1; v <= S.n; v++) {
    const b = document.createElement("button");
    b.textContent = S.symbols[v - 1];
    b.addEventListener("click", () => enter(v, S.pencil));
    pad.appendChild(b);
  }
}

function update() {
  const cells = $("board").children;
  const sel = S.selected, selRow = Math.floor(sel / S.n), selCol = sel % S.n;
  const selBox = Math.floor(selRow / S.br) * S.br * 1000 + Math.floor(selCol / S.bc);
  const sub = Math.ceil(Math.sqrt(S.n));
  for (let c = 0; c < cells.length; c++) {
    const div = cells[c];
    const v = S.values[c];
    const row = Math.floor(c / S.n), col = c % S.n;
    const box = Math.floor(row / S.br) * S.br * 1000 + Math.floor(col / S.bc);
    div.classList.toggle("given", !!S.givens[c]);
    div.classList.toggle("entry", !S.givens[c] && !!v && !S.revealed[c]);
    div.classList.toggle("revealed", !!S.revealed[c]);
    div.classList.toggle("selected", c === sel);
    div.classList.toggle("peer", c !== sel && (row === selRow || col === selCol || box === selBox));
    div.classList.toggle("same", c !== sel && v && v === S.values[sel]);
    div.innerHTML = "";
    if (v) {
      div.textContent = S.symbols[v - 1];
    } else if (S.marks[c]) {
      const marks = document.createElement("div");
      marks.className = "marks";
      marks.style.gridTemplateColumns = `repeat(${sub}, 1fr)`;
      for (let k = 1; k <= S.n; k++) {
        const span = document.createElement("span");
        span.textContent = S.marks[c] & (1 << (k - 1)) ? S.symbols[k - 1] : "";
        marks.appendChild(span);
      }
      div.appendChild(marks);
    }
  }
}

function clearWrong() {
  for (const div of $("board").children) div.classList.remove("wrong");
}

function enter(v, asMark) {
  const c = S.selected;
  if (!S.n || S.givens[c]) return;
  snapshot();
  clearWrong();
  if (asMark) {
    if (S.values[c]) return;
    S.marks[c] ^= 1 << (v - 1);
  } else {
    S.values[c] = S.values[c] === v ? 0 : v;
    S.revealed[c] = false;
  }
  update();
}

function erase() {
  const c = S.selected;
  if (!S.n || S.givens[c]) return;
  snapshot();
  S.values[c] = 0;
  S.marks[c] = 0;
  S.revealed[c] = false;
  clearWrong();
  update();
}

function onKey(e) {
  if (!S.n) return;
  const target = e.target;
  if (target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT" || target.tagName === "SELECT")) return;
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { undo(); e.preventDefault(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const moves = { ArrowUp: -S.n, ArrowDown: S.n, ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in moves) {
    const next = S.selected + moves[e.key];
    if (next >= 0 && next < S.n * S.n &&
        (Math.abs(moves[e.key]) !== 1 || Math.floor(next / S.n) === Math.floor(S.selected / S.n))) {
      S.selected = next;
      update();
    }
    e.preventDefault();
    return;
  }
  if (e.key === "Delete" || e.key === "Backspace" || e.key === "." || e.key === "0" && !S.symbols.includes("0")) {
    erase();
    e.preventDefault();
    return;
  }
  if (e.key.toLowerCase() === "p" && !S.symbols.toUpperCase().includes("P")) { togglePencil(); return; }
  let key = e.key.length === 1 ? e.key.toUpperCase() : "";
  if (e.shiftKey && /^Digit\d$/.test(e.code)) key = e.code.slice(5);
  const v = S.symbols.toUpperCase().indexOf(key) + 1;
  if (key && v > 0) {
    enter(v, S.pencil || e.shiftKey);
    e.preventDefault();
  }
}

function togglePencil() {
  S.pencil = !S.pencil;
  $("pencil").setAttribute("aria-pressed", String(S.pencil));
}

// -- puzzles in ----------------------------------------------------------------------------

async function load(text, box) {
  setMessage("reading…");
  const parsed = await api("/api/parse", { puzzle: text, box: box || null });
  Object.assign(S, {
    puzzle: parsed.puzzle, box: parsed.shape, n: parsed.size, br: parsed.box_rows, bc: parsed.box_cols,
    symbols: parsed.symbols, solution: null, several: false, selected: 0, undo: [], hint: null, eliminated: new Set(),
  });
  S.givens = Array.from(parsed.puzzle, (ch) => (ch === "." ? 0 : parsed.symbols.indexOf(ch) + 1));
  S.values = S.givens.slice();
  S.revealed = S.givens.map(() => false);
  S.marks = S.givens.map(() => 0);
  build();
  update();
  $("hint-panel").hidden = true;
  setMessage(`${parsed.size}x${parsed.size} puzzle (${parsed.shape} boxes), ${parsed.clues} givens`, "ok");
  $("board").focus();
  rate();
  await solutionsWarning();
}

// a puzzle with several solutions (or none) is said so as soon as it is loaded
async function solutionsWarning() {
  const puzzle = S.puzzle;
  try {
    await solution();
  } catch (e) {
    if (S.puzzle === puzzle) setMessage(e.message, "error");
    return;
  }
  if (S.puzzle === puzzle && S.several) setMessage(SEVERAL, "warn");
}

const SEVERAL = "warning: this puzzle has more than one solution, so Check and Solve compare with one of them";

async function rate() {
  const el = $("rating");
  el.textContent = "rating…";
  try {
    // big grids: a short budget, the rating is then a lower bound (≥)
    const r = await api("/api/rate", { puzzle: S.puzzle, box: S.box, timeout: S.n > 9 ? 5 : null });
    const b = r.lower_bound ? "≥" : "";
    el.textContent = `Rating: ER ${b}${r.er.toFixed(1)} / EP ${r.ep.toFixed(1)} / ED ${r.ed.toFixed(1)} — ` +
      `${r.level}; hardest step: ${r.hardest || "none"}`;
  } catch (e) {
    el.textContent = "Rating: " + e.message;
  }
}

async function solution() {
  if (S.solution) return S.solution;
  const puzzle = S.puzzle;
  const r = await api("/api/count", { puzzle: puzzle, box: S.box, limit: 2 });
  if (r.status !== "solved" || !r.solution) {
    throw new Error(r.status === "no_solution" ? "this puzzle has no solution" : r.message || `no solution (${r.status})`);
  }
  if (puzzle !== S.puzzle) throw new Error("a new puzzle was loaded meanwhile");
  S.several = r.count > 1;
  S.solution = Array.from(r.solution, (ch) => S.symbols.indexOf(ch) + 1);
  return S.solution;
}

// -- buttons -------------------------------------------------------------------------------

function guard(fn) {
  return async (...args) => {
    try {
      await fn(...args);
    } catch (e) {
      setMessage(e.message, "error");
    }
  };
}

const actions = {
  async load() {
    await load($("puzzle-text").value, $("puzzle-box").value.trim());
  },
  async generate() {
    setMessage("generating…");
    const seed = $("gen-seed").value.trim();
    if (seed !== "" && !/^\d+$/.test(seed)) throw new Error("seed: a whole number (0 or more), or empty for a random puzzle");
    const body = { box: $("gen-box").value, difficulty: $("gen-level").value || null,
                   seed: seed === "" ? null : Number(seed) };
    const r = await api("/api/generate", body);
    $("puzzle-text").value = r.puzzle;  // the seed box stays as it was: empty means a new random puzzle each time
    await load(r.puzzle, body.box);
    setMessage(`new ${r.shape} puzzle, seed ${r.seed}, ${r.clues} givens`, "ok");
  },
  async check() {
    if (!S.n) return;
    const sol = await solution();
    clearWrong();
    let wrong = 0, open = 0;
    const cells = $("board").children;
    for (let c = 0; c < sol.length; c++) {
      if (!S.values[c]) { open++; continue; }
      if (S.values[c] !== sol[c]) { wrong++; cells[c].classList.add("wrong"); }
    }
    const one = S.several ? " (against one of its several solutions)" : "";
    if (wrong) setMessage(`${wrong} mistake${wrong > 1 ? "s" : ""} (in red)${one}`, "error");
    else if (open) setMessage(`no mistakes so far; ${open} cells to go${one}`, S.several ? "warn" : "ok");
    else setMessage("solved — well done!", "ok");
  },
  async hint() {
    if (!S.n) return;
    setMessage("looking for the next step…");
    const eliminated = Array.from(S.eliminated, (k) => k.split(":").map(Number));
    // the player's pencil marks are the candidates of their cells: the rest is eliminated
    for (let c = 0; c < S.marks.length; c++) {
      if (S.values[c] || !S.marks[c]) continue;
      for (let v = 1; v <= S.n; v++) {
        if (!(S.marks[c] & (1 << (v - 1))) && !S.eliminated.has(`${c}:${v}`)) eliminated.push([c, v]);
      }
    }
    let r;
    try {
      // the givens apart from the entries: wrong entries are named instead of a hint
      r = await api("/api/hint", { puzzle: line(), givens: S.puzzle, box: S.box, eliminated, svg: true });
    } catch (e) {
      const wrong = (e.body && e.body.wrong) || [];
      if (!wrong.length) throw e;
      S.hint = null;
      $("hint-panel").hidden = true;
      clearWrong();
      const cells = $("board").children;
      for (const w of wrong) cells[w.cell].classList.add("wrong");
      const names = wrong.map((w) => w.name).join(", ");
      if (wrong[0].marks) {
        setMessage(`no hint: the pencil marks of ${wrong.length} cell${wrong.length > 1 ? "s" : ""} ` +
                   `exclude the solution (in red): ${names}`, "error");
      } else {
        setMessage(`no hint: ${wrong.length} entr${wrong.length > 1 ? "ies disagree" : "y disagrees"} ` +
                   `with the solution (in red): ${names}`, "error");
      }
      return;
    }
    S.hint = r;
    $("hint-text").textContent = `${r.technique} [${r.rating.toFixed(1)}]: ${r.text}`;
    $("hint-picture").innerHTML = r.svg;
    $("hint-panel").hidden = false;
    $("apply").disabled = false;
    setMessage("");
  },
  async apply() {
    const h = S.hint;
    if (!h) return;
    snapshot();
    for (const [c, v] of h.moves.place) {
      S.values[c] = v;
      S.marks[c] = 0;
    }
    for (const [c, v] of h.moves.remove) {
      S.eliminated.add(`${c}:${v}`);
      S.marks[c] &= ~(1 << (v - 1));
    }
    S.hint = null;
    $("apply").disabled = true;
    clearWrong();
    update();
    setMessage(`applied: ${h.text}`, "ok");
  },
  async solve() {
    if (!S.n) return;
    const sol = await solution();
    snapshot();
    for (let c = 0; c < sol.length; c++) {
      if (!S.givens[c] && S.values[c] !== sol[c]) { S.values[c] = sol[c]; S.revealed[c] = true; }
    }
    clearWrong();
    update();
    if (S.several) setMessage("warning: this puzzle has more than one solution; this is one of them", "warn");
    else setMessage("the solution is shown", "ok");
  },
  async pdf() {
    if (!S.n) return;
    setMessage("making the PDF…");
    const blob = await api("/api/pdf", { puzzle: S.puzzle, box: S.box });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "sudoku.pdf";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setMessage("PDF downloaded", "ok");
  },
};

for (const [id, fn] of Object.entries(actions)) $(id).addEventListener("click", guard(fn));
$("pencil").addEventListener("click", togglePencil);
$("undo").addEventListener("click", undo);
$("erase").addEventListener("click", erase);
$("close-hint").addEventListener("click", () => { $("hint-panel").hidden = true; });
document.addEventListener("keydown", onKey);
