"""The web view's pictures in the docs (docs/web/<game>-<screen>.png: each game the
device plays, each screen class) and what they are pictures of (docs/web-shot.json):
the page at a phone's size (390×844), a tablet's (768×1024) and a TV's (1920×1080),
over the seeded game the README's monitor picture shows (monitor_fakes.mid_game),
drawn by the web host's own code, and for the other games over their picture's data
(each game's picture.py) for a roll, a toss and a round (PICTURED).

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
SCREENS = {"phone": (390, 844), "tablet": (768, 1024), "tv": (1920, 1080)}     # issue 62 item 3's classes
GAMES = ("siege", "tank", "victory", "warchest")
PNGS = {(game, screen): (os.path.join(ROOT, "docs", "web", "%s-%s.png" % (game, screen)), size)
        for game in GAMES for screen, size in SCREENS.items()}
COMMAND = ".venv/bin/python -m tests.support.web_shots"
SITE_PNG = (os.path.join(ROOT, "docs", "web", "site-phone.png"), (390, 844))   # Osada in the browser, no host
SITE_TANK_PNG = (os.path.join(ROOT, "docs", "web", "site-tank-phone.png"), (390, 844))   # and Tank battle there

# what the other games' pictures show: a roll of eight dice, the second game's toss, a round under way
ROLL = {"ev": "roll", "test": "fire", "n": 8, "hit": 3, "protection": 1, "dice": [1, 4, 3, 6, 2, 5, 3, 6],
        "hits": 4, "absorbed": 1, "damage": 3, "morale": True}
TOSS = {"lot": "A", "game": 2, "starter": "B", "ussr": "A"}
COUNTS = {"players": 2, "round": 3, "hand": [2, 3], "markers": [4, 5], "hand_size": 3, "markers_all": 6,
          "markers_start": 4, "initiative": 2, "moved": True, "turn": 1, "winner": None, "flipped": None,
          "cursor": None, "undo": True}


def pictured():
    """{game: its picture data} for the other games' pictures (ROLL, TOSS, COUNTS)."""
    from osada.tank.panel import TankSetup
    from osada.tank.picture import picture as tank_picture
    from osada.victory.picture import picture as victory_picture
    from osada.warchest.picture import picture as warchest_picture
    return {"tank": tank_picture(ROLL, TankSetup()), "victory": victory_picture(TOSS),
            "warchest": warchest_picture(COUNTS)}


def snapshots(siege, pictures):
    """{game: the snapshot a page draws}: Siege's, and each other game's over the same connection
    and events with its picture."""
    from osada.words.game_names import game_name
    out = {"siege": siege}
    for game, pic in pictures.items():
        out[game] = dict(siege, game=game, game_name=game_name(game), game_short=game_name(game, True),
                         state=None, facts=[], forecast=None, picture=pic)
    return out


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
    return {"snapshot": snap, "pictures": pictured(), "page": page_files()}


def steady(snap):
    """The snapshot without what differs from run to run: the forecast's states and seconds."""
    snap.pop("at", None)
    fc = snap.get("forecast")
    if fc:
        snap["forecast"] = {k: re.sub(r"[\d,?]+ states, \d+\.\d+ s", "N states, S s", v) if isinstance(v, str) else v
                            for k, v in fc.items()}
    return snap


def take_pictures(snaps):
    """The PNGs, of the page serving each of `snaps` ({game: snapshot}) at each size (Debian's chromium)."""
    from playwright.sync_api import sync_playwright

    from tests.support.web_rig import CHROMIUM, NO_BROWSER, launch
    if not os.path.exists(CHROMIUM):
        raise SystemExit("the pictures need chromium: " + NO_BROWSER)
    os.makedirs(os.path.join(ROOT, "docs", "web"), exist_ok=True)
    with sync_playwright() as pw:
        browser = launch(pw)
        for game, snap in snaps.items():
            server = WebServer("127.0.0.1", 0, None)
            server.start()
            try:
                server.publish({role: snap for role in ROLES})
                for screen, (w, h) in SCREENS.items():
                    page = browser.new_page(viewport={"width": w, "height": h}, reduced_motion="reduce")
                    page.goto(server.url)
                    page.wait_for_selector("body[data-live=yes]", state="attached", timeout=10000)
                    page.wait_for_timeout(200)
                    page.screenshot(path=PNGS[(game, screen)][0])
                    page.close()
            finally:
                server.stop()
        browser.close()


def take_site_picture():
    """docs/web/site-phone.png: `make site`'s page on a phone, the device in the page, after a
    hit and an end of turn played by taps (issue 63); site-tank-phone.png: then Tank battle
    there, after two rolls by its ACTION button (the dice as the device rolled them)."""
    import functools
    import http.server
    import tempfile

    from playwright.sync_api import sync_playwright

    from osada.site.build import build
    from tests.support.web_rig import launch

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    with tempfile.TemporaryDirectory() as tmp:
        build(os.path.join(tmp, "site"), quiet=True)
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                functools.partial(Quiet, directory=os.path.join(tmp, "site")))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                w, h = SITE_PNG[1]
                page = browser.new_page(viewport={"width": w, "height": h}, reduced_motion="reduce")
                page.goto("http://127.0.0.1:%d/" % httpd.server_address[1])
                page.wait_for_selector("body[data-live=yes] #picture [data-sector]", state="attached", timeout=60000)
                page.click("[data-action='continue']")
                for step in ("hit", "end_turn"):
                    seq = page.evaluate("document.body.dataset.seq")
                    if step == "hit":
                        page.locator("#picture [data-enemy]").first.click()
                    page.click("#actionbar [data-action='%s']" % step)
                    page.wait_for_function("document.body.dataset.seq !== %r" % seq, timeout=20000)
                page.wait_for_timeout(300)
                page.screenshot(path=SITE_PNG[0])
                page.get_by_role("button", name="Play Tank battle").click()
                page.wait_for_selector("body[data-game=tank] #keys [data-action='action']", timeout=20000)
                for _ in range(2):
                    page.click("#keys [data-action='action']")
                    page.wait_for_timeout(300)
                page.wait_for_selector("#pictext [data-die]", timeout=20000)
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(300)
                page.screenshot(path=SITE_TANK_PNG[0])
                browser.close()
        finally:
            httpd.shutdown()


def main():
    data = shot()
    with open(SHOT_JSON, "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    take_pictures(snapshots(data["snapshot"], data["pictures"]))
    take_site_picture()
    print("wrote %s and %d pictures in docs/web/" % (os.path.relpath(SHOT_JSON, ROOT), len(PNGS) + 2))


if __name__ == "__main__":
    main()
