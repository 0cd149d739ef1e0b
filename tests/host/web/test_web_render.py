"""The web view's snapshot (osada.web.render) and page files, without a browser:
everything the page loads is served by the host (nothing from the internet); a
view's aside (Siege's threat forecast, where the host has one) is shown, and
nothing when there is none; each game's facts are in words."""

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
    assert snap["forecast"]["text"].startswith("Forecast for turn 3") and "1/8" in snap["forecast"]["html"]
    assert ".s" in snap["css"]
    assert render.snapshot(Shell(GameView, "tank"), 8)["forecast"] is None
    assert snap["events"][0] == "line 29" and len(snap["events"]) == render.EVENTS


def test_every_game_is_put_in_words():
    from osada.gameview import view_classes
    for game, cls in view_classes().items():
        snap = render.snapshot(Shell(cls, game), 1)
        assert snap["facts"] and all(words for _label, words in snap["facts"]), game
        assert snap["board"]["narrow"] and snap["board"]["wide"], game
        assert snap["game_name"] and snap["conn"]["live"]
