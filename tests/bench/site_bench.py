"""Osada in the browser (issue 63 item 4): `make site`'s folder served by a plain static
server, a phone's page in Debian's chromium (Playwright), the device in the page.

  site_open_ms          opening the site in a fresh browser (nothing cached) to the board
                        drawn from the device in the page (the page's "osada-picture" mark,
                        from its navigation's start).  Target <= 2000.
  site_open_cached_ms   the same page opened again, its files from the service worker's
                        cache.  Target <= 500.
  site_answer_ms_p95    a tap on the bar (the enemies move, then undone, in turn) to the page
                        showing the device's new state (its seq), p95 of 30.  Target <= 50.
  site_transfer_kb      what the first visit transfers, compressed as a static host
                        compresses it (gzip, level 6): every file, as the service worker
                        fetches them all.  Target <= 1500.

Without /usr/bin/chromium: not measured (said on stderr).
Run alone: python -m tests.bench.site_bench"""

import functools
import gzip
import http.server
import os
import shutil
import sys
import tempfile
import threading

CHANGES = 30
ANSWER = """async (action) => {
  const before = document.body.dataset.seq, t0 = performance.now();
  document.querySelector("#actionbar [data-action='" + action + "']").click();
  await new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (document.body.dataset.seq !== before) { obs.disconnect(); resolve(); }
    });
    obs.observe(document.body, { attributes: true });
  });
  return performance.now() - t0;
}"""
DRAWN = "performance.getEntriesByName('osada-picture').map(e => e.startTime)[0]"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _transfer_kb(folder):
    total = 0
    for d, _dirs, names in os.walk(folder):
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                total += len(gzip.compress(f.read(), 6))
    return round(total / 1000.0, 1)


def _drawn(page):
    page.wait_for_selector("#picture [data-sector]", state="attached", timeout=60000)
    page.wait_for_function("document.body.dataset.live === 'yes'", timeout=60000)
    return page.evaluate(DRAWN)


def figures(changes=CHANGES):
    """The figures; {} when there is no chromium here."""
    from tests.support.web_rig import CHROMIUM, launch
    if not os.path.exists(CHROMIUM):
        sys.stderr.write("   the site in a browser: not measured (no %s: apt-get install chromium)\n" % CHROMIUM)
        return {}
    from playwright.sync_api import sync_playwright

    from osada.site.build import build
    tmp = tempfile.mkdtemp(prefix="osada-site-bench-")
    folder = os.path.join(tmp, "site")
    build(folder, quiet=True)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    out = {"site_transfer_kb": _transfer_kb(folder)}
    pw = sync_playwright().start()
    browser = launch(pw, foreground=True)
    try:
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        page.goto(url)
        out["site_open_ms"] = round(_drawn(page), 1)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60000)
        page.reload()
        out["site_open_cached_ms"] = round(_drawn(page), 1)
        page.wait_for_selector("#actionbar [data-action='move']", timeout=10000)
        times = [page.evaluate(ANSWER, ("move", "undo")[k % 2]) for k in range(changes)]
        out["site_answer_ms_p95"] = round(_percentile(times, 0.95), 1)
        out["site_answer_ms_p50"] = round(_percentile(times, 0.5), 1)
        ctx.close()
    finally:
        browser.close()
        pw.stop()
        httpd.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)
    return out


if __name__ == "__main__":
    res = figures()
    for k in sorted(res):
        print("  %-24s %s" % (k, res[k]))
