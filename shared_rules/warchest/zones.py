# One player's coins in the zones of W29: supply, bag, hand, discard face up
# (`up`) and face down (`down`), board (units: stacks of coins) and box.
#
# A player is tracked in one of two ways:
#   known   the owner enters his draws and his face-down coins: bag, hand and
#           down are exact multisets (the owner view, exact odds);
#   hidden  public events only: the multiset U = bag + hand + down (`cyc`) and
#           the three sizes, never which coin is where (the public view, W24,
#           WA5).
# Every multiset is a dict {type: count} without zero entries; the royal coin
# is the type "royal".  Plain data, the same on CPython and MicroPython.

from shared_rules.errors import bad
from shared_rules.warchest.units import ROYAL, START_EACH

HAND = 3        # W8: a round's draw


def add(ms, t, n=1):
    c = ms.get(t, 0) + n
    if c:
        ms[t] = c
    elif t in ms:
        del ms[t]


def size(ms):
    s = 0
    for t in ms:
        s += ms[t]
    return s


def merged(a, b):
    out = dict(a)
    for t in b:
        add(out, t, b[t])
    return out


def take(ms, t, where, rule="W29"):
    """One coin of type t out of the multiset `ms` (refused if there is none)."""
    if ms.get(t, 0) < 1:
        bad(rule, "no %s coin in %s" % (t, where))
    add(ms, t, -1)


class Coins:
    """One player's coins.  `types` are his unit types, `counts` their coins in all."""

    def __init__(self, types, counts, known):
        """A player at the start (W4, W5); counts None: empty, for from_state."""
        self.types = list(types)
        self.known = bool(known)
        self.supply = {}
        self.up = {}
        self.box = {}
        self.units = {}             # type -> [stack heights]: a unit per stack (footman: up to 2)
        if counts is None:
            return
        start = {ROYAL: 1}          # W4: the royal coin and 2 of each type
        for t in self.types:
            start[t] = START_EACH
            if counts[t] > START_EACH:
                self.supply[t] = counts[t] - START_EACH      # W5
        if self.known:
            self.bag, self.hand, self.down = start, {}, {}
        else:
            self.cyc, self.nb, self.nh, self.nd = start, START_EACH * len(self.types) + 1, 0, 0

    # ------------------------------------------------------------ what the table knows

    def sizes(self):
        """(bag, hand, face down): the sizes anyone can count (WA5)."""
        if self.known:
            return size(self.bag), size(self.hand), size(self.down)
        return self.nb, self.nh, self.nd

    def cycle(self):
        """U = bag + hand + face down, the multiset public events tell (spec (a))."""
        if self.known:
            return merged(merged(self.bag, self.hand), self.down)
        return dict(self.cyc)

    def board(self):
        """{type: coins on the board}."""
        out = {}
        for t in self.units:
            for h in self.units[t]:
                add(out, t, h)
        return out

    def drawable(self):
        """Coins a draw can still reach: the bag, then the whole discard (W9, W10)."""
        b, _h, d = self.sizes()
        return b + d + size(self.up)

    # ------------------------------------------------------------ the hand

    def play_up(self, t):
        """W12: a coin of type t from the hand, seen by all (to the board or face up)."""
        if self.known:
            take(self.hand, t, "the hand")
            return
        if self.nh < 1:
            bad("W29", "the hand is empty")
        if self.cyc.get(t, 0) < 1:
            bad("W29", "no %s coin can be in the hand: none is in the bag, hand or face-down discard" % t)
        self.nh -= 1
        add(self.cyc, t, -1)

    def play_down(self, coin):
        """W12: a coin from the hand to the discard face down (claim, recruit, pass)."""
        if self.known:
            if coin is None:
                bad("format", "name the coin discarded face down (this player's coins are entered)")
            take(self.hand, coin, "the hand")
            add(self.down, coin)
            return
        if coin is not None:
            bad("format", "this player's face-down coins are hidden: do not name one")
        if self.nh < 1:
            bad("W29", "the hand is empty")
        self.nh -= 1
        self.nd += 1

    # ------------------------------------------------------------ drawing

    def refill(self):
        """W9: the whole discard, face up and face down, goes into the bag."""
        if self.known:
            self.bag = merged(merged(self.bag, self.up), self.down)
            self.down = {}
        else:
            self.cyc = merged(self.cyc, self.up)
            self.nb += self.nd + size(self.up)
            self.nd = 0
        self.up = {}

    def draw(self, m, coins):
        """Draw m coins (W8; fewer if there are not so many, W10), refilling
        the bag whenever it is empty (W9: the coins left are taken first).
        `coins`: the types drawn, for a known player; None for a hidden one.
        Returns the number drawn."""
        avail = self.drawable()
        short = m > avail
        if short:
            m = avail                                   # W10: take what there is
        if self.known:
            self._draw_known(m, coins, short)
            return m
        if coins is not None:
            bad("format", "this player's draws are hidden: do not name the coins")
        first = self.nb if self.nb < m else m
        self.nb -= first
        self.nh += first
        if first < m:
            self.refill()
            self.nb -= m - first
            self.nh += m - first
        return m

    def _draw_known(self, m, coins, short):
        if coins is None or len(coins) != m:
            bad("W10" if short else "W8",
                "draw %d coin%s, naming each (bag %d, discard %d)"
                % (m, "" if m == 1 else "s", size(self.bag), size(self.up) + size(self.down)))
        got = {}
        for t in coins:
            add(got, t)
        if size(self.bag) >= m:
            for t in got:
                if self.bag.get(t, 0) < got[t]:
                    bad("W29", "the bag holds %d %s coin%s, not %d" % (self.bag.get(t, 0), t,
                                                                        "" if self.bag.get(t, 0) == 1 else "s",
                                                                        got[t]))
            for t in got:
                add(self.bag, t, -got[t])
                add(self.hand, t, got[t])
            return
        rest = dict(got)                                # W9: the bag's last coins come first
        for t in self.bag:
            if rest.get(t, 0) < self.bag[t]:
                bad("W9", "the bag's last coins are drawn before the refill: %s" % show(self.bag))
            add(rest, t, -self.bag[t])
        disc = merged(self.up, self.down)
        for t in rest:
            if disc.get(t, 0) < rest[t]:
                bad("W29", "after the bag's last coins the rest comes from the discard, which holds %s"
                    % (show(disc) or "nothing"))
        self.hand = merged(self.hand, self.bag)
        self.bag = {}
        self.refill()
        for t in rest:
            add(self.bag, t, -rest[t])
            add(self.hand, t, rest[t])

    # ------------------------------------------------------------ the board

    def unit_count(self, t):
        return len(self.units.get(t, ()))

    def height(self, t, u):
        stacks = self.units.get(t)
        if not stacks:
            bad("W14", "no %s unit on the board: deploy it first" % t)
        if u < 0 or u >= len(stacks):
            bad("format", "there %s %d %s unit%s, not a unit %d" % ("is" if len(stacks) == 1 else "are",
                                                                   len(stacks), t,
                                                                   "" if len(stacks) == 1 else "s", u + 1))
        return stacks[u]

    def place(self, t, u):
        """A coin onto unit u of type t (u = -1: a new unit)."""
        if u < 0:
            if t not in self.units:
                self.units[t] = []
            self.units[t].append(1)
        else:
            self.units[t][u] += 1

    def lose(self, t, u, where):
        """One coin off unit u of type t, to `where` (the box, W21; face up, WA3).
        A unit whose last coin goes is destroyed."""
        self.height(t, u)
        stacks = self.units[t]
        stacks[u] -= 1
        if not stacks[u]:
            stacks.pop(u)
            if not stacks:
                del self.units[t]
        add(self.box if where == "box" else self.up, t)

    # ------------------------------------------------------------ state

    def state(self):
        s = {"types": list(self.types), "known": 1 if self.known else 0, "supply": dict(self.supply),
             "up": dict(self.up), "box": dict(self.box), "units": {}}
        for t in self.units:
            s["units"][t] = list(self.units[t])
        if self.known:
            s["bag"], s["hand"], s["down"] = dict(self.bag), dict(self.hand), dict(self.down)
        else:
            s["cyc"], s["sizes"] = dict(self.cyc), [self.nb, self.nh, self.nd]
        return s

    @classmethod
    def from_state(cls, s):
        c = cls(s["types"], None, s["known"])
        c.supply, c.up, c.box = dict(s["supply"]), dict(s["up"]), dict(s["box"])
        c.units = {}
        for t in s["units"]:
            c.units[t] = list(s["units"][t])
        if c.known:
            c.bag, c.hand, c.down = dict(s["bag"]), dict(s["hand"]), dict(s["down"])
        else:
            c.cyc = dict(s["cyc"])
            c.nb, c.nh, c.nd = s["sizes"]
        return c


def show(ms):
    """A multiset as text, types sorted: "archer 2, royal 1"."""
    return ", ".join("%s %d" % (t, ms[t]) for t in sorted(ms))
