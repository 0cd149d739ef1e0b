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
