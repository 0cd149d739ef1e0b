"""`osada victory pay --have S,Z,T --cost S,Z,T`: can these resource cards pay
this cost, with V15's substitution (a missing resource = two of the other
kinds), and how: the fewest cards turned, one cheapest payment in the spec's
tie order, or how many cards are missing.  The rule: shared_rules.victory.resources."""

import json

from osada.victory.layout import fit
from shared_rules.victory.resources import KINDS, Payment

KIND_WORDS = "S склад (depot), Z завод (factory), T топливо (fuel)"


def cards(vector):
    """(5, 0, 1) -> "5 S + 1 T"; nothing -> "nothing"."""
    parts = ["%d %s" % (n, k) for n, k in zip(vector, KINDS) if n]
    return " + ".join(parts) if parts else "nothing"


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def render(p):
    lines = ["Cost %s; at hand %s (untapped resource cards)." % (cards(p.cost), cards(p.have))]
    if p.payable:
        how = "; ".join("%d %s ← %s" % (p.short[KINDS.index(k)], k, cards(sub)) for k, sub in p.subs)
        lines.append("Payable: turn %s: %s%s." % (plural(p.cards, "card"), cards(p.pay),
                                                  " (%s, V15)" % how if how else ""))
        return fit(lines)
    short = [(n, k) for n, k in zip(p.short, KINDS) if n]
    spare = sum(p.spare)
    lines.append("Cannot pay (V15): %s short; substituting takes %s of the other kinds and %s: %s missing."
                 % (" + ".join("%d %s" % s for s in short), plural(2 * sum(p.short), "spare card"),
                    "there is none" if not spare else "there %s only %d (%s)" % (
                        "is" if spare == 1 else "are", spare, cards(p.spare)),
                    plural(p.missing, "card")))
    lines.append("The fewest cards that would pay it: %s." % cards(p.add))
    return fit(lines)


def as_json(p):
    def vec(v):
        return None if v is None else dict(zip(KINDS, v))
    return json.dumps({"payable": p.payable, "cards": p.cards, "missing": p.missing, "to_add": p.to_add,
                       "add": vec(p.add),
                       "have": vec(p.have), "cost": vec(p.cost), "pay": vec(p.pay),
                       "substitutes": [{"for": k, "with": vec(sub)} for k, sub in p.subs]})


def cmd_pay(args):
    p = Payment(args.have, args.cost)
    print(as_json(p) if args.json else render(p), end="\n" if args.json else "")
    return 0
