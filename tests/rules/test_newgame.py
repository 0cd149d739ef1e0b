"""A game's start (shared_rules/siege/newgame.py, over the catalogue's one table):
R1-R3, one or more tests per rule id of docs/rules.md.

Each test name starts with the rule id it checks (test_r2_...)."""

import pytest
from rules_support import ALL

from shared_rules.siege.catalog import KIND_IDS, KINDS, TOTAL_TOKENS
from shared_rules.siege.engine import Game

# ------------------------------------------------------------------ catalogue

def test_catalogue_has_49_tokens_in_one_table():
    assert sum(row[1] for row in KINDS) == TOTAL_TOKENS == 49
    assert len(set(KIND_IDS)) == len(KIND_IDS)


# ---------------------------------------------------------------------- setup

def test_r1_six_buildings_six_walls_no_dots():
    st = Game(seed=3).state()
    assert st["walls"] == ALL and st["buildings"] == ALL and st["dots"] == []


def test_r1_caught_off_guard_starts_without_walls():
    st = Game(seed=3, variants=["caught_off_guard"]).state()
    assert st["walls"] == [] and st["buildings"] == ALL


def test_r2_starting_enemies_one_per_air_cell_rest_in_pool():
    st = Game(seed=11).state()
    assert sorted(e["kind"] for e in st["enemies"]) == sorted(
        ["sdkfz", "sdkfz", "sdkfz", "pz3", "pz3", "tiger"])
    assert sorted(e["sector"] for e in st["enemies"]) == ALL
    assert all(e["line"] == "air" for e in st["enemies"])
    assert all(e["armor"] == {"sdkfz": 1, "pz3": 2, "tiger": 3}[e["kind"]] for e in st["enemies"])
    assert st["pool"] == 43


def test_r2_arrangement_and_pool_are_seeded():
    def arrangement(seed):
        g = Game(seed=seed)
        return [e["kind"] for e in g.state()["enemies"]], list(g.pool)
    assert arrangement(5) == arrangement(5)
    assert len({str(arrangement(s)) for s in range(12)}) > 6


@pytest.mark.parametrize("players,limit,trades", [(2, 6, 1), (3, 5, 1), (5, 5, 1), (6, 4, 2)])
def test_r3_hand_limit_and_trades_reported(players, limit, trades):
    ev = Game(players=players).events[0]
    assert (ev["ev"], ev["hand_limit"], ev["trades"], ev["discard_draw"]) == ("setup", limit, trades, 1)


def test_r3_solo_hand_limit_6_discard_and_draw_2():
    ev = Game(mode="solo").events[0]
    assert (ev["players"], ev["hand_limit"], ev["discard_draw"]) == (1, 6, 2)
