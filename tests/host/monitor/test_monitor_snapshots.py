"""Snapshot tests of the monitor (issue #17): SVG screenshots, compared with
the ones committed in __snapshots__/test_monitor_snapshots/, by
pytest-textual-snapshot (the textual project's own tool).

The app runs against a fake session over a seeded game (tests/support/monitor_fakes.py):
no port, no clock, no randomness, so the pictures are the same every run.
After an intended change to what the monitor shows, look at the differences
in the report (snapshot_report.html, written where pytest runs when a
snapshot differs) and, if they are what you meant, rewrite the snapshots:

    .venv/bin/python -m pytest tests/host/monitor/test_monitor_snapshots.py --snapshot-update

then review the changed SVG files (any SVG viewer or browser) before committing them."""

import time

import pytest

pytest.importorskip("pytest_textual_snapshot")

from textual.widgets import Input  # noqa: E402

from osada import monitor  # noqa: E402
from osada.siege.screens import MarshalScreen, NewGameScreen  # noqa: E402
from tests.support.monitor_fakes import TANK_ROLLS, fake_app, marshal_turn, mid_game  # noqa: E402


def tk(app):
    """The monitor's Tank battle view."""
    return app.view_for("tank")


async def until(pilot, cond, what, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out waiting for " + what
        await pilot.pause(0.02)


def synced(app, history):
    """The fake session's state and its events are in the app (it runs in a thread worker)."""
    return app.state is not None and len(app.log_entries) >= len(history) + 1


def prepared(app, history, keys=(), then=None):
    """run_before for snap_compare: wait for the mirror, press `keys`, settle."""

    async def run_before(pilot):
        await until(pilot, lambda: synced(app, history), "the first sync")
        for k in keys:
            await pilot.press(k)
        if then is not None:
            await until(pilot, lambda: then(app), "the screen")
        for w in app.screen.query(Input):           # no blinking cursor in a picture
            w.cursor_blink = False
        await pilot.pause(0.1)

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (160, 50)], ids=lambda s: "%dx%d" % s)
def test_board(snap_compare, size):
    """The mid-game board at the sizes terminals open at."""
    g, history = mid_game()
    app = fake_app(g, history=history)
    try:
        assert snap_compare(app, terminal_size=size, run_before=prepared(app, history))
    finally:
        app.shutdown()


SCREENS = {
    # the new-game dialog: modes and variants named as on the box, Russian with the English beside
    "new_game_dialog": (lambda: mid_game(), "n", lambda: NewGameScreen),
    # the field marshal's play (phase 7), a tank and the lone-token rule
    "marshal_screen": (lambda: marshal_turn(), "M", lambda: MarshalScreen),
    # the help (every key): it wraps and scrolls
    "help_screen": (lambda: mid_game(), "question_mark", lambda: monitor.HelpScreen),
}


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_screen_80x24(snap_compare, screen):
    """Each modal screen in the smallest window the monitor supports."""
    make, key, cls = SCREENS[screen]
    g, history = make()
    app = fake_app(g, history=history)
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=prepared(
            app, history, [key], lambda a: isinstance(a.screen, cls())))
    finally:
        app.shutdown()


TANK = {
    # G pressed, nothing rolled yet: the ring dark, "no roll yet"
    "no_roll_100x30": ((100, 30), 0),
    # a fire roll: the outcome row and the faces row, the words and the odds
    "fire_80x24": ((80, 24), 1),
    "fire_120x40": ((120, 40), 1),
    # three units a side in a collision, one sector each
    "collision_160x50": ((160, 50), 2),
}


@pytest.mark.parametrize("case", sorted(TANK))
def test_tank_board(snap_compare, case):
    """Issue 13: while the device runs Tank battle the board area is the ring of its last roll."""
    size, rolls = TANK[case]
    g, history = mid_game()
    app = fake_app(g, history=history, rolls=TANK_ROLLS)
    keys = ["G"] + ["o"] * rolls
    want = (lambda a: tk(a).roll is not None and tk(a).roll["test"] == TANK_ROLLS[rolls - 1]["test"]) if rolls \
        else (lambda a: a.game == "tank")
    try:
        assert snap_compare(app, terminal_size=size, run_before=prepared(app, history, keys, want))
    finally:
        app.shutdown()


def early_game():
    """Turn 3 of a seeded three-player game, after a hit: the forecast is exact at once, with
    fractions of 15 to 21 digits (issue 60)."""
    from shared_rules.siege.engine import Game, RuleError
    g = Game(players=3, seed=11)
    history = []
    while g.turn < 3 and g.outcome == "playing":
        if g.pending:
            history.extend(g.apply({"do": "choose", "enemy": g.pending["candidates"][0]}))
            continue
        history.extend(g.apply({"do": "end_turn"}))
    for e in g.state()["enemies"]:
        try:
            history.extend(g.apply({"do": "hit", "enemy": e["id"]}))
            break
        except RuleError:
            pass
    return g, history[-12:]


class FixedForecast:
    """A live forecast that has one answer (LiveResult) for whatever state: a picture
    with no worker, no clock."""

    why = ""

    def __init__(self, result):
        self.result = result

    def current(self, state, setup=None):
        return self.result

    def update(self, *args):
        pass

    def stop(self):
        pass


FORECASTS = {"early": (early_game, 1), "mid": (mid_game, 3)}


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=lambda s: "%dx%d" % s)
@pytest.mark.parametrize("when", sorted(FORECASTS))
def test_forecast(snap_compare, size, when):
    """F14, issue 60: the forecast's panel (160x45) and its lines in the game panel (80x24),
    exact, on an early turn (long fractions: percentages only) and mid-game (short ones
    beside them); L and E first, no line wraps."""
    from osada.siege.forecast import forecast
    from osada.siege.live_forecast import LiveResult
    from shared_rules.siege.public import public_state
    make, in_turn = FORECASTS[when]
    g, history = make()
    fc = forecast(public_state(g), g.setup_dict(), seconds=30)
    assert fc.exact
    fc.seconds = 0.25                                       # the picture's: not this run's
    result = LiveResult(fc, g.turn, len(g.log), None, final=True, states=4321, in_turn=in_turn)
    app = fake_app(g, history=history, forecast=True)
    app.view_for("siege").live = FixedForecast(result)
    where = "#aside" if size[0] >= 120 else "#info"
    try:
        assert snap_compare(app, terminal_size=size, run_before=prepared(
            app, history, then=lambda a: "Forecast" in str(a.screen.query_one(where).render())))
    finally:
        app.shutdown()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: "%dx%d" % s)
def test_the_new_game_dialog_says_each_variant_whole(size):
    """Issue 42 item 10: the variants' descriptions were cut at the dialog's width; the highlighted
    one's is said whole, wrapped, under the list."""
    import asyncio

    from osada.words import texts
    from shared_rules.siege.catalog import VARIANTS
    g, history = mid_game()
    app = fake_app(g, history=history)

    async def go():
        async with app.run_test(size=size) as pilot:
            await prepared(app, history, ["n"], lambda a: isinstance(a.screen, NewGameScreen))(pilot)
            app.screen.query_one("#variants").focus()
            for i, v in enumerate(VARIANTS):
                if i:
                    await pilot.press("down")
                await pilot.pause()
                help_label = app.screen.query_one("#variant-help")
                words = "%s: %s" % (texts.label(v, texts.VARIANTS), texts.VARIANTS[v][2])
                assert str(help_label.content) == words
                width = help_label.content_region.width
                assert width > 20 and help_label.content_region.height * width >= len(words)   # wrapped, not cut
    try:
        asyncio.run(go())
    finally:
        app.shutdown()
