"""Issue 62 item 3: one layout per screen class, measured in a real browser (Debian's
chromium).  A phone held upright (390x844): no horizontal scroll, no text cut off, the
smallest text 14 px, every token a touch target of 40x40 CSS px at least.  A tablet
(768x1024): the same.  A TV (1920x1080): everything on one screen without scrolling,
Siege's board at least half of it, the smallest text 24 px.  On every one the header
says the game, the turn and the connection in one line.  Each of the device's games is
measured, over what the docs' pictures show (docs/web-shot.json, kept the page's own by
tests/host/web/test_web_shots.py): the seeded mid-game, and each other game's picture data."""

import json
import os

import pytest

pytest.importorskip("aiohttp")
sync_api = pytest.importorskip("playwright.sync_api")

from osada.web.roles import ROLES  # noqa: E402
from osada.web.server import WebServer  # noqa: E402
from osada.words.game_names import game_name  # noqa: E402
from tests.support.web_rig import CHROMIUM, NO_BROWSER, launch  # noqa: E402
from tests.support.web_shots import SCREENS, SHOT_JSON, snapshots  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(NO_BROWSER, allow_module_level=True)

MIN_TEXT = {"phone": 14, "tablet": 14, "tv": 24}          # the smallest text each screen class reads, px

MEASURE = """(minPx) => {
  const W = innerWidth, H = innerHeight, out = { small: [], cut: [], below: [], svgSmall: [], svgCut: [] };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.className && e.className.baseVal === undefined ? '.' + e.className : '');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode, e = t.parentElement;
    if (!t.textContent.trim() || e.closest('svg, script') || !e.checkVisibility()) continue;
    const r = document.createRange(); r.selectNodeContents(t);
    const b = r.getBoundingClientRect();
    if (!b.width) continue;
    const what = [name(e), t.textContent.trim().slice(0, 40)];
    const fs = parseFloat(getComputedStyle(e).fontSize);
    if (fs < minPx - 0.01) out.small.push(what.concat([fs]));
    if (b.left < -0.5 || b.right > W + 0.5) out.cut.push(what.concat(['off the screen']));
    for (let a = e; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.textOverflow === 'ellipsis' && a.scrollWidth > a.clientWidth + 1) out.cut.push(what.concat(['ellipsis']));
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        const ab = a.getBoundingClientRect();
        if (b.right > ab.right + 0.5 || b.bottom > ab.bottom + 0.5 || b.left < ab.left - 0.5)
          out.cut.push(what.concat(['clipped by ' + name(a)]));
      }
    }
    if (b.bottom > H + 0.5) out.below.push(what);
  }
  for (const t of document.querySelectorAll('#picture text')) {
    if (!t.checkVisibility() || !t.textContent.trim()) continue;
    const k = t.getScreenCTM().a;
    const fs = parseFloat(getComputedStyle(t).fontSize) * k;
    if (fs < minPx - 0.01) out.svgSmall.push([t.textContent, fs]);
    const len = t.hasAttribute('textLength') ? +t.getAttribute('textLength') : t.getComputedTextLength();
    if (t.dataset.fit && len > +t.dataset.fit + 0.5) out.svgCut.push([t.textContent, len, +t.dataset.fit]);
  }
  const svg = document.getElementById('picture'), vb = svg.viewBox.baseVal, m = svg.getScreenCTM();
  out.board = vb && vb.width ? vb.width * m.a * vb.height * m.d : 0;
  out.tokens = [...document.querySelectorAll('#picture [data-enemy] rect.tok')].map(r => {
    const b = r.getBoundingClientRect(); return Math.min(b.width, b.height); });
  out.scrollW = document.documentElement.scrollWidth;
  out.scrollH = document.documentElement.scrollHeight;
  const head = [...document.querySelectorAll('header > *')].filter(e => e.checkVisibility())
    .map(e => e.getBoundingClientRect());
  out.headerLines = head.length ? Math.max(...head.map(b => b.top)) - Math.min(...head.map(b => b.top)) : 0;
  out.headerTall = document.querySelector('header h1').getBoundingClientRect().height;
  out.header = document.querySelector('header').textContent.replace(/\\s+/g, ' ').trim();
  return out;
}"""


def _snapshots():
    with open(SHOT_JSON, encoding="utf-8") as f:
        kept = json.load(f)
    return snapshots(kept["snapshot"], kept["pictures"])


@pytest.fixture(scope="module")
def browser():
    pw = sync_api.sync_playwright().start()
    b = launch(pw)
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@pytest.mark.parametrize("game", ["siege", "tank", "victory", "warchest"])
def test_each_screen_class_fits_its_screen(browser, game):
    snap = _snapshots()[game]
    server = WebServer("127.0.0.1", 0, None)
    server.start()
    try:
        server.publish({role: dict(snap, role=role) for role in ROLES})
        for screen, (w, h) in SCREENS.items():
            viewport, min_px = {"width": w, "height": h}, MIN_TEXT[screen]
            page = browser.new_page(viewport=viewport)
            page.goto(server.url)
            page.wait_for_selector("body[data-live=yes]", state="attached", timeout=10000)
            page.wait_for_selector("#picture [data-%s]" % ("sector" if game == "siege" else "led"),
                                   state="attached", timeout=10000)
            m = page.evaluate(MEASURE, min_px)
            where = "%s on a %s" % (game, screen)
            assert m["scrollW"] <= viewport["width"], (where, "scrolls sideways", m["scrollW"])
            assert not m["cut"] and not m["svgCut"], (where, "text cut off", m["cut"], m["svgCut"])
            assert not m["small"] and not m["svgSmall"], (where, "text under %d px" % min_px, m["small"],
                                                          m["svgSmall"])
            assert m["headerLines"] < m["headerTall"] / 2, (where, "the header in one line", m["header"])
            assert game_name(game, True) in m["header"] and "LIVE" in m["header"], (where, m["header"])
            if game == "siege":
                assert "turn 5" in m["header"], (where, m["header"])
                if screen != "tv":
                    assert m["tokens"] and min(m["tokens"]) >= 40, (where, "tokens to tap", m["tokens"])
            if screen == "tv":
                assert m["scrollH"] <= viewport["height"] and not m["below"], (where, "below the screen", m["below"])
                if game == "siege":
                    half = viewport["width"] * viewport["height"] / 2
                    assert m["board"] >= half, (where, "the board %.0f px², half the screen %.0f" % (m["board"], half))
            page.close()
    finally:
        server.stop()
