// tapis clock screen: the floor's snapshot every second, counted down locally in between; a chime
// at each level change and one minute before a break (sound needs one click: browsers' autoplay rule).
"use strict";
let last = null, gotAt = 0, audio = null;
const sounds = { played: [] };
window.__sounds = sounds;
function mmss(s) {
  if (s === null || s === undefined) return "—";
  s = Math.max(0, Math.ceil(s));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
  return (h ? h + ":" + String(m).padStart(2, "0") : String(m).padStart(2, "0")) + ":" + String(x).padStart(2, "0");
}
function euros(c) { return ((c || 0) / 100).toLocaleString(LANG === "fr" ? "fr-FR" : "en-GB", { style: "currency", currency: "EUR" }); }
function chime(kind) {
  sounds.played.push(kind);
  if (!audio) return;
  const notes = kind === "level" ? [880, 660, 880] : [523, 523, 523, 784];
  notes.forEach((f, i) => {
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = f; o.connect(g); g.connect(audio.destination);
    const at = audio.currentTime + i * 0.25;
    g.gain.setValueAtTime(0.3, at); g.gain.exponentialRampToValueAtTime(0.001, at + 0.22);
    o.start(at); o.stop(at + 0.23);
  });
}
function elapsed() { return last && last.running ? (performance.now() - gotAt) / 1000 : 0; }
function onClock(c) {
  if (last && c) {
    if (c.level !== last.level || c.on_break !== last.on_break) chime("level");
    const before = last.next_break_in, now = c.next_break_in;
    if (before !== null && now !== null && before > 60 && now <= 60 && !c.on_break) chime("break_soon");
  }
  last = c; gotAt = performance.now(); draw();
}
function blinds(x) { return `${chips(x.small_blind)} / ${chips(x.big_blind)}` + (x.ante ? ` · ${t("ante")} ${chips(x.ante)}` : ""); }
function draw() {
  const c = last;
  const q = id => document.getElementById(id);
  if (!c) { q("clk-status").textContent = t("no_tournament"); q("clk-time").textContent = "--:--"; return; }
  q("clk-name").textContent = c.name;
  // The tournament is over: its winner, and the clock no longer counts.
  const winner = c.started && c.players_left === 1 ? (Object.values(c.tables || {}).flatMap(x => Object.values(x.seats || {}))
    .find(p => p.chips > 0) || {}).player : null;
  document.body.classList.toggle("won", !!winner);
  if (winner) {
    q("clk-status").textContent = ""; q("clk-level").textContent = t("winner");
    q("clk-time").textContent = winner; q("clk-time").classList.remove("paused");
    q("clk-blinds").textContent = ""; q("clk-ante").textContent = ""; q("clk-next").textContent = "";
    q("clk-schedule").replaceChildren();
    q("clk-players").textContent = `1 / ${c.entries}`;
    return;
  }
  q("clk-status").textContent = c.on_break ? t("on_break") : !c.running ? t("paused") :
    c.final_table ? t("final_table") : c.hand_for_hand ? t("hand_for_hand") : "";
  q("clk-level").textContent = c.on_break ? (c.break && c.break !== "pause" ? c.break : t("break")) : `${t("level")} ${c.level}`;
  const time = q("clk-time");
  time.textContent = mmss(c.time_left - elapsed());
  time.classList.toggle("paused", !c.running);
  q("clk-blinds").textContent = c.on_break ? "" : `${chips(c.small_blind)} / ${chips(c.big_blind)}`;
  q("clk-ante").textContent = !c.on_break && c.ante ? `${t("ante")} ${chips(c.ante)}` : "";
  q("clk-break").textContent = c.next_break_in === null ? "—" : mmss(c.next_break_in - elapsed());
  q("clk-players").textContent = `${c.players_left} / ${c.entries}`;
  q("clk-average").textContent = chips(c.average_stack);
  q("clk-pool").textContent = euros(c.prize_pool_cents);
  q("clk-chips").textContent = c.chips_in_play === undefined ? "—" : chips(c.chips_in_play);
  q("clk-length").textContent = c.minutes ? `${c.minutes} ${t("min")}` : "—";
  // entries, then re-entries and add-ons where the ruleset has them
  q("clk-entries").textContent = [String(c.entries), c.reentry_level || c.reentries ? `${t("reentries")} ${c.reentries || 0}` : null,
    c.addons !== undefined ? `${t("addons")} ${c.addons}` : null].filter(Boolean).join(" · ");
  const late = c.late_registration_level;
  q("clk-late").textContent = !late ? "—" : (c.level > late || (c.level === late && c.on_break))
    ? t("late_reg_closed") : `${t("at_level")} ${late}`;
  const n = c.next_level;
  q("clk-next").textContent = n ? `${t("next_level")}${colon()}${blinds(n)}` : "";
  q("clk-schedule").replaceChildren(...(c.schedule || []).map(x => x.break !== undefined
    ? el("tr", { class: "brk" }, el("td", {}, t("break")), el("td", {}, x.break === "pause" ? "" : x.break), el("td", { class: "num" }, `${x.minutes} ${t("min")}`))
    : el("tr", {}, el("td", {}, `${t("level")} ${x.level}`), el("td", {}, blinds(x)), el("td", { class: "num" }, `${x.minutes} ${t("min")}`))));
  q("clk-payouts").textContent = (c.payouts_cents || []).length
    ? t("payouts") + colon() + c.payouts_cents.slice(0, 12).map((p, i) => `${i + 1}.\u00a0${euros(p)}`).join("  ·  ") : "";
}
window.rerender = draw;
// Sound: the choice is kept (localStorage); a browser starts audio only after a gesture, so a kept "on"
// waits for the first click or key anywhere on the page.
function setSound(on) {
  localStorage.setItem("tapis.sound", on ? "on" : "off");
  if (on) { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); if (audio.state === "suspended") audio.resume().catch(() => {}); }
  else if (audio) { audio.close().catch(() => {}); audio = null; }
  const state = document.getElementById("sound-state");
  state.textContent = on ? "♪ ✓" : "♪ ✗";
  state.dataset.on = on ? "1" : "0";
}
function soundWanted() { return localStorage.getItem("tapis.sound") === "on"; }
// Full screen: the header hidden (and the browser's full screen where it allows it); a corner button or Esc leaves.
function setFull(on) {
  document.body.classList.toggle("full", on);
  try {
    if (on && document.documentElement.requestFullscreen && !document.fullscreenElement) document.documentElement.requestFullscreen().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
  } catch (e) { /* no full screen API: the header is hidden all the same */ }
}
(function main() {
  applyTexts(); langSwitch();
  document.getElementById("sound").addEventListener("click", ev => { ev.stopPropagation(); setSound(!soundWanted()); });
  setSound(soundWanted());
  const wake = () => { if (soundWanted()) setSound(true); };
  document.addEventListener("click", wake, { once: true }); document.addEventListener("keydown", wake, { once: true });
  document.getElementById("full").addEventListener("click", () => setFull(true));
  document.getElementById("exit-full").addEventListener("click", () => setFull(false));
  document.addEventListener("keydown", ev => { if (ev.key === "Escape") setFull(false); });
  document.addEventListener("fullscreenchange", () => { if (!document.fullscreenElement) document.body.classList.remove("full"); });
  connect({ room: d => onClock(d.clock), clock: onClock });
  fetch("/api/clock").then(r => r.json()).then(d => { if (!last) onClock(d.clock); }).catch(() => {});
  setInterval(draw, 250);
})();
