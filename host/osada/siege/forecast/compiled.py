"""F7-F9, F12: the forecast's search compiled, where it could be built.

csrc/ is search.py's two searches in C (the module `fastcore`, which setup.py
builds as an optional extension where a C compiler is at hand): the same
states, the same reductions and the same integers, 50 to 80 times sooner on
one core.  On a machine with more, as many threads as it has (4 at most)
search each state at once, each its own way round, sharing the memos: what
one has worked out the others find, and the first to finish answers (1.4 to
2.2 times sooner again on two cores).

CompiledSearch hands each state to it and falls back on search.py's own
Search for the rest of its life when a state is beyond its limits (it raises
OverflowError: a cell of more than 14 enemies, counts over 200); a pool so
large that a value's fields need more than 126 bits (a scenario's, far beyond
the 49 tokens) is searched in Python from the start.  make_search() picks.
"""

from osada.siege.forecast.model import FULL
from osada.siege.forecast.search import ENTRY_BYTES, ChoiceFound, OutOfTime, Search

try:
    import osada.siege.forecast.fastcore as CORE  # pyright: ignore  -- built by setup.py, host only
except ImportError:                   # no C compiler at `make setup`: Python's search alone
    CORE = None

WIDEST = 126                          # the compiled fields' bits (unsigned 128-bit, a margin for the sums)
THREADS = 0                           # threads searching a state at once: 0, the machine's cores (4 at most)


def make_search(lossmask, width, deadline=None, max_entries=None, clock=None):
    """The compiled search where it was built and the values fit it, else search.py's."""
    if CORE is not None and width <= WIDEST:
        return CompiledSearch(lossmask, width, deadline, max_entries, clock)
    return Search(lossmask, width, deadline, max_entries, clock)


class CompiledSearch(Search):
    """Search with plain() and drawing() worked out by the compiled core; its
    memos are the core's (Search's stay empty unless it falls back)."""

    def __init__(self, lossmask, width, deadline=None, max_entries=None, clock=None):
        Search.__init__(self, lossmask, width, deadline, max_entries, clock)
        self.core = CORE.Core(lossmask, width, FULL, ChoiceFound, OutOfTime, THREADS)

    def _budget(self):
        """The seconds left before the deadline, 0 once it is past (-1: none): the core keeps its own clock."""
        return -1.0 if self.deadline is None else max(0.0, self.deadline - self.clock())  # pyright: ignore[reportOptionalCall]

    def _max_bytes(self):
        """The memory cap in bytes (0: none): the core counts what its memos really hold, where
        Python's search counts entries at ENTRY_BYTES each (run.py's cap was given in bytes)."""
        return (self.max_entries or 0) * ENTRY_BYTES

    def plain(self, board, gkey, groups, counts, pattern, members):
        if self.core is not None:
            try:
                return self.core.plain(board, gkey, counts, pattern, members, self._budget(), self._max_bytes())
            except OverflowError:                 # beyond its limits: Python from here on
                self.core = None
        return Search.plain(self, board, gkey, groups, counts, pattern, members)

    def drawing(self, board, gkey, groups, counts, due, members, cut):
        if self.core is not None:
            try:
                return self.core.drawing(board, gkey, counts, due, members, cut, self._budget(), self._max_bytes())
            except OverflowError:
                self.core = None
        return Search.drawing(self, board, gkey, groups, counts, due, members, cut)

    def entries(self):
        return Search.entries(self) + (self.core.entries() if self.core is not None else 0)

    def states(self):
        return Search.states(self) + (self.core.entries() if self.core is not None else 0)

    def forget(self):
        Search.forget(self)
        if self.core is not None:
            self.core.clear()
