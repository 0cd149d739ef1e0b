"""A forecast's values in words, one home for `osada forecast`'s table, the
monitor's panel and the web view: "p/q (xx.x%)" in lowest terms (F14), bounds
as "≥ a ≤ b", the best case beside the worst where they differ (F6)."""

from shared_rules.exact import decimal3, percent1

NOTHING = "—"


def percent(f):
    """One decimal; "<0.1%" for a value above 0 below it, ">99.9%" below 1 above it (F14)."""
    if 0 < f < 0.001:
        return "<0.1%"
    if 0.999 < f < 1:
        return ">99.9%"
    return percent1(f.numerator, f.denominator)


def decimal(f):
    return decimal3(f.numerator, f.denominator)


def exact_text(f, expectation=False):
    return "%s (%s)" % (f, decimal(f) if expectation else percent(f))


def bounds_text(low, high, expectation=False):
    if low == high:                        # settled already, bounds or not
        return exact_text(low, expectation)
    if expectation:
        return "≥ %s ≤ %s" % (decimal(low), decimal(high))
    return "≥ %s ≤ %s" % (percent(low), percent(high))


def cell(fc, target, expectation=False):
    """A value's words: worst, and the best beside it where they differ (F6)."""
    if target not in fc.values:
        return NOTHING
    worst, best = fc.values[target]
    say = exact_text if fc.exact else (lambda v, e=False: bounds_text(v[0], v[1], e))
    text = say(worst, expectation)
    if best != worst:
        text += ", best " + say(best, expectation)
    return text
