"""Issue 62 item 2: what changed since the last snapshot moves briefly on the picture, and the
state is drawn throughout: a token that stepped slides from its old cell, one that came in
grows into its cell, a wall that fell flashes, each over in under a second; nothing moves on
a page that asks for reduced motion."""

import copy
import json
import os
import time

import pytest

pytest.importorskip("aiohttp")
sync_api = pytest.importorskip("playwright.sync_api")

from osada.web.roles import ROLES  # noqa: E402
from osada.web.server import WebServer  # noqa: E402
from tests.support.web_rig import CHROMIUM, NO_BROWSER, launch, until  # noqa: E402
from tests.support.web_shots import SHOT_JSON  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(NO_BROWSER, allow_module_level=True)

RUNNING = """() => ({
  moved: [...document.querySelectorAll('#picture [data-enemy]')].filter(g => g.getAnimations().length)
    .map(g => +g.dataset.enemy),
  walls: [...document.querySelectorAll('#picture [data-wall]')].filter(g => g.getAnimations().length)
    .map(g => g.dataset.cell),
  cells: Object.fromEntries([...document.querySelectorAll('#picture [data-enemy]')].map(g =>
    [g.dataset.enemy, g.closest('[data-cell]').dataset.cell])),
})"""


def _two_snapshots():
    with open(SHOT_JSON, encoding="utf-8") as f:
        first = json.load(f)["snapshot"]
    first["forecast"] = None
    second = copy.deepcopy(first)
    st = second["state"]["game"]
    mover = next(e for e in st["enemies"] if e["line"] == "rear")
    mover["line"] = "air"                                    # one step in
    wall = st["walls"][0]
    st["walls"].remove(wall)                                 # a wall falls
    new = dict(mover, id=99, line="rear", kind="pz3", armor=2)
    st["enemies"].append(new)                                # a token revealed into a sector
    second["rev"] = first["rev"] + 1
    return first, second, mover, wall


@pytest.mark.parametrize("reduced", [False, True])
def test_a_change_moves_briefly_and_the_state_is_drawn_throughout(reduced):
    first, second, mover, wall = _two_snapshots()
    server = WebServer("127.0.0.1", 0, None)
    server.start()
    pw = sync_api.sync_playwright().start()
    browser = launch(pw)
    try:
        server.publish({role: dict(first, role=role) for role in ROLES})
        page = browser.new_page(viewport={"width": 390, "height": 844},
                                reduced_motion="reduce" if reduced else "no-preference")
        page.goto(server.url)
        page.wait_for_selector("#picture [data-enemy]", state="attached", timeout=10000)
        server.publish({role: dict(second, role=role) for role in ROLES})
        seen = until(lambda: (lambda r: r if "99" in r["cells"] else None)(page.evaluate(RUNNING)),
                     what="the second snapshot drawn")
        t0 = time.monotonic()
        # the new state is drawn at once, while it moves
        assert seen["cells"][str(mover["id"])] == "%d/air" % mover["sector"]
        if reduced:
            assert seen["moved"] == [] and seen["walls"] == []
        else:
            assert mover["id"] in seen["moved"] and 99 in seen["moved"], seen
            assert seen["walls"] == ["%d/wall" % wall], seen
            until(lambda: not page.evaluate(RUNNING)["moved"] and not page.evaluate(RUNNING)["walls"],
                  what="the motion over", timeout=2.0, every=0.02)
            assert time.monotonic() - t0 < 1.0, "the motion took more than a second"
        page.close()
    finally:
        browser.close()
        pw.stop()
        server.stop()
