"""Issue 62 item 6: a change redraws only what it changed, and what is drawn is still the
snapshot's. Across a run of snapshots: a token that stays is the same element, moved; a token
that went is gone and one that came is there; the events list holds the snapshot's lines in
order with the lines it kept the same elements; the forecast shows its rows in phase 4 and its
words out of it, and an undo back shows the rows again as they were."""

import copy
import json
import os

import pytest

pytest.importorskip("aiohttp")
sync_api = pytest.importorskip("playwright.sync_api")

from osada.web.roles import ROLES  # noqa: E402
from osada.web.server import WebServer  # noqa: E402
from tests.support.web_rig import CHROMIUM, NO_BROWSER, launch, until  # noqa: E402
from tests.support.web_shots import SHOT_JSON  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(NO_BROWSER, allow_module_level=True)

LOOK = """() => {
  window.__seen = window.__seen || new WeakSet();
  const mark = (e) => { const old = window.__seen.has(e); window.__seen.add(e); return old; };
  return {
    rev: +document.body.dataset.rev,
    tokens: [...document.querySelectorAll('#picture [data-enemy]')].map(g =>
      [+g.dataset.enemy, g.closest('[data-cell]').dataset.cell, mark(g)]),
    events: [...document.querySelectorAll('#events li')].map(li => [li.textContent, mark(li)]),
    forecast: document.getElementById('forecast').innerText,
  };
}"""


def _snapshots():
    with open(SHOT_JSON, encoding="utf-8") as f:
        first = json.load(f)["snapshot"]
    out = [first]

    def step(change):
        snap = copy.deepcopy(out[-1])
        snap["rev"] += 1
        change(snap, snap["state"]["game"])
        out.append(snap)

    def move(snap, st):                                   # one enemy steps in, a new line on top
        e = next(e for e in st["enemies"] if e["line"] == "rear")
        e["line"] = "air"
        snap["events"] = ["%s #%d steps in" % (e["kind"], e["id"])] + snap["events"][:-1]

    def kill(snap, st):                                   # one goes, another comes, phase 6: no rows
        st["enemies"] = st["enemies"][1:] + [dict(st["enemies"][0], id=77, line="rear", sector=3)]
        st["phase"] = 6
        snap["forecast"] = {"lines": ["in phase 4, before the turn ends (now phase 6)"], "risks": None}
        snap["events"] = ["two lines", "at once"] + snap["events"]

    step(move)
    step(kill)
    out.append(dict(copy.deepcopy(out[1]), rev=out[-1]["rev"] + 1))       # an undo back to the second
    step(lambda snap, st: snap.update(events=["all new"]))
    return out


def test_a_change_redraws_what_it_changed_and_the_page_is_the_snapshot():
    snaps = _snapshots()
    server = WebServer("127.0.0.1", 0, None)
    server.start()
    pw = sync_api.sync_playwright().start()
    browser = launch(pw)
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844}, reduced_motion="reduce")
        seen = None
        for n, snap in enumerate(snaps):
            server.publish({role: dict(snap, role=role) for role in ROLES})
            if n == 0:
                page.goto(server.url)
            look = until(lambda: (lambda r: r if r["rev"] == snap["rev"] else None)(page.evaluate(LOOK)),
                         what="snapshot %d drawn" % n)
            st = snap["state"]["game"]
            want = sorted([e["id"], "%d/%s" % (e["sector"], e["line"])] for e in st["enemies"])
            assert sorted(t[:2] for t in look["tokens"]) == want, n
            assert [e[0] for e in look["events"]] == snap["events"], n
            if snap["forecast"].get("rows"):
                assert snap["forecast"]["rows"][0][0] in look["forecast"] and "phase 6" not in look["forecast"]
            else:
                assert "phase 6" in look["forecast"] and "buildings lost" not in look["forecast"], n
            if seen is not None:
                ids = {e["id"] for e in snap["state"]["game"]["enemies"]} & seen
                kept = {t[0] for t in look["tokens"] if t[2]}
                assert kept == ids, (n, "a token that stays is the same element, moved")
                if n in (1, 2):                                 # lines on top: the others kept as they were
                    old = [e for e in look["events"] if e[1]]
                    assert len(old) == len(snap["events"]) - (1 if n == 1 else 2), n
                if n == 4:                                      # nothing kept: all written anew
                    assert not any(e[1] for e in look["events"])
            seen = {e["id"] for e in st["enemies"]}
        page.close()
    finally:
        browser.close()
        pw.stop()
        server.stop()
