// tapis TD login: posts JSON (the server sets an HttpOnly session cookie), then back to the room.
"use strict";
applyTexts(); langSwitch();
document.getElementById("login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const d = Object.fromEntries(new FormData(ev.target).entries());
  const r = await fetch("/api/login", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(d) });
  if (r.ok) location.href = "/"; else document.getElementById("login-error").textContent = t("bad_login");
});
