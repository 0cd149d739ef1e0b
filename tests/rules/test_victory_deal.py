"""«День Победы»'s starting hand and redeal (shared_rules/victory/deal.py):
the spec's worked examples 1-3 word for word, and the counts against an
enumeration of every hand of small decks (V9, V10)."""

from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.victory import deal
from shared_rules.victory.deal import at_least_ways, hand_counts, keep_within_two, redeal_ways


def chance(num, den):
    return Fraction(num, den)


def four(f):
    """Four decimals, half up."""
    q = (f.numerator * 20000 + f.denominator) // (2 * f.denominator)
    return "%d.%04d" % (q // 10000, q % 10000)


def test_v10_worked_example_1_forty_cards_sixteen_resources_redeal():
    ways, total = hand_counts(40, 16)
    assert (ways[0], ways[1], ways[7], total) == (346104, 2153536, 11440, 18643560)
    p = chance(redeal_ways(ways), total)
    assert p == Fraction(346104 + 2153536 + 11440, 18643560) == Fraction(4829, 35853)
    assert four(p) == "0.1347"


def test_v9_v10_va2_worked_example_2_at_least_and_two_deals():
    ways, total = hand_counts(40, 16)
    assert chance(at_least_ways(ways, 2), total) == Fraction(1634, 1887)
    assert four(Fraction(1634, 1887)) == "0.8659"
    assert chance(at_least_ways(ways, 3), total) == Fraction(276086, 466089)
    assert four(Fraction(276086, 466089)) == "0.5923"
    keep = Fraction(*keep_within_two(redeal_ways(ways), total))
    assert keep == 1 - Fraction(4829, 35853) ** 2 == Fraction(1262118368, 1285437609)
    assert four(keep) == "0.9819"


def test_v10_worked_example_3_sixty_and_thirty_cards():
    ways, total = hand_counts(60, 24)
    assert (ways[0], ways[1], ways[7], total) == (8347680, 46747008, 346104, 386206920)
    assert chance(redeal_ways(ways), total) == Fraction(70001, 487635)
    assert four(Fraction(70001, 487635)) == "0.1436"
    ways, total = hand_counts(30, 6)
    assert ways[7] == 0                                 # no 7-resource hand from 6 resources
    assert (ways[0], ways[1], total) == (346104, 807576, 2035800)
    assert chance(redeal_ways(ways), total) == Fraction(9614, 16965)
    assert four(Fraction(9614, 16965)) == "0.5667"


@given(st.integers(7, 90).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_v9_hand_chances_sum_to_one(nr):
    n, r = nr
    ways, total = hand_counts(n, r)
    assert sum(ways) == total
    assert all(w >= 0 for w in ways)
    assert at_least_ways(ways, 0) == total


@pytest.mark.parametrize("n", [7, 8, 9, 11])
def test_v9_v10_counts_match_every_hand_of_a_small_deck(n):
    """Every 7-card hand of an n-card deck whose first r cards are resources, counted."""
    hands = list(combinations(range(n), 7))
    for r in range(n + 1):
        by_k = [0] * 8
        for hand in hands:
            by_k[sum(1 for c in hand if c < r)] += 1
        ways, total = hand_counts(n, r)
        assert ways == by_k and total == len(hands)
        allowed = sum(by_k[k] for k in range(8) if k < 2 or k == 7)      # V10: fewer than 2, or only resources
        assert redeal_ways(ways) == allowed
        for least in range(8):
            assert at_least_ways(ways, least) == sum(by_k[least:])


def test_v9_the_hand_is_the_top_seven_of_a_shuffled_deck():
    """Every order of an 8-card deck (3 resources), its top 7 counted: the same chances."""
    by_k = [0] * 8
    orders = 0
    for order in permutations(range(8)):
        by_k[sum(1 for c in order[:7] if c < 3)] += 1
        orders += 1
    ways, total = hand_counts(8, 3)
    assert [Fraction(w, total) for w in ways] == [Fraction(b, orders) for b in by_k]


def test_v10_keepable_within_two_deals_enumerated():
    """Two independent deals of a 9-card deck with 2 resources, every pair counted:
    kept at the first deal, or redealt and kept at the second."""
    hands = list(combinations(range(9), 7))

    def keepable(hand):
        return 2 <= sum(1 for c in hand if c < 2) <= 6
    good = sum(1 for a in hands for b in hands if keepable(a) or keepable(b))
    ways, total = hand_counts(9, 2)
    assert Fraction(*keep_within_two(redeal_ways(ways), total)) == Fraction(good, len(hands) ** 2)


@pytest.mark.parametrize("n,r,rule", [(6, 2, "V9"), (40, 41, "VA3"), (40, -1, "VA3"), (True, 0, "V9")])
def test_v9_va3_bad_decks_are_refused_naming_the_rule(n, r, rule):
    with pytest.raises(RuleError) as exc:
        hand_counts(n, r)
    assert exc.value.rule == rule


def test_v9_at_least_more_than_the_hand_is_refused():
    ways, _ = hand_counts(40, 16)
    with pytest.raises(RuleError) as exc:
        at_least_ways(ways, 8)
    assert exc.value.rule == "V9" and deal.HAND == 7
