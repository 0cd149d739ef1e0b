"""A forecast's answer: exact fractions in lowest terms (F4, F8), worst and
best (F6), or the bounds of F11; and its JSON shape (`osada forecast --json`).

Targets are named ("B", s), ("W", s), ("D", s) for sector s, "L" and "E";
values are fractions.Fraction, which keeps them in lowest terms.
"""

from fractions import Fraction  # pyright: ignore[reportMissingImports]  -- host-only (deploy leaves siege/forecast/ off)

GROUPS = (("B", "buildings"), ("W", "walls"), ("D", "dots"))


class Forecast:
    """values: {target: (worst, best)} when exact; else bounds:
    {target: ((worst_low, worst_high), (best_low, best_high))}.
    targets: the targets present at the start, in order; states: memo
    entries used; seconds: the time it took; k: the cut of the bounds."""

    def __init__(self, targets, values, exact, seconds, states, k=None):
        self.targets = targets
        self.values = values
        self.exact = exact
        self.seconds = seconds
        self.states = states
        self.k = k

    def worst(self, target):
        v = self.values[target][0]
        return v if self.exact else v[1]

    def best(self, target):
        v = self.values[target][1]
        return v if self.exact else v[0]

    def to_json(self):
        """The object `osada forecast --json` prints."""
        def one(v):                 # str(Fraction): 'p/q' in lowest terms, an integer as itself
            if self.exact:
                return str(v)
            return {"low": str(v[0]), "high": str(v[1])}

        def pair(t):
            w, b = self.values[t]
            return {"worst": one(w), "best": one(b)}

        out = {"exact": self.exact}
        for letter, name in GROUPS:
            out[name] = {str(t[1]): pair(t) for t in self.targets if isinstance(t, tuple) and t[0] == letter}
        out["lost"] = pair("L")
        out["expected_buildings_lost"] = pair("E")
        out["seconds"] = round(self.seconds, 3)
        return out


def make(targets, worst, best, den, exact, seconds, states, buildings=0, k=None):
    """A Forecast from the root's worst and best field lists over den
    (search.py's layout).  Bounds (F11): [all that falls in the phase cut at
    the (k+1)-th extender, what falls in the chains not cut + U], U the cut
    mass; capped at 1 (E: at the buildings standing, each of which a cut
    chain might still take)."""
    from osada.siege.forecast.search import U_FIELD, WHOLE
    values = {}
    for t, field in targets.items():
        w = Fraction(worst[field], den)
        b = Fraction(best[field], den)
        if exact:
            values[t] = (w, b)
            continue
        top = buildings if t == "E" else 1
        u = Fraction(worst[U_FIELD], den) * top
        wh = Fraction(worst[WHOLE + field], den) + u
        bh = Fraction(best[WHOLE + field], den) + u
        values[t] = ((w, min(top, wh)), (b, min(top, bh)))
    return Forecast(list(targets), values, exact, seconds, states, k)


def from_json(obj):
    """The Forecast that to_json made `obj` (a host reading a worker's line);
    ValueError if it is not one.  seconds as given; states and k unknown."""
    exact = obj.get("exact") if isinstance(obj, dict) else None
    if not isinstance(exact, bool):
        raise ValueError("not a forecast object")

    def one(v):
        if exact:
            return Fraction(v)
        return (Fraction(v["low"]), Fraction(v["high"]))

    def pair(v):
        return (one(v["worst"]), one(v["best"]))

    targets, values = [], {}
    try:
        for letter, name in GROUPS:
            for s, v in sorted(obj[name].items(), key=lambda kv: int(kv[0])):
                t = (letter, int(s))
                targets.append(t)
                values[t] = pair(v)
        for t, name in (("L", "lost"), ("E", "expected_buildings_lost")):
            targets.append(t)
            values[t] = pair(obj[name])
        seconds = float(obj.get("seconds", 0))
    except (KeyError, TypeError, AttributeError, ZeroDivisionError) as exc:
        raise ValueError("not a forecast object: %s" % exc)
    return Forecast(targets, values, exact, seconds, None)
