"""Issue 39: the monitor is a shell over the games' views.  Each of the four
games the device runs (Siege, Tank battle, Victory Day's toss, War Chest's round
tracker) is shown as its own view, at 80×24 and 120×40, driven against the
simulator (the real firmware on the fake hardware, seeded: the same pictures
every run); and a board that switches games by itself mid-session (its game
menu) is shown as the game it now runs, never as the one it ran before."""

import asyncio
import os
import shutil
import time

import pytest

pytest.importorskip("pytest_textual_snapshot")

from test_monitor import SimThread, make_app, until  # noqa: E402

from osada.link import ports  # noqa: E402
from osada_fw import gamemenu  # noqa: E402

# a fixed path: the log's first line names it, and the pictures must not change with a tmp dir
LINK_DIR = "/tmp/osada-monitor-games-%d" % os.getuid()
SIZES = [(80, 24), (120, 40)]


def device(game, where=LINK_DIR):
    """The simulator in folder `where`, seeded, switched to `game` and brought to a telling moment."""
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    dev = SimThread(os.path.join(where, "tty"), os.path.join(where, "state"), seed=5)
    link = ports.serial_link(os.path.join(where, "tty"), timeout=5.0)
    try:
        link.connect()
        if game != "siege":
            assert link.request("game", game=game)["ok"]
        if game == "tank":
            assert link.request("roll", test="fire", dice=8, hit=3, protection=2)["ok"]
        elif game == "victory":
            assert link.request("toss")["ok"]
            assert link.request("next")["ok"]
        elif game == "warchest":
            assert link.request("press", button="action", long=False)["ok"]
            time.sleep(0.2)
    finally:
        link.close()
    return dev


WORDS = {"siege": "wall", "tank": "fire 8 dice", "victory": "starts", "warchest": "round 1"}


def shown(app, game):
    main = app.main
    if main is None or not main.is_mounted or app.game != game or app.conn_kind != "connected":
        return False
    text = main.query_one("#board").content.plain + main.query_one("#info").content.plain
    return WORDS[game] in text and "waiting" not in text


def laid_out(app):
    """Whether the board's widget has grown to its picture's lines (its height is auto): on a
    loaded machine the picture can be there a layout before the height that shows it all."""
    board = app.main.query_one("#board")
    return board.size.height >= len(board.content.plain.rstrip("\n").split("\n"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: "%dx%d" % s)
@pytest.mark.parametrize("game", ["siege", "tank", "victory", "warchest"])
def test_each_game_its_own_view(snap_compare, game, size):
    dev = device(game)
    app = make_app(os.path.join(LINK_DIR, "tty"))

    async def run_before(pilot):
        await until(pilot, lambda: shown(app, game), timeout=10.0, what="%s's view" % game)
        await until(pilot, lambda: laid_out(app), timeout=10.0, what="%s's board laid out at its height" % game)
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=size, run_before=run_before)
    finally:
        app.shutdown()
        dev.close()


def test_a_board_that_switches_by_itself_is_shown_as_the_game_it_now_runs(tmp_path):
    """The device's own game menu switches it (no request of the monitor's): the
    view follows each `game` event, the keys with it, and Siege comes back as it was."""
    where = str(tmp_path / "dev")           # its own folder: no picture names it
    dev = device("siege", where)
    app = make_app(os.path.join(where, "tty"))

    def on_device(gid):
        with dev.lock:
            gamemenu.switch(dev.sim.app, gid)

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: shown(app, "siege") and app.state is not None and not app.session.waiting,
                        timeout=15.0, what="Siege, in sync")
            siege = None
            for _ in range(100):                  # the board as it settles (a loaded machine draws it late)
                now = app.main.query_one("#board").content.plain
                if now == siege:
                    break
                siege = now
                await pilot.pause(0.3)
            for gid, words in (("warchest", "War Chest"), ("victory", "Victory Day"), ("tank", "Tank battle"),
                               ("siege", None)):
                on_device(gid)
                await until(pilot, lambda: app.game == gid, timeout=15.0, what="the switch to %s" % gid)
                await pilot.pause(0.2)
                board = app.main.query_one("#board").content.plain
                if words:
                    assert words in board and "wall" not in board, (gid, board)
                    assert app.view.GAME == gid
                    assert type(app.view).__module__ == "osada.%s.view" % gid
                else:
                    await until(pilot, lambda: app.main.query_one("#board").content.plain == siege,
                                timeout=15.0, what="Siege's board as it was")    # a loaded machine: slow, not wrong
            # a key of another game does nothing here: Siege runs, `n` is its new game, not the toss's next
            sent = []
            app.session.submit = lambda cmd, **f: sent.append(cmd)
            await pilot.press("t")            # Siege: patrol (an act), never Victory Day's toss
            assert sent == ["act"]

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        dev.close()
