"""The line-of-battle game in words: formations by their English id and the
rulebook's Russian name, keys, completions, sides and chances, as `osada line`
prints them.  Rule ids: docs/rules-line.md."""

from shared_rules.line.cards import name, names
from shared_rules.line.formation import TYPES

RUSSIAN = {"wedge": "Клин", "square": "Каре", "column": "Колонна", "phalanx": "Фаланга",
           "skirmish": "Рассыпной строй"}
PLURAL = {"wedge": "wedges", "square": "squares", "column": "columns", "phalanx": "phalanxes",
          "skirmish": "skirmishes"}
SIDE_NAMES = {"south": "South", "north": "North"}


def side(s):
    """'South'."""
    return SIDE_NAMES.get(s, str(s))


def type_name(t):
    """'wedge «Клин»'."""
    return "%s «%s»" % (t, RUSSIAN[t]) if t in RUSSIAN else t


def key_text(key):
    """'(5, 12)'."""
    return "(%d, %d)" % tuple(key)


def formation(f):
    """'wedge «Клин» (5, 12)', or 'incomplete 2/3'."""
    if not f.complete:
        return "incomplete %s" % f.progress()
    return "%s %s" % (type_name(f.type), key_text(f.key))


def key_formation(key):
    """'wedge «Клин» (5, 18)' from a key alone."""
    return "%s %s" % (type_name(TYPES[key[0] - 1]), key_text(key))


def cards_of(f):
    """'R3 R4 R5', or 'no card'."""
    return names(f.cards) if f.cards else "no card"


def completion(theirs, added):
    """'P6 P7 +P5': his cards, then the ones the completion adds."""
    return " ".join([name(c) for c in theirs] + ["+" + name(c) for c in added])


def fields_text(fields):
    """'fields 1 2 3'."""
    return ("field " if len(fields) == 1 else "fields ") + " ".join("%d" % f for f in fields)


def percent(p):
    """A Fraction as a percentage with one decimal, rounded half up: '58.3%'."""
    tenths = (p.numerator * 1000 + p.denominator // 2) // p.denominator
    return "%d.%d%%" % (tenths // 10, tenths % 10)


def chance(p):
    """'7/12 (58.3%)': the exact fraction in lowest terms beside its percentage."""
    return "%s (%s)" % (fraction(p), percent(p))


def fraction(p):
    """'7/12'; a whole number as '0/1' or '1/1', still a fraction for tools."""
    return "%d/%d" % (p.numerator, p.denominator)


def count(n, one, many):
    """'1 completion', '33 completions'."""
    return "%d %s" % (n, one if n == 1 else many)
