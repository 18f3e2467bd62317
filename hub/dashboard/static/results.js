// tapis printable results: the ranking with prizes (players still in listed as such), black on white.
"use strict";
let RESULTS = null;
function euro(cents) {
  return new Intl.NumberFormat(LANG === "fr" ? "fr-FR" : "en-GB", { style: "currency", currency: "EUR" }).format((cents || 0) / 100);
}
function draw() {
  const res = RESULTS;
  if (!res) { document.getElementById("r-facts").textContent = t("no_tournament"); return; }
  document.getElementById("r-name").textContent = res.name;
  // the printed sheet says which night: its date, its rulebook, its buy-in (issue #30)
  const day = res.date ? new Date(res.date + "T12:00:00").toLocaleDateString(LANG === "fr" ? "fr-FR" : "en-GB",
    { day: "numeric", month: "long", year: "numeric" }) : null;
  document.getElementById("r-facts").textContent = [day, res.ruleset_name,
    res.buy_in_cents != null ? `${t("buy_in_of")} ${euro(res.buy_in_cents)}` : null,
    `${res.entries} ${t("entries_of")}`, `${t("players_left")} ${res.players_left}`,
    `${t("prize_pool")} ${euro(res.prize_pool_cents)}`].filter(Boolean).join(" · ");
  document.getElementById("r-table").replaceChildren(
    el("tr", {}, el("th", {}, t("place")), el("th", {}, t("player_col")), el("th", {}, t("status")),
      el("th", { class: "num" }, t("prize")), el("th", {}, t("knocked_out_by"))),
    ...res.ranking.map(r => el("tr", { "data-player": r.player },
      el("td", {}, r.place === null ? "–" : `${r.place}${r.tied > 1 ? " " + t("ex_aequo") : ""}`),
      el("td", {}, r.player), el("td", {}, label("standing", r.status)),
      el("td", { class: "num" }, r.prize_cents ? euro(r.prize_cents) : ""),
      el("td", {}, (r.knocked_out_by || []).join(", ")))));
}
window.rerender = draw;
(async function main() {
  applyTexts(); langSwitch();
  document.getElementById("print").addEventListener("click", () => window.print());
  const r = await fetch("/api/results", { credentials: "same-origin" });
  RESULTS = r.ok ? await r.json() : null;
  draw();
})();
