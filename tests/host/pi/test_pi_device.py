"""`osada device` (host/osada/device/) as a process, over its pty, spoken to by
the host's own Link (what the monitor mirrors a device with), on Blinka's
OS-agnostic board (tests/support/pi_device.py): a seeded game played through it
is the CPython engine's, action for action and event for event; a kill -9 in
the middle of a game loses no acknowledged action; what it cannot use is one
line on stderr, and nothing is taken."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from rules_support import engine_state

from osada.link import ports
from shared_rules.jsonout import dumps
from shared_rules.siege.autoplay import play
from shared_rules.siege.engine import Game
from tests.support import pi_fakes

pi_fakes.blinka_or_skip()
pytest.importorskip("serial")
pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = dict(os.environ, BLINKA_OS_AGNOSTIC="1",
           PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "firmware")]))
SETUP = {"players": 3, "mode": "standard", "variants": [], "seed": 31}


def device(tmp_path, *args):
    """`osada device` on its own; returns the process once its link is live."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.pi_device", "--link", str(tmp_path / "link"),
                             "--state", str(tmp_path / "state")] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, cwd=ROOT, text=True)
    end = time.monotonic() + 20
    while ports.sim_owner(str(tmp_path / "link")) != proc.pid:
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            raise AssertionError("osada device did not start: %s" % proc.communicate()[1])
        time.sleep(0.02)
    return proc


def stop(proc, sig=signal.SIGTERM):
    if proc.poll() is None:
        proc.send_signal(sig)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()


def connect(tmp_path, pushed):
    link = ports.serial_link(str(tmp_path / "link"))
    link.on_message = pushed.append
    link.connect()                      # `hello`, then `state`: as the monitor does
    return link


def engine_game():
    """The CPython engine's game: every accepted action and its events (as JSON has them)."""
    played = []
    game, accepted, _refused = play(SETUP, 7, max_actions=400, skill=1,
                                    keep=lambda g, a, ev: played.append((a, json.loads(dumps(ev)))))
    assert accepted == len(played) > 60
    return game, played


def engine_after(played, n):
    game = Game.from_setup(SETUP)
    for action, _ in played[:n]:
        game.apply(action)
    return engine_state(game)


def test_a_game_through_the_pty_is_the_engines(tmp_path):
    game, played = engine_game()
    proc = device(tmp_path)
    pushed = []
    link = connect(tmp_path, pushed)
    try:
        assert ports.sim_alive(str(tmp_path / "link"))              # the monitor's test for a live link
        assert link.mirror.hello["leds"] == 24
        reply = link.request("new", **SETUP)
        assert reply["ok"] is True and reply["seq"] == 0
        refused = link.request("act", action={"do": "reveal"})
        assert refused["ok"] is False and refused["rule"] == "turn"
        for seq, (action, events) in enumerate(played, 1):
            del pushed[:]
            reply = link.request("act", action=action)
            assert reply["ok"] is True and reply["seq"] == seq, (action, reply)
            assert reply["events"] == len(events)
            sent = [m for m in pushed if "ev" in m]
            assert sent[:-1] == events and sent[-1]["ev"] == "state" and sent[-1]["seq"] == seq
        state = link.request("state")
        assert state["state"] == engine_state(game) and state["seq"] == len(played)
        assert link.mirror.state == engine_state(game)              # the monitor's mirror too
        assert link.fetch_log()["actions"] == [a for a, _ in played]
    finally:
        link.close()
        stop(proc)
    assert proc.returncode == 0
    assert not os.path.lexists(tmp_path / "link")                   # given back when stopped


def test_kill_9_loses_no_acknowledged_action(tmp_path):
    _game, played = engine_game()
    acked = 0
    for round_, upto in enumerate((25, 45, 70)):
        proc = device(tmp_path)
        link = connect(tmp_path, [])
        try:
            state = link.request("state")
            assert state["seq"] >= acked              # everything acknowledged before the kill is there
            acked = state["seq"]
            if round_ == 0:
                assert link.request("new", **SETUP)["ok"] is True
            else:
                assert state["state"] == engine_after(played, acked)
            while acked < upto:
                reply = link.request("act", action=played[acked][0])
                assert reply["ok"] is True and reply["seq"] == acked + 1
                acked += 1
            if round_ == 1:
                link.send("act", action=played[acked][0])       # one in flight: kept or not, never half
        finally:
            stop(proc, signal.SIGKILL)
            link.close()
    proc = device(tmp_path)
    link = connect(tmp_path, [])
    try:
        state = link.request("state")
        assert state["seq"] == acked == 70
        assert link.fetch_log()["actions"] == [a for a, _ in played[:70]]
    finally:
        link.close()
        stop(proc)


def one_line_refusal(tmp_path, *args):
    proc = subprocess.run([sys.executable, "-m", "tests.support.pi_device", "--link", str(tmp_path / "link"),
                           "--state", str(tmp_path / "state")] + list(args),
                          capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=60)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("osada: device: "), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    return proc.returncode, lines[0]


@pytest.mark.parametrize("pi,words", [
    ({"strip": 4}, "pi.strip is GPIO4, which cannot drive the LED strip: the Pi drives one only from "
                   "GPIO10, GPIO12, GPIO18 or GPIO21"),
    ({"encoder": {"a": 18}}, "pi.strip and pi.encoder.a both use GPIO18"),
    ({"buttons": {"back": 40}}, "pi.buttons.back must be a GPIO on the Pi's header, GPIO2-GPIO27 (got 40)"),
    ({"strip": 18, "led": 1}, "unknown setting pi.led"),
    ([18], "pi must be an object"),
])
def test_a_wrong_pin_is_one_line_at_start(tmp_path, pi, words):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"leds": {"layout": "rings"}, "pi": pi}))
    code, line = one_line_refusal(tmp_path, "--config", str(cfg))
    assert code == 2 and line == "osada: device: the config %s: %s" % (cfg, words)
    assert not os.path.lexists(tmp_path / "link") and not os.path.exists(tmp_path / "state")   # nothing taken


def test_a_bad_file_and_a_busy_state_are_one_line(tmp_path):
    code, line = one_line_refusal(tmp_path, "--config", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json" in line and "no such file" in line
    (tmp_path / "bad.json").write_text("{\"leds\": ")
    code, line = one_line_refusal(tmp_path, "--config", str(tmp_path / "bad.json"))
    assert code == 2 and "not valid JSON" in line
    code, line = one_line_refusal(tmp_path, "--group", "no-such-group-here")
    assert code == 2 and line == "osada: device: --group no-such-group-here: no such group on this system"
    proc = device(tmp_path)
    try:
        code, line = one_line_refusal(tmp_path)
        assert code == 3 and "already has a device: pid %d" % proc.pid in line
    finally:
        stop(proc)


def test_a_strip_it_cannot_drive_is_one_line_and_takes_nothing(tmp_path, monkeypatch, capsys):
    """Blinka's refusal (here: the libraries missing; on a Pi: not root for
    GPIO18) comes after the pty is taken: it is given back, and the state
    directory made for it goes too."""
    import argparse

    from osada.device import cli
    from osada_fw.hal import blinka

    def missing():
        raise blinka.PiError("the Raspberry Pi libraries are not installed (no module named 'neopixel'): "
                             "pip install 'osada[pi]'")

    monkeypatch.setattr(blinka, "libraries", missing)
    p = argparse.ArgumentParser()
    cli.add_parser(p.add_subparsers())
    args = p.parse_args(["device", "--link", str(tmp_path / "link"), "--state", str(tmp_path / "state")])
    assert args.func(args) == 4
    out, err = capsys.readouterr()
    assert out == "" and err == ("osada: device: the Raspberry Pi libraries are not installed (no module named "
                                 "'neopixel'): pip install 'osada[pi]'\n")
    assert os.listdir(tmp_path) == []                     # no link, no state directory
