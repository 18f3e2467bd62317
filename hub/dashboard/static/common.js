// tapis dashboard: what every page shares: who am I, the live stream, cards and tables drawn safely.
"use strict";
const ME = { role: "viewer", user: null, csrf: null, floor: false };
const ROOM = { tables: {}, faults: {}, clock: null, log: [] };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid instanceof Node ? kid : String(kid));
  return e;
}
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
function card(face) {
  if (!face || face === "?") return el("span", { class: "card back" }, "??");
  const suit = face.slice(-1), rank = face.slice(0, -1).replace("T", "10");
  return el("span", { class: "card" + ("hd".includes(suit) ? " red" : "") }, rank + (SUITS[suit] || suit));
}
function backs(n) { return Array.from({ length: n }, () => card(null)); }
function chips(n) { return (n || 0).toLocaleString(LANG === "fr" ? "fr-FR" : "en-GB"); }

async function whoAmI() {
  const r = await fetch("/api/me", { credentials: "same-origin" });
  Object.assign(ME, await r.json());
  document.querySelectorAll(".td-only").forEach(e => e.classList.toggle("hidden", ME.role !== "td"));
  document.querySelectorAll(".viewer-only").forEach(e => e.classList.toggle("hidden", ME.role === "td"));
  drawWho();
  return ME;
}
function drawWho() {
  const who = document.getElementById("who");
  if (who) who.textContent = ME.role === "td" ? `${ME.user} (${t("td")})` : t("viewer");
}
// A TD action: the hub down (no answer), or a session it no longer knows (it restarted), is said at once.
async function tdPost(path, body) {
  let r;
  try {
    r = await fetch(path, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": ME.csrf || "" }, body: JSON.stringify(body) });
  } catch (e) {
    notice("hub_down");
    return { ok: false, status: 0, data: { code: "hub_down" } };
  }
  let data = {}; try { data = await r.json(); } catch (e) { /* empty answer */ }
  if (r.status === 403 && ["session_expired", "login_required", "csrf"].includes(data.code)) sessionLost();
  else if (r.status >= 500) notice("hub_down");
  return { ok: r.ok, status: r.status, data };
}
// What a refused action says, in the page's language: the hub's codes have words; a floor refusal
// comes in both languages (error_fr, error_en), after "Refusé par le hub :". Never the other language.
function refusalText(r) {
  const d = r.data || {};
  if (d.code && TEXTS.fr["err_" + d.code]) return t("err_" + d.code);
  if (!r.status) return t("err_hub_down");
  const said = LANG === "fr" ? d.error_fr : d.error_en;
  return t("refused_by_hub") + colon() + (said ? typo(said) : t("err_refused"));
}

// --- an action that changes chips or places: asked first, done, and undone by the button it leaves ----
// The room and the desk share it: one question box (#confirm), one "last action" to undo. What they say
// is kept as a function of the page's language, so the switch redraws it (no French left on EN).
const UNDO = { action: null, doneKey: "", values: {} };
let ASKED = null;
function textOf(text) { return typeof text === "function" ? text() : text; }
function ask(question) {
  let box = document.getElementById("confirm");
  if (!box) {
    box = el("div", { id: "confirm", class: "panel hidden", role: "dialog" }, el("span", { id: "confirm-text" }), " ",
      el("button", { id: "confirm-yes", class: "primary", "data-t": "confirm" }, t("confirm")), " ",
      el("button", { id: "confirm-no", "data-t": "back" }, t("back")));
    document.body.append(box);
  }
  const yes = document.getElementById("confirm-yes"), no = document.getElementById("confirm-no");
  ASKED = question;
  document.getElementById("confirm-text").textContent = textOf(question);
  box.classList.remove("hidden");
  yes.focus();
  return new Promise(resolve => {
    const done = answer => { ASKED = null; box.classList.add("hidden"); yes.onclick = no.onclick = null; resolve(answer); };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
  });
}
// `render(text, ok)` drawn now and again on a language switch: the page's "what happened" line.
function sayer(render) {
  let last = null;
  watch(kind => { if (kind === "lang" && last) render(textOf(last[0]), last[1]); });
  return (text, ok) => { last = [text, ok]; render(textOf(text), ok); };
}
// A whole number typed in a field, within low..high; null otherwise (the page says so in words).
function wholeNumber(text, low, high) {
  const s = String(text).trim();
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n >= low && n <= high ? n : null;
}
// The penalty form of the desk and of the room: the ruleset's ladder only (the clock's `penalties`: each rung
// with the hands, rounds or minutes it allows, its article on hover), the amount held to the rung picked; a
// warning or a disqualification takes none. Every kind until the clock is known. Redrawn only when the
// ladder changes (a clock every few seconds would close an open list), or `force` (a language switch).
const NO_AMOUNT = new Set(["warning", "disqualification"]);
function penaltyForm(form, clock, force) {
  const select = form.querySelector("[name=kind]"), was = select.value;
  const ladder = (clock && clock.penalties) || Object.keys(LABELS.fr.penalty).map(kind => ({ kind }));
  const key = JSON.stringify(ladder);
  if (!force && form.dataset.ladder === key) return;
  form.dataset.ladder = key;
  select.replaceChildren(...ladder.map(step => el("option", { value: step.kind, title: step.article || "" },
    label("penalty", step.kind) + (step.high ? ` ${step.low}–${step.high}` : ""))));
  if (ladder.some(step => step.kind === was)) select.value = was;
  if (!select.dataset.wired) {
    select.dataset.wired = "1";
    select.addEventListener("change", () => penaltyBounds(form));
  }
  penaltyBounds(form);
}
function penaltyRung(form) {
  const kind = form.querySelector("[name=kind]").value;
  const step = JSON.parse(form.dataset.ladder || "[]").find(s => s.kind === kind) || { kind };
  return { kind, none: NO_AMOUNT.has(kind), low: step.high ? step.low : 1, high: step.high || 60 };
}
function penaltyBounds(form) {
  const rung = penaltyRung(form), input = form.querySelector("[name=amount]");
  input.disabled = rung.none;
  input.min = String(rung.low);
  input.max = String(rung.high);
  const n = Number(input.value);
  if (!rung.none && !(Number.isInteger(n) && n >= rung.low && n <= rung.high)) input.value = String(rung.low);
}
// The penalty asked: { kind, amount }, or { error } in the TD's words when the rung does not allow the amount.
function penaltyAsked(form) {
  const rung = penaltyRung(form);
  if (rung.none) return { kind: rung.kind, amount: 0 };
  const n = wholeNumber(form.querySelector("[name=amount]").value, rung.low, rung.high);
  if (n === null) {
    return { error: () => tf("bad_amount", { k: label("penalty", rung.kind), low: rung.low, high: rung.high }) };
  }
  return { kind: rung.kind, amount: n };
}
// A penalty asked, in words with its amount ("2 tours de pénalité"): the TD confirms what he typed, not the rung alone.
function penaltyText(asked) {
  const key = "pen_" + asked.kind + (asked.amount === 1 ? "_1" : "");
  return asked.amount && TEXTS.fr[key] ? tf(key, { n: asked.amount }) : label("penalty", asked.kind);
}
// Balancing or a broken table after an elimination: "Ada : table 1 siège 3 → table 2 siège 5".
function moveLines(moves) {
  return (moves || []).map(m => tf("move_line", { p: m.player,
    from: m.from_table ? tf("table_seat", { t: m.from_table.replace(/^t/, ""), s: m.from_seat }) : t("new_seat"),
    to: tf("table_seat", { t: m.to_table.replace(/^t/, ""), s: m.to_seat }) }));
}
// One floor command: asked first when `question` is given; `show(text, ok)` says the outcome; an
// action the hub can take back is kept in UNDO (its undo is an event, not an erasure). null: not asked.
async function floorAct(cmd, doneKey, values, question, show) {
  if (question && !(await ask(question))) return null;
  const r = await tdPost("/api/td/floor", cmd);
  const ok = r.ok && r.data.ok !== false;
  const data = (ok && r.data.data) || {};
  // an elimination or a move asked while the player's table is in a hand is done at its end
  if (ok && (r.data.events || []).includes("EliminationAsked")) doneKey = "done_eliminate_later";
  if (ok && (r.data.events || []).includes("MoveAsked")) doneKey = "done_move_later";
  Object.assign(UNDO, { action: Number.isInteger(data.undo) ? data.undo : null, doneKey, values });
  show(() => (ok ? [tf(doneKey, values)].concat(moveLines(data.moves)).join(" · ") : refusalText(r)), ok);
  return r;
}
function undoLast(show) {
  if (UNDO.action === null) return null;
  const { doneKey, values } = UNDO;
  return floorAct({ cmd: "undo", action: UNDO.action, by: ME.user || "TD" }, "done_undo", {},
    () => tf("ask_undo", { a: tf(doneKey, values) }), show);
}

// The TD's session is gone (the hub restarted, or it expired): say so, offer to log in again.
function sessionLost() {
  ME.role = "viewer"; ME.csrf = null;
  document.querySelectorAll(".td-only").forEach(e => e.classList.add("hidden"));
  document.querySelectorAll(".viewer-only").forEach(e => e.classList.remove("hidden"));
  drawWho();
  notice("err_session_expired", "/login", "relogin");
  if (window.rerender) window.rerender();
}
// One banner under the header: a key of TEXTS (redrawn on a language switch), an optional link.
function notice(key, href, linkKey) {
  let box = document.getElementById("notice");
  if (!box) { box = el("div", { id: "notice", class: "notice", role: "alert" }); document.querySelector("header").after(box); }
  box.dataset.key = key;
  box.replaceChildren(el("span", { "data-t": key }, t(key)), " ",
    href ? el("a", { href, "data-t": linkKey }, t(linkKey)) : null,
    el("button", { class: "close", title: t("close"), "aria-label": t("close"), onclick: () => box.remove() }, "×"));
}
async function logout() { await tdPost("/api/logout", {}); location.reload(); }

// Modules that follow the whole room (players, alarms) register here; called after every message.
const WATCHERS = [];
function watch(fn) { WATCHERS.push(fn); }
function changed(kind) { WATCHERS.forEach(fn => { try { fn(kind); } catch (e) { console.error(e); } }); }
watch(kind => { if (kind === "lang" && ASKED) document.getElementById("confirm-text").textContent = textOf(ASKED); });

// The live stream: "room" (everything, on connect), "update" (a hub event and its table), "fault", "clock".
function connect(handlers) {
  const status = document.getElementById("live");
  const es = new EventSource("/events");
  window.__tapis = { received: 0 };
  const show = (key, cls) => { if (status) { status.dataset.t = key; status.textContent = t(key); status.className = "badge " + cls; } };
  let lost = false;
  es.addEventListener("open", () => {
    show("live", "ok");
    // back after a cut: a restarted hub forgot its sessions, so ask who we are before the TD acts
    if (lost && ME.role === "td") whoAmI().then(me => { if (me.role !== "td") sessionLost(); }).catch(() => {});
    lost = false;
  });
  es.addEventListener("error", () => { lost = true; show("disconnected", "bad"); });
  es.addEventListener("health", ev => showHealth(JSON.parse(ev.data)));
  es.addEventListener("room", ev => {
    const d = JSON.parse(ev.data);
    showHealth(d.hub || {});
    ROOM.tables = d.tables; ROOM.faults = {}; d.faults.forEach(f => { ROOM.faults[f.id] = f; });
    Object.keys(d.tables).forEach(id => { RECEIVED[id] = Date.now(); });
    ROOM.clock = d.clock; window.__tapis.received++;
    handlers.room && handlers.room(d);
    changed("room");
  });
  es.addEventListener("update", ev => {
    const d = JSON.parse(ev.data);
    if (d.table) { ROOM.tables[d.table.table] = d.table; RECEIVED[d.table.table] = Date.now(); }
    ROOM.log.push(d.event); if (ROOM.log.length > 500) ROOM.log.shift();
    window.__tapis.received++;
    handlers.update && handlers.update(d);
    changed("update");
  });
  es.addEventListener("fault", ev => {
    const f = JSON.parse(ev.data); ROOM.faults[f.id] = f; handlers.fault && handlers.fault(f);
    changed("fault");
  });
  es.addEventListener("clock", ev => {
    ROOM.clock = JSON.parse(ev.data).clock; handlers.clock && handlers.clock(ROOM.clock); changed("clock");
  });
  return es;
}

// The hub's event store cannot write: no table is acknowledged (their outboxes keep every event).
const HEALTH = {};
function showHealth(h) {
  Object.assign(HEALTH, h);
  const live = document.getElementById("live");
  let badge = document.getElementById("store-down");
  if (!badge && live) { badge = el("span", { id: "store-down", class: "badge bad hidden", "data-t": "store_down" }); live.after(badge); }
  if (!badge) return;
  badge.textContent = t("store_down");
  badge.title = h.store_error ? t("store_cause") + h.store_error : "";  // the store's own words, said as such
  badge.classList.toggle("hidden", h.store !== "down");
}

// One name for a table wherever a TD reads it (issue #30): "Table 1", whether the hub says t1 or 1.
function tableName(id) { const s = String(id); return `${t("table")} ${/^t\d+$/.test(s) ? s.slice(1) : s}`; }
// A seat's player: the table's own snapshot names tournament players; else the floor's clock data does.
function seatName(table, seat) {
  const n = /^t(\d+)$/.exec(table), c = ROOM.clock;
  const at = n && c && c.tables ? c.tables[n[1]] : null;
  return at && at.seats && at.seats[seat] ? at.seats[seat].player : "";
}
// A table that cannot go on by itself (docs/dashboard.md, "Alarms"): offline, its reader lost, a hand
// waiting for the TD, a "new hand" refused while the hand in progress stands, its events waiting for the
// store, or a hand older than HAND_TOO_OLD. Each reason in words, French first, then English.
const HAND_TOO_OLD = 600;  // seconds: no hand of a tournament lasts 10 minutes unless something is wrong
function blockedWhy(s) {
  if (s.closed) return [];
  const why = [];
  if (!s.online) why.push(["table hors ligne", "table offline"]);
  // the floor's word when it waits for this table to move a player (the clock's snapshot, French and English)
  const num = /^t(\d+)$/.exec(s.table), waits = num && ROOM.clock && ROOM.clock.floor_waits ? ROOM.clock.floor_waits[num[1]] : null;
  if (waits) why.push([waits.fr, waits.en]);
  if (s.reader === "lost") why.push(["lecteur RFID perdu", "RFID reader lost"]);
  if (s.reader === "fault") why.push(["lecteur RFID en défaut", "RFID reader faulty"]);
  if ((s.pending_td || 0) > 0) why.push(["attend la décision du DT", "waiting for the TD's decision"]);
  if (s.refused) why.push(["nouvelle donne refusée\u202f: la donne en cours n'est pas finie",
    "new hand refused: the hand in progress has not ended"]);
  if ((s.held || 0) > 0 && HEALTH.store === "down") why.push(["attend le hub\u202f: ses événements attendent le stockage",
    "waiting for the hub: its events wait for the store"]);
  const age = handAge(s);
  if (age > HAND_TOO_OLD) {
    const min = Math.floor(age / 60);
    why.push([`donne commencée il y a ${min} min`, `hand started ${min} min ago`]);
  }
  return why;
}
// Seconds since the hand started: the hub's clock up to its last word on the table, the page's since
// (the two clocks are never compared).
function handAge(s) {
  if (!s.hand_open || s.hand_since == null || !s.noted_at || !RECEIVED[s.table]) return 0;
  return s.noted_at - s.hand_since + (Date.now() - RECEIVED[s.table]) / 1000;
}
const RECEIVED = {};  // table -> when the page received its snapshot (its own clock, ms)
function blocked(s) { return blockedWhy(s).length > 0; }
// In the page's language (French unless the TD switched to English), as every word on the page.
function blockedText(s) { return blockedWhy(s).map(([fr, en]) => LANG === "fr" ? fr : en).join(" · "); }
// What the table's agent says of its reader (docs/dashboard.md): written « français /
// English » by the table, so the page shows its language's half, the whole in the tooltip. A table's
// free text over MQTT: put as text (never markup) and cut. Said when the reader is at fault or lost; on
// the table's own page also when connected (its firmware, a restart, an antenna reading again).
const READER_WORDS = 160;
function readerWords(detail) {
  const whole = String(detail || "").trim(), cut = whole.indexOf(" / ");
  const said = cut < 0 ? whole : LANG === "fr" ? whole.slice(0, cut) : whole.slice(cut + 3);
  return said.length > READER_WORDS ? said.slice(0, READER_WORDS - 1) + "…" : said;
}
function readerDetail(s) {
  const bad = s.reader === "fault" || s.reader === "lost";
  if (!s.reader_detail || !(bad || (s.reader === "connected" && document.querySelector("main.table-view")))) return null;
  const said = typo(readerWords(s.reader_detail));
  // « lecteur redémarré… » names the reader already: not « lecteur : lecteur redémarré »
  return el("div", { class: "text reader-detail" + (bad ? " bad" : ""), title: String(s.reader_detail).slice(0, 400) },
    /^(lecteur|reader)\b/i.test(said) ? said : `${t("reader")}${colon()}${said}`);
}
function openFaults(table) { return Object.values(ROOM.faults).filter(f => f.open && (!table || f.table === table)); }

function renderTable(s) {
  // Broken up by the floor: said in words, no seats (its players sit elsewhere, not at 0 chips here).
  if (s.closed) return el("div", { class: "table closed", id: "table-" + s.table, "data-table": s.table },
    el("h2", {}, el("a", { href: "/table?t=" + encodeURIComponent(s.table) }, tableName(s.table)),
      el("span", { class: "badge" }, t("table_closed"))),
    el("div", { class: "text" }, t("table_closed_why")));
  const open = openFaults(s.table);
  const head = el("h2", {}, el("a", { href: "/table?t=" + encodeURIComponent(s.table) }, tableName(s.table)),
    s.online ? null : el("span", { class: "badge bad" }, t("offline")),
    s.reader && s.reader !== "connected" && s.reader !== "unknown" ? el("span", { class: "badge reader " + (s.reader === "unknown" ? "" : "bad") }, `${t("reader")} ${t("reader_" + s.reader)}`) : null,
    open.length ? el("span", { class: "badge warn" }, `⚠ ${open.length}`) : null,
    el("span", { class: "badge" }, `${t("hand")} ${s.hand}${s.street ? " · " + label("street", s.street) : ""}`));
  const board = el("div", { class: "board" }, (s.board || []).map(card), s.pot ? el("span", { class: "badge" }, `${t("pot")} ${chips(s.pot)}`) : null);
  const rows = (s.seats || []).map(p => {
    const hole = Array.isArray(p.hole) ? p.hole.map(card) : backs(p.hole_count || 0);
    const cls = (s.to_act === p.seat ? "to-act" : "") + (s.hand_open && !p.live ? " folded" : "");
    // seated here during the hand (a move): not in it, plays from the next one
    const out = p.waiting ? t("next_hand") : s.hand_open && !p.live ? t("folded") : "";
    return el("tr", { class: cls, "data-seat": p.seat },
      el("td", {}, p.seat, s.button === p.seat ? el("span", { class: "button-chip", title: t("button") }, "D") : null),
      el("td", { class: "player" }, p.player || seatName(s.table, p.seat)), el("td", {}, hole),
      el("td", { class: "num" }, s.hand_open && p.live && p.stack === 0 ? label("action", "allin") : chips(p.stack)),  // all in, not "0"
      el("td", { class: "num" }, p.bet ? chips(p.bet) : ""),
      el("td", {}, s.to_act === p.seat ? "◀ " + t("to_act") : out));
  });
  const seatZones = Object.entries(s.zones || {}).filter(([z]) => z.startsWith("seat:"));
  const unmanaged = !(s.seats || []).length && seatZones.length
    ? el("table", { class: "seats" }, seatZones.map(([z, c]) => el("tr", {}, el("td", {}, z.slice(5)), el("td", {}, Array.isArray(c) ? c.map(card) : backs(c)))))
    : null;
  const awaiting = open.some(f => f.needs_decision);
  const why = blockedText(s);
  return el("div", { class: "table" + (s.online ? "" : " offline") + (open.length ? " faulty" : "") + (why ? " blocked" : "") + (awaiting ? " awaiting" : ""), id: "table-" + s.table, "data-table": s.table, title: why },
    head, why ? el("div", { class: "text blocked-why" }, "⚠ " + why) : null, readerDetail(s), board, rows.length ? el("table", { class: "seats" }, rows) : unmanaged, cancelButton(s));
}

// "Annuler la donne": a table blocked mid-hand is unblocked by the TD; the answer cites the ruleset's article.
function cancelButton(s) {
  if (ME.role !== "td" || !s.managed) return null;
  const said = el("div", { class: "text cancel-result" }, CANCELS[s.table] || "");
  if (!s.hand_open) return CANCELS[s.table] ? said : null;  // the ruling stays until the next cancel
  const button = el("button", { class: "cancel-hand", onclick: async () => {
    if (!(await ask(`${t("cancel_hand")} — ${tableName(s.table)}, ${t("hand")} ${s.hand}${LANG === "fr" ? "\u202f?" : "?"}`))) return;
    const r = await tdPost("/api/td/floor", { cmd: "cancel_hand", table: s.table, by: ME.user || "TD" });
    const d = r.data.data || {};
    CANCELS[s.table] = r.ok ? `✔ ${typo(LANG === "fr" ? d.text : d.text_en)}` : `✘ ${refusalText(r)}`;
    said.textContent = CANCELS[s.table];
    // The hub's events may have redrawn the table before this answer came: draw it again with it.
    const box = document.getElementById("table-" + s.table);
    if (box && ROOM.tables[s.table]) box.replaceWith(renderTable(ROOM.tables[s.table]));
  } }, t("cancel_hand"));
  return el("div", {}, button, said);
}
const CANCELS = {};

// A fault in words: its kind, the hand as the header names it, cards as the chips show them, the
// ruling's article and decision from the page's own tables (the hub's text is one language only).
function faultHead(f) {
  return `${tableName(f.table)} · ${t("hand")} ${f.hand} · ${label("fault", f.kind)}`;
}
function renderFault(f) {
  const r = f.ruling || {};
  const ruling = [r.article, r.decision ? label("decision", r.decision) : null].filter(Boolean).join(colon());
  const box = el("div", { class: "fault" + (f.open ? "" : " closed") + (f.needs_decision ? " decide" : ""), id: "fault-" + f.id, "data-fault": f.id },
    el("div", {}, el("b", {}, faultHead(f)), f.seat ? ` · ${t("seat")} ${f.seat}` : "",
      (f.cards || []).length ? el("span", {}, " ", f.cards.map(card)) : null),
    ruling ? el("div", { class: "text" }, ruling) : null,
    // the seats, named as seats: a bare "1" reads as one dead hand
    (r.dead_seats || []).length ? el("div", { class: "text" }, t("dead_hands") + colon() + r.dead_seats.map(s => `${t("seat").toLowerCase()} ${s}`).join(", ")) : null);
  if (f.refused) box.append(el("div", { class: "text refused" }, el("span", { class: "badge warn" }, t("refused")), " ", typo(f.refused[LANG] || f.refused.fr)));
  if (f.acked_by) box.append(el("div", { class: "text" }, `${t("acked_by")} ${f.acked_by}` + (f.decision ? ` · ${t("decided")}${colon()}${label("decision", f.decision)}` : "")));
  const said = el("div", { class: "text result" });
  const act = async (path, body) => { const r = await tdPost(path, body); if (!r.ok) said.textContent = "✘ " + refusalText(r); };
  if (ME.role === "td") {
    if (f.needs_decision) {
      box.append(el("div", { class: "options" }, (f.options.length ? f.options : ["ok"]).map(o =>
        el("button", { class: "primary", "data-option": o, onclick: () => act("/api/td/decide", { fault: f.id, option: o }) }, label("decision", o)))));
    } else if (!f.acked_by) {
      box.append(el("button", { class: "ack", onclick: () => act("/api/td/ack", { fault: f.id }) }, t("ack")));
    }
    box.append(said);
  }
  if (f.table && f.hand) box.append(el("a", { class: "replay", href: `/hand?t=${encodeURIComponent(f.table)}&h=${f.hand}` +
    (ME.role === "td" ? `&step=0&fault=${encodeURIComponent(f.id)}` : "") }, t("hand_replay")));
  return box;
}
