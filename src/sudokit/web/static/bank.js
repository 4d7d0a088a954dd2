// The bank's button (sudoku serve --bank PATH): a new puzzle of the chosen level
// that has not been played, marked played as it is drawn. Uses app.js's helpers.
"use strict";

const PLAYED = "played";

async function bankNew() {
  setMessage("choosing from the bank…");
  const level = $("gen-level").value || null;
  const r = await api("/api/bank/query", {
    level, not_in: PLAYED, mark_used: PLAYED, n: 1, seed: Math.floor(Math.random() * 2 ** 31),
  });
  if (!r.puzzles.length) {
    setMessage(`the bank holds no ${level || ""} puzzle that you have not played`.replace("  ", " "), "error");
    return;
  }
  const p = r.puzzles[0];
  $("puzzle-text").value = p.puzzle;
  await load(p.puzzle, p.shape);
  setMessage(`from the bank: ${p.level || "unrated"}${p.er != null ? ", ER " + p.er.toFixed(1) : ""}, ` +
             `${p.clues} givens; marked played`, "ok");
}

(async () => {
  try {
    const response = await fetch("/api/bank");
    if (response.ok) {
      $("bank-new").hidden = false;
      $("bank-new").addEventListener("click", guard(bankNew));
    }
  } catch (e) { /* no bank served */ }
})();
