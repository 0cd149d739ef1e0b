# «День Победы»: the device tosses for the first player (issue 30; rule V8 of
# docs/rules-victory-day.md: «Кто ходит первым - определяется жребием. В
# последующих партиях право первого хода чередуется между игроками»).
# Loaded by osada_fw/gamemenu.py only when the players pick Victory Day,
# unloaded when another game is picked; Siege's game and journal stay as they
# are meanwhile.
#
# The lot is drawn once, for the first game: one random bit from the device's
# free generator (app.free_rng, as Tank battle's dice), 1/2 each: 0 seat A,
# 1 seat B.  Later games alternate without a new bit: the seat that starts
# game g is (lot + g - 1) mod 2.  The device keeps the lot, the game number
# and which seat plays the USSR (the other plays Germany) in its state dir
# (STATE_FILE, a few bytes written on each change), so leaving the game, or a
# restart, finds them again; a flash that cannot keep them is no error.
#
# The buttons (what the ring shows: osada_fw/victory/view.py):
#   encoder turn    before the lot: swap the seats' factions (seat A USSR <-> seat B USSR)
#   ACTION          draw the lot (game 1); once drawn it stands: ACTION shows it again
#   encoder press   next game: the other seat starts (V8)
#   BACK            back one game (a "next game" pressed by mistake)
#   hold ENCODER    a new match: the lot forgotten, game 1, toss ready again
#   hold BACK with ACTION held: the game menu (osada_fw/gamemenu.py)
#
# The requests: toss, next, state (firmware/README.md's protocol table; the
# host's `osada victory toss`).  Every change, from the buttons or a request,
# is pushed as one {"ev": "victory", "did": ...} event with the state.
# Runs on MicroPython and CPython alike.

import json

from osada_fw.link.protocol import CommandError
from osada_fw.victory import view as victory_view
from shared_rules.errors import RuleError

IMPLEMENTED = ("V8",)           # the rule ids played here; each is named by a test (tests/firmware/victory/)

MODULES = ("osada_fw.victory.mode", "osada_fw.victory.view", "osada_fw.victory")

SEATS = ("A", "B")
MAX_GAME = 999                  # the games a match counts
STATE_FILE = "/victory"         # in the state dir: "lot game ussr", e.g. "1 3 0" (lot -1: not drawn)


def start(app):
    return Victory(app)


class Victory:
    id = "victory"

    def __init__(self, app):
        self.app = app
        self.rng = app.free_rng
        self.modules = MODULES
        self.lot = -1                  # the first game's lot: 0 seat A, 1 seat B; -1 not drawn yet
        self.game = 1                  # the match's game, from 1
        self.ussr = 0                  # the seat that plays the USSR; the other plays Germany
        self.shown = victory_view.SHOW_STEADY
        self.at = 0                    # when what the ring shows began (ms)
        self.saved = True              # flash holds what the device says (the last write worked)
        self.load()

    def handlers(self):
        """The requests this game answers itself (before link/commands.py's)."""
        return HANDLERS

    def acting(self):
        """A request that changes something comes: no menu of its own to close."""
        return self

    def starter(self):
        """The seat (0 A, 1 B) that moves first in this game (V8); -1 before the lot."""
        if self.lot < 0:
            return -1
        return (self.lot + self.game - 1) & 1

    # ------------------------------------------------------------ the changes

    def toss(self, now, source):
        """V8: the first game's first player, by lot: one random bit."""
        self.lot = self.rng.below(2)
        self.game = 1
        self.changed("toss", now, source, victory_view.SHOW_TOSS)

    def step(self, d, now, source):
        """Game + d (1: the next game, -1: back one); the starter alternates (V8)."""
        self.game += d
        self.changed("next" if d > 0 else "back", now, source, victory_view.SHOW_BLINK)

    def set_seats(self, ussr, now, source):
        self.ussr = ussr
        self.changed("seats", now, source, -1)      # what the ring shows goes on, in the new colours

    def new_match(self, now, source):
        self.lot = -1
        self.game = 1
        self.changed("new", now, source, victory_view.SHOW_STEADY)

    def changed(self, did, now, source, shown):
        """Say it (the event), keep it (flash) and show it (shown: victory_view.SHOW_*, from now; -1 as it was)."""
        if shown >= 0:
            self.shown = shown
            self.at = now
        self.save()
        ev = self.state()
        ev["ev"] = "victory"
        ev["did"] = did
        ev["source"] = source
        self.app.push(ev)

    # ---------------------------------------------------------- the inputs

    def handle(self, ev, now):
        app = self.app
        what, value = ev
        if what == "long" and value == "back" and app.hw.inputs.held("action"):
            app.pick_game(None, now)   # ACTION and BACK held together: the game menu
        elif what == "press" and value == "action":
            if self.lot < 0:
                self.toss(now, "buttons")
            else:                      # the lot stands (V8): shown again, not drawn again
                self.shown = victory_view.SHOW_BLINK
                self.at = now
        elif what == "turn":
            if self.lot < 0:
                self.set_seats(self.ussr ^ 1, now, "buttons")
        elif what == "press" and value == "encoder":
            if self.lot >= 0 and self.game < MAX_GAME:
                self.step(1, now, "buttons")
        elif what == "press" and value == "back":
            if self.game > 1:
                self.step(-1, now, "buttons")
        elif what == "long" and value == "encoder":
            self.new_match(now, "buttons")

    def draw(self, now, r):
        victory_view.draw(self, self.app.layout, now, r)

    # --------------------------------------------------------- flash and state

    def load(self):
        """The lot, game and seats kept in the state dir, if they are there and make sense."""
        try:
            with open(self.app.hw.state_dir + STATE_FILE) as f:
                parts = f.read(32).split()
            lot, game, ussr = int(parts[0]), int(parts[1]), int(parts[2])
        except Exception:
            return
        if -1 <= lot <= 1 and 1 <= game <= MAX_GAME and 0 <= ussr <= 1 and (lot >= 0 or game == 1):
            self.lot, self.game, self.ussr = lot, game, ussr

    def save(self):
        try:
            with open(self.app.hw.state_dir + STATE_FILE, "w") as f:
                f.write("%d %d %d\n" % (self.lot, self.game, self.ussr))
            self.saved = True
        except Exception:              # the flash cannot keep it: the game goes on in RAM
            self.saved = False

    def state(self):
        s = self.starter()
        return {"lot": SEATS[self.lot] if self.lot >= 0 else None, "game": self.game,
                "starter": SEATS[s] if s >= 0 else None, "ussr": SEATS[self.ussr], "saved": self.saved}


# ------------------------------------------------------------- the protocol


def _only(req, names):
    for k in req:
        if k not in ("cmd", "id") and k not in names:
            raise CommandError("%s takes %s; not %s" % (req["cmd"], ", ".join(names), json.dumps(k)))


def _flag(req, name):
    x = req.get(name, False)
    if x is not True and x is not False:
        raise CommandError("%s: %s must be true or false (got %s)" % (req["cmd"], name, json.dumps(x)))
    return x


def _game(app):
    game = app.mode
    if not isinstance(game, Victory):
        raise CommandError("the device runs %s, not Victory Day" % game.id)
    return game


def cmd_toss(app, req):
    """{"cmd": "toss"}: draw the lot if it is not drawn yet (else the lot
    stands, V8); "ussr": "A"/"B" sets which seat plays the USSR first;
    "again": true starts a new match (a new lot)."""
    game = _game(app)
    _only(req, ("ussr", "again"))
    ussr = req.get("ussr")
    if ussr is not None and ussr not in SEATS:
        raise CommandError("toss: ussr is the seat that plays the USSR, \"A\" or \"B\" (got %s)" % json.dumps(ussr))
    again = _flag(req, "again")
    now = app.hw.clock.ticks_ms()
    if ussr is not None and SEATS.index(ussr) != game.ussr:
        game.set_seats(SEATS.index(ussr), now, "host")
    if again and game.lot >= 0:
        game.new_match(now, "host")
    tossed = game.lot < 0
    if tossed:
        game.toss(now, "host")
    out = game.state()
    out["tossed"] = tossed
    return out


def cmd_next(app, req):
    """{"cmd": "next"}: the next game, the other seat starts (V8); "back": true, back one game."""
    game = _game(app)
    _only(req, ("back",))
    back = _flag(req, "back")
    if game.lot < 0:
        raise RuleError("V8", "no lot yet: the first game's first player is drawn by lot first (toss)")
    if back and game.game == 1:
        raise CommandError("next: this is game 1, there is no game before it")
    if not back and game.game >= MAX_GAME:
        raise CommandError("next: the device counts %d games at most (toss with again: true starts a new match)"
                           % MAX_GAME)
    game.step(-1 if back else 1, app.hw.clock.ticks_ms(), "host")
    return game.state()


def cmd_state(app, req):
    game = app.mode if isinstance(app.mode, Victory) else app.mode.inner   # the game menu stands in front
    siege = app.siege                  # the home game's record, as in hello
    return {"game": "victory", "victory": game.state(), "seq": len(siege.game.log),
            "journal": siege.journal_status()}


def cmd_siege_only(app, req):
    raise CommandError("%s is Siege's: the device runs Victory Day now; "
                       "{\"cmd\": \"game\", \"game\": \"siege\"} goes back to the game in progress" % req["cmd"])


HANDLERS = {"toss": cmd_toss, "next": cmd_next, "state": cmd_state, "act": cmd_siege_only, "new": cmd_siege_only,
            "undo": cmd_siege_only, "log": cmd_siege_only}
