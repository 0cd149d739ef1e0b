"""What the enemies do (shared_rules/siege/moves.py): their moves and the damage
they deal (R20-R26), the tokens revealed (R30-R35), the He-111 (R40-R42); one
or more tests per rule id of docs/rules.md.

Each test name starts with the rule id it checks (test_r21_...)."""

import pytest
from rules_support import ALL, evs, game, refused, where

# -------------------------------------------------------------------- phase 5

def test_r20_everyone_steps_inward_city_moves_clockwise():
    g = game([("pz3", 1, "rear"), ("pz3", 2, "air"), ("pz3", 3, "artillery"), ("pz3", 6, "city")],
             buildings=[2, 3, 4, 5])
    g.apply({"do": "move"})
    assert where(g, 1) == (1, "air", 2)
    assert where(g, 2) == (2, "artillery", 2)
    assert where(g, 3) == (3, "tank", 2)
    assert where(g, 4) == (1, "city", 2)          # 6 -> 1 clockwise, no building there


def test_r20_movement_is_simultaneous():
    # Both enter the city cell of sector 2 in the same step: one fight for the building.
    g = game([("sdkfz", 2, "tank"), ("sdkfz", 1, "city")], walls=[1, 3, 4, 5, 6], buildings=[2, 3, 4, 5, 6])
    ev = g.apply({"do": "move"})
    assert len(evs(ev, "building_destroyed")) == 1
    assert len(evs(ev, "destroyed")) == 1          # all alike: one takes the damage
    assert [e["sector"] for e in g.state()["enemies"]] == [2]


def test_r21_wall_is_removed_attackers_stay_one_takes_damage():
    g = game([("tiger", 4, "tank")])
    g.apply({"do": "move"})
    assert 4 not in g.state()["walls"] and where(g, 1) == (4, "tank", 2)
    g.apply({"do": "end_turn"})
    g.apply({"do": "move"})
    assert where(g, 1) == (4, "city", 1)           # next move: no wall, building (R23)


def test_r21_dot_is_removed_instead_and_wall_stays():
    g = game([("tiger", 4, "tank")], dots=[4])
    g.apply({"do": "move"})
    st = g.state()
    assert 4 in st["walls"] and st["dots"] == [] and where(g, 1) == (4, "tank", 2)


def test_r22_no_wall_enters_the_city_cell():
    g = game([("tiger", 4, "tank")], walls=[1, 2, 3, 5, 6], buildings=[1, 2, 3, 5, 6])
    g.apply({"do": "move"})
    assert where(g, 1) == (4, "city", 3)


def test_r23_building_destroyed_one_takes_damage_survivors_occupy():
    g = game([("tiger", 4, "tank"), ("tiger", 4, "tank", 2)], walls=[1, 2, 3, 5, 6])
    g.apply({"do": "move"})
    assert g.pending == {"choice": "damage", "candidates": [1, 2], "cause": "building", "sector": 4}
    g.apply({"do": "choose", "enemy": 2})
    assert 4 not in g.state()["buildings"]
    assert where(g, 1) == (4, "city", 3) and where(g, 2) == (4, "city", 1)


def test_r23_moving_within_the_city_destroys_the_next_building():
    g = game([("pz3", 2, "city")], buildings=[1, 3, 4, 5, 6])
    g.apply({"do": "move"})
    assert where(g, 1) == (3, "city", 1) and 3 not in g.state()["buildings"]


def test_r24_several_enemies_share_any_cell():
    g = game([("pz3", 1, "air"), ("tiger", 1, "air"), ("pz3", 2, "city"), ("pz3", 2, "city")],
             buildings=[1, 3, 4, 5, 6])
    ev = g.apply({"do": "end_turn"})
    assert [where(g, i)[:2] for i in (1, 2)] == [(1, "artillery")] * 2
    # the two in the city move on together into sector 3's city cell: its
    # building falls (R23), one of them takes the damage, both stay there
    assert [where(g, i) for i in (3, 4)] == [(3, "city", 1), (3, "city", 2)]
    assert evs(ev, "building_destroyed") == [{"ev": "building_destroyed", "sector": 3, "cause": "enemy"}]


def test_r25_asks_when_the_choice_matters_and_refuses_everything_else():
    g = game([("tiger", 3, "tank"), ("pz3", 3, "tank")], pool=["sdkfz"], rolls=[1])
    g.apply({"do": "end_turn"})
    assert g.pending["candidates"] == [1, 2] and g.phase == 5
    refused(g, {"do": "reveal"}, "R25")
    refused(g, {"do": "end_turn"}, "R25")
    refused(g, {"do": "choose", "enemy": 7}, "R25")
    g.apply({"do": "choose", "enemy": 1})
    # the interrupted end_turn goes on: the reveal happens and the turn passes
    assert where(g, 1) == (3, "tank", 2) and where(g, 3) == (1, "rear", 1)
    assert g.state()["player"] == 2 and g.pending is None


def test_r25_does_not_ask_when_candidates_are_alike():
    g = game([("pz3", 3, "tank"), ("pz3", 3, "tank")])
    g.apply({"do": "move"})
    assert g.pending is None and where(g, 1)[2] == 1 and where(g, 2)[2] == 2


def test_r25_choose_without_pending_is_refused():
    refused(game([("pz3", 3, "tank")]), {"do": "choose", "enemy": 1}, "R25")


def test_r26_clockwise_moves_every_enemy_in_its_line_rear_and_city_included():
    g = game([("pz3", 6, "rear"), ("pz3", 2, "artillery"), ("pz3", 3, "city")],
             buildings=[1, 2, 5, 6], pool=["move_cw"])
    g.apply({"do": "move"})       # 6 rear->air, 2 art->tank, 3 city->4 city (no building)
    g.apply({"do": "reveal"})
    assert where(g, 1) == (1, "air", 2) and where(g, 2) == (3, "tank", 2) and where(g, 3) == (5, "city", 1)
    assert 5 not in g.state()["buildings"]          # R23 on entering a built city cell


def test_r26_counter_clockwise():
    g = game([("pz3", 1, "rear", 0, True), ("pz3", 1, "air")], pool=["move_ccw"])
    g.apply({"do": "move"})
    g.apply({"do": "reveal"})
    assert where(g, 1) == (1, "rear", 2)            # held (R13)
    assert where(g, 2) == (6, "artillery", 2)


# -------------------------------------------------------------------- phase 6

def test_r30_tokens_resolve_one_at_a_time_extras_join_the_end():
    g = game([], pool=["pz2h", "reveal3", "sdkfz", "pz3", "tiger", "sdkfz", "sdkfz", "pz3", "tiger"],
             rolls=[1, 2, 3, 4, 5, 6, 1])
    ev = g.apply({"do": "end_turn"})
    kinds = [e["kind"] for e in evs(ev, "reveal")]
    # 2 due; pz2h adds 3 after the one already due (reveal3), which adds 3 more
    assert kinds == ["pz2h", "reveal3", "sdkfz", "pz3", "tiger", "sdkfz", "sdkfz", "pz3"]
    assert g.state()["pool"] == 1


def test_r30_reveal_action_reveals_exactly_one():
    g = game([], pool=["sdkfz", "pz3", "tiger"], rolls=[1, 2, 3])
    g.apply({"do": "move"})
    g.apply({"do": "reveal"})
    assert g.reveals == 1 and g.state()["pool"] == 2
    g.apply({"do": "reveal"})
    refused(g, {"do": "reveal"}, "R30")


def test_r31_tank_goes_to_the_rolled_sectors_rear_at_full_armor():
    g = game([], pool=["tiger"], rolls=[5])
    g.apply({"do": "move"})
    ev = g.apply({"do": "reveal"})
    assert evs(ev, "reveal")[0] == {"ev": "reveal", "kind": "tiger", "sector": 5, "enemy": 1}
    assert where(g, 1) == (5, "rear", 3)


def test_r32_pz2h_brings_three_more():
    g = game([], pool=["pz2h", "sdkfz", "sdkfz", "sdkfz", "sdkfz", "sdkfz"], rolls=[1] * 6)
    g.apply({"do": "move"})
    g.apply({"do": "reveal"})
    assert g.reveals == 4
    g.apply({"do": "end_turn"})
    assert g.state()["pool"] == 1


def test_r32_pz4h_moves_its_colour_itself_included():
    g = game([("pz3", 3, "air"), ("pz3", 4, "city"), ("pz3", 1, "air")],
             buildings=[1, 2, 3, 6], pool=["pz4h"], rolls=[4])
    g.apply({"do": "move"})      # 3 air->art, 4 city->5 city (R23 on 5? no building at 5), 1 air->art
    g.apply({"do": "reveal"})
    pz4h = [e for e in g.state()["enemies"] if e["kind"] == "pz4h"][0]
    assert (pz4h["sector"], pz4h["line"]) == (4, "air")
    assert where(g, 1) == (3, "tank", 2)            # green: moved again
    assert where(g, 2) == (5, "city", 2)            # now blue: not moved again
    assert where(g, 3) == (1, "artillery", 2)       # red: not moved


def test_r32_maus_moves_everyone():
    g = game([("pz3", 1, "rear"), ("pz3", 6, "air")], pool=["maus"], rolls=[2])
    g.apply({"do": "move"})
    g.apply({"do": "reveal"})
    assert where(g, 1) == (1, "artillery", 2) and where(g, 2) == (6, "tank", 2)
    assert where(g, 3) == (2, "air", 3)


def test_r32_panther_repairs_damaged_enemies_by_one():
    g = game([("tiger", 1, "rear", 1), ("pz3", 2, "rear", 2), ("tiger", 3, "rear", 2)],
             pool=["panther"], rolls=[6])
    g.apply({"do": "move"})
    g.apply({"do": "reveal"})
    assert [where(g, i)[2] for i in (1, 2, 3, 4)] == [2, 2, 3, 2]


def test_r33_colour_move_moves_that_colour_rear_and_city_included():
    g = game([("pz3", 5, "rear"), ("pz3", 6, "city"), ("pz3", 4, "rear")],
             buildings=[2, 3, 4, 5], pool=["move_blue"])
    g.apply({"do": "move"})      # 5 rear->air, 6 city->1 city, 4 rear->air
    g.apply({"do": "reveal"})
    assert where(g, 1) == (5, "artillery", 2)
    assert where(g, 2) == (1, "city", 2)            # red sector now: not moved again
    assert where(g, 3) == (4, "air", 2)


@pytest.mark.parametrize("kind", ["sabotage_air", "sabotage_artillery", "sabotage_tank", "discard_one"])
def test_r34_card_events_are_announced_with_no_board_effect(kind):
    g = game([("pz3", 1, "air")], pool=[kind])
    g.apply({"do": "move"})
    before = g.state()["enemies"]
    ev = g.apply({"do": "reveal"})
    assert evs(ev, "reveal") == [{"ev": "reveal", "kind": kind}]
    assert g.state()["enemies"] == before and g.state()["discard"] == [kind]


def test_r35_empty_pool_reveals_nothing_and_is_no_error():
    g = game([("pz3", 1, "rear")], pool=[])
    g.apply({"do": "move"})
    ev = g.apply({"do": "reveal"})
    assert evs(ev, "pool_empty") and g.outcome == "playing"
    g.apply({"do": "end_turn"})
    assert g.state()["turn"] == 2


# --------------------------------------------------------------------- He-111

def bomb(enemies, walls=ALL, buildings=ALL, dots=(), roll=1):
    g = game(enemies, walls=walls, buildings=buildings, dots=dots, pool=["he111"], rolls=[roll])
    g.phase = 6          # straight to the reveal, nothing moves first
    g.reveals = 1
    ev = g.apply({"do": "reveal"})
    return g, ev


LINE_OF_S = [("pz3", 2, "rear"), ("pz3", 2, "air"), ("pz3", 2, "artillery"), ("pz3", 2, "tank")]
LINE_OF_O = [("pz3", 5, "tank"), ("pz3", 5, "artillery"), ("pz3", 5, "air"), ("pz3", 5, "rear")]


def test_r40_r42_case1_wall_in_s():
    g, ev = bomb(LINE_OF_S + LINE_OF_O, roll=2)
    he = evs(ev, "he111")[0]
    assert he["destroyed"] == [1, 2, 3, 4] and (he["stop"], he["at"]) == ("wall", 2)
    st = g.state()
    assert 2 not in st["walls"] and 2 in st["buildings"] and len(st["enemies"]) == 4
    assert st["discard"] == ["he111", "pz3", "pz3", "pz3", "pz3"] and st["trophies"]["1"] == []


def test_r40_r42_case2_no_wall_building_in_s():
    g, ev = bomb(LINE_OF_S + LINE_OF_O, walls=[1, 3, 4, 5, 6], roll=2)
    he = evs(ev, "he111")[0]
    assert (he["stop"], he["at"]) == ("building", 2) and he["destroyed"] == [1, 2, 3, 4]
    assert 2 not in g.state()["buildings"] and 5 in g.state()["buildings"]


def test_r40_r42_case3_nothing_in_s_building_in_o():
    g, ev = bomb(LINE_OF_S + [("pz3", 2, "city")] + LINE_OF_O, walls=[1, 3, 4, 5, 6],
                 buildings=[1, 3, 4, 5, 6], roll=2)
    he = evs(ev, "he111")[0]
    assert (he["stop"], he["at"]) == ("building", 5) and he["destroyed"] == [1, 2, 3, 4, 5]
    assert 5 not in g.state()["buildings"] and len(g.state()["enemies"]) == 4


def test_r40_r42_case4_nothing_in_s_no_building_in_o_wall_in_o():
    g, ev = bomb(LINE_OF_S + [("pz3", 5, "city")] + LINE_OF_O, walls=[1, 3, 4, 5, 6],
                 buildings=[1, 3, 4, 6], roll=2)
    he = evs(ev, "he111")[0]
    assert (he["stop"], he["at"]) == ("wall", 5)
    assert he["destroyed"] == [1, 2, 3, 4, 5]       # o's city enemy too; o's lines survive
    assert 5 not in g.state()["walls"] and len(g.state()["enemies"]) == 4


def test_r40_r42_case5_crosses_the_whole_board():
    g, ev = bomb(LINE_OF_S + LINE_OF_O + [("pz3", 1, "air")], walls=[1, 3, 4, 6],
                 buildings=[1, 3, 4, 6], roll=2)
    he = evs(ev, "he111")[0]
    assert he["stop"] is None and sorted(he["destroyed"]) == list(range(1, 9))
    assert [e["id"] for e in g.state()["enemies"]] == [9]
    assert g.state()["walls"] == [1, 3, 4, 6] and g.state()["buildings"] == [1, 3, 4, 6]


def test_r40_dot_stops_the_bomber_and_the_wall_stays():
    g, ev = bomb(LINE_OF_S, dots=[2], roll=2)
    he = evs(ev, "he111")[0]
    assert (he["stop"], he["at"]) == ("dot", 2) and 2 in g.state()["walls"] and g.state()["dots"] == []


def test_r40_destroys_held_enemies_too():
    g, ev = bomb([("tiger", 3, "air", 0, True)], roll=3)
    assert where(g, 1) is None and g.hedgehog == 0


def test_r41_path_order_s_lines_wall_city_then_o_city_wall_lines():
    # From 6: its four lines, its wall (none), its city (no building, an enemy),
    # then 3's city (no building), 3's wall (none), 3's lines outward.
    g, ev = bomb([("pz3", 3, "rear"), ("pz3", 6, "city"), ("pz3", 6, "tank"), ("pz3", 3, "city"),
                  ("pz3", 6, "rear"), ("pz3", 3, "tank")],
                 walls=[1, 2, 4, 5], buildings=[1, 2, 4, 5], roll=6)
    assert evs(ev, "he111")[0]["destroyed"] == [5, 3, 2, 4, 6, 1]


def test_r50_he111_on_the_last_building_loses():
    g, ev = bomb([], walls=[], buildings=[4], roll=1)
    assert g.outcome == "lost"
