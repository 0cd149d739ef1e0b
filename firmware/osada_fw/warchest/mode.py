# «Сундук войны»'s round tracker on the device (issue 28; rule ids W.. in
# docs/rules-war-chest.md).  Loaded by osada_fw/gamemenu.py only when the
# players pick War Chest, unloaded when another game is picked; Siege's game
# and journal stay as they are meanwhile.
#
# It keeps the counts the whole table can see, never a coin (W8, W24): the
# round; the coins left in each player's hand (3 at a round's start, W8;
# fewer when his bag and discard ran short, W10: fixed with the encoder);
# the control markers each has still to place (4 of his 6 at the start, two
# being on his starting locations, W2; 0 = he placed his last and won, W7,
# W20); who holds the initiative marker and whether it changed hands this
# round (W16); and whose action it is (W11: the holder first, then in turn,
# one coin an action; a player whose hand is empty is passed over, W10; with
# both hands empty the round ends and the holder starts the next).  A new
# game flips the initiative marker: one random bit (W6; a scenario's too,
# WA6), shown on the ring; the players may set it instead (W3's first game,
# W26's draft: the encoder's initiative fix before the first action).
#
# The buttons (what the ring shows: osada_fw/warchest/view.py):
#   ACTION          "action done": one coin off the hand of the player whose
#                   action it is; the turn passes (W10, W11)
#   BACK            "initiative claimed" by the player whose action it is
#                   (W16: not by the holder, not twice a round); it is his
#                   action, paid with a coin (W12): do not press ACTION too
#   encoder turn    fix the count under the cursor, one a click, within its
#                   range: the markers of the player whose action it is
#                   (W20: he placed one, -1), unless the encoder's button
#                   chose another count within the last FIX_MS
#   encoder press   the next count to fix: the other player's markers (W20:
#                   one given back to him, +1), this player's hand, the
#                   other's hand (W10), the initiative holder, back again
#   hold BACK       undo the last change (up to HIST of them)
#   hold ENCODER    a new game: the initiative flipped again (W6)
#   hold BACK with ACTION held: the game menu (osada_fw/gamemenu.py)
# A press the rules refuse changes nothing: the ring flashes it and the
# host is told the rule ({"ev": "refused", ...}).  Every change is pushed
# as {"ev": "warchest", "what": ..., "warchest": state()}; the requests
# (cmd_warchest) do the same as the buttons.
#
# The counts are small ints in attributes and bytearrays; a change keeps a
# copy of them first (undo) in a preallocated array; drawing allocates
# nothing.  Runs on MicroPython and CPython alike.

from array import array

from osada_fw import elapsed
from osada_fw.link.protocol import CommandError
from osada_fw.warchest import view as wc_view
from osada_fw.warchest.view import C_HAND, C_HOLDER, C_MARKERS
from shared_rules.errors import RuleError, bad

MODULES = ("osada_fw.warchest.mode", "osada_fw.warchest.view", "osada_fw.warchest")

# W2: 6 control markers a player, 2 of them on his starting locations: the
# rules core's shared_rules.warchest.units.MARKERS[2], not imported (that
# module would cost the Pico 6 KB of heap for two numbers); the tests keep
# these equal to it
PLAYERS = 2
ALL_MARKERS = 6
START_MARKERS = 4
HAND = 3                                                # W8: 3 coins drawn a round
NOBODY = -1
MAX_ROUND = 0xFFFF

CURSOR_NAMES = ("markers", "hand", "initiative")     # by what the encoder fixes, view.C_MARKERS ...
FIX_MS = 4000           # a cursor chosen with the encoder's button lasts this long after the last touch
HIST = 16               # changes undone at most
NF = 11                 # numbers a copy keeps (save)


def start(app):
    return WarChest(app)


class WarChest:
    id = "warchest"

    def __init__(self, app):
        self.app = app
        self.modules = MODULES
        self.hand = bytearray(PLAYERS)        # coins left in each hand
        self.markers = bytearray(PLAYERS)     # control markers each has still to place
        self.round = 1
        self.holder = 0                       # the initiative marker's
        self.moved = 0                        # 1: it changed hands this round (W16)
        self.turn = 0                         # whose action it is
        self.acted = 0                        # 1: an action was taken this round
        self.winner = NOBODY                  # the player who placed his last marker (W7)
        self.flipped = NOBODY                 # the holder the device's flip gave (W6), NOBODY: set by hand
        self.hist = array("H", [0] * (NF * HIST))
        self.saved = 0                        # copies kept, at most HIST
        self.top = 0                          # where the next copy goes
        self.cur = C_MARKERS                  # the cursor ...
        self.cur_p = 0                        # ... and whose count it is
        self.touched = NOBODY                 # ms of the encoder's last touch, NOBODY: none yet
        self.fixing = False                   # the last copy was taken for this run of encoder clicks
        self.flip_at = NOBODY                 # ms of the flip shown on the ring, NOBODY: none
        self.refused_at = NOBODY              # ms of the last refused press (the ring flashes it)
        self.actor = 0                        # who took the last action
        self.new_game(app.hw.clock.ticks_ms(), NOBODY)

    def handlers(self):
        """The requests this game answers itself (before link/commands.py's)."""
        return HANDLERS

    def acting(self):
        """A request that changes something comes: no menu of its own to close."""
        return self

    # ------------------------------------------------------------ the rules

    def new_game(self, now, holder):
        """A new game (W2, W8): the initiative flipped by the device (W6, WA6),
        or given (0, 1: the first game's A, W3; the draft's second picker, W26)."""
        if holder == NOBODY:
            holder = self.app.free_rng.below(PLAYERS)
            self.flipped = holder
            self.flip_at = now
        else:
            self.flipped = NOBODY
            self.flip_at = NOBODY
        self.round = 1
        for p in range(PLAYERS):
            self.hand[p] = HAND
            self.markers[p] = START_MARKERS
        self.holder = holder
        self.turn = holder                    # W11: the holder acts first
        self.moved = 0
        self.acted = 0
        self.winner = NOBODY
        self.touched = NOBODY

    def playing(self):
        if self.winner != NOBODY:
            bad("W7", "the game is over: player %d placed his last control marker (a new game: hold the "
                      "encoder)" % (self.winner + 1))

    def action(self):
        """W11: the player whose action it is used a coin.  True if that ended the round."""
        self.playing()
        p = self.turn
        self.actor = p
        self.hand[p] -= 1                     # he has one: whose action it is always has (_next)
        self.acted = 1
        return self._next(p)

    def claim(self):
        """W16: the player whose action it is takes the initiative marker, his
        action, paid with a coin (W12).  True if that ended the round."""
        self.playing()
        p = self.turn
        if self.holder == p:
            bad("W16", "player %d holds the initiative marker already" % (p + 1))
        if self.moved:                         # two players: p held it earlier this round
            bad("W16", "player %d held the initiative marker earlier this round: it changes hands at most "
                       "once a round" % (p + 1))
        self.holder = p
        self.moved = 1
        return self.action()

    def _next(self, p):
        """W10, W11: after player p the other acts if he has a coin, else p
        goes on if he has; both hands empty: the next round.  True if so."""
        o = 1 - p
        if self.hand[o]:
            self.turn = o
        elif self.hand[p]:
            self.turn = p
        else:
            self._new_round()
            return True
        return False

    def _new_round(self):
        if self.round < MAX_ROUND:
            self.round += 1
        for p in range(PLAYERS):
            self.hand[p] = HAND               # W8 (fewer, W10: the players fix it)
        self.moved = 0
        self.acted = 0
        self.turn = self.holder               # W16: the holder acts first in the new round

    def _settle(self):
        """After a fix: whose action it is as W10 and W11 give it (before the
        round's first action, the holder's).  True if both hands are empty:
        the round is over and the next has begun."""
        t = self.turn if self.acted else self.holder
        if self.hand[t]:
            self.turn = t
            return False
        return self._next(t)

    def fix(self, kind, p, value):
        """Set a count (the encoder, the `set` request): C_MARKERS, C_HAND of
        player p, or C_HOLDER (p the new holder; value unused).  Returns True
        if the round ended.  ValueError, nothing changed, out of range."""
        if kind == C_MARKERS:
            if not 0 <= value <= ALL_MARKERS:
                raise ValueError("markers are 0..%d" % ALL_MARKERS)
            self.markers[p] = value                    # W20: placed (-1), one given back (+1)
            o = 1 - p
            if value == 0 and self.winner == NOBODY:
                self.winner = p                         # W7: his last marker: he wins at once
            elif value and self.winner == p:
                self.winner = o if self.markers[o] == 0 else NOBODY
            return False
        if kind == C_HAND:
            if not 0 <= value <= HAND:
                raise ValueError("a hand holds 0..%d coins" % HAND)
            self.hand[p] = value                       # W10: fewer drawn
        else:
            self.holder = p
        return self._settle()

    def cursor(self, now):
        """(what the encoder fixes, whose): chosen with its button within
        FIX_MS, else the markers of the player whose action it is."""
        if self.touched != NOBODY and elapsed(now, self.touched) < FIX_MS:
            return self.cur, self.cur_p
        return C_MARKERS, self.turn

    def showing_cursor(self, now):
        """Whether the ring shows the cursor: the encoder touched within FIX_MS."""
        return self.touched != NOBODY and elapsed(now, self.touched) < FIX_MS

    def cursor_name(self, now):
        k, p = self.cursor(now)
        return CURSOR_NAMES[k] if k == C_HOLDER else "%s %d" % (CURSOR_NAMES[k], p + 1)

    # ------------------------------------------------------------ undo

    def save(self):
        """Keep a copy of the counts (undo), the oldest of HIST dropped."""
        h = self.hist
        b = self.top * NF
        h[b] = self.round
        h[b + 1] = self.hand[0]
        h[b + 2] = self.hand[1]
        h[b + 3] = self.markers[0]
        h[b + 4] = self.markers[1]
        h[b + 5] = self.holder
        h[b + 6] = self.moved
        h[b + 7] = self.turn
        h[b + 8] = self.acted
        h[b + 9] = self.winner + 1
        h[b + 10] = self.flipped + 1
        self.top = (self.top + 1) % HIST
        if self.saved < HIST:
            self.saved += 1

    def undo(self):
        if not self.saved:
            raise CommandError("nothing to undo")
        self.top = (self.top - 1) % HIST
        self.saved -= 1
        h = self.hist
        b = self.top * NF
        self.round = h[b]
        self.hand[0] = h[b + 1]
        self.hand[1] = h[b + 2]
        self.markers[0] = h[b + 3]
        self.markers[1] = h[b + 4]
        self.holder = h[b + 5]
        self.moved = h[b + 6]
        self.turn = h[b + 7]
        self.acted = h[b + 8]
        self.winner = h[b + 9] - 1
        self.flipped = h[b + 10] - 1
        self.flip_at = NOBODY

    # ---------------------------------------------------------- the inputs

    def handle(self, ev, now):
        app = self.app
        what, value = ev
        if what == "long" and value == "back" and app.hw.inputs.held("action"):
            app.pick_game(None, now)   # ACTION and BACK held together: the game menu
            return
        if what == "long" and value == "action":
            return                     # the first half of that combination
        self.flip_at = NOBODY          # any input ends the flip's show
        try:
            if what == "turn":
                self._turn(value, now)
            elif what == "press" and value == "encoder":
                self._next_cursor(now)
            elif what == "press":
                self.fixing = False
                self.save()
                try:
                    ended = self.action() if value == "action" else self.claim()
                except RuleError:
                    self.undo()        # the copy just taken: nothing changed
                    raise
                self.touched = NOBODY
                self.changed("action" if value == "action" else "claim", "buttons", ended)
            elif value == "back":
                self.fixing = False
                self.undo()
                self.changed("undo", "buttons", False)
            elif value == "encoder":
                self.fixing = False
                self.save()
                self.new_game(now, NOBODY)
                self.changed("new", "buttons", False)
        except (RuleError, CommandError) as exc:
            self.refused(now, exc, "buttons")

    def _turn(self, d, now):
        """A click fixes the count under the cursor by d, within its range:
        a run of clicks is one change for undo."""
        kind, p = self.cursor(now)
        if kind == C_HOLDER:
            value = 0
            p = 1 - self.holder
        else:
            value = (self.markers[p] if kind == C_MARKERS else self.hand[p]) + d
            top = ALL_MARKERS if kind == C_MARKERS else HAND
            if value < 0 or value > top:
                self.touched = now
                return                  # the end of its range: nothing changes
        if not (self.fixing and self.showing_cursor(now)):
            self.save()
        self.fixing = True
        self.cur = kind
        self.cur_p = p if kind != C_HOLDER else 0
        self.touched = now
        ended = self.fix(kind, p, value)
        self.changed("set", "buttons", ended)

    def _next_cursor(self, now):
        """The encoder's button: the next count to fix, in the order the
        player whose action it is (t) meets them: t's markers, the other's,
        t's hand, the other's, the initiative holder."""
        kind, p = self.cursor(now)
        t = self.turn
        k = 4 if kind == C_HOLDER else 2 * kind + (0 if p == t else 1)
        k = (k + 1) % 5
        self.cur = C_HOLDER if k == 4 else k // 2
        self.cur_p = t if k % 2 == 0 else 1 - t
        self.touched = now
        self.fixing = False

    def refused(self, now, exc, source):
        """A press or request the rules (or undo) refuse: nothing changed;
        the ring flashes it and the host is told why."""
        self.refused_at = now
        out = {"ev": "refused", "game": "warchest", "source": source,
               "error": exc.message if isinstance(exc, RuleError) else str(exc)}
        if isinstance(exc, RuleError):
            out["rule"] = exc.rule
        self.app.push(out)

    def changed(self, what, source, ended):
        self.refused_at = NOBODY
        ev = {"ev": "warchest", "what": what, "source": source, "warchest": self.state()}
        if what == "action" or what == "claim":
            ev["player"] = self.actor + 1
        if ended:
            ev["round_ended"] = self.round - 1
        self.app.push(ev)

    def draw(self, now, r):
        wc_view.draw(self, self.app.layout, now, r)

    # --------------------------------------------------------- the protocol

    def state(self):
        now = self.app.hw.clock.ticks_ms()
        over = self.winner != NOBODY
        return {"players": PLAYERS, "round": self.round, "hand": list(self.hand), "markers": list(self.markers),
                "hand_size": HAND, "markers_all": ALL_MARKERS, "markers_start": START_MARKERS,
                "initiative": self.holder + 1, "moved": self.moved == 1,
                "turn": None if over else self.turn + 1, "winner": self.winner + 1 if over else None,
                "flipped": self.flipped + 1 if self.flipped != NOBODY else None,
                "cursor": self.cursor_name(now), "undo": self.saved}


def _player(req, key):
    x = req.get(key)
    if not isinstance(x, int) or isinstance(x, bool) or x not in (1, 2):
        raise CommandError("%s must be 1 or 2 (got %r)" % (key, x))
    return x - 1


def _count(req, key, top):
    x = req[key]
    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= top:
        raise CommandError("%s must be 0..%d (got %r)" % (key, top, x))
    return x


DOS = ("action", "claim", "set", "undo", "new")
TAKES = {"action": (), "claim": (), "undo": (), "new": ("holder",), "set": ("player", "markers", "hand", "holder")}


def _checked(req):
    """The request's `do` and its fields, checked: CommandError, one line, if wrong."""
    do = req.get("do")
    if do is None:
        return None
    if do not in DOS:
        raise CommandError("do must be one of %s (got %r)" % (", ".join(DOS), do))
    for k in req:
        if k not in ("cmd", "id", "do") and k not in TAKES[do]:
            raise CommandError("%s takes %s; not %r" % (do, ", ".join(TAKES[do]) or "nothing more", k))
    if do == "set":
        counts = [k for k in ("markers", "hand") if k in req]
        if ("holder" in req) == bool(counts) or bool(counts) != ("player" in req):
            raise CommandError("set takes a player with his markers and/or hand, or the holder alone")
    return do


def _fixes(req):
    """A `set` request's fixes, checked before anything changes: [(kind, player, value)].
    {"do": "set", "player": 1, "markers": 3, "hand": 2} or {"do": "set", "holder": 2}."""
    if "holder" in req:
        return [(C_HOLDER, _player(req, "holder"), 0)]
    p = _player(req, "player")
    out = []
    if "markers" in req:
        out.append((C_MARKERS, p, _count(req, "markers", ALL_MARKERS)))
    if "hand" in req:
        out.append((C_HAND, p, _count(req, "hand", HAND)))
    return out


def cmd_warchest(app, req):
    """{"cmd": "warchest"}: the tracker's counts; with "do": action, claim,
    set, undo or new, as the buttons (and the same `warchest` event)."""
    wc = app.mode
    do = _checked(req)
    if do is None:
        return {"warchest": wc.state()}
    if do == "undo":
        wc.undo()
        wc.changed("undo", "host", False)
        return {"warchest": wc.state()}
    holder = _player(req, "holder") if do == "new" and "holder" in req else NOBODY
    fixes = _fixes(req) if do == "set" else ()
    now = app.hw.clock.ticks_ms()
    wc.fixing = False
    wc.save()
    ended = False
    try:
        if do == "new":
            wc.new_game(now, holder)
        elif do == "set":
            for kind, p, value in fixes:
                ended = wc.fix(kind, p, value) or ended
        else:
            ended = wc.action() if do == "action" else wc.claim()
    except RuleError:
        wc.undo()                      # the copy just taken: nothing changed
        raise
    wc.touched = NOBODY
    wc.changed(do, "host", ended)
    return {"warchest": wc.state()}


def cmd_state(app, req):
    wc = app.mode if isinstance(app.mode, WarChest) else app.mode.inner   # the game menu stands in front
    siege = app.siege                  # the home game's record, as in hello
    return {"game": "warchest", "warchest": wc.state(), "seq": len(siege.game.log),
            "journal": siege.journal_status()}


def cmd_siege_only(app, req):
    raise CommandError("%s is Siege's: the device runs War Chest now; "
                       "{\"cmd\": \"game\", \"game\": \"siege\"} goes back to the game in progress" % req["cmd"])


HANDLERS = {"warchest": cmd_warchest, "state": cmd_state, "act": cmd_siege_only, "new": cmd_siege_only,
            "undo": cmd_siege_only, "log": cmd_siege_only}
