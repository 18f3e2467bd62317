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

async function floor(cmd) {
  const r = await tdPost("/api/td/floor", cmd);
  const out = document.getElementById("result");
  out.textContent = r.ok ? `✔ ${t("done")}` : `✘ ${refusalText(r)}`;
  out.dataset.ok = r.ok ? "1" : "0";
}
function form(id, build) {
  document.getElementById(id).addEventListener("submit", ev => {
    ev.preventDefault();
    floor(build(Object.fromEntries(new FormData(ev.target).entries())));
  });
}
(async function main() {
  applyTexts(); langSwitch();
  await whoAmI();
  document.getElementById("logout").addEventListener("click", logout);
  document.getElementById("c-pause").addEventListener("click", () => floor({ cmd: "clock", action: "pause" }));
  document.getElementById("c-resume").addEventListener("click", () => floor({ cmd: "clock", action: "resume" }));
  document.getElementById("c-add").addEventListener("click", () =>
    floor({ cmd: "clock", action: "add", seconds: 60 * Number(document.getElementById("c-minutes").value || 1) }));
  form("f-move", d => ({ cmd: "move", player: d.player, table: d.table, seat: Number(d.seat) }));
  form("f-elim", d => ({ cmd: "eliminate", player: d.player }));
  form("f-penalty", d => ({ cmd: "penalty", player: d.player, kind: d.kind, amount: Number(d.amount) }));
  form("f-redraw", () => ({ cmd: "redraw" }));
  connect({
    room: drawAll,
    update: d => { if (d.table) later(d.table.table); },
    fault: () => { drawFaults(); Object.values(ROOM.tables).forEach(s => { if (document.getElementById("table-" + s.table)) drawTable(s); }); },
  });
})();
