"""Tank battle's rolls in words: what the device rolled and what came out,
the exact odds of that result (shared_rules.tank.odds), and the test and
numbers the device is set to.  One line each, for `osada tank watch`, the
monitor's log and board (texts.describe, monitor/tank_board.py) and the
simulator's window.  Rule ids: docs/rules-tank.md (T12, T16, T20,
T21, T27, T29, T39)."""

import json

from osada_fw.tank.mode import TESTS, number_names
from shared_rules.tank import odds


def chance(num, den):
    """num/den as odds.percent1 does, but an outcome that cannot happen (0
    exactly) is "impossible", and one that can but rounds to 0.0% is "below
    0.05%"."""
    if not num:
        return "impossible"
    if not odds.per_mille(num, den):
        return "below 0.05%"
    return odds.percent1(num, den)


def a_chance(num, den):
    """A chance in a sentence: "a 36.9% chance", "no chance (impossible)", "a chance below 0.05%"."""
    if not num:
        return "no chance (impossible)"
    if not odds.per_mille(num, den):
        return "a chance below 0.05%"
    return "a %s chance" % odds.percent1(num, den)


def sides(ev):
    """A collision event's steadiness per unit, (A's list, B's list); an older
    log's one unit a side (an int) as a list of one."""
    a, b = ev.get("a", 0), ev.get("b", 0)
    return (a if isinstance(a, list) else [a]), (b if isinstance(b, list) else [b])


def unit_names(na, nb):
    """How the units of a collision are called: A, B with one a side, else A1, A2, B1..."""
    return ["A" if na == 1 else "A%d" % (i + 1) for i in range(na)] + \
        ["B" if nb == 1 else "B%d" % (i + 1) for i in range(nb)]


def _who_enters(names, enter, one_each):
    if not enter:
        return "both stop" if one_each else "nobody moves in"
    who = [names[i] for i in enter]
    return "%s %s in" % (" and ".join(who), "moves" if len(who) == 1 else "move")


def _collision_words(ev):
    sa, sb = sides(ev)
    faces = ev["dice"]
    names = unit_names(len(sa), len(sb))
    parts = ["%s %d+%d=%d" % (names[i], faces[i], s, faces[i] + s) for i, s in enumerate(sa + sb)]
    enter = ev.get("enter")
    if enter is None:                   # an older log: one unit a side, who moves in from the winner
        enter = [] if ev["winner"] is None else [0 if ev["winner"] == "a" else 1]
    return "collision: %s -> %s" % (", ".join(parts), _who_enters(names, enter, len(faces) == 2))


def _dice(n):
    return "1 die" if n == 1 else "%d dice" % n


def describe(ev):
    """What was rolled and what came out, in words (one line)."""
    t = ev.get("test")
    faces = " ".join(str(f) for f in ev.get("dice", []))
    if t in ("fire", "suppress"):
        head = "fire %s" % _dice(ev["n"]) if t == "fire" else \
            "suppression fire %d -> %s" % (ev["intensity"], _dice(ev["n"]))
        amb = " (ambush +1)" if ev.get("ambush") else ""
        out = "%s, hit on <= %d%s, protection %d: [%s] -> %d hit%s" % (
            head, ev["hit"], amb, ev["protection"], faces, ev["hits"], "" if ev["hits"] == 1 else "s")
        if ev["protection"]:
            out += ", %d absorbed, %d damage" % (ev["absorbed"], ev["damage"])
        if ev.get("morale"):
            out += "; morale test due"
        return out
    if t == "morale":
        return "morale %s vs steadiness %d: [%s] sum %d -> %s" % (
            _dice(len(ev["dice"])), ev["steadiness"], faces, ev["sum"],
            "passed" if ev["passed"] else "FAILED: suppressed")
    if t == "counter":
        out = "counter-attack: A %d, B %d -> %s moves in" % (ev["dice"][0], ev["dice"][1], ev["winner"].upper())
        ties = ev.get("ties")
        if ties:
            tied = ev.get("tied") or []
            out += " (after %d tie%s re-rolled%s)" % (ties, "" if ties == 1 else "s",
                                                      ": " + ", ".join("%d-%d" % (f, f) for f in tied) if tied else "")
        return out
    if t == "collision":
        return _collision_words(ev)
    return "roll %s" % json.dumps(ev, ensure_ascii=False)


def odds_line(ev):
    """The odds of the result just rolled, exact (shared_rules.tank.odds)."""
    t = ev.get("test")
    if t in ("fire", "suppress"):
        counts, den = odds.hit_counts(ev["n"], ev["hit"])
        h = ev["hits"]
        if h == 0:
            out = "0 hits: %s of none" % a_chance(counts[0], den)
        else:
            out = "%d hit%s: you had %s of %d or more" % (h, "" if h == 1 else "s",
                                                            a_chance(odds.at_least(counts, h), den), h)
        p = ev["protection"]
        if p:
            d = ev["damage"]
            any_dmg = a_chance(odds.at_least(counts, p + 1), den)
            if d:
                out += "; %d damage: %s of %d or more" % (d, a_chance(odds.at_least(counts, p + d), den), d)
            else:
                out += "; no damage (any damage had %s)" % any_dmg
        return out
    if t == "morale":
        num, den = odds.morale_pass(len(ev["dice"]), ev["steadiness"])
        return "%s: the test passes with %s" % ("passed" if ev["passed"] else "failed", a_chance(num, den))
    if t == "counter":
        num, den = odds.duel_rerolled(0)
        out = "each side wins a counter-attack with %s (ties re-rolled, T29)" % a_chance(num, den)
        ties = ev.get("ties")
        if ties:                        # TA8: a tie is 1 throw in 6, so k ties or more: 1/6**k
            out += "; %d tie%s or more first: %s" % (ties, "" if ties == 1 else "s", a_chance(1, 6 ** ties))
        return out
    if t == "collision":
        sa, sb = sides(ev)
        if len(sa) == len(sb) == 1:
            w, tie, loss = odds.duel(sa[0] - sb[0])
            return "A moves in %s, B %s, both stop %s (T39)" % (chance(w, 36), chance(loss, 36), chance(tie, 36))
        names = unit_names(len(sa), len(sb))
        each = [odds.collision_enter(s, sb if i < len(sa) else sa) for i, s in enumerate(sa + sb)]
        nobody = odds.collision_nobody(sa, sb)
        return "moves in: %s; nobody %s (T39, TA9)" % (
            ", ".join("%s %s" % (names[i], chance(*each[i])) for i in range(len(names))), chance(*nobody))
    return ""


# ------------------------------------------------------------------ the setting

def setting_line(st):
    """The device's test and numbers (a Tank battle `state`'s "tank"), the one
    the encoder changes now in [brackets]: "fire · [dice 7] · hit 3 · ambush no · protection 0"."""
    test = st.get("test")
    nums = st.get("numbers") or {}
    cur = st.get("cursor")
    words = []

    def put(name, text):
        words.append("[%s]" % text if cur == name else text)
    put("test", str(test))
    if test == "collision":
        for side in ("a", "b"):
            units = nums.get(side) or []
            put(side + " units", "%s: %d unit%s" % (side.upper(), len(units), "" if len(units) == 1 else "s"))
            for i, s in enumerate(units):
                put("%s%d" % (side, i + 1), "%s%d steadiness %s" % (side.upper(), i + 1, s))
    else:
        for name in number_names(TESTS.index(test)) if test in TESTS else ():
            if name in nums:
                v = nums[name]
                label = "intensity" if (test, name) == ("suppress", "dice") else name
                put(name, "%s %s" % (label, ("yes" if v else "no") if name == "ambush" else v))
    return " · ".join(words)
