"""The web view's test rig (tests/host/web/, tests/bench/web_bench.py): the simulator's app loop in a
thread on a real pty (as tests/host/monitor/ run it), the web host (the
monitor's app headless, osada.web.host) in a thread of its own serving on a
free port, and Debian's chromium driven by Playwright.  With no
/usr/bin/chromium the browser tests skip with NO_BROWSER."""

import contextlib
import os
import shutil
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada.siege import board as siege_board  # noqa: E402
from osada.web.host import WebMonitorApp  # noqa: E402
from osada.web.server import WebServer  # noqa: E402
from tests.support.simthread import SimThread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
NO_BROWSER = ("no Chromium at /usr/bin/chromium: the web view's browser tests need Debian's chromium "
              "(apt-get install chromium; .ci/run installs it)")
# Debian's chromium as Playwright drives it: headless, nothing fetched from the network
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PIN = "424242"


# each page as if on a device of its own, in front: no tab's work put off as a background tab's
FOREGROUND_ARGS = ["--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                   "--disable-backgrounding-occluded-windows"]


def launch(playwright, foreground=False):
    args = CHROMIUM_ARGS + (FOREGROUND_ARGS if foreground else [])
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)


def SimDevice(link, state_dir, seed=5):
    """The simulator in a thread (tests/support/simthread.py), seeded 5 unless told."""
    return SimThread(link, state_dir, seed)


class WebHost:
    """`osada web` in this process: the server on a free port, the app headless in a thread."""

    def __init__(self, port, pin=PIN, retry=0.1, marshal_pin=None):
        self.server = WebServer("127.0.0.1", 0, pin, marshal_pin=marshal_pin)
        self.server.start()
        self.app = WebMonitorApp(self.server, headless=True, port=str(port), retry=retry)
        self.thread = threading.Thread(target=self.app.run, kwargs={"headless": True, "size": (140, 45)},
                                       daemon=True)
        self.thread.start()

    @property
    def url(self):
        return self.server.url

    def wait(self, cond, timeout=10.0, what="condition"):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError("timed out waiting for: %s" % what)
            time.sleep(0.02)

    def close(self):
        try:
            self.app.call_from_thread(self.app.action_quit)
        except RuntimeError:                  # not running (any more)
            pass
        self.thread.join(5.0)
        self.app.shutdown()


@contextlib.contextmanager
def sim_and_host(name, marshal_pin=None, synced=None):
    """(device, host): the simulator (seed 9) on a pty in /tmp/osada-<name>-<uid> and a web host
    on it, after its first sync (and `synced(host)`, if given); both gone, and the folder, after."""
    link_dir = "/tmp/osada-%s-%d" % (name, os.getuid())
    shutil.rmtree(link_dir, ignore_errors=True)
    os.makedirs(link_dir)
    tty = os.path.join(link_dir, "tty")
    dev = SimDevice(tty, os.path.join(link_dir, "state"), seed=9)
    host = WebHost(tty, marshal_pin=marshal_pin)
    try:
        host.wait(lambda: host.app.conn_kind == "connected" and host.app.state is not None
                  and not host.app.session.waiting and (synced is None or synced(host)), what="the first sync")
        yield dev, host
    finally:
        host.close()
        dev.close()
        shutil.rmtree(link_dir, ignore_errors=True)


# ------------------------------------------------------------------ the page


def board_cells_from_state(state):
    return {key: [siege_board.enemy_tag(e) for e in es] for key, es in siege_board.board_cells(state).items()}


READ = """() => ({
  rev: document.body.dataset.rev, game: document.body.dataset.game, live: document.body.dataset.live,
  conn: document.body.dataset.conn, host: document.body.dataset.host,
  view: document.body.dataset.view,
  pictext: document.getElementById('pictext').textContent,
  title: document.getElementById('game').textContent,
  banner: document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent,
  facts: [...document.querySelectorAll('#facts dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]),
  events: [...document.querySelectorAll('#events li')].map(li => li.textContent),
  status: document.getElementById('status').textContent,
  reply: document.getElementById('reply').textContent,
})"""


def read(page):
    return page.evaluate(READ)


def expected_facts(st):
    """What the page's "Now" says of a Siege state (the device's)."""
    players = len(st.get("trophies") or {}) or 1
    return {"Turn": "%s · player %s of %s" % (st["turn"], st["player"], players)}


PICTURE = """() => ({
  turn: document.body.dataset.turn, phase: document.body.dataset.phase,
  tokens: [...document.querySelectorAll('#picture [data-enemy]')].map(t =>
    [+t.dataset.enemy, t.closest('[data-cell]').dataset.cell, +t.dataset.armor, t.dataset.kind]),
  walls: [...document.querySelectorAll('#picture [data-wall]')].map(w => w.dataset.wall),
  dots: [...document.querySelectorAll('#picture [data-dot]')].map(w => w.dataset.dot),
  buildings: [...document.querySelectorAll('#picture [data-building]')].map(b => b.dataset.building),
  width: document.getElementById('picture').getBoundingClientRect().width,
})"""


def picture_of(state):
    """What PICTURE reads of a page whose picture is this Siege state (the device's)."""
    return {"tokens": sorted([e["id"], "%d/%s" % (e["sector"], e["line"]), e["armor"], e["kind"]]
                             for e in state["enemies"]),
            "turn": str(state["turn"]), "phase": str(state["phase"]),
            "walls": ["standing" if s in state["walls"] else "gone" for s in range(1, 7)],
            "dots": ["yes" if s in state["dots"] else "no" for s in range(1, 7)],
            "buildings": ["standing" if s in state["buildings"] else "ruins" for s in range(1, 7)]}


def picture_matches(page, dev):
    """The picture (siege.js) is the device's state: each enemy a token in its cell with its
    armour, each wall, ДОТ and building as it stands, the turn and phase on the root."""
    got = page.evaluate(PICTURE)
    got["tokens"] = sorted(got["tokens"])
    del got["width"]
    return got == picture_of(dev.state()[0])


def siege_matches(page, dev):
    """The page shows the device's Siege state now: live, its turn and player in words, the
    picture (every enemy in its cell, the walls, ДОТ and buildings)."""
    seen = read(page)
    st, _seq = dev.state()
    facts = dict(seen["facts"])
    return (seen["live"] == "yes" and seen["game"] == "siege" and seen["view"] == "siege"
            and all(facts.get(k) == v for k, v in expected_facts(st).items())
            and picture_matches(page, dev))


def until(cond, timeout=10.0, what="condition", every=0.03):
    end = time.monotonic() + timeout
    while True:
        last = cond()
        if last:
            return last
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for: %s" % what)
        time.sleep(every)
