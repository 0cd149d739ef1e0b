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


def test_the_quick_html_is_rich_s_own_export_of_every_view():
    """html() draws a view's Text (every line within the width) without Rich's Console, 2-3
    times quicker (a change reaches 20 pages sooner): the very fragment Rich's exporter writes,
    for Siege's board, ring and panel along a whole game (live and stale, both widths) and for
    every game's view; a Text wider than the width (wrapped) and anything else take Rich's path."""
    from osada.gameview import view_classes
    from osada.siege.ring import render_ring
    from osada.siege.view import SiegeView
    from shared_rules.siege.autoplay import play

    states = []
    play({"players": 2, "seed": 3}, 3, skill=1, keep=lambda game, action, events: states.append(game.state()))
    shell = Shell(SiegeView, "siege")
    drawn = []
    for i, st in enumerate(states[::25]):
        shell.state, shell.seq = st, i
        shell.view.on_state(st, i)
        for width in (render.NARROW, render.WIDE):
            for stale in (False, True):
                drawn += [(shell.view.render(width, False, stale), width), (render_ring(st, width, stale), width)]
            drawn.append((shell.view.panel(False, False), render.PANEL))
    for game, cls in view_classes().items():
        view = Shell(cls, game).view
        drawn += [(view.render(w, False, False), w) for w in (render.NARROW, render.WIDE)]
        drawn.append((view.panel(False, False), render.PANEL))
    quick = [r for r, w in drawn if isinstance(r, Text) and render._fits(r, w)]
    assert len(quick) > 0.8 * len(drawn)
    for r, w in drawn:
        assert render.html(r, w) == render.rich_html(r, w)
    plain = Text("Forecast\n lost  1/8", style="bold")                # a style on the whole Text, no spans
    assert render.html(plain, 40) == render.rich_html(plain, 40) and "class=" in render.html(plain, 40)
    wide = Text("word " * 40, style="bold red")
    assert not render._fits(wide, 30) and render.html(wide, 30) == render.rich_html(wide, 30)
    assert render.html(wide, 30).count("\n") > 1                     # wrapped, as the monitor shows it


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
