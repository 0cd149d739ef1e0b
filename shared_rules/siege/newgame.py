# A game's start: the setup's checks (modes, R3/R60 players, variants,
# seed, die rolls), then the standard board and pool (R1, R2, R61), or a
# scenario's (custom.py), the houses (R62), and the setup event with what
# R3 gives the players (hand limit, trades).  engine.Game loads this to
# build a game; the Pico drops it again once its game is built
# (osada_fw/siege/mode.py), as nothing in a game's course needs it.

from shared_rules.errors import bad, need_int
from shared_rules.siege.catalog import AIR, KINDS, MODES, VARIANTS, kind_index

# R2: the starting enemies, one per sector's air cell.
START_ENEMIES = ("sdkfz", "sdkfz", "sdkfz", "pz3", "pz3", "tiger")

# R61 simple_battles: tokens removed from the pool.
SIMPLE_BATTLES_REMOVED = (
    "reveal4", "pz4h", "maus", "sabotage_tank", "sabotage_artillery",
    "move_blue", "move_green", "move_red", "he111", "he111", "he111",
)

SCENARIO_KEYS = ("players", "mode", "variants", "seed", "board", "pool", "rolls", "actions", "houses")


def check_scenario(d):
    """RuleError('format') unless d is a scenario object's setup fields."""
    if not isinstance(d, dict):
        bad("format", "a scenario is a JSON object")
    for k in d:
        if k not in SCENARIO_KEYS:
            bad("format", "unknown scenario key %r" % (k,))


def check(players, mode, variants, seed, rolls):
    """RuleError('format') unless these make a game; returns the number of
    players (mode's default if None)."""
    if mode not in MODES:
        bad("format", "mode must be one of %s (got %r)" % (", ".join(MODES), mode))
    if players is None:
        players = 1 if mode == "solo" else 2
    if mode == "solo":
        need_int(players, 1, 1, "players (R60: solo is one player)")
    elif mode == "marshal":
        need_int(players, 1, 5, "players (R60: the defenders besides the marshal)")
    else:
        need_int(players, 2, 6, "players (R3: standard and shoulder take 2-6; use mode solo for 1)")
    if not isinstance(variants, (list, tuple)):
        bad("format", "variants must be a list")
    for v in variants:
        if v not in VARIANTS:
            bad("format", "unknown variant %r; known: %s" % (v, ", ".join(VARIANTS)))
    need_int(seed, 0, 0xFFFFFFFF, "seed")
    if rolls is not None:
        if not isinstance(rolls, list):
            bad("format", "rolls must be a list of die results 1-6")
        for r in rolls:
            need_int(r, 1, 6, "a die roll")
    return players


def start(g, board, pool, rolls, houses):
    """Set up game g, freshly made with its players, mode and variants:
    the houses, the board, the pool; the setup event, and the marshal's
    first draw.  Returns what replay needs besides the log (event
    sourcing): the setup as a dict."""
    players = g.players
    setup = {"players": players, "mode": g.mode, "variants": list(g.variants), "seed": g.seed}
    for key, val in (("board", board), ("pool", pool), ("rolls", rolls), ("houses", houses)):
        if val is not None:
            setup[key] = val
    _houses(g, houses)
    _board(g, board)
    _pool(g, pool)
    # R3, reported for the players (their cards stay physical): the hand
    # limit, card trades per turn, cards discarded and redrawn in phase 2
    solo = g.mode == "solo"
    g.events.append({"ev": "setup", "players": players, "mode": g.mode,
                     "hand_limit": 6 if solo or players <= 2 else 5 if players <= 5 else 4,
                     "trades": 0 if solo else 2 if players == 6 else 1,
                     "discard_draw": 2 if solo else 1})
    if g.mode == "marshal":
        from shared_rules.siege import marshal
        marshal.draw(g)            # R60: he starts with 3 secret tokens
    return setup


def _houses(g, houses):
    if not g.my_house:
        if houses is not None:
            bad("format", "houses is only for the my_house variant (R62)")
        return
    if houses is not None:
        from shared_rules.siege import custom
        custom.set_houses(g, houses)
        return
    for p in range(1, g.players + 1):    # player p owns building p
        g.houses[p] = p


def _board(g, board):
    if board is not None:
        from shared_rules.siege import custom  # scenario boards only
        custom.place_board(g, board)
        return
    # R1: six buildings, six walls (none with caught_off_guard), no dots.
    for s in range(1, 7):
        g.buildings[s] = 1
        g.walls[s] = 0 if "caught_off_guard" in g.variants else 1
    # R2: 3 sdkfz, 2 pz3, 1 tiger, one per sector's air cell, seeded arrangement.
    order = [kind_index(k) for k in START_ENEMIES]
    g.rng.shuffle(order)
    for s in range(1, 7):
        g.place(order[s - 1], s, AIR, 0)


def _pool(g, pool):
    if pool is not None:
        from shared_rules.siege import custom
        g.pool = custom.pool_tokens(pool)
        return
    counts = [row[1] for row in KINDS]
    if "simple_battles" in g.variants:    # R61
        for name in SIMPLE_BATTLES_REMOVED:
            k = kind_index(name)
            counts[k] -= 1
            g.removed.append(k)
    # The enemies on the board come out of the 49 (R2; for a custom board,
    # as far as the table has them).
    for e in g.enemies:
        if counts[e.kind] > 0:
            counts[e.kind] -= 1
    toks = []
    for k in range(len(KINDS)):
        for _ in range(counts[k]):
            toks.append(k)
    g.rng.shuffle(toks)
    g.pool = toks
