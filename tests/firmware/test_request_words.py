"""What the device says to a request it refuses (osada_fw/link/commands.py,
osada_fw/tank/mode.py): values spelt as JSON, as the host sent them
(`got true`, `got "x"`, `got null`), never Python's `True` / `'x'` / `None`;
and Siege's `roll`, one free die, refuses numbers instead of ignoring them
(issue 26, items 9b and 9d)."""

import pytest
from test_tank_device import roll, tank_dev

from tests.support.device import Dev


@pytest.mark.parametrize("fields", [
    {"dice": 13}, {"test": "fire"}, {"dice": 2, "hit": 3}, {"sides": 20}, {"value": None},
])
def test_siege_roll_refuses_numbers_and_changes_nothing(tmp_path, fields):
    dev = Dev(tmp_path / "a", seed=9)
    twin = Dev(tmp_path / "b", seed=9)                  # the same free dice, never asked wrongly
    dev.ok("new", seed=3)
    twin.ok("new", seed=3)
    reply, pushed = dev.request("roll", **fields)
    assert reply["ok"] is False
    assert reply["error"] == "roll takes no numbers in Siege: it is one free die 1-6"
    assert [m for m in pushed if m.get("ev") == "roll"] == []
    assert dev.ok("roll")[0]["value"] == twin.ok("roll")[0]["value"]    # no die was thrown


def test_siege_roll_with_only_its_id_still_rolls(tmp_path):
    dev = Dev(tmp_path)
    reply, pushed = dev.ok("roll")
    assert 1 <= reply["value"] <= 6 and pushed == [{"ev": "roll", "value": reply["value"]}]


def test_an_unknown_command_is_named_as_json(tmp_path):
    dev = Dev(tmp_path)
    reply, _ = dev.request("rol")
    assert reply["ok"] is False and reply["error"].startswith('unknown command "rol"; known: ')


@pytest.mark.parametrize("fields, error", [
    ({"test": "fire", "dice": True}, "fire: dice must be 1..12 (got true)"),
    ({"test": "fire", "dice": None}, "fire: dice must be 1..12 (got null)"),
    ({"test": "fire", "dice": "6"}, 'fire: dice must be 1..12 (got "6")'),
    ({"test": "fire", "dice": 6.5}, "fire: dice must be 1..12 (got 6.5)"),
    ({"test": "fire", "ambush": "yes"}, 'fire: ambush must be true or false (got "yes")'),
    ({"test": "fire", "ambush": None}, "fire: ambush must be true or false (got null)"),
    ({"test": "morale", "hit": 3}, 'morale takes dice, steadiness; not "hit"'),
    ({"test": "counter", "dice": 1}, 'counter takes no numbers; not "dice"'),
    ({"test": "dance"}, 'test must be one of fire, suppress, morale, counter, collision (got "dance")'),
    ({"test": True}, "test must be one of fire, suppress, morale, counter, collision (got true)"),
    ({"test": "collision", "a": [7, True]},
     "collision: a must be 0..12, its unit's steadiness, or a list of 1..3 of them (one per unit; got [7, true])"),
    ({"test": "collision", "b": "7"},
     'collision: b must be 0..12, its unit\'s steadiness, or a list of 1..3 of them (one per unit; got "7")'),
])
def test_tank_roll_errors_spell_the_value_as_json(tmp_path, fields, error):
    dev = tank_dev(tmp_path)
    roll(dev, test="morale", dice=3, steadiness=9)
    reply, pushed = dev.request("roll", **fields)
    assert reply["ok"] is False and reply["error"] == error
    assert [m for m in pushed if m.get("ev") == "roll"] == []


VM_SCRIPT = """
import json
import sys
sys.path.insert(0, "/fakes")
from memserial import Serial
from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.pico import PicoHardware

cfg = validate({"state_dir": "/state"})
serial = Serial()
app = App(PicoHardware(cfg, led_count(cfg), serial=serial), cfg)
app.boot()
for line in sys.stdin.read().splitlines():
    serial.data = (line + "\\n").encode()
    app.tick()
    app.tick()
    for out in bytes(serial.out).decode().splitlines():
        msg = json.loads(out)
        if "ok" in msg and msg.get("id") is not None:
            print(json.dumps(msg))
    serial.out = bytearray()
"""


@pytest.mark.micropython
def test_the_same_words_inside_micropython(tmp_path):
    """json.dumps is MicroPython's own on the device: true, null, "x", [7, true]."""
    import json
    import os

    from osada import mpyvm
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    reqs = [{"cmd": "roll", "dice": 13}, {"cmd": "rol"}, {"cmd": "game", "game": "tank"},
            {"cmd": "roll", "test": "fire", "dice": True}, {"cmd": "roll", "test": "fire", "dice": None},
            {"cmd": "roll", "test": "dance"}, {"cmd": "roll", "test": "morale", "hit": 3},
            {"cmd": "roll", "test": "collision", "a": [7, True]}]
    lines = "\n".join(json.dumps(dict(r, id=i + 1)) for i, r in enumerate(reqs)) + "\n"
    proc = mpyvm.run_code(VM_SCRIPT, stdin=lines, mounts=mpyvm.project_mounts() + [
        (os.path.join(root, "firmware", "osada_fw"), "/lib/osada_fw"),
        (os.path.join(root, "tests", "mpy", "fakes"), "/fakes")], timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = {m["id"]: m for m in map(json.loads, proc.stdout.decode().splitlines())}
    assert replies[1]["error"] == "roll takes no numbers in Siege: it is one free die 1-6"
    assert replies[2]["error"].startswith('unknown command "rol"; known: ')
    assert replies[3]["ok"] is True
    assert replies[4]["error"] == "fire: dice must be 1..12 (got true)"
    assert replies[5]["error"] == "fire: dice must be 1..12 (got null)"
    assert replies[6]["error"].endswith('(got "dance")')
    assert replies[7]["error"] == 'morale takes dice, steadiness; not "hit"'
    assert replies[8]["error"].endswith("(one per unit; got [7, true])")
