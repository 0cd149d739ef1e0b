"""«День Победы»'s payment solver (shared_rules/victory/resources.py): the
spec's worked example 4 word for word, and every small have/cost vector against
an exhaustive search of the ways to pay (V14, V15)."""

from functools import lru_cache
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.victory.resources import Payment, take_spares

CAR = (1, 2, 1)             # the rulebook's armoured car: 1 S + 2 Z + 1 T (V40)
NOPE = 99


@lru_cache(maxsize=None)
def cheapest(have, cost):
    """The fewest cards paying `cost`, found by trying every way: each unit of
    cost paid by one card of its kind, or by two of the other kinds in any mix
    (V15), substituting even when a card of the kind is at hand.  NOPE if none."""
    if not any(cost):
        return 0
    x = next(i for i in range(3) if cost[i])
    rest = tuple(c - (i == x) for i, c in enumerate(cost))
    tries = []
    if have[x]:
        tries.append((1, tuple(h - (i == x) for i, h in enumerate(have))))
    y, z = [i for i in range(3) if i != x]
    for a, b in ((y, y), (z, z), (y, z)):
        left = list(have)
        left[a] -= 1
        left[b] -= 1
        if min(left) >= 0:
            tries.append((2, tuple(left)))
    found = [n + cheapest(left, rest) for n, left in tries if cheapest(left, rest) != NOPE]
    return min(found) if found else NOPE


def test_v15_worked_example_4_armoured_car():
    p = Payment((5, 0, 1), CAR)
    assert (p.payable, p.pay, p.cards, p.subs) == (True, (5, 0, 1), 6, [("Z", (4, 0, 0))])
    assert Payment((3, 2, 0), CAR).cards == 5
    assert Payment((0, 2, 3), CAR).cards == 5
    p = Payment((4, 1, 3), CAR)
    assert (p.pay, p.cards, p.subs) == ((3, 1, 1), 5, [("Z", (2, 0, 0))])
    p = Payment((2, 2, 0), CAR)
    assert (p.payable, p.short, p.spare, p.missing) == (False, (0, 0, 1), (1, 0, 0), 1)


def test_v15_worked_example_4_two_z_and_one_t():
    assert not Payment((5, 0, 0), (0, 2, 1)).payable
    p = Payment((6, 0, 0), (0, 2, 1))
    assert (p.payable, p.pay, p.cards) == (True, (6, 0, 0), 6)


def test_v15_rulebook_ways_to_pay_the_armoured_car():
    """«5 складов и 1 топливо, либо 3 склада и 2 завода, или 2 завода и 3 топлива»."""
    for have in ((5, 0, 1), (3, 2, 0), (0, 2, 3)):
        p = Payment(have, CAR)
        assert p.payable and p.pay == have


def test_v14_each_card_gives_one_resource_of_its_kind():
    p = Payment((1, 1, 1), (1, 1, 1))
    assert (p.pay, p.cards, p.subs) == ((1, 1, 1), 3, [])


def test_v15_va1_substitutes_only_for_a_shortfall():
    p = Payment((3, 3, 3), (1, 1, 0))
    assert (p.pay, p.cards, p.subs) == ((1, 1, 0), 2, [])


@pytest.mark.parametrize("have", list(product(range(5), repeat=3)))
def test_v15_every_small_vector_against_exhaustive_search(have):
    for cost in product(range(4), repeat=3):
        p = Payment(have, cost)
        best = cheapest(have, cost)
        assert p.payable == (best != NOPE)
        if p.payable:
            assert p.cards == best == sum(cost) + sum(p.short)
            assert all(u <= h for u, h in zip(p.pay, have))
            assert cheapest(p.pay, cost) == sum(p.pay)      # the payment shown is itself a way to pay
            for kind, sub in p.subs:                        # a substitute is never of the kind it replaces
                assert sub["SZT".index(kind)] == 0
        else:
            assert p.cards is None and p.missing == 2 * sum(p.short) - sum(p.spare) > 0


@pytest.mark.parametrize("have", list(product(range(4), repeat=3)))
def test_v15_fewest_cards_to_add_against_exhaustive_search(have):
    for cost in product(range(4), repeat=3):
        p = Payment(have, cost)
        if p.payable:
            assert (p.to_add, p.add) == (0, (0, 0, 0))
            continue
        fewest = next(t for t in range(13) if any(
            cheapest(tuple(h + a for h, a in zip(have, add)), cost) != NOPE
            for add in product(range(t + 1), repeat=3) if sum(add) == t))
        assert p.to_add == fewest == sum(p.add)
        assert Payment(tuple(h + a for h, a in zip(have, p.add)), cost).payable


def one_at_a_time(spare, need):
    """The spec's order, literally: one card at a time from the kind with the most left, ties S > Z > T."""
    left, taken = list(spare), [0, 0, 0]
    for _ in range(need):
        i = max(range(3), key=lambda k: (left[k], -k))
        left[i] -= 1
        taken[i] += 1
    return tuple(taken)


@given(st.tuples(*[st.integers(0, 40)] * 3).flatmap(
    lambda e: st.tuples(st.just(e), st.integers(0, sum(e)))))
def test_v15_substitutes_follow_the_tie_order(case):
    spare, need = case
    assert take_spares(spare, need) == one_at_a_time(spare, need)


def test_v15_more_substitutes_than_spare_is_refused():
    with pytest.raises(RuleError) as exc:
        take_spares((1, 0, 0), 2)
    assert exc.value.rule == "V15"


@pytest.mark.parametrize("have,cost", [((1, 2), (0, 0, 0)), ((1, -1, 0), (0, 0, 0)), ((0, 0, 0), (1.5, 0, 0)),
                                       ((0, 0, 0), (True, 0, 0))])
def test_v14_bad_vectors_are_refused(have, cost):
    with pytest.raises(RuleError) as exc:
        Payment(have, cost)
    assert exc.value.rule == "V14"
