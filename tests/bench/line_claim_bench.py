"""The line-of-battle claim prover's speed on a full deck (issue 29: "fast
enough to feel instant"), printed, not judged (not part of `make bench`):

    .venv/bin/python -m tests.bench.line_claim_bench

Each case is one Proof over the whole unseen pool (every completion counted,
the best found, the beating ones ready to list), the median and the worst of
REPEATS runs, on the 60-card deck of the spec (6 colours x 1-10); then one
`osada line claim` command end to end (a new Python process: start-up
included), the listing of every field of table T for both sides, and the
cards that would let a side claim on 9 fields of size 4 at once.
"""

import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from shared_rules.line import claims  # noqa: E402
from shared_rules.line.cards import Deck  # noqa: E402
from shared_rules.line.formation import evaluate  # noqa: E402
from shared_rules.line.prover import Proof  # noqa: E402
from shared_rules.line.state import from_dict  # noqa: E402

REPEATS = 20
DECK = Deck()
# (size, the claimant's side, the other side): the other side empty is the most completions
CASES = [
    (3, "R1 B2 G4", ""),            # a weak skirmish: nearly every completion beats it, C(57, 3) = 29 260
    (3, "R8 R9 R10", ""),           # the best wedge: proven, 1 tie kind
    (3, "B4 G5 R6", "Y8 P8"),       # table T's field 2 without the rest of the table: C(55, 1)
    (4, "R1 B2 G4 Y7", ""),         # C(56, 4) = 367 290 completions, 341 085 beat it
    (4, "G7 G8 G9 G10", ""),        # proven: 0 beat, 5 tie
    (4, "R5 B5 G5 Y5", ""),         # a square: 101 beat
]


def timed(fn):
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, max(times) * 1000, result


def proof_case(size, mine, theirs):
    m = evaluate(DECK.parse([mine]), size)
    t = evaluate(DECK.parse([theirs]) if theirs else [], size)
    table = set(m.cards + t.cards)
    pool = [c for c in DECK.cards if c not in table]

    def run():
        p = Proof(m, t, pool, None, DECK.index.__getitem__)
        p.beating(20)
        return p
    return run


def main():
    print("claim prover, full deck of %d cards, median / worst of %d runs:" % (len(DECK), REPEATS))
    for size, mine, theirs in CASES:
        med, worst, p = timed(proof_case(size, mine, theirs))
        print("  size %d  %-14s vs %-7s %7d completions, %6d beat, %4d tie, %-10s %6.1f ms / %6.1f ms" % (
            size, mine, theirs or "-", p.total, p.beats, p.ties, "PROVEN" if p.proven else "NOT PROVEN", med, worst))
    with open(os.path.join(ROOT, "docs", "line-table-t.json"), encoding="utf-8") as fh:
        st = from_dict(json.load(fh))
    med, worst, _ = timed(lambda: (claims.now(st, "south"), claims.next_play(st, "south"),
                                   claims.now(st, "north"), claims.next_play(st, "north")))
    print("  table T, every field, both sides (now and after one more card): %.1f ms / %.1f ms" % (med, worst))
    names = ["%s%d" % c for c in DECK.cards]
    wide = from_dict({"fields": {str(n): {"size": 4, "north": names[6 * n - 6:6 * n - 3]} for n in range(1, 10)}})
    med, worst, found = timed(lambda: claims.next_play(wide, "north"))
    print("  size 4 on all 9 fields, North 3 cards on each, South none: the cards that would let North claim "
          "(%d tried a field): %.1f ms / %.1f ms" % (len(claims.playable(wide, "north")), med, worst))
    cmd = [sys.executable, "-m", "osada.cli", "line", "claim", "--size", "4", "--mine", "R1", "B2", "G4", "Y7",
           "--theirs"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT]))
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
        runs.append(time.perf_counter() - t0)
    print("  `osada line claim --size 4 --mine R1 B2 G4 Y7 --theirs` end to end (new process): %.0f ms median "
          "of 5" % (statistics.median(runs) * 1000))


if __name__ == "__main__":
    main()
