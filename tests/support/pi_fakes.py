"""The Raspberry Pi's pins for the Blinka HAL's tests (firmware/osada_fw/hal/blinka.py),
on a computer that is not a Pi: Blinka's own OS-agnostic board for the strip
(BLINKA_OS_AGNOSTIC=1: its `neopixel_write` takes the bytes and drops them, so a
test captures them), and stand-ins at the digitalio and rotaryio level for the
encoder and the buttons, which that board cannot press.

    LEVELS          BCM GPIO -> the level its stand-in digitalio pin reads
                    (True: released, pulled up; False: held to GND)
    DigitalInOut    digitalio.DigitalInOut's stand-in, reading LEVELS
    Encoder         rotaryio.IncrementalEncoder's: `position` set by the test
                    (ENCODERS: every one made, newest last)
    libraries()     hal.blinka.Libraries: the agnostic board's pins as the Pi's
                    D2-D27 (the strip's on its NEOPIXEL pin), the real
                    `neopixel` library, the stand-ins above

Needs Adafruit-Blinka and adafruit-circuitpython-neopixel (the dev extra);
tests call `blinka_or_skip()` first."""

import os
import types

LEVELS = {}
ENCODERS = []
_LIBRARY = []           # adafruit-circuitpython-neopixel's module, once imported


def blinka_or_skip():
    """Blinka on its OS-agnostic board, and the NeoPixel library; the test is
    skipped, with the reason, when they are not installed."""
    import pytest
    os.environ["BLINKA_OS_AGNOSTIC"] = "1"           # before Blinka's first import: its board
    pytest.importorskip("board", reason="Adafruit-Blinka is not installed (pip install -e '.[dev]')")
    if not _LIBRARY:
        _LIBRARY.append(pytest.importorskip("neopixel", reason="adafruit-circuitpython-neopixel is not installed"))
    return _LIBRARY[0]


class GPIO:
    """A Pi pin as the stand-ins know it."""

    def __init__(self, n):
        self.id = n

    def __repr__(self):
        return "GPIO%d" % self.id


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.pull = None

    def switch_to_input(self, pull=None):
        self.pull = pull

    @property
    def value(self):
        assert self.pull == Pull.UP, "a button's pin read without its pull-up"
        return LEVELS.get(self.pin.id, True)


class Pull:
    UP = "up"
    DOWN = "down"


digitalio = types.SimpleNamespace(DigitalInOut=DigitalInOut, Pull=Pull)


class Encoder:
    def __init__(self, pin_a, pin_b, divisor=4):
        self.pins = (pin_a.id, pin_b.id)
        self.position = 0
        ENCODERS.append(self)


def libraries(strip=18):
    """The HAL's libraries on the agnostic board; the strip's GPIO is its NEOPIXEL pin."""
    import board

    from osada_fw.hal.blinka import PI_GPIOS, Libraries
    if not _LIBRARY:                                  # a process of its own (pi_device.py)
        import neopixel
        _LIBRARY.append(neopixel)
    pins = types.SimpleNamespace(**dict(("D%d" % g, GPIO(g)) for g in PI_GPIOS))
    setattr(pins, "D%d" % strip, board.NEOPIXEL)
    LEVELS.clear()
    return Libraries(pins, digitalio, _LIBRARY[0], Encoder)


def blinka_app(state_dir, clock, order="GRB", brightness=96, seed=5, **pi):
    """A booted App on the Blinka HAL (libraries()), its serial line in memory
    (hal/fake.py MemorySerial), its clock `clock`; `pi`: the config's "pi" section."""
    from osada_fw.app import App
    from osada_fw.config import led_count, validate
    from osada_fw.hal.blinka import BlinkaHardware
    from osada_fw.hal.fake import MemorySerial
    cfg = validate({"leds": {"order": order, "brightness": brightness}})
    cfg["pi"] = pi or None
    hw = BlinkaHardware(cfg, led_count(cfg), str(state_dir), MemorySerial(), lib=libraries(pi.get("strip", 18)),
                        clock=clock)
    hw.free_roll_seed = lambda: seed                 # the boot game's entropy, as the simulator's --seed
    app = App(hw, cfg)
    app.boot()
    return app


def renderer_app(state_dir, clock, seed=5):
    """The same App on the simulator's fake hardware: the renderer's frames
    as they are, no library in between (FakeLeds.frame)."""
    from osada_fw.app import App
    from osada_fw.config import led_count, validate
    from osada_fw.hal.fake import FakeHardware
    cfg = validate({})
    app = App(FakeHardware(led_count(cfg), str(state_dir), clock=clock, seed=seed), cfg)
    app.boot()
    return app


def frame_note(layout, rendered, sent):
    """The note docs/raspberry-pi.md shows: one frame, LED by LED, as the
    renderer made it and as the NeoPixel library handed it to the strip."""
    from osada_fw.layouts import PART_NAMES
    rows = ["LED  cell                renderer (G R B)   neopixel_write (G R B)"]
    for i in range(layout.count):
        sector, part = layout.cell_of(i)
        cell = "sector %d %s" % (sector, part if isinstance(part, str) else PART_NAMES[part])
        mine, theirs = rendered[3 * i:3 * i + 3], sent[3 * i:3 * i + 3]
        rows.append("%3d  %-18s  %-17s  %s" % (i, cell, mine.hex(" "), theirs.hex(" ")))
    return "\n".join(rows)
