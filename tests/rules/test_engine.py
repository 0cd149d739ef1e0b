"""A game's course (shared_rules/siege/engine.py's turn machine, marshal.py): its
end (R50-R52), the modes and variants (R60-R63) and the rulebook's worked
turn; one or more tests per rule id of docs/rules.md.

Each test name starts with the rule id it checks (test_r51_...)."""

import pytest
from rules_support import ALL, evs, game, refused, where

from shared_rules.siege.catalog import KIND_IDS
from shared_rules.siege.engine import Game, RuleError
from shared_rules.siege.scenario import run as run_scenario

# ----------------------------------------------------------------------- end

def test_r50_last_building_lost_even_if_the_last_enemy_dies_with_it():
    g = game([("sdkfz", 1, "tank")], walls=[], buildings=[1], pool=[])
    ev = g.apply({"do": "move"})
    assert g.outcome == "lost" and where(g, 1) is None
    assert evs(ev, "lost") == [{"ev": "lost", "rule": "R50"}]
    refused(g, {"do": "end_turn"}, "R50")



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
