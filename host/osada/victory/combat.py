"""`osada victory combat`: one combat of «День Победы» resolved (V26-V30, V37, V38).

Units come as --att/--def options or a file (unitspec.py); the rules are
shared_rules.victory.combat.  For each part of the combat (the ground fight,
a bombing, a dogfight, an interception) it prints the effective values and why,
each side's pool and every maximal set of enemy units it can destroy (the
owner of the pool picks one, V28), then what happens to the cards.  A target
"deck" or "resource" is V30's attack on it.
"""

import json

from osada.victory.layout import fit
from osada.victory.unitspec import unit
from shared_rules.victory import combat
from shared_rules.victory.units import TYPE_WORDS

SIDE_WORDS = {"att": "attacker", "def": "defender"}
HEADS = {
    "ground": "Combat (V26, V28)",
    "ground and bombing": "Combat with bombing (V28, V37: the ground cannot hit the bomber)",
    "bombing": "Bombing (V37: one-way, the ground cannot hit the bomber)",
    "dogfight": "Fighters (V38: escorts and the fighters they bind fight as aviation)",
    "interception": "Interception (V38: the bomber fights as aviation, its bombing unused)",
}


def build(att, dfn):
    """The rules-core units of the --att and --def texts: [(text, where)] each."""
    return [unit(text, side) for side, texts in (("att", att), ("def", dfn)) for text, _ in texts]


def and_list(words):
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _values(f):
    """A unit's effective values in words: "5/4 (+1/1 vs arm: it faces armour only, V27)"."""
    u = f.unit
    if f.zero:
        return "0/0 (a ground unit attacks aviation, V37)"
    if f.bombing:
        return "bombing %d (V37)" % f.attack
    notes = []
    faced = and_list([TYPE_WORDS[t] for t in f.foe_types]) if f.foe_types else "nobody"
    for m in f.mods:
        notes.append("+%d/%d vs %s: it faces %s only, V27" % (m.a, m.d, m.vs, m.vs))
    for m in f.unused:
        notes.append("+%d/%d vs %s unused: it faces %s, V27" % (m.a, m.d, m.vs, faced))
    if u.turned:
        notes.append("turned: attack 0, V23")
    elif u.support:
        notes.append("artillery support +%d, V34" % u.support)
    if u.damage:
        notes.append("%d damage taken this wave, V29" % u.damage)
    return "%d/%d%s" % (f.attack, f.defence, " (%s)" % "; ".join(notes) if notes else "")


def _side_lines(c, part, side):
    """A side's pool, what each enemy unit it can hit needs, and every maximal set it can destroy."""
    res = part.sides[side]
    mine = [n for n in part.names if c.fighters[n].unit.side == side]
    theirs = [n for n in part.names if c.fighters[n].unit.side != side]
    foes = [t for t in theirs if any((n, t) in c.hits for n in mine)]
    who = SIDE_WORDS[side].capitalize()
    if not mine or not theirs:
        return []
    if not foes:
        return ["  %s: none of its units can hit %s (V37)" % (who, and_list(theirs))]
    pool = " + ".join("%s (%d)" % s for s in res.sources)
    needs = ", ".join("%s %d" % (n, c.fighters[n].need) for n in foes)
    head = "  %s's pool %d%s; damage needed: %s" % (who, res.pool, " = %s" % pool if pool else "", needs)
    if res.options == [()]:
        return [head, "    destroys nothing"]
    if len(res.options) == 1:
        return [head, "    destroys %s" % and_list(res.options[0])]
    return [head, "    destroys one of these (the %s picks, V28):" % SIDE_WORDS[side]] + [
        "      %s) %s" % (chr(ord("a") + i), and_list(o)) for i, o in enumerate(res.options)]


def _other(side):
    return "def" if side == "att" else "att"


def _result(c, part):
    """What happens to the cards: destroyed to the losses (V5), the rest turned (V6, V29)."""
    names = part.names
    sure, maybe, picks = [], [], []
    for side in ("att", "def"):
        options = part.sides[side].options
        every = set(options[0]).intersection(*options[1:])
        some = set().union(*options)
        sure += [n for n in names if n in every]
        maybe += [n for n in names if n in some and n not in every]
        if len(options) > 1:
            picks.append("the %s's pick above" % SIDE_WORDS[side])
    alive = [n for n in names if n not in sure and n not in maybe]
    if len(names) == 2 and not maybe:
        if len(sure) == 2:
            return "  Result: both destroyed (mutual destruction, V28): to the losses, face up (V5)."
        if not sure:
            return "  Result: both survive, turned (V6, V28); damage is cleared at the wave's end (V29)."
    bits = ([and_list(sure) + " destroyed"] if sure else []) + picks
    out = "  Result: %s: to the losses, face up (V5)" % ", and ".join(bits) if bits else "  Result: nothing destroyed"
    if maybe:
        out += "; the others survive, turned (V6), damage cleared at the wave's end (V29)"
    elif alive:
        out += "; %s survive%s, turned (V6), damage cleared at the wave's end (V29)" % (
            and_list(alive), "" if len(alive) > 1 else "s")
    return out + "."


def render(c):
    lines = []
    for part in c.parts:
        if part.kind == "untouched":
            n = part.names[0]
            lines.append("%s (%s): untouched, nothing in this combat can hit it." % (
                n, SIDE_WORDS[c.fighters[n].unit.side]))
            continue
        att = [n for n in part.names if c.fighters[n].unit.side == "att"]
        dfn = [n for n in part.names if c.fighters[n].unit.side == "def"]
        lines.append("%s: %s against %s" % (HEADS[part.kind], and_list(att), and_list(dfn)))
        width = max(len(n) for n in part.names)
        for n in part.names:
            f = c.fighters[n]
            lines.append("  %-8s  %-*s  %-9s  %s" % (SIDE_WORDS[f.unit.side], width, n, TYPE_WORDS[f.unit.type],
                                                     _values(f)))
        for side in ("att", "def"):
            lines += _side_lines(c, part, side)
        lines.append(_result(c, part))
    return fit(lines)


def as_json(c):
    parts = []
    for part in c.parts:
        p = {"kind": part.kind, "units": part.names}
        for side in ("att", "def"):
            res = part.sides[side]
            p[SIDE_WORDS[side]] = {"pool": res.pool, "sources": dict(res.sources),
                                   "destroys": [list(o) for o in res.options]}
        parts.append(p)
    units = {}
    for n, f in c.fighters.items():
        units[n] = {"side": SIDE_WORDS[f.unit.side], "type": f.unit.type, "kind": f.unit.kind,
                    "attack": f.attack, "defence": f.defence, "needs": f.need, "bombing": f.bombing,
                    "modifiers_used": ["+%d/%d vs %s" % (m.a, m.d, m.vs) for m in f.mods],
                    "faces": f.foes}
    return json.dumps({"parts": parts, "units": units}, ensure_ascii=False)


def render_target(target, units, deck):
    """V30: an attack on the deck or on a resource card, in words."""
    names = " + ".join("%s (%s)" % (u.name, u.attack if not u.support else "%d + support %d" % (u.attack, u.support))
                       for u in units)
    if target == "resource":
        x, destroyed = combat.resource_attack(units)
        return fit(["Attack on a resource card (V30): %s = %d." % (names, x),
                    "The resource card is destroyed: to the losses, face up (V5)." if destroyed
                    else "Attack 0: the resource card stays (an attack of 1 or more destroys it, VA5)."])
    x, milled, left = combat.deck_attack(units, deck)
    lines = ["Attack on the deck (V30): %s = %d (printed attack and artillery support; "
             "no type modifiers)." % (names, x)]
    if left is None:
        lines.append("The defender puts the top %d cards of his deck into the losses, face up." % x)
    else:
        lines.append("The defender puts the top %d cards of his deck of %d into the losses: %d left%s." % (
            milled, deck, left, " (a shorter deck loses all)" if x > deck else ""))
        if left < 2:
            lines.append("He cannot draw 2 at the start of his turn: he loses (V39).")
    return fit(lines)


def target_json(target, units, deck):
    if target == "resource":
        x, destroyed = combat.resource_attack(units)
        return json.dumps({"target": "resource", "attack": x, "destroyed": destroyed})
    x, milled, left = combat.deck_attack(units, deck)
    return json.dumps({"target": "deck", "attack": x, "milled": milled,
                       "deck_left": left, "loses": left is not None and left < 2})
