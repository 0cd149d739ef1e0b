# The tracker's events (spec (a)): their one shape (a dict of short keys), the
# check of that shape, and their text form, one line each, for the saved game
# and the players:
#
#   p1 draw [TYPE,TYPE,TYPE]      the round's draw (the coins: an entered player's only)
#   p1 deploy TYPE                p1 bolster TYPE[#K]
#   p1 initiative [coin=TYPE]     p1 recruit TYPE [coin=TYPE]      p1 pass [coin=TYPE]
#   p1 move TYPE[#K] [free]       p1 control TYPE[#K] [taken] [free]
#   p1 attack TYPE[#K] p2:TYPE[#K] [free]                            p1 tactic TYPE[#K] [coin=royal] [free]
#   p1 priest_draw [TYPE]         p1 berserker_pay
#
# Players are p1..p4 in the text and 0..3 in the dict; #K is a footman's unit
# (1 or 2; the dict's u is 0-based); `free` is a maneuver no coin pays (a
# tactic's, a property's: W23, W30); `taken` is control of a location the
# enemy held (W20); coin= is the coin discarded face down (W12) by a player
# whose coins are entered, or the royal coin paying the royal guard's tactic
# (W13).

from shared_rules.errors import bad

DOWN = ("initiative", "recruit", "pass")                  # W12: face down
PLACE = ("deploy", "bolster")                             # W12: onto the board
MANEUVERS = ("move", "control", "attack", "tactic")       # W12: face up
HAND = PLACE + DOWN + MANEUVERS                           # the 9 actions: a coin from the hand each
OPS = ("draw",) + HAND + ("priest_draw", "berserker_pay")


def _word(v, what):
    if not isinstance(v, str) or not v:
        bad("format", "%s must be a name (got %r)" % (what, v))
    return v


def _flag(ev, k):
    v = ev.get(k, 0)
    if v not in (0, 1, True, False):
        bad("format", "%s must be 0 or 1 (got %r)" % (k, v))
    return 1 if v else 0


def _index(ev, k):
    v = ev.get(k, 0)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 1:
        bad("format", "a unit is #1 or #2 (got %r)" % (v,))
    return v


def _coins(ev):
    v = ev.get("coins")
    if v is None:
        return None
    if not isinstance(v, (list, tuple)):
        bad("format", "coins must be a list of types")
    return [_word(t, "a coin") for t in v]


def check(ev, players):
    """The event `ev` in its one shape (a new dict), or RuleError("format")."""
    if not isinstance(ev, dict):
        bad("format", "an event is a dict")
    op = ev.get("e")
    if op not in OPS:
        bad("format", "no event %r (the events: %s)" % (op, ", ".join(OPS)))
    p = ev.get("p")
    if not isinstance(p, int) or isinstance(p, bool) or p < 0 or p >= players:
        bad("format", "the player must be 1..%d" % players)
    out = {"e": op, "p": p}
    if op in ("draw", "priest_draw"):
        out["coins"] = _coins(ev)
    if op in HAND and op not in ("initiative", "pass"):
        out["t"] = _word(ev.get("t"), "the unit type")
    if op in ("bolster",) + MANEUVERS:
        out["u"] = _index(ev, "u")
    if op in MANEUVERS:
        out["free"] = _flag(ev, "free")
    if op in DOWN or op == "tactic":
        c = ev.get("coin")
        out["coin"] = None if c is None else _word(c, "the coin")
    if op == "control":
        out["taken"] = _flag(ev, "taken")
    if op == "attack":
        q = ev.get("q")
        if not isinstance(q, int) or isinstance(q, bool) or q < 0 or q >= players:
            bad("format", "the attacked unit's player must be 1..%d" % players)
        out["q"] = q
        out["y"] = _word(ev.get("y"), "the attacked unit's type")
        out["yu"] = _index(ev, "yu")
    return out


# ---------------------------------------------------------------- text


def _unit_text(t, u):
    return t if not u else "%s#%d" % (t, u + 1)


def text(ev):
    """One event as its line: "p1 attack cavalry p2:pikeman"."""
    op = ev["e"]
    parts = ["p%d" % (ev["p"] + 1), op]
    if op in ("draw", "priest_draw"):
        if ev.get("coins") is not None:
            parts.append(",".join(ev["coins"]))
    elif "t" in ev:
        parts.append(_unit_text(ev["t"], ev.get("u", 0)))
    if op == "attack":
        parts.append("p%d:%s" % (ev["q"] + 1, _unit_text(ev["y"], ev.get("yu", 0))))
    if ev.get("coin") is not None:
        parts.append("coin=" + ev["coin"])
    if ev.get("taken"):
        parts.append("taken")
    if ev.get("free"):
        parts.append("free")
    return " ".join(parts)


def _unit(word):
    """"footman#2" -> ("footman", 1)."""
    bits = word.split("#")
    if len(bits) == 1:
        return word, 0
    if len(bits) != 2 or bits[1] not in ("1", "2"):
        bad("format", "a unit is TYPE or TYPE#1 / TYPE#2, not %r" % word)
    return bits[0], int(bits[1]) - 1


def _player(word):
    if len(word) != 2 or word[0] != "p" or word[1] not in "1234":
        bad("format", "a player is p1..p4, not %r" % word)
    return int(word[1]) - 1


def parse(line, players):
    """The event of a line (text()'s form), checked for shape."""
    words = line.split()
    if len(words) < 2:
        bad("format", "an event is a player and what he did (e.g. \"p1 deploy archer\"), not %r" % line)
    ev = {"p": _player(words[0]), "e": words[1]}
    rest = []
    for w in words[2:]:
        if w == "free" or w == "taken":
            ev[w] = 1
        elif w.startswith("coin="):
            ev["coin"] = w[5:]
        else:
            rest.append(w)
    op = ev["e"]
    want = 2 if op == "attack" else (0 if op in ("pass", "initiative", "berserker_pay")
                                     or (op in ("draw", "priest_draw") and not rest) else 1)
    if len(rest) != want:
        bad("format", "%r: %s takes %d word%s after it" % (line, op, want, "" if want == 1 else "s"))
    if op in ("draw", "priest_draw"):
        if rest:
            ev["coins"] = rest[0].split(",")
    elif rest:
        ev["t"], ev["u"] = _unit(rest[0])
    if op == "attack":
        target = rest[1].split(":")
        if len(target) != 2:
            bad("format", "the attacked unit is PLAYER:TYPE, e.g. p2:pikeman, not %r" % rest[1])
        ev["q"] = _player(target[0])
        ev["y"], ev["yu"] = _unit(target[1])
    return check(ev, players)
