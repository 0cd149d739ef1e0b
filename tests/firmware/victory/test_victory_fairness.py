"""The toss is fair (V8: «определяется жребием», one lot, 1/2 each seat): the
device's lot is one bit of its free generator (app.free_rng, shared_rules.rng's
xorshift with rejection sampling), drawn by osada_fw/victory/mode.py.

The bound: over N = 1000 tosses, seat B's count must lie within 500 ± 60.  A
fair source leaves it with probability below 2 in 10,000, and a source leaning
60/40 stays inside it with probability below 1 in 100; both figures are
computed exactly here, so the bound is not a guess.  The seeds are fixed, so
the test itself is deterministic."""

from fractions import Fraction
from math import comb

import pytest

from osada_fw.victory import view as victory_view
from shared_rules.rng import Rng
from tests.support.device import Dev

N = 1000
SLACK = 60


def binomial_outside(n, p, lo, hi):
    """P(X < lo or X > hi) for X ~ Bin(n, p), p a Fraction: exact."""
    q = 1 - p
    inside = sum(comb(n, k) * p ** k * q ** (n - k) for k in range(lo, hi + 1))
    return 1 - inside


def test_v8_the_bound_would_pass_a_fair_source_and_fail_a_leaning_one():
    lo, hi = N // 2 - SLACK, N // 2 + SLACK
    fair = binomial_outside(N, Fraction(1, 2), lo, hi)
    assert 0 < fair < Fraction(2, 10000)
    leaning = 1 - binomial_outside(N, Fraction(6, 10), lo, hi)
    assert leaning < Fraction(1, 100)


def tosses(dev, n):
    """n lots drawn through the buttons (hold ENCODER: a new match; ACTION: the toss); seat B's count."""
    ones = 0
    for _ in range(n):
        dev.press("encoder", long=True)
        dev.press("action")
        ones += dev.app.mode.lot
        dev.take()
    return ones


def test_v8_the_devices_lots_over_1000_tosses_fall_on_both_seats_within_the_bound(tmp_path):
    dev = Dev(tmp_path, seed=30)
    dev.ok("game", game="victory")
    ones = tosses(dev, N)
    assert abs(ones - N // 2) <= SLACK, ones
    assert 0 < ones < N


@pytest.mark.parametrize("seed", [1, 2, 3, 12345, 2 ** 30 - 1])
def test_v8_the_lot_is_the_free_generators_bit_for_any_seed(seed):
    """The lot's bits are Rng.below(2)'s, which stay within the bound for each seed."""
    rng = Rng(seed)
    ones = sum(rng.below(2) for _ in range(N))
    assert abs(ones - N // 2) <= SLACK, (seed, ones)


def test_v8_first_lots_of_fresh_devices_go_to_both_seats(tmp_path):
    """A device's first toss after it boots: across boots (seeds), both seats get it."""
    first = set()
    for seed in range(12):
        dev = Dev(tmp_path / str(seed), seed=seed)
        dev.ok("game", game="victory")
        dev.press("action")
        first.add(dev.ok("state")[0]["victory"]["lot"])
        dev.tick(n=2, ms=victory_view.TOSS_MS)
    assert first == {"A", "B"}
