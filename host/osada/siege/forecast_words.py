"""A forecast's values in words, one home for `osada forecast`'s table, the
monitor's panel and the web view (F14, issue 60): what people read.

- A chance is a percentage with one decimal: "<0.1%" above 0 below it,
  ">99.9%" below 1 above it, "0%" and "100%" only when exact; the fraction
  beside it only when it is short (numerator and denominator of at most 6
  digits each): "48.6% (35/72)".
- Expected buildings lost (E) is a decimal with two places: "1.46".
- Bounds (F11) are a range only where their ends read differently:
  "4.5–6.9%", "≤ 0.4%" (from near 0), "≥ 99.5%" (to near 1); ends that read
  the same are one value, "≈ 4.5%".
- Worst and best (F6) are both labelled where they read differently:
  "worst 16.7% (1/6) · best 0%"; else the one value.

fractions=True (`osada forecast --fractions`) gives every exact fraction
instead: "35/72", bounds "≥ 1/8 ≤ 3/8"."""

from fractions import Fraction

from shared_rules.exact import per_mille

NOTHING = "—"
BEST = " · best "         # what comes between the worst case and the best where both are said
SHORT_DIGITS = 6          # a fraction whose parts have at most this many digits is shown beside its percentage


def percent(f):
    """One decimal (exact rounding); "<0.1%" / ">99.9%" near 0 and 1; "0%", "100%" only when exact."""
    if f == 0:
        return "0%"
    if f == 1:
        return "100%"
    if f < Fraction(1, 1000):
        return "<0.1%"
    if f > Fraction(999, 1000):
        return ">99.9%"
    q = per_mille(f.numerator, f.denominator)
    return "%d.%d%%" % (q // 10, q % 10)


def decimal2(f):
    """Two decimal places, rounded half up: "1.46"."""
    q = (f.numerator * 100 + f.denominator // 2) // f.denominator
    return "%d.%02d" % (q // 100, q % 100)


def short_fraction(f):
    """"p/q" when both have at most SHORT_DIGITS digits and it is not a whole number; else None."""
    if f.denominator == 1 or len(str(f.numerator)) > SHORT_DIGITS or len(str(f.denominator)) > SHORT_DIGITS:
        return None
    return "%d/%d" % (f.numerator, f.denominator)


def exact_text(f, expectation=False, fractions=False):
    """One exact value as people read it."""
    if fractions:
        return str(f)
    if expectation:
        return decimal2(f)
    short = short_fraction(f)
    return percent(f) + (" (%s)" % short if short else "")


def bounds_text(low, high, expectation=False, fractions=False):
    """Bounds (F11): a range where the ends read differently, else one value."""
    if low == high:                        # settled already, bounds or not
        return exact_text(low, expectation, fractions)
    if fractions:
        return "≥ %s ≤ %s" % (low, high)
    if expectation:
        a, b = decimal2(low), decimal2(high)
        return "≈ %s" % a if a == b else "%s–%s" % (a, b)
    a, b = percent(low), percent(high)
    if high < Fraction(1, 1000):
        return "<0.1%"
    if low > Fraction(999, 1000):
        return ">99.9%"
    if a == b:
        return "≈ " + percent((low + high) / 2)
    if low < Fraction(1, 1000):
        return "≤ " + b
    if high > Fraction(999, 1000):
        return "≥ " + a
    return "%s–%s" % (a[:-1], b)


def cell(fc, target, expectation=False, fractions=False):
    """A value's words: the worst case, and the best labelled beside it where it reads differently (F6)."""
    if target not in fc.values:
        return NOTHING
    worst, best = fc.values[target]

    def say(v):
        if fc.exact:
            return exact_text(v, expectation, fractions)
        return bounds_text(v[0], v[1], expectation, fractions)
    w, b = say(worst), say(best)
    if b == w:
        return w
    return "worst " + w + BEST + b
