"""The firmware app inside real MicroPython (the official WebAssembly VM):
the real Pico hardware layer (hal/pico.py) over fake machine/neopixel
modules.  It boots, answers protocol lines exactly as on CPython, and renders
frames through the neopixel driver."""

import json
import os

import pytest

from osada import mpyvm
from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.fake import FakeHardware, ManualClock

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMOKE = os.path.join(ROOT, "tests", "mpy", "fw_smoke.py")

REQUESTS = [
    {"id": 1, "cmd": "hello"},
    {"id": 2, "cmd": "new", "players": 3, "seed": 7},
    {"id": 11, "cmd": "forecast", "stamp": [1, 0], "s": [1, 9, 18, 27, 68, 32], "l": 1},   # F13: drawn
    {"id": 12, "cmd": "forecast", "stamp": [1, 5], "s": [4] * 6, "l": 0},                # stale: refused
    {"id": 3, "cmd": "act", "action": {"do": "end_turn"}},
    "garbage \x03 line",
    {"id": 4, "cmd": "act", "action": {"do": "hit", "enemy": 99}},
    {"id": 5, "cmd": "act", "action": {"do": "move"}},
    {"id": 6, "cmd": "act", "action": {"do": "reveal"}},
    {"id": 7, "cmd": "undo", "confirm": True},
    {"id": 8, "cmd": "state"},
    {"id": 9, "cmd": "bogus"},
    {"id": 10, "cmd": "log"},
]


def _request_bytes():
    lines = [r if isinstance(r, str) else json.dumps(r) for r in REQUESTS]
    return ("\n".join(lines) + "\n").encode()


def _after_new(lines):
    """The output from the `new` reply on (before it: the boot game, seeded by entropy)."""
    objs = [json.loads(ln) for ln in lines]
    k = next(i for i, o in enumerate(objs) if o.get("id") == 2)
    return objs[k:]


def _cpython_run(tmp_path, layout):
    cfg = validate({"state_dir": str(tmp_path), "leds": {"layout": layout}})
    clock = ManualClock()
    hw = FakeHardware(led_count(cfg), str(tmp_path), clock=clock, seed=3)
    app = App(hw, cfg)
    app.boot()
    hw.serial.host_send(_request_bytes())
    for _ in range(50):
        clock.advance(5)
        app.tick()
    return hw.serial.host_take().decode().splitlines()


@pytest.mark.parametrize("layout", ["spokes", "ring24"])
def test_firmware_boots_answers_and_renders_in_micropython(tmp_path, layout):
    req = tmp_path / "req.jsonl"
    req.write_bytes(_request_bytes())
    proc = mpyvm.run(SMOKE, ["/req.jsonl", layout],
                     mounts=mpyvm.project_mounts() + [
                         (os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw"),
                         (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")],
                     files=[(str(req), "/req.jsonl")])
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    frame = json.loads(lines.pop())
    boot = json.loads(lines[0])
    assert isinstance(boot.pop("restore_ms"), int)
    assert boot == {"ev": "boot", "restored": False, "seq": 0}
    mpy = _after_new(lines)
    cpy = _after_new(_cpython_run(tmp_path / "cpy", layout))
    assert mpy == cpy                            # same replies and events, line for line
    replies = {o["id"]: o for o in mpy if "id" in o and o["id"] is not None}
    assert replies[4]["ok"] is False and replies[4]["rule"] == "R10"
    assert replies[9]["ok"] is False and "unknown command" in replies[9]["error"]
    assert any("ok" in o and o["id"] is None and o["ok"] is False for o in mpy)   # the garbage line
    assert replies[8]["seq"] == 2                                          # 3 acts, one undone
    # the frame went out through the neopixel driver, 24 LEDs, and lights the board
    buf = bytes.fromhex(frame["frame"])
    assert len(buf) == 72 and frame["writes"] >= 1 and any(buf)
