// tapis dashboard: a blocked table or a pending TD decision draws the eye (a blinking badge, the
// tab's title) and, for the TD, the ear: a beep every few seconds until it is dealt with or muted.
"use strict";
const ALARM_EVERY = 5000;  // ms between beeps while an alarm stands
window.__alarms = { beeps: 0, count: 0 };
let alarmAudio = null;
function alarmMuted() { return localStorage.getItem("tapis.alarm") === "off"; }
function alarmState() {
  const tables = Object.values(ROOM.tables).filter(blocked).length;
  const decisions = Object.values(ROOM.faults).filter(f => f.needs_decision).length;
  return { tables, decisions };
}
function drawAlarm() {
  const { tables, decisions } = alarmState();
  const badge = document.getElementById("alarm");
  window.__alarms.count = tables + decisions;
  if (badge) {
    const bits = [tables ? `${tables} ${t(tables > 1 ? "alarm_blocked_n" : "alarm_blocked")}` : null,
      decisions ? `${decisions} ${t(decisions > 1 ? "alarm_decision_n" : "alarm_decision")}` : null];
    badge.textContent = "⚠ " + bits.filter(Boolean).join(" · ");
    badge.title = Object.values(ROOM.tables).filter(blocked).map(s => `${tableName(s.table)}${colon()}${blockedText(s)}`).join("\n");
    badge.classList.toggle("on", tables + decisions > 0);
  }
  const base = document.title.replace(/^⚠ /, "");
  document.title = (tables + decisions ? "⚠ " : "") + base;
  const mute = document.getElementById("alarm-state");
  if (mute) { mute.textContent = alarmMuted() ? t("alarm_off") : t("alarm_on"); mute.dataset.on = alarmMuted() ? "0" : "1"; }
}
function beep() {
  if (ME.role !== "td" || alarmMuted() || !window.__alarms.count) return;
  window.__alarms.beeps++;
  if (!alarmAudio) return;  // no gesture yet: the browser would refuse the sound
  const o = alarmAudio.createOscillator(), g = alarmAudio.createGain();
  o.frequency.value = 988; o.connect(g); g.connect(alarmAudio.destination);
  const at = alarmAudio.currentTime;
  g.gain.setValueAtTime(0.25, at); g.gain.exponentialRampToValueAtTime(0.001, at + 0.35);
  o.start(at); o.stop(at + 0.36);
}
watch(drawAlarm);
document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("alarm-sound");
  if (button) button.addEventListener("click", () => { localStorage.setItem("tapis.alarm", alarmMuted() ? "on" : "off"); drawAlarm(); });
  const wake = () => { try { alarmAudio = alarmAudio || new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { /* no audio */ } };
  document.addEventListener("click", wake, { once: true });
  setInterval(beep, ALARM_EVERY);
  // A table that stopped sends nothing: its hand's age is checked on the page's clock.
  const shown = {};
  setInterval(() => {
    for (const s of Object.values(ROOM.tables)) {
      const why = blockedText(s);
      if (shown[s.table] !== undefined && shown[s.table] !== why && typeof drawTable === "function") drawTable(s);
      shown[s.table] = why;
    }
    drawAlarm();
  }, 2000);
});
