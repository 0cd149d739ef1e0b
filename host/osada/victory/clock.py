"""`osada victory clock D`: how long a deck lasts (V12, V39), mills simulated
turn by turn (shared_rules.victory.clock).

    clock D [--milled X]                 one deck: own turns left, lost at which turn
    clock D --vs D2 [--milled X] [--mills Y] [--new-game]
                                         two decks: who cannot draw first

D is the deck at the start of the (first) player's turn, before he draws; with
--new-game D and D2 are whole decks, the starting hands still to be dealt.  A mill
schedule X is "3" (each turn), "3@5" (each turn from the 5th) or "0,0,2,5" (turn
by turn, none after).  --milled: what the player of D loses in each of the other's
turns (numbered as the other's turns); --mills: what he takes from the other's deck in each of his own.
"""

import json
import re

from osada.victory.layout import fit
from shared_rules.victory import clock


class ScheduleError(ValueError):
    """A mill schedule that cannot be read."""


def schedule(text):
    """"3" -> each turn, "3@5" -> each turn from the 5th, "0,0,2" -> turn by turn."""
    text = text.strip()
    m = re.match(r"^(\d+)(?:@(\d+))?$", text)
    if m:
        return clock.Schedule(int(m.group(1)), int(m.group(2) or 1))
    if re.match(r"^\d+(,\d+)+$", text):
        return clock.Schedule(listed=[int(v) for v in text.split(",")])
    raise ScheduleError("a mill schedule is N (each turn), N@T (each turn from turn T) or N,N,... "
                        "(turn by turn), not %r" % text)


def _words(s, whose):
    """A schedule in words: "3 cards in each of his turns from his 5th", "0,0,2,5 cards in his turns 1-4"."""
    if s.listed is not None:
        return "%s cards in %s turns 1-%d" % (",".join(str(v) for v in s.listed), whose, len(s.listed))
    if not s.each:
        return "no cards"
    return "%d card%s in each of %s turns%s" % (s.each, "" if s.each == 1 else "s", whose,
                                                " from the %s" % ordinal(s.start) if s.start > 1 else "")


def ordinal(n):
    return "%d%s" % (n, "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def render_alone(deck, milled):
    rows, lost = clock.alone(deck, milled)
    lines = ["Deck %d at the start of his turn, before drawing; milled: %s (V39)." % (
        deck, _words(milled, "the opponent's"))]
    if rows:
        steps = [str(rows[0][1])]
        for _, _, drawn, m, left in rows:
            steps.append(str(drawn))
            if m:
                steps.append(str(left))
        lines.append("  deck " + " → ".join(steps))
    left = rows[-1][4] if rows else deck
    x = milled.constant()
    lines.append("%d own turn%s left; at the start of turn %d the deck holds %d: he cannot draw 2 and loses (V39)."
                 % (len(rows), "" if len(rows) == 1 else "s", lost, left))
    if x is not None:
        lines.append("  (by the formula: d < 2 -> 0, else (d - 2) // (2 + x) + 1 = %d)" % clock.turns_left(deck, x))
    return fit(lines)


def names(new_game):
    return ("the first player", "the second player") if new_game else ("the player to move", "the other player")


def render_duel(d, decks, mills, new_game, table):
    who = names(new_game)
    if new_game:
        lines = ["New game, %d v %d cards: %d each after the starting hands of 7 (V9); the first player draws 1 "
                 "in his first turn (V12)." % (decks[0], decks[1], d.start[0])]
    else:
        lines = ["Decks %d (%s, before his draw) and %d (%s)." % (decks[0], who[0], decks[1], who[1])]
    for p in (0, 1):
        if mills[p].listed is not None or mills[p].each:
            lines.append("%s mills %s." % (who[p].capitalize(), _words(mills[p], "his")))
    lose = d.loser()
    turn, game, left = d.lost[lose]
    lines.append("%s runs out first: at the start of his turn %d (game turn %d) his deck holds %d: he cannot draw "
                 "and loses (V39)." % (who[lose].capitalize(), turn, game, left))
    t2, g2, _ = d.lost[1 - lose]
    lines.append("%s would play to his turn %d and run out at his turn %d (game turn %d)." % (
        who[1 - lose].capitalize(), t2 - 1, t2, g2))
    if table:
        lines.append("  game turn  player  his turn  deck  draws  mills  other's deck")
        for game, p, turn, before, drew, m, other in d.rows:
            lines.append("  %9d  %6s  %8d  %4d  %5d  %5d  %12d" % (game, "1st" if p == 0 else "2nd", turn,
                                                                   before, drew, m, other))
    return fit(lines)


def duel_json(d, new_game):
    lose = d.loser()
    return json.dumps({"new_game": new_game, "decks_after_hands" if new_game else "decks": d.start,
                       "loser": "first" if lose == 0 else "second",
                       "players": [{"loses_at_turn": t, "game_turn": g, "deck": left} for t, g, left in d.lost],
                       "rows": [list(r) for r in d.rows]})


def cmd_clock(args):
    milled = schedule(args.milled)
    if args.vs is None:
        if args.mills is not None or args.new_game:
            raise ScheduleError("--mills and --new-game need --vs D2 (the other deck)")
        if args.json:
            rows, lost = clock.alone(args.deck, milled)
            print(json.dumps({"turns_left": len(rows), "loses_at_turn": lost,
                              "rows": [list(r) for r in rows]}))
        else:
            print(render_alone(args.deck, milled), end="")
        return 0
    mills = (schedule(args.mills or "0"), milled)
    d = clock.Duel((args.deck, args.vs), mills, args.new_game)
    print(duel_json(d, args.new_game) if args.json else render_duel(d, (args.deck, args.vs), mills, args.new_game,
                                                                    args.table), end="\n" if args.json else "")
    return 0
