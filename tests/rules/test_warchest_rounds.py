"""War Chest's round in the rules core: the draw of 3 (W8) with the refill
(W9) and the shortage (W10), one action each in turn from the initiative
holder (W11; clockwise with 4, W25; an empty hand skipped, WA6), the
initiative claim (W16), the end at the last control marker (W7, W20)."""

import pytest

from shared_rules.errors import RuleError
from shared_rules.warchest.units import FIRST_GAME
from tests.mpy.warchest_play import game

A, B = list(FIRST_GAME[0]), list(FIRST_GAME[1])


def refused(g, line, rule):
    before = g.state()
    with pytest.raises(RuleError) as exc:
        g.apply_text(line)
    assert exc.value.rule == rule, str(exc.value)
    assert g.state() == before                      # a refused event changes nothing
    return str(exc.value)


def play(g, *lines):
    for line in lines:
        g.apply_text(line)


def test_w8_each_player_draws_3_once_a_round_before_any_action():
    g = game([A, B])
    refused(g, "p1 pass", "W8")
    play(g, "p1 draw")
    assert g.coins[0].sizes() == (6, 3, 0)
    refused(g, "p1 draw", "W8")
    play(g, "p2 draw")
    assert g.phase() == "use"
    refused(g, "p2 draw", "W11")                    # the round goes on


def test_w8_an_entered_draw_names_3_coins_of_the_bag():
    g = game([A, B], known=[0])
    refused(g, "p1 draw swordsman,royal", "W8")
    assert "bag holds 1 royal coin" in refused(g, "p1 draw royal,royal,swordsman", "W29")
    play(g, "p1 draw royal,swordsman,swordsman")
    assert g.coins[0].hand == {"royal": 1, "swordsman": 2}
    assert g.coins[0].bag == {"pikeman": 2, "crossbowman": 2, "light_cavalry": 2}


def test_w11_one_action_each_in_turn_from_the_holder():
    g = game([A, B], initiative=1)
    play(g, "p1 draw", "p2 draw")
    assert g.expected() == 1
    assert "player 2's action" in refused(g, "p1 pass", "W11")
    play(g, "p2 pass", "p1 pass", "p2 pass")
    refused(g, "p2 pass", "W11")
    play(g, "p1 pass", "p2 pass", "p1 pass")
    assert g.round_over() and g.phase() == "draw"
    refused(g, "p1 pass", "W11")


def test_w10_wa6_a_short_hand_draws_what_there_is_and_the_other_plays_on():
    g = game([A, B], known=[0])
    # player 1 puts 8 coins on the board over three rounds: only his royal coin cycles
    play(g, "p1 draw swordsman,pikeman,crossbowman", "p2 draw",
         "p1 deploy swordsman", "p2 pass", "p1 deploy pikeman", "p2 pass", "p1 deploy crossbowman", "p2 pass",
         "p1 draw swordsman,pikeman,crossbowman", "p2 draw",
         "p1 bolster swordsman", "p2 pass", "p1 bolster pikeman", "p2 pass", "p1 bolster crossbowman", "p2 pass",
         "p1 draw light_cavalry,light_cavalry,royal", "p2 draw",
         "p1 deploy light_cavalry", "p2 pass", "p1 bolster light_cavalry", "p2 pass", "p1 pass coin=royal",
         "p2 pass")
    assert g.coins[0].drawable() == 1
    refused(g, "p1 draw royal,royal,royal", "W10")
    play(g, "p1 draw royal", "p2 draw")             # the refill gives the one face-down coin
    assert g.coins[0].hand == {"royal": 1} and g.coins[1].sizes()[1] == 3
    play(g, "p1 pass coin=royal")
    assert g.expected() == 1
    play(g, "p2 pass", "p2 pass")                   # player 2 goes on alone
    refused(g, "p1 pass coin=royal", "W11")
    play(g, "p2 pass")
    assert g.round_over()


def test_w10_the_draw_takes_fewer_when_bag_and_discard_hold_fewer():
    g = game([A, B], known=[0])
    c = g.coins[0]
    c.bag, c.up, c.down = {"royal": 1}, {"swordsman": 1}, {}
    c.supply["swordsman"] += 1
    c.supply["pikeman"] += 2
    c.supply["crossbowman"] += 2
    c.supply["light_cavalry"] += 2
    assert g.problems() == []
    assert "draw 2 coins" in refused(g, "p1 draw royal,swordsman,swordsman", "W10")
    play(g, "p1 draw royal,swordsman")
    c = g.coins[0]
    assert c.hand == {"royal": 1, "swordsman": 1} and c.drawable() == 0


def test_w9_the_bags_last_coins_first_then_the_whole_discard():
    g = game([A, B], known=[0])
    c = g.coins[0]
    c.bag = {"pikeman": 1, "royal": 1}
    c.up, c.down = {"swordsman": 2}, {"crossbowman": 1}
    c.supply["light_cavalry"] += 2
    c.supply["pikeman"] += 1
    c.supply["crossbowman"] += 1
    assert g.problems() == []
    refused(g, "p1 draw swordsman,swordsman,crossbowman", "W9")
    refused(g, "p1 draw pikeman,royal,light_cavalry", "W29")       # never from the supply
    play(g, "p1 draw pikeman,royal,crossbowman")
    c = g.coins[0]
    assert c.hand == {"pikeman": 1, "royal": 1, "crossbowman": 1}
    assert c.bag == {"swordsman": 2} and c.up == {} and c.down == {}


def test_w9_a_hidden_players_refill_moves_the_face_up_coins_into_u():
    g = game([A, B])
    c = g.coins[1]
    c.nb, c.nd, c.cyc = 1, 2, {"archer": 1, "cavalry": 1, "royal": 1}
    c.up = {"scout": 2}
    c.supply["archer"] += 1
    c.supply["cavalry"] += 1
    c.units = {"lancer": [2]}
    assert g.problems() == []
    play(g, "p1 draw", "p2 draw")
    assert c.sizes() == (2, 3, 0)
    assert c.cycle() == {"archer": 1, "cavalry": 1, "royal": 1, "scout": 2} and c.up == {}


def test_w16_claim_initiative_once_a_round_not_by_the_holder():
    g = game([A, B])
    play(g, "p1 draw", "p2 draw")
    assert "holds the initiative marker already" in refused(g, "p1 initiative", "W16")
    play(g, "p1 pass", "p2 initiative")
    assert g.holder == 1 and g.coins[1].sizes()[2] == 1              # a coin face down
    assert "changed hands this round" in refused(g, "p1 initiative", "W16")
    play(g, "p1 pass", "p2 pass", "p1 pass", "p2 pass", "p1 draw", "p2 draw")
    assert g.expected() == 1                        # the new holder acts first next round
    play(g, "p2 pass", "p1 initiative")
    assert g.holder == 0


def test_w25_four_players_clockwise_from_the_holder_no_claim_from_a_teammate():
    types = [["archer", "footman", "scout"], ["knight", "pikeman", "lancer"],
             ["ensign", "berserker", "cavalry"], ["marshall", "mercenary", "swordsman"]]
    g = game(types, initiative=2)
    play(g, "p1 draw", "p2 draw", "p3 draw", "p4 draw")
    assert g.expected() == 2
    play(g, "p3 pass")
    assert g.expected() == 3
    play(g, "p4 pass")
    assert "teammate" in refused(g, "p1 initiative", "W25")
    play(g, "p1 pass", "p2 initiative")
    assert g.holder == 1


def test_w7_w20_the_last_control_marker_wins_at_once():
    g = game([A, B])
    g.markers[0] = [1, 5]
    play(g, "p1 draw", "p2 draw", "p1 deploy swordsman", "p2 pass", "p1 control swordsman")
    assert g.winner == 0 and g.phase() == "over"
    assert "game is over" in refused(g, "p2 pass", "W7")
