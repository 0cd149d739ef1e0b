"""The web view's pictures in the docs are the page as it is now (issue 41 item 6,
issue 62 item 7).

docs/web/<game>-<screen>.png (each game the device plays, at a phone's 390×844, a
tablet's 768×1024 and a TV's 1920×1080) are taken in chromium of the page serving
the snapshot kept in docs/web-shot.json (the seeded game of the README's monitor
picture; the other games' picture data beside it).  PNG bytes vary with the
browser and its fonts, so this checks what the pictures are of: the snapshot
drawn again now by the web host (the game's state, the forecast, the facts,
the events; the other games' picture data) and the page's files (their hashes) must be the kept ones, and
the pictures must be there at their sizes.  After a change to what the page
shows, redraw them and look at them before committing:

    .venv/bin/python -m tests.support.web_shots"""

import json
import os
import struct

import pytest

pytest.importorskip("aiohttp")

from tests.support.web_shots import (  # noqa: E402
    COMMAND,
    GAMES,
    PNGS,
    SCREENS,
    SHOT_JSON,
    SITE_PNG,
    SITE_TANK_PNG,
    shot,
    steady,
)


def test_the_pictures_are_of_the_page_as_it_is_now():
    assert os.path.exists(SHOT_JSON), "docs/web-shot.json is missing; draw it: " + COMMAND
    with open(SHOT_JSON, encoding="utf-8") as f:
        kept = json.load(f)
    now = json.loads(json.dumps(shot()))
    assert now["page"] == kept["page"], "the page's files changed since the pictures were taken: " + COMMAND
    assert steady(now["snapshot"]) == steady(kept["snapshot"]), "the page draws the game differently now: " + COMMAND
    assert now["pictures"] == kept["pictures"], "the other games' pictures are drawn differently now: " + COMMAND
    assert len(PNGS) == len(GAMES) * len(SCREENS) == 12
    for path, (w, h) in list(PNGS.values()) + [SITE_PNG, SITE_TANK_PNG]:
        with open(path, "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n", path
        assert struct.unpack(">II", head[16:24]) == (w, h), path


def test_the_pictures_show_a_game_under_way():
    with open(SHOT_JSON, encoding="utf-8") as f:
        snap = json.load(f)["snapshot"]
    facts = dict(snap["facts"])
    assert facts["Turn"] == "5 · player 2 of 3" and facts["Phase"].startswith("Phase 4")
    held = [e for e in snap["state"]["game"]["enemies"] if e.get("held")]
    assert snap["conn"]["live"] and held and held[0]["kind"] == "maus" and snap["events"]
    assert snap["forecast"]["rows"] and snap["forecast"]["risks"]
