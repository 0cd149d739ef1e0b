"""Exact odds as integers, shared by the games' odds: a fraction is a
(numerator, denominator) pair reduced by gcd, printed in lowest terms or as a
percentage with one decimal.  Plain Python for both runtimes (MicroPython has
no fractions module and no math.gcd)."""


def gcd(a, b):
    a = -a if a < 0 else a
    b = -b if b < 0 else b
    while b:
        a, b = b, a % b
    return a


def frac(num, den):
    """num/den reduced: (numerator, denominator), denominator > 0."""
    if den == 0:
        raise ZeroDivisionError("frac: zero denominator")
    if den < 0:
        num, den = -num, -den
    g = gcd(num, den) or 1
    return num // g, den // g


def per_mille(num, den):
    """num/den in thousandths, rounded half up."""
    return (num * 1000 + den // 2) // den


def decimal3(num, den):
    """num/den as text with three decimals ("0.636", "2.142"), exact rounding."""
    q = per_mille(num, den)
    return "%d.%03d" % (q // 1000, q % 1000)


def percent1(num, den):
    """num/den as a percentage with one decimal ("36.9%"): per-mille is tenths of a percent."""
    q = per_mille(num, den)
    return "%d.%d%%" % (q // 10, q % 10)
