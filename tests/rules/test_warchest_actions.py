"""War Chest's nine actions and the coin flows of W12, checked by the rules
core: deploy (W14), bolster (W15), recruit (W17, WA4), pass (W18), move
(W19), control (W20), attack (W21), tactic (W22), the royal coin (W13), the
unit exceptions of W28 and W30 (priest, berserker, mercenary, pikeman,
archers and lancers) and free maneuvers (W23).  A refused event names its
rule and changes nothing."""

import pytest

from shared_rules.errors import RuleError
from shared_rules.warchest.units import FIRST_GAME
from tests.mpy.warchest_play import game

A, B = list(FIRST_GAME[0]), list(FIRST_GAME[1])
PRIESTS = ["warrior_priest", "berserker", "footman", "mercenary"]
PIKES = ["pikeman", "royal_guard", "knight", "marshall"]


def refused(g, line, rule):
    before = g.state()
    with pytest.raises(RuleError) as exc:
        g.apply_text(line)
    assert exc.value.rule == rule, str(exc.value)
    assert g.state() == before
    return str(exc.value)


def play(g, *lines):
    for line in lines:
        g.apply_text(line)
    assert g.problems() == []


def hands(g, p0, p1):
    """Both players draw (player 1 entered: his coins p0, player 2 hidden)."""
    play(g, "p1 draw " + p0, "p2 draw")


def test_w12_w14_deploy_puts_the_coin_on_the_board_one_unit_a_type():
    g = game([A, B], known=[0])
    hands(g, "swordsman,swordsman,royal", None)
    play(g, "p1 deploy swordsman")
    c = g.coins[0]
    assert c.units == {"swordsman": [1]} and c.hand == {"swordsman": 1, "royal": 1}
    play(g, "p2 deploy archer")
    assert g.coins[1].units == {"archer": [1]} and g.coins[1].cycle()["archer"] == 1
    assert "one unit of each type" in refused(g, "p1 deploy swordsman", "W14")
    assert "royal coin has no unit" in refused(g, "p1 deploy royal", "W13")
    refused(g, "p1 deploy archer", "W3")
    refused(g, "p1 deploy pikeman", "W29")                  # not in his hand


def test_w14_footman_two_units_and_a_controlled_location_needed():
    g = game([PRIESTS, PIKES], known=[0])
    hands(g, "footman,footman,royal", None)
    play(g, "p1 deploy footman", "p2 pass", "p1 deploy footman")
    assert g.coins[0].units == {"footman": [1, 1]}
    g2 = game([A, B])
    g2.markers[0] = [6, 0]
    g2.apply_text("p1 draw")
    g2.apply_text("p2 draw")
    assert "controls no location" in refused(g2, "p1 deploy swordsman", "W14")


def test_w15_bolster_a_unit_of_its_type_no_height_limit():
    g = game([A, B], known=[0])
    hands(g, "swordsman,swordsman,royal", None)
    refused(g, "p1 bolster pikeman", "W14")
    play(g, "p1 deploy swordsman", "p2 pass", "p1 bolster swordsman")
    assert g.coins[0].units == {"swordsman": [2]}


def test_w17_wa4_recruit_a_coin_face_down_one_from_the_supply_face_up():
    g = game([A, B], known=[0])
    hands(g, "swordsman,pikeman,royal", None)
    play(g, "p1 recruit swordsman coin=royal")
    c = g.coins[0]
    assert c.down == {"royal": 1} and c.up == {"swordsman": 1} and c.supply["swordsman"] == 1
    play(g, "p2 recruit cavalry")
    assert g.coins[1].sizes()[2] == 1 and g.coins[1].up == {"cavalry": 1} and g.coins[1].supply["cavalry"] == 1
    refused(g, "p1 recruit archer coin=pikeman", "W3")
    play(g, "p1 recruit swordsman coin=swordsman", "p2 pass")   # any coin pays: the last swordsman of the supply
    assert g.coins[0].supply.get("swordsman", 0) == 0
    assert "supply" in refused(g, "p1 recruit swordsman coin=pikeman", "W17")      # WA4: none left


def test_w18_pass_with_coins_left_and_w12_face_down_coins_are_named_only_when_entered():
    g = game([A, B], known=[0])
    hands(g, "swordsman,pikeman,royal", None)
    refused(g, "p1 pass", "format")                          # his coins are entered: which one?
    play(g, "p1 pass coin=pikeman")
    refused(g, "p2 pass coin=archer", "format")              # hidden: no coin named
    play(g, "p2 pass")
    assert g.coins[0].down == {"pikeman": 1} and g.coins[0].hand == {"swordsman": 1, "royal": 1}


def test_w19_w22_move_and_tactic_put_the_coin_face_up():
    g = game([A, B], known=[0])
    hands(g, "light_cavalry,light_cavalry,swordsman", None)
    refused(g, "p1 move light_cavalry", "W14")               # not deployed yet
    play(g, "p1 deploy light_cavalry", "p2 pass", "p1 move light_cavalry", "p2 pass")
    assert g.coins[0].up == {"light_cavalry": 1} and g.coins[0].units == {"light_cavalry": [1]}
    refused(g, "p1 tactic swordsman", "W14")
    play(g, "p1 deploy swordsman", "p2 pass", "p1 draw crossbowman,pikeman,swordsman", "p2 draw")
    play(g, "p1 tactic swordsman")
    assert g.coins[0].up == {"light_cavalry": 1, "swordsman": 1}


def test_w20_control_neutral_or_taken_from_the_enemy():
    g = game([A, B])
    play(g, "p1 draw", "p2 draw", "p1 deploy swordsman", "p2 deploy archer", "p1 control swordsman")
    assert g.markers == [[3, 3], [4, 2]]
    g.markers[0] = [6, 0]
    assert "no control marker on the board" in refused(g, "p2 control archer taken", "W20")
    g.markers[0] = [3, 3]
    play(g, "p2 control archer taken")
    assert g.markers == [[4, 2], [3, 3]]                    # his marker goes back to him


def test_w21_attack_sends_a_coin_of_the_target_to_the_box():
    g = game([A, B])
    play(g, "p1 draw", "p2 draw", "p1 deploy crossbowman", "p2 deploy cavalry", "p1 pass", "p2 bolster cavalry")
    refused(g, "p1 attack crossbowman p1:crossbowman", "W21")      # not an enemy unit
    assert "no lancer unit" in refused(g, "p1 attack crossbowman p2:lancer", "W21")
    play(g, "p1 attack crossbowman p2:cavalry")
    assert g.coins[1].units == {"cavalry": [1]} and g.coins[1].box == {"cavalry": 1}
    assert g.coins[0].up == {"crossbowman": 1} and g.coins[0].units == {"crossbowman": [1]}


def test_w21_an_attack_on_a_lone_coin_destroys_the_unit_which_may_deploy_again():
    g = game([A, B], known=[1])
    play(g, "p1 draw", "p2 draw cavalry,cavalry,scout", "p1 deploy swordsman", "p2 deploy cavalry",
         "p1 attack swordsman p2:cavalry")
    assert g.coins[1].units == {} and g.coins[1].box == {"cavalry": 1}
    play(g, "p2 deploy cavalry")
    assert g.coins[1].units == {"cavalry": [1]}


def test_w13_the_royal_coin_only_face_down_or_the_royal_guards_tactic():
    g = game([PIKES, PRIESTS], known=[0])
    hands(g, "royal_guard,royal,royal_guard", None)
    play(g, "p1 deploy royal_guard", "p2 pass")
    refused(g, "p1 move royal", "W13")
    play(g, "p1 tactic royal_guard coin=royal")
    assert g.coins[0].up == {"royal": 1} and g.coins[0].hand == {"royal_guard": 1}
    play(g, "p2 pass")
    refused(g, "p1 tactic royal_guard coin=pikeman", "W13")


def test_w28_archers_and_lancers_attack_only_by_their_tactic():
    g = game([B, A], known=[0])
    hands(g, "archer,archer,lancer", None)
    play(g, "p1 deploy archer", "p2 deploy swordsman")
    assert "by their own tactic" in refused(g, "p1 attack archer p2:swordsman", "W28")
    play(g, "p1 tactic archer", "p1 attack archer p2:swordsman free")       # the tactic's attack
    c = g.coins[1]
    assert c.units == {} and c.box == {"swordsman": 1}
    play(g, "p2 pass")
    refused(g, "p1 attack archer p2:swordsman free", "W11")  # the tactic's turn is over


def test_w28_an_unbolstered_lancer_cannot_attack_knights_and_the_marshall_gives_no_archer_attack():
    g = game([["lancer", "archer", "marshall", "scout"], ["knight", "pikeman", "footman", "ensign"]], known=[0])
    hands(g, "lancer,archer,marshall", None)
    play(g, "p1 deploy lancer", "p2 deploy knight", "p1 deploy archer", "p2 pass", "p1 deploy marshall")
    play(g, "p2 pass", "p1 draw lancer,marshall,royal", "p2 draw", "p1 tactic lancer")
    assert "unbolstered lancer" in refused(g, "p1 attack lancer p2:knight free", "W28")
    play(g, "p2 pass", "p1 tactic marshall")
    assert "by their own tactic" in refused(g, "p1 attack archer p2:knight free", "W28")


def test_w23_w11_a_free_maneuver_only_when_a_tactic_or_property_gives_one():
    g = game([A, B], known=[0])
    hands(g, "swordsman,swordsman,royal", None)
    play(g, "p1 deploy swordsman")
    assert "costs a coin" in refused(g, "p1 move swordsman free", "W11")


def test_w28_w30_pikemen_take_a_coin_of_the_attacker_to_the_box():
    g = game([A, B], known=[0])
    hands(g, "pikeman,swordsman,swordsman", None)
    play(g, "p1 deploy pikeman", "p2 deploy cavalry", "p1 pass coin=swordsman", "p2 attack cavalry p1:pikeman")
    assert g.coins[0].units == {} and g.coins[0].box == {"pikeman": 1}
    assert g.coins[1].units == {} and g.coins[1].box == {"cavalry": 1}      # even its only coin


def test_w30_the_warrior_priest_draws_after_attack_or_control_and_uses_it_at_once():
    g = game([PRIESTS, PIKES], known=[0])
    hands(g, "warrior_priest,warrior_priest,royal", None)
    play(g, "p1 deploy warrior_priest", "p2 pass")
    refused(g, "p1 priest_draw footman", "W30")              # no attack or control yet
    play(g, "p1 control warrior_priest", "p1 priest_draw footman")
    assert g.coins[0].hand == {"royal": 1, "footman": 1} and g.expected() == 0
    refused(g, "p2 pass", "W30")
    refused(g, "p1 pass coin=royal", "W30")                  # the drawn coin is the one used
    play(g, "p1 deploy footman")
    assert g.expected() == 1


def test_w30_wa3_a_berserker_pays_a_coin_off_its_unit_face_up_for_another_maneuver():
    g = game([PRIESTS, PIKES], known=[0])
    hands(g, "berserker,berserker,royal", None)
    play(g, "p1 deploy berserker", "p2 pass", "p1 bolster berserker", "p2 pass", "p1 recruit berserker coin=royal",
         "p2 pass")
    for coins in ("footman,footman,mercenary", "warrior_priest,warrior_priest,mercenary"):
        hands(g, coins, None)
        for t in coins.split(","):
            play(g, "p1 pass coin=" + t, "p2 pass")
    refused(g, "p1 berserker_pay", "W30")                    # only right after one of its maneuvers
    hands(g, "berserker,footman,royal", None)                # the refill: the whole discard
    play(g, "p1 tactic berserker", "p1 berserker_pay")
    assert g.coins[0].units == {"berserker": [1]} and g.coins[0].up == {"berserker": 2}
    play(g, "p1 move berserker free")
    assert "last coin" in refused(g, "p1 berserker_pay", "W30")


def test_w28_w30_a_recruited_mercenary_gives_its_unit_one_free_maneuver():
    g = game([PRIESTS, PIKES], known=[0])
    hands(g, "mercenary,royal,mercenary", None)
    play(g, "p1 recruit mercenary coin=royal")
    refused(g, "p1 move mercenary free", "W11")              # no mercenary on the board when recruited
    play(g, "p2 pass", "p1 deploy mercenary", "p2 pass", "p1 recruit mercenary coin=mercenary",
         "p1 control mercenary free")
    assert g.markers[0] == [3, 3]
    refused(g, "p1 move mercenary free", "W11")              # one maneuver


def test_w25_no_recruiting_for_a_teammate():
    types = [["archer", "footman", "scout"], ["knight", "pikeman", "lancer"],
             ["ensign", "berserker", "cavalry"], ["marshall", "mercenary", "swordsman"]]
    g = game(types)
    play(g, "p1 draw", "p2 draw", "p3 draw", "p4 draw")
    assert "teammate" in refused(g, "p1 recruit berserker", "W25")
    refused(g, "p1 recruit knight", "W3")
    play(g, "p1 recruit scout")
    assert g.coins[0].up == {"scout": 1}
