"""`make firmware`: the Pico bundle is built, holds what the board needs and
nothing host-only, and boots inside real MicroPython from its .mpy files."""

import json
import os
import subprocess
import sys

import pytest

from osada import mpyvm
from osada.flash import deploy
from osada.flash.mpybuild import BuildError, compile_tree

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_bundle_has_the_board_files_and_no_host_code(tmp_path):
    out = tmp_path / "fw"
    files = deploy.build(str(out), quiet=True)
    rel = sorted(os.path.relpath(f, out) for f in files)
    assert "main.py" in rel and "config.json" in rel
    assert "osada_fw/app.mpy" in rel and "osada_fw/hal/pico.mpy" in rel
    assert "shared_rules/siege/engine.mpy" in rel and "shared_rules/siege/catalog.mpy" in rel
    for host_only in ("osada_fw/hal/fake.mpy", "osada_fw/hal/blinka.mpy", "shared_rules/siege/autoplay.mpy",
                      "shared_rules/siege/scenario.mpy"):
        assert host_only not in rel
    assert not [r for r in rel if r.endswith(".py") and r != "main.py"]
    # every .mpy is bytecode-only mpy v6 ('M', 6, no native arch): what MicroPython 1.20+ loads
    for f in files:
        if f.endswith(".mpy"):
            head = open(f, "rb").read(3)
            assert head == b"M\x06\x00", (f, head)


def test_a_host_only_package_stays_out_of_the_bundle(tmp_path):
    src = tmp_path / "rules"
    for rel in ("engine.py", "line/__init__.py", "line/cards.py", "tank/line/x.py", "tank/dice.py"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text("X = 1\n")
    out = tmp_path / "out"
    files = compile_tree(str(src), str(out), exclude=("line/",))
    # the folder "line/" at the top goes, a file or a deeper folder of that name stays
    assert sorted(os.path.relpath(f, out) for f in files) == ["engine.mpy", "tank/dice.mpy", "tank/line/x.mpy"]
    for host_only in ("line/", "victory/"):
        assert host_only in deploy.SKIP_RULES


def test_bundle_refuses_a_bad_config(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text(json.dumps({"leds": {"layout": "hexagon"}}))
    with pytest.raises(Exception) as ei:
        deploy.build(str(tmp_path / "fw"), config=str(bad), quiet=True)
    assert "layout" in str(ei.value)


@pytest.mark.micropython
def test_bundle_boots_in_micropython_from_its_mpy_files(tmp_path):
    out = tmp_path / "fw"
    deploy.build(str(out), quiet=True)
    req = tmp_path / "req.jsonl"
    req.write_text('{"id": 1, "cmd": "hello"}\n{"id": 2, "cmd": "act", "action": {"do": "move"}}\n')
    proc = mpyvm.run(os.path.join(ROOT, "tests", "mpy", "fw_smoke.py"), ["/req.jsonl"],
                     mounts=[(str(out / "shared_rules"), "/lib/shared_rules"),
                             (str(out / "osada_fw"), "/lib/osada_fw"),
                             (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")],
                     files=[(str(req), "/req.jsonl")])
    assert proc.returncode == 0, proc.stderr.decode()
    lines = [json.loads(ln) for ln in proc.stdout.decode().splitlines()]
    replies = {o["id"]: o for o in lines if "id" in o}
    assert replies[1]["ok"] and replies[1]["protocol"] == 1
    assert replies[2]["ok"] and replies[2]["seq"] == 1
    # no .py of the app was there to fall back on: these came from the .mpy files
    assert not list((out / "osada_fw").glob("*.py"))


def test_make_firmware_command_builds(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    proc = subprocess.run([sys.executable, "-m", "osada.flash.deploy", "build"], capture_output=True,
                          text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "built build/firmware" in proc.stdout and "mpy v6.3" in proc.stdout


# ------------------------------------------------ make flash: clear errors
# Before: a missing port said "may be in use", the simulator's link ended in
# an mpremote traceback.  Now flash() checks the port first (check_board).

def _deploy(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    return subprocess.run([sys.executable, "-m", "osada.flash.deploy"] + list(args), capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def _one_clear_line(proc):
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


class FakePort:
    """A pty whose master end plays a device: `answer(data) -> bytes` (None: silent)."""

    def __init__(self, answer=None):
        import pty
        import threading
        self.master, self.slave = pty.openpty()
        self.port = os.ttyname(self.slave)
        self.answer = answer
        self.heard = b""
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        import select
        while not self.stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            self.heard += data
            reply = self.answer(data) if self.answer else None
            if reply:
                os.write(self.master, reply)

    def close(self):
        self.stop = True
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


def test_flash_to_a_missing_port_says_so():
    err = _one_clear_line(_deploy("flash", "--port", "/dev/osada-missing"))
    assert err == "error: cannot open /dev/osada-missing: no such port (is the board plugged in?)"


def test_flash_to_the_simulator_says_it_is_not_a_pico(tmp_path):
    link = str(tmp_path / "tty")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    sim = subprocess.Popen([sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", link,
                            "--state", str(tmp_path / "st")], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env)
    try:
        import time

        from osada.link import ports
        end = time.monotonic() + 20
        while ports.sim_owner(link) != sim.pid:
            assert sim.poll() is None and time.monotonic() < end
            time.sleep(0.02)
        err = _one_clear_line(_deploy("flash", "--port", link))
        assert err.startswith("error: %s is the Osada simulator, not a Pico" % link)
        # by its pty too (the link's target), recognised from its hello reply
        with pytest.raises(BuildError) as ei:
            deploy.check_board(os.readlink(link))
        assert "is the Osada simulator, not a Pico" in str(ei.value)
    finally:
        sim.terminate()
        sim.wait(5)


def test_flash_to_a_port_that_does_not_answer():
    dev = FakePort()
    try:
        with pytest.raises(BuildError) as ei:
            deploy.check_board(dev.port, wait=0.3)
        assert str(ei.value).startswith("%s does not answer" % dev.port)
        assert b"\x03" in dev.heard                       # it did try the REPL
    finally:
        dev.close()


def test_flash_to_something_that_is_not_micropython():
    dev = FakePort(lambda data: b"?\r\n")             # a modem, a GPS, another program...
    try:
        with pytest.raises(BuildError) as ei:
            deploy.check_board(dev.port, wait=0.3)
        assert "answers, but not as MicroPython" in str(ei.value)
    finally:
        dev.close()


def test_a_micropython_repl_passes_the_check():
    dev = FakePort(lambda data: b"raw REPL; CTRL-B to exit\r\n>" if b"\x01" in data else None)
    try:
        assert deploy.check_board(dev.port, wait=0.3) == "repl"
        import time
        time.sleep(0.2)
        assert dev.heard.endswith(b"\x02")                # left in the friendly REPL
    finally:
        dev.close()


def test_flash_to_a_busy_port_names_the_holder():
    from osada.link import ports
    dev = FakePort()
    holder = ports.open_serial(dev.port)
    try:
        with pytest.raises(BuildError) as ei:
            deploy.check_board(dev.port, wait=0.3)
        assert str(ei.value).startswith("%s is busy" % dev.port) and "(pid %d)" % os.getpid() in str(ei.value)
    finally:
        holder.close()
        dev.close()


def test_mpremote_failures_keep_only_their_last_line():
    tb = ("Traceback (most recent call last):\n  File \"x\", line 1\n"
          "mpremote.transport.TransportError: could not enter raw repl\n\n")
    assert deploy._last_line(tb) == "mpremote.transport.TransportError: could not enter raw repl"


