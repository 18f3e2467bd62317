// tapis room view: every table live, the faults to acknowledge or decide, the TD's controls.
"use strict";
function drawTable(s) {
  const box = renderTable(s), old = document.getElementById("table-" + s.table);
  if (old) old.replaceWith(box); else insertSorted(box, s.table);
}
function insertSorted(box, id) {
  const all = document.getElementById("tables");
  const key = x => [x.replace(/\d+/g, ""), parseInt(x.replace(/\D+/g, "") || "0", 10)];
  const [a, n] = key(id);
  for (const other of all.children) {
    const [b, m] = key(other.dataset.table);
    if (b > a || (b === a && m > n)) { all.insertBefore(box, other); return; }
  }
  all.append(box);
}
function drawFaults() {
  const list = Object.values(ROOM.faults);
  list.sort((x, y) => (y.open - x.open) || (y.at - x.at));
  const box = document.getElementById("faults");
  box.replaceChildren(...(list.length ? list.slice(0, 60).map(renderFault) : [el("div", { class: "text" }, t("no_faults"))]));
}
function drawAll() {
  document.getElementById("tables").replaceChildren();
  Object.values(ROOM.tables).forEach(drawTable);
  drawFaults();
}
window.rerender = drawAll;
// A busy room sends hundreds of updates a second: redraw each changed table once per frame.
const dirty = new Set();
let pending = false;
function later(table) {
  dirty.add(table);
  if (pending) return;
  pending = true;
  const flush = () => { pending = false; dirty.forEach(id => { if (ROOM.tables[id]) drawTable(ROOM.tables[id]); }); dirty.clear(); };
  if (document.hidden) setTimeout(flush, 250); else requestAnimationFrame(flush);
}

// The TD's controls: what changes chips or places is asked first and can be undone (common.js's floorAct).
const said = sayer((text, ok) => {
  const out = document.getElementById("result");
  out.textContent = `${ok ? "✔" : "✘"} ${text}`;
  out.dataset.ok = ok ? "1" : "0";
});
async function floor(cmd, doneKey, values, question) {
  const r = await floorAct(cmd, doneKey, values || {}, question, said);
  if (r !== null) document.getElementById("undo").classList.toggle("hidden", UNDO.action === null);
}
function form(id, build) {
  document.getElementById(id).addEventListener("submit", ev => {
    ev.preventDefault();
    const [cmd, doneKey, values, question] = build(Object.fromEntries(new FormData(ev.target).entries()));
    floor(cmd, doneKey, values, question);
  });
}
(async function main() {
  applyTexts(); langSwitch();
  await whoAmI();
  document.getElementById("logout").addEventListener("click", logout);
  document.getElementById("c-pause").addEventListener("click", () => floor({ cmd: "clock", action: "pause" }, "done_clock"));
  document.getElementById("c-resume").addEventListener("click", () => floor({ cmd: "clock", action: "resume" }, "done_clock"));
  document.getElementById("c-add").addEventListener("click", () =>
    floor({ cmd: "clock", action: "add", seconds: 60 * Number(document.getElementById("c-minutes").value || 1) }, "done_clock"));
  form("f-move", d => {
    const v = { p: d.player, t: String(d.table).trim().replace(/^t/i, ""), s: Number(d.seat) };
    return [{ cmd: "move", player: d.player, table: "t" + v.t, seat: v.s }, "done_move", v, () => tf("ask_move", v)];
  });
  form("f-elim", d => [{ cmd: "eliminate", player: d.player }, "done_eliminate", { p: d.player }, () => tf("ask_eliminate", { p: d.player })]);
  form("f-penalty", d => {
    const v = { p: d.player, k: () => label("penalty", d.kind) };
    return [{ cmd: "penalty", player: d.player, kind: d.kind, amount: Number(d.amount) }, "done_penalty", v, () => tf("ask_penalty", v)];
  });
  form("f-redraw", () => [{ cmd: "redraw" }, "done_redraw", {}, () => t("ask_redraw")]);
  document.getElementById("undo").addEventListener("click", async () => {
    if (await undoLast(said) !== null) document.getElementById("undo").classList.toggle("hidden", UNDO.action === null);
  });
  connect({
    room: drawAll,
    update: d => { if (d.table) later(d.table.table); },
    fault: () => { drawFaults(); Object.values(ROOM.tables).forEach(s => { if (document.getElementById("table-" + s.table)) drawTable(s); }); },
  });
})();
