# War Chest test data and a seeded random player of legal events, for the
# tests on CPython and inside MicroPython alike (tests/mpy/warchest_numbers.py,
# tests/rules/test_warchest_properties.py), driven by shared_rules.rng.Rng: plain Python, no random module:
# the same seed gives the same game on both runtimes.
#
# COUNTS is test data summing to 74 with the archers' printed 4 (WA1): the
# tracker takes the real counts from the players' cards.

from shared_rules.errors import RuleError
from shared_rules.warchest.game import Game

COUNTS = {"archer": 4, "crossbowman": 5, "light_cavalry": 5, "cavalry": 4, "lancer": 4, "knight": 4,
          "marshall": 5, "ensign": 5, "footman": 5, "mercenary": 5, "royal_guard": 5, "warrior_priest": 5,
          "berserker": 5, "pikeman": 4, "swordsman": 4, "scout": 5}

SETUPS = (
    (2, [["swordsman", "pikeman", "crossbowman", "light_cavalry"], ["archer", "cavalry", "lancer", "scout"]]),
    (2, [["warrior_priest", "berserker", "footman", "mercenary"], ["pikeman", "royal_guard", "knight", "marshall"]]),
    (2, [["lancer", "ensign", "royal_guard", "warrior_priest"], ["berserker", "pikeman", "footman", "archer"]]),
    (4, [["footman", "warrior_priest", "archer"], ["pikeman", "berserker", "knight"],
         ["mercenary", "royal_guard", "lancer"], ["marshall", "cavalry", "swordsman"]]),
)


def new_game(which, known):
    players, types = SETUPS[which]
    return Game(players, types, COUNTS, 0, known)


def _sample(rng, ms, k):
    pool = []
    for t in sorted(ms):
        pool += [t] * ms[t]
    rng.shuffle(pool)
    return pool[:k]


def draw_coins(c, rng, m):
    """The coins a known player draws: the bag's, then (W9) the discard's."""
    bag = 0
    for t in c.bag:
        bag += c.bag[t]
    if bag >= m:
        return _sample(rng, c.bag, m)
    disc = dict(c.up)
    for t in c.down:
        disc[t] = disc.get(t, 0) + c.down[t]
    mine = []
    for t in sorted(c.bag):
        mine += [t] * c.bag[t]
    return mine + _sample(rng, disc, m - bag)


def _hand_coin(c, rng):
    if not c.known:
        return None
    got = _sample(rng, c.hand, 1)
    return got[0] if got else "royal"


def _units(g, p):
    out = []
    c = g.coins[p]
    for t in sorted(c.units):
        for u in range(len(c.units[t])):
            out.append((t, u))
    return out


def _maneuvers(g, p, rng, free):
    out = []
    for t, u in _units(g, p):
        base = {"p": p, "t": t, "u": u, "free": free}
        out.append(dict(base, e="move"))
        out.append(dict(base, e="tactic"))
        if rng.below(4) == 0:
            out.append(dict(base, e="control", taken=rng.below(2)))
        for q in range(g.players):
            if g.side(q) != g.side(p):
                for y, yu in _units(g, q):
                    out.append(dict(base, e="attack", q=q, y=y, yu=yu))
    return out


def candidates(g, rng):
    """Events worth trying now, shuffled (most are legal; the game refuses the rest)."""
    out = []
    if g.phase() == "draw":
        for p in range(g.players):
            c = g.coins[p]
            out.append({"e": "draw", "p": p, "coins": draw_coins(c, rng, 3) if c.known else None})
        rng.shuffle(out)
        return out
    f = g.follow
    if f is not None:
        for p in range(g.players):
            out += _maneuvers(g, p, rng, 1)
            c = g.coins[p]
            out.append({"e": "berserker_pay", "p": p})
            if c.drawable():
                out.append({"e": "priest_draw", "p": p, "coins": draw_coins(c, rng, 1) if c.known else None})
    p = g.expected()
    if p >= 0:
        c = g.coins[p]
        for t in c.types:
            out.append({"e": "deploy", "p": p, "t": t})
            out.append({"e": "recruit", "p": p, "t": t, "coin": _hand_coin(c, rng)})
        for t, u in _units(g, p):
            out.append({"e": "bolster", "p": p, "t": t, "u": u})
        out.append({"e": "initiative", "p": p, "coin": _hand_coin(c, rng)})
        out.append({"e": "pass", "p": p, "coin": _hand_coin(c, rng)})
        out += _maneuvers(g, p, rng, 0)
    rng.shuffle(out)
    return out


def step(g, rng, refused=None):
    """Play one legal event (the first candidate the rules take); returns it,
    or None if none is taken.  `refused(g, ev, exc)` is told of each refusal."""
    for ev in candidates(g, rng):
        try:
            return g.apply(ev)
        except RuleError as exc:
            if refused is not None:
                refused(g, ev, exc)
    return None


def play(g, rng, events, refused=None):
    """Up to `events` legal events, or to the end of the game."""
    n = 0
    while n < events and g.phase() != "over":
        if step(g, rng, refused) is None:
            return n
        n += 1
    return n


def game(types, known=(), initiative=0):
    """A game of these unit types (2 lists: 2 players, 4: 4 players) with COUNTS."""
    return Game(len(types), types, COUNTS, initiative, known)
