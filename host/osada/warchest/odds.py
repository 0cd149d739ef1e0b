"""`osada warchest odds`: for every coin type of a bag (and its discard), the
exact chance of at least one in the next hand, and within R rounds, as
`p/q (xx.x%)`; --json prints the fractions alone.  The numbers are
shared_rules.warchest.odds (integers, lowest terms); rule ids:
docs/rules-war-chest.md (W8-W10)."""

import json

from osada.link.device import fail
from shared_rules.warchest import odds
from shared_rules.warchest.zones import size


def notes(bag, discard, hand, rounds):
    """The lines that say how the draws were counted, when it matters."""
    n, d = size(bag), size(discard)
    out = []
    if n + d < hand:
        out.append("Only %d coin%s to draw: the hand is short, and takes them all (W10)."
                   % (n + d, "" if n + d == 1 else "s"))
    elif n < hand:
        out.append("The bag's %d coin%s come%s first, then %d from the refilled bag: the discard, mixed (W9)."
                   % (n, "" if n == 1 else "s", "s" if n == 1 else "", hand - n))
    if rounds and hand * rounds > n and n >= hand:
        out.append("Within %d rounds the bag runs out and refills (W9): counted with every coin drawn before "
                   "the refill back in the discard (nothing deployed, recruited or lost meanwhile)." % rounds)
    return out


def table(bag, discard, hand=3, rounds=None):
    """{type: {"next_hand": (p, q), "within_rounds": (p, q)}}, the latter only with rounds."""
    nxt = odds.next_hand(bag, discard, hand)
    within = odds.within_rounds(bag, discard, rounds, hand) if rounds else {}
    out = {}
    for t in sorted(nxt):
        out[t] = {"next_hand": nxt[t]}
        if rounds:
            out[t]["within_rounds"] = within[t]
    return out


def render(bag, discard, hand=3, rounds=None):
    rows = table(bag, discard, hand, rounds)
    n, d = size(bag), size(discard)
    head = ["type", "next hand"] + (["within %d round%s" % (rounds, "" if rounds == 1 else "s")] if rounds else [])
    lines = [[t, odds.text(r["next_hand"])] + ([odds.text(r["within_rounds"])] if rounds else [])
             for t, r in rows.items()]
    widths = [max(len(row[i]) for row in [head] + lines) for i in range(len(head))]
    out = ["Bag %d coin%s, discard %d; a hand is %d coin%s (W8). P(at least one of a type):"
           % (n, "" if n == 1 else "s", d, hand, "" if hand == 1 else "s"), ""]
    for row in [head] + lines:
        out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    extra = notes(bag, discard, hand, rounds)
    return "\n".join(out + ([""] + extra if extra else [])) + "\n"


def as_json(bag, discard, hand=3, rounds=None):
    rows = table(bag, discard, hand, rounds)
    return {"types": {t: {k: odds.ratio(v) for k, v in r.items()} for t, r in rows.items()}}


def cmd_odds(args):
    bag, discard = args.bag, args.discard or {}
    if not size(bag) + size(discard):
        return fail("warchest odds: the bag and the discard are both empty: nothing to draw")
    if args.json:
        print(json.dumps(as_json(bag, discard, args.hand, args.rounds), ensure_ascii=False))
    else:
        print(render(bag, discard, args.hand, args.rounds), end="")
    return 0
