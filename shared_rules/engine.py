# The Siege rules engine.  Rule ids (R1...) refer to ../shared/spec/siege-rules.md.
#
# A game is its setup plus its log of accepted actions (event sourcing):
# Game(setup) followed by the log's actions rebuilds the exact state, which is
# what undo and power-loss recovery use.  Every action is validated in full
# before anything changes, so a refused action leaves the state untouched.
#
# Plain Python for CPython and MicroPython 1.2x alike: no dataclasses, enum,
# typing, random.shuffle/choice; enemies are kept in a list ordered by id so no
# result depends on dict ordering (MicroPython's dicts are unordered).

from shared_rules import actions as A
from shared_rules.catalog import (
    AIR,
    ARTILLERY,
    C_BOMBER,
    C_SPECIAL,
    CITY,
    KIND_ARMOR,
    KIND_CLASS,
    KIND_IDS,
    KIND_TROPHY,
    LINES,
    MOVE_COLOR,
    PHASE_MARSHAL,
    PHASE_MOVE,
    PHASE_PLAY,
    PHASE_REVEAL,
    REAR,
    REVEAL_MORE,
    SECTOR_COLOR,
    TANK,
    ccw,
    cw,
    kind_index,
    opposite,
)
from shared_rules.errors import RuleError, bad  # noqa: F401  (RuleError: part of the engine's API)
from shared_rules.rng import Rng

PLAYING = "playing"
WON = "won"
LOST = "lost"

_K_PZ2H = kind_index("pz2h")
_K_PZ4H = kind_index("pz4h")
_K_MAUS = kind_index("maus")
_K_PANTHER = kind_index("panther")
_K_CW = kind_index("move_cw")
_K_CCW = kind_index("move_ccw")


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
        from shared_rules import newgame  # a game's start: not kept once it is built (on the Pico)
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
        from shared_rules import newgame
        newgame.check_scenario(d)
        return cls(players=d.get("players"), mode=d.get("mode", "standard"),
                   variants=d.get("variants", ()), seed=d.get("seed", 1),
                   board=d.get("board"), pool=d.get("pool"), rolls=d.get("rolls"),
                   houses=d.get("houses"))

    def setup_dict(self):
        """The setup that, with the action log, rebuilds this game."""
        return self._setup

    # --------------------------------------------------------------- helpers

    def _roll(self):
        if self.roll_i < len(self.rolls):
            r = self.rolls[self.roll_i]
            self.roll_i += 1
            return r
        return self.rng.die()

    def _place(self, k, sector, line, armor):
        e = Enemy(self.next_id, k, sector, line, armor or KIND_ARMOR[k])
        self.next_id += 1
        self.enemies.append(e)
        return e

    def enemy(self, eid):
        for e in self.enemies:
            if e.id == eid:
                return e
        return None

    def _enemy_or_fail(self, eid, rule):
        e = self.enemy(eid)
        if e is None:
            bad(rule, "there is no enemy %d on the board" % eid)
        return e

    def _destroy(self, e, cause):
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

    def _damage(self, e, cause):
        e.armor -= 1
        if e.armor <= 0:
            self._destroy(e, cause)
        else:
            self.events.append({"ev": "damaged", "enemy": e.id, "armor": e.armor, "cause": cause})

    def _lose_building(self, s, cause):
        """A building falls.  The loss (R50, R62) is decided by _check_lost
        once the whole move or flight has been resolved."""
        self.buildings[s] = 0
        self.events.append({"ev": "building_destroyed", "sector": s, "cause": cause})
        if self.my_house:                                    # R62
            for p in range(1, self.players + 1):
                if self.houses[p] == s and not self.out[p]:
                    self.out[p] = True
                    self.events.append({"ev": "player_out", "player": p})

    def _check_lost(self):
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
                    self._damage(e, cause)
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

    # -------------------------------------------------------------- movement

    def _step(self, color, cause):
        """R20-R25: every enemy (of `color`'s sectors, or all if None) not under
        the hedgehog moves one step at the same time."""
        walls = self.walls
        attack = None        # per sector: enemies attacking its wall (R21)
        enter = None         # per sector: enemies entering its city cell (R22/R23)
        held = self.hedgehog
        n = 0
        for e in self.enemies:
            if e.id == held or (color is not None and SECTOR_COLOR[e.sector] != color):
                continue
            n += 1
            line = e.line
            if line < TANK:
                e.line = line + 1
            elif line == TANK:
                s = e.sector
                if walls[s]:
                    attack = _group(attack, s, e.id)
                else:
                    e.line = CITY
                    enter = _group(enter, s, e.id)
            else:
                s = e.sector % 6 + 1
                e.sector = s
                enter = _group(enter, s, e.id)
        self.events.append({"ev": "move", "cause": cause, "count": n})
        self._collide(attack, enter, cause)

    def _rotate(self, d, cause):
        """R26: every enemy not under the hedgehog moves one sector clockwise
        (d=1) or counter-clockwise (d=-1) in its own line."""
        enter = None
        held = self.hedgehog
        n = 0
        for e in self.enemies:
            if e.id == held:
                continue
            n += 1
            s = cw(e.sector) if d > 0 else ccw(e.sector)
            e.sector = s
            if e.line == CITY:
                enter = _group(enter, s, e.id)
        self.events.append({"ev": "move", "cause": cause, "count": n})
        self._collide(None, enter, cause)

    def _collide(self, attack, enter, cause):
        """Walls (R21) and buildings (R23) met by a move; queue the damage."""
        if attack is not None:
            for s in range(1, 7):
                ids = attack[s]
                if ids is None:
                    continue
                if self.dots[s]:
                    self.dots[s] = 0
                    self.events.append({"ev": "dot_destroyed", "sector": s, "cause": "enemy"})
                    self.tasks.append(["dot", s, ids])
                else:
                    self.walls[s] = 0
                    self.events.append({"ev": "wall_destroyed", "sector": s, "cause": "enemy"})
                    self.tasks.append(["wall", s, ids])
        if enter is not None:
            for s in range(1, 7):
                ids = enter[s]
                if ids is None or not self.buildings[s]:
                    continue
                self.tasks.append(["building", s, ids])
                self._lose_building(s, "enemy")
            self._check_lost()

    def _next_task(self):
        """Apply queued damage (R21, R23) until a choice is needed (R25).
        Returns True when it stopped on a pending choice."""
        while self.tasks:
            cause, s, ids = self.tasks[0]
            cands = []
            for eid in ids:
                e = self.enemy(eid)
                if e is not None:
                    cands.append(e)
            if len(cands) > 1:
                k = cands[0].kind
                a = cands[0].armor
                for e in cands:
                    if e.kind != k or e.armor != a:
                        self.pending = {"choice": "damage", "candidates": [e.id for e in cands],
                                        "cause": cause, "sector": s}
                        return True
            self.tasks.pop(0)
            if cands:
                self._damage(cands[0], cause)    # one candidate, or all alike: lowest id
        return False

    # ------------------------------------------------------------ He-111

    def _bomb(self, s):
        """R40-R42: the bomber's straight path from outside s through o."""
        o = opposite(s)
        killed = []
        ev = {"ev": "he111", "sector": s, "destroyed": killed, "stop": None}
        self.events.append(ev)        # filled in below, so it reads before its effects
        for line in (REAR, AIR, ARTILLERY, TANK):
            self._bomb_cell(s, line, killed)
        stop = self._bomb_wall(s)
        if stop is None:
            stop = self._bomb_city(s, killed)
        if stop is None:
            stop = self._bomb_city(o, killed)
        if stop is None:
            stop = self._bomb_wall(o)
        if stop is None:
            for line in (TANK, ARTILLERY, AIR, REAR):
                self._bomb_cell(o, line, killed)
        if stop is not None:
            ev["stop"] = stop[0]
            ev["at"] = stop[1]
        if stop is not None and stop[0] == "building":
            self._lose_building(stop[1], "he111")
            self._check_lost()

    def _bomb_cell(self, s, line, killed):
        i = 0
        while i < len(self.enemies):
            e = self.enemies[i]
            if e.sector == s and e.line == line:
                killed.append(e.id)
                self._destroy(e, "he111")
            else:
                i += 1

    def _bomb_wall(self, s):
        if not self.walls[s]:
            return None
        if self.dots[s]:
            self.dots[s] = 0
            self.events.append({"ev": "dot_destroyed", "sector": s, "cause": "he111"})
            return ["dot", s]
        self.walls[s] = 0
        self.events.append({"ev": "wall_destroyed", "sector": s, "cause": "he111"})
        return ["wall", s]

    def _bomb_city(self, s, killed):
        if self.buildings[s]:
            return ["building", s]
        self._bomb_cell(s, CITY, killed)
        return None

    # ------------------------------------------------------------ tokens

    def _reveal_from_pool(self):
        """R30/R35: draw the top token and resolve it; an empty pool reveals nothing."""
        self.reveals -= 1
        if not self.pool:
            self.reveals = 0
            self.events.append({"ev": "pool_empty"})
            return
        self._resolve(self.pool.pop(), 0, False)

    def _resolve(self, k, sector, from_hand):
        """Resolve one token (R31-R34, R40; R60 for the marshal's own tokens)."""
        cls = KIND_CLASS[k]
        name = KIND_IDS[k]
        if cls <= C_SPECIAL:                                  # R31
            s = sector or self._roll()
            e = self._place(k, s, REAR, 0)
            self.events.append({"ev": "reveal", "kind": name, "sector": s, "enemy": e.id})
            if k == _K_PZ2H:                                  # R32
                self.reveals += 3
            elif k == _K_PZ4H:
                self._step(SECTOR_COLOR[s], name)
            elif k == _K_MAUS:
                self._step(None, name)
            elif k == _K_PANTHER:
                n = 0
                for x in self.enemies:
                    if x.armor < KIND_ARMOR[x.kind]:
                        x.armor += 1
                        n += 1
                self.events.append({"ev": "repaired", "count": n})
            return
        self.discard.append(k)
        if cls == C_BOMBER:                                   # R40
            s = self._roll()
            self.events.append({"ev": "reveal", "kind": name, "sector": s})
            self._bomb(s)
            return
        self.events.append({"ev": "reveal", "kind": name})
        color = MOVE_COLOR.get(name)
        if color is not None:                                 # R33
            self._step(color, name)
        elif k == _K_CW:                                      # R26
            self._rotate(1, name)
        elif k == _K_CCW:
            self._rotate(-1, name)
        elif name in REVEAL_MORE:
            n = REVEAL_MORE[name]
            if from_hand:                                     # R60
                from shared_rules import marshal
                marshal.draw(self, n)
                self.marshal_extra += n
            else:                                             # R30
                self.reveals += n
        # sabotage_* and discard_one: announced only (R34)

    # ----------------------------------------------------- the turn machine

    def _run(self):
        """Carry the game forward until it needs the players (or is over)."""
        while self.outcome == PLAYING:
            self._check_won()      # R51: the win ends the action where it is reached
            if self.pending is not None or self.outcome != PLAYING:
                return
            if self.tasks:
                if self._next_task():
                    return
            elif self.phase == PHASE_MOVE:
                self._after_move()
            elif self.queue:
                k, s = self.queue.pop(0)
                self._resolve(k, s, True)
            elif self.reveals and (self.ending or self.phase == PHASE_MARSHAL):
                self._reveal_from_pool()
            elif self.marshal_extra:
                self.pending = {"choice": "marshal_extra", "count": self.marshal_extra}
                return
            elif self.ending:
                if self.phase == PHASE_PLAY:
                    self._start_move()
                else:
                    self._next_turn()
                    return
            else:
                return

    def _start_move(self):
        self.phase = PHASE_MOVE
        self.events.append({"ev": "phase", "phase": PHASE_MOVE})
        self._step(None, "phase")                              # R20

    def _after_move(self):
        if self.mode == "marshal":
            self.phase = PHASE_MARSHAL
            self.events.append({"ev": "phase", "phase": PHASE_MARSHAL})
            if not self.patrol:                                # R60 (b); R17
                from shared_rules import marshal
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
        if op == A.CHOOSE:
            self._choose(a)
        else:
            if self.pending is not None:
                if self.pending["choice"] == "marshal_extra":
                    if op != A.MARSHAL_PLAY:
                        bad("R60", "the marshal may play %d drawn token(s) first (marshal_play)"
                             % self.pending["count"])
                else:
                    bad("R25", "answer the pending choice first: which of %s takes the damage"
                         % self.pending["candidates"])
            HANDLERS[op](self, a, b)
        self.log.append(t)
        self._run()
        self._check_won()
        return self.events

    def _need_phase(self, phase, what):
        if self.phase != phase:
            bad("turn", "%s is for phase %d; it is phase %d" % (what, phase, self.phase))

    def _play_check(self, what):
        self._need_phase(PHASE_PLAY, what)

    # R10 / R12 card checks -------------------------------------------------

    def _reach(self, e, code, rule):
        """Can this strike card or counterattack hit enemy e?  (R10)"""
        t = code & 7
        color = SECTOR_COLOR[e.sector]
        if t == A.CARD_STRIKE or t == A.CARD_PRECISE_STRIKE:
            if e.line == CITY:
                bad(rule, "a strike card cannot reach an enemy in the city; only IL-2, hedgehog and push-back do")
            arm = A.card_arm(code)
            if LINES[e.line] != arm:
                bad(rule, "a %s card hits the %s line; enemy %d is in %s"
                     % (arm, arm, e.id, LINES[e.line]))
            c = A.card_color(code)
            if c != "any" and c != color:
                bad(rule, "a %s card hits %s sectors; enemy %d is in %s sector %d"
                     % (c, c, e.id, color, e.sector))
        else:   # counterattack
            c = A.card_color(code)
            if c != color:
                bad(rule, "a %s counterattack hits %s sectors; enemy %d is in %s sector %d"
                     % (c, c, e.id, color, e.sector))
            if e.line == CITY and not self.one_for_all:
                bad(rule, "a counterattack reaches the city only with the one_for_all variant")

    def _hit(self, eid, code):
        self._play_check("hit")
        e = self._enemy_or_fail(eid, "R10")
        if e.line == REAR:
            bad("R10", "enemies in the rear cannot be hit (enemy %d)" % eid)
        t = code & 7
        if t == A.CARD_NONE:
            if e.line == CITY and not self.one_for_all:
                bad("R10", "only IL-2, hedgehog and push-back affect an enemy in the city (enemy %d)" % eid)
        elif t == A.CARD_STRIKE or t == A.CARD_COUNTER:
            self._reach(e, code, "R10")
        else:
            bad("R12", "that card destroys outright: play it with kill")
        e.armor -= 1
        self.events.append({"ev": "hit", "enemy": eid, "armor": e.armor})
        if e.armor <= 0:
            self._destroy(e, "play")                           # R11

    def _kill(self, eid, code):
        self._play_check("kill")
        e = self._enemy_or_fail(eid, "R12")
        if e.line == REAR:
            bad("R12", "enemies in the rear cannot be destroyed by cards (enemy %d)" % eid)
        t = code & 7
        if t == A.CARD_PRECISE_STRIKE:
            self._reach(e, code, "R12")
        elif t == A.CARD_ALL_FOR_ONE:
            if not self.all_for_one:
                bad("R12", "three strike cards of one colour destroy only with the all_for_one variant")
            c = A.card_color(code)
            if SECTOR_COLOR[e.sector] != c:
                bad("R12", "all_for_one in %s destroys an enemy in a %s sector; enemy %d is in sector %d"
                     % (c, c, eid, e.sector))
        elif t == A.CARD_STRIKE or t == A.CARD_COUNTER:
            bad("R12", "a strike card alone only hits; destroy with precise_shot, IL-2 or all_for_one")
        self.events.append({"ev": "kill", "enemy": eid})
        self._destroy(e, "play")                               # R11

    def _hedgehog(self, eid, _):
        self._play_check("hedgehog")
        self._enemy_or_fail(eid, "R13")
        if self.hedgehog:
            bad("R13", "the only hedgehog already holds enemy %d this turn" % self.hedgehog)
        self.hedgehog = eid
        self.events.append({"ev": "hedgehog", "enemy": eid})

    def _dot(self, s, _):
        self._play_check("dot")
        if not self.walls[s]:
            bad("R14", "a dot goes on a standing wall; sector %d has none" % s)
        if self.dots[s]:
            bad("R14", "the wall of sector %d already has a dot" % s)
        if sum(self.dots) >= 2:
            bad("R14", "both dot tokens are already on the board")
        self.dots[s] = 1
        self.events.append({"ev": "dot", "sector": s})

    def _push_back(self, eid, _):
        self._play_check("push_back")
        e = self._enemy_or_fail(eid, "R15")
        if e.line == REAR:
            bad("R15", "enemy %d is already in the rear" % eid)
        e.line = REAR
        self.events.append({"ev": "push_back", "enemy": eid, "sector": e.sector})

    def _rebuild(self, s, _):
        self._play_check("rebuild")
        if self.walls[s]:
            bad("R16", "sector %d already has a wall; never a second one" % s)
        self.walls[s] = 1
        self.events.append({"ev": "rebuild", "sector": s})

    def _patrol(self, _a, _b):
        self._play_check("patrol")
        if self.patrol:
            bad("R17", "patrol is already played this turn")
        self.patrol = True
        self.events.append({"ev": "patrol"})

    def _move(self, _a, _b):
        if self.phase != PHASE_PLAY:
            bad("turn", "enemies move once, after phase 4; it is phase %d" % self.phase)
        self._start_move()

    def _reveal(self, _a, _b):
        self._need_phase(PHASE_REVEAL, "reveal")
        if self.reveals <= 0:
            bad("R30", "no more tokens to reveal this turn%s; end the turn"
                 % (" (patrol, R17)" if self.patrol else ""))
        self._reveal_from_pool()

    def _end_turn(self, _a, _b):
        self.ending = True
        self.events.append({"ev": "end_turn", "player": self.player})

    def _choose(self, eid):
        p = self.pending
        if p is None or p["choice"] != "damage":
            bad("R25", "there is no pending choice")
        if eid not in p["candidates"]:
            bad("R25", "enemy %d is not one of the candidates %s" % (eid, p["candidates"]))
        cause = self.tasks[0][0]
        self.tasks.pop(0)
        self.pending = None
        self._damage(self.enemy(eid), cause)

    def _marshal_play(self, sector, kinds):
        if self.mode != "marshal":
            bad("R60", "marshal_play is for mode marshal")
        from shared_rules import marshal  # his mode's rules: loaded in a marshal game only
        marshal.play(self, sector, kinds)

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


HANDLERS = [None] * len(A.OPS)
HANDLERS[A.HIT] = Game._hit
HANDLERS[A.KILL] = Game._kill
HANDLERS[A.HEDGEHOG] = Game._hedgehog
HANDLERS[A.DOT] = Game._dot
HANDLERS[A.PUSH_BACK] = Game._push_back
HANDLERS[A.REBUILD] = Game._rebuild
HANDLERS[A.PATROL] = Game._patrol
HANDLERS[A.MOVE] = Game._move
HANDLERS[A.REVEAL] = Game._reveal
HANDLERS[A.END_TURN] = Game._end_turn
HANDLERS[A.MARSHAL_PLAY] = Game._marshal_play


def _group(groups, s, eid):
    """Add enemy eid to sector s's group (R21 attackers, R23 entrants):
    groups is None until the first one, then a list of 7 (index = sector)."""
    if groups is None:
        groups = [None] * 7
    if groups[s] is None:
        groups[s] = [eid]
    else:
        groups[s].append(eid)
    return groups


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
