"""One simulator per state directory and per link, and clear words when a
port is busy or a simulator's link is stale (host/osada/sim/simulator.py, link/ports.py).

Before: a second simulator re-pointed /tmp/osada-sim, shared the first's
journal (the two games overwrote each other), and the first to quit deleted
the link the other still used; `osada state` while the monitor held the port
timed out as if the device were not Osada; a killed simulator's link gave a
raw pyserial message."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

serial = pytest.importorskip("serial")

from osada.link import ports  # noqa: E402
from osada.sim.simulator import SimBusy, Simulator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                   os.path.join(ROOT, "firmware")]))

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def osada(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "osada.cli"] + list(args),
                          capture_output=True, text=True, env=ENV, timeout=timeout)


def start_sim(link, state, seed=6):
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", str(link),
                             "--state", str(state), "--seed", str(seed)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, text=True)
    end = time.monotonic() + 20
    while ports.sim_owner(str(link)) != proc.pid:
        assert proc.poll() is None and time.monotonic() < end, proc.stderr.read()
        time.sleep(0.02)
    return proc


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        proc.wait(5)


# ------------------------------------------------------------- in-process


def test_a_second_simulator_on_the_same_state_dir_is_refused(tmp_path):
    a = Simulator(link=str(tmp_path / "a"), state_dir=str(tmp_path / "st"), seed=1)
    try:
        target = os.readlink(a.link)
        with pytest.raises(SimBusy) as ei:
            Simulator(link=str(tmp_path / "b"), state_dir=str(tmp_path / "st"), seed=2)
        msg = str(ei.value)
        assert "pid %d" % os.getpid() in msg and str(tmp_path / "a") in msg and "--state" in msg
        assert os.readlink(a.link) == target                  # the first's link untouched
        assert not os.path.lexists(tmp_path / "b")            # and none made for the refused one
        assert ports.sim_owner(a.link) == os.getpid()
    finally:
        a.close()
    assert not os.path.lexists(tmp_path / "a") and not os.path.lexists(str(tmp_path / "a") + ".pid")
    c = Simulator(link=str(tmp_path / "a"), state_dir=str(tmp_path / "st"), seed=1)  # free again
    c.close()


def test_a_second_simulator_never_repoints_a_live_link(tmp_path):
    link = str(tmp_path / "tty")
    a = Simulator(link=link, state_dir=str(tmp_path / "st1"), seed=1)
    try:
        with pytest.raises(SimBusy) as ei:
            Simulator(link=link, state_dir=str(tmp_path / "st2"), seed=2)
        assert "belongs to another running simulator" in str(ei.value)
        assert os.readlink(link) == a.port and ports.sim_owner(link) == os.getpid()
        # the refused one gave its state directory back
        Simulator(link=None, state_dir=str(tmp_path / "st2")).close()
    finally:
        a.close()


def test_closing_never_removes_a_link_someone_else_repointed(tmp_path):
    link = str(tmp_path / "tty")
    a = Simulator(link=link, state_dir=str(tmp_path / "st"), seed=1)
    os.remove(link)
    os.symlink("/dev/null", link)
    a.close()
    assert os.readlink(link) == "/dev/null"


# ------------------------------------------------------------ as processes


def test_two_sim_processes_on_one_state_dir(tmp_path):
    first = start_sim(tmp_path / "tty", tmp_path / "st")
    try:
        second = subprocess.run([sys.executable, "-m", "osada.cli", "sim", "--headless",
                                 "--link", str(tmp_path / "tty2"), "--state", str(tmp_path / "st")],
                                capture_output=True, text=True, env=ENV, timeout=30)
        assert second.returncode == 3
        err = second.stderr.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err
        assert err.startswith("osada: sim: the state directory")
        assert "pid %d (osada sim)" % first.pid in err and str(tmp_path / "tty") in err
        # the first still answers on its link
        st = osada("state", "--port", str(tmp_path / "tty"))
        assert st.returncode == 0, st.stderr
    finally:
        stop(first)


def test_state_while_another_program_holds_the_port_says_who(tmp_path):
    sim = start_sim(tmp_path / "tty", tmp_path / "st")
    try:
        holder = ports.open_serial(str(tmp_path / "tty"))     # as the monitor holds it
        try:
            r = osada("state", "--port", str(tmp_path / "tty"))
            assert r.returncode == 2 and r.stdout == ""
            assert "is busy" in r.stderr and "(pid %d)" % os.getpid() in r.stderr
            assert "does not answer" not in r.stderr
            r = osada("send", "--port", str(tmp_path / "tty"), '{"cmd": "hello"}')
            assert r.returncode == 2 and "is busy" in r.stderr
        finally:
            holder.close()
        assert osada("state", "--port", str(tmp_path / "tty")).returncode == 0
    finally:
        stop(sim)


def test_port_holders_names_an_osada_process(tmp_path):
    sim = start_sim(tmp_path / "tty", tmp_path / "st")
    try:
        code = ("import sys, time; sys.path[:0] = %r; from osada.link import ports; "
                "s = ports.open_serial(%r); print('held', flush=True); time.sleep(30)"
                % (ENV["PYTHONPATH"].split(os.pathsep), str(tmp_path / "tty")))
        holder = subprocess.Popen([sys.executable, "-c", code, "osada.cli", "monitor"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "held"
            with pytest.raises(ports.PortBusy) as ei:
                ports.open_serial(str(tmp_path / "tty"))
            assert ei.value.holders == [(holder.pid, "osada monitor")]
            assert str(ei.value) == ("%s is busy: osada monitor (pid %d) has it open; quit that first "
                                     "(or use it)" % (tmp_path / "tty", holder.pid))
        finally:
            holder.kill()
            holder.wait(5)
    finally:
        stop(sim)


def test_a_killed_simulators_link_is_called_stale(tmp_path):
    link = tmp_path / "tty"
    sim = start_sim(link, tmp_path / "st")
    sim.send_signal(signal.SIGKILL)
    sim.wait(5)
    assert os.path.lexists(link)                              # left behind: no chance to clean up
    assert ports.sim_owner(str(link)) is None and not ports.sim_alive(str(link))
    r = osada("state", "--port", str(link))
    assert r.returncode == 2
    assert r.stderr.strip() == ("osada: %s is the link of a simulator that is no longer running "
                                "(a stale link): start one with `osada sim` or `make run`" % link)
    with pytest.raises(ports.PortError) as ei:                 # what the monitor's session shows
        ports.SerialTransport(str(link))
    assert "no longer running" in str(ei.value)
    again = start_sim(link, tmp_path / "st")                    # a new one takes link and journal over
    try:
        assert osada("state", "--port", str(link)).returncode == 0
    finally:
        stop(again)


def test_a_missing_port_is_one_clear_line(tmp_path):
    r = osada("state", "--port", str(tmp_path / "nothing"))
    assert r.returncode == 2
    assert r.stderr == "osada: cannot open %s: no such port (is the board plugged in?)\n" % (tmp_path / "nothing")


def test_the_refusal_names_the_monitor_that_started_the_simulator(tmp_path):
    """`make run` (its monitor starts a simulator), then `osada sim` in another terminal."""
    link, state = str(tmp_path / "tty"), str(tmp_path / "st")
    code = ("import sys; sys.path[:0] = %r; from osada.monitor import SimProcess; "
            "p = SimProcess(%r, %r); print(p.start(), flush=True); sys.stdin.read(); p.stop()"
            % (ENV["PYTHONPATH"].split(os.pathsep), link, state))
    monitor = subprocess.Popen([sys.executable, "-c", code, "osada.cli", "monitor"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=ENV)
    try:
        sim_pid = int(monitor.stdout.readline())
        end = time.monotonic() + 20
        while ports.sim_owner(link) != sim_pid:
            assert time.monotonic() < end
            time.sleep(0.02)
        r = subprocess.run([sys.executable, "-m", "osada.cli", "sim", "--state", state, "--link",
                            str(tmp_path / "mine")], capture_output=True, text=True, env=ENV, timeout=30)
        assert r.returncode == 3
        assert ("pid %d (osada sim, started by osada monitor (pid %d))" % (sim_pid, monitor.pid)) in r.stderr
        assert os.readlink(link) != "" and ports.sim_owner(link) == sim_pid
    finally:
        monitor.stdin.close()
        monitor.wait(10)
    assert not os.path.lexists(link)


def test_the_monitor_says_stale_link_and_busy_in_words(tmp_path):
    from osada import monitor
    link = str(tmp_path / "tty")
    sim = start_sim(link, tmp_path / "st")
    sim.send_signal(signal.SIGKILL)
    sim.wait(5)
    session = monitor.Session(lambda: link, retry=0.1)       # no app: its messages go to session.updates
    threading.Thread(target=session.run, daemon=True).start()
    try:
        msg = session.updates.get(timeout=5)
        kind, text, port = msg.kind, msg.text, msg.port
    finally:
        session.stop()
    assert kind == "cantopen" and port == link
    assert text == ("%s is the link of a simulator that is no longer running (a stale link): "
                    "start one with `osada sim` or `make run`" % link)
    app = monitor.MonitorApp(port=link)
    app.on_session_status(monitor.Session.Status(kind, text, port, None))
    assert app.conn_text == text + " — retrying every 0.5 s"
