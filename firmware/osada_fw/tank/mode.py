# «Кубики»: the device's dice mode for «Танковый бой» (issue 13; rule ids T..
# in docs/rules-tank.md).  Loaded by osada_fw/gamemenu.py only when
# the player picks Tank battle, unloaded when Siege is picked again; Siege's
# game and journal stay as they are meanwhile.
#
# Tests (TESTS): fire (T12, N dice hit on <= V, ambush +1 T13/T35, then the
# target's protection P absorbs hits, T16), suppress (suppression fire T27:
# card intensity N -> N + ceil(N/2) dice; the target always tests morale,
# T20), morale (T21: n dice, pass if the sum <= steadiness), counter
# (counter-attack T29: one die each, ties re-rolled TA8, the event says how
# many) and collision (T39: 1-3 units a side, each one die + its own
# steadiness; a unit moves in if its total beats every opposing total, TA9;
# equal totals: both stop).
#
# The buttons (what the ring shows: osada_fw/tank/view.py):
#   encoder turn    change the value under the cursor (the test, then its numbers);
#                   on a fire result: the outcome <-> the faces
#   encoder press   next number (wraps back to the test); a collision asks A's
#                   units, each one's steadiness, then B's units and theirs
#   BACK            previous number; on a result: back to the numbers
#   ACTION          roll (from anywhere), again and again with the same numbers
#   hold BACK       new game turn: protection back to the value last set (T17)
#   hold ENCODER    every number back to its default
#   hold BACK with ACTION held: the game menu (osada_fw/gamemenu.py)
# After a fire roll the protection left (P - absorbed hits) becomes the next
# shot's P: the next shooter at the same target this turn (T16, T19).
#
# Every roll, from the buttons or the `roll` request, is pushed as one
# {"ev": "roll", "test": ...} event.  Rolling (roll()) allocates nothing:
# the faces go into a preallocated buffer, the counts into ints; only the
# event built afterwards does.  Runs on MicroPython and CPython alike.

import json

from osada_fw.link.protocol import CommandError
from osada_fw.tank import view as tank_view
from shared_rules.tank import dice

MODULES = ("osada_fw.tank.mode", "osada_fw.tank.view", "shared_rules.tank.dice", "shared_rules.tank",
           "osada_fw.tank.bench", "osada_fw.tank")

TESTS = ("fire", "suppress", "morale", "counter", "collision")
T_FIRE = 0
T_SUPPRESS = 1
T_MORALE = 2
T_COUNTER = 3
T_COLLISION = 4

# the numbers: protocol name, lowest, highest, default
F_DICE = 0          # fire: dice; suppress: the card's intensity
F_HIT = 1
F_AMBUSH = 2
F_PROT = 3
F_MDICE = 4
F_STEAD = 5
F_NA = 6            # collision: side A's units, then each one's steadiness
F_A1 = 7
F_NB = 10           # side B's
F_B1 = 11
MAX_UNITS = 3       # a side in a collision: one sector of the ring each (view.py)
FIELDS = (("dice", 1, 12, 6), ("hit", 1, 6, 3), ("ambush", 0, 1, 0), ("protection", 0, 12, 0),
          ("dice", 1, 4, 2), ("steadiness", 1, 24, 7),
          ("a", 1, MAX_UNITS, 1), ("a", 0, 12, 7), ("a", 0, 12, 7), ("a", 0, 12, 7),
          ("b", 1, MAX_UNITS, 1), ("b", 0, 12, 7), ("b", 0, 12, 7), ("b", 0, 12, 7))
TEST_FIELDS = ((F_DICE, F_HIT, F_AMBUSH, F_PROT), (F_DICE, F_HIT, F_AMBUSH, F_PROT),
               (F_MDICE, F_STEAD), (), (F_NA, F_A1, F_A1 + 1, F_A1 + 2, F_NB, F_B1, F_B1 + 1, F_B1 + 2))
MAX_ROLLED = 18     # suppression fire at intensity 12
BUF = 24            # the dice buffer; a counter-attack keeps its tied faces in buf[2:]
MAX_TIED = BUF - 2  # ... so an event lists at most this many (the count is always whole)

V_EDIT = 0
V_RESULT = 1


def start(app):
    return Tank(app)


class Tank:
    id = "tank"

    def __init__(self, app):
        self.app = app
        self.rng = app.free_rng
        self.buf = dice.dice_buffer(BUF)
        self.stead = bytearray(2 * MAX_UNITS)   # a collision's steadiness per unit, A's first
        self.totals = bytearray(2 * MAX_UNITS)  # ... and die + steadiness
        self.vals = bytearray(len(FIELDS))
        self.count = bytearray(7)      # view.py: dice per face
        self.modules = MODULES
        self.fields = FIELDS
        self.test_fields = TEST_FIELDS
        self.defaults()
        self.test = T_FIRE
        self.cursor = 0                # 0: the test; k: its k-th number
        self.view = V_EDIT
        self.page = 0
        self.rolled = -1               # the test of the last roll, -1 none yet
        self.last = None               # its event
        self.at = 0                    # when it was rolled (ms)
        self.n = 0                     # dice rolled
        self.hit = 0                   # effective hit number (T13)
        self.hits = 0
        self.prot = 0                  # protection before the roll
        self.absorbed = 0
        self.damage = 0
        self.morale = False            # a morale test is due (T20)
        self.total = 0                 # morale: the sum; counter: A's die; collision: A's best total
        self.total_b = 0
        self.na = 1                    # collision: A's units (dice, totals: A's first)
        self.ties = 0                  # counter-attack: tied throws re-rolled (TA8)
        self.winner = -1               # duels: 0 A, 1 B, -1 nobody moves in (T39 tie)

    def handlers(self):
        """The requests this game answers itself (before link/commands.py's)."""
        return HANDLERS

    def acting(self):
        """A request that changes something comes: no menu of its own to close."""
        return self

    def defaults(self):
        for k in range(len(FIELDS)):
            self.vals[k] = FIELDS[k][3]
        self.turn_prot = self.vals[F_PROT]

    # ------------------------------------------------------------ the roll

    def roll(self):
        """Roll the current test with the current numbers.  Allocates nothing."""
        t = self.test
        v = self.vals
        buf = self.buf
        rng = self.rng
        self.rolled = t
        self.winner = -1
        if t == T_FIRE or t == T_SUPPRESS:
            n = v[F_DICE]
            if t == T_SUPPRESS:
                n = dice.suppression_dice(n)                    # T27
            self.n = n
            self.hit = dice.effective_accuracy(v[F_HIT], v[F_AMBUSH] == 1)   # T13, T35
            h = dice.fire_test(rng, buf, n, v[F_HIT], v[F_AMBUSH] == 1)       # T12
            p = v[F_PROT]
            self.hits = h
            self.prot = p
            self.absorbed = h if h < p else p                   # T16: each hit lowers protection
            self.damage = h - self.absorbed
            self.morale = t == T_SUPPRESS or self.damage > 0   # T20
            v[F_PROT] = p - self.absorbed                       # T19: what is left this turn
        elif t == T_MORALE:
            self.n = v[F_MDICE]
            self.morale = dice.morale_test(rng, buf, self.n, v[F_STEAD])   # T21: True = passed
            self.total = dice.dice_sum(buf, self.n)
        elif t == T_COUNTER:
            self.n = 2
            self.ties = dice.counter_attack_ties(rng, buf)     # T29, ties re-rolled (TA8)
            self.winner = 0 if buf[0] > buf[1] else 1
            self.total = buf[0]
            self.total_b = buf[1]
        else:
            na = v[F_NA]
            n = na + v[F_NB]
            st = self.stead
            for i in range(na):
                st[i] = v[F_A1 + i]
            for i in range(na, n):
                st[i] = v[F_B1 + i - na]
            self.na = na
            self.n = n
            dice.unit_totals(rng, buf, self.totals, st, n)     # T39: die + own steadiness
            self.total = dice.highest(self.totals, 0, na)
            self.total_b = dice.highest(self.totals, na, n)
            if self.total != self.total_b:                     # TA9: the side whose best wins
                self.winner = 0 if self.total > self.total_b else 1

    def event(self, source):
        """The last roll as the pushed event (and the request's reply)."""
        t = self.rolled
        v = self.vals
        ev = {"ev": "roll", "test": TESTS[t], "dice": list(self.buf[:self.n]), "source": source}
        if t <= T_SUPPRESS:
            ev["n"] = self.n
            if t == T_SUPPRESS:
                ev["intensity"] = v[F_DICE]
            ev["hit"] = self.hit
            ev["ambush"] = v[F_AMBUSH] == 1
            ev["hits"] = self.hits
            ev["protection"] = self.prot
            ev["absorbed"] = self.absorbed
            ev["damage"] = self.damage
            ev["morale"] = self.morale
        elif t == T_MORALE:
            ev["steadiness"] = v[F_STEAD]
            ev["sum"] = self.total
            ev["passed"] = self.morale
        else:
            if t == T_COUNTER:
                ev["ties"] = self.ties
                ev["tied"] = list(self.buf[2:2 + min(self.ties, MAX_TIED)])
            else:
                na = self.na
                n = self.n
                ev["a"] = list(self.stead[:na])
                ev["b"] = list(self.stead[na:n])
                ev["totals"] = list(self.totals[:n])
                ev["enter"] = [i for i in range(n)              # TA9: every unit that beats all opponents
                               if self.totals[i] > (self.total_b if i < na else self.total)]
            ev["winner"] = ("a", "b")[self.winner] if self.winner >= 0 else None
        return ev

    def do_roll(self, app, now, source):
        self.roll()
        self.at = now
        self.view = V_RESULT
        self.page = 0
        ev = self.event(source)
        self.last = ev
        app.push(ev)
        return ev

    # ---------------------------------------------------------- the inputs

    def handle(self, ev, now):
        app = self.app
        what, value = ev
        fields = TEST_FIELDS[self.test]
        if what == "long" and value == "back" and app.hw.inputs.held("action"):
            app.pick_game(None, now)   # ACTION and BACK held together: the game menu
        elif what == "press" and value == "action":
            self.do_roll(app, now, "buttons")
        elif self.view == V_RESULT:
            if what == "turn" and self.rolled <= T_SUPPRESS:
                self.page ^= 1
            elif what == "press":
                self.view = V_EDIT
            elif what == "long":
                self.view = V_EDIT
                self._long(value)
        elif what == "turn":
            self._turn(value)
        elif what == "press" and value == "encoder":
            self.cursor = self._step(fields, self.cursor, 1) % (len(fields) + 1)
        elif what == "press" and value == "back":
            if self.cursor > 0:
                self.cursor = self._step(fields, self.cursor, -1)
        elif what == "long":
            self._long(value)

    def _step(self, fields, k, d):
        """The next cursor from k in direction d, past the steadiness of
        collision units a side does not have; 0 or len(fields) + 1 at the ends."""
        k += d
        while 0 < k <= len(fields) and not self.shown(fields[k - 1]):
            k += d
        return k

    def shown(self, f):
        """Whether number f is asked: a collision asks each unit's steadiness only."""
        if F_A1 < f < F_NB:
            return f - F_A1 < self.vals[F_NA]
        if f > F_B1:
            return f - F_B1 < self.vals[F_NB]
        return True

    def _turn(self, value):
        """The encoder in the numbers: the test, or the number under the cursor (wrapping)."""
        if self.cursor == 0:
            self.test = (self.test + value) % len(TESTS)
            return
        f = TEST_FIELDS[self.test][self.cursor - 1]
        lo = FIELDS[f][1]
        span = FIELDS[f][2] - lo + 1
        self.vals[f] = lo + (self.vals[f] - lo + value) % span
        if f == F_PROT:
            self.turn_prot = self.vals[f]

    def _long(self, value):
        if value == "back":            # a new game turn: protection as set (T17)
            self.vals[F_PROT] = self.turn_prot
        elif value == "encoder":
            self.defaults()

    def draw(self, now, r):
        tank_view.draw(self, self.app.layout, now, r)

    # --------------------------------------------------------- the protocol

    def set_from(self, req):
        """Take a roll request's test and numbers; CommandError, nothing
        changed, if one is bad.  Numbers not given keep their current value."""
        name = req.get("test", TESTS[self.test])
        if name not in TESTS:
            raise CommandError("test must be one of %s (got %s)" % (", ".join(TESTS), json.dumps(name)))
        t = TESTS.index(name)
        fields = TEST_FIELDS[t]
        names = number_names(t)
        for k in req:
            if k not in ("cmd", "id", "test") and k not in names:
                raise CommandError("%s takes %s; not %s" % (name, ", ".join(names) or "no numbers", json.dumps(k)))
        new = []                       # (field, value) pairs, set once all are good
        for f in fields:
            key, lo, hi = FIELDS[f][0], FIELDS[f][1], FIELDS[f][2]
            if t == T_COLLISION:
                if f == F_NA or f == F_NB:
                    _side(new, f, req.get(key))
                continue
            x = req.get(key, self.vals[f])
            if f == F_AMBUSH and (x is True or x is False):
                x = 1 if x else 0
            if not _int_in(x, lo, hi):
                raise CommandError("%s: %s must be %s (got %s)"
                                   % (name, key, "true or false" if f == F_AMBUSH else "%d..%d" % (lo, hi),
                                      json.dumps(x)))
            new.append((f, x))
        self.test = t
        for f, x in new:
            if f == F_PROT and x != self.vals[F_PROT]:
                self.turn_prot = x
            self.vals[f] = x
        self.cursor = 0

    def state(self):
        nums = {}
        v = self.vals
        for f in TEST_FIELDS[self.test]:
            if f == F_NA or f == F_NB:
                nums[FIELDS[f][0]] = list(v[f + 1:f + 1 + v[f]])
            elif f < F_NA:
                nums[FIELDS[f][0]] = v[f]
        return {"test": TESTS[self.test], "numbers": nums, "tests": list(TESTS), "last": self.last,
                "cursor": self.cursor_name()}

    def cursor_name(self):
        """What the encoder changes now, as hosts show it: "test", a number's
        name, "a units" / "b units", or a collision unit's steadiness "a1".."b3"."""
        if self.cursor == 0:
            return "test"
        f = TEST_FIELDS[self.test][self.cursor - 1]
        if f == F_NA or f == F_NB:
            return FIELDS[f][0] + " units"
        if f > F_NA:
            return FIELDS[f][0] + str(f - (F_A1 if f < F_NB else F_B1) + 1)
        return FIELDS[f][0]


def number_names(t):
    """Test t's numbers as requests and `state` name them, in order, without repeats."""
    names = []
    for f in TEST_FIELDS[t]:
        if FIELDS[f][0] not in names:
            names.append(FIELDS[f][0])
    return names


def _int_in(x, lo, hi):
    return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi


def _side(new, f, x):
    """A collision side from a request: one steadiness 0..12 (one unit) or a
    list of 1..MAX_UNITS of them; appends (field, value) pairs to new.  Not
    given: the side stays as it is."""
    if x is None:
        return
    key = FIELDS[f][0]
    units = x if isinstance(x, list) else [x]
    if not 1 <= len(units) <= MAX_UNITS or not all(_int_in(s, 0, 12) for s in units):
        raise CommandError("collision: %s must be 0..12, its unit's steadiness, or a list of 1..%d of them "
                           "(one per unit; got %s)" % (key, MAX_UNITS, json.dumps(x)))
    new.append((f, len(units)))
    for i in range(len(units)):
        new.append((f + 1 + i, units[i]))


def cmd_roll(app, req):
    tank = app.mode
    if not isinstance(tank, Tank):
        raise CommandError("the device runs %s, not Tank battle" % tank.id)
    if "bench" in req:                 # make bench's figures, measured here (loaded only when asked)
        import sys

        from osada_fw.tank import bench as tank_bench
        return tank_bench.bench(app, req, sys.modules[__name__])   # the bench imports nothing of this
    tank.set_from(req)
    ev = tank.do_roll(app, app.hw.clock.ticks_ms(), "host")
    out = dict(ev)
    del out["ev"]
    return out


def cmd_state(app, req):
    tank = app.mode if isinstance(app.mode, Tank) else app.mode.inner   # the game menu stands in front
    siege = app.siege                  # the home game's record, as in hello
    return {"game": "tank", "tank": tank.state(), "seq": len(siege.game.log),
            "journal": siege.journal_status()}


def cmd_siege_only(app, req):
    raise CommandError("%s is Siege's: the device runs Tank battle now; "
                       "{\"cmd\": \"game\", \"game\": \"siege\"} goes back to the game in progress" % req["cmd"])


HANDLERS = {"roll": cmd_roll, "state": cmd_state, "act": cmd_siege_only, "new": cmd_siege_only,
            "undo": cmd_siege_only, "log": cmd_siege_only}
