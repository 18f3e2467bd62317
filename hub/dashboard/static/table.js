// tapis table view: one table's hand as it happens (hole cards only on the TD's stream), its log.
"use strict";
const TABLE = new URLSearchParams(location.search).get("t") || "t1";
function line(e) {
  const bits = [e.type];
  if (e.seat) bits.push(`${t("seat")} ${e.seat}`);
  if (e.type === "card") bits.push(e.zone, e.action, e.card || "");
  if (e.type === "action") bits.push(e.action, e.to || e.amount || "", e.status === "rejected" ? "✘ " + (e.reason || "") : "");
  if (e.type === "fault") bits.push(e.kind, (e.ruling || {}).decision || "");
  if (e.type === "hand_end") bits.push(e.result || "", (e.board || []).join(" "));
  if (e.type === "hand_start") bits.push(`${t("hand")} ${e.hand}`);
  return el("div", {}, bits.filter(Boolean).join(" · "));
}
function draw() {
  const s = ROOM.tables[TABLE];
  document.getElementById("table").replaceChildren(s ? renderTable(s) : el("div", {}, t("waiting")));
  document.getElementById("faults").replaceChildren(...Object.values(ROOM.faults).filter(f => f.table === TABLE).reverse().slice(0, 20).map(renderFault));
}
function drawLog() {
  const log = document.getElementById("log");
  log.replaceChildren(...ROOM.log.filter(e => e.table === TABLE).slice(-200).map(line));
  log.scrollTop = log.scrollHeight;
}
window.rerender = () => { draw(); drawLog(); };
(async function main() {
  document.getElementById("table-id").textContent = TABLE;
  applyTexts(); langSwitch();
  await whoAmI();
  const earlier = await (await fetch("/api/log?t=" + encodeURIComponent(TABLE), { credentials: "same-origin" })).json();
  let fresh = true;
  connect({
    room: () => { if (fresh) { ROOM.log = earlier.events.concat(ROOM.log); fresh = false; } draw(); drawLog(); },
    update: d => { if (d.event.table === TABLE) { draw(); drawLog(); } }, fault: draw });
})();
