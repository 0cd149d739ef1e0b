# Random games through the engine's public actions, valid and invalid mixed,
# with the spec's invariants checked after EVERY action.  Plain Python: it runs
# unchanged on CPython (tests/rules/test_properties.py, where hypothesis draws the
# seeds) and inside real MicroPython (tests/rules/test_cross_runtime.py runs main()).
#
# After every accepted action:
# - all 49 tokens are accounted for, by the engine and from the state alone;
# - walls and buildings are sector sets, dots (R14) at most 2 and each on a
#   standing wall, at most one enemy under the hedgehog (R13), no enemy in a
#   city cell whose building stands (R23), armor within the kind's range;
# - a game that ends keeps the `turn` and `player` of the turn it ended in
#   (R50, R51): no `turn` event in the action that ended it;
# - the game is won exactly when the pool and the board are empty and the
#   marshal (if any) has no play left in his hand, and it is not lost (R51,
#   R60: a hand of one non-tank with the pool empty is no play);
# - marshal mode (R60): every accepted play is one tank, two tokens, or
#   nothing (an extra play after reveal3/reveal4: up to n); his hand grows
#   past 3 only through a reveal3/reveal4 draw.
# After every refused action: the state is byte-identical and nothing is logged.
# After a win or a loss: every kind of action is refused and changes nothing.
#
# usage (MicroPython or CPython): gamecheck.py MODE FIRST_SEED COUNT [SKILL]
# prints one line: "MODE games accepted refused won lost lone_refused extra_plays"

import sys

from shared_rules.siege.autoplay import RandomPlayer
from shared_rules.siege.catalog import (
    C_SPECIAL,
    KIND_ARMOR,
    KIND_CLASS,
    KIND_IDS,
    KIND_INDEX,
    LINES,
    TOTAL_TOKENS,
)
from shared_rules.siege.engine import Game, RuleError, replay

MAX_TRIES = 5000

# Thrown in between the random player's own actions, to exercise refusals of
# every kind: wrong phase, no pending choice, no such enemy, not marshal
# mode, malformed.  Some are legal at times; they are then simply played.
NOISE = (
    {"do": "reveal"}, {"do": "move"}, {"do": "end_turn"}, {"do": "patrol"},
    {"do": "choose", "enemy": 1}, {"do": "choose", "enemy": 999},
    {"do": "hit", "enemy": 999}, {"do": "kill", "enemy": 999},
    {"do": "hedgehog", "enemy": 2}, {"do": "push_back", "enemy": 3},
    {"do": "dot", "sector": 1}, {"do": "rebuild", "sector": 2},
    {"do": "marshal_play", "tokens": []}, {"do": "marshal_play", "tokens": ["tiger"], "sector": 1},
    {"do": "marshal_play", "tokens": ["he111", "pz3", "sdkfz"]},
    {"do": "hit", "enemy": 1, "card": {"type": "precise_shot", "with": {"arm": "air", "color": "red"}}},
    {"do": "kill", "enemy": 1, "card": {"type": "precise_shot",
                                        "with": {"type": "counterattack", "color": "red"}}},
    {"do": "kill", "enemy": 1, "card": {"arm": "air", "color": "any"}},
    {"do": "fire"}, {"do": "hit", "enemy": -1}, "not an action", {"do": "dot", "sector": 7},
)

# After the game is over, every one of these must be refused.
EVERY_KIND_OF_ACTION = (
    {"do": "hit", "enemy": 1}, {"do": "kill", "enemy": 1}, {"do": "hedgehog", "enemy": 1},
    {"do": "dot", "sector": 1}, {"do": "push_back", "enemy": 1}, {"do": "rebuild", "sector": 1},
    {"do": "patrol"}, {"do": "move"}, {"do": "reveal"}, {"do": "end_turn"},
    {"do": "choose", "enemy": 1}, {"do": "marshal_play", "tokens": []},
    {"do": "marshal_play", "tokens": ["tiger"]},
)


def fail(msg):
    raise AssertionError(msg)


def frozen(game):
    """The whole state as text, events left out: equal text, equal state."""
    return game.state_json(events=[])


def is_tank(name):
    return KIND_CLASS[KIND_INDEX[name]] <= C_SPECIAL


def marshal_can_play(st):
    """R51/R60: his hand counts while he can still play from it; with the pool
    empty a lone token that is not a tank is no play (outside an extra play)."""
    hand = st.get("marshal_hand", ())
    if not hand:
        return False
    extra = st["pending"] is not None and st["pending"].get("choice") == "marshal_extra"
    return len(hand) > 1 or extra or is_tank(hand[0])


def tokens_in_state(st, variants):
    """The tokens counted from the state object alone (not token_count())."""
    n = len(st["enemies"]) + st["pool"] + len(st["discard"])
    for won in st["trophies"].values():
        n += len(won)
    n += len(st.get("marshal_hand", ()))
    n += len(st.get("marshal_queue", ()))          # R60: played, not yet resolved
    if "simple_battles" in variants:
        n += 11                                    # R61: out of the game
    return n


def _sectors(xs, what):
    prev = 0
    for s in xs:
        if not (prev < s <= 6):
            fail("%s is not a sorted set of sectors 1-6: %r" % (what, xs))
        prev = s


def check_board(st):
    """Walls, dots (R14), buildings, the hedgehog (R13), enemies and R23."""
    _sectors(st["walls"], "walls")                 # walls <= positions (R1, R16)
    _sectors(st["buildings"], "buildings")
    _sectors(st["dots"], "dots")
    if len(st["dots"]) > 2:                        # R14
        fail("more than 2 dots: %r" % st["dots"])
    for s in st["dots"]:
        if s not in st["walls"]:
            fail("a dot without its wall in sector %d" % s)
    held = 0
    prev = 0
    for e in st["enemies"]:
        if e["id"] <= prev:
            fail("enemy ids not unique and sorted")
        prev = e["id"]
        if not (1 <= e["armor"] <= KIND_ARMOR[KIND_INDEX[e["kind"]]]):
            fail("armor out of range: %r" % e)
        if not (1 <= e["sector"] <= 6) or e["line"] not in LINES:
            fail("no such cell: %r" % e)
        if e["line"] == "city" and e["sector"] in st["buildings"]:
            fail("R23: an enemy stands beside a building: %r" % e)       # R23
        if e["held"]:
            held += 1
    if held > 1:                                   # R13
        fail("R13: %d enemies under the only hedgehog" % held)


def check_outcome(st, setup):
    """R50, R51, R62: the outcome matches the board."""
    variants = setup.get("variants", ())
    empty = st["pool"] == 0 and not st["enemies"] and not marshal_can_play(st)
    if st["outcome"] == "won":                     # R51
        if not empty or st["pending"] is not None:
            fail("R51: won with something left: %r" % st)
    elif st["outcome"] == "lost":                  # R50, R62
        if "my_house" in variants:
            if st["buildings"] and st["out"] != list(range(1, setup["players"] + 1)):
                fail("R62: lost with players in")
        elif st["buildings"]:
            fail("R50: lost with buildings standing")
    else:
        if st["outcome"] != "playing" or not st["buildings"]:
            fail("playing with no building, or an unknown outcome")
        if empty:
            fail("R51: pool, board and hand are empty and the game goes on")


def check_state(game, setup):
    st = game.state()
    if game.token_count() != TOTAL_TOKENS:
        fail("token_count %d != %d" % (game.token_count(), TOTAL_TOKENS))
    if tokens_in_state(st, setup.get("variants", ())) != TOTAL_TOKENS:
        fail("the state shows %d tokens" % tokens_in_state(st, setup.get("variants", ())))
    check_board(st)
    if not (1 <= st["player"] <= setup["players"]):
        fail("no such player %r" % st["player"])
    check_outcome(st, setup)
    return st


def check_marshal_play(action, pending, hand_before):
    """R60: the shape of an accepted marshal play."""
    toks = action.get("tokens", ())
    if pending is not None and pending.get("choice") == "marshal_extra":
        if len(toks) > pending["count"] or action.get("sector"):
            fail("R60: extra play %r for %r" % (action, pending))
        return "extra"
    n = len(toks)
    if n == 0:
        return "none"
    if n == 1:
        if not is_tank(toks[0]):
            fail("R60: a lone non-tank was played: %r" % (action,))
        return "tank"
    if n == 2 and not action.get("sector"):
        return "two"
    fail("R60: not a play of one tank, two tokens or nothing: %r" % (action,))


def check_step(game, setup, before, after, action, events):
    """Checks that need the state before an accepted action as well."""
    if before["outcome"] == "playing" and after["outcome"] != "playing":
        if (after["turn"], after["player"]) != (before["turn"], before["player"]):
            fail("R51/R50: the game ended in turn %d (player %d) but reads turn %d (player %d)"
                 % (before["turn"], before["player"], after["turn"], after["player"]))
        for ev in events:
            if ev["ev"] == "turn":
                fail("R51/R50: the turn passed in the action that ended the game")
    if setup.get("mode") != "marshal":
        return None
    shape = None
    if isinstance(action, dict) and action.get("do") == "marshal_play":
        shape = check_marshal_play(action, before["pending"], before["marshal_hand"])
    hb = len(before["marshal_hand"])
    ha = len(after["marshal_hand"])
    if ha > 3 and ha > hb:                         # R60: grows past 3 only by a reveal draw
        drew = False
        for ev in events:
            if ev["ev"] == "reveal" and ev.get("kind") in ("reveal3", "reveal4"):
                drew = True
        if not drew:
            fail("R60: the marshal's hand grew from %d to %d without a reveal draw" % (hb, ha))
    return shape


def check_over(game):
    """After a win or a loss every action is refused and changes nothing."""
    if game.outcome not in ("won", "lost"):
        fail("the game is not over")
    for action in EVERY_KIND_OF_ACTION:
        st = frozen(game)
        n = len(game.log)
        try:
            game.apply(action)
        except RuleError:
            pass
        else:
            fail("a finished game accepted %r" % (action,))
        if frozen(game) != st or len(game.log) != n:
            fail("a refused action changed a finished game: %r" % (action,))


def marshal_noise(game, rng):
    """A marshal play of a random shape from his real hand: lone non-tanks,
    lone tanks with or without a sector, pairs with a sector, threes."""
    hand = [KIND_IDS[k] for k in game.marshal_hand]
    n = rng.below(4)
    toks = []
    while n > 0 and hand:
        toks.append(hand.pop(rng.below(len(hand))))
        n -= 1
    a = {"do": "marshal_play", "tokens": toks}
    if rng.below(2) == 0:
        a["sector"] = rng.below(6) + 1
    return a


class Stats:
    def __init__(self):
        self.games = 0
        self.accepted = 0
        self.refused = 0
        self.won = 0
        self.lost = 0
        self.lone_refused = 0      # lone non-tank plays refused (R60)
        self.extra = 0             # marshal_extra plays accepted
        self.rules = {}

    def line(self, mode):
        return "%s %d %d %d %d %d %d %d" % (mode, self.games, self.accepted, self.refused,
                                            self.won, self.lost, self.lone_refused, self.extra)


def _refused(game, action, exc, text, n, stats):
    stats.refused += 1
    stats.rules[exc.rule] = stats.rules.get(exc.rule, 0) + 1
    if frozen(game) != text:
        fail("refused %r (%s) changed the state" % (action, exc))
    if len(game.log) != n:
        fail("refused %r was logged" % (action,))
    if (exc.rule == "R60" and isinstance(action, dict) and action.get("do") == "marshal_play"
            and len(action.get("tokens", ())) == 1 and not is_tank(action["tokens"][0])):
        stats.lone_refused += 1


def _next_action(game, agent, noise, marshal):
    r = noise.rng.below(8) if noise is not None else 9
    if r < 2:
        return NOISE[noise.rng.below(len(NOISE))]
    if r < 4 and marshal:
        return marshal_noise(game, noise.rng)
    return agent.action(game)


def drive(setup, agent_seed, noise_seed=None, replay_at=(), stats=None, skill=0):
    """Play one game, checking everything above.  Returns the game."""
    if stats is None:
        stats = Stats()
    game = Game.from_setup(setup)
    check_state(game, setup)
    agent = RandomPlayer(agent_seed, skill)
    noise = RandomPlayer(noise_seed) if noise_seed is not None else None
    marshal = setup.get("mode") == "marshal"
    for _ in range(MAX_TRIES):
        if game.outcome != "playing":
            break
        action = _next_action(game, agent, noise, marshal)
        before = game.state()
        text = frozen(game)
        n = len(game.log)
        try:
            events = game.apply(action)
        except RuleError as exc:
            _refused(game, action, exc, text, n, stats)
            continue
        stats.accepted += 1
        if len(game.log) != n + 1:
            fail("accepted %r was not logged once" % (action,))
        after = check_state(game, setup)
        before.setdefault("marshal_hand", ())
        after.setdefault("marshal_hand", ())
        if check_step(game, setup, before, after, action, events) == "extra":
            stats.extra += 1
        if stats.accepted in replay_at and frozen(replay(game.setup_dict(), game.log)) != frozen(game):
            fail("replay differs after %d accepted actions" % stats.accepted)
    stats.games += 1
    if game.outcome == "won":
        stats.won += 1
    elif game.outcome == "lost":
        stats.lost += 1
    if game.outcome != "playing":
        check_over(game)
    return game


def run(mode, first, count, skill=0):
    """COUNT seeded games of MODE (marshal games with 1-5 defenders)."""
    stats = Stats()
    for seed in range(first, first + count):
        if mode == "marshal":
            setup = {"mode": "marshal", "players": seed % 5 + 1, "seed": seed}
        elif mode == "solo":
            setup = {"mode": "solo", "players": 1, "seed": seed}
        else:
            setup = {"mode": mode, "players": seed % 5 + 2, "seed": seed}
        drive(setup, seed * 7 + 1, seed * 13 + 5, stats=stats, skill=skill)
    return stats


def main(argv):
    skill = int(argv[4]) if len(argv) > 4 else 0
    print(run(argv[1], int(argv[2]), int(argv[3]), skill).line(argv[1]))


if __name__ == "__main__":
    main(sys.argv)
