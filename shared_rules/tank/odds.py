# Exact odds for «Танковый бой», integer arithmetic only (spec part (b)).
#
# A distribution is a list of integer weights over a denominator: counts[k]
# ways out of den (den = 6**dice for the fire test).  Fractions are
# (numerator, denominator) pairs reduced by gcd (MicroPython has no fractions
# module and no math.gcd).  Denominators pass 2**31 from 12 dice on
# (6**12 = 2176782336): MicroPython needs long ints, which the Pico's rp2
# port and the unix/webassembly ports build with (MICROPY_LONGINT_IMPL_MPZ);
# tests/mpy/tank_numbers.py runs every worked number inside the VM.

from shared_rules.combin import binomial  # noqa: F401  (the tank's callers' name for it)
from shared_rules.exact import decimal3, frac, gcd, per_mille, percent1  # noqa: F401  (likewise)


def _check_dice(n, v):
    if n < 0:
        raise ValueError("dice must be >= 0")
    if v < 0 or v > 6:
        raise ValueError("hit number must be 0..6 (T13: the effective accuracy is clamped)")


def hit_counts(n, v):
    """T12: n dice hitting on faces <= v.  counts[j] = C(n,j)·v^j·(6-v)^(n-j),
    the ways to get exactly j hits out of 6**n.  Returns (counts, 6**n)."""
    _check_dice(n, v)
    miss = 6 - v
    counts = [binomial(n, j) * v ** j * miss ** (n - j) for j in range(n + 1)]
    return counts, 6 ** n


def pooled_counts(shooters):
    """T16: several shooters at one target in one step, hits added up:
    the product of (6-v + v·x)^n over the (n, v) pairs.  Returns (counts, 6**Σn)."""
    counts = [1]
    total = 0
    for n, v in shooters:
        _check_dice(n, v)
        total += n
        i = 0
        while i < n:
            nxt = [0] * (len(counts) + 1)
            for j in range(len(counts)):
                nxt[j] += counts[j] * (6 - v)
                nxt[j + 1] += counts[j] * v
            counts = nxt
            i += 1
    return counts, 6 ** total


def at_least(counts, k):
    """Σ counts[j] for j >= k (k <= 0: everything)."""
    if k < 0:
        k = 0
    s = 0
    for j in range(k, len(counts)):
        s += counts[j]
    return s


def mean(counts, den):
    """E[X] for X distributed as counts/den, reduced."""
    s = 0
    for j in range(len(counts)):
        s += j * counts[j]
    return frac(s, den)


def damage_counts(counts, protection):
    """T12 step 8-9, T16: damage D = max(0, H - P).  Returns the counts of D
    (index d), over the same denominator."""
    if protection < 0:
        raise ValueError("protection must be >= 0")
    if protection >= len(counts):
        return [at_least(counts, 0)]
    out = [at_least(counts, 0) - at_least(counts, protection + 1)]
    for j in range(protection + 1, len(counts)):
        out.append(counts[j])
    return out


def fire_odds(n, v, protection=0):
    """The usual summary of one fire test: hits and damage, exact."""
    counts, den = hit_counts(n, v)
    dmg = damage_counts(counts, protection)
    return {"hits": counts, "damage": dmg, "den": den,
            "mean_hits": mean(counts, den), "mean_damage": mean(dmg, den),
            "any_damage": frac(at_least(counts, protection + 1), den)}


def destroyed(n, v, protection, strength):
    """P(H >= P + strength): the whole unit is gone in one batch (T2, part (b))."""
    counts, den = hit_counts(n, v)
    return frac(at_least(counts, protection + strength), den)


def sum_counts(n):
    """Ways n dice can sum to s, for s = 0..6n (c[s]); the denominator is 6**n."""
    c = [1]
    i = 0
    while i < n:
        nxt = [0] * (len(c) + 6)
        for s in range(len(c)):
            w = c[s]
            if w:
                for f in range(1, 7):
                    nxt[s + f] += w
        c = nxt
        i += 1
    return c


def morale_pass(n, steadiness):
    """T21: P(sum of n dice <= steadiness), reduced."""
    if n < 1:
        raise ValueError("morale test needs at least one die")
    c = sum_counts(n)
    s = 0
    top = steadiness if steadiness < len(c) - 1 else len(c) - 1
    for t in range(top + 1):
        s += c[t]
    return frac(s, 6 ** n)


def suppressed_by_fire(n, v, protection, morale_dice, steadiness):
    """P(damage >= 1) · (1 - P(pass)): a Fire order leaves the target suppressed (T20-T22)."""
    counts, den = hit_counts(n, v)
    hit_num = at_least(counts, protection + 1)
    pn, pd = morale_pass(morale_dice, steadiness)
    return frac(hit_num * (pd - pn), den * pd)


def suppressed_by_suppression(morale_dice, steadiness):
    """T27: after suppression fire the test is taken whatever the hits: 1 - P(pass)."""
    pn, pd = morale_pass(morale_dice, steadiness)
    return frac(pd - pn, pd)


def duel(m):
    """Totals d6 + S_A against d6 + S_B, m = S_A - S_B (T39 for one unit each;
    m = 0 is the counter-attack roll, T29).  Returns (wins, ties, losses) of A out of 36."""
    w = t = 0
    for a in range(1, 7):
        for b in range(1, 7):
            d = a + m - b
            if d > 0:
                w += 1
            elif d == 0:
                t += 1
    return w, t, 36 - w - t


def duel_rerolled(m):
    """TA8: ties re-rolled until they differ: P(A wins) = wins / (wins + losses), reduced."""
    w, _t, loss = duel(m)
    return frac(w, w + loss)


def _beaten_by(total, opponents):
    """Ways the opponents' dice (one each) all stay below `total`, out of 6**len."""
    ways = 1
    for s in opponents:
        c = total - s - 1           # faces y with y + s < total
        if c <= 0:
            return 0
        ways *= c if c < 6 else 6
    return ways


def collision_enter(own, opponents):
    """T39: P(a unit of steadiness `own` moves in), i.e. its total beats every
    opposing total: Σ_x (1/6)·Π_j #{y: y + S_j < x + own}/6.  Reduced."""
    s = 0
    for x in range(1, 7):
        s += _beaten_by(x + own, opponents)
    return frac(s, 6 ** (len(opponents) + 1))


def _max_counts(side, t):
    """Ways the side's highest total is <= t, out of 6**len(side)."""
    ways = 1
    for s in side:
        c = t - s
        if c <= 0:
            return 0
        ways *= c if c < 6 else 6
    return ways


def collision_nobody(side_a, side_b):
    """T39: nobody moves in iff the two sides' highest totals are equal."""
    if not side_a or not side_b:
        raise ValueError("collision: each side needs at least one unit")
    lo = min(min(side_a), min(side_b)) + 1
    hi = max(max(side_a), max(side_b)) + 6
    ties = 0
    for t in range(lo, hi + 1):
        ea = _max_counts(side_a, t) - _max_counts(side_a, t - 1)
        eb = _max_counts(side_b, t) - _max_counts(side_b, t - 1)
        ties += ea * eb
    return frac(ties, 6 ** (len(side_a) + len(side_b)))
