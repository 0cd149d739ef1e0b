"""The starting hand (V9) and the redeal (V10), counted exactly.

A deck of N cards holds R resource cards; the starting hand is its top 7.
Every count here is a number of 7-card hands out of C(N, 7): the host divides
(fractions.Fraction), the core stays in integers.
"""

from shared_rules.combin import binomial
from shared_rules.errors import bad

HAND = 7                    # V9: the starting hand
REDEAL = (0, 1, HAND)       # V10: resources in a hand that allow a redeal (fewer than 2, or only resources)


def check_deck(deck, resources):
    """Refuse a deck the starting hand cannot be dealt from (V9) or a resource count it cannot hold (VA3)."""
    if not isinstance(deck, int) or isinstance(deck, bool) or deck < HAND:
        bad("V9", "the deck must hold at least %d cards for the starting hand (got %s)" % (HAND, deck))
    if not isinstance(resources, int) or isinstance(resources, bool) or not 0 <= resources <= deck:
        bad("VA3", "the resource cards must number 0 to the deck's %d (got %s)" % (deck, resources))


def hand_counts(deck, resources):
    """V9: ([ways to deal a hand with exactly k resources, k = 0..7], C(deck, 7)).
    ways[k] = C(R, k) * C(N - R, 7 - k); they sum to C(N, 7)."""
    check_deck(deck, resources)
    ways = [binomial(resources, k) * binomial(deck - resources, HAND - k) for k in range(HAND + 1)]
    return ways, binomial(deck, HAND)


def redeal_ways(ways):
    """V10: the hands that allow a redeal (0, 1 or 7 resources)."""
    return sum(ways[k] for k in REDEAL)


def at_least_ways(ways, r):
    """The hands with at least r resources (r = 0..7)."""
    if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r <= HAND:
        bad("V9", "a hand of %d holds 0 to %d resources: --at-least must be 0..%d (got %s)" % (HAND, HAND, HAND, r))
    return sum(ways[r:])


def keep_within_two(redeal, total):
    """(num, den) of a keepable hand (2-6 resources) within two deals, redealing
    whenever V10 allows: 1 - p^2 with p = redeal / total (the deals are independent:
    the old hand goes back and the deck is shuffled, VA2)."""
    return total * total - redeal * redeal, total * total
