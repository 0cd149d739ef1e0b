"""Counting helpers for the prover and the odds: binomial coefficients and the
k-subsets and products of small lists, in a stable order (plain Python: the
Pico's MicroPython has neither itertools nor math.comb, and this package keeps
to what both runtimes have)."""


def binomial(n, k):
    """C(n, k) in integers; 0 outside 0 <= k <= n."""
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


def combinations(items, k):
    """Every k-subset of `items` as a tuple, in the items' order (lexicographic by position)."""
    n = len(items)
    if k > n or k < 0:
        return
    idx = list(range(k))
    yield tuple(items[i] for i in idx)
    while True:
        i = k - 1
        while i >= 0 and idx[i] == i + n - k:
            i -= 1
        if i < 0:
            return
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
        yield tuple(items[i] for i in idx)


def product(lists):
    """Every tuple taking one item from each list, the first list varying slowest."""
    out = [()]
    for options in lists:
        out = [t + (o,) for t in out for o in options]
    return out
