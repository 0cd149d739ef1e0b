"""F7, F8, F11: the memoised expectimax over the public state.

Values are vectors of integer numerators over the state's own denominator
(F8), packed into one int: field f (`width` bits) holds target f, the
board's bit number for a wall (0-5), a dot (6-11) or a building (12-17),
then L (18), E (19) and U, the mass of chains cut (F11, 20); with a cut,
fields 21-41 repeat 0-20 counting only the chains not cut (what falls in a
cut chain before the cut is certain, the rest undecided: the bounds are
[all, not cut + U]).  Adding, weighting and scaling a vector is then one
integer operation.  A state's value counts only what falls from then on;
the move into it adds what that move destroyed.

Two searches share the work:

  plain(...)   the *pattern* search: the chain's shape is fixed (chains.py),
               every draw to come is known to be a plain token or the pz2h;
               no damage choice may matter (it would be a choice made
               knowing the future: ChoiceFound says so), so one vector.  A
               choice whose options are worth the same under the pattern
               does not matter: if that holds under every pattern, no way
               of choosing changes any target.
  drawing(...) draw by draw, with the extenders in the pool and `due`
               reveals left, as the table sees it: it first tries the
               patterns; where a damage choice can matter (a panther in the
               pool, R25) it draws one token and goes on, and a choice
               node takes, target by target, the largest (worst) and the
               smallest (best) value of its options (F5, F6).

The memos: the two searches' (keyed by the reduced state, the pool as
counts: F7); the phase's last draw by board and the occupied cells of the
tank line and the city alone (no pool: one draw can only strike from there,
whatever the armor); the last two draws' quadratic form in the pool's counts
by board (worked out the second time a board is met); and a cache from the
raw state after a draw to its value (reduce() is the dearest step), the first
thing dropped at the memory cap.

Both searches also exist compiled (csrc/; compiled.py hands them a state where
setup.py could build them): the same integers, 50 to 80 times sooner.  This
module is the search in Python, for a machine without it and for a state
beyond its limits.
"""

from operator import mul  # pyright: ignore[reportMissingImports]  -- host-only (F12: not on the Pico)

from osada.siege.forecast import chains
from osada.siege.forecast.model import (
    ALL_SECTORS,
    BLANK,
    COLOR_SECTORS,
    EXTRA,
    HE111,
    MAUS,
    MOVE_BLUE,
    MOVE_CCW,
    MOVE_CW,
    MOVE_RED,
    PANTHER,
    PLAIN,
    PZ2H,
    PZ4H,
    REVEAL3,
    REVEAL4,
    bomb,
    bomb_board,
    hit_board,
    place,
    repaired,
    rotate,
    rotate_board,
    step,
)
from osada.siege.forecast.reduce import reach_of, reduce

L_FIELD = 18
E_FIELD = 19
U_FIELD = 20
NFIELDS = 21
WHOLE = 21                 # the first field of the part not cut (F11)
ENTRY_BYTES = 600          # a memo entry's rough size (key tuple, groups, counts, value): the memory cap's unit


class ChoiceFound(Exception):
    """A damage choice (R25) matters below a pattern: draw by draw instead."""


class OutOfTime(Exception):
    """The time limit or the memory cap was reached."""


class Search:
    """One forecast's memos.  lossmask: the buildings whose fall together
    loses the game (all of them, R50; the players' houses, R62)."""

    core = None                   # the compiled search, none in Python's (compiled.CompiledSearch)

    def __init__(self, lossmask, width, deadline=None, max_entries=None, clock=None):
        self.lossmask = lossmask
        self.clock = clock
        self.w = width
        self.deadline = deadline
        self.max_entries = max_entries
        self.memo_plain = {}
        self.memo_draw = {}
        self.memo_chain = {}
        self.memo_last = {}
        self.memo_pair = {}
        self.memo_raw = {}
        self.ind = {}
        self.checked = 0

    # ---------------------------------------------------------------- vectors

    def indicator(self, destroyed, lost):
        """The vector of a move that destroyed `destroyed` (board bits) and lost (or not)."""
        key = destroyed | lost << 18
        v = self.ind.get(key)
        if v is None:
            w = self.w
            v = 0
            for b in range(18):
                if (destroyed >> b) & 1:
                    v |= 1 << (b * w)
            v += lost << (L_FIELD * w)
            v += bin(destroyed >> 12).count("1") << (E_FIELD * w)
            self.ind[key] = v
        return v

    def unpack(self, v, fields=2 * NFIELDS):
        w = self.w
        mask = (1 << w) - 1
        return [(v >> (i * w)) & mask for i in range(fields)]

    def pack(self, fields):
        w = self.w
        v = 0
        for i, x in enumerate(fields):
            v |= x << (i * w)
        return v

    def extremes(self, values):
        """[(worst, best)] -> (worst, best): field by field, the largest worst
        and the smallest best (F6)."""
        if len(values) == 1:
            return values[0]
        worst = [self.unpack(v[0]) for v in values]
        best = [self.unpack(v[1]) for v in values]
        return (self.pack([max(col) for col in zip(*worst)]),
                self.pack([min(col) for col in zip(*best)]))

    def forget(self):
        """Drop every memo (the memory cap was reached)."""
        for memo in (self.memo_plain, self.memo_draw, self.memo_last, self.memo_pair, self.memo_raw):
            memo.clear()

    def entries(self):
        """Memo entries held: the memory cap's measure."""
        return (len(self.memo_plain) + len(self.memo_draw) + len(self.memo_raw) + len(self.memo_last)
                + 4 * len(self.memo_pair))

    def states(self):
        """The memo states of the two searches (what a forecast reports)."""
        return len(self.memo_plain) + len(self.memo_draw)

    def _tick(self):
        self.checked += 1
        if self.checked & 255:
            return
        if self.deadline is not None and self.clock() > self.deadline:  # pyright: ignore[reportOptionalCall]
            raise OutOfTime("time")
        if self.max_entries is not None and self.entries() > self.max_entries:
            if self.entries() - len(self.memo_raw) > self.max_entries:
                raise OutOfTime("memory")
            self.memo_raw.clear()                         # a cache of reduce()'s work: the first to go

    # ------------------------------------------------ what a token does

    def effects(self, kind, board, groups, members, after, h_after):
        """[(weight, board, [groups...])] for drawing `kind` (weights out of 6:
        the die).  after/h_after: the pool and the plain draws left after it."""
        if kind == BLANK or kind in EXTRA and kind != PZ2H:
            return [(6, board, [groups])]
        if kind == HE111:                                           # R40-R42
            out = []
            for s in range(6):
                b, g = bomb(board, groups, s)
                out.append((1, b, [g]))
            return out
        if MOVE_RED <= kind <= MOVE_BLUE:                           # R33
            b, opts = step(board, groups, COLOR_SECTORS[kind - MOVE_RED])
            return [(6, b, opts)]
        if kind == MOVE_CW or kind == MOVE_CCW:                     # R26
            b, opts = rotate(board, groups, 1 if kind == MOVE_CW else 5)
            return [(6, b, opts)]
        return self._placed(kind, board, groups, members, after, h_after)

    def _placed(self, kind, board, groups, members, after, h_after):
        """R31, R32: a tank or special enemy placed by the die, then its
        effect.  A die whose enemy can never strike (F9 c) places nothing:
        those faces are one branch (by colour for the pz4h)."""
        first = 3 if kind == PZ4H or kind == MAUS else 4
        r = reach_of(after, h_after)
        out = []
        dead = [0, 0, 0]                            # faces placing nothing, by colour
        for s in range(6):
            if r.steps(s, h_after) < first:
                dead[s >> 1] += 1
                continue
            g = place(groups, kind, s, members)
            if kind == PZ4H:
                b, opts = step(board, g, COLOR_SECTORS[s >> 1])
                out.append((1, b, opts))
            elif kind == MAUS:
                b, opts = step(board, g, ALL_SECTORS)
                out.append((1, b, opts))
            elif kind == PANTHER and members:
                out.append((1, board, [repaired(g)]))
            else:
                out.append((1, board, [g]))
        if not any(dead):
            return out
        if kind == PZ4H:
            for col in range(3):
                if dead[col]:
                    b, opts = step(board, groups, COLOR_SECTORS[col])
                    out.append((dead[col], b, opts))
            return out
        n = dead[0] + dead[1] + dead[2]
        if kind == MAUS:
            b, opts = step(board, groups, ALL_SECTORS)
            out.append((n, b, opts))
        elif kind == PANTHER and members:
            out.append((n, board, [repaired(groups)]))
        else:
            out.append((n, board, [groups]))
        return out

    # -------------------------------------------------- the pattern search

    def last(self, board, cells):
        """[value of drawing kind k as the phase's last token, over 6] for a
        board and the occupied cells of the tank line and the city (nothing
        else can be hit by one draw, whatever its armor): no pool in the key."""
        key = (board, cells)
        v = self.memo_last.get(key)
        if v is None:
            v = [0] * PLAIN
            hit = self._hit
            v[HE111] = sum(hit(board, bomb_board(board, s)) for s in range(6))
            for col in range(3):
                x = hit(board, hit_board(board, cells, COLOR_SECTORS[col]))
                v[MOVE_RED + col] = 6 * x
                v[PZ4H] += 2 * x                          # the pz4h itself lands in the rear: no blow
            v[MAUS] = 6 * hit(board, hit_board(board, cells, ALL_SECTORS))
            v[MOVE_CW] = 6 * hit(board, rotate_board(board, cells, 1))
            v[MOVE_CCW] = 6 * hit(board, rotate_board(board, cells, 5))
            self.memo_last[key] = v
        return v

    def _hit(self, before, after):
        destroyed = before & ~after
        if not destroyed:
            return 0
        return self.indicator(destroyed, 1 if destroyed >> 12 and not (after >> 12) & self.lossmask else 0)

    def plain(self, board, gkey, groups, counts, pattern, members):
        """The value of a reduced state whose draws to come are `pattern`
        (over falling(plain, h) * 6^(h+q)); raises ChoiceFound."""
        key = (board, gkey, counts, pattern, members)
        v = self.memo_plain.get(key)
        if v is not None:
            return v
        self._tick()
        if pattern == "N":
            v = self._last_draw(board, groups, counts)
            self.memo_plain[key] = v
            return v
        if pattern == "P":
            self.memo_plain[key] = 0
            return 0
        if pattern == "NN":
            seen = self.memo_pair.get((board, gkey, members))
            if seen is not None:                  # its board met again, with another pool
                v = self._two_draws(board, gkey, groups, counts, members, seen)
                self.memo_plain[key] = v
                return v
            self.memo_pair[(board, gkey, members)] = 0
        rest = pattern[1:]
        h = rest.count("N")
        q = len(rest) - h
        acc = 0
        if pattern[0] == "N":
            n = sum(counts)
            dc = chains.falling(n - 1, h) * 6 ** (h + q)
            after = list(counts)
            for k in range(PLAIN):
                cnt = counts[k]
                if not cnt:
                    continue
                after[k] -= 1
                t = tuple(after)
                for weight, b, opts in self.effects(k, board, groups, members, t, h):
                    acc += cnt * weight * self._next_plain(board, b, opts, t, rest, h, q, members, dc)
                after[k] += 1
        else:                                                   # "P": the pz2h (R32)
            dc = chains.falling(sum(counts), h) * 6 ** (h + q)
            for weight, b, opts in self.effects(PZ2H, board, groups, members, counts, h):
                acc += weight * self._next_plain(board, b, opts, counts, rest, h, q, members, dc)
        self.memo_plain[key] = acc
        return acc

    def _two_draws(self, board, gkey, groups, counts, members, pair):
        """A state with two plain draws to come: a quadratic form in the
        pool's counts whose coefficients -- what each kind's draw destroys
        (T) and the last draw's values after it (S) -- are the board's
        alone, worked out once (the second time the board is met: most are
        met once) for every pool it meets."""
        if not pair:
            pair = []
            for k in range(PLAIN):
                t = 0
                weights = []
                lasts = []
                for weight, b, opts in self.effects(k, board, groups, members, counts, 1):
                    destroyed = board & ~b
                    lost = 1 if destroyed >> 12 and not (b >> 12) & self.lossmask else 0
                    if destroyed:
                        t += weight * self.indicator(destroyed, lost)
                    if not lost:                  # a damage choice cannot matter to the last draw
                        weights.append(weight)
                        lasts.append(self.last(b, tuple(sorted(c for c in opts[0] if c >= 18))))
                svec = [sum(map(mul, weights, col)) for col in zip(*lasts)] if lasts else [0] * PLAIN
                pair.append((t, svec))
            self.memo_pair[(board, gkey, members)] = pair
        dc = (sum(counts) - 1) * 6
        acc = 0
        for k in range(PLAIN):
            ck = counts[k]
            if ck:
                t, svec = pair[k]
                acc += ck * (dc * t + sum(map(mul, counts, svec)) - svec[k])
        return acc

    def _last_draw(self, board, groups, counts):
        return sum(map(mul, counts, self.last(board, tuple(sorted(c for c in groups if c >= 18)))))

    def _next_plain(self, before, board, opts, counts, rest, h, q, members, dc):
        destroyed = before & ~board
        if destroyed >> 12 and not (board >> 12) & self.lossmask:          # R50, R62
            return dc * self.indicator(destroyed, 1)
        base = dc * self.indicator(destroyed, 0) if destroyed else 0
        if len(rest) < 2:
            if rest == "N":                      # the last draw: a damage choice cannot matter any more
                return base + self._last_draw(board, opts[0], counts)
            return base
        if q:
            short = _live(counts, rest, h)
            if short is not rest:
                return base + 6 * self._next_plain(board, board, opts, counts, short, h, q - 1, members, dc)
        raw = (board, tuple(sorted(opts[0].items())), counts, rest, members) if len(opts) == 1 else None
        v = self.memo_raw.get(raw)
        if v is not None:
            return base + v
        red = reduce(board, opts[0], counts, h, members, q)
        v = self.plain(board, red[0], red[1], red[2], rest, red[3])
        for other in opts[1:]:
            alt = reduce(board, other, counts, h, members, q)
            if (alt[0] != red[0] or alt[2] != red[2] or alt[3] != red[3]) \
                    and self.plain(board, alt[0], alt[1], alt[2], rest, alt[3]) != v:
                raise ChoiceFound()             # the choice changes a target under this pattern (R25)
        if raw is not None:
            self.memo_raw[raw] = v
        return base + v

    # -------------------------------------------------- draw by draw

    def drawing(self, board, gkey, groups, counts, due, members, cut):
        """(worst, best) of a reduced state with `due` reveals left and the
        whole pool (16 kinds) in counts, over chains.den(n, m)."""
        n = sum(counts)
        if due <= 0 or n == 0:
            return (0, 0)
        key = (board, gkey, counts, due, members, cut)
        v = self.memo_draw.get(key)
        if v is not None:
            return v
        self._tick()
        try:
            v = self._by_patterns(board, groups, counts, due, members, cut)
            v = (v, v)
        except ChoiceFound:
            v = self._by_draws(board, groups, counts, due, members, cut)
        self.memo_draw[key] = v
        return v

    def _by_patterns(self, board, groups, counts, due, members, cut):
        p, r3, r4 = counts[PZ2H], counts[REVEAL3], counts[REVEAL4]
        plain = counts[:PLAIN]
        acc = 0
        whole = WHOLE * self.w
        for pat, coef, uncut, mass in chains.patterns(due, p, r3, r4, sum(plain), cut, self.memo_chain):
            if mass:
                acc += mass << (U_FIELD * self.w)
            if not pat:
                continue
            h = pat.count("N")
            short = _live(plain, pat, h)
            if short is not pat:
                pat = short
                coef *= 6
                uncut *= 6
            red = reduce(board, groups, plain, h, members, len(pat) - h)
            v = self.plain(board, red[0], red[1], red[2], pat, red[3])
            acc += coef * v
            if cut is not None and uncut:
                acc += (uncut * v) << whole
        return acc

    def _by_draws(self, board, groups, counts, due, members, cut):
        n = sum(counts)
        p, r3, r4 = counts[PZ2H], counts[REVEAL3], counts[REVEAL4]
        m = min(n, chains.draws_bound(due, p, r3, r4))
        dc = chains.den(n - 1, m - 1)
        worst = best = 0
        after = list(counts)
        for k in range(len(counts)):
            cnt = counts[k]
            if not cnt:
                continue
            after[k] -= 1
            t = tuple(after)
            due2 = due - 1 + EXTRA.get(k, 0)
            if k in EXTRA and cut == 0:                                    # F11: cut here
                u = (cnt * 6 * dc) << (U_FIELD * self.w)
                worst += u
                best += u
                after[k] += 1
                continue
            cut2 = cut - 1 if k in EXTRA and cut is not None else cut
            h2 = chains.plain_bound(due2, t[PZ2H], t[REVEAL3], t[REVEAL4], sum(t[:PLAIN]))
            for weight, b, opts in self.effects(k, board, groups, members, t, h2):
                vw, vb = self._next_draw(board, b, opts, t, due2, h2, members, cut2, dc)
                worst += cnt * weight * vw
                best += cnt * weight * vb
            after[k] += 1
        return (worst, best)

    def _next_draw(self, before, board, opts, counts, due, h, members, cut, dc):
        destroyed = before & ~board
        if destroyed >> 12 and not (board >> 12) & self.lossmask:          # R50, R62
            v = dc * self.indicator(destroyed, 1)
            if cut is not None:
                v += v << (WHOLE * self.w)
            return (v, v)
        base = dc * self.indicator(destroyed, 0) if destroyed else 0
        values = []
        seen = set()
        for g in opts:
            red = reduce(board, g, counts, h, members, counts[PZ2H])
            ident = (red[0], red[2], red[3])
            if ident in seen:
                continue
            seen.add(ident)
            vw, vb = self.drawing(board, red[0], red[1], red[2], due, red[3], cut)
            if cut is not None and destroyed:
                vw += self.whole_part(destroyed, dc, vw)
                vb += self.whole_part(destroyed, dc, vb)
            values.append((base + vw, base + vb))
        return self.extremes(values)

    def whole_part(self, destroyed, dc, v):
        """The part not cut of what this move destroyed: dc less the child's cut mass, times it."""
        w = self.w
        u = (v >> (U_FIELD * w)) & ((1 << w) - 1)
        return ((dc - u) * self.indicator(destroyed, 0)) << (WHOLE * w)


def _live(counts, pattern, h):
    """The pattern (h plain draws, a pz2h among them) without its pz2h when
    the pool left cannot give it the 4 steps to its first wall (F9 c): as
    chains.live for a pz2h too late in the chain, its place is left out (the
    value is 6 times the shorter pattern's: its die) and the states after it
    are those of the plain draws alone.  The pattern itself when it can."""
    i = pattern.find("P")
    if i < 0 or reach_of(counts, h - pattern.count("N", 0, i)).outer_max >= 4:
        return pattern
    return pattern[:i] + pattern[i + 1:]
