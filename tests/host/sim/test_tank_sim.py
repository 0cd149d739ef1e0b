"""End to end through the simulator (host/osada/sim/simulator.py) over a real pty, as
`make run GAME=tank` plays without hardware: the host switches the device to
the tank game, rolls (over the protocol and with the simulator's keys), sees
each roll with its odds (`osada tank watch`), and Siege's game in progress is
exactly as it was when it switches back."""

import os
import threading
import time

import pytest
from rules_support import engine_state
from test_sim_pty import SimThread

from osada import cli
from osada.link import ports
from osada.tank import rolls

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def connect(sim):
    link = ports.serial_link(sim.link, timeout=5.0)
    link.connect()
    return link


def test_switch_to_tank_roll_with_odds_and_back_to_the_same_siege_game(sim):
    link = connect(sim)
    try:
        assert link.request("act", action={"do": "patrol"})["ok"]
        assert link.request("act", action={"do": "move"})["ok"]
        before = link.request("state")
        siege = engine_state(sim.sim.app.siege.game)
        got = []
        link.on_message = got.append
        r = link.request("game", game="tank")
        assert r["ok"] and r["game"] == "tank" and link.request("hello")["game"] == "tank"
        r = link.request("roll", test="fire", dice=12, hit=2, protection=4)
        assert r["ok"] and len(r["dice"]) == 12
        ev = [m for m in got if m.get("ev") == "roll"]
        assert len(ev) == 1 and ev[0]["hits"] == r["hits"] == sum(1 for f in r["dice"] if f <= 2)
        lines = rolls.lines_for(ev[0])
        h = ev[0]["hits"]
        assert lines[1].startswith("    %d hit" % h) and "chance" in lines[1] and not lines[2:]
        # the simulator's keys: Enter is ACTION, a roll of the same numbers from the "buttons"
        del got[:]
        sim.sim.keys(b"\r")
        deadline = time.monotonic() + 5
        while not [m for m in got if m.get("ev") == "roll"] and time.monotonic() < deadline:
            link.poll()
            time.sleep(0.01)
        ev2 = [m for m in got if m.get("ev") == "roll"]
        assert ev2 and ev2[0]["source"] == "buttons" and ev2[0]["test"] == "fire"
        assert ev2[0]["protection"] == 4 - ev[0]["absorbed"]          # T16: what the first shot left
        # and back: the game in progress, untouched
        assert link.request("game", game="siege")["ok"]
        after = link.request("state")
        assert after["state"] == before["state"] and after["seq"] == before["seq"] == 2
        assert engine_state(sim.sim.app.siege.game) == siege
    finally:
        link.close()


def test_osada_tank_watch_against_the_simulator(sim, capsys, tmp_path):
    def press_when_tank():
        deadline = time.monotonic() + 10
        while sim.sim.app.mode is sim.sim.app.siege and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)
        sim.sim.keys(b"\r")                     # ACTION: roll

    t = threading.Thread(target=press_when_tank)
    t.start()
    log = tmp_path / "rolls.jsonl"
    code = cli.main(["tank", "watch", "--port", sim.link, "--switch", "--count", "1", "--seconds", "20",
                     "--no-keys", "--log", str(log)])
    t.join()
    out = capsys.readouterr().out
    assert code == 0, out
    assert "fire 6 dice, hit on <= 3, protection 0:" in out
    assert "you had a" in out or "a 1.6% chance of none" in out
    assert "    ring: " in out
    assert sim.sim.app.mode is sim.sim.app.siege                     # --switch was for the session: Siege again
    assert cli.main(["tank", "replay", str(log)]) == 0


def test_the_simulators_g_key_opens_the_game_menu(sim):
    link = connect(sim)
    try:
        sim.sim.keys(b"g")
        deadline = time.monotonic() + 5
        while not hasattr(sim.sim.app.mode, "inner") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert hasattr(sim.sim.app.mode, "inner")      # games.Menu in front of Siege
        sim.sim.keys(b"d\r")                           # turn to Tank, ACTION
        deadline = time.monotonic() + 5
        while getattr(sim.sim.app.mode, "id", None) != "tank" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.request("hello")["game"] == "tank"
    finally:
        link.close()


def test_make_run_game_tank_starts_a_simulator_when_there_is_no_device(tmp_path, monkeypatch, capsys):
    """`make run GAME=tank` = `osada tank watch --start-sim --switch`: with no
    device it starts the simulator (here one on a private link), plays there,
    and stops it at the end."""
    from osada.link import simproc
    started = []

    class Sim(simproc.SimProcess):           # the real one's waiting (wait_for), a simulator in a thread
        def __init__(self, *a, **kw):
            super().__init__()
            self.s = None

        def start(self):
            self.s = SimThread(tmp_path)
            started.append(self.s)
            return 0

        def stop(self):
            self.s.close()

    monkeypatch.setattr(simproc, "SimProcess", Sim)
    monkeypatch.setattr(ports, "find_device", lambda: started[0].link if started else None)

    done = threading.Event()

    def roll_when_tank():
        """The simulator's roll key, once it runs Tank battle, again every half second until the
        watch is done: a roll made before the watch listens (a loaded machine) is not its count."""
        deadline = time.monotonic() + 10
        while not (started and started[0].sim.app.mode.id != "siege") and time.monotonic() < deadline:
            time.sleep(0.01)
        while started and not done.is_set() and not started[0].stop.is_set():
            started[0].sim.keys(b"\r")
            done.wait(0.5)

    t = threading.Thread(target=roll_when_tank)
    t.start()
    try:
        code = cli.main(["tank", "watch", "--start-sim", "--switch", "--count", "1", "--seconds", "20", "--no-keys"])
    finally:
        done.set()
        t.join()
    out = capsys.readouterr().out
    assert code == 0 and len(started) == 1, out
    assert "fire 6 dice" in out and started[0].stop.is_set()          # the simulator was stopped


def _watch_in_a_terminal(link, keys, extra=(), wait_for=None, timeout=20, ready=None):
    """`osada tank watch` as a player runs it: its stdin a terminal (a pty), the
    keys typed one by one once it has printed its keys' line (and `ready`, if given);
    returns what it printed."""
    import subprocess
    import sys

    from test_sim_pty import _env
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "tank", "watch", "--port", link,
                             "--seconds", str(timeout)] + list(extra),
                            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=_env())
    os.close(slave)
    out = b""
    try:
        os.set_blocking(proc.stdout.fileno(), False)

        def read_until(text, limit=10.0):
            nonlocal out
            end = time.monotonic() + limit
            while text not in out and time.monotonic() < end and proc.poll() is None:
                out += proc.stdout.read() or b""
                time.sleep(0.02)
            assert text in out, out.decode(errors="replace")
        read_until(b"keys:")
        if ready:
            read_until(ready)
        for key in keys:
            os.write(master, key)
            if wait_for:                # each key's answer before the next key
                read_until(wait_for.pop(0))
            else:
                time.sleep(0.3)
        os.write(master, b"q")
        proc.wait(timeout=10)
        out += proc.stdout.read() or b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode, out.decode()


def test_tank_watch_ends_when_its_terminal_hangs_up(sim):
    """A closed terminal window under `make run GAME=tank`: make takes the SIGHUP and waits,
    and the watch polled on unseen (its simulator with it) until --seconds; now the read of
    nothing a hung-up terminal gives ends it as q does."""
    import subprocess
    import sys

    from test_sim_pty import _env
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "tank", "watch", "--port", sim.link,
                             "--seconds", "60"], stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=_env())
    os.close(slave)
    try:
        os.set_blocking(proc.stdout.fileno(), False)
        out = b""
        end = time.monotonic() + 10
        while b"keys:" not in out and time.monotonic() < end:
            out += proc.stdout.read() or b""
            time.sleep(0.02)
        assert b"keys:" in out, out
        os.close(master)                                     # the window closed
        master = None
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if master is not None:
            os.close(master)


def test_tank_watch_keys_never_reach_siege(sim):
    """Issue 26 item 2: without --switch, on a device that runs Siege, → and
    Enter (ACTION) do nothing to Siege's game: they are not sent, and the
    watcher says why."""
    app = sim.sim.app
    while not sim.ticks:
        time.sleep(0.01)
    cursor, seq, state = app.siege.ui.cursor, len(app.siege.game.log), engine_state(app.siege.game)
    code, out = _watch_in_a_terminal(sim.link, [b"\x1b[C", b"\r", b"d"])
    assert code == 0, out
    assert "the device runs Siege" in out and "drive it only then" in out
    assert out.count("that key does nothing: the device runs Siege, not Tank battle") == 3, out
    assert app.mode is app.siege and app.siege.ui.cursor == cursor                      # Siege's cursor did not move
    assert len(app.siege.game.log) == seq and engine_state(app.siege.game) == state      # no enemy hit, nothing done


def test_tank_watch_shows_what_each_key_changed(sim):
    """Issue 26 item 4: in Tank battle a turn of the encoder (→) and its press
    (↓, the monitor's key for the next number: issue 61 item 2) say what they
    changed, in words, the number the encoder turns next in [brackets]; + also
    turns it; Enter rolls with what is shown."""
    link = connect(sim)
    try:
        assert link.request("game", game="tank")["ok"]
    finally:
        link.close()
    # the first key only once the board's state is shown: typed sooner (a loaded machine), it
    # is answered before that state is ever printed
    code, out = _watch_in_a_terminal(sim.link, [b"\x1b[C", b"\x1b[B", b"+", b"+", b"\r"],
                                     wait_for=[b"[suppress]", b"[intensity 6]", b"[intensity 7]", b"[intensity 8]",
                                               b"8 -> 12 dice"], ready=b"now: [fire]")
    assert code == 0, out
    lines = [ln.strip() for ln in out.splitlines()]
    shown = [ln[5:] for ln in lines if ln.startswith("now: ")]
    assert shown[:5] == ["[fire] · dice 6 · hit 3 · ambush no · protection 0",
                         "[suppress] · intensity 6 · hit 3 · ambush no · protection 0",
                         "suppress · [intensity 6] · hit 3 · ambush no · protection 0",
                         "suppress · [intensity 7] · hit 3 · ambush no · protection 0",
                         "suppress · [intensity 8] · hit 3 · ambush no · protection 0"], out
    assert "suppression fire 8 -> 12 dice" in out                             # T27: 8 + 4
