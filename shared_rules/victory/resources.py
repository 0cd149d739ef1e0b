"""Paying a cost with resource cards (V14, V15).

A resource card in play, turned, gives one resource of its printed kind, once a
turn (V14): склад S, завод Z, топливо T.  A resource the player lacks may be
replaced by two of the other kinds in any mix (V15), per unit of shortfall and
only for a shortfall (VA1), never chained.  So, per kind, the cards of that kind
pay what they can (direct), each missing unit takes two spare cards of the other
kinds, and a payment turns sum(cost) + sum(shortfall) cards: the fewest there are.
"""

from shared_rules.errors import bad

KINDS = ("S", "Z", "T")         # склад, завод, топливо: also the tie order of V15's substitutes


def check_vector(values, what):
    """Refuse anything but three whole numbers >= 0 (S, Z, T)."""
    if len(values) != 3:
        bad("V14", "%s is three numbers S,Z,T (got %d)" % (what, len(values)))
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            bad("V14", "%s counts cards: whole numbers >= 0 (got %r)" % (what, v))
    return tuple(values)


class Payment:
    """The answer for one cost and the untapped resource cards at hand.

    payable   True if the cards can pay (V15)
    cards     cards turned by the cheapest payment (None if not payable)
    pay       (S, Z, T) cards turned by one cheapest payment (None if not payable)
    short     (S, Z, T) shortfall per kind; spare: (S, Z, T) cards beyond the cost
    subs      [(short kind, (S, Z, T) cards substituting for it)], one entry per short kind
    missing   spare cards lacking for the substitutes: 2*sum(short) - sum(spare), or 0
    to_add    the fewest cards that would make it payable: ceil(missing / 2), cards of the short kinds
    add       (S, Z, T) one such set of cards: the short kinds filled in order S, Z, T
    """

    def __init__(self, have, cost):
        self.have = check_vector(have, "the resource cards at hand")
        self.cost = check_vector(cost, "the cost")
        self.short = tuple(max(0, c - h) for h, c in zip(self.have, self.cost))
        self.spare = tuple(max(0, h - c) for h, c in zip(self.have, self.cost))
        need = 2 * sum(self.short)
        self.payable = need <= sum(self.spare)
        self.missing = 0 if self.payable else need - sum(self.spare)
        self.to_add = (self.missing + 1) // 2
        self.add = _fill(self.short, self.to_add)
        self.cards = self.pay = None
        self.subs = []
        if self.payable:
            taken = take_spares(self.spare, need)
            direct = tuple(min(h, c) for h, c in zip(self.have, self.cost))
            self.pay = tuple(d + t for d, t in zip(direct, taken))
            self.cards = sum(self.pay)
            self.subs = _assign(self.short, taken)


def take_spares(spare, need):
    """V15's substitutes, as the spec orders them: `need` cards taken one at a
    time from the kind with the most spare cards left, ties S > Z > T.
    Returns the cards taken per kind.  Computed by levels, not card by card:
    everything above the lowest level L that leaves at most `need` taken, then
    one card from each kind at level L in the tie order."""
    if need > sum(spare):
        bad("V15", "%d substitute cards are needed and only %d are spare" % (need, sum(spare)))
    lo, hi = 0, max(spare)
    while lo < hi:                          # the lowest L with sum(max(0, e - L)) <= need
        mid = (lo + hi) // 2
        if sum(max(0, e - mid) for e in spare) <= need:
            hi = mid
        else:
            lo = mid + 1
    taken = [max(0, e - lo) for e in spare]
    left = need - sum(taken)
    for i, e in enumerate(spare):
        if left and e >= lo:
            taken[i] += 1
            left -= 1
    return tuple(taken)


def _fill(short, n):
    """n cards of the short kinds, none beyond a kind's shortfall (a card more would only be spare)."""
    out = []
    for d in short:
        out.append(min(d, n))
        n -= out[-1]
    return tuple(out)


def _assign(short, taken):
    """Which substitutes stand for which short kind: two cards per missing unit,
    the short kinds in order S, Z, T, the cards taken in order S, Z, T."""
    pool = [k for k, n in enumerate(taken) for _ in range(n)]
    out = []
    for kind, n in enumerate(short):
        if n:
            used, pool = pool[:2 * n], pool[2 * n:]
            out.append((KINDS[kind], tuple(used.count(k) for k in range(3))))
    return out
