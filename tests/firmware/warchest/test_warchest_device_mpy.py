"""War Chest's round tracker (osada_fw/warchest/mode.py) inside real
MicroPython (the WebAssembly VM), on the Pico hardware layer over fake
machine/neopixel (warchest_fw.py): drawing the ring allocates nothing,
Siege loads nothing of the tracker and finds its game as it was, what the
tracker holds on the heap, and the protocol's replies and events are
CPython's, line for line."""

import json
import os

import pytest
from warchest_fw import SCRIPT

from osada import mpyvm
from tests.support.device import Dev

pytestmark = pytest.mark.micropython

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
HEAP_LIMIT = 28 * 1024         # what the tracker may hold while it runs, the game menu's module included
                               # (bytes, compiled from source in the VM: less from .mpy on the Pico)


@pytest.fixture(scope="module")
def out():
    proc = mpyvm.run(os.path.join(HERE, "warchest_fw.py"), [], mounts=mpyvm.project_mounts() + [
        (os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw"),
        (os.path.join(ROOT, "tests", "mpy", "fakes"), "/fakes")], timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    res = {}
    for line in proc.stdout.decode().splitlines():
        key, _, rest = line.partition(" ")
        res.setdefault(key, []).append(rest)
    return res


def test_drawing_the_ring_allocates_nothing_on_micropython(out):
    """The counts, the flip's show, the cursor with a refusal's flash and the initiative blinking (W16), a win (W7)."""
    allocs = dict(x.split() for x in out["alloc"])
    assert sorted(allocs) == ["counts", "cursor", "flip", "won"]
    assert set(allocs.values()) == {"0"}
    assert out["probe"] == ["True"]


def test_siege_loads_nothing_of_the_tracker_and_keeps_its_game_on_micropython(out):
    mods = dict(x.split() for x in out["modules"])
    assert mods["boot"] == mods["siege"] == mods["back"] == "-"
    assert set(mods["warchest"].split(",")) == {"osada_fw.warchest", "osada_fw.warchest.mode",
                                                 "osada_fw.warchest.view", "osada_fw.gamemenu"}
    seq, same = out["siege"][0].split()
    assert seq == "1" and same == "True"


def test_the_tracker_is_small_on_the_heap(out):
    """Smaller than Tank battle's dice mode; the rules core's units module it
    does not import would cost about 6 KB (mode.py's ALL_MARKERS)."""
    heap = dict(x.split() for x in out["heap"])
    assert 0 < int(heap["tracker"]) <= HEAP_LIMIT and int(heap["units"]) > 4096, heap


def test_w7_w11_w16_the_replies_and_events_are_cpythons_line_for_line(out, tmp_path):
    mpy = [json.loads(x) for x in out["msg"]]
    dev = Dev(tmp_path)
    dev.ok("game", game="warchest")
    cpy = []
    n = 10
    for fields in SCRIPT:
        reply, pushed = dev.request("warchest", **fields)
        reply["id"] = n
        n += 1
        cpy += pushed + [reply]
    assert mpy == cpy
    replies = [m for m in mpy if "ok" in m]
    assert [r["ok"] for r in replies] == [True] * 4 + [False] + [True] * 9 + [False, True, False, False]
    assert replies[4]["rule"] == "W16" and replies[14]["rule"] == "W7"
