"""`osada tank watch` and `osada tank replay`: the device's «Кубики» rolls
with their odds beside them, and the session log of rolls.

Every roll the device pushes ({"ev": "roll", "test": ...}, osada_fw/tank/mode.py)
is printed as one line: what was rolled and its result, then the odds of that
result computed exactly by shared_rules.tank.odds ("5 hits: you had a 36.9%
chance of 5 or more").  --log FILE appends each roll as one JSON line;
`osada tank replay FILE` prints a saved log the same way and re-checks every
count (hits, damage, sums, winners) against the faces: exit 1 if one is wrong.

Interactive (a terminal): keys drive the device like its own buttons, through
the protocol's `press` request: ←/→ the encoder, Enter/Space ACTION,
Backspace/b BACK, e the encoder's button, B/E held BACK/encoder, q quits.
They are sent only while the device runs Tank battle (never another game's
action), and after each the device's test and numbers are printed when they
changed, the one the encoder turns in [brackets] (setting_line).
Rule ids: ../shared/spec/tank-battle.md (T12, T16, T20, T21, T27, T29, T39).
"""

import json
import os
import sys
import time

from osada.game_names import game_name
from osada.tank_odds import chance
from osada_fw.tank.mode import MAX_TIED, TESTS, number_names
from shared_rules.tank import dice, odds

_pct = chance                  # a chance as a figure: "36.9%", "impossible", "below 0.05%"


def _a(num, den):
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
            out = "0 hits: %s of none" % _a(counts[0], den)
        else:
            out = "%d hit%s: you had %s of %d or more" % (h, "" if h == 1 else "s",
                                                            _a(odds.at_least(counts, h), den), h)
        p = ev["protection"]
        if p:
            d = ev["damage"]
            any_dmg = _a(odds.at_least(counts, p + 1), den)
            if d:
                out += "; %d damage: %s of %d or more" % (d, _a(odds.at_least(counts, p + d), den), d)
            else:
                out += "; no damage (any damage had %s)" % any_dmg
        return out
    if t == "morale":
        num, den = odds.morale_pass(len(ev["dice"]), ev["steadiness"])
        return "%s: the test passes with %s" % ("passed" if ev["passed"] else "failed", _a(num, den))
    if t == "counter":
        num, den = odds.duel_rerolled(0)
        out = "each side wins a counter-attack with %s (ties re-rolled, T29)" % _a(num, den)
        ties = ev.get("ties")
        if ties:                        # TA8: a tie is 1 throw in 6, so k ties or more: 1/6**k
            out += "; %d tie%s or more first: %s" % (ties, "" if ties == 1 else "s", _a(1, 6 ** ties))
        return out
    if t == "collision":
        sa, sb = sides(ev)
        if len(sa) == len(sb) == 1:
            w, tie, loss = odds.duel(sa[0] - sb[0])
            return "A moves in %s, B %s, both stop %s (T39)" % (_pct(w, 36), _pct(loss, 36), _pct(tie, 36))
        names = unit_names(len(sa), len(sb))
        each = [odds.collision_enter(s, sb if i < len(sa) else sa) for i, s in enumerate(sa + sb)]
        nobody = odds.collision_nobody(sa, sb)
        return "moves in: %s; nobody %s (T39, TA9)" % (
            ", ".join("%s %s" % (names[i], _pct(*each[i])) for i in range(len(names))), _pct(*nobody))
    return ""


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
        from osada import tank_ring
        out.append("    ring: " + tank_ring.text(ev))
    return out


def is_tank_roll(msg):
    return msg.get("ev") == "roll" and "test" in msg


# ------------------------------------------------------------------ watch

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

KEYS = {b"\x1b[C": ("turn", 1), b"\x1b[D": ("turn", -1), b"d": ("turn", 1), b"a": ("turn", -1),
        b"\r": ("action", False), b"\n": ("action", False), b" ": ("action", False),
        b"\x7f": ("back", False), b"\x08": ("back", False), b"b": ("back", False), b"B": ("back", True),
        b"e": ("encoder", False), b"E": ("encoder", True)}


def key_request(key):
    """The `press` request's fields for a key, or None."""
    k = KEYS.get(key)
    if k is None:
        return None
    if k[0] == "turn":
        return {"turn": k[1]}
    return {"button": k[0], "long": k[1]}


class Watcher:
    """Prints the tank rolls of one Link and logs them.  Feed it messages (on_message)."""

    def __init__(self, out, log_path=None):
        self.out = out
        self.log = open(log_path, "a", encoding="utf-8") if log_path else None
        self.rolls = 0
        self.game = None
        self.setting = None            # the last setting_line shown
        self.want_setting = False      # the device's test and numbers are to be asked for and shown

    def on_message(self, msg):
        if msg.get("ev") == "game":
            self.game = msg.get("game")
            self.say("the device now runs %s" % game_name(self.game, short=True))
            self.setting = None
            self.want_setting = self.game == "tank"
        if not is_tank_roll(msg):
            return
        self.rolls += 1
        for line in lines_for(msg, ring=True):
            self.say(line)
        if self.log is not None:
            rec = dict(msg)
            rec["time"] = round(time.time(), 3)
            self.log.write(json.dumps(rec, ensure_ascii=False) + "\n")
            self.log.flush()

    def show_setting(self, st):
        """Print the device's test and numbers when they changed (a key turned the encoder...)."""
        line = setting_line(st)
        if line != self.setting:
            self.setting = line
            self.say("  now: " + line)

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def close(self):
        if self.log is not None:
            self.log.close()
            self.log = None


def watch(link, watcher, switch=False, count=None, seconds=None, keys=None):
    """Mirror the rolls of the connected link until `count` rolls, `seconds`,
    or (keys: a function returning key bytes or None) the key q."""
    hello = link.mirror.hello or {}
    watcher.game = hello.get("game")
    back = None
    if watcher.game != "tank":
        if switch:
            reply = link.request("game", game="tank")
            if not reply.get("ok"):
                watcher.say("could not switch the device to the tank game: %s" % reply.get("error"))
                return 1
            back = watcher.game
            watcher.game = "tank"
        else:
            watcher.say("the device runs %s: its rolls show here once it runs Tank battle, and the keys "
                        "drive it only then (--switch switches it; or the game menu: hold ACTION and BACK)"
                        % game_name(watcher.game, short=True))
    watcher.want_setting = watcher.game == "tank"
    link.on_message = watcher.on_message
    try:
        return _loop(link, watcher, count, seconds, keys)
    finally:
        if back is not None and link.connected:          # --switch is for the session
            try:
                link.request("game", game=back)
            except (OSError, TimeoutError):
                pass


def _loop(link, watcher, count, seconds, keys):
    end = time.monotonic() + seconds if seconds else None
    while count is None or watcher.rolls < count:
        if end is not None and time.monotonic() > end:
            break
        if not link.connected:
            watcher.say("the device went away")
            return 1
        link.poll()
        if keys is not None:
            key = keys()
            if key in (b"q", b"\x03"):
                break
            fields = key_request(key) if key else None
            if fields is not None:
                _press(link, watcher, fields)
        if watcher.want_setting and link.connected:
            _ask_setting(link, watcher)
        time.sleep(0.01)
    return 0


def _press(link, watcher, fields):
    """A key as the device's button -- only while it runs Tank battle: never
    another game's action (the encoder and ACTION mean other things in Siege)."""
    if watcher.game != "tank":
        watcher.say("that key does nothing: the device runs %s, not Tank battle (--switch, or the game "
                    "menu: hold ACTION and BACK)" % game_name(watcher.game, short=True))
        return
    try:
        link.send("press", **fields)
    except OSError:
        return                          # the loop says the device went away
    watcher.want_setting = True


def _ask_setting(link, watcher):
    watcher.want_setting = False
    try:
        reply = link.request("state")
    except (OSError, TimeoutError):
        return
    if reply.get("ok") and isinstance(reply.get("tank"), dict):
        watcher.show_setting(reply["tank"])


def _tty_keys():
    import select
    fd = sys.stdin.fileno()

    def read():
        r, _, _ = select.select([fd], [], [], 0)
        return os.read(fd, 8) if r else None
    return read


def cmd_watch(args):
    from osada import cli
    proc = None
    if args.start_sim and args.port in (None, "auto"):
        from osada import client
        if client.find_device() is None:
            from osada.simproc import SimProcess
            proc = SimProcess()
            proc.start()
            for _ in range(100):
                if client.find_device() is not None:
                    break
                time.sleep(0.1)
    try:
        return cli._device_cmd(lambda a: _watch_args(a))(args)
    finally:
        if proc is not None:
            proc.stop()


def _watch_args(args):
    from osada import cli
    link = cli._open_link(args)
    watcher = Watcher(sys.stdout, args.log)
    interactive = sys.stdin.isatty() and not args.no_keys
    old = None
    try:
        if interactive:
            import termios
            import tty
            old = termios.tcgetattr(sys.stdin.fileno())
            tty.setcbreak(sys.stdin.fileno())
            watcher.say("keys: <- -> change what is in [brackets] (the test, then its numbers) · e next number · "
                        "Backspace previous · Enter roll · B new game turn (protection back, T17) · "
                        "E every number back to its default · q quit")
        return watch(link, watcher, switch=args.switch, count=args.count, seconds=args.seconds,
                     keys=_tty_keys() if interactive else None)
    except KeyboardInterrupt:
        return 0
    finally:
        if old is not None:
            import termios
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, old)
        watcher.close()
        link.close()


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


def add_parsers(tsub, port_help):
    w = tsub.add_parser("watch", help="mirror the device's dice rolls live, with their odds",
                        description="Print every roll of the device's tank mode («Кубики») with the exact "
                                    "odds of its result; keys drive the device's buttons.")
    w.add_argument("--port", default="auto", help=port_help)
    w.add_argument("--log", metavar="FILE", default=None, help="append every roll to FILE (JSON lines)")
    w.add_argument("--switch", action="store_true",
                   help="switch the device to the tank game for the session (and back at the end)")
    w.add_argument("--start-sim", action="store_true", help="start the simulator if no device is found")
    w.add_argument("--count", type=int, default=None, help="stop after this many rolls")
    w.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    w.add_argument("--no-keys", action="store_true", help="do not read keys from the terminal")
    w.set_defaults(func=cmd_watch)
    r = tsub.add_parser("replay", help="print a saved log of rolls with their odds, re-checking each",
                        description="Print a log saved by `osada tank watch --log` with the odds of every "
                                    "roll; exit 1 if a roll's counts do not match its faces.")
    r.add_argument("file", help="the JSON-lines log")
    r.set_defaults(func=cmd_replay)
