"""Headless Chromium for the dashboard's tests and screenshots (Debian's `chromium`, Playwright's API).

`launch()` starts Debian's browser (never a Playwright download); `missing()` says why it cannot, so
tests skip cleanly. `RECORD_STREAM` is an init script that keeps every Server-Sent Event the page
receives in `window.__raw`, so tests check what reached the browser, not only what was drawn.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

CHROMIUM = os.environ.get("TAPIS_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

RECORD_STREAM = """
window.__raw = [];
(() => {
  const Original = window.EventSource;
  window.EventSource = function (url, options) {
    const es = new Original(url, options);
    const add = es.addEventListener.bind(es);
    es.addEventListener = (type, fn, opts) => add(type, ev => {
      if (ev.data !== undefined) window.__raw.push([type, ev.data]);
      fn(ev);
    }, opts);
    return es;
  };
})();
"""


def missing() -> str | None:
    """Why the browser tests cannot run here (None when they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; no `playwright install` needed)"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
