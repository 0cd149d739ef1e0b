"""The web view's latency (issue 41 item 3): 20 pages open in Debian's chromium
(Playwright) on `osada web --control` in its own process, the simulator
(`osada sim --headless`) in another, over a real pty, as at a table.

  web_latency_ms_p95   from a key sent by a controlling page's WebSocket (the enemies
                       move, then undo it, in turn) to each of the 20 pages having drawn the device's new
                       state (the page's clock at the end of its redraw; the same
                       machine's clock as the sender's): p95 over every page and
                       every change.  An upper bound of change-to-page: it also
                       holds the request's way to the device.  Target <= 100.
  web_latency_ms_p50, web_latency_ms_max, web_pages, web_changes
  web_host_ms_p50/_p95 the host's part: from the key to the host sending the snapshot
                       (the request to the device, its state back, the drawing)
  web_page_kb          what a page loads, before compression (issue 62 item 6): the page
                       (with the catalog and the first snapshot in it) and every file it
                       refers to, in kB.  Target <= 300.
  web_first_paint_ms   a phone's page opened cold (a fresh browser context) to its board
                       drawn (the later of the first contentful paint and the page's own
                       "osada-picture" mark), the worst of 5.  Target <= 1000.

Without /usr/bin/chromium: not measured (said on stderr).
Run alone: python -m tests.bench.web_bench"""

import asyncio
import json
import os
import shutil
import sys
import tempfile
import time

PAGES = 20
CHANGES = 30


def _percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


class Controller:
    """A controlling page's WebSocket (aiohttp), in a thread of its own: Playwright's
    sync API holds this thread's event loop.  send() returns when the frame went out
    (the wall clock then, ms)."""

    def __init__(self, url, pin):
        import threading
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.ws = self._call(self._open(url))
        self.send({"t": "pin", "pin": pin})

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    async def _open(self, url):
        import aiohttp
        self.http = aiohttp.ClientSession()
        return await self.http.ws_connect(url)

    def send(self, obj):
        async def go():
            await self.ws.send_str(json.dumps(obj))
            return time.time() * 1000.0
        return self._call(go())

    def close(self):
        async def go():
            await self.ws.close()
            await self.http.close()
        self._call(go())
        self.loop.call_soon_threadsafe(self.loop.stop)


def _arrivals(tabs, seq, t0):
    """Each page's delays (ms) from t0 to its first redraw showing an action count other than `seq`,
    and to the host sending that snapshot."""
    end = time.monotonic() + 10
    got = {}
    time.sleep(0.4)                   # asking the pages costs the machine: not while they draw
    while len(got) < len(tabs):
        if time.monotonic() > end:
            raise SystemExit("web bench: a page did not show the change within 10 s")
        for k, t in enumerate(tabs):
            if k not in got:
                mark = t.evaluate("[document.body.dataset.seq, document.body.dataset.seqAt, "
                                  "document.body.dataset.hostAt]")
                if mark[0] is not None and int(mark[0]) != seq:
                    got[k] = (float(mark[1]) - t0, float(mark[2]) - t0)
        time.sleep(0.05)
    return list(got.values())


def _free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_web(tty, port):
    """`osada web --control` in its own process, as a table runs it; (process, its PIN)."""
    import re
    import subprocess

    from tests.bench.host_bench import ROOT
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "firmware"),
                                         env.get("PYTHONPATH", "")])
    # OSADA_BENCH_NO_FORECAST=1: the pages without Siege's threat forecast (its worker shares the 2 cores)
    extra = ["--no-forecast"] if os.environ.get("OSADA_BENCH_NO_FORECAST") else []
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "web", "--port", tty, "--listen", str(port),
                             "--control"] + extra, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True)
    for line in proc.stdout:
        m = re.match(r"Control PIN: (\d+)", line)
        if m:
            return proc, m.group(1)
    raise SystemExit("osada web did not start: " + proc.stderr.read())


def figures(pages=PAGES, changes=CHANGES):
    """The figures; {} when there is no chromium here."""
    from tests.support.web_rig import CHROMIUM, launch
    if not os.path.exists(CHROMIUM):
        sys.stderr.write("   web view latency: not measured (no %s: apt-get install chromium)\n" % CHROMIUM)
        return {}
    from playwright.sync_api import sync_playwright

    from osada.siege.keys import KEYMAP
    from tests.bench.host_bench import _start_sim, _stop

    # the enemies moved, then undone: a change every time, the game never runs out, and no
    # token is drawn (an undo past a reveal asks to be confirmed, R30)
    keys = [next(i for i, row in enumerate(KEYMAP) if row[1] == a) for a in ("move", "undo")]
    tmp = tempfile.mkdtemp(prefix="osada-web-bench-")
    tty = os.path.join(tmp, "tty")
    sim = _start_sim(tty, os.path.join(tmp, "state"))
    port = _free_port()
    web, pin = _start_web(tty, port)
    url = "http://127.0.0.1:%d/" % port
    pw = sync_playwright().start()
    browser = launch(pw, foreground=True)      # 20 phones: each page in front on its own
    lat = []
    host_lat = []
    out = {}
    try:
        out["web_page_kb"] = _page_kb(url)
        out["web_first_paint_ms"] = _first_paint(browser, url)
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        tabs = [ctx.new_page() for _ in range(pages)]
        for t in tabs:
            t.goto(url)
        for t in tabs:
            t.wait_for_selector("body[data-seq][data-live=yes]", state="attached", timeout=20000)
        ctl = Controller(url + "ws", pin)
        try:
            for k in range(changes):
                seq = int(tabs[0].evaluate("document.body.dataset.seq"))
                t0 = ctl.send({"t": "key", "game": "siege", "i": keys[k % 2]})
                got = _arrivals(tabs, seq, t0)
                lat.extend(page for page, _host in got)
                host_lat.append(got[0][1])
                time.sleep(0.1)
        finally:
            ctl.close()
    finally:
        browser.close()
        pw.stop()
        web.terminate()
        web.wait(5)
        _stop(sim)
        shutil.rmtree(tmp, ignore_errors=True)
    return dict(out, **{"web_latency_ms_p95": round(_percentile(lat, 0.95), 1),
            "web_latency_ms_p50": round(_percentile(lat, 0.5), 1),
            "web_latency_ms_max": round(max(lat), 1), "web_pages": pages, "web_changes": len(lat) // pages,
            "web_host_ms_p50": round(_percentile(host_lat, 0.5), 1),
            "web_host_ms_p95": round(_percentile(host_lat, 0.95), 1)})


def _page_kb(url):
    """The page and every file it refers to, bytes before compression, in kB."""
    import re
    import urllib.request
    with urllib.request.urlopen(url) as r:
        page = r.read()
    total = len(page)
    for ref in set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', page)):
        with urllib.request.urlopen(url.rstrip("/") + ref.decode()) as r:
            total += len(r.read())
    return round(total / 1000.0, 1)


PAINT = """() => Math.max(...performance.getEntriesByName('first-contentful-paint').map(e => e.startTime),
                         ...performance.getEntriesByName('osada-picture').map(e => e.startTime))"""


def _first_paint(browser, url, loads=5):
    worst = 0.0
    for _ in range(loads):
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#picture [data-sector]", state="attached", timeout=20000)
            page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
            worst = max(worst, page.evaluate(PAINT))
        finally:
            ctx.close()
    return round(worst, 1)


if __name__ == "__main__":
    res = figures()
    for k in sorted(res):
        print("  %-24s %s" % (k, res[k]))
