"""The web view's snapshot (osada.web.render) and page files, without a browser:
everything the page loads is served by the host (nothing from the internet); a
view's aside (Siege's threat forecast, where the host has one) is shown in words,
and nothing when there is none; each game is data for its picture, none of it the
terminal's drawing (issue 62)."""

import json
import os
import re

from rich.text import Text

from osada.gameview import GameView
from osada.web import render
from osada.web.server import FILES, STATIC


def test_the_page_loads_nothing_from_elsewhere():
    for name in FILES:
        with open(os.path.join(STATIC, name), encoding="utf-8") as f:
            text = f.read()
        assert not re.search(r"(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), name
        assert "@import" not in text and "url(" not in text, name
        for ref in re.findall(r'(?:src|href)="([^"]+)"', text):
            assert ref.startswith("/static/") and ref[len("/static/"):] in FILES, (name, ref)


class Shell:
    """What render reads of the monitor's app."""

    def __init__(self, view_cls, game):
        self.game, self.state, self.seq, self.stale, self.revision = game, None, 0, False, 1
        self.conn_kind, self.conn_text = "connected", "connected to fake"
        self.status_text, self.status_refused = "", False
        self.damaged = None
        self.log_entries = [("line %d" % i, None) for i in range(30)]
        self.view = view_cls(self)

    def changed(self):
        pass


class WithAside(GameView):
    GAME = "tank"

    def aside(self):
        return Text("Forecast for turn 3\n lost  1/8 (12.5%)", style="bold")


def test_an_aside_is_the_forecast_section_and_none_is_nothing():
    snap = render.snapshot(Shell(WithAside, "tank"), 7)
    assert snap["forecast"]["lines"] == ["Forecast for turn 3", "lost  1/8 (12.5%)"]
    assert render.snapshot(Shell(GameView, "tank"), 8)["forecast"] is None
    assert snap["events"][0] == "line 29" and len(snap["events"]) == render.EVENTS


def test_every_game_is_data_for_its_picture_not_the_terminals_drawing():
    """Issue 62 item 1: no board, ring or panel of the monitor's text in a snapshot; Siege
    sends its state (with a state: its facts in words), the others their picture's data."""
    from osada.gameview import view_classes
    for game, cls in view_classes().items():
        snap = render.snapshot(Shell(cls, game), 1)
        assert not {"board", "ring", "panel", "css", "cols"} & set(snap), game
        assert "<span" not in json.dumps(snap), game
        assert snap["game_name"] and snap["conn"]["live"]
        if game == "siege":
            assert snap["picture"] is None and snap["facts"] == [["Game", "waiting for the board"]]
        else:
            pic = snap["picture"]
            assert pic["game"] == game and len(pic["ring"]) == 24 and snap["facts"] == [], game
            assert all(re.fullmatch("#[0-9a-f]{6}", c) for c in pic["ring"]), game
            assert json.loads(json.dumps(pic)) == pic


def test_a_damaged_save_is_on_every_page_until_acknowledged():
    """Issue 64: the device's damaged save (what was lost, where its bytes
    are kept) is in every snapshot, in words, until the table acknowledges it."""
    shell = Shell(GameView, "tank")
    assert render.snapshot(shell, 1)["damaged"] is None
    shell.damaged = ("the saved game could not be read (bad setup record, 300 bytes)", "/x/journal-damaged-1.bin")
    d = render.snapshot(shell, 2)["damaged"]
    assert d == {"lost": "the saved game could not be read (bad setup record, 300 bytes)",
                 "kept": "its bytes are kept in …/journal-damaged-1.bin"}   # no local path on a page
    shell.damaged = ("lost", "flash")
    assert "osada journal save FILE" in render.snapshot(shell, 3)["damaged"]["kept"]


def test_the_forecast_is_on_the_picture_exact_in_data_readable_on_screen():
    """Issue 62 item 2: each building, wall and ДОТ carries its risk: the exact fraction in the
    data, the percentage people read, F13's colour band."""
    import json as _json

    from forecast_support import E7

    from osada.siege.forecast import forecast
    from osada.siege.live_forecast import LiveResult
    from osada.web import render
    from shared_rules.siege.public import public_state
    from shared_rules.siege.scenario import run

    game, _ = run(E7 if isinstance(E7, dict) else _json.loads(E7))
    res = LiveResult(forecast(public_state(game), game.setup_dict()), 1, 0, None, final=True)

    class View:
        def forecast_result(self):
            return res
    r = render.risks(View())
    assert r["exact"] is True
    assert r["B3"] == {"worst": "148721/272160", "text": "54.6%", "level": "red"}
    assert r["B1"]["level"] == "green" and r["W2"]["level"] == "amber" and r["B6"]["level"] == "certain"
    assert render.risks(type("V", (), {"forecast_result": lambda self: None})()) is None
