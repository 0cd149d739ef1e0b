"""`osada victory odds N R`: the starting hand of «День Победы» counted exactly.

A deck of N cards with R resource cards; the hand is its top 7 (V9).  Prints
P(k resources) for k = 0..7, P(redeal allowed) (V10: 0, 1 or 7 resources),
P(at least r) and the chance of a keepable hand (2-6) within two deals when the
player redeals whenever allowed (1 - p^2).  Numbers: shared_rules.victory.deal.
"""

import json

from osada.victory.layout import fit
from osada.victory.numbers import decimal4, exact, ratio
from shared_rules.victory import deal


def compute(deck, resources, r):
    """{name: (num, den)} of every number the command prints."""
    ways, total = deal.hand_counts(deck, resources)
    redeal = deal.redeal_ways(ways)
    return {"k": [(w, total) for w in ways], "redeal": (redeal, total),
            "at_least": (deal.at_least_ways(ways, r), total), "keep": deal.keep_within_two(redeal, total)}


def render(deck, resources, r):
    n = compute(deck, resources, r)
    lines = ["Starting hand of %d from a deck of %d, %d of them resource cards (V9):" % (deal.HAND, deck, resources),
             "  resources  chance"]
    for k, (num, den) in enumerate(n["k"]):
        lines.append("  %5d      %s" % (k, exact(num, den)))
    lines += ["Redeal allowed (0, 1 or 7 resources, V10): %s" % exact(*n["redeal"]),
              "At least %d resource%s: %s" % (r, "" if r == 1 else "s", exact(*n["at_least"])),
              "Keepable (2-6) within two deals, 1 - p²: %s" % exact(*n["keep"])]
    return fit(lines)


def as_json(deck, resources, r):
    n = compute(deck, resources, r)
    out = {"deck": deck, "resources": resources, "hand": deal.HAND,
           "k": {str(k): ratio(*v) for k, v in enumerate(n["k"])},
           "redeal": ratio(*n["redeal"]), "at_least_r": r, "at_least": ratio(*n["at_least"]),
           "keep_within_two": ratio(*n["keep"])}
    out["decimal"] = {"redeal": decimal4(*n["redeal"]), "at_least": decimal4(*n["at_least"]),
                      "keep_within_two": decimal4(*n["keep"])}
    return json.dumps(out, ensure_ascii=False)


def cmd_odds(args):
    if args.json:
        print(as_json(args.deck, args.resources, args.at_least))
    else:
        print(render(args.deck, args.resources, args.at_least), end="")
    return 0
