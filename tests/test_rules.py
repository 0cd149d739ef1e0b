"""One or more tests per rule id of ../shared/spec/siege-rules.md (R1...R63).

Each test name starts with the rule id it checks (test_r21_...)."""

import pytest
from rules_support import ALL, evs, frozen, game, where

from shared_rules.catalog import KIND_IDS, KINDS, TOTAL_TOKENS
from shared_rules.engine import Game, RuleError
from shared_rules.scenario import run as run_scenario


def refused(g, action, rule):
    before = frozen(g)
    n = len(g.log)
    with pytest.raises(RuleError) as ei:
        g.apply(action)
    assert ei.value.rule == rule, str(ei.value)
    assert frozen(g) == before and len(g.log) == n
    return str(ei.value)


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


# -------------------------------------------------------------------- phase 4

def test_r10_strike_card_reaches_its_line_and_colour_only():
    g = game([("tiger", 3, "artillery"), ("tiger", 5, "artillery"), ("tiger", 3, "air")])
    g.apply({"do": "hit", "enemy": 1, "card": {"arm": "artillery", "color": "green"}})
    assert where(g, 1) == (3, "artillery", 2)
    assert "blue" in refused(g, {"do": "hit", "enemy": 2, "card": {"arm": "artillery", "color": "green"}}, "R10")
    assert "air" in refused(g, {"do": "hit", "enemy": 3, "card": {"arm": "artillery", "color": "green"}}, "R10")


def test_r10_any_colour_card_reaches_its_line_everywhere():
    g = game([("tiger", 1, "tank"), ("tiger", 6, "tank")])
    for eid in (1, 2):
        g.apply({"do": "hit", "enemy": eid, "card": {"arm": "tank", "color": "any"}})
    assert where(g, 1)[2] == 2 and where(g, 2)[2] == 2


def test_r10_counterattack_hits_its_colour_in_air_artillery_tank():
    g = game([("tiger", 5, "air"), ("tiger", 6, "tank"), ("tiger", 1, "air")])
    g.apply({"do": "hit", "enemy": 1, "card": {"type": "counterattack", "color": "blue"}})
    g.apply({"do": "hit", "enemy": 2, "card": {"type": "counterattack", "color": "blue"}})
    refused(g, {"do": "hit", "enemy": 3, "card": {"type": "counterattack", "color": "blue"}}, "R10")


def test_r10_rear_and_city_cannot_be_hit():
    g = game([("pz3", 2, "rear"), ("pz3", 2, "city")], buildings=[1, 3, 4, 5, 6])
    assert "rear" in refused(g, {"do": "hit", "enemy": 1}, "R10")
    assert "city" in refused(g, {"do": "hit", "enemy": 2}, "R10")
    refused(g, {"do": "hit", "enemy": 2, "card": {"type": "counterattack", "color": "red"}}, "R10")


def test_r10_one_for_all_counterattack_hits_city_of_its_colour():
    g = game([("pz3", 2, "city")], buildings=[1, 3, 4, 5, 6], variants=["one_for_all"])
    refused(g, {"do": "hit", "enemy": 1, "card": {"type": "counterattack", "color": "blue"}}, "R10")
    refused(g, {"do": "hit", "enemy": 1, "card": {"arm": "tank", "color": "red"}}, "R10")
    g.apply({"do": "hit", "enemy": 1, "card": {"type": "counterattack", "color": "red"}})
    assert where(g, 1) == (2, "city", 1)


def test_r10_unknown_enemy_refused():
    g = game([("pz3", 2, "air")])
    assert "no enemy 9" in refused(g, {"do": "hit", "enemy": 9}, "R10")


def test_r11_destroyed_by_a_play_is_the_current_players_trophy():
    g = game([("sdkfz", 1, "air")], players=3)
    ev = g.apply({"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "red"}})
    assert g.state()["trophies"] == {"1": ["sdkfz"], "2": [], "3": []}
    assert evs(ev, "destroyed")[0]["player"] == 1 and g.state()["discard"] == []


def test_r11_destroyed_by_a_wall_goes_to_the_discard():
    g = game([("sdkfz", 1, "tank")])
    g.apply({"do": "move"})
    assert where(g, 1) is None
    assert g.state()["discard"] == ["sdkfz"] and g.state()["trophies"]["1"] == []


def test_r11_shoulder_mode_gives_no_trophies():
    g = game([("sdkfz", 1, "air")], mode="shoulder")
    g.apply({"do": "hit", "enemy": 1})
    assert g.state()["trophies"] == {"1": [], "2": []} and g.state()["discard"] == ["sdkfz"]


def test_r12_il2_destroys_anywhere_but_the_rear():
    g = game([("maus", 3, "city"), ("tiger", 4, "rear")], buildings=[1, 2, 4, 5, 6])
    g.apply({"do": "kill", "enemy": 1, "card": {"type": "il2"}})
    assert where(g, 1) is None and g.state()["trophies"]["1"] == ["maus"]
    refused(g, {"do": "kill", "enemy": 2, "card": {"type": "il2"}}, "R12")


def test_r12_precise_shot_needs_a_strike_card_that_could_hit():
    g = game([("tiger", 4, "tank"), ("tiger", 5, "tank")])
    g.apply({"do": "kill", "enemy": 1, "card": {"type": "precise_shot", "with": {"arm": "tank", "color": "green"}}})
    assert where(g, 1) is None
    green_tank = {"type": "precise_shot", "with": {"arm": "tank", "color": "green"}}
    refused(g, {"do": "kill", "enemy": 2, "card": green_tank}, "R12")
    refused(g, {"do": "kill", "enemy": 2, "card": {"arm": "tank", "color": "blue"}}, "R12")
    refused(g, {"do": "hit", "enemy": 2, "card": {"type": "precise_shot", "with": {"arm": "tank", "color": "blue"}}},
            "R12")


def test_r12_a_counterattack_cannot_carry_a_precise_shot():
    # «Улучшает обычную ударную карту»: a strike card only, never a counterattack,
    # even one that could hit the enemy (green counterattack, enemy in sector 4)
    g = game([("tiger", 4, "tank")])
    for do in ("kill", "hit"):
        err = refused(g, {"do": do, "enemy": 1, "card": {"type": "precise_shot",
                                                         "with": {"type": "counterattack", "color": "green"}}},
                      "R12")
        assert "strike card" in err and "counterattack" in err
    g.apply({"do": "hit", "enemy": 1, "card": {"type": "counterattack", "color": "green"}})   # alone it hits
    assert where(g, 1)[2] == 2


def test_r12_all_for_one_only_with_the_variant_and_its_colour():
    plain = game([("tiger", 1, "air")])
    refused(plain, {"do": "kill", "enemy": 1, "card": {"type": "all_for_one", "color": "red"}}, "R12")
    g = game([("tiger", 1, "air"), ("tiger", 2, "rear")], variants=["all_for_one"])
    refused(g, {"do": "kill", "enemy": 1, "card": {"type": "all_for_one", "color": "blue"}}, "R12")
    refused(g, {"do": "kill", "enemy": 2, "card": {"type": "all_for_one", "color": "red"}}, "R12")
    g.apply({"do": "kill", "enemy": 1, "card": {"type": "all_for_one", "color": "red"}})
    assert where(g, 1) is None


def test_r13_hedgehog_holds_through_phase5_and_tokens_until_next_turn():
    g = game([("tiger", 1, "rear"), ("tiger", 2, "rear")], pool=["maus", "move_red"], rolls=[4])
    g.apply({"do": "hedgehog", "enemy": 1})
    refused(g, {"do": "hedgehog", "enemy": 2}, "R13")          # only one hedgehog
    g.apply({"do": "move"})
    assert where(g, 1) == (1, "rear", 3) and where(g, 2) == (2, "air", 3)
    g.apply({"do": "reveal"})                                  # maus: everyone moves
    g.apply({"do": "reveal"})                                  # move_red
    assert where(g, 1) == (1, "rear", 3) and where(g, 2) == (2, "tank", 3)
    assert g.state()["enemies"][0]["held"] is True
    g.apply({"do": "end_turn"})
    assert all(not e["held"] for e in g.state()["enemies"])    # removed at the next turn


def test_r13_hedgehog_reaches_rear_and_city():
    g = game([("pz3", 3, "city")], buildings=[1, 2, 4, 5, 6])
    g.apply({"do": "hedgehog", "enemy": 1})
    g.apply({"do": "move"})
    assert where(g, 1) == (3, "city", 2)


def test_r14_dot_on_a_standing_wall_at_most_two():
    g = game([], walls=[1, 2, 3, 4, 5], pool=["sdkfz"])
    refused(g, {"do": "dot", "sector": 6}, "R14")
    g.apply({"do": "dot", "sector": 1})
    refused(g, {"do": "dot", "sector": 1}, "R14")
    g.apply({"do": "dot", "sector": 2})
    assert "both" in refused(g, {"do": "dot", "sector": 3}, "R14")
    assert g.state()["dots"] == [1, 2]


def test_r15_push_back_sends_to_rear_of_same_sector_and_it_still_moves():
    g = game([("tiger", 5, "city"), ("pz3", 4, "rear")], buildings=[1, 2, 3, 4, 6], walls=[1, 2, 3, 4, 6])
    g.apply({"do": "push_back", "enemy": 1})
    assert where(g, 1) == (5, "rear", 3)
    refused(g, {"do": "push_back", "enemy": 2}, "R15")
    g.apply({"do": "move"})
    assert where(g, 1) == (5, "air", 3)


def test_r16_rebuild_only_an_empty_wall_position():
    g = game([], walls=[1, 2, 3], pool=["sdkfz"])
    refused(g, {"do": "rebuild", "sector": 2}, "R16")
    g.apply({"do": "rebuild", "sector": 4})
    assert g.state()["walls"] == [1, 2, 3, 4]


def test_r17_patrol_reveals_nothing_this_turn():
    g = game([("pz3", 1, "rear")], pool=["tiger", "tiger", "tiger"], rolls=[1, 1])
    g.apply({"do": "patrol"})
    refused(g, {"do": "patrol"}, "R17")
    g.apply({"do": "move"})
    refused(g, {"do": "reveal"}, "R30")
    g.apply({"do": "end_turn"})
    assert g.state()["pool"] == 3 and where(g, 1) == (1, "air", 2)
    g.apply({"do": "end_turn"})                                 # next turn reveals again
    assert g.state()["pool"] == 1


def test_plays_are_phase_4_only():
    g = game([("pz3", 1, "air")], pool=["sdkfz", "sdkfz"], rolls=[2, 2])
    g.apply({"do": "move"})
    refused(g, {"do": "hit", "enemy": 1}, "turn")
    refused(g, {"do": "move"}, "turn")


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


# ----------------------------------------------------------------------- end

def test_r50_last_building_lost_even_if_the_last_enemy_dies_with_it():
    g = game([("sdkfz", 1, "tank")], walls=[], buildings=[1], pool=[])
    ev = g.apply({"do": "move"})
    assert g.outcome == "lost" and where(g, 1) is None
    assert evs(ev, "lost") == [{"ev": "lost", "rule": "R50"}]
    refused(g, {"do": "end_turn"}, "R50")


def test_r50_he111_on_the_last_building_loses():
    g, ev = bomb([], walls=[], buildings=[4], roll=1)
    assert g.outcome == "lost"


def test_r51_won_when_pool_is_empty_and_no_enemy_on_the_board():
    g = game([("sdkfz", 1, "air"), ("sdkfz", 2, "air")], pool=[])
    g.apply({"do": "hit", "enemy": 1})
    assert g.outcome == "playing"
    ev = g.apply({"do": "hit", "enemy": 2})
    assert g.outcome == "won" and evs(ev, "won")[0]["rule"] == "R51"
    refused(g, {"do": "end_turn"}, "R51")


def test_r51_not_won_while_the_pool_has_tokens():
    g = game([("sdkfz", 1, "air")], pool=["sdkfz"])
    g.apply({"do": "hit", "enemy": 1})
    assert g.outcome == "playing"


def test_r51_a_win_in_the_enemy_phase_ends_the_game_in_its_own_turn():
    # the last enemy dies attacking a wall during end_turn's phase 5: the game
    # is won there; no phase 6 follows and the turn does not pass
    g = game([("sdkfz", 2, "tank")], pool=[], players=3)
    ev = g.apply({"do": "end_turn"})
    st = g.state()
    assert st["outcome"] == "won" and (st["turn"], st["player"]) == (1, 1)
    assert evs(ev, "turn") == [] and evs(ev, "pool_empty") == [] and ev[-1]["ev"] == "won"
    assert evs(ev, "wall_destroyed") == [{"ev": "wall_destroyed", "sector": 2, "cause": "enemy"}]


def test_r51_a_win_by_a_revealed_he111_keeps_the_turn_and_player():
    # player 2's phase 6: the He-111, the last token, bombs the last enemy
    g = game([("pz3", 3, "rear")], pool=["sabotage_air", "discard_one", "he111"], rolls=[3], players=2)
    g.apply({"do": "end_turn"})                     # turn 1: two events revealed
    assert (g.state()["turn"], g.state()["player"], g.state()["pool"]) == (2, 2, 1)
    ev = g.apply({"do": "end_turn"})                # turn 2: the pz3 moves, then the He-111
    st = g.state()
    assert evs(ev, "he111") == [{"ev": "he111", "sector": 3, "destroyed": [1], "stop": "wall", "at": 3}]
    assert st["outcome"] == "won" and (st["turn"], st["player"]) == (2, 2)
    assert evs(ev, "turn") == [] and evs(ev, "pool_empty") == []


def test_r52_ranking_by_points_then_number_of_trophies():
    g = game([("tiger", 1, "air", 1), ("sdkfz", 2, "air"), ("sdkfz", 3, "air"), ("sdkfz", 4, "air"),
              ("pz3", 5, "air", 1)], players=3, pool=[])
    g.apply({"do": "hit", "enemy": 1})                       # player 1: tiger, 3 points
    g.apply({"do": "end_turn"})                              # player 2
    for eid in (2, 3, 4):
        g.apply({"do": "hit", "enemy": eid})                 # player 2: 3 points, 3 trophies
    g.apply({"do": "end_turn"})                              # player 3
    ev = g.apply({"do": "hit", "enemy": 5})                  # player 3: 2 points
    assert g.outcome == "won"
    assert evs(ev, "won")[0]["ranking"] == [[2, 3, 3], [1, 3, 1], [3, 2, 1]]


# --------------------------------------------------------- modes and variants

def test_r60_solo_is_one_player():
    with pytest.raises(RuleError):
        Game(mode="solo", players=2)
    with pytest.raises(RuleError):
        Game(mode="standard", players=1)
    g = Game(mode="solo", seed=4)
    g.apply({"do": "end_turn"})
    assert g.state()["player"] == 1 and g.state()["turn"] == 2


def marshal_game(hand, enemies=(), pool=(), rolls=(), **kw):
    """Marshal mode with a known hand: the marshal draws the pool's top 3 at setup."""
    return game(enemies, pool=list(hand) + list(pool), rolls=rolls, mode="marshal", **kw)


def test_r60_marshal_holds_three_moves_draws_and_plays_one_tank_where_he_likes():
    g = marshal_game(["tiger", "he111", "move_red"], [("pz3", 1, "air")], pool=["sdkfz", "pz3"])
    assert g.state()["marshal_hand"] == ["tiger", "he111", "move_red"] and g.state()["pool"] == 2
    g.apply({"do": "move"})
    assert g.phase == 7 and where(g, 1) == (1, "artillery", 2)
    g.apply({"do": "marshal_play", "tokens": ["tiger"], "sector": 4})
    assert where(g, 2) == (4, "rear", 3)
    assert g.state()["player"] == 2 and g.phase == 4          # his play ends the turn
    g.apply({"do": "move"})                                    # next time he draws up to 3
    assert sorted(g.state()["marshal_hand"]) == sorted(["he111", "move_red", "sdkfz"])


def test_r60_marshal_two_tokens_by_die_tanks_first_never_chooses_the_he111():
    g = marshal_game(["move_red", "sdkfz", "he111"], [("pz3", 1, "air")], rolls=[1, 4])
    g.apply({"do": "move"})
    refused(g, {"do": "marshal_play", "tokens": ["he111"], "sector": 3}, "R60")
    refused(g, {"do": "marshal_play", "tokens": ["move_red", "sdkfz"], "sector": 3}, "R60")
    refused(g, {"do": "marshal_play", "tokens": ["move_red", "sdkfz", "he111"]}, "R60")
    refused(g, {"do": "marshal_play", "tokens": ["tiger"]}, "R60")
    ev = g.apply({"do": "marshal_play", "tokens": ["move_red", "sdkfz"]})
    kinds = [e["kind"] for e in evs(ev, "reveal")]
    assert kinds == ["sdkfz", "move_red"]                    # tank placed first, by the die (1)
    assert where(g, 2) == (1, "air", 1)                      # then move_red moved it
    assert g.state()["marshal_hand"] == ["he111"]


def test_r60_marshal_reveal3_draws_three_and_may_play_three_by_die():
    g = marshal_game(["reveal3", "pz3", "tiger"], pool=["sdkfz", "sdkfz", "sdkfz", "pz3"], rolls=[2, 3, 5, 6])
    g.apply({"do": "move"})
    g.apply({"do": "marshal_play", "tokens": ["reveal3", "pz3"]})
    assert g.pending == {"choice": "marshal_extra", "count": 3}
    assert sorted(g.state()["marshal_hand"]) == sorted(["tiger", "sdkfz", "sdkfz", "sdkfz"])
    refused(g, {"do": "end_turn"}, "R60")
    refused(g, {"do": "marshal_play", "tokens": ["tiger", "sdkfz", "sdkfz", "sdkfz"]}, "R60")
    refused(g, {"do": "marshal_play", "tokens": ["tiger"], "sector": 1}, "R60")
    g.apply({"do": "marshal_play", "tokens": ["tiger", "sdkfz", "sdkfz"]})
    assert [(e["kind"], e["sector"]) for e in g.state()["enemies"]] == [
        ("pz3", 2), ("tiger", 3), ("sdkfz", 5), ("sdkfz", 6)]
    assert g.state()["marshal_hand"] == ["sdkfz"] and g.state()["player"] == 2


def test_r60_marshal_after_patrol_only_moves():
    g = marshal_game(["tiger", "pz3", "sdkfz"], [("pz3", 1, "air")], pool=["sdkfz"])
    g.apply({"do": "patrol"})
    g.apply({"do": "move"})
    refused(g, {"do": "marshal_play", "tokens": ["tiger"], "sector": 1}, "R17")
    g.apply({"do": "end_turn"})
    assert g.state()["pool"] == 1 and len(g.state()["enemies"]) == 1


def test_r60_marshal_mode_wins_only_when_his_hand_is_empty_too():
    g = marshal_game(["sdkfz"], [("pz3", 1, "air", 1)])
    g.apply({"do": "hit", "enemy": 1})
    assert g.outcome == "playing"


@pytest.mark.parametrize("lone", ["move_red", "he111", "reveal3", "sabotage_air", "discard_one"])
def test_r60_a_lone_token_that_is_not_a_tank_is_not_a_play(lone):
    # «Выбирает 1 танк на руке ...» or two tokens, or nothing: no third way
    g = marshal_game([lone, "tiger", "move_green"], [("pz3", 1, "air")], pool=["sdkfz"])
    g.apply({"do": "move"})
    err = refused(g, {"do": "marshal_play", "tokens": [lone]}, "R60")
    assert "lone %s is not a play" % lone in err and "one tank, two tokens, or nothing" in err
    ev = g.apply({"do": "marshal_play", "tokens": [lone, "move_green"]})  # two events: a play
    assert evs(ev, "marshal_play") == [{"ev": "marshal_play", "tokens": [lone, "move_green"]}]
    assert g.state()["marshal_hand"][0] == "tiger" and lone not in g.state()["marshal_hand"]


def test_r60_a_lone_tank_is_a_play_in_a_sector_of_his_choice_or_rolled():
    for kind in ("sdkfz", "tiger"):
        g = marshal_game([kind, "he111", "move_red"], rolls=[5])
        g.apply({"do": "move"})
        g.apply({"do": "marshal_play", "tokens": [kind]})                # no sector: the die says 5
        assert where(g, 1) == (5, "rear", 1 if kind == "sdkfz" else 3)


def test_r60_the_extra_play_after_reveal3_may_be_a_lone_token_of_any_kind():
    g = marshal_game(["reveal3", "move_red", "tiger"], pool=["he111", "move_blue", "sdkfz"], rolls=[2, 4])
    g.apply({"do": "move"})
    g.apply({"do": "marshal_play", "tokens": ["reveal3", "move_red"]})
    assert g.pending == {"choice": "marshal_extra", "count": 3}
    g.apply({"do": "marshal_play", "tokens": ["he111"]})                 # "up to n": one is fine
    assert g.state()["discard"][-1] == "he111" and g.pending is None


def test_r51_r60_the_marshals_play_that_leaves_nothing_anywhere_wins_in_his_turn():
    # pool empty, board empty, his last two tokens played: reveal3 finds
    # nothing to draw, so nothing is left anywhere and the defenders have won
    # at once: no marshal_extra is asked, turn and player stay
    g = marshal_game(["reveal3", "move_red"], players=2)
    g.apply({"do": "end_turn"})
    assert g.phase == 7 and g.outcome == "playing"
    ev = g.apply({"do": "marshal_play", "tokens": ["reveal3", "move_red"]})
    st = g.state()
    assert st["outcome"] == "won" and st["pending"] is None
    assert (st["turn"], st["player"]) == (1, 1) and evs(ev, "turn") == []
    assert st["marshal_hand"] == [] and st["marshal_queue"] == []


def test_r51_r60_not_won_while_the_marshal_holds_a_token():
    g = marshal_game(["reveal3", "move_red", "he111"], players=2)
    g.apply({"do": "end_turn"})
    g.apply({"do": "marshal_play", "tokens": ["reveal3", "move_red"]})
    assert g.outcome == "playing" and g.pending == {"choice": "marshal_extra", "count": 3}
    ev = g.apply({"do": "marshal_play", "tokens": ["he111"]})            # his last token
    st = g.state()
    assert st["outcome"] == "won" and (st["turn"], st["player"]) == (1, 1) and evs(ev, "turn") == []


def test_r51_r60_a_lone_event_he_can_never_play_does_not_hold_off_the_win():
    # pool empty, his hand one move_red: no R60 play can ever use it (a lone
    # non-tank is no play, he draws nothing more), so it is no enemy to come;
    # without this ruling the game could never end
    g = marshal_game(["move_red"], [("sdkfz", 1, "air")])
    ev = g.apply({"do": "hit", "enemy": 1})
    st = g.state()
    assert st["outcome"] == "won" and st["marshal_hand"] == ["move_red"] and evs(ev, "won")
    g = marshal_game(["tiger"], [("sdkfz", 1, "air")])        # a tank he can still play
    g.apply({"do": "hit", "enemy": 1})
    assert g.outcome == "playing"
    g = marshal_game(["move_red", "he111"], [("sdkfz", 1, "air")])   # two events: a play
    g.apply({"do": "hit", "enemy": 1})
    assert g.outcome == "playing"


def test_r61_simple_battles_removes_eleven_tokens():
    g = Game(seed=9, variants=["simple_battles"])
    assert g.state()["pool"] == 43 - 11 and g.token_count() == 49
    kinds = [KIND_IDS[k] for k in g.pool]
    for gone in ("reveal4", "pz4h", "maus", "sabotage_tank", "sabotage_artillery"):
        assert gone not in kinds
    assert kinds.count("he111") == 1 and kinds.count("move_red") == 1


def test_r62_my_house_owner_out_turns_skipped_all_out_lost():
    g = game([("sdkfz", 2, "tank", 0), ("pz3", 3, "tank")], walls=[], players=3,
             variants=["my_house"], pool=[])
    g.apply({"do": "move"})            # sdkfz dies taking building 2; pz3 takes building 3
    st = g.state()
    assert st["out"] == [2, 3] and 2 not in st["buildings"] and g.outcome == "playing"
    g.apply({"do": "end_turn"})
    assert g.state()["player"] == 1                          # 2 and 3 are skipped
    g2 = game([("pz3", 1, "tank")], walls=[], players=2, variants=["my_house"],
              buildings=[1, 2, 5], pool=[], houses=[1, 5])
    g2.apply({"do": "move"})
    assert g2.outcome == "playing" and g2.state()["out"] == [1]
    g3 = game([("tiger", 1, "tank"), ("tiger", 5, "tank")], walls=[], players=2,
              variants=["my_house"], buildings=[1, 2, 5], pool=[], houses=[1, 5])
    ev = g3.apply({"do": "move"})
    assert g3.outcome == "lost" and evs(ev, "lost")[0]["rule"] == "R62"


def test_r63_supplies_low_is_recorded_and_changes_no_token():
    g = Game(seed=8, variants=["supplies_low"])
    plain = Game(seed=8)
    assert "supplies_low" in g.setup_dict()["variants"]
    assert g.state_json(events=[]) == plain.state_json(events=[])


# ------------------------------------------------------- the rulebook's turn

def test_rulebook_worked_example_turn():
    """«Пример хода»: Ivan and three friends; pz3 in green air, Tiger in blue
    artillery, one wall destroyed.  Two P-47 (green air) kill the pz3, M10
    Achilles (blue artillery) hits the Tiger, sandbags + barbed wire rebuild
    the wall; the Tiger moves to blue tank; the reveals are an Sd.Kfz. (die 6,
    rear of sector 6) and «Диверсия: авиация»."""
    scenario = {
        "players": 4,
        "board": {"walls": [1, 2, 3, 4, 5], "buildings": ALL,
                  "enemies": [{"kind": "pz3", "sector": 3, "line": "air"},
                              {"kind": "tiger", "sector": 5, "line": "artillery"}]},
        "pool": ["sdkfz", "sabotage_air", "tiger"],
        "rolls": [6],
        "actions": [
            {"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "green"}},
            {"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "green"}},
            {"do": "hit", "enemy": 2, "card": {"arm": "artillery", "color": "blue"}},
            {"do": "rebuild", "sector": 6},
            {"do": "move"},
            {"do": "reveal"},
            {"do": "reveal"},
            {"do": "end_turn"},
        ],
    }
    g, events = run_scenario(scenario)
    assert not evs(events, "refused")
    assert events[0]["hand_limit"] == 5
    st = g.state()
    assert st["trophies"]["1"] == ["pz3"]
    assert where(g, 2) == (5, "tank", 2)
    assert where(g, 3) == (6, "rear", 1)
    assert st["walls"] == ALL
    assert {"ev": "reveal", "kind": "sabotage_air"} in events
    assert st["discard"] == ["sabotage_air"] and st["pool"] == 1
    assert (st["turn"], st["player"], st["phase"]) == (2, 2, 4)


def test_r60_defenders_end_turn_stops_for_the_marshals_play():
    g = marshal_game(["tiger", "pz3", "sdkfz"], [("pz3", 1, "air")], pool=["sdkfz"])
    g.apply({"do": "end_turn"})                     # the defenders are done
    assert g.phase == 7 and g.state()["player"] == 1    # the marshal decides now
    g.apply({"do": "marshal_play", "tokens": ["tiger"], "sector": 2})
    assert g.state()["player"] == 2 and g.phase == 4
    g.apply({"do": "end_turn"})                     # next defender
    assert g.phase == 7
    g.apply({"do": "end_turn"})                     # the marshal plays nothing
    assert g.state()["player"] == 1 and g.phase == 4
