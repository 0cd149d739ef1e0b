"""The players' actions in phase 4 (shared_rules/siege/plays.py): R10-R17, one
or more tests per rule id of docs/rules.md.

Each test name starts with the rule id it checks (test_r12_...)."""

from rules_support import evs, game, refused, where

from shared_rules.siege.actions import OPS
from shared_rules.siege.plays import HANDLERS

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


def test_every_action_has_its_handler_at_its_op():
    # Game.apply_tuple calls HANDLERS[op]: the table is in actions.OPS's order
    assert [h.__name__ for h in HANDLERS] == ["_" + op for op in OPS]
