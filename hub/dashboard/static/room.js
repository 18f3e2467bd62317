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
  // The open ones first, by table (a TD walks to a table, not to an incident); then the latest seen.
  const list = Object.values(ROOM.faults);
  const open = list.filter(f => f.open), seen = list.filter(f => !f.open).sort((x, y) => y.at - x.at).slice(0, 20);
  const tables = [...new Set(open.map(f => f.table))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const box = document.getElementById("faults");
  const groups = tables.map(table => el("div", { class: "fault-group", "data-table": table },
    el("h4", {}, tableName(table)), open.filter(f => f.table === table).sort((x, y) => y.at - x.at).map(renderFault)));
  box.replaceChildren(...(list.length ? [...groups, ...seen.map(renderFault)] : [el("div", { class: "text" }, t("no_faults"))]));
}
function drawAll() {
  document.getElementById("tables").replaceChildren();
  Object.values(ROOM.tables).forEach(drawTable);
  drawFaults();
}
window.rerender = () => { drawAll(); drawClock(); penaltyForm(document.getElementById("f-penalty"), clock, true); };  // a language switch redraws the clock's words too
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

// The tournament clock above the tables (the clock screen's figures, counted down here between snapshots).
let clock = null, clockAt = 0;
function roomClock(c) {
  const was = (clock && clock.floor_waits) || {}, now = (c && c.floor_waits) || {};
  clock = c || null; clockAt = performance.now(); drawClock();
  penaltyForm(document.getElementById("f-penalty"), clock);  // the ruleset's ladder, once it is known
  // the floor's word on a table it waits for (blockedWhy) comes with the clock: redraw the tables it changed
  if (JSON.stringify(was) !== JSON.stringify(now)) new Set([...Object.keys(was), ...Object.keys(now)]).forEach(n => later("t" + n));
}
function drawClock() {
  const box = document.getElementById("room-clock"), c = clock;
  box.classList.toggle("hidden", !c || !c.started);
  if (!c || !c.started) return;
  const gone = c.running ? (performance.now() - clockAt) / 1000 : 0;
  const mmss = s => { s = Math.max(0, Math.ceil(s)); const m = Math.floor(s / 60), x = s % 60;
    return (m >= 60 ? Math.floor(m / 60) + ":" + String(m % 60).padStart(2, "0") : String(m).padStart(2, "0")) + ":" + String(x).padStart(2, "0"); };
  const q = id => document.getElementById(id);
  q("rc-level").textContent = c.on_break ? (c.break && c.break !== "pause" ? c.break : t("break")) : `${t("level")} ${c.level}`;
  q("rc-blinds").textContent = c.on_break ? "" : `${chips(c.small_blind)} / ${chips(c.big_blind)}` + (c.ante ? ` · ${t("ante")} ${chips(c.ante)}` : "");
  q("rc-time").textContent = mmss(c.time_left - gone);
  q("rc-status").textContent = c.on_break ? t("on_break") : !c.running ? t("paused") :
    c.final_table ? t("final_table") : c.hand_for_hand ? t("hand_for_hand") : "";
  q("rc-break").textContent = c.next_break_in === null || c.next_break_in === undefined ? "" : `${t("next_break")} ${mmss(c.next_break_in - gone)}`;
  q("rc-players").textContent = `${t("players_left")} ${c.players_left} / ${c.entries}`;
}
setInterval(() => { if (clock && clock.running) drawClock(); }, 1000);

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
  document.getElementById("ack-all").addEventListener("click", () => tdPost("/api/td/ack_all", {}));
  document.getElementById("c-pause").addEventListener("click", () => floor({ cmd: "clock", action: "pause" }, "done_clock"));
  document.getElementById("c-resume").addEventListener("click", () => floor({ cmd: "clock", action: "resume" }, "done_clock"));
  document.getElementById("c-add").addEventListener("click", () => {
    // checked here as on the desk: 0 or "abc" reached the hub as a refusal in its words, or as null
    const minutes = wholeNumber(document.getElementById("c-minutes").value || "1", 1, 360);
    if (minutes === null) said(() => t("bad_minutes"), false);
    else floor({ cmd: "clock", action: "add", seconds: 60 * minutes }, "done_clock");
  });
  form("f-move", d => {
    const v = { p: d.player, t: String(d.table).trim().replace(/^t/i, ""), s: Number(d.seat) };
    return [{ cmd: "move", player: d.player, table: "t" + v.t, seat: v.s }, "done_move", v, () => tf("ask_move", v)];
  });
  form("f-elim", d => [{ cmd: "eliminate", player: d.player }, "done_eliminate", { p: d.player }, () => tf("ask_eliminate", { p: d.player })]);
  const penalty = document.getElementById("f-penalty");
  penaltyForm(penalty, clock, true);
  penalty.addEventListener("submit", ev => {
    ev.preventDefault();
    const player = String(new FormData(penalty).get("player") || "").trim(), asked = penaltyAsked(penalty);
    if (!player) { said(() => t("need_name"), false); return; }
    if (asked.error) { said(asked.error, false); return; }
    const v = { p: player, k: () => penaltyText(asked) };
    floor({ cmd: "penalty", player, kind: asked.kind, amount: asked.amount }, "done_penalty", v, () => tf("ask_penalty", v));
  });
  form("f-redraw", () => [{ cmd: "redraw" }, "done_redraw", {}, () => t("ask_redraw")]);
  document.getElementById("undo").addEventListener("click", async () => {
    if (await undoLast(said) !== null) document.getElementById("undo").classList.toggle("hidden", UNDO.action === null);
  });
  connect({
    room: d => { drawAll(); roomClock(d.clock); },
    clock: roomClock,
    update: d => { if (d.table) later(d.table.table); },
    fault: () => { drawFaults(); Object.values(ROOM.tables).forEach(s => { if (document.getElementById("table-" + s.table)) drawTable(s); }); },
  });
})();
