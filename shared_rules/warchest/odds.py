# Exact draw odds of «Сундук войны» in integers (spec (a), "Formulas"): a
# fraction is a (numerator, denominator) pair in lowest terms, the same on
# CPython and MicroPython (no fractions module there; the gcd is tank/odds').
#
# A bag and a discard are multisets {type: count}.  Draws follow W8-W10: m
# coins a round (3), without replacement; when the bag runs out the bag's last
# coins come first, then the whole discard is mixed in (W9); with too few coins
# everything left is drawn (W10).

from shared_rules.combin import binomial
from shared_rules.exact import frac, percent1
from shared_rules.warchest.zones import HAND, size


def _none(n, x, m):
    """(C(n-x, m), C(n, m)): the ways m coins of n miss all x of a type, and all the ways."""
    return binomial(n - x, m), binomial(n, m)


def at_least_one(n, x, m):
    """P(≥1 of the x coins of a type among m drawn from n) = 1 − C(n−x, m)/C(n, m)."""
    if m > n:
        m = n
    a, b = _none(n, x, m)
    return frac(b - a, b)


def exactly(n, x, m, j):
    """P(exactly j of the x coins of a type among m drawn from n) = C(x,j)·C(n−x,m−j)/C(n,m)."""
    return frac(binomial(x, j) * binomial(n - x, m - j), binomial(n, m))


def rounds_to_refill(bag, m=HAND):
    """Rounds until the bag runs out and refills: ceil(bag/3) (spec (a))."""
    return (bag + m - 1) // m


def _types(*sets):
    out = []
    for ms in sets:
        for t in ms:
            if t not in out:
                out.append(t)
    return sorted(out)


def _no_x_within(n, xb, d, xd, m, rounds):
    """(ways, all) that r rounds of draws show no coin of a type with xb of
    the bag's n and xd of the discard's d.  Within the bag (3r <= n) no coin
    comes twice; past the refill the bag's coins are all drawn, and the
    refilled bag is the discard with every coin drawn in the rounds before the
    refill round back in it (nothing deployed, recruited or lost meanwhile)."""
    t = m * rounds
    if t <= n:
        return _none(n, xb, t)
    if xb:
        return 0, 1
    refill = d + n - n % m
    k = t - n
    if k >= refill:
        return (0, 1) if xd else (1, 1)
    return _none(refill, xd, k)


def within_rounds(bag, discard, rounds, m=HAND):
    """{type: P(≥1 of that type drawn within `rounds` rounds)}, exact.  The
    next hand is rounds = 1: a bag of b < m gives its b coins for certain and
    m − b from the refilled bag (spec (a), worked example 5)."""
    if rounds < 1:
        raise ValueError("rounds must be 1 or more")
    n, d = size(bag), size(discard)
    out = {}
    for t in _types(bag, discard):
        a, b = _no_x_within(n, bag.get(t, 0), d, discard.get(t, 0), m, rounds)
        out[t] = frac(b - a, b)
    return out


def next_hand(bag, discard, m=HAND):
    """{type: P(≥1 of that type in the next hand of m)}, exact."""
    return within_rounds(bag, discard, 1, m)


def estimate(cyc, bag, up, m=HAND):
    """The public view's estimate (spec (a)) of {type: P(≥1 in the next
    hand)} for a player whose hidden coins U = `cyc` are taken as a uniform
    sample: the bag (`bag` coins of U) then, past its end, the rest of U (hand
    and face-down coins, all in the discard by then) with the face-up discard
    `up`.  Marked an estimate: face-down choices are not random."""
    n, u = size(cyc), size(up)
    out = {}
    for t in _types(cyc, up):
        x, xu = cyc.get(t, 0), up.get(t, 0)
        if bag >= m:
            a, b = _none(n, x, m)
        else:
            a0, b0 = _none(n, x, bag)
            rest, left = n - bag + u, m - bag
            if left > rest:
                left = rest
            a1, b1 = _none(rest, x + xu, left)
            a, b = a0 * a1, b0 * b1
        out[t] = frac(b - a, b)
    return out


def holds(cyc, hand):
    """The public estimate that a hand of `hand` hidden coins holds ≥1 of each
    type: a uniform sample of U (spec (a))."""
    n = size(cyc)
    out = {}
    for t in sorted(cyc):
        out[t] = at_least_one(n, cyc[t], hand) if hand else (0, 1)
    return out


def ratio(p):
    """"7/12": a fraction in lowest terms (1/1 and 0/1 at the ends)."""
    return "%d/%d" % p


def text(p):
    """"7/12 (58.3%)": the fraction beside its percentage; "0 (0%)" and "1 (100%)" for
    none and certain (not "0/1 (0.0%)")."""
    if p[0] == 0 or p[0] == p[1]:
        return "%d (%d%%)" % (1 if p[0] else 0, 100 if p[0] else 0)
    return "%d/%d (%s)" % (p[0], p[1], percent1(p[0], p[1]))
