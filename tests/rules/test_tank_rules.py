"""«Танковый бой» rules core (shared_rules/tank/): each test starts with the
id of the rule it checks (docs/rules-tank.md); the spec's worked
examples E1-E4 and the exact numbers of its part (b) are tests here, and
tests/rules/test_tank_cross_runtime.py runs the same numbers inside MicroPython."""

import pytest

from shared_rules.rng import Rng
from shared_rules.tank import dice, odds
from shared_rules.tank.protection import TargetTurn


class Faces:
    """A stand-in Rng whose die() returns the given faces in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def die(self):
        return self.faces.pop(0)


# ------------------------------------------------------------- T1 the die

def test_t1_ta1_die_is_a_d6_filled_into_the_buffer():
    buf = dice.dice_buffer()
    dice.roll(Rng(5), buf, 90)
    assert set(buf[:90]) == {1, 2, 3, 4, 5, 6}
    assert set(buf[90:]) == {0}                     # nothing past n is touched


def test_t1_roll_refuses_more_dice_than_the_buffer_holds():
    with pytest.raises(ValueError):
        dice.roll(Rng(1), bytearray(4), 5)


def test_t1_rolls_are_the_shared_rng_die_in_order():
    a, b = Rng(77), Rng(77)
    buf = bytearray(30)
    dice.roll(a, buf, 30)
    assert list(buf) == [b.die() for _ in range(30)]


# ------------------------------------------------------------- T12-T15 fire

def test_t12_fire_test_counts_faces_at_most_the_accuracy():
    buf = bytearray(8)
    assert dice.fire_test(Faces([1, 2, 3, 4, 5, 6, 2, 3]), buf, 8, 2) == 3
    assert list(buf) == [1, 2, 3, 4, 5, 6, 2, 3]


def test_t13_ambush_adds_one_to_the_hit_number():
    buf = bytearray(8)
    assert dice.fire_test(Faces([1, 2, 3, 4, 5, 6, 2, 3]), buf, 8, 2, ambush=True) == 5


def test_t13_effective_accuracy_is_clamped_0_to_6():
    assert dice.effective_accuracy(6, ambush=True) == 6
    assert dice.effective_accuracy(9) == 6
    assert dice.effective_accuracy(-2) == 0
    assert dice.effective_accuracy(0, ambush=True) == 1
    buf = bytearray(6)
    assert dice.fire_test(Faces([6] * 6), buf, 6, 6, ambush=True) == 6      # all hit
    assert dice.fire_test(Faces([1] * 6), buf, 6, 0) == 0                   # none


def test_t14_t27_suppression_intensity_is_n_plus_half_rounded_up():
    assert [dice.suppression_dice(n) for n in (1, 2, 3, 4, 5, 6)] == [2, 3, 5, 6, 8, 9]


def test_t14_e4_suppression_dice_from_card_intensity():
    assert [dice.suppression_dice(n) for n in (12, 10, 8, 7)] == [18, 15, 12, 11]


def test_t27_suppression_fire_rolls_the_raised_intensity():
    buf = dice.dice_buffer()
    assert dice.suppression_fire(Faces([1] * 18), buf, 12, 2) == 18
    with pytest.raises(IndexError):                 # it asked for exactly 18 dice, no more
        dice.suppression_fire(Faces([1] * 17), buf, 12, 2)


def test_t12_six_dice_hit_on_3_at_least_two_hits_is_57_of_64():
    counts, den = odds.hit_counts(6, 3)
    assert odds.frac(counts[0], den) == (1, 64)
    assert odds.frac(counts[1], den) == odds.frac(6, 64)
    assert odds.frac(odds.at_least(counts, 2), den) == (57, 64)
    assert odds.mean(counts, den) == (3, 1)


def test_t12_hit_counts_are_binomial_and_sum_to_6_to_the_n():
    for n in (0, 1, 5, 12, 60):
        for v in range(7):
            counts, den = odds.hit_counts(n, v)
            assert sum(counts) == den == 6 ** n
            assert odds.mean(counts, den) == odds.frac(n * v, 6)       # E[H] = N·V/6


def test_t12_e1_twelve_dice_hit_on_2_against_protection_4():
    counts, den = odds.hit_counts(12, 2)
    assert den == 2176782336
    assert counts[:5] == [16777216, 100663296, 276824064, 461373440, 519045120]
    assert sum(counts[:5]) == 1374683136
    assert odds.at_least(counts, 5) == 802099200
    assert odds.frac(odds.at_least(counts, 5), den) == (65275, 177147)
    assert odds.per_mille(65275, 177147) == 368
    assert odds.mean(counts, den) == (4, 1)
    assert odds.mean(odds.damage_counts(counts, 4), den) == (112640, 177147)
    assert odds.decimal3(112640, 177147) == "0.636"


def test_t2_full_platoon_destroyed_with_protection_3():
    assert odds.destroyed(12, 2, 3, 3) == (31483, 177147)
    assert odds.per_mille(31483, 177147) == 178


def test_t27_suppression_fire_18_dice_against_protection_4():
    f = odds.fire_odds(dice.suppression_dice(12), 2, 4)
    assert f["den"] == 6 ** 18
    assert f["any_damage"] == (297898313, 387420489)
    assert f["mean_hits"] == (6, 1)
    assert f["mean_damage"] == (829760146, 387420489)
    assert odds.decimal3(*f["mean_damage"]) == "2.142"


def test_t15_ta2_e2_intensity_is_card_input_not_a_table():
    # E2: 12 dice at full strength, 10 at one tank: the companion rolls what it is given
    for n in (12, 10):
        counts, den = odds.hit_counts(n, 2)
        assert len(counts) == n + 1 and den == 6 ** n


def test_t12_damage_after_protection():
    counts, den = odds.hit_counts(6, 3)
    dmg = odds.damage_counts(counts, 2)
    assert sum(dmg) == den and len(dmg) == 5
    assert dmg[0] == counts[0] + counts[1] + counts[2]
    assert odds.damage_counts(counts, 9) == [den]                 # protection beyond every hit
    assert odds.damage_counts(counts, 0) == counts


def test_t12_odds_refuse_bad_input():
    with pytest.raises(ValueError):
        odds.hit_counts(3, 7)
    with pytest.raises(ValueError):
        odds.hit_counts(-1, 3)
    with pytest.raises(ValueError):
        odds.damage_counts([1, 1], -1)


# ------------------------------------------------------------- T16-T19 protection

def test_t16_t19_pooled_shooters_multiply_the_polynomials():
    counts, den = odds.pooled_counts([(6, 3), (6, 2)])
    assert den == 6 ** 12 == sum(counts)
    assert odds.at_least(counts, 4) == 1768449024
    assert odds.frac(odds.at_least(counts, 4), den) == (2369, 2916)
    assert odds.mean(counts, den) == (5, 1)


def test_t16_pooling_one_shooter_is_the_binomial():
    assert odds.pooled_counts([(7, 4)]) == odds.hit_counts(7, 4)
    assert odds.pooled_counts([(3, 2), (4, 2)]) == odds.hit_counts(7, 2)


def test_t16_hits_of_a_turn_add_up():
    t = TargetTurn(base=2)
    assert t.take(1) == (1, 0, False)
    assert t.take(1) == (1, 0, False)
    assert t.take(1) == (0, 1, True)          # protection used up: every hit is damage
    assert t.remaining() == 0 and t.hits_taken == 3


def test_t19_e1_protection_over_a_turn():
    t34 = TargetTurn(base=3, terrain=1, strength=3)     # T-34 in light forest
    assert t34.protection() == 4
    # suppression fire by Pz.II: 1 hit, no damage, a morale test anyway (passed)
    assert t34.take(1, suppression=True) == (1, 0, True)
    assert t34.remaining() == 3
    # fire by Pz.III: 2 hits, no damage, no test
    assert t34.take(2) == (2, 0, False)
    assert t34.remaining() == 1
    # fire on the move by Pz.III: 2 hits, 1 absorbed, 1 damage, test (failed)
    assert t34.take(2) == (1, 1, True)
    assert t34.strength == 2
    t34.suppress()
    assert t34.remaining() == 0
    t34.new_turn()
    assert t34.protection() == 3 and t34.remaining() == 3     # no terrain while suppressed
    passed = TargetTurn(base=3, terrain=1)
    passed.take(5)
    passed.new_turn()
    assert passed.remaining() == 4                            # had it passed: 4


def test_t17_protection_returns_at_the_start_of_a_turn():
    t = TargetTurn(base=1, terrain=2)
    t.take(7)
    assert t.remaining() == 0 and t.strength == 0 and t.destroyed()
    t.new_turn()
    assert t.remaining() == 3


def test_t19_ta6_terrain_dropped_at_once_when_suppressed_and_back_after_rally():
    t = TargetTurn(base=3, terrain=2)
    t.take(1)
    t.suppress()                                    # TA6: at once
    assert t.remaining() == 2
    t.rally()
    t.new_turn()
    assert t.remaining() == 5


def test_t19_ta4_pooling_or_one_by_one_gives_the_same_damage():
    for batches in ([5], [2, 3], [1, 1, 1, 1, 1], [4, 1]):
        t = TargetTurn(base=3, terrain=1, strength=9)
        assert sum(t.take(h)[1] for h in batches) == 1


def test_t2_strength_never_goes_below_zero():
    t = TargetTurn(base=0, strength=3)
    assert t.take(5) == (0, 5, True)
    assert t.strength == 0


# ------------------------------------------------------------- T20-T23 morale

def test_t21_morale_passes_if_the_sum_does_not_exceed_steadiness():
    buf = bytearray(4)
    assert dice.morale_test(Faces([3, 4]), buf, 2, 7) is True
    assert dice.morale_test(Faces([4, 4]), buf, 2, 7) is False
    assert dice.dice_sum(buf, 2) == 8


def test_t21_ta3_morale_odds_worked_numbers():
    assert odds.morale_pass(2, 7) == (7, 12)
    assert odds.morale_pass(2, 9) == (5, 6)
    assert odds.morale_pass(3, 9) == (3, 8)
    assert odds.per_mille(7, 12) == 583


def test_t21_sum_counts_are_the_dice_convolution():
    assert odds.sum_counts(2)[2:13] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert odds.sum_counts(3)[3:10] == [1, 3, 6, 10, 15, 21, 25]
    assert odds.morale_pass(3, 0) == (0, 1) and odds.morale_pass(3, 18) == (1, 1)


def test_t22_suppressed_by_fire_or_by_suppression_fire():
    # fire: P(D >= 1)·(1 - P(pass)); E1's shot, morale 2 dice vs 7
    assert odds.suppressed_by_fire(12, 2, 4, 2, 7) == odds.frac(65275 * 5, 177147 * 12)
    # suppression fire: 1 - P(pass) whatever the hits
    assert odds.suppressed_by_suppression(2, 7) == (5, 12)


# ------------------------------------------------------------- T29 counter-attack, T39 collision

def test_t29_duel_table_m_minus3_to_plus3_out_of_36():
    assert [odds.duel(m) for m in range(-3, 4)] == [
        (3, 3, 30), (6, 4, 26), (10, 5, 21), (15, 6, 15), (21, 5, 10), (26, 4, 6), (30, 3, 3)]


def test_t29_ta8_counter_attack_ties_rerolled():
    buf = bytearray(2)
    assert dice.counter_attack(Faces([3, 3, 5, 5, 2, 6]), buf) == 1
    assert list(buf) == [2, 6]
    assert dice.counter_attack(Faces([4, 1]), buf) == 0
    assert odds.duel_rerolled(0) == (1, 2)
    assert odds.duel_rerolled(-1) == (10, 31)


def test_t29_ta8_counter_attack_keeps_the_tied_faces_and_counts_them():
    buf = bytearray(4)
    assert dice.counter_attack_ties(Faces([3, 3, 5, 5, 1, 1, 2, 6]), buf) == 3
    assert list(buf) == [2, 6, 3, 5]                 # the third tie (1) had no room: only counted
    assert dice.counter_attack_ties(Faces([6, 1]), buf) == 0 and list(buf[:2]) == [6, 1]


def test_t39_unit_totals_are_die_plus_own_steadiness_without_allocating_lists():
    buf, totals = bytearray(6), bytearray(6)
    dice.unit_totals(Faces([5, 3, 2, 3, 4]), buf, totals, bytearray([7, 7, 8, 5, 7]), 5)
    assert list(totals[:5]) == [12, 10, 10, 8, 11] and totals[5] == 0
    assert dice.highest(totals, 0, 2) == 12 and dice.highest(totals, 2, 5) == 11
    assert dice.highest(totals, 3, 3) == -1


def test_t39_collision_s7_vs_s8_one_unit_each():
    assert odds.duel(-1) == (10, 5, 21)
    assert odds.collision_enter(7, [8]) == odds.frac(10, 36)
    assert odds.collision_nobody([7], [8]) == odds.frac(5, 36)


def test_t39_e3_collision_of_five_units():
    soviet = [5 + 7, 3 + 7]
    german = [2 + 8, 3 + 5, 4 + 7]
    assert dice.collision_result(soviet, german) == ([0], [])


def test_t39_e3_collision_rolled_from_the_example_faces():
    buf = bytearray(5)
    out = dice.collision(Faces([5, 3, 2, 3, 4]), buf, [7, 7], [8, 5, 7])
    assert out == ([12, 10], [10, 8, 11], [0], [])


def test_t39_ta9_several_units_beating_every_opponent_all_enter():
    assert dice.collision_result([12, 11], [10, 9]) == ([0, 1], [])
    assert dice.collision_result([9, 9], [9]) == ([], [])               # equal totals stay adjacent
    assert dice.collision_result([4], []) == ([0], [])


def test_t39_collision_odds_of_e3_before_the_roll():
    assert odds.collision_enter(7, [8, 5, 7]) == (115, 648)
    assert odds.collision_enter(8, [7, 7]) == (91, 216)
    assert odds.collision_nobody([7, 7], [8, 5, 7]) == (95, 486)


def test_t39_collision_odds_agree_with_enumerating_every_roll():
    import itertools
    sa, sb = [7, 7], [8, 5, 7]
    enter_first = nobody = 0
    for faces in itertools.product(range(1, 7), repeat=5):
        ea, eb = dice.collision_result([faces[0] + 7, faces[1] + 7],
                                       [faces[2] + 8, faces[3] + 5, faces[4] + 7])
        enter_first += 0 in ea
        nobody += not ea and not eb
    assert odds.frac(enter_first, 6 ** 5) == odds.collision_enter(sa[0], sb)
    assert odds.frac(nobody, 6 ** 5) == odds.collision_nobody(sa, sb)


# ------------------------------------------------------------- fractions

def test_fractions_are_reduced_with_a_home_made_gcd():
    assert odds.gcd(0, 5) == 5 and odds.gcd(12, -18) == 6
    assert odds.frac(802099200, 2176782336) == (65275, 177147)
    assert odds.frac(0, 7) == (0, 1) and odds.frac(3, -6) == (-1, 2)
    with pytest.raises(ZeroDivisionError):
        odds.frac(1, 0)


def test_per_mille_rounds_half_up():
    assert odds.per_mille(57, 64) == 891            # 890.625
    assert odds.per_mille(1, 2000) == 1 and odds.per_mille(1, 2001) == 0
    assert odds.percent1(57, 64) == "89.1%" and odds.decimal3(5, 1) == "5.000"


def test_t39_collision_odds_need_a_unit_on_each_side():
    with pytest.raises(ValueError):
        odds.collision_nobody([], [7])


# ------------------------------------------------------------- rules named in the module's comments

def test_t10_a_passed_phase3_test_gives_the_terrain_back_next_turn():
    t = TargetTurn(base=2, terrain=1, suppressed=True)
    assert t.protection() == 2
    t.rally()
    t.new_turn()
    assert t.protection() == 3 and not t.suppressed


def test_t18_terrain_adds_to_protection_but_not_while_suppressed():
    assert TargetTurn(base=3, terrain=2).remaining() == 5            # clearing in forest: +2
    assert TargetTurn(base=3, terrain=2, suppressed=True).remaining() == 3


def test_t20_morale_test_due_on_damage_or_always_after_suppression_fire():
    t = TargetTurn(base=4)
    assert t.take(0, suppression=True)[2] is True                     # even with no hit
    assert t.take(3)[2] is False
    assert t.take(2)[2] is True                                       # 1 absorbed, 1 damage


def test_t20_ta5_suppression_fire_that_deals_damage_is_one_morale_test():
    t = TargetTurn(base=4, strength=3)
    assert t.take(6, suppression=True) == (4, 2, True)                 # 2 damage, one test due
    assert t.strength == 1
    assert t.take(1, suppression=True) == (0, 1, True) and t.strength == 0


def test_t35_fire_from_ambush_is_plus_one_to_the_hit_number():
    counts, den = odds.hit_counts(6, dice.effective_accuracy(2, ambush=True))
    assert (counts, den) == odds.hit_counts(6, 3)


def test_every_rule_the_module_names_has_a_test_named_by_it():
    """Every T id named in Tank battle's code (the rules core's tank/, the
    device's and the host's tank packages) has a test named after it in a
    test_tank*.py file anywhere under tests/."""
    import os
    import re
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.path.dirname(tests)

    def walk(top, keep):
        for dirpath, _dirs, files in os.walk(top):
            for f in sorted(files):
                if f.endswith(".py") and keep(dirpath, f):
                    yield os.path.join(dirpath, f)

    def tank_code(dirpath, f):
        return f.startswith("tank") or os.path.basename(dirpath) == "tank"

    named = set()
    for top in ("shared_rules", os.path.join("firmware", "osada_fw"), os.path.join("host", "osada")):
        for path in walk(os.path.join(root, top), tank_code):
            with open(path, encoding="utf-8") as fh:
                named.update(re.findall(r"\bT(\d+)\b", fh.read()))
    tested = set()
    for path in walk(tests, lambda _d, f: f.startswith("test_tank")):
        with open(path, encoding="utf-8") as fh:
            for name in re.findall(r"def test_((?:t\d+_)+)", fh.read()):
                tested.update(re.findall(r"t(\d+)_", name))
    assert named and sorted(named - tested, key=int) == []
