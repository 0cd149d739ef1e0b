"""War Chest's exact draw odds in the rules core (spec (a), "Formulas" and
the worked numbers 1-6, word for word), and the same odds counted by brute
force over every possible draw (hypothesis): the next hand (W8), the refill
boundary (W9), a short bag (W10), within r rounds, the public estimate (W24,
WA5)."""

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.warchest import odds, views
from tests.mpy.warchest_play import game

START = {"A": 2, "B": 2, "C": 2, "D": 2, "royal": 1}      # 2p start: 2 of each of 4 types + the royal coin


def F(p):
    num, den = p
    assert Fraction(num, den).denominator == den              # in lowest terms
    return Fraction(num, den)


def test_w4_w8_example_1_a_given_type_in_the_first_hand_is_7_12():
    assert odds.next_hand(START, {})["A"] == (7, 12)
    assert odds.text(odds.next_hand(START, {})["A"]) == "7/12 (58.3%)"
    assert odds.binomial(7, 3) == 35 and odds.binomial(9, 3) == 84


def test_w8_w13_example_2_royal_a_pair_two_types():
    assert odds.next_hand(START, {})["royal"] == (1, 3)                   # 1 - 56/84
    pair = odds.exactly(9, 2, 3, 2)                                      # C(2,2)·C(7,1)/84 = 7/84
    assert pair == (1, 12) and 4 * F(pair) == Fraction(1, 3)             # 28 of 84 hands
    assert odds.at_least_one(9, 4, 3) == (37, 42)                        # 1 - 10/84
    assert odds.text((37, 42)) == "37/42 (88.1%)"


def test_w8_example_3_within_two_rounds_11_12_and_every_coin_by_round_3():
    assert odds.within_rounds(START, {}, 2)["A"] == (11, 12)              # 1 - C(7,6)/C(9,6) = 1 - 7/84
    assert all(p == (1, 1) for p in odds.within_rounds(START, {}, 3).values())


def test_w25_w17_example_4_four_players_and_after_recruits():
    assert odds.next_hand({"A": 2, "B": 2, "C": 2, "royal": 1}, {})["A"] == (5, 7)     # 1 - 10/35
    assert odds.next_hand({"X": 3, "other": 7}, {})["X"] == (17, 24)                  # 1 - 35/120
    assert odds.text((5, 7)) == "5/7 (71.4%)" and odds.text((17, 24)) == "17/24 (70.8%)"


def test_w9_example_5_the_refill_boundary():
    p = odds.next_hand({"A": 1, "royal": 1}, {"B": 3, "other": 5})
    assert p["A"] == (1, 1) and p["royal"] == (1, 1) and p["B"] == (3, 8)


def test_w24_wa5_example_6_the_public_estimate_of_the_opponents_round_2_hand():
    # A, B, C, D = archer, cavalry, lancer, scout (the first game's set B)
    g = game([["swordsman", "pikeman", "crossbowman", "light_cavalry"], ["archer", "cavalry", "lancer", "scout"]])
    for line in ("p1 draw", "p2 draw", "p1 pass", "p2 deploy archer", "p1 pass", "p2 initiative", "p1 pass",
                 "p2 recruit lancer"):
        g.apply_text(line)
    v = views.public(g, 1)
    assert v["cycle"] == {"archer": 1, "cavalry": 2, "lancer": 2, "scout": 2, "royal": 1}     # 8 coins
    assert (v["bag"], v["down"], v["hand"]) == (6, 2, 0)
    assert v["up"] == {"lancer": 1}                                      # the recruit, shown
    assert v["estimate"]["archer"] == (3, 8)                             # 1 - 35/56
    assert v["estimate"]["cavalry"] == (9, 14)                           # 1 - 20/56
    assert odds.text(v["estimate"]["cavalry"]) == "9/14 (64.3%)"
    assert v["to_refill"] == 6 and v["rounds_to_refill"] == 2


def test_w9_rounds_until_the_refill_is_ceil_bag_over_3():
    assert [odds.rounds_to_refill(b) for b in (0, 1, 3, 4, 6, 7, 9)] == [0, 1, 1, 2, 2, 3, 3]


def test_w10_a_short_bag_and_discard_draw_everything():
    p = odds.next_hand({"A": 1}, {"B": 1})
    assert p == {"A": (1, 1), "B": (1, 1)}


def test_w8_the_owner_view_is_exact_for_an_entered_player():
    g = game([["swordsman", "pikeman", "crossbowman", "light_cavalry"], ["archer", "cavalry", "lancer", "scout"]],
             known=[0])
    o = views.owner(g, 0, 2)
    assert o["next_hand"]["swordsman"] == (7, 12) and o["within"]["royal"] == (2, 3)
    g.apply_text("p1 draw swordsman,swordsman,royal")
    o = views.owner(g, 0, 1)
    assert o["next_hand"]["swordsman"] == (0, 1) and o["next_hand"]["pikeman"] == (4, 5)   # 1 - C(4,3)/C(6,3)


# ---------------------------------------------------------------- brute force


def coins(ms, tag):
    return [(t, tag, i) for t in sorted(ms) for i in range(ms[t])]


def brute_within(bag, discard, rounds, m):
    """P(≥1 of each type within `rounds` rounds), by listing every draw: the
    bag's coins in every order of choice, then (W9) the refilled bag: the
    discard plus the coins drawn before the refill round."""
    bag_c, disc_c = coins(bag, "b"), coins(discard, "d")
    n, total = len(bag_c), m * rounds
    types = sorted(set(bag) | set(discard))
    seen = {t: 0 for t in types}
    ways = 0
    first = min(total, n)
    for drawn in itertools.combinations(bag_c, first):
        if total <= n:
            outcomes = [drawn]
        else:                   # every bag coin drawn; those of the rounds before the refill's are back
            refill = disc_c + bag_c[:n - n % m]
            k = min(total - n, len(refill))
            outcomes = [drawn + extra for extra in itertools.combinations(refill, k)]
        for out in outcomes:
            ways += 1
            for t in {c[0] for c in out}:
                seen[t] += 1
    return {t: Fraction(seen[t], ways) for t in types}


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from("ABCR"), st.integers(0, 3), max_size=4),
       st.dictionaries(st.sampled_from("ABCR"), st.integers(0, 3), max_size=4),
       st.integers(1, 3), st.integers(1, 3))
def test_w8_w9_w10_odds_match_counting_every_draw(bag, discard, rounds, m):
    if not sum(bag.values()) + sum(discard.values()):
        return
    got = odds.within_rounds(bag, discard, rounds, m)
    want = brute_within(bag, discard, rounds, m)
    assert {t: F(p) for t, p in got.items()} == want


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from("ABCR"), st.integers(0, 3), min_size=1, max_size=4),
       st.dictionaries(st.sampled_from("ABC"), st.integers(0, 2), max_size=3),
       st.integers(0, 12))
def test_w24_the_estimate_matches_counting_every_bag_the_hidden_coins_could_make(cyc, up, bag):
    cyc_c, up_c = coins(cyc, "u"), coins(up, "f")
    if not cyc_c:
        return
    bag = min(bag, len(cyc_c))
    got = odds.estimate(cyc, bag, up)
    seen, ways = {}, 0
    for in_bag in itertools.combinations(cyc_c, bag):
        if bag >= 3:
            hands = itertools.combinations(in_bag, 3)
        else:
            rest = [c for c in cyc_c if c not in in_bag] + up_c
            hands = (in_bag + extra for extra in itertools.combinations(rest, min(3 - bag, len(rest))))
        for hand in hands:
            ways += 1
            for t in {c[0] for c in hand}:
                seen[t] = seen.get(t, 0) + 1
    assert {t: F(p) for t, p in got.items()} == {t: Fraction(seen.get(t, 0), ways) for t in got}
