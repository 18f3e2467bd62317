// tapis table view: one table's hand as it happens (hole cards only on the TD's stream), its log.
"use strict";
const TABLE = new URLSearchParams(location.search).get("t") || "t1";
// One hub event as a line of words: "Carte · siège 2 · arrivée · 7♥" (no identifier, cards as chips show them).
function zone(z) { return String(z || "").startsWith("seat:") ? `${t("seat")} ${z.slice(5)}` : label("zone", z); }
function line(e) {
  const bits = [label("event", e.type)];
  if (e.seat) bits.push(`${t("seat")} ${e.seat}`);
  if (e.type === "card") bits.push(zone(e.zone), e.action ? label("action", e.action) : "", e.card ? face(e.card) : "");
  if (e.type === "action") bits.push(label("action", e.action), e.to || e.amount || "",
    e.status && e.status !== "accepted" ? label("status", e.status) : "",
    e.reason && e.reason in LABELS.fr.fault ? label("fault", e.reason) : "");
  if (e.message && (e.message[LANG] || e.message.fr)) bits.push(typo(e.message[LANG] || e.message.fr));
  if (e.type === "fault") bits.push(label("fault", e.kind), (e.ruling || {}).decision ? label("decision", e.ruling.decision) : "");
  if (e.type === "ruling" && e.decision) bits.push(label("decision", e.decision));
  if (e.type === "hand_end") bits.push(e.result ? label("result", e.result) : "", (e.board || []).map(face).join(" "));
  if (e.type === "hand_start") bits.push(`${t("hand")} ${e.hand}`);
  // who moves where (a hand's end, a TD's command, the clock), said again by a hub restarted before he moved
  if (e.type === "floor_moves") bits.push(...moveLines(e.moves), e.again ? t("moves_again") : "");
  if (e.type === "table_status") bits.push(label("online", String(!!e.online)));
  if (e.type === "reader" && e.detail) bits.push(typo(readerWords(e.detail)));  // the table's words, as text
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
  document.getElementById("table-id").textContent = tableName(TABLE).replace(/^\S+ /, "");
  document.getElementById("hands-link").href = "/hands?t=" + encodeURIComponent(TABLE);
  applyTexts(); langSwitch();
  await whoAmI();
  const earlier = await (await fetch("/api/log?t=" + encodeURIComponent(TABLE), { credentials: "same-origin" })).json();
  let fresh = true;
  connect({
    room: () => { if (fresh) { ROOM.log = earlier.events.concat(ROOM.log); fresh = false; } draw(); drawLog(); },
    update: d => { if (d.event.table === TABLE) { draw(); drawLog(); } }, fault: draw });
})();
