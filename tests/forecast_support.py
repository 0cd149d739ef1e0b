"""The threat forecast's reference: the enemy phase played through the
project's own engine (Game, its end_turn and choose), every draw, die and
R25 answer tried, with exact weights -- and a seeded generator of small
random phase-4 states to compare it with (tests/rules/test_forecast_brute.py).

The tree is explored lazily, action by action: the engine's `move`, then
each `reveal` with the pool's top forced to each kind in turn and the die
forced to each face (a Game whose roll() gives the chosen face), each
possibility a branch weighted count/n and 1/6; a pending choice (R25)
branches on every candidate.  The game is forked between actions (clone());
positions the engine reaches twice with the same board, enemies, pool and
reveals due are computed once (the value only depends on them).
"""

import random
from collections import Counter
from contextlib import contextmanager
from fractions import Fraction
from math import lcm

from osada.siege.forecast import compiled, forecast
from shared_rules.siege.catalog import C_BOMBER, KIND_ARMOR, KIND_CLASS, kind_index
from shared_rules.siege.engine import LOST, Enemy, Game, RuleError
from shared_rules.siege.public import public_state
from shared_rules.siege.scenario import run


class _ForcedGame(Game):
    """The engine's Game with its die forced: `forced` holds the rolls to come."""

    forced = ()

    def roll(self):
        assert self.forced, "the engine rolled a die the brute force did not choose"
        d = self.forced[0]
        self.forced = self.forced[1:]
        return d


# The Game's attributes, and how a clone copies each: "=" shared (never
# changed in place by a phase), "list" a copy, "lists" a copy of each list,
# "enemies" copies of the Enemy objects.  A new attribute of the engine
# fails the brute force loudly rather than being shared by mistake.
_COPY = {
    "players": "=", "mode": "=", "variants": "=", "seed": "=", "rng": "=", "rolls": "=", "roll_i": "=",
    "one_for_all": "=", "all_for_one": "=", "my_house": "=", "next_id": "=", "turn": "=", "player": "=",
    "phase": "=", "patrol": "=", "hedgehog": "=", "reveals": "=", "marshal_extra": "=", "pending": "=",
    "ending": "=", "outcome": "=", "_setup": "=", "houses": "=", "forced": "=",
    "walls": "list", "dots": "list", "buildings": "list", "pool": "list", "discard": "list", "removed": "list",
    "marshal_hand": "list", "out": "list", "queue": "list", "events": "list", "log": "log",
    "trophies": "lists", "tasks": "tasks", "enemies": "enemies",
}


_KNOWN = frozenset(_COPY)
_LISTS = tuple(k for k, how in _COPY.items() if how == "list")


def clone(g):
    """An independent copy of a game between two actions (a test's fork of the engine's state)."""
    h = _ForcedGame.__new__(_ForcedGame)
    src = g.__dict__
    unknown = src.keys() - _KNOWN
    assert not unknown, "the brute force does not know how to copy %s" % sorted(unknown)
    d = h.__dict__
    d.update(src)                                 # "=": shared
    for k in _LISTS:
        if k in src:
            d[k] = src[k][:]
    if "trophies" in src:
        d["trophies"] = [x[:] for x in src["trophies"]]
    if "tasks" in src:
        d["tasks"] = [[c, s, ids[:]] for c, s, ids in src["tasks"]]
    if "enemies" in src:
        d["enemies"] = [Enemy(e.id, e.kind, e.sector, e.line, e.armor) for e in src["enemies"]]
    if "log" in src:
        d["log"] = type(src["log"])()             # the action log: not part of the rules' state
    return h


def targets(state):
    """The targets a phase-4 state has: [("B", s)...], [("W", s)...], [("D", s)...], "L", "E"."""
    out = [("B", s) for s in state["buildings"]] + [("W", s) for s in state["walls"]]
    return out + [("D", s) for s in state["dots"]] + ["L", "E"]


class Brute:
    """The exact (worst, best) values of a scenario's enemy phase, through
    the engine: `move`, then one `reveal` at a time with the pool's top forced
    to each kind in turn (weight count/n) and the die to each face (1/6),
    `choose` with each candidate at a pending choice (R25; worst: the largest
    value target by target, best: the smallest, F6).
    scenario: a scenario dict ending in phase 4 (its `rolls` are not used)."""

    def __init__(self, scenario):
        sc = dict(scenario)
        sc.pop("rolls", None)
        g = _ForcedGame.from_setup(sc)
        for a in sc.get("actions", []):
            try:
                g.apply(a)
            except RuleError:
                pass                               # refused, as osada scenario would report it
        self.game = g
        self.start = public_state(g)
        self.targets = targets(self.start)
        self.memo = {}
        self.leaves = {}
        self.nodes = 0

    def _after(self, g, action, top=None, roll=None):
        self.nodes += 1
        h = clone(g)
        if top is not None:
            pool = h.pool
            i = len(pool) - 1 - pool[::-1].index(top)
            pool[i], pool[-1] = pool[-1], pool[i]            # the token drawn next: forced on top
        h.forced = () if roll is None else (roll,)
        h.apply(action)
        return h

    def _leaf(self, g):
        key = (tuple(g.walls), tuple(g.dots), tuple(g.buildings), g.outcome)
        got = self.leaves.get(key)
        if got is None:
            vals = []
            gone_b = 0
            for t in self.targets:
                if t == "L":
                    vals.append(int(g.outcome == LOST))
                elif t == "E":
                    vals.append(gone_b)
                else:
                    row = {"B": g.buildings, "W": g.walls, "D": g.dots}[t[0]]
                    gone = int(not row[t[1]])
                    gone_b += gone if t[0] == "B" else 0
                    vals.append(gone)
            v = (tuple(vals), 1)
            got = self.leaves[key] = (v, v)
        return got

    def value(self, g=None):
        """(worst, best): each (numerators, denominator), the targets in the order of self.targets."""
        g = self.game if g is None else g
        if g.outcome != "playing":
            return self._leaf(g)
        if g.pending is not None:                                   # R25: every answer
            kids = [self.value(self._after(g, {"do": "choose", "enemy": e})) for e in g.pending["candidates"]]
            worst = _extreme([k[0] for k in kids], max)
            best = _extreme([k[1] for k in kids], min)
            return (worst, worst) if worst == best else (worst, best)
        if g.phase == 4:
            return self.value(self._after(g, {"do": "move"}))
        if g.reveals <= 0 or not g.pool:
            return self._leaf(g)
        key = (tuple(g.walls), tuple(g.dots), tuple(g.buildings), g.reveals, tuple(sorted(g.pool)),
               tuple(sorted((e.sector, e.line, e.armor, e.kind, e.id == g.hedgehog) for e in g.enemies)))
        got = self.memo.get(key)
        if got is not None:
            return got
        n = len(g.pool)
        kids = []
        for k, c in sorted(Counter(g.pool).items()):
            rolled = KIND_CLASS[k] <= C_BOMBER                      # a tank, a special or the He-111: the die
            for d in range(1, 7) if rolled else (None,):
                kids.append((c if rolled else c * 6, self.value(self._after(g, {"do": "reveal"}, k, d))))
        got = _mix(kids, n * 6)
        self.memo[key] = got
        return got

    def result(self):
        """{target: (worst, best)}."""
        (w, wd), (b, bd) = self.value()
        return {t: (Fraction(w[i], wd), Fraction(b[i], bd)) for i, t in enumerate(self.targets)}


def _mix(kids, total):
    """sum(weight * value) / total, [(weight, (worst, best))]: integer
    numerators over one common denominator (Fractions term by term are slow)."""
    w = _sum([(p, k[0]) for p, k in kids], total)
    if all(k[0] is k[1] for _p, k in kids):
        return w, w
    return w, _sum([(p, k[1]) for p, k in kids], total)


def _sum(terms, total):
    den = 1
    for _p, (_nums, d) in terms:
        den = lcm(den, d)
    out = [0] * len(terms[0][1][0])
    for p, (nums, d) in terms:
        f = p * (den // d)
        for i, x in enumerate(nums):
            if x:
                out[i] += f * x
    return tuple(out), den * total


def _extreme(values, pick):
    """Field by field, the largest (max) or smallest (min) of (numerators, denominator) vectors."""
    den = 1
    for _nums, d in values:
        den = lcm(den, d)
    cols = zip(*[[x * (den // d) for x in nums] for nums, d in values])
    return tuple(pick(col) for col in cols), den


# ------------------------------------------------------------ the spec's worked examples (§6)

FULL = [1, 2, 3, 4, 5, 6]

E1 = {"board": {"walls": [1, 3, 4, 5, 6], "buildings": FULL, "enemies": [
    {"kind": "pz3", "sector": 2, "line": "tank"}, {"kind": "tiger", "sector": 4, "line": "tank", "armor": 1}]},
    "pool": ["he111", "move_red", "sdkfz", "move_green"]}
E2 = {"board": {"walls": [1, 2, 3, 4, 6], "buildings": FULL, "enemies": [
    {"kind": "pz3", "sector": 5, "line": "artillery"}, {"kind": "sdkfz", "sector": 6, "line": "tank"}]},
    "pool": ["pz2h", "move_blue", "move_blue", "he111", "sabotage_air", "pz3"]}
E3 = {"board": {"walls": [1, 3, 4, 6], "buildings": [1, 3, 4, 6], "enemies": [
    {"kind": "tiger", "sector": 2, "line": "city"}, {"kind": "sdkfz", "sector": 5, "line": "city"}]},
    "pool": ["move_cw", "move_ccw", "move_green", "pz3", "sdkfz"]}
E4 = {"board": {"walls": FULL, "buildings": [3], "enemies": [
    {"kind": "sdkfz", "sector": 3, "line": "tank"}, {"kind": "pz3", "sector": 3, "line": "artillery"}]},
    "pool": ["move_green", "move_green", "he111"]}
E5 = {"board": {"walls": [1, 2, 3, 4, 6], "buildings": [5], "enemies": [
    {"kind": "tiger", "sector": 5, "line": "tank"}]},
      "pool": ["move_blue", "move_blue", "maus", "pz4h"], "actions": [{"do": "hedgehog", "enemy": 1}]}
E6 = {"board": {"walls": [2, 3, 4, 5, 6], "buildings": FULL, "enemies": [
    {"kind": "sdkfz", "sector": 1, "line": "tank"}, {"kind": "pz3", "sector": 1, "line": "tank", "armor": 1}]},
    "pool": ["reveal3", "panther", "move_red", "move_red"]}
E7 = {"board": {"walls": [1, 2, 4, 5, 6], "dots": [2], "buildings": [1, 2, 3, 4, 6], "enemies": [
    {"kind": "tiger", "sector": 2, "line": "tank", "armor": 2}, {"kind": "pz3", "sector": 3, "line": "artillery"},
    {"kind": "sdkfz", "sector": 5, "line": "city"}, {"kind": "pz3", "sector": 4, "line": "air"},
    {"kind": "sdkfz", "sector": 6, "line": "tank"}]},
    "pool": ["reveal4", "he111", "he111", "move_green", "move_ccw", "pz4h", "tiger", "sabotage_tank"]}
E8 = {"board": {"walls": FULL, "buildings": FULL, "enemies": [
    {"kind": "sdkfz", "sector": 1, "line": "air"}, {"kind": "pz3", "sector": 2, "line": "air"},
    {"kind": "sdkfz", "sector": 3, "line": "air"}, {"kind": "tiger", "sector": 4, "line": "air"},
    {"kind": "sdkfz", "sector": 5, "line": "air"}, {"kind": "pz3", "sector": 6, "line": "air"}]}}


# ------------------------------------------------------------ random states

PLACED = ("sdkfz", "pz3", "tiger", "pz2h", "pz4h", "maus", "panther")
TOKENS = (["he111"] * 5 + ["move_red", "move_green", "move_blue"] * 3 + ["move_cw", "move_ccw"] * 2
          + ["sdkfz", "pz3", "tiger"] * 2 + ["pz2h", "pz4h", "maus", "panther"] * 2 + ["reveal3", "reveal4"]
          + ["sabotage_air", "discard_one"])
LINES = ("rear", "air", "artillery", "tank", "city")


def _random_board(rng, dotted, fallback=None):
    """(buildings, walls, dots) of a random board: each building 0.7 likely (if none,
    `fallback`'s alone, or a random one's), each wall 0.6, a dot on a wall `dotted` (two at most)."""
    blds = [s for s in range(1, 7) if rng.random() < 0.7] or [fallback or rng.randint(1, 6)]
    walls = [s for s in range(1, 7) if rng.random() < 0.6]
    return blds, walls, [s for s in walls if rng.random() < dotted][:2]


def random_scenario(rng, most=6):
    """A small random phase-4 scenario: a board, 1-4 enemies, a pool of 2 to
    `most` tokens, sometimes a hedgehog, a dot or a patrol, sometimes another
    mode or my_house."""
    blds, walls, dots = _random_board(rng, 0.2)
    enemies = []
    for _ in range(rng.randint(1, 4)):
        k = rng.choice(PLACED[:3] * 3 + PLACED)
        s = rng.randint(1, 6)
        line = rng.choice(LINES if s not in blds else LINES[:4])
        full = KIND_ARMOR[kind_index(k)]
        enemies.append({"kind": k, "sector": s, "line": line, "armor": rng.randint(1, full)})
    sc = {"board": {"walls": walls, "dots": dots, "buildings": blds, "enemies": enemies},
          "pool": [rng.choice(TOKENS) for _ in range(rng.randint(2, most))]}
    r = rng.random()
    if r < 0.1:
        sc["mode"], sc["players"] = "shoulder", 3
    elif r < 0.2:
        sc["mode"] = "solo"
    elif r < 0.3:
        sc["variants"], sc["players"] = ["my_house"], 2
        sc["houses"] = rng.sample(range(1, 7), 2)
    acts = []
    if rng.random() < 0.2:
        acts.append({"do": "hedgehog", "enemy": rng.randint(1, len(enemies))})
    if rng.random() < 0.15 and len(dots) < 2 and set(walls) - set(dots):
        acts.append({"do": "dot", "sector": rng.choice(sorted(set(walls) - set(dots)))})
    if rng.random() < 0.08:
        acts.append({"do": "patrol"})
    if acts:
        sc["actions"] = acts
    return sc


def random_states(seed, count, make=None):
    """`count` random scenarios (seeded; made by `make`, random_scenario by
    default) that are valid and end in a phase-4 state still playing."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        sc = (make or random_scenario)(rng)
        try:
            g, _ = run(sc)
        except Exception:               # a board the engine refuses (e.g. houses): draw another
            continue
        if g.outcome == "playing" and g.phase == 4 and g.pending is None:
            out.append(sc)
    return out


COLOR_MOVE = {1: "move_red", 2: "move_red", 3: "move_green", 4: "move_green", 5: "move_blue", 6: "move_blue"}


def random_choice_scenario(rng):
    """A small random state where R25's choice can matter: 2-4 unlike
    enemies sharing sector s's tank or artillery cell before its wall (a dot
    sometimes) and buildings, a panther, reveal3 and s's colour moves in the pool."""
    s = rng.randint(1, 6)
    blds = sorted(set([s, s % 6 + 1] + [x for x in range(1, 7) if rng.random() < 0.5]))
    walls = sorted(set([s] + [x for x in range(1, 7) if rng.random() < 0.3]))
    enemies = []
    for k in rng.sample(["sdkfz", "pz3", "tiger", "pz3", "panther", "pz4h", "sdkfz"], rng.randint(2, 4)):
        full = KIND_ARMOR[kind_index(k)]
        enemies.append({"kind": k, "sector": s, "line": rng.choice(["tank", "tank", "artillery"]),
                        "armor": rng.randint(1, full)})
    extra = [COLOR_MOVE[s], "maus", "he111", "pz2h", "sdkfz", "move_cw", "pz4h"]
    pool = ["panther", COLOR_MOVE[s], COLOR_MOVE[s], "reveal3"] + [rng.choice(extra) for _ in range(rng.randint(0, 2))]
    return {"board": {"walls": walls, "dots": [s] if rng.random() < 0.3 else [], "buildings": blds,
                      "enemies": enemies}, "pool": pool}


def random_column_scenario(rng):
    """A small random state with a column: 2-3 enemies in sector s's outer
    lines, one behind the other (F9: the one behind may be left out), no
    rotation in the pool, s's colour moves, maus, pz4h and bombers in it."""
    s = rng.randint(1, 6)
    blds, walls, dots = _random_board(rng, 0.25, s)
    enemies = []
    for line in rng.sample(LINES[:4], rng.randint(2, 3)):
        k = rng.choice(PLACED[:3])
        enemies.append({"kind": k, "sector": s, "line": line, "armor": rng.randint(1, KIND_ARMOR[kind_index(k)])})
    if rng.random() < 0.3:
        enemies.append({"kind": "pz3", "sector": rng.choice([x for x in range(1, 7) if x != s]),
                        "line": rng.choice(LINES)})
    extra = [COLOR_MOVE[s]] * 3 + ["maus", "pz4h", "he111", "he111", "he111", "reveal3", "reveal3", "pz2h",
                                   "panther", "sdkfz", "sabotage_air", COLOR_MOVE[s % 6 + 1]]
    return {"board": {"walls": walls, "dots": dots, "buildings": blds, "enemies": enemies},
            "pool": [rng.choice(extra) for _ in range(rng.randint(3, 6))]}


def random_repair_scenario(rng):
    """A random state with a long chain and a tank that could live through a repair: a
    panther, a tank to come (a pz2h often), an extender, four to six of one colour's moves
    (a maus, pz4h, other move, rotation or bomber sometimes) and few walls, the board empty or
    with one enemy in the outer lines: F9 d's repair bounds, counted in draws and moves."""
    s = rng.randint(1, 6)
    blds, walls, dots = _random_board(rng, 0.2, s)
    walls = [w for w in walls if rng.random() < 0.5]
    dots = [d for d in dots if d in walls]
    enemies = []
    if rng.random() < 0.5:
        enemies.append({"kind": rng.choice(PLACED[:3]), "sector": rng.randint(1, 6),
                        "line": rng.choice(LINES[:3])})
    movers = [COLOR_MOVE[s]] * rng.randint(4, 6) + [
        rng.choice(["maus", "pz4h", COLOR_MOVE[s % 6 + 1], "move_cw", "move_ccw", "he111"])
        for _ in range(rng.randint(0, 1))]
    pool = ["panther", rng.choice(["pz2h", "pz2h", "pz3", "tiger", "sdkfz"]),
            rng.choice(["reveal4", "reveal3", "pz2h"])] + movers
    return {"board": {"walls": walls, "dots": dots, "buildings": blds, "enemies": enemies}, "pool": pool}


def every_search(state, setup, **kw):
    """The state's forecast through each search this machine has -- the
    compiled one (where `make setup` built it) and the same search in Python
    -- as [(name, Forecast)]: one brute force checks both."""
    out = []
    for name, core in (("compiled", compiled.CORE), ("python", None)):
        if name == "compiled" and core is None:
            continue
        with searching_with(core):
            out.append((name, forecast(state, setup, **kw)))
    return out


@contextmanager
def searching_with(core):
    """The forecasts made inside the block search with `core` (compiled.CORE's module, or
    None: the search in Python), whatever `make setup` built."""
    old = compiled.CORE
    compiled.CORE = core
    try:
        yield
    finally:
        compiled.CORE = old


def autoplay_turns(seed):
    """{turn: (state, setup)}: the phase-4 state each turn of an autoplayed game ends on (the
    project's random player, skill 1, standard mode, two players; the turn could end now: the
    state the table sends end_turn or move from), as the spec's F10 counts them."""
    from shared_rules.siege.autoplay import play
    last = {}

    def keep(game, action, events):
        if game.phase == 4 and game.pending is None and game.outcome == "playing":
            st = public_state(game)
            del st["events"]
            last[game.turn] = (st, game.setup_dict())

    play({"players": 2, "seed": seed}, seed, skill=1, keep=keep)
    return last
