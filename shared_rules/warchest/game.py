# A game of «Сундук войны» as the bag tracker follows it: each player's coins
# (zones.Coins), the control markers of the two sides, the initiative marker,
# and the round: draw (W8-W10), then one action each in turn (W11), until
# every hand is empty.  apply() checks an event against W7-W30 (the handlers:
# actions.py) and refuses a wrong one with its rule id, changing nothing.
#
# The state is plain data (dicts, lists, ints, short strings): state() and
# from_state() give a journal or the device what it needs to store.

from shared_rules.errors import RuleError, bad
from shared_rules.warchest import actions
from shared_rules.warchest import events as evs
from shared_rules.warchest.units import MARKERS, ROYAL, check_counts, check_types, side_of
from shared_rules.warchest.zones import Coins, size

PLAYING = -1


class Game:
    """players: 2 or 4; types: each player's unit types (W3, W25); counts:
    the 16 types' coins as printed on the cards (WA1); initiative: the player
    who holds the marker (W3: the first game's A; else flipped, W6); known: the
    players whose draws and face-down coins are entered (the owner view)."""

    def __init__(self, players, types, counts, initiative, known=()):
        types = check_types(players, types)
        counts = check_counts(counts)
        if not isinstance(initiative, int) or isinstance(initiative, bool) or not 0 <= initiative < players:
            bad("W6", "who holds the initiative marker? a player 1..%d (flip it)" % players)
        known = sorted(set(known))
        for p in known:
            if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < players:
                bad("format", "an entered player is 1..%d" % players)
        self.setup = {"players": players, "types": types, "counts": counts, "initiative": initiative,
                      "known": known}
        self.players = players
        self.coins = [Coins(types[p], counts, p in known) for p in range(players)]
        total, start = MARKERS[players]
        self.markers = [[total - start, start], [total - start, start]]     # per side: [to place, on the board]
        self.holder = initiative
        self.moved = 0              # the marker changed hands this round (W16)
        self.round = 1
        self.drawn = [0] * players
        self.first = initiative     # who acts first this round (W11: the holder when the round's use begins)
        self.last = -1              # who took the round's last action (-1: none yet)
        self.must = -1              # a warrior priest's player, to use the coin he drew at once (W30)
        self.must_coin = None       # that coin, when his coins are entered
        self.follow = None          # what may follow the last action without a coin (actions.py)
        self.winner = PLAYING       # the side that placed its last marker (W7)
        self.log = []               # the accepted events

    # ------------------------------------------------------------ the round

    def side(self, p):
        return side_of(self.players, p)

    def hand(self, p):
        return self.coins[p].sizes()[1]

    def all_drawn(self):
        for d in self.drawn:
            if not d:
                return False
        return True

    def round_over(self):
        """Every player drew and every hand is empty: the next event is the next round's draw."""
        if not self.all_drawn() or self.must >= 0:
            return False
        for p in range(self.players):
            if self.hand(p):
                return False
        return True

    def expected(self):
        """The player whose action is next (W11: from the round's first player
        in turn, W25 clockwise; an empty hand is skipped, W10, WA6), -1 if none."""
        if self.must >= 0:
            return self.must
        if not self.all_drawn():
            return -1
        start = self.first if self.last < 0 else self.last + 1
        for i in range(self.players):
            q = (start + i) % self.players
            if self.hand(q):
                return q
        return -1

    def phase(self):
        """"over", "draw" (the round's draw is due, or the next round's), or "use"."""
        if self.winner != PLAYING:
            return "over"
        if not self.all_drawn() or self.round_over():
            return "draw"
        return "use"

    def new_round(self):
        self.round += 1
        self.drawn = [0] * self.players
        self.moved = 0
        self.last = -1
        self.follow = None

    # ------------------------------------------------------------ events

    def apply(self, ev):
        """Check the event (a dict, events.check's shape) and play it; a wrong
        one raises RuleError naming the rule and changes nothing.  Returns it."""
        if self.winner != PLAYING:
            bad("W7", "the game is over: side %d placed its last control marker" % (self.winner + 1))
        ev = evs.check(ev, self.players)
        before = self.state()
        try:
            actions.play(self, ev)
        except RuleError:
            self.load(before)
            raise
        self.log.append(ev)
        return ev

    def apply_text(self, line):
        return self.apply(evs.parse(line, self.players))

    def problems(self):
        """W29: per player and type, supply + bag + hand + face up + face
        down + board + box = the card's count (the royal coin: bag + hand +
        discard = 1), no zone below 0, a hidden player's three sizes adding
        up to U; each side's control markers all there (W2, W25).  [] when
        everything holds."""
        out = []
        counts = self.setup["counts"]
        for p in range(self.players):
            c = self.coins[p]
            cyc = c.cycle()
            board = c.board()
            zones = (c.supply, cyc, c.up, board, c.box)
            for ms in zones:
                for t in ms:
                    if ms[t] < 0 or (t != ROYAL and t not in c.types):
                        out.append("player %d: %d %s coins in a zone" % (p + 1, ms[t], t))
            for t in c.types + [ROYAL]:
                n = 0
                for ms in zones:
                    n += ms.get(t, 0)
                want = 1 if t == ROYAL else counts[t]
                if n != want:
                    out.append("player %d: %d %s coins, not %d" % (p + 1, n, t, want))
            if c.supply.get(ROYAL, 0) or board.get(ROYAL, 0) or c.box.get(ROYAL, 0):
                out.append("player %d: the royal coin left the bag, hand and discard" % (p + 1))
            b, h, d = c.sizes()
            if b < 0 or h < 0 or d < 0 or b + h + d != size(cyc):
                out.append("player %d: bag %d + hand %d + face down %d is not U's %d" % (p + 1, b, h, d, size(cyc)))
        total = MARKERS[self.players][0]
        for s in range(2):
            left, placed = self.markers[s]
            if left < 0 or placed < 0 or left + placed != total:
                out.append("side %d: %d + %d control markers, not %d" % (s + 1, left, placed, total))
        return out

    # ------------------------------------------------------------ state

    def state(self):
        f = self.follow
        if f is not None:
            f = dict(f)
            if f["one"] is not None:
                f["one"] = list(f["one"])
        return {"players": self.players, "coins": [c.state() for c in self.coins],
                "markers": [list(self.markers[0]), list(self.markers[1])], "holder": self.holder,
                "moved": self.moved, "round": self.round, "drawn": list(self.drawn), "first": self.first,
                "last": self.last, "must": self.must, "must_coin": self.must_coin, "follow": f,
                "winner": self.winner}

    def load(self, s):
        self.players = s["players"]
        self.coins = [Coins.from_state(c) for c in s["coins"]]
        self.markers = [list(s["markers"][0]), list(s["markers"][1])]
        self.holder, self.moved, self.round = s["holder"], s["moved"], s["round"]
        self.drawn, self.first, self.last = list(s["drawn"]), s["first"], s["last"]
        self.must, self.must_coin, self.winner = s["must"], s["must_coin"], s["winner"]
        f = s["follow"]
        if f is not None:
            f = dict(f)
            if f["one"] is not None:
                f["one"] = list(f["one"])
        self.follow = f

    @classmethod
    def from_state(cls, setup, s):
        """The game of `setup` in the state `s` (the log is not kept)."""
        g = cls(setup["players"], setup["types"], setup["counts"], setup["initiative"], setup["known"])
        g.load(s)
        return g


def replay(setup, events):
    """The game `setup` (Game's arguments as a dict) after `events` (dicts or
    lines); a wrong event raises RuleError (check_events says which one)."""
    g = Game(setup["players"], setup["types"], setup["counts"], setup["initiative"], setup.get("known", ()))
    for ev in events:
        if isinstance(ev, str):
            g.apply_text(ev)
        else:
            g.apply(ev)
    return g


def check_events(setup, events):
    """(the game after the events that pass, None) or (that game, (index of the
    first wrong event, its RuleError))."""
    g = Game(setup["players"], setup["types"], setup["counts"], setup["initiative"], setup.get("known", ()))
    for i in range(len(events)):
        ev = events[i]
        try:
            if isinstance(ev, str):
                g.apply_text(ev)
            else:
                g.apply(ev)
        except RuleError as exc:
            return g, (i, exc)
    return g, None
