"""Tank battle's last roll as the table's page draws it (static/ring.js): its dice
(each face, and what it counts for: a hit, a miss, side A's or B's die), what came
out in a few words, the roll in words, its odds in words and the chance of what
came out as an exact fraction (shared_rules.tank.odds, the same numbers as the
log's odds line).  The host's page has it in its picture (picture.py); the page
with no host too (osada.site.reader, in the static site's MicroPython VM): it runs
on both runtimes (tests/host/site/test_reader.py)."""

from osada.words.tank_rolls import chance, describe, odds_line, sides, unit_names
from shared_rules.exact import frac
from shared_rules.tank import odds

from .rolls import check

NO_ROLL = "no roll yet: each roll shows here large, with its exact odds"


def _dice(ev):
    """[{"face": f, "mark": what the die counts for}] in the roll's order."""
    faces = ev["dice"]
    t = ev["test"]
    if t in ("fire", "suppress"):
        return [{"face": f, "mark": "hit" if f <= ev["hit"] else "miss"} for f in faces]
    if t == "counter":
        return [{"face": f, "mark": side} for f, side in zip(faces, ("A", "B"))]
    if t == "collision":
        sa, sb = sides(ev)
        return [{"face": f, "mark": name} for f, name in zip(faces, unit_names(len(sa), len(sb)))]
    return [{"face": f, "mark": "die"} for f in faces]


def _chance(ev):
    """(what, (num, den)): the chance of what came out, exact; None where no one number says it."""
    t = ev["test"]
    if t in ("fire", "suppress"):
        counts, den = odds.hit_counts(ev["n"], ev["hit"])
        h = ev["hits"]
        if h == 0:
            return "no hit", frac(counts[0], den)
        return "%d hit%s or more" % (h, "" if h == 1 else "s"), frac(odds.at_least(counts, h), den)
    if t == "morale":
        return "the test passes", odds.morale_pass(len(ev["dice"]), ev["steadiness"])
    if t == "counter":
        return "each side wins", odds.duel_rerolled(0)
    sa, sb = sides(ev)
    if len(sa) == len(sb) == 1:
        w, _tie, _loss = odds.duel(sa[0] - sb[0])
        return "A moves in", frac(w, 36)
    return None


def not_adding_up(roll):
    """A sentence where the roll event does not add up with its faces (rolls.check), else ""."""
    bad = check(roll)
    return "the last roll does not add up: " + "; ".join(bad) if bad else ""


def roll_picture(roll):
    """The page's picture of one roll event that adds up (not_adding_up says so)."""
    said = describe(roll)
    lead, _, result = said.partition(" -> ")
    r = {"test": roll["test"], "dice": _dice(roll), "lead": lead, "result": result or said,
         "words": said, "odds": odds_line(roll)}
    c = _chance(roll)
    if c is not None:
        what, (num, den) = c
        r["chance"] = {"what": what, "p": "%d/%d" % (num, den), "text": chance(num, den)}
    return r
