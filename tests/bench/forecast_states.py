"""Where an autoplay turn's forecast spends its time (docs/benchmarks.md, "A sixth look").

For each turn given (its index in forecast_bench.autoplay_states(), 0-241), it prints:

  cut k       the memo states and the time of the bounds with every chain cut at its
              (k+1)-th extender (F11), then of the exact values (cut None), each from a
              fresh search: what each extender still to come costs (with the compiled
              search where it is built: the line says which);
  values      (with --values, from the search in Python, whose memo can be read) how
              many of the exact search's pattern states are distinct by
              (pattern, value): states with one value could at best be merged into
              one, so no memoised search over these states, however it keys them,
              needs fewer; and the same count field by field (each target on its
              own), the floor of a search per target.

    .venv/bin/python -m tests.bench.forecast_states [--values] 1 23 180

Each exact search can take minutes on a turn with three extenders left (in Python,
much longer than compiled).
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from forecast_support import searching_with  # noqa: E402

from osada.siege.forecast import Forecaster  # noqa: E402
from osada.siege.forecast.search import E_FIELD, NFIELDS  # noqa: E402


def distinct_values(search):
    """(states, distinct (pattern, value), {field: distinct (pattern, that field)}) of a
    finished search's pattern memo; E (the sum of the buildings') is left out."""
    memo = search.memo_plain
    w = search.w
    mask = (1 << w) - 1
    per = {}
    for f in range(NFIELDS - 1):
        if f != E_FIELD:
            per[f] = len({(k[3], (v >> (f * w)) & mask) for k, v in memo.items()})
    return len(memo), len({(k[3], v) for k, v in memo.items()}), per


def turn(st, setup, values=False):
    fc = Forecaster(st, setup)
    lines = ["search: %s" % ("compiled" if fc.search.core is not None else "Python")]
    for i, cut in enumerate(list(range(fc.extenders)) + [None]):
        if i:
            fc = Forecaster(st, setup)                  # each cut from a fresh search
        t = time.perf_counter()
        fc.value(cut)
        lines.append("cut %s: %d states, %.2f s" % ("exact" if cut is None else cut, fc.states(),
                                                   time.perf_counter() - t))
    if not values:
        return fc.extenders, lines
    with searching_with(None):                          # Python's memo is the one that can be read
        fc = Forecaster(st, setup)
        fc.value(None)
    states, distinct, per = distinct_values(fc.search)
    lines.append("pattern states %d, distinct by value %d (%.1f times fewer); field by field %d in all"
                 % (states, distinct, states / max(1, distinct), sum(per.values())))
    return fc.extenders, lines


def main(argv):
    from tests.bench.forecast_bench import autoplay_states
    values = "--values" in argv
    argv = [a for a in argv if a != "--values"]
    if not argv:
        print(__doc__.strip())
        return 2
    try:
        wanted = [int(a) for a in argv]
    except ValueError:
        print("give turn indices (0-241), for example: 1 23 180")
        return 2
    states = autoplay_states()
    bad = [i for i in wanted if not 0 <= i < len(states)]
    if bad:
        print("no such turn: %s (there are %d, 0-%d)" % (bad, len(states), len(states) - 1))
        return 2
    for i in wanted:
        st, setup = states[i]
        ext, lines = turn(st, setup, values)
        print("turn index %d (game turn %s, %d extenders left, %d tokens in the pool):"
              % (i, st.get("turn"), ext, st.get("pool")))
        for line in lines:
            print("  " + line)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
