"""The LED strip driver (firmware/osada_fw/hal/leds.py) on both of its
runtimes, with stand-ins for the board's modules: MicroPython's `machine` and
`neopixel`, and CircuitPython's `board`, `digitalio` and `neopixel_write`."""

import os
import sys
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada_fw.hal.leds import PicoLeds  # noqa: E402

FAKES = os.path.join(ROOT, "tests", "mpy", "fakes")


def _micropython(monkeypatch):
    monkeypatch.syspath_prepend(FAKES)
    for name in ("machine", "neopixel"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def _circuitpython(monkeypatch, pins=30):
    sent = []
    monkeypatch.setitem(sys.modules, "machine", None)          # import machine -> ImportError
    board = types.ModuleType("board")
    for i in range(pins):
        setattr(board, "GP%d" % i, "board.GP%d" % i)
    digitalio = types.ModuleType("digitalio")

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = None

    digitalio.DigitalInOut = DigitalInOut
    digitalio.Direction = types.SimpleNamespace(OUTPUT="output", INPUT="input")
    npw = types.ModuleType("neopixel_write")
    npw.neopixel_write = lambda pin, buf: sent.append((pin.pin, pin.direction, bytes(buf)))
    for m in (board, digitalio, npw):
        monkeypatch.setitem(sys.modules, m.__name__, m)
    return sent


def test_micropython_frames_go_through_the_neopixel_buffer(monkeypatch):
    _micropython(monkeypatch)
    leds = PicoLeds(16, 24)
    frame = bytes(range(72))
    leds.write(frame)
    np = sys.modules["neopixel"].last
    assert np is leds.np and np.n == 24 and np.pin.n == 16
    assert (bytes(np.buf), np.writes) == (frame, 1)
    buf = np.buf
    leds.write(bytes(72))
    assert np.buf is buf                                   # copied in, not replaced
    assert (bytes(np.buf), np.writes) == (bytes(72), 2)


def test_circuitpython_frames_go_to_neopixel_write_on_the_gp_pin(monkeypatch):
    sent = _circuitpython(monkeypatch)
    leds = PicoLeds(16, 24)
    assert leds.np is None
    frame = bytes(range(72))
    leds.write(frame)
    leds.write(bytearray(72))
    assert sent == [("board.GP16", "output", frame), ("board.GP16", "output", bytes(72))]


def test_circuitpython_board_without_the_pin_says_which(monkeypatch):
    _circuitpython(monkeypatch, pins=10)
    with pytest.raises(ValueError, match="GP16"):
        PicoLeds(16, 24)
