"""The formation evaluator (L8-L12): what the cards on one side of one field
make, and which of two sides takes the field.

A complete formation holds `size` cards (3; 4 where a field's card says so,
L12, LA2) and takes the highest type it meets (L9), strongest first:

    rank 5  wedge     one colour, values in sequence
    rank 4  square    one value
    rank 3  column    one colour
    rank 2  phalanx   values in sequence
    rank 1  skirmish  anything else

"In sequence" is consecutive values, all different, max - min = size - 1, in any
order (L8), with no wrap from the top value to the bottom one (LA3).  Its key is
(rank, sum of values), compared type first (L10); equal keys go to the side
that completed first (L11).  A side with fewer cards is `incomplete k/size`.
"""

from shared_rules.errors import RuleError
from shared_rules.line.cards import check_distinct

TYPES = ("skirmish", "phalanx", "column", "square", "wedge")      # TYPES[rank - 1] (L9)
INCOMPLETE = "incomplete"
SIZES = (3, 4)
RANK = {t: i + 1 for i, t in enumerate(TYPES)}


def check_size(size):
    if size not in SIZES:
        raise RuleError("L12", "a formation holds 3 cards, or 4 where a field's card says so, not %r" % (size,))
    return size


def in_sequence(values):
    """Consecutive values, all different (L9, LA3: no wrap)."""
    s = sorted(values)
    return all(s[i + 1] == s[i] + 1 for i in range(len(s) - 1))


def classify(cards):
    """(rank, sum) of a complete formation (L9, L10); no checks (the prover's fast path)."""
    values = [v for _, v in cards]
    total = sum(values)
    colour = cards[0][0]
    one_colour = all(c == colour for c, _ in cards)
    run = in_sequence(values)
    if one_colour and run:
        return 5, total
    if min(values) == max(values):
        return 4, total
    if one_colour:
        return 3, total
    if run:
        return 2, total
    return 1, total


class Formation:
    """One side of one field: its cards, size, and (when complete) type and key."""

    def __init__(self, cards, size=3):
        self.cards = list(cards)
        self.size = size
        self.complete = len(self.cards) == size
        if self.complete:
            self.rank, self.total = classify(self.cards)
            self.type = TYPES[self.rank - 1]
            self.key = (self.rank, self.total)
        else:
            self.rank, self.total, self.type, self.key = 0, sum(v for _, v in self.cards), INCOMPLETE, None

    def progress(self):
        """'2/3'."""
        return "%d/%d" % (len(self.cards), self.size)

    def as_dict(self):
        out = {"formation": self.type, "key": list(self.key) if self.key else None, "size": self.size,
               "cards": ["%s%d" % c for c in self.cards]}
        if not self.complete:
            out["progress"] = self.progress()
        return out


def evaluate(cards, size=3, where=""):
    """The Formation of `cards` on a side of size `size`: refused if a card is
    given twice (L1) or there are more than `size` (L8, L12)."""
    check_size(size)
    cards = list(cards)
    check_distinct(cards, where)
    if len(cards) > size:
        raise RuleError("L8", "%d cards%s, but a side holds at most %d" % (len(cards), where, size))
    return Formation(cards, size)


def winner(a, b, first=None):
    """Which of two complete sides takes the field: 'a', 'b', or None when their
    keys are equal and `first` ('a' or 'b', the side that completed first) is
    not known (L10, L11).  An incomplete side: ValueError (the prover decides
    those, L17)."""
    if not (a.complete and b.complete):
        raise ValueError("winner() compares two complete formations")
    if a.key != b.key:
        return "a" if a.key > b.key else "b"
    return first
