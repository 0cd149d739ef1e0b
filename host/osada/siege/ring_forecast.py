"""The `forecast` request that shows a threat forecast on the ring (F13): the
host works the codes out, the device (osada_fw/siege/forecast_ring.py) only
draws them for 3 s, and only at the state they are stamped with.

Each sector: ⌈4·B_s⌉ LEDs from the city outward (none only when B_s = 0),
green below 10%, amber below 50%, red from 50%, white-red when certain; an
interval (F11) shows its upper end; a sector whose wall alone is at risk
(B_s = 0 < W_s) lights its tank LED amber; the largest B_s pulses (ties all).
L > 0: the ring flashes red once a second; L = 1: solid red."""

from fractions import Fraction

BANDS = ("green", "amber", "red", "certain")     # F13's colours of a chance: below 10%, below 50%, from 50%, 1


def band(v):
    """F13's colour band of a chance v (a Fraction): an index of BANDS."""
    return 3 if v == 1 else 2 if v >= Fraction(1, 2) else 1 if v >= Fraction(1, 10) else 0


def high(fc, target):
    """The worst case's value, or its upper end while it is an interval; None if no such target."""
    if target not in fc.values:
        return None
    w = fc.values[target][0]
    return w if fc.exact else w[1]


def _per_mille(v):
    """⌈1000·v⌉: a value above 0 is never shown as 0."""
    return None if v is None else -((-v.numerator * 1000) // v.denominator)


def sector_code(b, w):
    """The device's code of one sector (forecast_ring.py's layout) from B_s and W_s."""
    b = b or Fraction(0)
    leds = -((-b.numerator * 4) // b.denominator)                # ⌈4·B⌉
    colour = band(b)
    wall_only = 32 if b == 0 and w is not None and w > 0 else 0
    return leds | colour << 3 | wall_only


def request(result):
    """(cmd, fields) of the request that shows LiveResult `result` on the ring (its stamp says for which state)."""
    fc = result.forecast
    bs = [high(fc, ("B", s)) for s in range(1, 7)]
    ws = [high(fc, ("W", s)) for s in range(1, 7)]
    codes = [sector_code(b, w) for b, w in zip(bs, ws)]
    top = max((b for b in bs if b is not None), default=Fraction(0))
    if top > 0:
        codes = [c | 64 if b == top else c for c, b in zip(codes, bs)]
    lost = high(fc, "L") or Fraction(0)
    return ("forecast", {"stamp": [result.turn, result.actions], "s": codes, "l": 2 if lost == 1 else int(lost > 0),
                         "b": [_per_mille(b) for b in bs], "w": [_per_mille(w) for w in ws]})
