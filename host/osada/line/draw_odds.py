"""`osada line odds`: the exact chance of drawing a card that completes a
formation within my next k draws (the spec's draw odds; L5), as a fraction in
lowest terms beside its percentage, with the model stated; and the
first-player draw's tie (L2).

    osada line odds --state FILE --field 5 --target wedge --draws 1 3 5
    osada line odds --state FILE --field 5 --need O3 --draws 1
    osada line odds --good 2 --unknown 27 --draws 3          (the numbers alone)
    osada line odds --first-draw                             (L2: the two cards tie)
"""

from osada.line import words
from osada.line.inputs import Refused, deck, no_deck_with_state, print_json, read_state
from shared_rules.errors import RuleError
from shared_rules.line import odds
from shared_rules.line.cards import names
from shared_rules.line.outcome import other

TARGET_WORDS = {"wedge": "a wedge", "square": "a square or better", "column": "a column or better",
                "phalanx": "a phalanx or better", "skirmish": "any card (a skirmish or better)"}


def run(args):
    if args.first_draw:
        return _first_draw(args)
    if args.state:
        return _from_state(args)
    if args.field is not None or args.target or args.need:
        raise Refused("--field, --target and --need need --state FILE (the table and your hand)")
    if args.good is None or args.unknown is None:
        raise Refused("give a state file (--state FILE --field N --target T), or the numbers alone "
                      "(--good G --unknown M), or --first-draw")
    rows = _rows(args.good, args.unknown, args.draws, args.deck)
    head = {"good": args.good, "unknown": args.unknown, "draw_pile": args.deck}
    model = {"text": "Model: your next draws are a random set of the %d unknown cards (his hand taken for a random "
                     "part of them: an approximation while he holds cards, since he chose what to keep)." % (
                         args.unknown), "approximation": True}
    return _print(head, rows, model, ["%d good cards of the %d unknown" % (args.good, args.unknown)],
                  args.deck, args.json)


def _from_state(args):
    no_deck_with_state(args)
    if args.good is not None or args.unknown is not None or args.deck is not None:
        raise Refused("with --state the numbers come from the file: leave out --good, --unknown and --deck")
    if args.field is None or bool(args.target) == bool(args.need):
        raise Refused("with --state, give --field N and either --target TYPE or --need CARDS")
    st = read_state(args.state)
    f = st.field(args.field)
    if f.claimed:
        raise RuleError("L21", "field %d is claimed by %s: no card can be played there" % (
            f.number, words.side(f.claimed)))
    f.refuse_tactics()
    unknown = st.unknown()
    side = f.cards[st.me]
    if args.target:
        good = odds.completing(side, unknown, f.size, args.target)
        what = "target %s" % TARGET_WORDS[args.target]
    else:
        good = odds.named(st.deck.parse(args.need), unknown, st.where)
        what = "the named cards"
    good = st.deck.sort(good)
    rows = _rows(len(good), len(unknown), args.draws, st.draw_pile)
    lines = ["Field %d, %s: %s, %s; %s" % (f.number, words.side(st.me), words.cards_of(f.formation(st.me)),
                                           words.formation(f.formation(st.me)), what),
             "Good cards: %d of the %d unknown (%s)" % (len(good), len(unknown), names(good) if good else "none")]
    head = {"field": f.number, "target": args.target, "cards": ["%s%d" % c for c in good], "good": len(good),
            "unknown": len(unknown), "draw_pile": st.draw_pile}
    return _print(head, rows, _model(st, len(unknown)), lines, st.draw_pile, args.json)


def _model(st, unknown):
    him = words.side(other(st.me))
    if st.their_hand == 0:
        return {"text": "Model: %s holds no unit card, so the unknown cards are the deck: exact." % him,
                "approximation": False}
    held = "%s's %d cards in hand" % (him, st.their_hand) if st.their_hand is not None else "%s's hand" % him
    return {"text": "Model: %s are taken for a random part of the %d unknown cards, so your next draws are a "
                    "random set of them. He chose what to keep: an approximation." % (held, unknown),
            "approximation": True}


def _rows(good, unknown, draws, draw_pile):
    out = []
    for k in draws:
        odds.check_draws(k, draw_pile)
        out.append((k, odds.at_least_one(good, unknown, k)))
    return out


def _print(head, rows, model, lines, draw_pile, as_json):
    if as_json:
        out = dict(head)
        out.update({"draws": rows[0][0], "probability": words.fraction(rows[0][1]),
                    "percent": words.percent(rows[0][1])[:-1],
                    "rows": [{"draws": k, "probability": words.fraction(p), "percent": words.percent(p)[:-1]}
                             for k, p in rows],
                    "model": model["text"], "approximation": model["approximation"]})
        if draw_pile is not None:
            out["draws_left"] = odds.draws_left(draw_pile)
        print_json(out)
        return 0
    for line in lines:
        print(line)
    print(model["text"])
    print("P(at least one good card within your next k draws):")
    for k, p in rows:
        print("  k = %d: %s" % (k, words.chance(p)))
    if draw_pile is not None:
        print("You can draw at most %d more: the deck holds %d and the draws alternate (L5)." % (
            odds.draws_left(draw_pile), draw_pile))
    return 0


def _first_draw(args):
    if args.state or args.field is not None or args.good is not None:
        raise Refused("--first-draw takes only the deck (--colours, --values)")
    d = deck(args)
    p = odds.first_draw_tie(d)
    if args.json:
        print_json({"probability": words.fraction(p), "percent": words.percent(p)[:-1], "deck": d.as_dict()})
        return 0
    print("First player (L2): one card each, the higher starts, a tie is drawn again (LA5).")
    print("Deck: %s." % d.describe())
    print("P(the two cards tie) = %s: %d of the other %d cards share the first card's value." % (
        words.chance(p), len(d.colours) - 1, len(d) - 1))
    return 0
