"""`osada tank odds`: the exact odds of one fire test of «Танковый бой».

The numbers are shared_rules.tank.odds (integer fractions over 6**N); this
module only lays them out: a table of P(=k) and P(>=k) with one decimal, the
expected values, and a bar chart of plain characters within 80 columns.
Rule ids: docs/rules-tank.md (T12-T16, T27).
"""

from osada.words.tank_rolls import chance
from shared_rules.tank import dice, odds

MAX_DICE = 60
BAR = 40                      # the most likely row's bar; a row is 23 + 40 columns


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
