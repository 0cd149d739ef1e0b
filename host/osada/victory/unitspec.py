"""Units as players type them in, for `osada victory combat`.

One unit is one line of comma-separated fields, as the card reads:

    NAME, TYPE[/KIND], A/D[, extra]...

TYPE is inf, arm, art or air (or infantry, armour, artillery, aviation; пехота,
бронетехника, артиллерия, авиация); KIND is free text (heavy tank, anti-tank
gun, fighter...: anti-tank artillery stands on the 1st line).  The extras:

    +a/d vs X        a tactical modifier against type or kind X (V27)
    turned           the unit is turned (only a directed attack's target, V23)
    support N        artillery support it gets this wave (V34)
    damage N         damage it has taken earlier this wave (V29)
    bombing N        a bomber's bombing strength (V37)
    line 1|2         its line, for artillery (V17)
    binds NAME       an attacking fighter escorting: it binds that defending fighter (V38)
    intercepts NAME  a defending fighter intercepting that attacking aircraft (V38)
    bombs NAME       a bomber's target, when it is a fighter on its airfield (V38)

A file holds one per line, `att:` or `def:` first, or `target: deck` /
`target: resource`, or `deck: N` (the defender's deck size); `#` starts a comment line.
"""

import re

from osada.files.userfile import UnreadableFile, read_text
from shared_rules.victory.units import Unit

TYPE_WORDS = {"inf": "inf", "infantry": "inf", "пехота": "inf",
              "arm": "arm", "armour": "arm", "armor": "arm", "бронетехника": "arm",
              "art": "art", "artillery": "art", "артиллерия": "art",
              "air": "air", "aviation": "air", "авиация": "air"}
EXTRAS = (
    (re.compile(r"^\+(\d+)/\+?(\d+)\s+vs\.?\s+(.+)$", re.I), "mod"),
    (re.compile(r"^turned$", re.I), "turned"),
    (re.compile(r"^support\s*\+?(\d+)$", re.I), "support"),
    (re.compile(r"^damage\s+(\d+)$", re.I), "damage"),
    (re.compile(r"^bombing\s+(\d+)$", re.I), "bombing"),
    (re.compile(r"^line\s+(\d+)$", re.I), "line"),
    (re.compile(r"^(binds|intercepts|bombs)\s+(.+)$", re.I), "link"),
)
AD = re.compile(r"^(\d+)\s*/\s*(\d+)$")


class SpecError(ValueError):
    """A unit or a line that cannot be read; its text says which and why."""


def unit(text, side):
    """A rules-core Unit from one line of fields (a RuleError if a rule refuses its values)."""
    fields = [f.strip() for f in text.split(",")]
    if len(fields) < 3 or not fields[0]:
        raise SpecError("%r: a unit is NAME, TYPE[/KIND], A/D[, extras] (e.g. 'Тигр, arm/heavy tank, 5/5')" % text)
    name = fields[0]
    utype, _, kind = fields[1].partition("/")
    utype = TYPE_WORDS.get(utype.strip().lower())
    if utype is None:
        raise SpecError("%s: %r is not a type: inf, arm, art or air (V31)" % (name, fields[1]))
    ad = AD.match(fields[2])
    if not ad:
        raise SpecError("%s: %r is not attack/defence like 3/4" % (name, fields[2]))
    kw = {"kind": kind.strip(), "mods": []}
    for extra in fields[3:]:
        _extra(name, extra, kw)
    return Unit(name, side, utype, int(ad.group(1)), int(ad.group(2)), **kw)


def _extra(name, extra, kw):
    for pattern, what in EXTRAS:
        m = pattern.match(extra)
        if not m:
            continue
        if what == "mod":
            kw["mods"].append((m.group(3), int(m.group(1)), int(m.group(2))))
        elif what == "turned":
            kw["turned"] = True
        elif what == "link":
            kw[m.group(1).lower()] = m.group(2).strip()
        else:
            kw[what] = int(m.group(1))
        return
    raise SpecError("%s: cannot read %r (extras: '+a/d vs X', turned, 'support N', 'damage N', 'bombing N', "
                    "'line N', 'binds NAME', 'intercepts NAME', 'bombs NAME')" % (name, extra))


def read_file(path):
    """{"att": [line texts], "def": [...], "target": None|"deck"|"resource", "deck": None|int} of a combat file."""
    try:
        text = read_text(path)
    except UnreadableFile as exc:
        raise SpecError(str(exc)) from None
    out = {"att": [], "def": [], "target": None, "deck": None}
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^(att|def|target|deck)\s*:?\s+(.+)$", line, re.I)
        if not m:
            raise SpecError("%s line %d: %r: a line starts with att:, def:, target: or deck:" % (path, i, line))
        key, value = m.group(1).lower(), m.group(2).strip()
        if key in ("att", "def"):
            out[key].append((value, "%s line %d" % (path, i)))
        elif key == "target":
            if value.lower() not in ("deck", "resource"):
                raise SpecError("%s line %d: the target is deck or resource, not %r" % (path, i, value))
            out["target"] = value.lower()
        else:
            if not value.isdigit():
                raise SpecError("%s line %d: the deck is a number of cards, not %r" % (path, i, value))
            out["deck"] = int(value)
    return out
