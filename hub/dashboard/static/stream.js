// tapis delayed stream (/stream): every table with its hole cards, as the hub releases them: a delay after
// they happened and never before their hand ended (hub/dashboard/stream.py). Its own login, not the TD's.
"use strict";
Object.assign(TEXTS.fr, { stream: "Flux différé", stream_login: "Connexion au flux", no_table_yet: "Rien encore\u202f: les donnes apparaissent une fois finies et le délai passé",
  stream_login_why: "Ce flux montre les cartes des joueurs, en différé\u202f: il faut un compte de diffusion.",
  stream_dropped: "événements perdus (mémoire du hub pleine)", won: "gagne", pot_of: "pot de" });
Object.assign(TEXTS.en, { stream: "Delayed stream", stream_login: "Stream login", no_table_yet: "Nothing yet: hands appear once over and the delay passed",
  stream_login_why: "This stream shows the players' cards, delayed: it needs a broadcast login.",
  stream_dropped: "events lost (the hub's memory was full)", won: "wins", pot_of: "pot of" });
const STREAM = { words: null, logs: {}, dropped: 0 };
// One hub event in words: the actions, the cards as chips show them, the result and who won each pot.
function streamLine(e) {
  const bits = [label("event", e.type)];
  if (e.seat) bits.push(`${t("seat")} ${e.seat}`);
  if (e.type === "card") bits.push(String(e.zone || "").startsWith("seat:") ? `${t("seat")} ${e.zone.slice(5)}` : label("zone", e.zone),
    e.action ? label("action", e.action) : "", e.card ? cardText(e.card) : "");
  if (e.type === "action") bits.push(label("action", e.action), e.to || e.amount ? chips(e.to || e.amount) : "");
  if (e.type === "hand_start") bits.push(`${t("hand")} ${e.hand}`);
  if (e.type === "hand_end") {
    bits.push(e.result ? label("result", e.result) : "", (e.board || []).map(cardText).join(" "));
    (e.pots || []).forEach(p => bits.push(`${t("pot_of")} ${chips(p.amount)}${colon()}${(p.winners || []).map(s => `${t("seat")} ${s}`).join(", ")} ${t("won")}`));
  }
  if (e.type === "table_status") bits.push(label("online", String(!!e.online)));
  return el("div", {}, bits.filter(Boolean).join(" · "));
}
function cardText(face) { const s = face.slice(-1); return face.slice(0, -1).replace("T", "10") + (SUITS[s] || s); }
// Once a hand is over the hub's seats keep no hole cards: those still on the felt are shown on their seats.
function withFelt(s) {
  const zones = s.zones || {};
  return { ...s, seats: (s.seats || []).map(p => (p.hole && p.hole.length) || !Array.isArray(zones["seat:" + p.seat]) ? p
    : { ...p, hole: zones["seat:" + p.seat] }) };
}
function drawStream() {
  const ids = Object.keys(ROOM.tables).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const boxes = ids.map(id => el("section", { class: "stream-table" }, renderTable(withFelt(ROOM.tables[id])),
    el("div", { class: "log" }, (STREAM.logs[id] || []).slice(-12).map(streamLine))));
  document.getElementById("tables").replaceChildren(...(boxes.length ? boxes : [el("p", {}, t("no_table_yet"))]));
  const delay = document.getElementById("delay");
  if (STREAM.words) delay.textContent = STREAM.words[LANG] || STREAM.words.fr;
  const dropped = document.getElementById("dropped");
  dropped.classList.toggle("hidden", !STREAM.dropped);
  dropped.textContent = `${STREAM.dropped} ${t("stream_dropped")}`;
}
window.rerender = drawStream;
function follow() {
  const es = new EventSource("/stream/events");
  const live = document.getElementById("live");
  window.__tapis = { received: 0 };
  es.addEventListener("open", () => { live.textContent = t("live"); live.className = "badge ok"; });
  es.addEventListener("error", async () => {
    live.textContent = t("disconnected"); live.className = "badge bad";
    // a session the hub forgot (restarted, or past its 12 hours): log in again rather than retry for ever
    try {
      const me = await (await fetch("/api/stream/me", { credentials: "same-origin" })).json();
      if (!me.user) { es.close(); document.getElementById("stream-login").classList.remove("hidden"); }
    } catch (e) { /* the hub does not answer: EventSource keeps trying */ }
  });
  es.addEventListener("room", ev => {
    const d = JSON.parse(ev.data);
    ROOM.tables = d.tables; ROOM.clock = d.clock ? d.clock.clock : null; STREAM.words = d.words;
    STREAM.logs = d.logs; STREAM.dropped = d.dropped; window.__tapis.received++; drawStream();
  });
  es.addEventListener("update", ev => {
    const d = JSON.parse(ev.data), id = d.event.table;
    if (d.table) ROOM.tables[id] = d.table;
    (STREAM.logs[id] = STREAM.logs[id] || []).push({ at: d.at, ...d.event });
    if (STREAM.logs[id].length > 60) STREAM.logs[id].shift();
    window.__tapis.received++; drawStream();
  });
  es.addEventListener("clock", ev => { ROOM.clock = JSON.parse(ev.data).clock; });
  es.addEventListener("dropped", ev => { STREAM.dropped = JSON.parse(ev.data).dropped; drawStream(); });
}
(async function main() {
  applyTexts(); langSwitch();
  const me = await (await fetch("/api/stream/me", { credentials: "same-origin" })).json();
  STREAM.words = me.words; drawStream();
  const form = document.getElementById("stream-login");
  loginForm(form);
  if (me.user) follow(); else form.classList.remove("hidden");
})();
function loginForm(form) {
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = JSON.stringify(Object.fromEntries(new FormData(form).entries()));
    let r;
    try {
      r = await fetch("/api/stream/login", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body });
    } catch (e) { document.getElementById("login-error").textContent = t("err_hub_down"); return; }
    if (r.ok) { form.classList.add("hidden"); follow(); return; }
    let code = "bad_login"; try { code = (await r.json()).code || code; } catch (e) { /* no body */ }
    document.getElementById("login-error").textContent = t("err_" + code);
  });
}
