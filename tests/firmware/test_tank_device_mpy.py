"""«Кубики» (osada_fw/tank/mode.py) inside real MicroPython (the WebAssembly
VM), on the Pico hardware layer over fake machine/neopixel: a roll allocates
nothing, Siege loads nothing of the tank mode, and the protocol's roll
events add up and have the same fields as on CPython."""

import json
import os

import pytest

from osada import mpyvm
from tests.support.device import Dev

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "mpy", "tank_fw.py")


@pytest.fixture(scope="module")
def out():
    proc = mpyvm.run(SCRIPT, [], mounts=mpyvm.project_mounts() + [
        (os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw"),
        (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")], timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    res = {}
    for line in lines:
        key, _, rest = line.partition(" ")
        res.setdefault(key, []).append(rest)
    return res


def test_t12_t21_t29_t39_a_roll_of_every_test_allocates_nothing_on_micropython(out):
    """Collision with three units a side (TA9), the most it rolls."""
    allocs = dict(x.split() for x in out["alloc"])
    assert sorted(allocs) == ["0", "1", "2", "3", "4"]           # fire, suppress, morale, counter, collision
    assert set(allocs.values()) == {"0"}
    assert out["probe"] == ["True"]


def test_the_roll_requests_bench_counts_no_bytes_for_any_test_on_micropython(out):
    """The measuring request make bench asks the emulated Pico (osada_fw/tank/bench.py), here in the VM."""
    msgs = [json.loads(x) for x in out["bench"]]
    assert [m.get("ev") for m in msgs] == [None]                    # the reply alone: no roll event
    reply = msgs[0]
    assert reply["ok"] and reply["rolls"] == 5
    assert reply["bytes"] == {"fire": 0, "suppress": 0, "morale": 0, "counter": 0, "collision": 0}
    med, top = reply["roll12_us"]
    assert 0 <= reply["dice12_us"] <= top and med <= top
    leaky = [json.loads(x) for x in out["leaky"]][-1]               # a display that keeps 8 bytes a frame
    assert leaky["ok"] and all(b >= 5 * 8 for b in leaky["bytes"].values()), leaky


def test_siege_loads_nothing_of_the_tank_mode_on_micropython(out):
    """Nor, once a game is built (boot, new, undo), what built it
    (shared_rules/siege/newgame.py), nor outside a marshal game his rules."""
    mods = dict(x.split() for x in out["modules"])
    assert mods["boot"] == "-"                                     # the boot menu is the UI's
    assert mods["siege"] == "-"                                    # a host acted: menu closed, unloaded
    assert set(mods["tank"].split(",")) >= {"osada_fw.tank.mode", "osada_fw.tank.view", "shared_rules.tank.dice"}
    assert mods["back"] == "-"
    seq, same = out["siege"][0].split()
    assert seq == "1" and same == "True"
    assert mods["marshal"] == "shared_rules.siege.marshal"


def test_roll_events_add_up_and_have_cpythons_shape(out, tmp_path):
    mpy = [json.loads(x) for x in out["roll"]]
    # CPython: the same app, booted the same way; the VM's free seed is its own,
    # so compare everything but the faces, and the faces' own arithmetic
    dev = Dev(tmp_path)
    dev.ok("game", game="tank")
    evs = [m for m in mpy if m.get("ev") == "roll"]
    replies = [m for m in mpy if "ok" in m]
    assert [e["test"] for e in evs] == ["fire", "suppress", "morale", "counter", "collision", "collision"]
    assert replies[-1]["ok"] is False and "dice must be 1..12" in replies[-1]["error"]
    fire, sup, mor, cnt, col, col3 = evs
    assert fire["hits"] == sum(1 for f in fire["dice"] if f <= 2) and len(fire["dice"]) == 12
    assert fire["absorbed"] == min(4, fire["hits"]) and fire["damage"] == fire["hits"] - fire["absorbed"]
    assert len(sup["dice"]) == 18 and sup["hit"] == 3 and sup["morale"] is True
    assert sup["protection"] == 4 - fire["absorbed"]                # T16: what the fire left
    assert mor["passed"] is (sum(mor["dice"]) <= 7)
    assert cnt["dice"][0] != cnt["dice"][1] and len(cnt["tied"]) == cnt["ties"]
    assert col["totals"] == [col["dice"][0] + 7, col["dice"][1] + 8]
    assert col3["a"] == [7, 7] and col3["b"] == [8, 5, 7]                  # TA9: several units a side
    assert col3["totals"] == [f + s for f, s in zip(col3["dice"], [7, 7, 8, 5, 7])]
    ta, tb = col3["totals"][:2], col3["totals"][2:]
    assert col3["enter"] == [i for i, t in enumerate(col3["totals"]) if t > max(tb if i < 2 else ta)]
    # the same requests on CPython give events of the same shape
    for e in evs:
        req = {k: e[k] for k in ("a", "b", "steadiness") if k in e}
        if e["test"] in ("fire", "suppress"):
            req.update(hit=2, dice=e.get("intensity", e["n"]), protection=e["protection"], ambush=e["ambush"])
        if e["test"] == "morale":
            req["dice"] = len(e["dice"])
        reply, _ = dev.ok("roll", test=e["test"], **req)
        assert sorted(reply) == sorted([k for k in e if k != "ev"] + ["id", "ok"])
