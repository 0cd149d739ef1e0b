"""F7-F9: the forecast agrees, fraction for fraction, worst and best, with
a brute force through the project's own engine (tests/forecast_support.py:
every draw, die and R25 answer played by Game itself) on 500 seeded random
small states (pools of 2-5 tokens, 1-4 enemies, hedgehogs, dots, patrols,
shoulder, solo and my_house among them), and 40 more with pools of 6 (their
trees are the large ones: a pool of 6 costs the brute force ten times a pool
of 5, so 40 of them keep `make test` within its time); and states made to
stress one reduction each: columns of enemies in one sector, long chains
with a panther and a tank to come."""

import time

import pytest
from forecast_support import (
    TOKENS,
    Brute,
    every_search,
    random_column_scenario,
    random_repair_scenario,
    random_scenario,
    random_states,
)

from shared_rules.siege.public import public_state
from shared_rules.siege.scenario import run

STATES = 500
SEED = 20261128
BIG = 40                    # states with a pool of 6
COLUMNS = 80                # states with a column of enemies in one sector
REPAIRS = 24                # states with a long chain, a panther and a tank to come


def _compare(scenario):
    brute = Brute(scenario).result()
    g, _ = run(scenario)
    diff = {}
    for name, f in every_search(public_state(g), g.setup_dict()):         # the compiled search and Python's
        assert f.exact
        assert sorted(f.values, key=str) == sorted(brute, key=str)   # the same targets (F4)
        diff.update({(name, t): (brute[t], f.values[t]) for t in brute if brute[t] != f.values[t]})
    return diff


def test_f7_f8_f9_fa2_500_random_states_agree_with_the_engine_s_brute_force():
    t0 = time.perf_counter()
    states = random_states(SEED, STATES, lambda rng: random_scenario(rng, 5))
    states += random_states(SEED + 1, BIG, lambda rng: dict(random_scenario(rng, 6), pool=[
        rng.choice(TOKENS) for _ in range(6)]))
    kinds = set()
    bad = []
    for i, sc in enumerate(states):
        kinds.update(sc["pool"])
        diff = _compare(sc)
        if diff:
            bad.append((i, sc, diff))
    assert not bad, bad[:3]
    assert len(states) == STATES + BIG and len(kinds) >= 15                  # every kind of token took part
    assert time.perf_counter() - t0 < 600


def test_f9_columns_of_enemies_agree_with_the_engine_s_brute_force():
    # a group behind one that lasts, or whose armor covers its sector's targets, is left out
    # (reduce._shadowed): 80 states with such a column, no rotation, bombers, moves, maus and
    # pz4h, worst and best alike
    states = random_states(SEED + 2, COLUMNS, random_column_scenario)
    bad = [(i, sc, diff) for i, sc in enumerate(states) for diff in [_compare(sc)] if diff]
    assert not bad, bad[:3]


def test_f9_d_repairs_in_long_chains_agree_with_the_engine_s_brute_force():
    # whether a panther's repair can still matter (reduce._split) is a count of the blows a group,
    # or a tank to come, can take: 24 states whose chains draw up to nine tokens, most of them one
    # colour's moves, a panther and a pz2h or a plain tank among them (the pools of the test
    # above are too short for a tank to take three blows)
    states = random_states(SEED + 4, REPAIRS, random_repair_scenario)   # 3 of them wrong before the fix
    bad = [(i, sc, diff) for i, sc in enumerate(states) for diff in [_compare(sc)] if diff]
    assert not bad, bad[:3]


@pytest.mark.parametrize("extra", [
    {"variants": ["my_house"], "players": 3, "houses": [2, 4, 6]},
    {"mode": "shoulder", "players": 4},
    {"mode": "solo"},
])
def test_fa6_modes_and_my_house_agree_with_the_brute_force(extra):
    sc = dict({"board": {"walls": [1, 3], "buildings": [2, 4, 6], "enemies": [
        {"kind": "pz3", "sector": 1, "line": "tank"}, {"kind": "tiger", "sector": 5, "line": "city"},
        {"kind": "sdkfz", "sector": 2, "line": "artillery"}]},
        "pool": ["move_red", "he111", "maus", "reveal3", "move_cw"]}, **extra)
    assert _compare(sc) == {}
