# A seeded random player: it drives a game with a mix of legal and illegal
# actions until the game ends.  Same seed, same game, on CPython and on
# MicroPython: the tests use it to compare the two runtimes, the benchmarks to
# time the engine, and the demo (`make run`) to show a game being played.

from shared_rules.rng import Rng
from shared_rules.siege.catalog import (
    ARMS,
    C_SPECIAL,
    KIND_CLASS,
    KIND_IDS,
    LINES,
    MODES,
    SECTOR_COLOR,
    VARIANTS,
)
from shared_rules.siege.engine import PHASE_MARSHAL, PHASE_PLAY, PHASE_REVEAL, PLAYING, Game, RuleError

_COLORS = ("red", "green", "blue", "any")


class RandomPlayer:
    """skill 0: plays at random.  skill 1: mostly aims at the enemy nearest the
    city with a card that fits, so games last longer (benchmarks, demo).
    skill 2: also patrols and pushes enemies back, for very long games."""

    def __init__(self, seed, skill=0):
        self.rng = Rng(seed)
        self.skill = skill
        self.turn = 0
        self.plays = 0

    def pick(self, seq):
        return seq[self.rng.below(len(seq))]

    def _card(self, e, r=None):
        if r is None:
            r = self.rng.below(6)
        if e is not None and r < 3:       # a card that fits the enemy, mostly
            line = LINES[e.line]
            if line in ARMS:
                color = "any" if r == 0 else SECTOR_COLOR[e.sector]
                return {"arm": line, "color": color}
            return {"type": "counterattack", "color": SECTOR_COLOR[e.sector]}
        if r == 3:
            return {"arm": self.pick(ARMS), "color": self.pick(_COLORS)}
        if r == 4:
            return {"type": "counterattack", "color": self.pick(_COLORS[:3])}
        return None

    def _aimed(self, game):
        best = None
        for e in game.enemies:
            if e.line > 0 and (best is None or e.line > best.line):
                best = e
        if best is None:
            return None
        if self.skill > 1 and best.line >= 2 and self.rng.below(2) == 0:
            return {"do": "push_back", "enemy": best.id}    # skill 2 stalls: long games
        if best.line == 4:                       # in the city: IL-2 or push it back
            if self.rng.below(2) == 0:
                return {"do": "kill", "enemy": best.id, "card": {"type": "il2"}}
            return {"do": "push_back", "enemy": best.id}
        return {"do": "hit", "enemy": best.id, "card": self._card(best, 0)}

    def _play(self, game):
        rng = self.rng
        if self.skill > 1 and not game.patrol and rng.below(3) == 0:
            return {"do": "patrol"}                           # skill 2 stalls
        if self.skill and rng.below(5) != 0:
            a = self._aimed(game)
            if a is not None:
                return a
        e = self.pick(game.enemies) if game.enemies else None
        eid = e.id if e is not None else 1
        r = rng.below(20)
        if r < 10 or r >= 17:
            a = {"do": "hit", "enemy": eid}
            card = self._card(e) if r < 10 else None
            if card is not None:
                a["card"] = card
            return a
        if r < 12:
            k = rng.below(4)
            a = {"do": "kill", "enemy": eid}
            if k == 1:
                a["card"] = {"type": "il2"}
            elif k == 2:
                card = self._card(e)
                if card is not None:
                    a["card"] = {"type": "precise_shot", "with": card}
            elif k == 3:
                a["card"] = {"type": "all_for_one", "color": self.pick(_COLORS[:3])}
            return a
        if r == 12:
            return {"do": "hedgehog", "enemy": eid}
        if r == 13:
            return {"do": "dot", "sector": rng.below(6) + 1}
        if r == 14:
            return {"do": "push_back", "enemy": eid}
        if r == 15:
            return {"do": "rebuild", "sector": rng.below(6) + 1}
        return {"do": "patrol"}

    def _marshal(self, game, limit):
        hand = list(game.marshal_hand)
        n = self.rng.below(limit + 1)
        toks = []
        while n > 0 and hand:
            k = hand.pop(self.rng.below(len(hand)))
            toks.append(KIND_IDS[k])
            n -= 1
        a = {"do": "marshal_play", "tokens": toks}
        if limit == 2 and len(toks) == 1 and KIND_CLASS[KIND_IDS.index(toks[0])] <= C_SPECIAL:
            a["sector"] = self.rng.below(6) + 1
        return a

    def action(self, game):
        """The next action for this game (may well be refused)."""
        p = game.pending
        if p is not None:
            if p["choice"] == "damage":
                return {"do": "choose", "enemy": self.pick(p["candidates"])}
            return self._marshal(game, p["count"])
        if game.turn != self.turn:
            self.turn = game.turn
            self.plays = self.rng.below(5) + (0, 2, 4)[self.skill]
        if game.phase == PHASE_PLAY:
            if self.plays > 0:
                self.plays -= 1
                return self._play(game)
            return {"do": "end_turn"} if self.rng.below(3) == 0 else {"do": "move"}
        if game.phase == PHASE_REVEAL:
            if game.reveals > 0 and self.rng.below(3) != 0:
                return {"do": "reveal"}
            return {"do": "end_turn"}
        if game.phase == PHASE_MARSHAL:
            if self.rng.below(4) == 0:
                return {"do": "end_turn"}
            return self._marshal(game, 2)
        return {"do": "end_turn"}


def random_setup(seed):
    """A seeded random setup: players, mode, variants and game seed."""
    rng = Rng(seed)
    mode = MODES[rng.below(len(MODES))]
    if mode == "solo":
        players = 1
    elif mode == "marshal":
        players = rng.below(5) + 1
    else:
        players = rng.below(5) + 2
    variants = []
    for v in VARIANTS:
        if rng.below(4) == 0:
            variants.append(v)
    return {"players": players, "mode": mode, "variants": variants,
            "seed": rng.below(32768) * 32768 + rng.below(32768)}


def play(setup, agent_seed, max_actions=5000, keep=None, skill=0):
    """Play a game from setup with a RandomPlayer until it ends.
    Returns (game, accepted, refused).  keep(game, action, events) is called
    after every accepted action if given."""
    game = Game.from_setup(setup)
    agent = RandomPlayer(agent_seed, skill)
    accepted = 0
    refused = 0
    tries = 0
    while game.outcome == PLAYING and tries < max_actions:
        tries += 1
        a = agent.action(game)
        try:
            ev = game.apply(a)
        except RuleError:
            refused += 1
            continue
        accepted += 1
        if keep is not None:
            keep(game, a, ev)
    return game, accepted, refused
