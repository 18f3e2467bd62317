// tapis TD login: posts JSON (the server sets an HttpOnly session cookie), then back to the room.
"use strict";
applyTexts(); langSwitch();
document.getElementById("login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const d = Object.fromEntries(new FormData(ev.target).entries());
  let r;
  try {
    r = await fetch("/api/login", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(d) });
  } catch (e) { document.getElementById("login-error").textContent = t("err_hub_down"); return; }
  if (r.ok) { location.href = "/"; return; }
  let code = "bad_login"; try { code = (await r.json()).code || code; } catch (e) { /* no body */ }
  document.getElementById("login-error").textContent = t("err_" + code);
});
