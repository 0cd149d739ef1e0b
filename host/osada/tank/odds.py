"""`osada tank odds`: the exact odds of one fire test of «Танковый бой».

The numbers are shared_rules.tank.odds (integer fractions over 6**N); this
module only lays them out: a table of P(=k) and P(>=k) with one decimal, the
expected values, and a bar chart of plain characters within 80 columns.
Rule ids: ../shared/spec/tank-battle.md (T12-T16, T27).
"""

import argparse

from shared_rules.tank import dice, odds

MAX_DICE = 60
BAR = 40                      # the most likely row's bar; a row is 23 + 40 columns


def _int_in(name, lo, hi=None):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be a whole number, not %r" % (name, text)) from None
        if v < lo or (hi is not None and v > hi):
            rng = "%d..%d" % (lo, hi) if hi is not None else ">= %d" % lo
            raise argparse.ArgumentTypeError("%s must be %s (got %d)" % (name, rng, v))
        return v
    return parse


def add_parser(sub):
    """The `tank` command group, added to the CLI's subparsers."""
    tk = sub.add_parser("tank", help="«Танковый бой» (Art of Tactic): the dice calculator, "
                                     "the device's rolls live, a log replayed")
    tsub = tk.add_subparsers(dest="tank_cmd", metavar="TANK_COMMAND")
    od = tsub.add_parser("odds", help="exact odds of a fire test: hits, and damage after protection",
                         description="Exact odds of one fire test (T12): N dice, a die hits if its "
                                     "face <= V. Unit numbers come from the cards.")
    od.add_argument("--dice", type=_int_in("N", 1, MAX_DICE), required=True, metavar="N",
                    help="intensity: dice rolled (1..%d)" % MAX_DICE)
    od.add_argument("--hit", type=_int_in("V", 0, 6), required=True, metavar="V",
                    help="accuracy at the distance: highest face that hits (0..6)")
    od.add_argument("--protection", type=_int_in("P", 0), default=None, metavar="P",
                    help="the target's remaining protection this turn (>= 0): also show damage")
    od.add_argument("--ambush", action="store_true", help="fire from ambush: +1 to the hit number (T13, T35)")
    od.add_argument("--suppress", action="store_true",
                    help="suppression fire: N is the card intensity, N + ceil(N/2) dice are rolled (T27)")
    od.set_defaults(func=cmd_odds)
    from osada import tank_watch
    tank_watch.add_parsers(tsub, "serial port of the device (default: auto — a Pico by USB id, else the simulator)")

    def no_command(_args):
        tk.print_help()
        return 2
    tk.set_defaults(func=no_command)
    return tk


def cmd_odds(args):
    print(render(args.dice, args.hit, args.protection, args.ambush, args.suppress), end="")
    return 0


def _hit_text(v):
    if v == 0:
        return "no die can hit"
    if v == 6:
        return "every die hits"
    return "a die hits on 1-%d (%d/6)" % (v, v)


def _table(title, k, counts, den):
    """Rows k: P(=k), P(>=k), bar.  Rows at either end whose P(=k) rounds to
    0.0% are left out, and said so: "below 0.05%", or "impossible" when they
    cannot happen at all."""
    shown = [k for k in range(len(counts)) if odds.per_mille(counts[k], den)]
    first, last = shown[0], shown[-1]
    top = max(counts)
    lines = ["%6s   P(=%s)  P(>=%s)" % (title, k, k)]
    tail = odds.at_least(counts, first)
    for j in range(first, last + 1):
        c = counts[j]
        bar = (2 * BAR * c + top) // (2 * top)
        row = "%6d  %6s  %6s  %s" % (j, odds.percent1(c, den), odds.percent1(tail, den), "#" * bar)
        lines.append(row.rstrip())
        tail -= c
    hidden = [j for j in range(len(counts)) if j < first or j > last]
    tiny = [j for j in hidden if counts[j]]
    never = [j for j in hidden if not counts[j]]
    parts = []
    if tiny:
        parts.append("%s: below 0.05%%%s" % (_ranges(k, tiny), " each" if len(tiny) > 1 else ""))
    if never:
        parts.append("%s: impossible" % _ranges(k, never))
    if parts:
        lines.append("        (%s, not shown)" % "; ".join(parts))
    return lines


def chance(num, den):
    """num/den as odds.percent1 does, but an outcome that cannot happen (0
    exactly) is "impossible", and one that can but rounds to 0.0% is "below
    0.05%"."""
    if not num:
        return "impossible"
    if not odds.per_mille(num, den):
        return "below 0.05%"
    return odds.percent1(num, den)


def _ranges(name, ks):
    parts = []
    start = prev = ks[0]
    for k in ks[1:] + [None]:
        if k is not None and k == prev + 1:
            prev = k
            continue
        parts.append(("%s = %d" % (name, start)) if start == prev else ("%s = %d-%d" % (name, start, prev)))
        if k is not None:
            start = prev = k
    return ", ".join(parts)


def _fraction(p):
    num, den = p
    return "%s (%d/%d)" % (odds.decimal3(num, den), num, den) if den != 1 else "%d" % num


def render(n, accuracy, protection=None, ambush=False, suppress=False):
    """The calculator's whole output, as text."""
    dice_n = dice.suppression_dice(n) if suppress else n
    v = dice.effective_accuracy(accuracy, ambush)
    head = "Fire test: %d dice" % dice_n
    if suppress:
        head = "Suppression fire: card intensity %d -> %d dice (T27)" % (n, dice_n)
    acc = "accuracy %d" % accuracy + (" +1 ambush = %d" % v if ambush else "")
    out = [head, "%s: %s" % (acc, _hit_text(v)), ""]
    counts, den = odds.hit_counts(dice_n, v)
    out += _table("hits", "k", counts, den)
    out.append("expected hits: %s" % _fraction(odds.mean(counts, den)))
    if protection is not None:
        dmg = odds.damage_counts(counts, protection)
        out += ["", "Damage after protection %d: each hit beyond it is one tank (T12, T16)" % protection, ""]
        out += _table("damage", "d", dmg, den)
        out.append("expected damage: %s" % _fraction(odds.mean(dmg, den)))
        any_dmg = odds.at_least(counts, protection + 1)
        out.append("at least 1 damage: %s" % chance(any_dmg, den))
    return "\n".join(out) + "\n"
