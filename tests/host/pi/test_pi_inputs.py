"""The encoder and the buttons on a Raspberry Pi (firmware/osada_fw/hal/blinka.py)
reach the game as on the Pico: the same presses and turns, made at the pins,
give the same events, the same game and the same frames through the Pi's HAL
(digitalio and rotaryio stand-ins, tests/support/pi_fakes.py) as through the
Pico's own (hal/pico.py over tests/mpy/fakes' `machine`, its encoder decoded in
its pin interrupts).  And Blinka's own rotaryio decoder, the one a Pi Zero 2 W
runs, counts what the Pico's counts."""

import importlib
import os
import sys
import time
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.blinka import Encoder
from osada_fw.hal.fake import ManualClock, MemorySerial
from osada_fw.siege.ui import M_MENU
from tests.support import pi_fakes
from tests.support.pi_fakes import GPIO, LEVELS, blinka_app

neopixel = pi_fakes.blinka_or_skip()

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FAKES = os.path.join(ROOT, "tests", "mpy", "fakes")
CW = (0b01, 0b00, 0b10, 0b11)          # one detent clockwise from rest (A and B pulled up: 11)
CCW = (0b10, 0b00, 0b01, 0b11)


@pytest.fixture
def pico(monkeypatch):
    """hal/pico.py on CPython: `machine` and `neopixel` the VM tests' stand-ins,
    `micropython` and time.ticks_diff stubs; the modules are forgotten afterwards."""
    monkeypatch.syspath_prepend(FAKES)
    for name in ("machine", "neopixel", "osada_fw.hal.pico", "osada_fw.hal.leds"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=lambda c: None))
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)   # MicroPython's; no wrap here
    module = importlib.import_module("osada_fw.hal.pico")
    machine = sys.modules["machine"]
    machine.Pin.levels.clear()
    machine.Pin.irqs.clear()
    yield module, machine
    for name in ("machine", "neopixel", "osada_fw.hal.pico", "osada_fw.hal.leds"):
        sys.modules.pop(name, None)
    sys.modules["neopixel"] = neopixel          # Blinka's library again, for the next test


class PicoBoard:
    """The real Pico HAL (PicoHardware) with the app on it; the pins set by hand."""

    def __init__(self, pico, tmp_path, clock):
        module, self.machine = pico
        self.cfg = validate({"state_dir": str(tmp_path)})
        hw = module.PicoHardware(self.cfg, led_count(self.cfg), serial=MemorySerial())
        hw.clock = clock                       # time.ticks_ms is MicroPython's
        hw.free_roll_seed = lambda: 5          # the Pi's seed too (pi_fakes.blinka_app)
        self.app = App(hw, self.cfg)
        self.app.boot()
        self.ab = 0b11

    def frame(self):
        return bytes(self.app.hw.leds.np.buf)

    def button(self, name, down):
        pin = self.cfg["encoder"]["switch"] if name == "encoder" else self.cfg["buttons"][name]
        self.machine.Pin.levels[pin] = 0 if down else 1

    def quadrature(self, ab):
        """A and B to `ab`, each edge through its pin's interrupt handler."""
        for bit, key in ((0b10, "a"), (0b01, "b")):
            if (ab ^ self.ab) & bit:
                pin = self.cfg["encoder"][key]
                self.machine.Pin.levels[pin] = 1 if ab & bit else 0
                self.ab ^= bit
                self.machine.Pin.irqs[pin](None)

    def turn(self, detents):
        for _ in range(abs(detents)):
            for ab in (CW if detents > 0 else CCW):
                self.quadrature(ab)


class PiBoard:
    """The Blinka HAL with the app on it; digitalio's levels and rotaryio's position set by hand."""

    def __init__(self, tmp_path, clock):
        self.app = blinka_app(tmp_path, clock)
        self.pins = self.app.hw.pins
        self.encoder = pi_fakes.ENCODERS[-1]
        self.sent = []

    def frame(self):
        return self.sent[-1]

    def button(self, name, down):
        gpio = self.pins["encoder"]["switch"] if name == "encoder" else self.pins["buttons"][name]
        LEVELS[gpio] = not down

    def turn(self, detents):
        self.encoder.position += detents


# (what, argument, ms to wait after it): turns, buttons down and up, holds
TIMELINE = [
    ("wait", None, 100), ("down", "action", 60), ("up", "action", 100),        # Siege from the boot menu
    ("turn", 3, 50), ("turn", -1, 50), ("turn", 2, 50),                        # the cursor
    ("down", "action", 40), ("up", "action", 80), ("turn", 1, 50),             # a cell's menu, and through it
    ("down", "back", 40), ("up", "back", 80),
    ("down", "encoder", 30), ("up", "encoder", 100),                           # a die rolled
    ("down", "back", 5), ("up", "back", 5), ("down", "back", 10), ("up", "back", 100),   # a bounce: no press
    ("down", "encoder", 900), ("up", "encoder", 100),                          # long: the new-game menu
    ("turn", 2, 60), ("down", "back", 40), ("up", "back", 80),
    ("down", "action", 50), ("down", "back", 900), ("up", "back", 20), ("up", "action", 200),  # both: game menu
    ("turn", 1, 100), ("down", "back", 40), ("up", "back", 200),
]


def drive(board, clock, step):
    what, arg, wait = step
    if what == "turn":
        board.turn(arg)
    elif what in ("down", "up"):
        board.button(arg, what == "down")
    for _ in range(wait // 10):
        clock.advance(10)
        board.app.tick()


def test_the_pis_inputs_reach_the_game_as_the_picos(pico, tmp_path, monkeypatch):
    clock_pico, clock_pi = ManualClock(), ManualClock()
    board_pico = PicoBoard(pico, tmp_path / "pico", clock_pico)
    board_pi = PiBoard(tmp_path / "pi", clock_pi)
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: board_pi.sent.append(bytes(buf)))
    seen = {"cursor": set(), "menu": False, "frames": set()}
    for step in TIMELINE:
        drive(board_pico, clock_pico, step)
        drive(board_pi, clock_pi, step)
        a, b = board_pico.app, board_pi.app
        assert board_pi.frame() == board_pico.frame(), step
        assert (a.mode.id, a.siege.ui.mode, a.siege.ui.cursor, a.siege.ui.sel) == \
            (b.mode.id, b.siege.ui.mode, b.siege.ui.cursor, b.siege.ui.sel), step
        seen["cursor"].add(b.siege.ui.cursor)
        seen["menu"] |= b.siege.ui.mode == M_MENU
        seen["frames"].add(board_pi.frame())
    out_pico = board_pico.app.hw.serial.host_take()
    out_pi = board_pi.app.hw.serial.host_take()
    assert out_pi == out_pico
    # not a still board: the presses and turns did something, the same on both
    assert len(seen["cursor"]) >= 3 and seen["menu"] and len(seen["frames"]) > 5
    assert b'"ev": "roll"' in out_pi


def test_held_at_boot(tmp_path):
    """hw.inputs.held() (BACK and ACTION held at boot, osada_fw/start.py) reads the Pi's pins too."""
    app = blinka_app(tmp_path, ManualClock())
    pins = app.hw.pins
    assert not app.hw.inputs.held("back")
    LEVELS[pins["buttons"]["back"]] = False
    assert app.hw.inputs.held("back") and not app.hw.inputs.held("action")
    LEVELS[pins["buttons"]["action"]] = False
    assert app.hw.inputs.held("action")


def test_pins_come_from_the_pi_section(tmp_path):
    app = blinka_app(tmp_path, ManualClock(), encoder={"a": 5, "b": 6}, buttons={"back": 26})
    assert pi_fakes.ENCODERS[-1].pins == (5, 6)
    assert app.hw.pins["encoder"]["switch"] == 22 and app.hw.pins["buttons"] == {"action": 23, "back": 26}
    LEVELS[26] = False
    assert app.hw.inputs.held("back")


class NoThread:
    """threading.Thread that never starts: the test polls the decoder itself."""

    def __init__(self, target=None, daemon=None):
        self.target = target

    def start(self):
        pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from((0b01, 0b10, 0b11)), max_size=80))
def test_blinkas_rotaryio_counts_as_the_pico(pico, flips):
    """Blinka's Linux rotaryio (its thread's one poll at a time) against the
    Pico's interrupt decoder, edge by edge over any walk of A and B (a bounce
    and a lost edge included: 0b11 flips both at once): the same detents,
    the same way round."""
    from adafruit_blinka.microcontroller.generic_linux import rotaryio
    module, machine = pico
    saved = (rotaryio.digitalio, rotaryio.threading)
    rotaryio.digitalio, rotaryio.threading = pi_fakes.digitalio, types.SimpleNamespace(Thread=NoThread)
    try:
        LEVELS.clear()
        machine.Pin.levels.clear()
        pico_enc = module.Encoder(3, 4)
        pi_enc = Encoder(rotaryio.IncrementalEncoder(GPIO(17), GPIO(27)))
        poll = pi_enc.enc._poll_encoder
        poll()                                        # the thread's first look: both pins up
        ab = 0b11
        for flip in flips:
            ab ^= flip
            LEVELS[17], LEVELS[27] = bool(ab & 0b10), bool(ab & 0b01)
            poll()
            machine.Pin.levels[3], machine.Pin.levels[4] = ab >> 1, ab & 1
            machine.Pin.irqs[3](None)
            assert pi_enc.take() == pico_enc.take()
    finally:
        rotaryio.digitalio, rotaryio.threading = saved
