// tapis registration desk: entries, re-entries, wait-list, the clock, eliminations with confirm and undo,
// penalties and the final-table draw; the players still in and the eliminated with place and prize.
"use strict";
const DESK = { results: null, loading: false };
const $ = id => document.getElementById(id);

function euros(cents) {
  return new Intl.NumberFormat(LANG === "fr" ? "fr-FR" : "en-GB", { style: "currency", currency: "EUR" }).format((cents || 0) / 100);
}
function mmss(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

// --- what the TD reads after an action: done, or refused in plain words, and the undo ----------
// (asking, refusals and the undo are common.js's: the room's controls use the same)
const say = sayer((text, ok) => {
  const box = $("desk-notice");
  $("notice-text").textContent = text;
  box.dataset.ok = ok ? "1" : "0";
  box.classList.toggle("hidden", !text);
});
async function act(cmd, doneKey, values, question) {
  const r = await floorAct(cmd, doneKey, values, question, say);
  if (r === null) return null;
  $("undo").classList.toggle("hidden", UNDO.action === null);
  loadResults();
  return r;
}

// --- the lists ---------------------------------------------------------------------------------
async function loadResults() {
  if (DESK.loading) return;
  DESK.loading = true;
  try {
    const r = await fetch("/api/results", { credentials: "same-origin" });
    DESK.results = r.ok ? await r.json() : null;
  } catch (e) { /* the stream's badge says the hub is gone */ } finally { DESK.loading = false; }
  drawLists();
  drawNew();
  loadHistory();
}

// --- a deal at the final table: chip chop and ICM side by side, the TD confirms one ---------------------
async function showDeal() {
  const r = await fetch("/api/td/deal", { credentials: "same-origin" });
  if (!r.ok) { say(() => t("deal_none"), false); return; }
  const offer = await r.json();
  const confirmIt = method => {
    const prizes = Object.fromEntries(offer.players.map(p => [p.player, p[method]]));
    const words = offer.players.map(p => `${p.player} ${euros(p[method])}`).join(", ");
    act({ cmd: "deal", prizes, method }, "done_deal", { m: label("deal_method", method) },
      () => tf("ask_deal", { m: label("deal_method", method), w: words }));
  };
  $("deal").replaceChildren(
    el("tr", {}, el("th", {}, t("player_col")), el("th", { class: "num" }, t("chips_col")),
      el("th", { class: "num" }, label("deal_method", "chip_chop")), el("th", { class: "num" }, label("deal_method", "icm"))),
    ...offer.players.map(p => el("tr", { "data-player": p.player }, el("td", {}, p.player), el("td", { class: "num" }, chips(p.chips)),
      el("td", { class: "num" }, euros(p.chip_chop)), el("td", { class: "num" }, euros(p.icm)))),
    el("tr", {}, el("td", {}, ""), el("td", {}, ""),
      el("td", {}, el("button", { id: "deal-chip-chop", onclick: () => confirmIt("chip_chop") }, t("deal_confirm"))),
      el("td", {}, el("button", { id: "deal-icm", onclick: () => confirmIt("icm") }, t("deal_confirm")))));
}

// --- the TD's own actions, newest first, each undone from here while nothing has played since --------
function actionWords(e) {
  const who = e.player || "", table = e.table ? tableName(e.table) : "";
  switch (e.type) {
    case "PlayerRegistered": return tf("h_registered", { p: who });
    case "PlayerReentered": return tf("h_reentered", { p: who });
    case "WaitListJoined": case "WaitListEntered": return tf("h_wait_list", { p: who });
    case "EliminationAsked": return tf("h_eliminate_later", { p: who });
    case "PenaltyGiven": return tf("h_penalty", { p: who, k: penaltyText(e) });  // with its hands, rounds or minutes
    case "MoveOrdered": return tf("h_move", { p: who, t: e.to_table, s: e.to_seat });
    case "MoveAsked": return tf("h_move_later", { p: who, t: e.to_table, s: e.to_seat });
    case "ChipsColouredUp": return tf("h_chip_race", { t: table });
    case "DealAgreed": return tf("h_deal", { m: label("deal_method", e.method) });
    case "StacksCorrected": return (e.stacks || []).every(x => x[1] === 0) ? tf("h_eliminated", { t: table })
      : tf("h_stacks", { t: table });
    default: return t("h_other");
  }
}
async function loadHistory() {
  if (ME.role !== "td") return;
  let actions = [];
  try {
    const r = await fetch("/api/td/history", { credentials: "same-origin" });
    actions = r.ok ? (await r.json()).actions : [];
  } catch (e) { return; }
  DESK.history = actions;
  drawHistory();
}
function drawHistory() {
  const actions = DESK.history || [];
  $("history").replaceChildren(...(actions.length ? actions.map(a => {
    const at = new Date(a.event.at * 1000).toLocaleTimeString(LANG === "fr" ? "fr-FR" : "en-GB", { hour: "2-digit", minute: "2-digit" });
    // a move asked during a hand that could not be made at its end says why (the floor's words)
    const words = actionWords(a.event) + (a.lapsed ? " — " + tf("h_move_lapsed", { w: a.lapsed }) : "");
    return el("li", { "data-position": a.position, class: a.undoable ? "" : "dim" }, `${at} · ${words} `,
      a.undoable ? el("button", { class: "undo-action", onclick: () => act({ cmd: "undo", action: a.position, by: ME.user || "TD" },
        "done_undo", {}, () => tf("ask_undo", { a: words })) }, t("undo_short")) : null);
  }) : [el("li", { class: "dim" }, t("h_none"))]));
}

// --- a new tournament, from the desk (an empty store): the form, and the structure from a template ---
const NEW = { structures: [] };
function drawNew() {
  const none = DESK.results === null && ME.role === "td";
  $("desk-new").style.display = none ? "" : "none";
  document.querySelector(".columns").style.display = none ? "none" : "";
}
async function loadTemplates() {
  try {
    const r = await fetch("/api/structures", { credentials: "same-origin" });
    NEW.structures = r.ok ? (await r.json()).structures : [];
  } catch (e) { NEW.structures = []; }
  const select = $("n-template");
  select.replaceChildren(...NEW.structures.map(s => el("option", { value: s.id }, s.name)));
  const date = $("f-new").querySelector("[name=date]");
  if (!date.value) date.value = new Date().toLocaleDateString("sv-SE");  // today, as YYYY-MM-DD
  pickTemplate();
}
// the rulebooks offered: the five seeds, then the club's files of the hub's folder (tapis hub --rulebooks);
// a broken file is shown, not offered, with its one-line error (tapis rules check says the rest)
async function loadRulebooks() {
  let books = null;
  try {
    const r = await fetch("/api/rulebooks", { credentials: "same-origin" });
    books = r.ok ? (await r.json()).rulebooks : null;
  } catch (e) { books = null; }
  if (!books) return;  // the page's own list of the seeds stays
  const select = document.querySelector("#f-new [name=ruleset]");
  select.replaceChildren(...books.map(b => b.error
    ? el("option", { value: "", disabled: "" }, `\u26a0 ${b.file} : ${b.error}`)
    : b.file ? el("option", { value: `file:${b.file}`, "data-id": b.id }, `${b.name} (${t("club_file")} ${b.file})`)
      : el("option", { value: b.id }, b.name)));
}
function pickTemplate() {
  const s = NEW.structures.find(x => x.id === $("n-template").value);
  if (s) $("n-structure").value = s.toml;
}
function newTournament(form) {
  const get = name => form.querySelector(`[name=${name}]`).value.trim();
  const euros = Number(get("buy_in").replace(",", "."));
  const tables = get("tables") ? wholeNumber(get("tables"), 1, 100) : null;
  if (!get("name") || !Number.isFinite(euros) || euros < 0 || (get("tables") && tables === null)) {
    say(() => t("bad_new"), false);
    return null;
  }
  const book = form.querySelector("[name=ruleset]");
  const file = book.value.startsWith("file:") ? { rulebook_file: book.value.slice(5) } : {};
  return { cmd: "new", name: get("name"), ...file, structure_toml: $("n-structure").value,
    ruleset: file.rulebook_file ? book.selectedOptions[0].dataset.id : book.value,
    seats_per_table: Number(get("seats")), tables, buy_in_cents: Math.round(euros * 100),
    payouts: get("payouts").replace(/\s+/g, "") || "ruleset", pool_percent: wholeNumber(get("pool"), 1, 100) || 100,
    guarantee_cents: Math.round(100 * (Number(get("guarantee").replace(",", ".")) || 0)),
    seed: Math.floor(Math.random() * 2 ** 31), date: get("date") || null };
}
function drawLists() {
  const res = DESK.results;
  const rows = (res && res.ranking) || [];
  const q = ($("search").value || "").trim().toLowerCase();
  const playing = rows.filter(r => (r.status === "playing" || r.status === "registered")
    && (!q || r.player.toLowerCase().includes(q)));
  $("playing").replaceChildren(
    el("tr", {}, el("th", {}, t("player_col")), el("th", {}, t("where")), el("th", { class: "num" }, t("chips_col")), el("th", {}, "")),
    ...(playing.length ? playing.map(r => el("tr", { "data-player": r.player },
      el("td", { class: "player" }, r.player),
      el("td", {}, r.table ? `${tableName(r.table)} · ${t("seat").toLowerCase()} ${r.seat}` : label("standing", "registered")),
      el("td", { class: "num" }, r.table ? chips(r.chips) : ""),
      el("td", {}, ME.role === "td" && r.status === "playing" ? el("button", { class: "eliminate", onclick: () => eliminate(r.player) }, t("eliminate")) : null)))
      : [el("tr", {}, el("td", { colspan: "4", class: "dim" }, t("no_players")))]));
  const out = rows.filter(r => r.status === "out" || r.status === "winner");
  $("out").replaceChildren(
    el("tr", {}, el("th", {}, t("place")), el("th", {}, t("player_col")), el("th", {}, t("status")), el("th", { class: "num" }, t("prize"))),
    ...(out.length ? out.map(r => el("tr", { "data-player": r.player },
      el("td", { class: "place" }, `${r.place}${r.tied > 1 ? " " + t("ex_aequo") : ""}`),
      el("td", { class: "player" }, r.player), el("td", {}, label("standing", r.status)),
      el("td", { class: "num prize" }, r.prize_cents ? euros(r.prize_cents) : "")))
      : [el("tr", {}, el("td", { colspan: "4", class: "dim" }, t("none_out")))]));
  const waiting = (res && res.wait_list) || [];
  $("wait-list").textContent = waiting.length ? t("wait_list") + colon() + waiting.join(", ") : "";
  if (res) $("t-name").textContent = res.name;
}
function drawSummary(c) {
  if (!c) return;
  penaltyForm($("f-penalty"), c);
  $("t-name").textContent = c.name;
  $("s-entries").textContent = c.entries;
  $("s-left").textContent = c.players_left;
  $("s-pool").textContent = euros(c.prize_pool_cents);
  $("s-level").textContent = c.on_break ? t("break") : `${c.level} · ${chips(c.small_blind)}/${chips(c.big_blind)}`;
  $("s-time").textContent = mmss(c.time_left) + (c.started && !c.running ? ` (${t("desk_paused")})` : "");
}

// --- the actions -------------------------------------------------------------------------------
function nameIn(form) {
  const name = (form.querySelector("[name=player]").value || "").trim();
  if (!name) say(() => t("need_name"), false);
  return name;
}
function eliminate(player) {
  return act({ cmd: "eliminate", player }, "done_eliminate", { p: player }, () => tf("ask_eliminate", { p: player }));
}
function clockTime(sign) {
  const minutes = wholeNumber($("k-minutes").value, 1, 360);
  if (minutes === null) { say(() => t("bad_minutes"), false); return; }
  act({ cmd: "clock", action: sign > 0 ? "add" : "remove", seconds: 60 * minutes }, "done_clock", {});
}
function setTime() {
  const m = /^\s*(\d{1,3})(?::([0-5]\d))?\s*$/.exec($("k-left").value || "");
  if (!m || Number(m[1]) > 360) { say(() => t("bad_mmss"), false); return; }
  act({ cmd: "clock", action: "set", seconds: 60 * Number(m[1]) + Number(m[2] || 0) }, "done_clock", {});
}
function jumpLevel() {
  const level = wholeNumber($("k-level").value, 1, 1000);
  if (level === null) { say(() => t("bad_level"), false); return; }
  act({ cmd: "clock", action: "level", level }, "done_clock", {});
}
// "Ada=3, Bob=1": each player's small chips left over after the exact exchange (cdc 4.2).
function chipRace(form) {
  const get = name => form.querySelector(`[name=${name}]`).value.trim();
  const table = /^t?(\d{1,3})$/.exec(get("table"));
  const small = wholeNumber(get("small"), 1, 1e9), big = wholeNumber(get("big"), 2, 1e9);
  const leftovers = {};
  for (const part of get("leftovers").split(",").map(x => x.trim()).filter(Boolean)) {
    const m = /^(.+?)\s*=\s*(\d{1,3})$/.exec(part);
    if (!m) return null;
    leftovers[m[1]] = Number(m[2]);
  }
  if (!table || small === null || big === null) return null;
  return { cmd: "chip_race", table: "t" + table[1], small_value: small, big_value: big, leftovers };
}
// "agnes" beside "Agnès": the same person typed twice? Asked before a second entry is made.
function lookalike(name) {
  const plain = s => String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]/g, "");
  const key = plain(name);
  const rows = (DESK.results && DESK.results.ranking) || [];
  return (rows.find(r => r.player !== name && plain(r.player) === key) || {}).player || null;
}
function wire() {
  $("n-template").addEventListener("change", pickTemplate);
  $("b-deal").addEventListener("click", showDeal);
  $("f-new").addEventListener("submit", async ev => {
    ev.preventDefault();
    const cmd = newTournament(ev.target);
    if (cmd) await act(cmd, "done_new", { n: cmd.name });
  });
  $("f-register").addEventListener("submit", ev => {
    ev.preventDefault();
    const p = nameIn(ev.target);
    if (!p) return;
    const q = lookalike(p);
    act({ cmd: "register", players: [p], present: !$("r-absent").checked }, "done_register", { p },
      q ? () => tf("ask_lookalike", { p, q }) : undefined);
  });
  $("b-arrive").addEventListener("click", () => { const p = nameIn($("f-register")); if (p) act({ cmd: "arrive", player: p }, "done_arrive", { p }); });
  $("b-reenter").addEventListener("click", () => {
    const p = nameIn($("f-register"));
    if (p) act({ cmd: "reenter", player: p }, "done_reenter", { p }, () => tf("ask_reenter", { p }));
  });
  $("b-wait").addEventListener("click", () => { const p = nameIn($("f-register")); if (p) act({ cmd: "wait_list", action: "join", player: p }, "done_wait_list", { p }); });
  $("b-wait-seat").addEventListener("click", () => {
    const first = ((DESK.results && DESK.results.wait_list) || [])[0] || "";
    act({ cmd: "wait_list", action: "seat" }, "done_wait_list", {}, () => tf("ask_wait_seat", { p: first }));
  });
  $("b-seat").addEventListener("click", () => act({ cmd: "seat" }, "done_seat", {}));
  $("b-start").addEventListener("click", () => act({ cmd: "start" }, "done_start", {}));
  $("k-pause").addEventListener("click", () => act({ cmd: "clock", action: "pause" }, "done_clock", {}));
  $("k-resume").addEventListener("click", () => act({ cmd: "clock", action: "resume" }, "done_clock", {}));
  $("k-add").addEventListener("click", () => clockTime(1));
  $("k-remove").addEventListener("click", () => clockTime(-1));
  $("k-set").addEventListener("click", setTime);
  $("k-jump").addEventListener("click", jumpLevel);
  $("f-penalty").addEventListener("submit", ev => {
    ev.preventDefault();
    const p = nameIn(ev.target), asked = penaltyAsked(ev.target);
    if (!p) return;
    if (asked.error) { say(asked.error, false); return; }
    const k = () => penaltyText(asked);  // in the language of the moment
    act({ cmd: "penalty", player: p, kind: asked.kind, amount: asked.amount }, "done_penalty", { p, k },
      () => tf("ask_penalty", { p, k }));
  });
  $("b-redraw").addEventListener("click", () => act({ cmd: "redraw" }, "done_redraw", {}, () => t("ask_redraw")));
  $("b-h4h-on").addEventListener("click", () => act({ cmd: "hand_for_hand", on: true }, "done_hand_for_hand", {}, () => t("ask_h4h_on")));
  $("b-h4h-off").addEventListener("click", () => act({ cmd: "hand_for_hand", on: false }, "done_hand_for_hand", {}, () => t("ask_h4h_off")));
  $("f-move").addEventListener("submit", ev => {
    ev.preventDefault();
    const f = ev.target, p = nameIn(f);
    const table = /^t?(\d{1,3})$/.exec(f.querySelector("[name=table]").value.trim());
    const seat = wholeNumber(f.querySelector("[name=seat]").value, 1, 10);
    if (!p) return;
    if (!table || seat === null) { say(() => t("bad_move"), false); return; }
    const v = { p, t: table[1], s: seat };
    act({ cmd: "move", player: p, table: "t" + table[1], seat }, "done_move", v, () => tf("ask_move", v));
  });
  $("f-race").addEventListener("submit", ev => {
    ev.preventDefault();
    const race = chipRace(ev.target);
    if (!race) { say(() => t("bad_race"), false); return; }
    const v = { t: race.table.replace(/^t/, ""), s: chips(race.small_value), b: chips(race.big_value) };
    act(race, "done_race", v, () => tf("ask_race", v));
  });
  $("undo").addEventListener("click", async () => {
    if (await undoLast(say) === null) return;
    $("undo").classList.toggle("hidden", UNDO.action === null);
    loadResults();
  });
  $("search").addEventListener("input", drawLists);
}

window.rerender = () => { penaltyForm($("f-penalty"), ROOM.clock, true); drawLists(); drawSummary(ROOM.clock); drawHistory(); };
(async function main() {
  applyTexts(); langSwitch();
  say("", true);
  await whoAmI();
  penaltyForm($("f-penalty"), ROOM.clock, true);
  wire();
  loadTemplates();
  loadRulebooks();
  let last = 0;
  connect({
    room: d => { drawSummary(d.clock); loadResults(); },
    clock: c => {
      drawSummary(c);
      // eliminations at the tables reach the lists within a few seconds
      if (Date.now() - last > 2500) { last = Date.now(); loadResults(); }
    },
  });
  loadResults();
})();
