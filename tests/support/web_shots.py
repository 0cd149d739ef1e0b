"""The web view's pictures in the docs (docs/web-phone.png, docs/web-tv.png) and
what they are pictures of (docs/web-shot.json): the page at a phone's size
(390×844) and a TV's (1920×1080) over the seeded game the README's monitor
picture shows (monitor_fakes.mid_game), drawn by the web host's own code.

    .venv/bin/python -m tests.support.web_shots       redraw all three

PNG bytes vary with the browser's version and fonts, so what is kept and
checked (tests/host/web/test_web_shots.py) is the JSON: the snapshot the
page drew (the game's state, the forecast, facts, events) and a hash of each
page file (index.html, app.js, siege.js, ring.js, style.css).  If either changed, the pictures
are not the page as it is now."""

import hashlib
import json
import os
import re
import threading
import time

from osada.web import render
from osada.web.host import WebMonitorApp
from osada.web.roles import ROLES
from osada.web.server import FILES, STATIC, WebServer
from tests.support.monitor_fakes import ROOT, SimPortSession, mid_game

SHOT_JSON = os.path.join(ROOT, "docs", "web-shot.json")
PNGS = {"phone": (os.path.join(ROOT, "docs", "web-phone.png"), (390, 844)),
        "tv": (os.path.join(ROOT, "docs", "web-tv.png"), (1920, 1080))}
COMMAND = ".venv/bin/python -m tests.support.web_shots"


ShotSession = SimPortSession   # connected as `make run` is, to the simulator's port


def page_files():
    out = {}
    for name in sorted(FILES):
        with open(os.path.join(STATIC, name), "rb") as f:
            out[name] = hashlib.sha256(f.read()).hexdigest()
    return out


def shot():
    """{snapshot, page}: what the pictures show, drawn now by the web host over mid_game()."""
    g, history = mid_game()
    server = WebServer("127.0.0.1", 0, None)
    app = WebMonitorApp(server, headless=True, port="fake", forecast=True,
                        session=lambda resolve, retry=None, post=None: ShotSession(g, post, history))
    th = threading.Thread(target=app.run, kwargs={"headless": True, "size": (140, 45)}, daemon=True)
    th.start()
    try:
        end = time.monotonic() + 10
        while not (app.state is not None and app.view.setup is not None
                   and len(app.log_entries) >= len(history) + 1):
            assert time.monotonic() < end, "timed out waiting for the fake board"
            time.sleep(0.02)
        live = app.view.live                # Siege's forecast: its final answer, so every run shows the same
        while live is not None and not ((lambda r: r is not None and (r.final or r.forecast.exact))(
                live.current(app.state, app.view.setup))):
            assert time.monotonic() < end + 20, "timed out waiting for the forecast (%s)" % live.why
            time.sleep(0.02)
        time.sleep(0.1)
        snap = app.call_from_thread(lambda: render.snapshot(app, 1))
    finally:
        app.call_from_thread(app.action_quit)
        th.join(5)
    return {"snapshot": snap, "page": page_files()}


def steady(snap):
    """The snapshot without what differs from run to run: the forecast's states and seconds."""
    snap.pop("at", None)
    fc = snap.get("forecast")
    if fc:
        snap["forecast"] = {k: re.sub(r"[\d,?]+ states, \d+\.\d+ s", "N states, S s", v) if isinstance(v, str) else v
                            for k, v in fc.items()}
    return snap


def take_pictures(snap):
    """The PNGs, of the page serving exactly `snap` (Debian's chromium)."""
    from playwright.sync_api import sync_playwright

    from tests.support.web_rig import CHROMIUM, NO_BROWSER, launch
    if not os.path.exists(CHROMIUM):
        raise SystemExit("the pictures need chromium: " + NO_BROWSER)
    server = WebServer("127.0.0.1", 0, None)
    server.start()
    try:
        server.publish({role: snap for role in ROLES})
        with sync_playwright() as pw:
            browser = launch(pw)
            for path, (w, h) in PNGS.values():
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(server.url)
                page.wait_for_selector("body[data-live=yes]", state="attached", timeout=10000)
                page.wait_for_timeout(200)
                page.screenshot(path=path)
                page.close()
            browser.close()
    finally:
        server.stop()


def main():
    data = shot()
    with open(SHOT_JSON, "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    take_pictures(data["snapshot"])
    print("wrote %s and %s" % (os.path.relpath(SHOT_JSON, ROOT),
                               ", ".join(os.path.relpath(p, ROOT) for p, _s in PNGS.values())))


if __name__ == "__main__":
    main()
