"""`osada line eval`: what a formation is and its key (L9-L12), and with
--against, which of two sides takes the field (L10, L11); with --state and
--field, the two sides of a field of the game-state file.

    osada line eval R3 R4 R5                   -> R3 R4 R5: wedge «Клин» (5, 12)
    osada line eval R7 R8 R9 --against B7 B8 B9 -> equal keys: whoever completed first
"""

from osada.line import words
from osada.line.inputs import Refused, deck, no_deck_with_state, print_json, read_state
from shared_rules.line.cards import names
from shared_rules.line.formation import evaluate, winner


def run(args):
    if args.state:
        return _field(args)
    if args.field is not None:
        raise Refused("--field needs --state FILE")
    if not args.cards:
        raise Refused("give the cards of a side, e.g. osada line eval R3 R4 R5 (or --state FILE --field N)")
    d = deck(args)
    a = evaluate(d.parse(args.cards), args.size, " on a side")
    b = None
    if args.against is not None:
        b = evaluate(d.parse(args.against), args.size, " on the other side")
        if set(a.cards) & set(b.cards):
            both = sorted(set(a.cards) & set(b.cards), key=d.index.__getitem__)
            raise Refused("%s is on both sides: the deck holds each card once (L1)" % names(both))
    first = {"cards": "a", "against": "b"}.get(args.first)
    if args.json:
        out = a.as_dict()
        if b is not None:
            out["against"] = b.as_dict()
            out["winner"] = _winner_id(a, b, first, ("cards", "against"))
        print_json(out)
        return 0
    print("%s: %s" % (words.cards_of(a), words.formation(a)))
    if b is not None:
        print("%s: %s" % (words.cards_of(b), words.formation(b)))
        print(verdict(a, b, first, words.cards_of(a), words.cards_of(b)))
    return 0


def _winner_id(a, b, first, ids):
    """ids[0] or ids[1] for the side that takes the field, 'first completed' for
    equal keys with no order known, None while a side is incomplete."""
    if not (a.complete and b.complete):
        return None
    w = winner(a, b, first)
    return {"a": ids[0], "b": ids[1]}.get(w, "first completed")


def verdict(a, b, first, name_a, name_b):
    """One sentence: who takes the field and by which rule."""
    if not (a.complete and b.complete):
        short = [(n, f) for n, f in ((name_a, a), (name_b, b)) if not f.complete]
        return ("No winner yet: %s: a field goes to a stronger complete formation (L20), or to a claim proved "
                "from the table (L17: osada line claim)" % "; ".join(
                    "%s holds %s cards" % (n, f.progress()) for n, f in short))
    w = winner(a, b, first)
    if a.key == b.key:
        if w is None:
            return "Equal keys %s: whoever completed first takes the field (L11)" % words.key_text(a.key)
        return "Equal keys %s: %s completed first and takes the field (L11)" % (
            words.key_text(a.key), name_a if w == "a" else name_b)
    win, lose = (a, b) if w == "a" else (b, a)
    who = name_a if w == "a" else name_b
    if win.rank != lose.rank:
        return "%s wins: a %s beats a %s, type before sum (L9, L10)" % (who, win.type, lose.type)
    return "%s wins: two %s, the higher sum takes it, %d against %d (L10)" % (
        who, words.PLURAL[win.type], win.total, lose.total)


def _field(args):
    no_deck_with_state(args)
    if args.cards or args.against is not None:
        raise Refused("with --state, name the field (--field N), not cards")
    if args.field is None:
        raise Refused("with --state, name the field: --field N (1-9)")
    st = read_state(args.state)
    f = st.field(args.field)
    f.refuse_tactics()
    south, north = f.formation("south"), f.formation("north")
    first = {"mine": "a", "theirs": "b"}.get(f.first("south"))
    if args.json:
        print_json({"field": f.number, "size": f.size, "south": south.as_dict(), "north": north.as_dict(),
                    "claimed": f.claimed, "winner": _winner_id(south, north, first, ("south", "north"))})
        return 0
    claimed = ", claimed by %s" % words.side(f.claimed) if f.claimed else ""
    print("Field %d (size %d%s)" % (f.number, f.size, claimed))
    print("  South: %s: %s" % (words.cards_of(south), words.formation(south)))
    print("  North: %s: %s" % (words.cards_of(north), words.formation(north)))
    print(verdict(south, north, first, "South", "North"))
    return 0
