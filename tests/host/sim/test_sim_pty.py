"""The simulator (host/osada/sim/simulator.py) over a REAL pseudo-terminal, spoken to
with pyserial exactly as a host speaks to a Pico: in-process (the app loop in
a background thread) and as the `osada sim --headless` command (a subprocess,
stopped with SIGTERM and restarted on the same journal)."""

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time

import pytest

serial = pytest.importorskip("serial")          # pyserial==3.5 (pyproject.toml)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from rules_support import engine_state  # noqa: E402

from osada.sim.simulator import Simulator  # noqa: E402
from shared_rules.jsonout import dumps  # noqa: E402
from shared_rules.siege.engine import Game  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


class Client:
    """A host on the serial port: JSON lines out, JSON lines in."""

    def __init__(self, link, timeout=1.0):
        self.ser = serial.Serial(link, 115200, timeout=timeout)
        self.buf = b""
        self.events = []
        self.fresh = True       # a line cut by the open's flush may lead
        self.next_id = 1

    def close(self):
        self.ser.close()

    def send(self, data):
        self.ser.write(data)
        self.ser.flush()

    def read_msg(self, deadline):
        while b"\n" not in self.buf:
            if time.monotonic() > deadline:
                raise AssertionError("no line from the device (have %r)" % (self.buf[:200],))
            self.buf += self.ser.read(self.ser.in_waiting or 1)
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            msg = json.loads(line.decode("utf-8"))
        except ValueError:
            if self.fresh:
                self.fresh = False
                return self.read_msg(deadline)
            raise
        self.fresh = False
        return msg

    def until_reply(self, rid, timeout=5.0):
        """Messages up to and including the reply with this id."""
        deadline = time.monotonic() + timeout
        out = []
        while True:
            m = self.read_msg(deadline)
            out.append(m)
            if "ok" in m and m.get("id") == rid:
                return out

    def call(self, cmd, **fields):
        rid = self.next_id
        self.next_id += 1
        req = {"id": rid, "cmd": cmd}
        req.update(fields)
        self.send((json.dumps(req) + "\n").encode())
        msgs = self.until_reply(rid)
        return msgs[-1], msgs[:-1]


class SimThread:
    """A Simulator whose app loop runs in a background thread."""

    def __init__(self, tmp_path, seed=1, state="state"):
        self.link = str(tmp_path / "tty")
        self.state_dir = str(tmp_path / state)
        self.sim = Simulator(link=self.link, state_dir=self.state_dir, seed=seed)
        self.stop = threading.Event()
        self.error = None
        self.ticks = 0
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        try:
            self.sim.app.boot()
            while not self.stop.is_set():
                self.sim.app.tick()
                self.ticks += 1
                time.sleep(0.002)
        except BaseException as exc:      # reported by close()
            self.error = exc

    def close(self):
        self.stop.set()
        self.thread.join(5)
        assert not self.thread.is_alive()
        self.sim.close()
        assert self.error is None, repr(self.error)


def test_link_points_at_a_pty(sim):
    assert os.path.islink(sim.link)
    target = os.readlink(sim.link)
    assert target == sim.sim.port and target.startswith("/dev/pts/")
    assert os.isatty(sim.sim.slave)


def test_hello_state_act_over_the_pty(sim):
    c = Client(sim.link)
    try:
        reply, _ = c.call("hello")
        assert reply["ok"] is True and reply["protocol"] == 1 and reply["game"] == "siege"
        assert reply["leds"] == 24 and reply["seq"] == 0
        reply, pushed = c.call("new", seed=4, players=3)
        assert reply == {"id": 2, "ok": True, "seq": 0}
        assert pushed[-1]["ev"] == "state" and pushed[-1]["seq"] == 0
        assert pushed[-1]["state"] == engine_state(Game(players=3, seed=4))
        reply, _ = c.call("state")
        assert reply["state"] == engine_state(Game(players=3, seed=4)) and reply["seq"] == 0

        g = Game(players=3, seed=4)
        action = {"do": "hit", "enemy": 2}
        expected = json.loads(dumps(g.apply(action)))
        reply, pushed = c.call("act", action=action)
        assert reply["ok"] is True and reply["seq"] == 1 and reply["events"] == len(expected)
        assert pushed[:-1] == expected
        assert pushed[-1] == {"ev": "state", "seq": 1, "state": engine_state(g)}
        reply, pushed = c.call("act", action={"do": "reveal"})
        assert reply["ok"] is False and reply["rule"] == "turn" and pushed == []
        reply, _ = c.call("state")
        assert reply["state"] == engine_state(g) and reply["seq"] == 1
        reply, _ = c.call("leds")
        assert len(reply["leds"]) == 24
        assert all(len(x) == 3 and all(0 <= v <= 255 for v in x) for x in reply["leds"])
        assert any(any(x) for x in reply["leds"])
        reply, _ = c.call("log")
        assert reply["actions"] == [action] and reply["setup"]["seed"] == 4
    finally:
        c.close()


def test_garbage_over_the_pty(sim):
    c = Client(sim.link)
    try:
        c.call("new", seed=6)
        before, _ = c.call("state")
        junk = [b"\x00\x01\x02\xff\xfe\n", b"\x03\x03\x03\n", b"{\"cmd\": \"act\", \"action\": {\"do\": 1}}\n",
                b"not json at all\n", b"[" * 900 + b"\n", b"z" * 5000 + b"\n", b"\xc0\x80{\"cmd\":\"hello\"}\n",
                b'{"cmd": "new", "players": 99}\n', b'{"cmd": "press", "turn": 7}\n']
        for j in junk:
            c.send(j)
        # one error each, in order; then the device is still itself
        reply, pushed = c.call("hello")
        errors = [m for m in pushed if "ok" in m]
        assert len(errors) == len(junk)
        assert all(m["ok"] is False and m["id"] is None for m in errors)
        assert "too long" in errors[5]["error"]
        assert [m for m in pushed if m.get("ev") == "state"] == []
        assert reply["ok"] is True and reply["seq"] == 0
        after, _ = c.call("state")
        assert after["state"] == before["state"]
        # a request split over many writes still arrives whole
        for b in b'{"id": 77, "cmd": "hello"}\n':
            c.send(bytes([b]))
        msgs = c.until_reply(77)
        assert msgs[-1]["ok"] is True
        # and many in one write
        c.send(b"".join(b'{"id": %d, "cmd": "hello"}\n' % i for i in range(100, 140)))
        msgs = c.until_reply(139)
        assert [m["id"] for m in msgs if "ok" in m] == list(range(100, 140))
    finally:
        c.close()


def test_reconnecting_client_still_gets_answers(sim):
    c = Client(sim.link)
    reply, _ = c.call("new", seed=8)
    assert reply["ok"] is True
    c.close()
    for k in range(3):
        c = Client(sim.link)
        try:
            reply, _ = c.call("hello")
            assert reply["ok"] is True and reply["seq"] == k
            reply, _ = c.call("act", action={"do": "patrol"} if k == 0 else {"do": "hit", "enemy": k})
            assert reply["ok"] is True and reply["seq"] == k + 1
            # leave with a request unanswered: its reply must not confuse the next client
            c.send(b'{"id": 999, "cmd": "state"}\n')
        finally:
            c.close()
        time.sleep(0.05)
    c = Client(sim.link)
    try:
        reply, _ = c.call("state")
        assert reply["seq"] == 3
        assert reply["state"] == engine_state(sim.sim.app.siege.game)
    finally:
        c.close()


def test_a_client_that_left_mid_line(sim):
    """A client that disconnects in the middle of a line leaves that half
    line at the device; the next client's leading newline ends it (one error
    reply) and then everything is answered as usual."""
    c = Client(sim.link)
    c.call("hello")
    c.send(b'{"id": 5, "cmd": "hel')
    c.close()
    time.sleep(0.05)
    c = Client(sim.link)
    try:
        c.send(b"\n")
        reply, pushed = c.call("hello")
        assert reply["ok"] is True
        (err,) = [m for m in pushed if "ok" in m]          # the half line's error
        assert err["ok"] is False and err["id"] is None and "JSON" in err["error"]
    finally:
        c.close()


def test_a_host_that_opens_and_never_reads(sim):
    """The port open, requests sent, nothing read for a while: the simulator
    goes on ticking, and the host that then reads gets its answers."""
    c = Client(sim.link)
    try:
        c.call("new", seed=2)
        ticks = sim.ticks
        for i in range(300):
            c.send(b'{"id": %d, "cmd": "state"}\n' % (1000 + i))
        time.sleep(1.0)
        assert sim.ticks > ticks + 50              # the loop did not block on the full pty
        assert sim.error is None
        assert sim.sim.app.outbox.pending() <= sim.sim.app.outbox.limit
        msgs = c.until_reply(1299, timeout=20)
        replies = [m for m in msgs if "ok" in m]
        dropped = sum(m["dropped"] for m in msgs if m.get("ev") == "overflow")
        assert len(replies) + dropped == 300
        assert [m["id"] for m in replies] == sorted(m["id"] for m in replies)
        reply, _ = c.call("hello")
        assert reply["ok"] is True
    finally:
        c.close()


def test_stop_and_close_cleanly(tmp_path):
    s = SimThread(tmp_path)
    c = Client(s.link)
    reply, _ = c.call("hello")
    assert reply["ok"] is True
    c.close()
    master = s.sim.master
    s.close()
    assert not os.path.lexists(s.link)
    with pytest.raises(OSError):
        os.fstat(master)
    s.sim.close()                                  # twice is harmless


def test_thread_restart_on_the_same_state(tmp_path):
    s = SimThread(tmp_path)
    c = Client(s.link)
    c.call("new", seed=12, players=4)
    c.call("act", action={"do": "hit", "enemy": 1})
    c.call("act", action={"do": "move"})
    st, _ = c.call("state")
    c.close()
    s.close()
    s2 = SimThread(tmp_path, seed=99)
    try:
        c = Client(s2.link)
        reply, _ = c.call("state")
        assert (reply["state"], reply["seq"]) == (st["state"], 2)
        c.close()
    finally:
        s2.close()


# ------------------------------------------------------- `osada sim` command


def _env():
    env = dict(os.environ)
    paths = [os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "firmware")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def _start(link, state):
    proc = subprocess.Popen(
        [sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", link, "--state", state, "--seed", "3"],
        cwd=ROOT, env=_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    out = b""
    while b"\n" not in out:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "osada sim did not start"
        r, _, _ = select.select([proc.stdout], [], [], 0.2)
        if r:
            out += os.read(proc.stdout.fileno(), 1024)
    assert out.startswith(b"osada sim: serial port /dev/"), out
    assert os.path.islink(link)
    return proc


def _first_lines(link, n_wanted_ev, timeout=5.0):
    """Read from the port WITHOUT the flush pyserial does on open: what the
    device said before anyone listened (its boot event)."""
    fd = os.open(link, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    buf = b""
    msgs = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                buf += os.read(fd, 4096)
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                m = json.loads(line.decode("utf-8"))
                if m.get("ev") == "boot":
                    assert isinstance(m.pop("restore_ms"), int)     # a figure, not compared
                msgs.append(m)
            if any(m.get("ev") == n_wanted_ev for m in msgs):
                break
    finally:
        os.close(fd)
    return msgs


def _stop(proc, link):
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("osada sim ignored SIGTERM")
    assert rc == 0, proc.stderr.read().decode()
    assert not os.path.lexists(link)


def test_osada_sim_command_survives_a_restart(tmp_path):
    link = str(tmp_path / "osada-tty")
    state = str(tmp_path / "sim-state")
    proc = _start(link, state)
    try:
        boot = _first_lines(link, "boot")
        assert {"ev": "boot", "restored": False, "seq": 0} in boot
        c = Client(link)
        reply, _ = c.call("hello")
        assert reply["ok"] is True and reply["protocol"] == 1
        c.call("new", seed=21, players=2)
        reply, pushed = c.call("act", action={"do": "hit", "enemy": 1})
        assert reply["ok"] is True and reply["seq"] == 1
        reply, _ = c.call("act", action={"do": "end_turn"})
        assert reply["ok"] is True and reply["seq"] == 2
        st, _ = c.call("state")
        c.close()
    finally:
        if proc.poll() is None:
            _stop(proc, link)
    assert proc.returncode == 0

    proc = _start(link, state)
    try:
        boot = _first_lines(link, "boot")
        assert {"ev": "boot", "restored": True, "seq": 2} in boot
        c = Client(link)
        reply, _ = c.call("state")
        assert (reply["state"], reply["seq"]) == (st["state"], 2)
        reply, _ = c.call("log")
        assert [a["do"] for a in reply["actions"]] == ["hit", "end_turn"]
        assert reply["setup"]["seed"] == 21
        c.close()
    finally:
        if proc.poll() is None:
            _stop(proc, link)
    assert proc.returncode == 0
