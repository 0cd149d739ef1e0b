"""Tank battle's roll events checked and laid out: every count of a roll
(hits, damage, sums, winners) re-checked against its faces (check), the
lines `osada tank watch` prints for a roll (lines_for), and `osada tank
replay FILE`: a log saved by `osada tank watch --log` printed the same way,
exit 1 if a roll does not add up.  Rule ids: docs/rules-tank.md
(T27, T29, T39, TA8, TA9)."""

import json
import sys

from osada.words.tank_rolls import describe, odds_line, sides
from osada_fw.tank.mode import MAX_TIED, TESTS
from shared_rules.tank import dice


def is_tank_roll(msg):
    return msg.get("ev") == "roll" and "test" in msg


def check(ev):
    """What in a roll event does not add up with its faces: a list of sentences, [] if all is right."""
    bad = []
    t = ev.get("test")
    faces = ev.get("dice")
    if t not in TESTS:
        return ["unknown test %r" % (t,)]
    if not isinstance(faces, list) or not all(isinstance(f, int) and 1 <= f <= 6 for f in faces):
        return ["the dice are not faces 1-6: %r" % (faces,)]

    def want(key, value):
        if ev.get(key) != value:
            bad.append("%s says %r but the dice give %r" % (key, ev.get(key), value))

    if t in ("fire", "suppress"):
        n = ev.get("n")
        if t == "suppress":
            k = ev.get("intensity")
            if not isinstance(k, int) or isinstance(k, bool) or k < 0:
                bad.append("suppression fire without its card intensity (%r)" % (k,))
            elif n != dice.suppression_dice(k):
                bad.append("suppression fire at intensity %d rolls %d dice, not %r (T27)"
                           % (k, dice.suppression_dice(k), n))
        if not isinstance(ev.get("hit"), int) or not isinstance(ev.get("protection", 0), int):
            return bad + ["hit and protection must be numbers"]
        if len(faces) != n:
            bad.append("%d dice, not n = %r" % (len(faces), n))
        hits = sum(1 for f in faces if f <= ev.get("hit", 0))
        want("hits", hits)
        p = ev.get("protection", 0)
        want("absorbed", min(hits, p))
        want("damage", max(0, hits - p))
        want("morale", t == "suppress" or hits > p)
    elif t == "morale":
        want("sum", sum(faces))
        want("passed", sum(faces) <= ev.get("steadiness", 0))
    elif t == "counter":
        _check_counter(ev, faces, bad, want)
    else:
        _check_collision(ev, faces, bad, want)
    return bad


def _check_counter(ev, faces, bad, want):
    """T29: the deciding throw differs; TA8: the ties before it, counted and (up to the device's room) listed."""
    if len(faces) != 2:
        bad.append("a counter-attack rolls 2 dice, not %d" % len(faces))
        return
    if faces[0] == faces[1]:
        bad.append("a counter-attack tie is re-rolled (TA8), not reported")
    want("winner", "a" if faces[0] > faces[1] else "b")
    if "ties" not in ev and "tied" not in ev:            # an older log: the deciding faces only
        return
    ties, tied = ev.get("ties"), ev.get("tied")
    if not isinstance(ties, int) or isinstance(ties, bool) or ties < 0:
        bad.append("ties must be the number of tied throws re-rolled, not %r" % (ties,))
    elif not isinstance(tied, list) or not all(isinstance(f, int) and 1 <= f <= 6 for f in tied):
        bad.append("tied must list the faces of the tied throws, not %r" % (tied,))
    elif len(tied) != min(ties, MAX_TIED):
        bad.append("%d ties re-rolled but %d tied faces listed" % (ties, len(tied)))


def _check_collision(ev, faces, bad, want):
    """T39: die + own steadiness; TA9: every unit beating every opposing total moves in."""
    sa, sb = sides(ev)
    if not sa or not sb or not all(isinstance(s, int) and not isinstance(s, bool) for s in sa + sb):
        bad.append("a collision needs each unit's steadiness on both sides (a, b), not %r, %r"
                   % (ev.get("a"), ev.get("b")))
        return
    if len(faces) != len(sa) + len(sb):
        bad.append("a collision of %d + %d units rolls %d dice, not %d" % (len(sa), len(sb), len(sa) + len(sb),
                                                                          len(faces)))
        return
    totals = [f + s for f, s in zip(faces, sa + sb)]
    want("totals", totals)
    enter_a, enter_b = dice.collision_result(totals[:len(sa)], totals[len(sa):])
    if "enter" in ev or len(faces) > 2:
        want("enter", enter_a + [len(sa) + i for i in enter_b])
    want("winner", "a" if enter_a else "b" if enter_b else None)


def lines_for(ev, ring=False):
    out = [describe(ev), "    " + odds_line(ev)]
    bad = check(ev)
    out += ["    WRONG: " + b for b in bad]
    if ring and not bad:
        from osada.tank import ring as tank_ring
        out.append("    ring: " + tank_ring.text(ev))
    return out


def replay(path, out):
    """Print a saved log of rolls with their odds; returns the number of wrong rolls (-1: unreadable)."""
    wrong = 0
    try:
        f = open(path, encoding="utf-8")
    except OSError as exc:
        out.write("osada tank replay: cannot read %s: %s\n" % (path, exc.strerror or exc))
        return -1
    with f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                ev = json.loads(line)
            except ValueError:
                out.write("line %d: not JSON\n" % k)
                wrong += 1
                continue
            if not isinstance(ev, dict) or not is_tank_roll(ev):
                out.write("line %d: not a tank roll\n" % k)
                wrong += 1
                continue
            bad = check(ev)
            wrong += bool(bad)
            try:
                text = lines_for(ev)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                text = ["line %d: incomplete roll (%s)" % (k, exc)] + ["    WRONG: " + b for b in bad]
                wrong += not bad
            out.write("\n".join(["%d. %s" % (k, text[0])] + text[1:]) + "\n")
    return wrong


def cmd_replay(args):
    wrong = replay(args.file, sys.stdout)
    if wrong < 0:
        return 2
    if wrong:
        print("%d roll(s) do not add up" % wrong)
        return 1
    return 0
