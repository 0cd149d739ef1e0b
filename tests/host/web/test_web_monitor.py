"""`osada monitor --web`: the monitor in the terminal and the pages beside it are
one app on one link (issue 41 item 1: nothing is lost between two readers,
as there is only one).  The terminal's board is drawn from the state the pages
get (issue 62: the page draws its own picture of it); a page's key goes out
through the same session."""

import asyncio
import json
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")

from osada.siege.keys import KEYMAP  # noqa: E402
from osada.web.host import WebMonitorApp  # noqa: E402
from osada.web.server import WebServer  # noqa: E402
from tests.support.monitor_fakes import FakeSession, mid_game  # noqa: E402
from tests.support.web_rig import board_cells_from_state  # noqa: E402


def test_the_terminal_and_the_pages_are_one_app():
    g, history = mid_game()
    server = WebServer("127.0.0.1", 0, "777777")
    server.start()
    box = {}

    def session(resolve, retry=None, post=None):
        box["s"] = FakeSession(g, post, history)
        return box["s"]

    app = WebMonitorApp(server, headless=False, port="fake", session=session)
    app.web_note = "web view at %s" % server.url
    app.local_note = "PIN 777777"
    reveal = next(i for i, row in enumerate(KEYMAP) if row[1] == "reveal")

    async def run():
        async with app.run_test(size=(140, 45)) as pilot:
            end = time.monotonic() + 10
            while not (app.state is not None and app.view.setup is not None and server.latest
                       and json.loads(server.latest["watcher"])["seq"] == app.seq):
                assert time.monotonic() < end, "the first sync"
                await pilot.pause(0.02)
            await pilot.pause(0.1)
            terminal = app.main.query_one("#board").content.plain
            terminal_conn = app.main.query_one("#conn").content.plain
            snap = json.loads(server.latest["watcher"])
            cells = board_cells_from_state(app.state)
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(server.url + "ws")
                await ws.send_str('{"t": "pin", "pin": "777777"}')
                await ws.send_str(json.dumps({"t": "key", "game": "siege", "i": reveal}))
                await ws.close()
            end = time.monotonic() + 5
            while not box["s"].sent[2:]:
                assert time.monotonic() < end, "the page's key through the session"
                await pilot.pause(0.02)
            return terminal, terminal_conn, snap, cells, app.log_lines

    try:
        terminal, terminal_conn, snap, cells, log = asyncio.run(run())
    finally:
        app.shutdown()
    assert cells and snap["state"]["game"]["enemies"] == app.state["enemies"]
    for (sector, line), tags in cells.items():                 # every enemy the page gets is on the terminal's board
        assert all(tag in terminal for tag in tags), (sector, line, tags)
    assert any(server.url in line for line in log), "the terminal says where the pages are"
    assert not any("777777" in line for line in log), "the PIN is not in the shared log (issue 59)"
    assert "777777" not in json.dumps(snap)
    assert "PIN 777777" in terminal_conn
    assert box["s"].sent[2][0] == "act" and box["s"].sent[2][1]["action"]["do"] == "reveal"
