"""docs/raspberry-pi.md stays true: its frame note is the frame the strip gets
now (the bytes adafruit-circuitpython-neopixel hands to `neopixel_write` on
the Pi's HAL, beside the renderer's), and its commands are the ones that run."""

import os
import re

import pytest

from osada.device import cli
from osada_fw.hal.fake import ManualClock
from tests.support import pi_fakes
from tests.support.pi_fakes import blinka_app, frame_note, renderer_app

neopixel = pi_fakes.blinka_or_skip()

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DOC = os.path.join(ROOT, "docs", "raspberry-pi.md")


def doc():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


@pytest.fixture
def captured(monkeypatch):
    sent = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: sent.append(bytes(buf)))
    return sent


def test_the_note_frame(tmp_path, captured):
    """docs/raspberry-pi.md shows one frame, the strip's bytes beside the
    renderer's: the first frame of a new 2-player game, seed 2026 (as sent now)."""
    clock_pi, clock_sim = ManualClock(), ManualClock()
    pi = blinka_app(tmp_path / "pi", clock_pi)
    sim = renderer_app(tmp_path / "sim", clock_sim)
    for app, clock in ((pi, clock_pi), (sim, clock_sim)):
        app.hw.serial.host_send(b'{"id": 1, "cmd": "new", "players": 2, "seed": 2026}\n')
        for _ in range(2):
            clock.advance(40)
            app.tick()
    assert captured[-1] == sim.hw.leds.frame
    note = frame_note(pi.layout, sim.hw.leds.frame, captured[-1])
    assert note in doc(), "docs/raspberry-pi.md's frame note is out of date; now:\n" + note


def test_the_options_it_documents_are_the_commands():
    import argparse
    p = argparse.ArgumentParser(prog="osada")
    device = cli.add_parser(p.add_subparsers())
    options = sorted(set(re.findall(r"--[a-z]+", device.format_usage())))
    text = doc()
    assert options == ["--config", "--group", "--link", "--state"]
    for option in options:
        assert "| `%s" % option in text
    unit = open(os.path.join(ROOT, "hardware", "pi", "osada-device.service"), encoding="utf-8").read()
    start = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    assert start == ["ExecStart=/opt/osada/bin/osada device --config /etc/osada/config.json --state /var/lib/osada "
                     "--group dialout"]
    args = p.parse_args(start[0].split()[1:])
    assert (args.config, args.state, args.group) == ("/etc/osada/config.json", "/var/lib/osada", "dialout")
    assert start[0][len("ExecStart="):].replace("/opt/osada/bin/", "sudo /opt/osada/bin/") in text


def sessions():
    """The page's `$ osada ...` blocks: [(argv, the lines shown)] each."""
    import shlex
    out = []
    for block in re.findall(r"```\n(\$ osada .*?)```", doc(), re.S):
        steps = []
        for line in block.splitlines():
            if line.startswith("$ osada "):
                steps.append((shlex.split(line[len("$ osada "):], comments=True), []))
            else:
                steps[-1][1].append(line)
        out.append(steps)
    return out


def test_the_pages_send_session_is_what_a_board_answers(tmp_path, monkeypatch, capsys):
    """Issue 42 item 1: the page's `osada send` replies, from the app on fake hardware (the Pi's app is the
    Pico's, on other pins), as tests/host/test_doc_examples.py leaves them to this test."""
    from osada import cli as osada_cli
    from osada.link import client
    from osada_fw.app import App
    from osada_fw.config import led_count
    from osada_fw.hal.fake import FakeHardware
    from tests.support.app_link import CFG, AppTransport
    clock = ManualClock()
    app = App(FakeHardware(led_count(CFG), str(tmp_path), clock=clock, seed=4), CFG)
    app.boot()

    def link(_args):
        ln = client.Link(lambda: AppTransport(app, clock))
        ln.connect()
        return ln
    monkeypatch.setattr(osada_cli, "open_link", link)
    send = [s for s in sessions() if s[0][0][0] == "send"]
    assert len(send) == 1 and len(send[0]) == 3
    for argv, shown in send[0]:
        assert osada_cli.main(argv) == 0
        assert capsys.readouterr().out.splitlines() == shown, argv


def test_the_pages_refusal_is_what_osada_device_prints(tmp_path):
    import json
    import subprocess
    import sys
    device = [s for s in sessions() if s[0][0][0] == "device"]
    assert len(device) == 1
    (argv, shown), = device[0]
    assert argv == ["device", "--config", "wrong-pin.json"]
    (tmp_path / "wrong-pin.json").write_text(json.dumps({"pi": {"strip": 4}}))
    search = [os.path.join(ROOT, "host"), ROOT, os.path.join(ROOT, "firmware")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(search))
    proc = subprocess.run([sys.executable, "-m", "tests.support.pi_device", "--link", str(tmp_path / "link"),
                           "--state", str(tmp_path / "state")] + argv[1:],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == shown
