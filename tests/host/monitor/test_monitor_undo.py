"""Undo past a reveal (issue 59, 3; R30): `u` after `e` does not quietly
bring back the same tokens: the monitor asks first, saying that the table
has seen them and that they come out the same again; `y` undoes, anything
else leaves the turn as it is."""

import asyncio
import os

import pytest

from tests.host.monitor.test_monitor import in_sync, make_app, until, widget_text
from tests.support.simthread import SimThread

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def test_r30_undo_past_a_reveal_asks_first(tmp_path):
    from osada.siege.screens import ConfirmScreen
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    app = make_app(tmp_path / "tty")

    def actions():
        with dev.lock:
            return len(dev.sim.app.siege.game.log)

    async def run():
        async with app.run_test(size=(140, 45)) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            start = actions()
            await pilot.press("e")
            await until(pilot, lambda: actions() == start + 1 and in_sync(app, dev), what="the turn ended")
            await pilot.press("u")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
            assert "seen the tokens" in str(app.screen.query_one("#confirm").content)
            await pilot.press("n")
            await until(pilot, lambda: "not undone" in widget_text(app, "#status"), what="the answer")
            assert actions() == start + 1
            await pilot.press("u")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question again")
            await pilot.press("y")
            await until(pilot, lambda: actions() == start and in_sync(app, dev), what="the undo")
            assert any("the table has seen the tokens" in line for line in app.log_lines)
    try:
        asyncio.run(run())
    finally:
        dev.close()


def test_ctrl_c_quits_from_anywhere_even_a_dialog(tmp_path):
    """Issue 61, 14: Ctrl-C only said "Press q to quit the app", and did nothing in a dialog."""
    from osada.monitor.screens import HelpScreen
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    app = make_app(tmp_path / "tty")

    async def run():
        async with app.run_test(size=(140, 45)) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running, what="the monitor quitting")
    try:
        asyncio.run(run())
    finally:
        dev.close()


def test_undoing_a_new_game_brings_back_the_old_games_panel_too(tmp_path):
    """Issue 61 item 1: after `u` brought back the field marshal's game that a new standard
    game (seed 42) replaced, the panel still said «Обычный» · seed 42."""
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    app = make_app(tmp_path / "tty")

    def mode():
        return (app.view.setup or {}).get("mode")

    async def run():
        async with app.run_test(size=(140, 45)) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            app.send("new", players=2, mode="marshal", seed=5)
            await until(pilot, lambda: mode() == "marshal" and in_sync(app, dev), what="the marshal's game")
            app.send("act", action={"do": "end_turn"})          # a game with an action is kept when replaced
            await until(pilot, lambda: app.seq == 1 and in_sync(app, dev), what="its first action")
            app.send("new", players=2, mode="standard", seed=42)
            await until(pilot, lambda: mode() == "standard" and "seed 42" in widget_text(app, "#info"),
                        what="the new game's panel")
            await pilot.press("u")
            await until(pilot, lambda: mode() == "marshal" and in_sync(app, dev),
                        what="the old game back: %s" % app.log_lines[-4:])
            await until(pilot, lambda: "seed 42" not in widget_text(app, "#info"), what="its panel")
            assert "Фельдмаршал" in widget_text(app, "#info")
    try:
        asyncio.run(run())
    finally:
        dev.close()
