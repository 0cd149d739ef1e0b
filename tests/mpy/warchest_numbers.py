# The worked numbers of the War Chest spec (part (a), examples 1-6) and
# seeded games of random legal events, one result per line.  It runs
# unchanged on CPython and inside MicroPython;
# tests/rules/test_warchest_cross_runtime.py runs it on both, requires
# identical output and checks the lines against the spec's fractions.
#
# usage: warchest_numbers.py [SEED]

import sys

from warchest_play import new_game, play

from shared_rules.rng import Rng
from shared_rules.warchest import odds, views
from shared_rules.warchest.events import text
from shared_rules.warchest.game import Game
from shared_rules.warchest.zones import size


def out(name, value):
    sys.stdout.write("%s %s\n" % (name, value))


def examples():
    start = {"A": 2, "B": 2, "C": 2, "D": 2, "royal": 1}
    hand = odds.next_hand(start, {})
    out("ex1 A", odds.text(hand["A"]))
    out("ex2 royal", odds.text(hand["royal"]))
    pair = odds.exactly(9, 2, 3, 2)         # a pair of one given type: the 4 types' are disjoint
    out("ex2 pair", odds.ratio(odds.frac(4 * pair[0], pair[1])))
    out("ex2 A or B", odds.text(odds.at_least_one(9, 4, 3)))
    out("ex3 A within 2", odds.text(odds.within_rounds(start, {}, 2)["A"]))
    out("ex3 A within 3", odds.text(odds.within_rounds(start, {}, 3)["A"]))
    out("ex4 start", odds.text(odds.next_hand({"A": 2, "B": 2, "C": 2, "royal": 1}, {})["A"]))
    out("ex4 recruits", odds.text(odds.next_hand({"X": 3, "O": 7}, {})["X"]))
    edge = odds.next_hand({"A": 1, "royal": 1}, {"B": 3, "C": 5})
    out("ex5", "A %s royal %s B %s" % (odds.ratio(edge["A"]), odds.ratio(edge["royal"]), odds.ratio(edge["B"])))
    g = new_game(0, [])
    for line in ("p1 draw", "p2 draw", "p1 pass", "p2 deploy archer", "p1 pass", "p2 initiative", "p1 pass",
                 "p2 recruit lancer"):
        g.apply_text(line)
    v = views.public(g, 1)
    out("ex6 U", " ".join("%s:%d" % (t, v["cycle"][t]) for t in sorted(v["cycle"])))
    out("ex6 sizes", "bag %d down %d" % (v["bag"], v["down"]))
    out("ex6 A", odds.text(v["estimate"]["archer"]))
    out("ex6 B", odds.text(v["estimate"]["cavalry"]))


def _zones(g, p):
    c = g.coins[p]
    b, h, d = c.sizes()
    board = c.board()
    return "bag %d hand %d down %d up %d board %d box %d supply %d" % (
        b, h, d, size(c.up), size(board), size(c.box), size(c.supply))


def games(seed):
    for which in range(4):
        g = new_game(which, [0] if which % 2 else [1])
        n = play(g, Rng(seed + which), 160)
        out("game %d" % which, "%d events, round %d, %s, markers %r" % (n, g.round, g.phase(), g.markers))
        for p in range(g.players):
            out("  p%d" % (p + 1), _zones(g, p))
            est = views.public(g, p)["estimate"]
            out("  p%d est" % (p + 1), " ".join("%s=%s" % (t, odds.ratio(est[t])) for t in sorted(est)))
            if g.coins[p].known:
                o = views.owner(g, p, 2)
                out("  p%d exact" % (p + 1), " ".join("%s=%s/%s" % (t, odds.ratio(o["next_hand"][t]),
                                                                    odds.ratio(o["within"][t]))
                                                       for t in sorted(o["next_hand"])))
        out("  last", " | ".join(text(e) for e in g.log[-4:]))
        again = Game.from_state(g.setup, g.state())
        out("  checks", "W29 %r state round trip %r" % (g.problems(), again.state() == g.state()))


def main(argv):
    examples()
    games(int(argv[1]) if len(argv) > 1 else 7)


main(sys.argv)
