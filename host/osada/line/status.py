"""`osada line status`: a game-state file at a glance: each field's two
formations and its claim, the cards seen and unseen, the winner if there is
one (3 adjacent fields or any 5, L22) and the series score (L23)."""

from osada.line import words
from osada.line.inputs import print_json, read_state
from shared_rules.line import outcome

WIDTH = 36


def run(args):
    st = read_state(args.state)
    won = st.winner()
    games = list(st.series)
    if won:
        games.append((won[0], sum(1 for s in st.claims().values() if s != won[0])))
    score = outcome.series_points(games)
    if args.json:
        print_json({"deck": st.deck.as_dict(), "me": st.me,
                    "fields": [{"field": f.number, "size": f.size, "claimed": f.claimed, "tactics": f.tactics,
                                "south": _side_json(f, "south"), "north": _side_json(f, "north")}
                               for f in st.fields.values()],
                    "table": len(st.table()), "unseen": len(st.unseen()),
                    "unknown": len(st.unknown()) if st.hand is not None else None,
                    "winner": None if not won else {"side": won[0], "how": won[1], "fields": won[2]},
                    "series": score, "games": len(games)})
        return 0
    print("Deck: %s; you are %s." % (st.deck.describe(), words.side(st.me)))
    print("field  %-*s %s" % (WIDTH, "South", "North"))
    for f in st.fields.values():
        mark = {"south": "<", "north": ">"}.get(f.claimed, " ")
        print("  %d %s  %-*s %s" % (f.number, mark, WIDTH, _side(f, "south"), _side(f, "north")))
    claimed = st.claims()
    for side in outcome.SIDES:
        held = sorted(n for n, s in claimed.items() if s == side)
        print("%s holds %s." % (words.side(side), words.fields_text(held) if held else "no field"))
    print("Seen on the table: %d; unseen: %d%s." % (len(st.table()), len(st.unseen()), _unknown(st)))
    if won:
        print("%s has won: %s (L22)." % (words.side(won[0]), "%s in a row" % words.fields_text(won[2])
                                         if won[1] == "adjacent" else "%d fields" % len(won[2])))
    else:
        print("No winner yet: 3 adjacent fields or any 5 win (L22).")
    if games:
        print("Series (L23), %s: South %d, North %d.%s" % (
            words.count(len(games), "game", "games"), score["south"], score["north"],
            " %s starts the next game." % words.side(games[-1][0])))
    return 0


def _side(f, side):
    """'G8 R8 B8  square (4, 24)', 'O4 O5  2/3', '-'; a played tactics card in brackets."""
    form = f.formation(side)
    text = "-"
    if form.cards:
        text = "%s  %s" % (words.cards_of(form), "%s %s" % (form.type, words.key_text(form.key))
                           if form.complete else form.progress())
    return text + (" [%s]" % "+".join(f.tactics) if f.tactics and side == "north" else "")


def _side_json(f, side):
    out = f.formation(side).as_dict()
    out["completed"] = f.completed[side]
    return out


def _unknown(st):
    if st.hand is None:
        return ""
    return "; unknown to you: %d (%s)" % (len(st.unknown()), "the deck %s and %s's hand %s" % (
        st.draw_pile if st.draw_pile is not None else "?", words.side(outcome.other(st.me)),
        st.their_hand if st.their_hand is not None else "?"))
