"""The strip on a Raspberry Pi (firmware/osada_fw/hal/blinka.py): the bytes
adafruit-circuitpython-neopixel hands to `neopixel_write`, captured on Blinka's
OS-agnostic board, are the renderer's frames (the app's Frame: brightness,
gamma and the power cap applied, in the strip's channel order), one show() a
frame, for a game's frames and in every channel order."""

import json

import pytest

from osada_fw.config import ORDERS, validate
from osada_fw.hal.fake import ManualClock
from shared_rules.siege.autoplay import RandomPlayer
from shared_rules.siege.engine import PLAYING
from tests.support import pi_fakes
from tests.support.pi_fakes import blinka_app, renderer_app

neopixel = pi_fakes.blinka_or_skip()


@pytest.fixture
def captured(monkeypatch):
    """Every buffer the NeoPixel library sends, as bytes, in order."""
    sent = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: sent.append(bytes(buf)))
    return sent


def play(app, clock, steps=60, seed=3):
    """A seeded game driven over the serial line, one request or one
    frame's worth of time per step.  Yields after every tick."""
    app.hw.serial.host_send(b'{"id": 1, "cmd": "new", "players": 3, "seed": 11}\n')
    agent = RandomPlayer(seed, skill=1)
    for k in range(steps):
        clock.advance(40)
        app.tick()
        yield
        if k % 3 == 0 and app.siege.game.outcome == PLAYING:
            line = json.dumps({"id": k + 2, "cmd": "act", "action": agent.action(app.siege.game)})
            app.hw.serial.host_send(line.encode() + b"\n")


def frames(app, clock, sent, steps=60):
    """(captured buffer, the app's frame bytes then) for every frame written."""
    out = []
    seen = len(sent)
    for _ in play(app, clock, steps):
        assert len(sent) - seen <= 1, "a frame was sent in more than one show()"
        if len(sent) > seen:
            out.append((sent[-1], bytes(app.frame.buf)))
            seen = len(sent)
    return out


def test_the_strip_gets_the_frame_bytes_for_a_game(tmp_path, captured):
    clock = ManualClock()
    app = blinka_app(tmp_path, clock)
    assert captured[0] == bytes(72)                # the HAL's first frame: dark, before the app draws
    pairs = frames(app, clock, captured)
    assert len(pairs) > 30 and app.siege.game.log            # frames of a game in progress, actions played
    assert len({a for a, _ in pairs}) > 5                     # and they change
    for sent, frame in pairs:
        assert sent == frame


def test_the_strip_gets_the_renderers_frames(tmp_path, captured):
    """The same game on the simulator's fake strip (the renderer's frames, no
    library in between) and through Blinka's NeoPixel: byte for byte."""
    clock_pi, clock_sim = ManualClock(), ManualClock()
    pi = blinka_app(tmp_path / "pi", clock_pi)
    sim = renderer_app(tmp_path / "sim", clock_sim)
    rendered = []
    for _ in zip(play(pi, clock_pi), play(sim, clock_sim)):
        if sim.hw.leds.writes > len(rendered):
            rendered.append(sim.hw.leds.frame)
    assert captured[1:] == rendered and len(rendered) > 30


@pytest.mark.parametrize("order", ORDERS)
def test_every_channel_order(tmp_path, captured, order):
    """config.leds.order reaches the library as its pixel_order: the bytes
    sent are the GRB run's, each LED's three channels moved to `order`."""
    clock_grb, clock_x = ManualClock(), ManualClock()
    grb = blinka_app(tmp_path / "grb", clock_grb, order="GRB")
    sent_grb = frames(grb, clock_grb, captured, steps=30)
    del captured[:]
    x = blinka_app(tmp_path / "x", clock_x, order=order)
    sent_x = frames(x, clock_x, captured, steps=30)
    assert len(sent_x) == len(sent_grb) > 10
    for (a, fa), (b, fb) in zip(sent_grb, sent_x):
        assert (a, b) == (fa, fb)
        for i in range(0, len(a), 3):
            rgb = {"G": a[i], "R": a[i + 1], "B": a[i + 2]}
            assert b[i:i + 3] == bytes(rgb[c] for c in order)


def test_brightness_is_the_frames_not_the_librarys(tmp_path, captured):
    """The library runs at brightness 1.0: a dimmer config dims the Frame's
    bytes once, and the strip gets exactly those (no second scaling)."""
    clock_hi, clock_lo = ManualClock(), ManualClock()
    hi = blinka_app(tmp_path / "hi", clock_hi, brightness=200)
    assert hi.hw.leds.np.brightness == 1.0
    hi_frames = frames(hi, clock_hi, captured, steps=20)
    del captured[:]
    lo = blinka_app(tmp_path / "lo", clock_lo, brightness=20)
    lo_frames = frames(lo, clock_lo, captured, steps=20)
    assert all(s == f for s, f in hi_frames + lo_frames)
    assert sum(lo_frames[-1][0]) < sum(hi_frames[-1][0])


def test_a_config_the_strip_cannot_take_is_refused_at_start(tmp_path, captured):
    from osada_fw.config import ConfigError
    from osada_fw.hal.blinka import BlinkaHardware
    from osada_fw.hal.fake import MemorySerial
    cfg = validate({})
    cfg["pi"] = {"strip": 17}
    with pytest.raises(ConfigError, match="GPIO17.*GPIO10, GPIO12, GPIO18 or GPIO21"):
        BlinkaHardware(cfg, 24, str(tmp_path), MemorySerial(), lib=pi_fakes.libraries())
    assert captured == []                                     # nothing sent to a strip
