# What the table may see (the public view, W24) and what the owner sees (the
# owner view), as plain data for a screen: spec (a), "Two views".
#
# public(g, p): anyone's: supply, face-up discard, board, box, the sizes of
#   bag, hand and face-down discard (WA5), the multiset U = bag + hand + face
#   down, the coins before the next refill and the rounds until it, and the
#   estimated odds of his hand (marked an estimate).
# owner(g, p, rounds): a player whose coins are entered: his bag, hand and
#   face-down discard exactly, the exact odds of his next hand and within
#   `rounds` rounds (his hand counted in the discard it goes to).

from shared_rules.warchest import odds
from shared_rules.warchest.zones import merged


def public(g, p):
    c = g.coins[p]
    b, h, d = c.sizes()
    cyc = c.cycle()
    return {"player": p, "types": list(c.types), "supply": dict(c.supply), "up": dict(c.up),
            "board": c.board(), "units": dict((t, list(c.units[t])) for t in c.units), "box": dict(c.box),
            "bag": b, "hand": h, "down": d, "cycle": cyc, "to_refill": b,
            "rounds_to_refill": odds.rounds_to_refill(b),
            "estimate": odds.estimate(cyc, b, c.up), "holds": odds.holds(cyc, h),
            "initiative": 1 if g.holder == p else 0, "markers": list(g.markers[g.side(p)])}


def owner(g, p, rounds=2):
    c = g.coins[p]
    if not c.known:
        raise ValueError("player %d's coins are not entered" % (p + 1))
    disc = merged(merged(c.up, c.down), c.hand)
    return {"player": p, "bag": dict(c.bag), "hand": dict(c.hand), "down": dict(c.down),
            "next_hand": odds.next_hand(c.bag, disc), "rounds": rounds,
            "within": odds.within_rounds(c.bag, disc, rounds)}
