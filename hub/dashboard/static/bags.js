// tapis bag sheet (relevé des jetons): each player still in by table and seat with his chips; at the end of
// a day his bag's number and the next day's seat draw. Black on white, printable; public, as a club posts it.
"use strict";
const DAY = new URLSearchParams(location.search).get("day");  // a day's end to reprint; none: the latest
let BAGS = null;
function num(n) { return chips(n); }
function title(b) {
  if (b.kind === "day_end") return tf("bags_day_end", { d: b.day });
  if (b.kind === "break") return tf("bags_break", { b: b.break });
  return tf("bags_play", { l: b.level });
}
function drawBags() {
  const b = BAGS;
  if (!b) { document.getElementById("b-title").textContent = t("bags_none"); return; }
  const dayEnd = b.kind === "day_end";
  document.getElementById("b-name").textContent = b.name;
  document.getElementById("b-title").textContent = title(b);
  document.getElementById("b-facts").textContent = [`${b.players_left} ${t("bags_players")}`,
    `${num(b.chips_total)} ${t("bags_chips")}`, `${t("bags_average")} ${num(b.average)}`].join(" · ");
  document.getElementById("b-warn").textContent = (b.in_hand || []).length
    ? tf("bags_in_hand", { t: b.in_hand.join(", ") }) : "";
  const head = [el("th", {}, t("bags_table")), el("th", {}, t("bags_seat")), el("th", {}, t("player_col")),
    el("th", { class: "num" }, t("chips_col"))];
  if (dayEnd) head.push(el("th", { class: "num" }, t("bags_bag")), el("th", {}, tf("bags_next", { d: b.next_day })));
  let table = null;
  document.getElementById("b-table").replaceChildren(el("tr", {}, ...head), ...b.rows.map(r => {
    const first = r.table !== table; table = r.table;
    const cells = [el("td", {}, first ? String(r.table) : ""), el("td", {}, String(r.seat)), el("td", {}, r.player),
      el("td", { class: "num" }, num(r.chips))];
    if (dayEnd) cells.push(el("td", { class: "num" }, String(r.bag)),
      el("td", {}, tf("bags_where", { t: r.next_table, s: r.next_seat })));
    return el("tr", { class: first ? "first" : null, "data-player": r.player }, ...cells);
  }));
  const draw = document.getElementById("b-draw");
  if (!dayEnd) { draw.replaceChildren(); return; }
  const buttons = Object.fromEntries((b.buttons || []).map(x => [x.table, x.seat]));
  const tables = [...new Set(b.draw.map(r => r.table))];
  draw.replaceChildren(el("h2", {}, tf("bags_draw", { d: b.next_day })), ...tables.map(n => el("div", { class: "draw-table" },
    el("h3", {}, `${t("bags_table")} ${n}`, el("span", { class: "dim" }, ` · ${tf("bags_button", { s: buttons[n] })}`)),
    el("table", {}, el("tr", {}, el("th", {}, t("bags_seat")), el("th", {}, t("player_col"))),
      ...b.draw.filter(r => r.table === n).map(r => el("tr", { "data-player": r.player },
        el("td", {}, String(r.seat)), el("td", {}, r.player)))))));
}
function drawDays() {
  const days = BAGS ? BAGS.days_ended : 0;
  const links = [];
  for (let d = 1; d <= days; d++) links.push(el("a", { href: `/bags?day=${d}` }, tf("bags_day", { d })), " ");
  if (days) links.push(el("a", { href: "/bags" }, t("bags_latest")));
  document.getElementById("days").replaceChildren(...links);
  document.getElementById("end-day").classList.toggle("hidden",
    ME.role !== "td" || !BAGS || BAGS.kind === "day_end" || DAY !== null);
}
function draw() { drawBags(); drawDays(); }
window.rerender = draw;
const say = sayer((text, ok) => {
  const p = document.getElementById("b-said");
  p.textContent = text; p.dataset.ok = ok ? "1" : "0";
});
async function load() {
  const q = DAY ? `?day=${encodeURIComponent(DAY)}` : "";
  document.getElementById("csv").href = `/api/bags.csv${q}`;
  const r = await fetch(`/api/bags${q}`, { credentials: "same-origin" });
  BAGS = r.ok ? await r.json() : null;
  draw();
}
(async function main() {
  applyTexts(); langSwitch();
  document.getElementById("print").addEventListener("click", () => window.print());
  await whoAmI();
  document.getElementById("end-day").addEventListener("click", async () => {
    const values = { d: BAGS ? BAGS.day : 1, n: (BAGS ? BAGS.day : 1) + 1 };
    if (!(await ask(() => tf("ask_end_day", values)))) return;
    const r = await tdPost("/api/td/floor", { cmd: "end_day" });  // every player's new seat: the sheet says them
    const ok = r.ok && r.data.ok !== false;
    say(() => (ok ? tf("done_end_day", values) : refusalText(r)), ok);
    if (ok) await load();
  });
  await load();
})();
