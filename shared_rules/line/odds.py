"""Exact draw odds (the spec's "Draw odds"; L2, L5), as fractions.Fraction.

P(at least one of g good cards within my next k draws) = 1 - C(M-g, k)/C(M, k)
over the M `unknown` cards (the deck and his hand: unseen less my hand).  The
model takes his hand for a random part of the unknown cards, so that my next
k unit draws are a uniform k-subset of them whatever he draws in between; he
chose what to keep, so while he holds cards it is an approximation (said in
every output).  k is capped at the draws I can still make, ceil(D/2) for a
deck of D when both always draw a unit card and I draw next (L5: one draw a
turn, in turn).

A good card is one that, played on a side one card short, makes a formation of
at least the target type (the target `wedge` is a wedge; `column` a column or
better; `skirmish` any card), or one of a named set.
"""

from fractions import Fraction  # pyright: ignore[reportMissingImports]  -- host-only (deploy leaves line/ off the board)

from shared_rules.combin import binomial
from shared_rules.errors import RuleError
from shared_rules.line.cards import name
from shared_rules.line.formation import RANK, TYPES, classify


def at_least_one(good, unknown, draws):
    """1 - C(M-g, k)/C(M, k) for g good cards among M unknown, k draws (a Fraction)."""
    if not 0 <= good <= unknown:
        raise RuleError("format", "the good cards (%d) must be between 0 and the unknown cards (%d)" % (good, unknown))
    if not 1 <= draws <= unknown:
        raise RuleError("format", "draws must be from 1 to the %d unknown cards, not %d" % (unknown, draws))
    return 1 - Fraction(binomial(unknown - good, draws), binomial(unknown, draws))


def draws_left(draw_pile):
    """The draws I can still make from a deck of D, I drawing next (L5): ceil(D/2)."""
    return (draw_pile + 1) // 2


def check_draws(draws, draw_pile):
    """Refuse more draws than the deck leaves me (L5)."""
    if draw_pile is not None and draws > draws_left(draw_pile):
        raise RuleError("L5", "you can draw at most %d more cards: the deck holds %d and the draws alternate" % (
            draws_left(draw_pile), draw_pile))


def completing(side, unknown, size, target):
    """The unknown cards that, added to `side` (one card short of `size`), make
    a formation of at least `target` (a type of formation.TYPES)."""
    if target not in RANK:
        raise RuleError("format", "the target is one of %s, not %r" % (", ".join(reversed(TYPES)), target))
    if len(side) != size - 1:
        raise RuleError("format", "the side holds %d of %d cards: the odds are for its last card (it needs %d)"
                        % (len(side), size, size - len(side)))
    want = RANK[target]
    return [c for c in unknown if classify(list(side) + [c])[0] >= want]


def named(cards, unknown, where):
    """The named cards, each refused unless it is unknown (`where(card)` says where it is instead)."""
    pool = set(unknown)
    for c in cards:
        if c not in pool:
            raise RuleError("format", "%s cannot be drawn: it is %s" % (name(c), where(c) or "not unknown"))
    return list(cards)


def first_draw_tie(deck):
    """L2 (LA5): the chance that the two cards drawn for the first player share a
    value: the other colours of the first card's value among the other cards."""
    if len(deck) < 2:
        raise RuleError("L2", "the first-player draw takes two cards, but the deck holds %d" % len(deck))
    return Fraction(len(deck.colours) - 1, len(deck) - 1)
