"""The chain of reveals (R30, R32): how many tokens the phase draws, and
which of them are the extenders, as exact integer weights.

The pool's order is uniform, so where the extenders (pz2h, reveal3,
reveal4) lie is independent of the order of the other tokens, which is
uniform in turn.  A *skeleton* -- which draws are which extender -- fixes
how many tokens the phase draws; reveal3 and reveal4 do nothing on the board,
so all that the board sees of a skeleton is its *pattern*: a string of "N"
(a draw of a plain token: uniform over the plain tokens left) and "P" (the
pz2h, placed by the die; left out where fewer than 4 plain draws follow it:
live()).  The value of a state without choices (F5) is
then the weighted sum over patterns of the value of each pattern, whose
draws to come are known exactly: the relevance bounds of F9 use the exact
number, not the largest possible one.

Weights are integers over the drawing state's own denominator (F8):
den = n (n-1) ... (n-m+1) * 6^m, n tokens, m = min(n, due + 3 pz2h + 3
reveal3 + 4 reveal4).  A pattern with h "N" and q "P" is worth its value's
numerator (over h! C(plain, h)-style falling(plain, h) * 6^(h+q)) times its
coefficient.  `cut`: the chain is cut at its (cut+1)-th extender (F11);
the cut mass is U.
"""

from osada.siege.forecast.model import PZ2H, REVEAL3, REVEAL4


def falling(n, k):
    """n (n-1) ... (n-k+1); 1 for k = 0."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def draws_bound(due, p, r3, r4):
    """The most tokens a phase with `due` reveals left can still draw (F8's m before min with n)."""
    return due + 3 * p + 3 * r3 + 4 * r4


def plain_bound(due, p, r3, r4, plain):
    """The most plain (non-extender) draws still possible (F9 c)."""
    return min(plain, due + 2 * p + 2 * r3 + 3 * r4)


def den(n, m):
    """F8: n (n-1) ... (n-m+1) * 6^m."""
    return falling(n, m) * 6 ** m


def _skeletons(due, p, r3, r4, plain, cut, memo):
    """{(pattern, tokens drawn, cut?): sum over skeletons of the extender
    counts' product} from this chain state."""
    key = (due, p, r3, r4, plain, cut)
    got = memo.get(key)
    if got is not None:
        return got
    out = {}
    if due <= 0 or plain + p + r3 + r4 == 0:
        out[("", 0, False)] = 1
        memo[key] = out
        return out

    def add(sub, first, weight):
        for (pat, t, was_cut), c in sub.items():
            k = (first + pat, t + 1, was_cut)
            out[k] = out.get(k, 0) + c * weight

    if plain:
        add(_skeletons(due - 1, p, r3, r4, plain - 1, cut, memo), "N", 1)
    for count, extra, kind in ((p, 3, PZ2H), (r3, 3, REVEAL3), (r4, 4, REVEAL4)):
        if not count:
            continue
        if cut == 0:                                   # F11: the chain is cut here
            k = ("", 1, True)
            out[k] = out.get(k, 0) + count
            continue
        left = (p - (kind == PZ2H), r3 - (kind == REVEAL3), r4 - (kind == REVEAL4))
        sub = _skeletons(due - 1 + extra, left[0], left[1], left[2], plain,
                         None if cut is None else cut - 1, memo)
        add(sub, "P" if kind == PZ2H else "", count)
    memo[key] = out
    return out


def patterns(due, p, r3, r4, plain, cut=None, memo=None):
    """[(pattern, coefficient, uncut coefficient, cut mass)] from a chain
    state, over den(n, m): the state's value is sum(coefficient * S(pattern))
    with S(pattern) over falling(plain, h) * 6^(h+q); the uncut coefficient
    counts only the chains not cut (F11's upper bound); the cut mass U is
    already over den(n, m)."""
    n = plain + p + r3 + r4
    m = min(n, draws_bound(due, p, r3, r4))
    sk = _skeletons(due, p, r3, r4, plain, cut, {} if memo is None else memo)
    agg = {}
    for (pat, t, was_cut), c in sk.items():
        h = pat.count("N")
        q = len(pat) - h
        coef = c * falling(n - t, m - t) * 6 ** (m - h - q)
        mass = coef * falling(plain, h) * 6 ** (h + q) if was_cut else 0
        pat, dropped = live(pat)
        coef *= 6 ** dropped
        whole = 0 if was_cut else coef
        old = agg.get(pat, (0, 0, 0))
        agg[pat] = (old[0] + coef, old[1] + whole, old[2] + mass)
    return [(pat,) + v for pat, v in sorted(agg.items())]


def live(pat):
    """(pattern, dropped): the pattern without every pz2h ("P") that fewer
    than 4 plain draws follow, and how many were dropped.  Placed in the rear,
    such a pz2h can never take the 4 steps to its first wall (F9 c), and it
    can only join a group that is as far from harm: it never changes a
    target.  A pattern's value is over 6^q, one die per "P", so a pattern
    with d of them dropped is worth 6^d times the shorter one's, and the
    same states are met once, not once for every place the pz2h could lie."""
    if "P" not in pat:
        return pat, 0
    out = []
    dropped = 0
    after = 0
    for x in reversed(pat):
        if x == "N":
            after += 1
        elif after < 4:
            dropped += 1
            continue
        out.append(x)
    return "".join(reversed(out)), dropped
