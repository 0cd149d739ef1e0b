"""Issue 42 items 5, 6 and 10: the simulator the monitor starts (`make run`).

A simulator that dies is started again and its game comes back from its
journal; one refused its config is not, and the whole reason is in the event
log, wrapped at 80 columns, and nothing is waited for; a simulator whose
monitor was killed (kill -9) stops by itself."""

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from test_monitor import ROOT, until, widget_text  # noqa: E402

from osada import monitor  # noqa: E402
from osada.link import ports  # noqa: E402
from osada.sim.simulator import ParentWatch  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def log_text(app):
    return "\n".join(app.log_lines)


def bad_config(tmp_path):
    """The checkout's config with the LEDs on a pin the Pico has not."""
    with open(os.path.join(ROOT, "firmware", "config.json")) as f:
        cfg = json.load(f)
    cfg["leds"]["pin"] = 99
    bad = tmp_path / "config.json"
    bad.write_text(json.dumps(cfg))
    return str(bad)


def test_a_killed_simulator_is_started_again_and_its_game_comes_back(tmp_path, monkeypatch):
    monkeypatch.setattr(ports, "find_device", lambda: None)
    link = tmp_path / "sim"
    app = monitor.MonitorApp(port="auto", start_sim=True, retry=0.1, sim_link=str(link),
                             sim_state=str(tmp_path / "st"))

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.conn_kind == "connected" and app.state is not None,
                        timeout=20, what="the simulator started and connected")
            seq0 = app.seq
            await pilot.press("e")                        # Siege: on to the next phase, so the game is not a fresh one
            await until(pilot, lambda: app.seq != seq0, timeout=10, what="the move")
            before, first = dict(app.state), app.sim.proc.pid
            os.kill(first, signal.SIGKILL)
            await until(pilot, lambda: app.sim.proc.pid != first, timeout=10, what="a new simulator")
            await until(pilot, lambda: app.conn_kind == "connected", timeout=20, what="connected again")
            await until(pilot, lambda: app.state == before, timeout=10, what="the game from its journal")
            assert "the simulator was killed (signal 9); starting it again" in log_text(app)
            assert app.sim.proc.poll() is None
            await pilot.press("q")
        assert app.sim.proc.poll() is not None

    try:
        asyncio.run(run())
    finally:
        app.shutdown()


def test_a_bad_config_is_said_whole_in_the_log_and_nothing_is_waited_for(tmp_path, monkeypatch):
    monkeypatch.setattr(ports, "find_device", lambda: None)
    app = monitor.MonitorApp(port="auto", start_sim=True, retry=0.1, sim_link=str(tmp_path / "sim"),
                             sim_state=str(tmp_path / "st"))
    app.sim.config = bad_config(tmp_path)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.conn_kind == "simfailed", timeout=20, what="the simulator refused")
            first = app.sim.proc.pid
            await pilot.pause(1.5)                        # never started again, never looked for again
            assert app.sim.proc.pid == first and app.conn_kind == "simfailed"
            assert app.session._stop.is_set()
            reason = "leds.pin must be a GPIO on the Pico's header: 0-22, 26-28 (got 99)"
            assert any(reason in line for line in app.log_lines)
            log = app.main.query_one("#log")
            assert log.size.width <= 80
            shown = "".join(strip.text for strip in log.lines)
            assert reason.replace(" ", "") in shown.replace(" ", "")      # all of it, wrapped
            assert widget_text(app, "#conn") == "the simulator stopped — see the log; mend it, then start the " \
                                               "monitor again"
            assert len(widget_text(app, "#conn")) <= 80
            assert widget_text(app, "#status") == "the simulator exited (code 2): the reason is in the event log"

    try:
        asyncio.run(run())
    finally:
        app.shutdown()


@pytest.mark.parametrize("argv,prefix", [
    (["tank", "watch", "--start-sim", "--switch", "--count", "1", "--seconds", "20", "--no-keys"], "osada: "),
    (["victory", "toss", "--start-sim", "--switch"], "osada: victory toss: "),
])
def test_watch_and_toss_say_why_their_simulator_would_not_start(tmp_path, monkeypatch, capsys, argv, prefix):
    """`make run GAME=tank` (or warchest), `osada victory toss --start-sim` with a bad config: the reason
    at once, not ten seconds of looking and "no device"."""
    from osada import cli
    from osada.link import simproc
    real = simproc.SimProcess
    monkeypatch.setattr(simproc, "SimProcess", lambda: real(str(tmp_path / "sim"), str(tmp_path / "st"),
                                                            config=bad_config(tmp_path)))
    monkeypatch.setattr(ports, "find_device", lambda: None)
    t0 = time.monotonic()
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - t0 < 8
    assert err.startswith(prefix + "the simulator exited (code 2): ")
    assert "leds.pin must be a GPIO on the Pico's header: 0-22, 26-28 (got 99)" in err


def test_the_simulator_stops_when_the_monitor_that_started_it_is_killed(tmp_path):
    link, state = str(tmp_path / "tty"), str(tmp_path / "st")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    code = ("from osada.monitor import SimProcess; import sys; p = SimProcess(%r, %r); "
            "print(p.start(), flush=True); sys.stdin.read()" % (link, state))
    parent = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        sim_pid = int(parent.stdout.readline())
        end = time.monotonic() + 20
        while ports.sim_owner(link) != sim_pid:
            assert time.monotonic() < end, "the simulator did not start"
            time.sleep(0.02)
        parent.kill()                                       # kill -9: no chance to stop it
        parent.wait(5)
        end = time.monotonic() + 10
        while os.path.lexists(link):
            assert time.monotonic() < end, "the simulator outlived its monitor"
            time.sleep(0.05)
        with pytest.raises(ProcessLookupError):
            for _ in range(100):                            # gone (a zombie of init's reaped soon after)
                os.kill(sim_pid, 0)
                time.sleep(0.05)
    finally:
        if parent.poll() is None:
            parent.kill()
        parent.stdin.close()


def test_parent_watch_is_off_for_a_simulator_started_by_hand():
    assert ParentWatch({}).gone() is False
    assert ParentWatch({"OSADA_SIM_PARENT": str(os.getppid())}, every=0).gone() is False
    assert ParentWatch({"OSADA_SIM_PARENT": "1"}, every=0).gone() is (os.getppid() != 1)


def _monitor_argv(tmp_path, link):
    """`osada monitor --port LINK` as a process, its event log (kept between sessions) in tmp_path,
    not the checkout's build/."""
    code = ("import sys, osada.monitor as m; from osada import cli; m.MONITOR_LOG = %r; "
            "sys.exit(cli.main(['monitor', '--port', %r, '--no-forecast']))" % (str(tmp_path / "log.jsonl"), link))
    return [sys.executable, "-c", code]


@contextlib.contextmanager
def _in_a_pty(tmp_path, argv, size=None):
    """The simulator in a thread on tmp_path/tty, and the process argv in a terminal of its own
    (a new pty, `size` (columns, rows) or the pty's own 0×0).  Yields {"pid", "fd": the pty's
    master}; set either to None where the test has ended it; what is left is killed after."""
    import fcntl
    import pty
    import struct
    import termios

    from tests.support.simthread import SimThread
    dev = SimThread(str(tmp_path / "tty"), str(tmp_path / "st"), seed=5)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, argv, env)
    if size:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    run = {"pid": pid, "fd": fd}
    try:
        yield run
    finally:
        if run["pid"] is not None:
            os.killpg(pid, signal.SIGKILL)              # the session's whole group
            os.waitpid(pid, 0)
        if run["fd"] is not None:
            os.close(fd)
        dev.close()


def _read(fd, out, seconds, until=None):
    """What the pty shows, added to `out`, for `seconds` or until `until` is in it."""
    import select
    end = time.monotonic() + seconds
    while time.monotonic() < end and (until is None or until not in out):
        if select.select([fd], [], [], 0.1)[0]:
            out += os.read(fd, 1 << 16)
    return out


def test_a_terminal_that_reports_no_size_still_gets_the_board(tmp_path):
    """`script` without a terminal around it, like some consoles, gives a pty of 0×0: textual
    lays out at its fallback size and sent the screen that size again and again, the monitor
    redrew for each at 100 % of a core (megabytes a second on the pty) and never got to the
    board.  Now it connects and settles."""
    with _in_a_pty(tmp_path, _monitor_argv(tmp_path, str(tmp_path / "tty"))) as run:
        out = _read(run["fd"], bytearray(), 20, until=b"connected to")
        assert b"connected to" in out, "no board after 20 s (%d bytes drawn)" % len(out)
        settled = len(out)
        _read(run["fd"], out, 2)                             # then it draws only what changes
        assert len(out) - settled < 100000, "%d bytes in 2 s of an idle board" % (len(out) - settled)


def test_a_monitor_whose_terminal_hangs_up_quits_though_make_took_the_sighup(tmp_path):
    """`make run` in a terminal window that is closed: the hang-up's SIGHUP goes to the session's
    leader, and make (here a stand-in that waits for its child, as make does) does not pass it
    on.  The monitor ran on unseen, holding the board's port; now it sees its terminal gone and
    quits (and the stand-in with it)."""
    make = ("import signal, subprocess, sys; signal.signal(signal.SIGHUP, lambda *a: None); "
            "sys.exit(subprocess.call(%r))" % (_monitor_argv(tmp_path, str(tmp_path / "tty")),))
    with _in_a_pty(tmp_path, [sys.executable, "-c", make], size=(120, 40)) as run:
        assert b"connected to" in _read(run["fd"], bytearray(), 20, until=b"connected to"), "no board after 20 s"
        os.close(run["fd"])                                 # the window closed
        run["fd"] = None
        end = time.monotonic() + 10
        while os.waitpid(run["pid"], os.WNOHANG) == (0, 0):
            assert time.monotonic() < end, "the monitor runs on with its terminal gone"
            time.sleep(0.1)
        run["pid"] = None
