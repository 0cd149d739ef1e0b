"""`make run WEB=1` (`osada web --start-sim`) and `osada monitor --web` start one
simulator, not two (issue 59, 4: Textual runs the on_mount of every class of the
hierarchy, and the web app's own also called MonitorApp's: the second simulator
exited on the state directory's lock and the host said "the simulator stopped");
a simulator that exits because another one holds the journal is followed, not
declared dead; and once the one followed has quit, the monitor starts its own."""

import asyncio
import time

import pytest

pytest.importorskip("aiohttp")

from osada.link import (
    ports,  # noqa: E402
    simproc,  # noqa: E402
)
from osada.monitor.screens import AskSimScreen  # noqa: E402
from osada.web.host import WebMonitorApp  # noqa: E402
from osada.web.server import WebServer  # noqa: E402


class Proc:
    def __init__(self, code=None):
        self.pid, self.returncode = 4242, code

    def poll(self):
        return self.returncode


def _app(monkeypatch, headless, start_sim):
    starts = []

    def start(self):
        starts.append(time.monotonic())
        self.proc = Proc()
        return 4242
    monkeypatch.setattr(simproc.SimProcess, "start", start)
    monkeypatch.setattr(simproc.SimProcess, "stop", lambda self: None)
    monkeypatch.setattr(ports, "find_device", lambda: None)
    server = WebServer("127.0.0.1", 0, None)
    server.start()
    app = WebMonitorApp(server, headless=headless, port="auto", start_sim=start_sim, retry=0.05)
    return app, server, starts


def _run(app, server, body):
    async def run():
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.pause(0.3)
            return await body(pilot)
    try:
        return asyncio.run(run())
    finally:
        app.shutdown()
        server.stop()


def test_osada_web_start_sim_starts_one_simulator(monkeypatch):
    app, server, starts = _app(monkeypatch, headless=True, start_sim=True)

    async def body(pilot):
        return len(starts)
    assert _run(app, server, body) == 1


def test_osada_monitor_web_asks_once(monkeypatch):
    app, server, starts = _app(monkeypatch, headless=False, start_sim=False)
    asked = []
    real = app.push_screen

    def push(screen, *a, **kw):
        if isinstance(screen, AskSimScreen):
            asked.append(screen)
        return real(screen, *a, **kw)
    app.push_screen = push

    async def body(pilot):
        await pilot.press("y")
        await pilot.pause(0.2)
        return len(asked), len(starts)
    assert _run(app, server, body) == (1, 1)


def test_a_simulator_that_found_the_journal_taken_is_followed_then_replaced(monkeypatch):
    app, server, starts = _app(monkeypatch, headless=True, start_sim=True)

    async def body(pilot):
        app.sim.proc = Proc(simproc.BUSY)                # ours exited: another holds build/sim-state
        app._check_sim()
        followed = (app.sim_started, app.conn_kind, any("another simulator" in ln for ln in app.log_lines))
        app.conn_kind = "nodevice"                       # ... and that one has quit since
        app._check_sim()
        return followed, len(starts), app.sim_started
    followed, n, again = _run(app, server, body)
    assert followed[0] is False and followed[1] != "simfailed" and followed[2]
    assert n == 2 and again is True
