"""The `roll` request's `bench` field (osada_fw/tank/bench.py): `make bench`'s
Tank battle figures measured on the board, here on CPython with the fake
hardware.  What it measures is the bench's business (tests/bench/pico_bench.py);
this checks the request does what it says, leaves the player's dice alone and
refuses bad input with nothing changed.  Not timed."""

import sys

import pytest
from test_tank_device import ring, roll, tank_dev

from osada_fw import forget
from osada_fw.tank.bench import MAX_ROLLS
from osada_fw.tank.mode import TESTS


def snapshot(dev):
    """What a player or a host sees of the tank mode: its state reply and the ring."""
    reply, _ = dev.ok("state")
    return reply["tank"], ring(dev)


def test_bench_rolls_and_draws_each_roll_and_reports_the_figures(tmp_path):
    dev = tank_dev(tmp_path)
    writes = dev.hw.leds.writes
    reply, pushed = dev.ok("roll", bench=7)
    assert reply["bench"] == 7 and reply["rolls"] == 7
    med, top = reply["roll12_us"]
    assert isinstance(med, int) and isinstance(top, int) and 0 <= med <= top
    assert isinstance(reply["dice12_us"], int) and 0 <= reply["dice12_us"] <= top
    assert sorted(reply["bytes"]) == sorted(TESTS)
    assert set(reply["bytes"].values()) == {None}          # no gc.mem_alloc on CPython: not measured, not 0
    # every roll was drawn: 7 timed fire rolls, then a warm-up and 7 of each test
    assert dev.hw.leds.writes - writes >= 7 + len(TESTS) * 8
    assert not [m for m in pushed if m.get("ev") == "roll"]  # the bench's rolls are no one's: no event


def test_bench_leaves_the_players_numbers_last_roll_and_ring_as_they_were(tmp_path):
    dev = tank_dev(tmp_path)
    ev = roll(dev, test="fire", dice=5, hit=4, protection=2)
    dev.tick(n=2, ms=500)                                  # past the tumble: the result shows
    before = snapshot(dev)
    assert before[0]["last"] == ev
    rng = dev.app.free_rng.state()
    dev.ok("roll", bench=3)
    assert snapshot(dev) == before
    assert dev.app.free_rng.state() == rng                 # the bench rolls with its own generator
    assert dev.app.mode.id == "tank" and dev.app.mode.rolled == 0


def test_the_bench_module_loads_only_when_asked_and_goes_with_the_tank_mode(tmp_path):
    forget("osada_fw.tank.bench", always=True)                  # as a board that never measured
    dev = tank_dev(tmp_path)
    roll(dev, test="counter")
    assert "osada_fw.tank.bench" not in sys.modules
    dev.ok("roll", bench=1)
    assert "osada_fw.tank.bench" in sys.modules
    dev.ok("game", game="siege")
    assert "osada_fw.tank.bench" not in sys.modules


@pytest.mark.parametrize("fields, words", [
    ({"bench": 0}, "bench must be 1..%d" % MAX_ROLLS),
    ({"bench": MAX_ROLLS + 1}, "bench must be 1..%d" % MAX_ROLLS),
    ({"bench": -3}, "bench must be"),
    ({"bench": "50"}, "bench must be"),
    ({"bench": True}, "bench must be"),
    ({"bench": 2.5}, "bench must be"),
    ({"bench": None}, "bench must be"),
    ({"bench": [5]}, "bench must be"),
    ({"bench": 5, "test": "fire"}, "bench takes no numbers"),
    ({"bench": 5, "dice": 12}, "bench takes no numbers"),
])
def test_a_bad_bench_request_is_refused_and_changes_nothing(tmp_path, fields, words):
    dev = tank_dev(tmp_path)
    roll(dev, test="morale", dice=3, steadiness=9)
    dev.tick(n=2, ms=500)
    before = snapshot(dev)
    rng = dev.app.free_rng.state()
    writes = dev.hw.leds.writes
    reply, pushed = dev.request("roll", **fields)
    assert reply["ok"] is False and words in reply["error"], reply
    assert not [m for m in pushed if m.get("ev") == "roll"]
    assert dev.hw.leds.writes - writes <= 1                 # no bench frames (one ordinary tick's at most)
    assert snapshot(dev) == before and dev.app.free_rng.state() == rng
    reply, _ = dev.ok("roll", bench=1)                       # and the device measures on
    assert reply["rolls"] == 1
