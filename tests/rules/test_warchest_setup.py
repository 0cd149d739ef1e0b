"""War Chest's setup in the rules core (docs/rules-war-chest.md):
the 74 coins and their counts as entered (W1, WA1, W28), the unit cards of 2
and 4 players (W3, W25) and the fixed sets (W3, W27), the starting bag and
supply (W4, W5), the control markers (W2, W25) and the initiative (W3, W6)."""

import pytest

from shared_rules.errors import RuleError
from shared_rules.warchest.game import Game
from shared_rules.warchest.units import FIRST_GAME, SCENARIOS, TYPES, check_counts, preset
from tests.mpy.warchest_play import COUNTS, game

A, B = list(FIRST_GAME[0]), list(FIRST_GAME[1])


def refused(rule, fn, *args, **kw):
    with pytest.raises(RuleError) as exc:
        fn(*args, **kw)
    assert exc.value.rule == rule, str(exc.value)
    return exc.value


def test_w1_wa1_w28_the_counts_are_the_16_types_summing_to_74():
    assert sorted(check_counts(COUNTS)) == sorted(TYPES) and len(TYPES) == 16
    assert sum(COUNTS.values()) == 74
    more = dict(COUNTS, scout=6)
    assert "75 coins" in str(refused("W1", check_counts, more))
    fewer = dict(COUNTS)
    del fewer["scout"]
    assert "scout" in str(refused("WA1", check_counts, fewer))
    refused("WA1", check_counts, dict(COUNTS, scout="5"))
    refused("W28", check_counts, dict(COUNTS, dragon=1))


def test_w28_the_archers_card_prints_4_coins():
    moved = dict(COUNTS, archer=5, scout=4)             # still 74, but not what the card prints
    assert "x4" in str(refused("W28", check_counts, moved))


def test_w4_a_type_needs_the_2_coins_of_the_starting_bag():
    refused("W4", check_counts, dict(COUNTS, scout=1, crossbowman=9))


def test_w3_first_game_sets_and_a_holds_the_initiative():
    assert preset("first") == [["swordsman", "pikeman", "crossbowman", "light_cavalry"],
                               ["archer", "cavalry", "lancer", "scout"]]
    g = game(preset("first"))
    assert g.holder == 0 and g.players == 2


def test_w3_four_cards_each_and_no_card_twice():
    refused("W3", game, [A[:3], B])
    refused("W3", game, [A, [B[0], B[1], B[2], A[0]]])
    refused("W28", game, [A, [B[0], B[1], B[2], "dragon"]])
    refused("W3", Game, 3, [A, B, B], COUNTS, 0)


def test_w25_four_players_three_cards_each_teams_alternate():
    types = [["archer", "footman", "scout"], ["knight", "pikeman", "lancer"],
             ["ensign", "berserker", "cavalry"], ["marshall", "mercenary", "swordsman"]]
    g = game(types)
    assert [g.side(p) for p in range(4)] == [0, 1, 0, 1]
    assert [sum(g.coins[p].cycle().values()) for p in range(4)] == [7] * 4      # W4: 3*2 + royal
    assert g.markers == [[5, 3], [5, 3]]                                        # 8 a team, 3 placed
    refused("W25", game, [types[0] + ["royal_guard"], types[1], types[2], types[3]])


def test_w27_scenario_sets():
    assert preset("gaugamela") == [["knight", "light_cavalry", "pikeman", "marshall"],
                                   ["cavalry", "footman", "mercenary", "royal_guard"]]
    assert preset("bannockburn")[1] == ["light_cavalry", "pikeman", "warrior_priest", "swordsman"]
    assert preset("crecy")[0] == ["archer", "ensign", "knight", "royal_guard"]
    assert sorted(SCENARIOS) == ["bannockburn", "crecy", "gaugamela"]
    refused("W27", preset, "waterloo")


def test_w4_w5_w2_the_start_bag_supply_and_markers_of_two_players():
    g = game([A, B], known=[0])
    mine = g.coins[0]
    assert mine.bag == {"swordsman": 2, "pikeman": 2, "crossbowman": 2, "light_cavalry": 2, "royal": 1}
    assert sum(mine.bag.values()) == 9
    assert mine.supply == {t: COUNTS[t] - 2 for t in A}
    theirs = g.coins[1]
    assert theirs.sizes() == (9, 0, 0) and theirs.cycle()["royal"] == 1
    assert g.markers == [[4, 2], [4, 2]]                # 6 each, one on each of 2 starting locations


def test_w6_wa6_the_initiative_holder_is_given():
    assert game([A, B], initiative=1).holder == 1
    refused("W6", Game, 2, [A, B], COUNTS, 2)
    refused("W6", Game, 2, [A, B], COUNTS, None)
