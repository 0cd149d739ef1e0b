"""«День Победы»'s toss (osada_fw/victory/mode.py) inside real MicroPython
(the WebAssembly VM), on the Pico hardware layer over fake machine/neopixel:
the same protocol script gives the same messages as on CPython (the lot forced,
both seats; the alternation, V8), a frame of the ring allocates nothing,
Siege loads nothing of it, and the device's random source gives both bits."""

import json
import os

import pytest

from osada import mpyvm
from shared_rules.rng import Rng
from tests.support.device import Dev

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCRIPT = os.path.join(ROOT, "tests", "mpy", "victory_fw.py")
SCRIPT_REQUESTS = ({"cmd": "state"}, {"cmd": "next"}, {"cmd": "toss"}, {"cmd": "toss"},
                   {"cmd": "next"}, {"cmd": "next"}, {"cmd": "press", "button": "encoder"},
                   {"cmd": "press", "button": "back"}, {"cmd": "toss", "ussr": "B"},
                   {"cmd": "toss", "ussr": "C"}, {"cmd": "next", "back": 1},
                   {"cmd": "toss", "again": True}, {"cmd": "state"})


@pytest.fixture(scope="module")
def out():
    proc = mpyvm.run(SCRIPT, [], mounts=mpyvm.project_mounts() + [
        (os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw"),
        (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")], drive="step", timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    res = {}
    for line in proc.stdout.decode().splitlines():
        key, _, rest = line.partition(" ")
        res.setdefault(key, []).append(rest)
    return res


class Bits:
    def __init__(self, *bits):
        self.bits = list(bits)

    def below(self, n):
        return self.bits.pop(0)


def cpython_messages(tmp_path):
    """The script's requests on CPython's app, the lot forced the same way."""
    dev = Dev(tmp_path)
    dev.ok("new", players=2, seed=5)                    # as the script: a Siege game, one action in
    dev.ok("act", action={"do": "patrol"})
    dev.ok("game", game="victory")
    dev.app.mode.rng = Bits(1, 0)
    msgs = []
    for k, req in enumerate(SCRIPT_REQUESTS):
        fields = dict(req)
        cmd = fields.pop("cmd")
        reply, pushed = dev.request(cmd, **fields)
        reply["id"] = 10 + k
        msgs += pushed + [reply]
    return msgs


def test_v8_the_protocol_script_says_the_same_in_micropython_as_on_cpython(out, tmp_path):
    mpy = [json.loads(x) for x in out["msg"]]
    assert mpy == cpython_messages(tmp_path)
    replies = [m for m in mpy if "ok" in m]
    assert [r["ok"] for r in replies] == [True, False, True, True, True, True, True, True, True, False, False,
                                          True, True]
    assert replies[1]["rule"] == "V8"
    lots = [(r["lot"], r["game"], r["starter"]) for r in replies if r.get("ok") and "lot" in r]
    assert lots == [("B", 1, "B"), ("B", 1, "B"), ("B", 2, "A"), ("B", 3, "B"), ("B", 3, "B"), ("A", 1, "A")]
    evs = [(e["did"], e["source"], e["game"], e["starter"], e["ussr"]) for e in mpy if e.get("ev") == "victory"]
    assert evs == [("toss", "host", 1, "B", "A"), ("next", "host", 2, "A", "A"), ("next", "host", 3, "B", "A"),
                   ("next", "buttons", 4, "A", "A"), ("back", "buttons", 3, "B", "A"),
                   ("seats", "host", 3, "B", "B"), ("new", "host", 1, None, "B"), ("toss", "host", 1, "A", "B")]
    assert all(e["saved"] is True for e in mpy if e.get("ev") == "victory")     # the VM's flash kept each


def test_a_frame_of_the_ring_allocates_nothing_on_micropython(out):
    allocs = dict(x.split() for x in out["alloc"])
    assert allocs == {"ready": "0", "toss": "0", "blink": "0", "steady": "0"}


def test_siege_loads_nothing_of_the_toss_on_micropython(out):
    mods = dict(x.split() for x in out["modules"])
    assert mods["boot"] == "-" and mods["siege"] == "-" and mods["back"] == "-"
    assert set(mods["victory"].split(",")) == {"osada_fw.victory", "osada_fw.victory.mode",   # no rules core
                                               "osada_fw.victory.view"}
    seq, same = out["siege"][0].split()
    assert seq == "1" and same == "True"
    heap = {k: int(v) for k, v in (x.split() for x in out["heap"])}
    toss, tank = heap["victory"] - heap["siege1"], heap["tank"] - heap["siege3"]
    assert 0 < toss < tank                                  # the toss's own heap: less than Tank battle's


def test_v8_the_devices_random_source_gives_the_same_lots_in_micropython(out):
    """The lot is Rng.below(2) of the device's free generator: the same bits on both runtimes."""
    for line in out["bits"]:
        seed, ones, n = (int(x) for x in line.split())
        rng = Rng(seed)
        assert ones == sum(rng.below(2) for _ in range(n))
        assert 0 < ones < n
