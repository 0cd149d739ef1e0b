"""The claim prover (L17-L20): may the claimant take a field, from what lies on
the table alone?

The claimant's side must be complete (L17).  If the other side is complete
too, no proof is needed: the keys are compared, an equal key going to the side
that completed first (L20, L11).  Otherwise the other side may still be filled
with any `size - k` of the unseen cards, the claimant's own hand included (a
hand is not evidence, L18), and the claim is PROVEN iff no such completion
has a key above the claimant's; an equal one is his, since he completed first
(L19).

Exact, and fast enough for size 4 on a full deck (C(56, 4) = 367 290
completions): the completions are never all listed.  Those of the four
strong types are few and built directly (wedges and columns from one colour's
cards, squares from one value's, phalanxes from each run of values); every
other completion is a skirmish, and those are counted by their sum with a
subset-sum count (all completions by sum, less the strong ones), and listed
only on demand, one sum at a time, strongest first.
"""

from shared_rules.combin import binomial, combinations, product
from shared_rules.errors import RuleError
from shared_rules.line.cards import check_distinct
from shared_rules.line.formation import Formation, classify, in_sequence, winner

STRONG = (5, 4, 3, 2)          # wedge, square, column, phalanx: built directly; rank 1 is counted


class Completions:
    """Every way to fill a side holding `theirs` up to `size` cards with cards
    of `pool`: by type, counted by sum, listed strongest first.  `order` ranks
    cards for a stable listing (deck order); ties in a key are listed in it."""

    def __init__(self, theirs, pool, size, order=None):
        self.theirs = list(theirs)
        self.size = size
        self.need = size - len(self.theirs)
        self.pool = sorted(pool, key=order) if order else sorted(pool)
        self.rank_of = {c: i for i, c in enumerate(self.pool)}
        self.base = sum(v for _, v in self.theirs)
        self.values = [v for _, v in self.theirs]
        self.colours = set(c for c, _ in self.theirs)
        self._strong = None
        self._skirmish = None

    def count(self):
        """All completions: C(|pool|, size - k)."""
        return binomial(len(self.pool), self.need)

    # -- the strong types, built directly

    def strong(self):
        """{rank: [(sum, added cards), ...]} for ranks 5..2, each list strongest
        first (sum down, then the added cards in pool order)."""
        if self._strong is None:
            found = {5: [], 4: [], 3: [], 2: []}
            self._one_colour(found)
            self._one_value(found)
            self._runs(found)
            for rank in STRONG:
                found[rank].sort(key=lambda item: (-item[0], [self.rank_of[c] for c in item[1]]))
            self._strong = found
        return self._strong

    def _one_colour(self, found):
        """Wedges (in sequence) and columns (the rest): all cards of one colour."""
        if len(self.colours) > 1:
            return
        colours = list(self.colours) or sorted(set(c for c, _ in self.pool), key=self._first_of_colour)
        for colour in colours:
            cards = [c for c in self.pool if c[0] == colour]
            for added in combinations(cards, self.need):
                values = self.values + [v for _, v in added]
                found[5 if in_sequence(values) else 3].append((self.base + sum(v for _, v in added), added))

    def _first_of_colour(self, colour):
        return min(self.rank_of[c] for c in self.pool if c[0] == colour)

    def _one_value(self, found):
        """Squares: all cards of one value."""
        if len(set(self.values)) > 1:
            return
        values = set(self.values) or set(v for _, v in self.pool)
        for value in sorted(values):
            cards = [c for c in self.pool if c[1] == value]
            for added in combinations(cards, self.need):
                found[4].append((value * self.size, added))

    def _runs(self, found):
        """Phalanxes: values in sequence, not all of one colour (those are wedges)."""
        if len(set(self.values)) < len(self.values):
            return
        if self.values:
            starts = range(max(self.values) - self.size + 1, min(self.values) + 1)
        else:
            starts = sorted(set(v for _, v in self.pool))
        for start in starts:
            run = list(range(start, start + self.size))
            missing = [w for w in run if w not in self.values]
            options = [[c for c in self.pool if c[1] == w] for w in missing]
            for added in product(options):
                colours = self.colours | set(c for c, _ in added)
                if len(colours) > 1:
                    found[2].append((sum(run), tuple(sorted(added, key=self.rank_of.__getitem__))))

    # -- skirmishes, counted by sum

    def skirmish_sums(self):
        """{sum: number of skirmish completions with that sum}: all completions
        counted by sum (a subset-sum count over the pool's values), less the
        strong ones."""
        if self._skirmish is None:
            ways = [{0: 1}] + [{} for _ in range(self.need)]
            for _, v in self.pool:
                for j in range(self.need, 0, -1):
                    cur = ways[j]
                    for s, n in ways[j - 1].items():
                        cur[s + v] = cur.get(s + v, 0) + n
            sums = {s + self.base: n for s, n in ways[self.need].items()}
            for items in self.strong().values():
                for total, _ in items:
                    sums[total] -= 1
            self._skirmish = {s: n for s, n in sums.items() if n}
        return self._skirmish

    def skirmishes(self, total, limit=None):
        """The skirmish completions with sum `total`, as added-card tuples in pool
        order (at most `limit`)."""
        out = []
        if not self.skirmish_sums().get(total):
            return out
        cards = sorted(self.pool, key=lambda c: -c[1])
        vals = [v for _, v in cards]
        n = len(cards)
        prefix = [0]
        for v in vals:
            prefix.append(prefix[-1] + v)
        chosen = []

        def walk(i, j, rest):
            if j == 0:
                if rest == 0:
                    added = tuple(sorted(chosen, key=self.rank_of.__getitem__))
                    if classify(self.theirs + list(added))[0] == 1:
                        out.append(added)
                return
            if rest < prefix[n] - prefix[n - j]:         # even the j smallest are too many
                return
            for k in range(i, n - j + 1):
                if prefix[k + j] - prefix[k] < rest:     # the j largest from here are too few
                    return
                chosen.append(cards[k])
                walk(k + 1, j - 1, rest - vals[k])
                chosen.pop()

        walk(0, self.need, total - self.base)
        out.sort(key=lambda added: [self.rank_of[c] for c in added])
        return out if limit is None else out[:limit]

    # -- by key

    def each(self, keep):
        """(key, added) of every completion whose key passes `keep`, strongest
        first, one at a time (a caller may stop early)."""
        for rank in STRONG:
            for total, added in self.strong()[rank]:
                if keep((rank, total)):
                    yield (rank, total), added
        for total in sorted(self.skirmish_sums(), reverse=True):
            if keep((1, total)):
                for added in self.skirmishes(total):
                    yield (1, total), added

    def listed(self, keep, limit=None):
        """[(key, added)] of every completion whose key passes `keep`, strongest
        first, at most `limit`."""
        out = []
        for item in self.each(keep):
            if limit is not None and len(out) >= limit:
                break
            out.append(item)
        return out

    def counted(self, keep):
        """How many completions have a key that passes `keep`."""
        n = sum(1 for rank in STRONG for total, _ in self.strong()[rank] if keep((rank, total)))
        return n + sum(k for total, k in self.skirmish_sums().items() if keep((1, total)))

    def best(self):
        """(key, how many completions have it) of the strongest completion, or None if there is none."""
        for rank in STRONG:
            items = self.strong()[rank]
            if items:
                top = items[0][0]
                return (rank, top), sum(1 for total, _ in items if total == top)
        sums = self.skirmish_sums()
        if not sums:
            return None
        top = max(sums)
        return (1, top), sums[top]


class Proof:
    """The claimant's proof for one field.

    proven      True, False, or None (both complete, equal keys, and who
                completed first is not known: L11 decides it at the table)
    both        True when both sides are complete (L20): no completions
    total, beats, ties, best, best_count   (open side) the completions: how
                many, how many beat the claimant, how many equal him (his, L19),
                the best key he could still make and how many make it
    beating(limit), tying(limit), best_ways(limit)   the completions themselves,
                [(key, added cards)], strongest first
    """

    def __init__(self, mine, theirs, pool, first=None, order=None):
        if not isinstance(mine, Formation) or not isinstance(theirs, Formation):
            raise TypeError("Proof takes two Formations")
        if not mine.complete:
            raise RuleError("L17", "the claimant's formation holds %s cards: only a complete formation can "
                                   "claim a field" % mine.progress())
        pool = list(pool)
        check_distinct(mine.cards + theirs.cards + pool, " (on the table and unseen)")
        self.mine, self.theirs, self.pool = mine, theirs, pool
        self.both = theirs.complete
        self.first = first
        if self.both:
            win = winner(mine, theirs, {"mine": "a", "theirs": "b"}.get(first))
            self.proven = None if win is None else win == "a"
            self.completions = None
            self.total = self.beats = self.ties = 0
            self.best, self.best_count = theirs.key, 1
            return
        self.completions = Completions(theirs.cards, pool, theirs.size, order)
        key = mine.key
        self.total = self.completions.count()
        self.beats = self.completions.counted(lambda k: k > key)
        self.ties = self.completions.counted(lambda k: k == key)
        found = self.completions.best()
        self.best, self.best_count = found if found else (None, 0)
        self.proven = self.beats == 0

    def beating(self, limit=None):
        if self.both:
            return [] if self.proven is not False else [(self.theirs.key, ())]
        key = self.mine.key
        return self.completions.listed(lambda k: k > key, limit)

    def tying(self, limit=None):
        if self.both:
            return [(self.theirs.key, ())] if self.theirs.key == self.mine.key else []
        key = self.mine.key
        return self.completions.listed(lambda k: k == key, limit)

    def best_ways(self, limit=None):
        if self.both:
            return [(self.theirs.key, ())]
        if self.best is None:
            return []
        best = self.best
        return self.completions.listed(lambda k: k == best, limit)

