# The worked numbers of the «Танковый бой» spec (part (b), E1-E4) and a few
# seeded rolls, one result per line.  It runs unchanged on CPython and inside
# MicroPython; tests/rules/test_tank_cross_runtime.py runs it on both and requires
# identical output, and checks the lines against the spec's fractions.
# Denominators from 6**12 on pass 2**31: MicroPython needs its long ints here.
#
# usage: tank_numbers.py [SEED]

import sys

from shared_rules.rng import Rng
from shared_rules.tank import dice, odds
from shared_rules.tank.protection import TargetTurn


def fr(p):
    return "%d/%d" % p


def out(name, value):
    sys.stdout.write("%s %s\n" % (name, value))


def fire_lines():
    c, d = odds.hit_counts(6, 3)
    out("6d<=3 P(>=2)", fr(odds.frac(odds.at_least(c, 2), d)))
    out("6d<=3 E[H]", fr(odds.mean(c, d)))
    c, d = odds.hit_counts(12, 2)
    out("12d<=2 a0..a4", " ".join(str(x) for x in c[:5]))
    out("12d<=2 den", str(d))
    out("12d<=2 P(H>=5)", fr(odds.frac(odds.at_least(c, 5), d)))
    out("12d<=2 permille", str(odds.per_mille(odds.at_least(c, 5), d)))
    out("12d<=2 E[H]", fr(odds.mean(c, d)))
    out("12d<=2 E[D vs 4]", fr(odds.mean(odds.damage_counts(c, 4), d)))
    out("12d<=2 P(H>=6)", fr(odds.destroyed(12, 2, 3, 3)))
    f = odds.fire_odds(dice.suppression_dice(12), 2, 4)
    out("18d<=2 P(H>=5)", fr(f["any_damage"]))
    out("18d<=2 E[H]", fr(f["mean_hits"]))
    out("18d<=2 E[D vs 4]", fr(f["mean_damage"]))
    c, d = odds.pooled_counts([(6, 3), (6, 2)])
    out("pooled P(>=4)", fr(odds.frac(odds.at_least(c, 4), d)))
    out("pooled E", fr(odds.mean(c, d)))
    c, d = odds.hit_counts(60, 3)
    out("60d<=3 P(>=30)", fr(odds.frac(odds.at_least(c, 30), d)))


def other_lines():
    out("morale 2d vs 7", fr(odds.morale_pass(2, 7)))
    out("morale 2d vs 9", fr(odds.morale_pass(2, 9)))
    out("morale 3d vs 9", fr(odds.morale_pass(3, 9)))
    out("duel", " ".join("%d/%d/%d" % odds.duel(m) for m in range(-3, 4)))
    out("collision S7 enters", fr(odds.collision_enter(7, [8, 5, 7])))
    out("collision S8 enters", fr(odds.collision_enter(8, [7, 7])))
    out("collision nobody", fr(odds.collision_nobody([7, 7], [8, 5, 7])))
    out("E3", repr(dice.collision_result([12, 10], [10, 8, 11])))
    out("E4", " ".join(str(dice.suppression_dice(n)) for n in (12, 10, 8, 7)))
    t = TargetTurn(3, 1)
    steps = [t.take(1, True), t.take(2), t.take(2)]
    t.suppress()
    t.new_turn()
    out("E1", "%r strength %d next turn %d" % (steps, t.strength, t.remaining()))


def roll_lines(seed):
    rng = Rng(seed)
    buf = dice.dice_buffer()
    hits = dice.fire_test(rng, buf, 24, 3)
    out("fire 24d<=3", "%d %s" % (hits, "".join(str(x) for x in buf[:24])))
    hits = dice.suppression_fire(rng, buf, 12, 2, True)
    out("suppress 12->18d<=3", "%d %s" % (hits, "".join(str(x) for x in buf[:18])))
    out("morale 2d vs 7", "%r %d" % (dice.morale_test(rng, buf, 2, 7), dice.dice_sum(buf, 2)))
    out("counter-attack", "%d %d %d" % (dice.counter_attack(rng, buf), buf[0], buf[1]))
    out("collision", repr(dice.collision(rng, buf, [7, 7], [8, 5, 7])))


def main(argv):
    seed = int(argv[1]) if len(argv) > 1 else 13
    fire_lines()
    other_lines()
    roll_lines(seed)


main(sys.argv)
