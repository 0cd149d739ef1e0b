"""Exact chances in words: a reduced fraction, four decimals and a percentage
(`4829/35853 ≈ 0.1347 (13.5%)`), and the plain "p/q" the JSON carries."""

from fractions import Fraction

from osada.words.tank_rolls import chance


def ratio(num, den):
    """num/den in lowest terms, always as "p/q" ("0/1", "1/1" included)."""
    f = Fraction(num, den)
    return "%d/%d" % (f.numerator, f.denominator)


def decimal4(num, den):
    """num/den with four decimals, rounded half up, exactly ("0.1347")."""
    q = (num * 20000 + den) // (2 * den)
    return "%d.%04d" % (q // 10000, q % 10000)


def exact(num, den):
    """"4829/35853 ≈ 0.1347 (13.5%)"; "=" when four decimals are the whole value."""
    f = Fraction(num, den)
    sign = "=" if (f * 10000).denominator == 1 else "≈"
    return "%s %s %s (%s)" % (ratio(num, den), sign, decimal4(num, den), chance(num, den))
