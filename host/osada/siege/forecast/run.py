"""F3, F11: a forecast from start to answer.

Phase 5 is applied once (R20-R25; its damage choice, R25, is the first
choice node: E6), then phase 6's reveals (search.py).  Anytime: the bounds
with every chain cut at its (k+1)-th extender come first (k = 1), then
k = 2, ... and the exact values, each within the time limit and the memory
cap (memo entries times search.ENTRY_BYTES); what is reached last is the
answer.  With U the mass of the chains cut, B(k) what falls in the phase cut
so (before the cut, in a cut chain, included) and B'(k) what falls in the
chains not cut, B is in [B(k), B'(k) + U]: inside F11's [B(k), B(k) + U],
and as low as F11's other reading [B'(k), B'(k) + U].
"""

import os
import time

from osada.siege.forecast import chains, inputs, result
from osada.siege.forecast.compiled import make_search
from osada.siege.forecast.model import ALL_SECTORS, PLAIN, PZ2H, REVEAL3, REVEAL4, step
from osada.siege.forecast.reduce import reduce
from osada.siege.forecast.search import E_FIELD, ENTRY_BYTES, L_FIELD, WHOLE, OutOfTime

MEMORY = 1 << 30            # the memory cap's default: 1 GiB (less on a small machine: default_memory)
SHARE = 4                   # ... and never more than a quarter of the machine's memory
CLOCK = time.perf_counter   # pyright: ignore[reportAttributeAccessIssue]  -- host-only (F12: not on the Pico)


def targets_of(board):
    """{target: its field}: every building, wall and dot standing at the start (F4), then L and E."""
    out = {}
    for letter, base in (("B", 12), ("W", 0), ("D", 6)):
        for s in range(6):
            if (board >> (base + s)) & 1:
                out[(letter, s + 1)] = base + s
    out["L"] = L_FIELD
    out["E"] = E_FIELD
    return out


def machine_memory():
    """The machine's physical memory in bytes, or None where the system does not say."""
    try:
        n = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")  # pyright: ignore[reportAttributeAccessIssue]
    except (AttributeError, ValueError, OSError):                      # (Windows has no sysconf)
        return None
    return n if n > 0 else None


def default_memory(total=None):
    """The memory cap when none is set: MEMORY, or a quarter of the machine's memory (`total`
    bytes, else machine_memory()) where that is less -- a Raspberry Pi with 512 MB or 1 GB runs
    the game beside the monitor, and the forecast must not take what it needs."""
    if total is None:
        total = machine_memory()
    return MEMORY if not total else min(MEMORY, total // SHARE)


class Forecaster:
    """One state's forecast.  state: the engine's state dict (with
    pool_kinds); setup: its game's setup dict (mode, variants, players,
    houses) or None; memory: the cap in bytes (None: default_memory())."""

    def __init__(self, state, setup=None, memory=None):
        if memory is None:
            memory = default_memory()
        pub = inputs.read(state, setup)
        self.pub = pub
        c = pub.counts
        self.extenders = c[PZ2H] + c[REVEAL3] + c[REVEAL4]
        n = sum(c)
        self.den = chains.den(n, min(n, chains.draws_bound(pub.due, c[PZ2H], c[REVEAL3], c[REVEAL4])))
        self.search = make_search(pub.lossmask, (6 * self.den).bit_length() + 2,
                                  max_entries=max(1, memory // ENTRY_BYTES), clock=CLOCK)
        self.phase5 = step(pub.board, pub.groups, ALL_SECTORS)              # R20: phase 5, once
        self.buildings = bin(pub.board >> 12).count("1")
        self.stopped = None                                                 # reached(): why it ended

    def states(self):
        return self.search.states()

    def value(self, cut):
        """(worst, best) field lists over self.den; cut: None (exact) or k (F11)."""
        pub, se = self.pub, self.search
        c = pub.counts
        board5, options = self.phase5
        destroyed = pub.board & ~board5
        lost = 1 if destroyed >> 12 and not (board5 >> 12) & pub.lossmask else 0
        base = self.den * se.indicator(destroyed, lost)
        if lost:
            base += base << (WHOLE * se.w)
            return se.unpack(base), se.unpack(base)
        h = chains.plain_bound(pub.due, c[PZ2H], c[REVEAL3], c[REVEAL4], sum(c[:PLAIN]))
        values = []
        seen = set()
        for g in options:                                                   # R25 in phase 5: a choice node
            red = reduce(board5, g, c, h, True, c[PZ2H])
            ident = (red[0], red[2], red[3])
            if ident in seen:
                continue
            seen.add(ident)
            w, b = se.drawing(board5, red[0], red[1], red[2], pub.due, red[3], cut)
            if destroyed:
                w += se.whole_part(destroyed, self.den, w)
                b += se.whole_part(destroyed, self.den, b)
            values.append((base + w, base + b))
        w, b = se.extremes(values)
        return se.unpack(w), se.unpack(b)

    def answer(self, fields, cut, t0):
        exact = cut is None
        worst, best = fields
        return result.make(targets_of(self.pub.board), worst, best, self.den, exact,
                           CLOCK() - t0, self.states(), buildings=self.buildings, k=cut)

    def reached(self, seconds=None, k=1, first_free=False, only_first=False):
        """(fields, cut) of each answer as it is reached (F11): the bounds with
        every chain cut at its (k+1)-th extender, the next ones, then the exact
        values (cut None) -- within `seconds` (None: no limit; first_free: the
        first whatever the time) and the memory cap; only_first: that one
        alone.  When not even the first came, the chains cut at once (cut 0).
        Then self.stopped says why it ended: "exact", "time" or "memory"."""
        t0 = CLOCK()
        se = self.search
        cuts = [k if self.extenders > k else None] if only_first else list(range(k, self.extenders)) + [None]
        self.stopped = "exact"
        got = False
        for i, cut in enumerate(cuts):
            se.deadline = None if seconds is None or (first_free and i == 0) else t0 + seconds
            try:
                fields = self.value(cut)
            except OutOfTime as exc:
                self.stopped = str(exc) or "time"
                break
            got = True
            yield fields, cut
        se.deadline = None
        if not got:                           # not even the first bounds: the chains cut at once
            se.forget()
            se.max_entries = None
            yield self.value(0), 0

    def run(self, seconds=None, bounds_only=False, k=1):
        """The answer: exact, or the best bounds reached within `seconds`
        (None: no limit) and the memory cap.  bounds_only: the k bounds at once."""
        t0 = CLOCK()
        last = None
        for last in self.reached(None if bounds_only else seconds, k, only_first=bounds_only):
            pass
        return self.answer(last[0], last[1], t0)


def forecast(state, setup=None, seconds=None, bounds_only=False, memory=None, k=1):
    """The threat forecast (F1-F11) of an engine state: a result.Forecast.
    ForecastError (a ValueError) for a state it is not given for (F1, FA1, FA5)."""
    return Forecaster(state, setup, memory).run(seconds, bounds_only, k)
