# The Siege rules engine.  Rule ids (R1...) refer to docs/rules.md.
#
# A game is its setup plus its log of accepted actions (event sourcing):
# Game(setup) followed by the log's actions rebuilds the exact state, which is
# what undo and power-loss recovery use.  Every action is validated in full
# before anything changes, so a refused action leaves the state untouched.
#
# Here: the Game (its state, what changes it that every rule shares, the turn
# machine, state()), parse and replay.  The players' actions are plays.py's
# handlers; what the enemies do (moves, tokens, the He-111) is moves.py's;
# a game's start is newgame.py's, the field marshal's rules marshal.py's.
#
# Plain Python for CPython and MicroPython 1.2x alike: no dataclasses, enum,
# typing, random.shuffle/choice; enemies are kept in a list ordered by id so no
# result depends on dict ordering (MicroPython's dicts are unordered).

from shared_rules.errors import RuleError, bad  # noqa: F401  (RuleError: part of the engine's API)
from shared_rules.rng import Rng
from shared_rules.siege import actions as A
from shared_rules.siege.catalog import (
    C_SPECIAL,
    KIND_ARMOR,
    KIND_CLASS,
    KIND_IDS,
    KIND_TROPHY,
    LINES,
    PHASE_MARSHAL,
    PHASE_MOVE,
    PHASE_PLAY,
    PHASE_REVEAL,
)

PLAYING = "playing"
WON = "won"
LOST = "lost"


# The players' action handlers (plays.HANDLERS) and what the enemies do
# (moves.py), loaded by load_rules(): with the first action, or earlier by
# a caller with time to spare (the device, after its first frame), rather
# than at import: a board with no game to restore shows its first frame
# without them (each module is ~15 ms of a Pico's boot from littlefs).
# Kept here once loaded: an import statement run per action allocates on
# MicroPython (16 B each), and a replay runs hundreds.
_PLAYS = []
moves = None                   # shared_rules.siege.moves once load_rules ran: nothing uses it before an action


def load_rules():
    """Load what playing an action needs (once); returns the play handlers."""
    if _PLAYS:
        return _PLAYS[0]
    global moves
    from shared_rules.siege import moves as m
    from shared_rules.siege.plays import HANDLERS
    moves = m
    _PLAYS.append(HANDLERS)
    return HANDLERS


class Enemy:
    def __init__(self, eid, kind, sector, line, armor):
        self.id = eid
        self.kind = kind
        self.sector = sector
        self.line = line
        self.armor = armor


class Game:
    """One game of Siege.  Build it with Game(players=..., mode=..., ...) or
    Game.from_setup(dict); drive it with apply(action_dict)."""

    def __init__(self, players=None, mode="standard", variants=(), seed=1,
                 board=None, pool=None, rolls=None, houses=None):
        from shared_rules.siege import newgame  # a game's start: not kept once it is built (on the Pico)
        players = newgame.check(players, mode, variants, seed, rolls)
        self.players = players
        self.mode = mode
        self.variants = tuple(sorted(set(variants)))
        self.seed = seed
        self.rng = Rng(seed)
        self.rolls = list(rolls) if rolls else []
        self.roll_i = 0
        self.one_for_all = "one_for_all" in self.variants
        self.all_for_one = "all_for_one" in self.variants
        self.my_house = "my_house" in self.variants

        self.enemies = []          # Enemy objects, ordered by id
        self.next_id = 1
        self.walls = [0] * 7       # index = sector
        self.dots = [0] * 7
        self.buildings = [0] * 7
        self.pool = []             # kind indices, TOP AT THE END
        self.discard = []          # kind indices, in discard order
        self.removed = []          # kind indices out of the game (R61)
        self.trophies = [[] for _ in range(players + 1)]   # index = player
        self.marshal_hand = []     # kind indices (R60)
        self.out = [False] * (players + 1)                  # R62
        self.houses = [0] * (players + 1)                   # R62: player -> building
        self.turn = 1
        self.player = 1
        self.phase = PHASE_PLAY
        self.patrol = False
        self.hedgehog = 0          # id of the enemy under the hedgehog (R13)
        self.reveals = 0           # reveals still due this phase 6 (R30)
        self.queue = []            # tokens from the marshal's hand awaiting resolution
        self.tasks = []            # damage to assign: [cause, sector, [ids]] (R21, R23)
        self.marshal_extra = 0     # tokens the marshal may still play (R60 reveal3/4)
        self.pending = None
        self.ending = False        # end_turn asked: finish phases 5 and 6
        self.outcome = PLAYING
        self.events = []
        self.log = A.ActionLog()

        self._setup = newgame.start(self, board, pool, rolls, houses)
        self._check_won()              # a scenario may start with nothing left to fight

    # ------------------------------------------------------------------ setup

    @classmethod
    def from_setup(cls, d):
        """Game from the setup fields of a scenario object (players, mode,
        variants, seed, board, pool, rolls, houses); RuleError('format') if bad."""
        from shared_rules.siege import newgame
        newgame.check_scenario(d)
        return cls(players=d.get("players"), mode=d.get("mode", "standard"),
                   variants=d.get("variants", ()), seed=d.get("seed", 1),
                   board=d.get("board"), pool=d.get("pool"), rolls=d.get("rolls"),
                   houses=d.get("houses"))

    def setup_dict(self):
        """The setup that, with the action log, rebuilds this game."""
        return self._setup

    # ------------------------------------ what every rule's changes share

    def roll(self):
        """The next die roll: the setup's rolls first, then the generator."""
        if self.roll_i < len(self.rolls):
            r = self.rolls[self.roll_i]
            self.roll_i += 1
            return r
        return self.rng.die()

    def place(self, k, sector, line, armor):
        """A new enemy of kind k on the board (armor 0: the kind's full armor)."""
        e = Enemy(self.next_id, k, sector, line, armor or KIND_ARMOR[k])
        self.next_id += 1
        self.enemies.append(e)
        return e

    def enemy(self, eid):
        for e in self.enemies:
            if e.id == eid:
                return e
        return None

    def destroy(self, e, cause):
        """Remove e from the board (R11): the current player's trophy when a
        play destroyed it (not in shoulder mode), else the enemy discard."""
        self.enemies.remove(e)
        if self.hedgehog == e.id:
            self.hedgehog = 0
        if cause == "play" and self.mode != "shoulder":
            self.trophies[self.player].append(e.kind)
            self.events.append({"ev": "destroyed", "enemy": e.id, "kind": KIND_IDS[e.kind],
                                "cause": cause, "player": self.player})
        else:
            self.discard.append(e.kind)
            self.events.append({"ev": "destroyed", "enemy": e.id, "kind": KIND_IDS[e.kind],
                                "cause": cause})

    def damage(self, e, cause):
        e.armor -= 1
        if e.armor <= 0:
            self.destroy(e, cause)
        else:
            self.events.append({"ev": "damaged", "enemy": e.id, "armor": e.armor, "cause": cause})

    def lose_building(self, s, cause):
        """A building falls.  The loss (R50, R62) is decided by check_lost
        once the whole move or flight has been resolved."""
        self.buildings[s] = 0
        self.events.append({"ev": "building_destroyed", "sector": s, "cause": cause})
        if self.my_house:                                    # R62
            for p in range(1, self.players + 1):
                if self.houses[p] == s and not self.out[p]:
                    self.out[p] = True
                    self.events.append({"ev": "player_out", "player": p})

    def check_lost(self):
        if not any(self.buildings):                          # R50
            self._end(LOST, "R50")
        elif self.my_house and all(self.out[1:]):            # R62
            self._end(LOST, "R62")

    def _end(self, outcome, rule):
        if self.outcome != PLAYING:
            return
        self.outcome = outcome
        # R50: the rest of this resolution still happens (the damage the
        # attackers take), with no question asked: the choice no longer matters.
        while self.tasks:
            cause, _s, ids = self.tasks.pop(0)
            for eid in ids:
                e = self.enemy(eid)
                if e is not None:
                    self.damage(e, cause)
                    break
        # (queued marshal tokens stay where they are: still accounted for)
        self.pending = None
        self.reveals = 0
        self.marshal_extra = 0
        self.ending = False
        ev = {"ev": outcome, "rule": rule}
        if outcome == WON and self.mode != "shoulder":
            ev["ranking"] = self.ranking()
        self.events.append(ev)

    def ranking(self):
        """R52: players by trophy points, ties broken by number of trophies.
        Returns [[player, points, count], ...], best first."""
        rows = []
        for p in range(1, self.players + 1):
            t = self.trophies[p]
            pts = 0
            for k in t:
                pts += KIND_TROPHY[k]
            rows.append([p, pts, len(t)])
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return rows

    # ----------------------------------------------------- the turn machine

    def _run(self):
        """Carry the game forward until it needs the players (or is over)."""
        while self.outcome == PLAYING:
            self._check_won()      # R51: the win ends the action where it is reached
            if self.pending is not None or self.outcome != PLAYING:
                return
            if self.tasks:
                if moves.next_task(self):
                    return
            elif self.phase == PHASE_MOVE:
                self._after_move()
            elif self.queue:
                k, s = self.queue.pop(0)
                moves.resolve(self, k, s, True)
            elif self.reveals and (self.ending or self.phase == PHASE_MARSHAL):
                moves.reveal_from_pool(self)
            elif self.marshal_extra:
                self.pending = {"choice": "marshal_extra", "count": self.marshal_extra}
                return
            elif self.ending:
                if self.phase == PHASE_PLAY:
                    self.start_move()
                else:
                    self._next_turn()
                    return
            else:
                return

    def start_move(self):
        self.phase = PHASE_MOVE
        self.events.append({"ev": "phase", "phase": PHASE_MOVE})
        moves.step(self, None, "phase")                        # R20

    def _after_move(self):
        if self.mode == "marshal":
            self.phase = PHASE_MARSHAL
            self.events.append({"ev": "phase", "phase": PHASE_MARSHAL})
            if not self.patrol:                                # R60 (b); R17
                from shared_rules.siege import marshal
                marshal.draw(self)
                # The defenders' end_turn stops here: what the marshal plays is
                # his decision (R60 c), not theirs to skip.
                self.ending = False
        else:
            self.phase = PHASE_REVEAL
            self.reveals = 0 if self.patrol else 2             # R17, R30
            self.events.append({"ev": "phase", "phase": PHASE_REVEAL})

    def _next_turn(self):
        self.hedgehog = 0                                      # R13
        self.patrol = False
        self.reveals = 0
        self.ending = False
        self.phase = PHASE_PLAY
        p = self.player
        for _ in range(self.players):
            p = p % self.players + 1
            if not self.out[p]:                                # R62
                break
        self.player = p
        self.turn += 1
        self.events.append({"ev": "turn", "turn": self.turn, "player": p})

    def _check_won(self):
        if (self.outcome == PLAYING and not self.pool and not self.enemies
                and not self.queue and self.pending is None and not self._marshal_can_play()):
            self._end(WON, "R51")

    def _marshal_can_play(self):
        """R51/R60: the marshal's hand counts as enemies still to come while
        he can still play from it.  With the pool empty, a hand of one token
        that is not a tank has no play left (a lone non-tank is not a play,
        and he draws nothing more), unless a reveal3/reveal4 lets him play it."""
        hand = self.marshal_hand
        if not hand:
            return False
        return len(hand) > 1 or self.marshal_extra > 0 or KIND_CLASS[hand[0]] <= C_SPECIAL

    # ------------------------------------------------------------- actions

    def apply(self, action):
        """Apply one spec action object.  Returns the events it caused.
        Raises RuleError (state unchanged) if it breaks a rule."""
        return self.apply_tuple(parse(action))

    def apply_tuple(self, t):
        self.events = []
        op, a, b = t
        if self.outcome != PLAYING:
            bad("R50" if self.outcome == LOST else "R51", "the game is over (%s)" % self.outcome)
        pending = self.pending
        if pending is not None and op != A.CHOOSE:
            if pending["choice"] == "marshal_extra":
                if op != A.MARSHAL_PLAY:
                    bad("R60", "the marshal may play %d drawn token(s) first (marshal_play)"
                        % pending["count"])
            else:
                bad("R25", "answer the pending choice first: which of %s takes the damage"
                    % pending["candidates"])
        (_PLAYS[0] if _PLAYS else load_rules())[op](self, a, b)
        self.log.append(t)
        self._run()
        self._check_won()
        return self.events

    def need_phase(self, phase, what):
        if self.phase != phase:
            bad("turn", "%s is for phase %d; it is phase %d" % (what, phase, self.phase))

    # ---------------------------------------------------------- the state

    def state(self):
        """The spec's state object (a dict; see state_json for the text)."""
        held = self.hedgehog
        enemies = []
        for e in self.enemies:
            enemies.append({"id": e.id, "kind": KIND_IDS[e.kind], "sector": e.sector,
                            "line": LINES[e.line], "armor": e.armor, "held": e.id == held})
        trophies = {}
        for p in range(1, self.players + 1):
            trophies[str(p)] = [KIND_IDS[k] for k in self.trophies[p]]
        st = {
            "outcome": self.outcome, "turn": self.turn, "player": self.player,
            "phase": self.phase, "reveals": self.reveals, "patrol": self.patrol,
            "walls": [s for s in range(1, 7) if self.walls[s]],
            "dots": [s for s in range(1, 7) if self.dots[s]],
            "buildings": [s for s in range(1, 7) if self.buildings[s]],
            "enemies": enemies,
            "pool": len(self.pool),
            "discard": [KIND_IDS[k] for k in self.discard],
            "trophies": trophies,
            "pending": self.pending,
            "events": self.events,
        }
        if self.my_house:
            st["out"] = [p for p in range(1, self.players + 1) if self.out[p]]
        if self.mode == "marshal":
            st["marshal_hand"] = [KIND_IDS[k] for k in self.marshal_hand]
            # tokens he has played that are still to be resolved (R60)
            st["marshal_queue"] = [KIND_IDS[k] for k, _s in self.queue]
        return st

    def state_json(self, events=None):
        st = self.state()
        if events is not None:
            st["events"] = events
        from shared_rules.jsonout import dumps  # the host's and the tests': the device never loads it for this
        return dumps(st)

    def token_count(self):
        """Every token's place: board + pool + discard + trophies + marshal hand
        + marshal queue + removed (R61).  49 for a standard setup."""
        n = len(self.enemies) + len(self.pool) + len(self.discard) + len(self.removed)
        n += len(self.marshal_hand) + len(self.queue)
        for t in self.trophies:
            n += len(t)
        return n


def parse(action):
    """A spec action object -> the engine's action tuple; RuleError naming
    the rule ('format' for a malformed one) if it cannot be played."""
    try:
        return A.parse(action)
    except A.ActionError as exc:
        raise RuleError(exc.rule, str(exc))


def replay(setup, log):
    """Rebuild a game from its setup dict and its action tuples (event sourcing)."""
    g = Game.from_setup(setup)
    for t in log:
        g.apply_tuple(t)
    return g
