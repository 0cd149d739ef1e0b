"""The deck clock (V12, V39): how many turns a deck lasts.

At the start of his turn a player draws 2 (the first player only 1 in his first
turn, V12); one who cannot (0 or 1 card left) loses (V39); one who draws his
last 2 plays that turn out.  The opponent's attacks and strikes mill cards
(V30, V36): a Schedule says how many in each of the milling player's turns, and
the decks are simulated turn by turn.  With a constant mill x from the start,
the own turns left are 0 if d < 2, else (d - 2) // (2 + x) + 1 (turns_left).
"""

from shared_rules.errors import bad
from shared_rules.victory.deal import HAND

DRAW = 2            # V12: cards drawn at the start of a turn
FIRST_DRAW = 1      # V12: the first player's first turn
MAX_DECK = 10000    # decks this tool simulates turn by turn (no rule limits a deck, VA3; no table holds more)


def count(v, what, lo=0):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        bad("V39", "%s must be a whole number >= %d (got %r)" % (what, lo, v))
    return v


def deck_size(v, what):
    count(v, what)
    if v > MAX_DECK:
        bad("V39", "%s of %d cards: this tool simulates decks of up to %d" % (what, v, MAX_DECK))
    return v


class Schedule:
    """Cards milled in each turn of the milling player, his turns numbered 1, 2, ...:
    `each` from his turn `start` on, or the list `listed` (turn 1, 2, ...; none after it)."""

    def __init__(self, each=0, start=1, listed=None):
        self.each = count(each, "the cards milled a turn")
        self.start = count(start, "the first milling turn", 1)
        self.listed = None if listed is None else [count(v, "the cards milled a turn") for v in listed]

    def at(self, turn):
        if self.listed is not None:
            return self.listed[turn - 1] if turn <= len(self.listed) else 0
        return self.each if turn >= self.start else 0

    def constant(self):
        """The x of the closed formula if this schedule is one, else None."""
        return self.each if self.listed is None and self.start == 1 else None


NO_MILL = Schedule()


def turns_left(deck, milled):
    """V39 with x cards milled in every opponent turn: the own turns a deck of d
    (at the start of the turn, before drawing) still plays; he loses at the start of the next."""
    count(deck, "the deck")
    count(milled, "the cards milled a turn")
    return 0 if deck < DRAW else (deck - DRAW) // (DRAW + milled) + 1


def alone(deck, milled=NO_MILL):
    """One player's deck turn by turn: (rows, the turn he loses at).  rows:
    (his turn, deck at its start, deck after drawing 2, milled in the opponent's
    turn that follows, deck after it); the opponent's turns are numbered as his."""
    deck = deck_size(deck, "the deck")
    rows, turn = [], 1
    while deck >= DRAW:
        drawn = deck - DRAW
        m = min(drawn, milled.at(turn))
        rows.append((turn, deck, drawn, m, drawn - m))
        deck, turn = drawn - m, turn + 1
    return rows, turn


class Duel:
    """Two decks turn by turn.  decks: (the player to move, the other); mills:
    (what the player to move mills in each of his turns, what the other mills in his).
    new_game: the decks are full (N each, both equal, V2): the starting hands of 7
    are dealt first (V9) and the player to move is the first player (one card in his
    first turn, V12).  rows: (game turn, player 0/1, his turn, deck at the start,
    cards drawn, cards he mills, the other's deck after that); lost[p]: (his turn,
    game turn, deck) when p cannot draw; both are played on until both are out."""

    def __init__(self, decks, mills=(NO_MILL, NO_MILL), new_game=False):
        decks = [deck_size(d, "a deck") for d in decks]
        if new_game:
            if decks[0] != decks[1]:
                bad("V2", "both decks hold the same number of cards (%d and %d)" % tuple(decks))
            if decks[0] < HAND:
                bad("V9", "a deck must hold at least %d cards for the starting hand (got %d)" % (HAND, decks[0]))
            decks = [d - HAND for d in decks]
        self.start = list(decks)
        self.rows, self.lost = [], [None, None]
        game = 0
        while None in self.lost:
            game += 1
            p = (game - 1) % 2
            turn = (game + 1) // 2
            if self.lost[p] is not None:
                continue
            need = FIRST_DRAW if new_game and game == 1 else DRAW
            if decks[p] < need:
                self.lost[p] = (turn, game, decks[p])
                continue
            before = decks[p]
            decks[p] -= need
            m = 0
            if self.lost[1 - p] is None:
                m = min(decks[1 - p], mills[p].at(turn))
                decks[1 - p] -= m
            self.rows.append((game, p, turn, before, need, m, decks[1 - p]))

    def loser(self):
        """The player who cannot draw first (0 the player to move, 1 the other)."""
        return 0 if self.lost[0][1] < self.lost[1][1] else 1
