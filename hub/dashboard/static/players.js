// tapis dashboard: the tournament's players from the floor's clock data: a list with search, the seating
// chart, and the moves (balancing, a broken table) where the TD and the table's dealer see them.
"use strict";
let PLAYERS_DRAWN = "";
function fold(s) { return String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
function seated(c) {
  const out = [];
  for (const [table, at] of Object.entries((c && c.tables) || {})) {
    for (const [seat, p] of Object.entries(at.seats || {})) out.push({ table: Number(table), seat: Number(seat), ...p });
  }
  return out.sort((a, b) => a.player.localeCompare(b.player, LANG));
}
function moveText(m) {
  const where = (table, seat) => `${tableName(table)} · ${t("seat").toLowerCase()} ${seat}`;
  return `${m.player}${colon()}${where(m.from_table, m.from_seat)} → ${where(m.to_table, m.to_seat)} (${label("move_reason", m.reason)})`;
}
function drawMoves(c, only) {
  const box = document.getElementById("moves");
  if (!box) return;
  const moves = ((c && c.moves) || []).filter(m => !only || m.from_table === only || m.to_table === only);
  box.replaceChildren(...(moves.length ? moves.map(m => el("li", { "data-player": m.player }, moveText(m))) : [el("li", { class: "text" }, t("no_moves"))]));
  const section = document.getElementById("moves-box");
  if (section) section.classList.toggle("hidden", !c);
}
function drawPlayerList(c) {
  const box = document.getElementById("players");
  if (!box) return;
  const wanted = fold((document.getElementById("player-search") || {}).value);
  const rows = seated(c).filter(p => !wanted || fold(p.player).includes(wanted));
  box.replaceChildren(...(rows.length ? rows.map(p => el("tr", { class: p.status === "out" ? "out" : "", "data-player": p.player },
    el("td", { class: "player" }, p.player), el("td", {}, tableName(p.table)), el("td", {}, `${t("seat")} ${p.seat}`),
    el("td", { class: "num" }, chips(p.chips)), el("td", {}, label("player_status", p.status))))
    : [el("tr", {}, el("td", {}, t("no_players")))]));
}
function drawSeating(c) {
  const box = document.getElementById("seating");
  if (!box) return;
  box.replaceChildren(...Object.entries((c && c.tables) || {}).map(([table, at]) =>
    el("div", { "data-table": table }, el("b", {}, tableName(table)),
      Object.entries(at.seats || {}).map(([seat, p]) => el("div", {}, `${seat}. ${p.player}`)))));
}
// Redrawn when the players, seats or moves change (the clock comes every second).
function drawPlayers(force) {
  const c = ROOM.clock;
  const key = JSON.stringify([c && c.tables, c && c.moves, LANG]);
  if (!force && key === PLAYERS_DRAWN) return;
  PLAYERS_DRAWN = key;
  ["players-box", "seating-box"].forEach(id => { const s = document.getElementById(id); if (s) s.classList.toggle("hidden", !c); });
  const only = /^t(\d+)$/.exec(typeof TABLE === "string" ? TABLE : "");
  drawMoves(c, only ? Number(only[1]) : null);
  drawPlayerList(c);
  drawSeating(c);
}
watch(() => drawPlayers(false));
document.addEventListener("DOMContentLoaded", () => {
  const search = document.getElementById("player-search");
  if (search) search.addEventListener("input", () => drawPlayerList(ROOM.clock));
});
