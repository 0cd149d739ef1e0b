"""Unit cards and the deck they come from (L1).

A card is a colour letter and a value, written `R10`; inside the code it is the
pair ("R", 10).  The rulebook gives neither the colours nor the values (L1,
LA1), so the deck is a parameter: colour letters x values, one card per pair.
The default is the spec's assumption, 6 colours R B G Y P O x values 1-10 = 60
cards.  Card order ("deck order": colour as given, then value) is only for
printing in a stable way: a formation's order does not matter (L8).
"""

from shared_rules.errors import RuleError

DEFAULT_COLOURS = "RBGYPO"
DEFAULT_VALUES = "1-10"
MAX_VALUE = 999
# The tool's limits, not the rulebook's (it gives no deck): the prover builds
# every strong completion of an empty side of 4, some 10^4 per run of values at
# 8 colours, and stays well under a second up to here.
MAX_COLOURS = 8
MAX_VALUES = 20


def _bad(message, rule="format"):
    raise RuleError(rule, message)


def parse_colours(text):
    """'RBGYPO' -> ('R', 'B', 'G', 'Y', 'P', 'O'): distinct letters A-Z, at least one."""
    letters = str(text).strip().upper()
    if not letters or not all("A" <= c <= "Z" for c in letters):
        _bad("colours must be letters A-Z, one per colour (e.g. RBGYPO), not %r" % (text,))
    for c in letters:
        if letters.count(c) > 1:
            _bad("colour %s is given twice in %r: each colour once" % (c, text), "L1")
    return tuple(letters)


def _whole(part, text):
    part = part.strip()
    if not part.isdigit():
        _bad("values must be whole numbers or ranges like 1-10, not %r in %r" % (part, text))
    v = int(part)
    if v > MAX_VALUE:
        _bad("values go up to %d, not %d" % (MAX_VALUE, v))
    return v


def parse_values(text):
    """'1-10' -> (1, ..., 10); also '1,2,5-9'.  Sorted, each once, at least one."""
    out = []
    for part in str(text).split(","):
        if "-" in part.strip()[1:]:
            lo_text, hi_text = part.strip().split("-", 1) if not part.strip().startswith("-") else ("", "")
            lo, hi = _whole(lo_text, text), _whole(hi_text, text)
            if hi < lo:
                _bad("the range %s runs backwards: write it low-high" % part.strip())
            out.extend(range(lo, hi + 1))
        else:
            out.append(_whole(part, text))
    for v in out:
        if out.count(v) > 1:
            _bad("value %d is given twice in %r: each value once" % (v, text), "L1")
    return tuple(sorted(out))


def values_text(values):
    """(1, ..., 10) -> '1-10'; (1, 2, 5, 6, 7) -> '1-2,5-7'."""
    parts = []
    start = prev = values[0]
    for v in list(values[1:]) + [None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append("%d" % start if start == prev else "%d-%d" % (start, prev))
        if v is not None:
            start = prev = v
    return ",".join(parts)


def name(card):
    """('R', 10) -> 'R10'."""
    return "%s%d" % card


def names(cards):
    """'R3 R4 R5' (the cards as given), '-' for none."""
    return " ".join(name(c) for c in cards) or "-"


class Deck:
    """The unit deck: every (colour, value) pair once (L1)."""

    def __init__(self, colours=DEFAULT_COLOURS, values=DEFAULT_VALUES):
        self.colours = parse_colours(colours) if isinstance(colours, str) else tuple(colours)
        self.values = parse_values(values) if isinstance(values, str) else tuple(values)
        if len(self.colours) > MAX_COLOURS or len(self.values) > MAX_VALUES:
            _bad("a deck of %d colours x %d values is more than this tool handles (at most %d x %d)" % (
                len(self.colours), len(self.values), MAX_COLOURS, MAX_VALUES))
        self.cards = [(c, v) for c in self.colours for v in self.values]
        self.index = {card: i for i, card in enumerate(self.cards)}

    def __len__(self):
        return len(self.cards)

    def describe(self):
        """'6 colours R B G Y P O x values 1-10 = 60 cards'."""
        return "%d colours %s x values %s = %d cards" % (
            len(self.colours), " ".join(self.colours), values_text(self.values), len(self.cards))

    def as_dict(self):
        return {"colours": "".join(self.colours), "values": values_text(self.values)}

    def card(self, text):
        """'R10' (or 'r10') -> ('R', 10), refused unless it is a card of this deck (L1)."""
        t = str(text).strip()
        colour, digits = t[:1].upper(), t[1:]
        if not colour or not ("A" <= colour <= "Z") or not digits.isdigit():
            _bad("%r is not a card: write a colour letter and a value, e.g. R10" % (text,))
        card = (colour, int(digits))
        if card not in self.index:
            if colour not in self.colours:
                _bad("%s is not in the deck: its colours are %s" % (t.upper(), " ".join(self.colours)), "L1")
            _bad("%s is not in the deck: its values are %s" % (t.upper(), values_text(self.values)), "L1")
        return card

    def parse(self, texts):
        """Card names -> cards, each checked (one name may hold several: 'R3,R4 R5')."""
        out = []
        for text in texts:
            for part in str(text).replace(",", " ").split():
                out.append(self.card(part))
        return out

    def sort(self, cards):
        """The cards in deck order (for printing)."""
        return sorted(cards, key=self.index.__getitem__)


def check_distinct(cards, where=""):
    """Refuse a card given twice: the deck holds each pair once (L1)."""
    seen = set()
    for c in cards:
        if c in seen:
            _bad("%s is given twice%s: the deck holds each card once" % (name(c), where), "L1")
        seen.add(c)
