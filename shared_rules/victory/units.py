"""A unit as the players type it in from its card (V31): type, kind, attack
and defence, tactical modifiers (V27), its line (V17), and its state in this
combat: turned (V6, V23), artillery support received (V34), damage already
taken this wave (V29), bombing strength (V37), the air links of V38.

Every value is checked here; a wrong one is a RuleError naming the rule.
"""

from shared_rules.errors import bad

TYPES = ("inf", "arm", "art", "air")           # V31: infantry, armour, artillery, aviation (card colour)
TYPE_WORDS = {"inf": "infantry", "arm": "armour", "art": "artillery", "air": "aviation"}
SIDES = ("att", "def")                         # the attacking side and the defending side of one combat
AT_KINDS = ("anti-tank", "противотанк")        # V17: anti-tank artillery stands on the 1st line


def whole(v, what, lo=0):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        bad("V31", "%s must be a whole number >= %d (got %r)" % (what, lo, v))
    return v


class Modifier:
    """V27: +a/+d while every opposing unit in the combat is of type or kind `vs`."""

    def __init__(self, vs, a, d):
        if not isinstance(vs, str) or not vs.strip():
            bad("V27", "a tactical modifier names the type or kind it works against")
        self.vs = vs.strip().lower()
        self.a = whole(a, "a modifier's attack", 0)
        self.d = whole(d, "a modifier's defence", 0)


class Unit:
    """One unit card in one combat.  `side` is "att" or "def"."""

    def __init__(self, name, side, utype, attack, defence, kind="", mods=(), turned=False, support=0,
                 damage=0, bombing=0, line=None, binds=None, intercepts=None, bombs=None):
        if not isinstance(name, str) or not name.strip():
            bad("V31", "a unit needs a name")
        self.name = name.strip()
        if side not in SIDES:
            bad("V26", "%s: a unit is on the attacking or the defending side, not %r" % (self.name, side))
        if utype not in TYPES:
            bad("V31", "%s: the type is one of %s (got %r)" % (self.name, ", ".join(TYPES), utype))
        self.side, self.type, self.kind = side, utype, (kind or "").strip()
        self.attack = whole(attack, "%s's attack" % self.name)
        self.defence = whole(defence, "%s's defence" % self.name, 1)
        self.mods = [m if isinstance(m, Modifier) else Modifier(*m) for m in mods]
        self.turned = bool(turned)
        self.support = whole(support, "%s's artillery support" % self.name)
        self.damage = whole(damage, "%s's damage taken this wave" % self.name)
        self.bombing = whole(bombing, "%s's bombing strength" % self.name)
        self.binds, self.intercepts, self.bombs = binds, intercepts, bombs
        self.line = self._line(line)
        self._check_state()

    def _line(self, line):
        """V17: the card's line; infantry and armour 1st, aviation 2nd, artillery 2nd unless anti-tank."""
        default = 1 if self.type in ("inf", "arm") or (self.type == "art" and self.anti_tank()) else 2
        if line is None:
            return default
        if line not in (1, 2):
            bad("V17", "%s: a unit stands on line 1 or 2 (got %r)" % (self.name, line))
        if self.type != "art" and line != default:
            bad("V17", "%s: %s stands on the %s line" % (self.name, TYPE_WORDS[self.type],
                                                         "1st" if default == 1 else "2nd"))
        return line

    def _check_state(self):
        n = self.name
        if self.turned and self.side == "att":
            bad("V6", "%s is turned: a turned unit cannot attack" % n)
        if self.support and (self.line != 1 or self.air()):
            bad("V34", "%s: artillery support goes to a 1st-line unit only" % n)
        if self.bombing and self.type != "air":
            bad("V37", "%s: only aviation has a bombing strength" % n)
        if self.type == "air" and not self.bombing and "bomber" in self.kind.lower():
            bad("V37", "%s is a bomber: give its bombing strength from the card" % n)
        if self.binds is not None and (self.side != "att" or not self.fighter()):
            bad("V38", "%s: only an attacking fighter escorts (binds an enemy fighter)" % n)
        if self.intercepts is not None and (self.side != "def" or not self.fighter()):
            bad("V38", "%s: only a defending fighter intercepts" % n)
        if self.intercepts is not None and self.turned:
            bad("V38", "%s is turned: only an untapped fighter intercepts" % n)
        if self.bombs is not None and not self.bomber():
            bad("V37", "%s: only a bomber bombs" % n)
        if self.side == "att" and self.line == 2 and not self.air():
            bad("V19", "%s: a 2nd-line unit other than aviation never attacks" % n)

    def anti_tank(self):
        kind = self.kind.lower()
        return any(w in kind for w in AT_KINDS) or kind in ("at", "at gun")

    def air(self):
        return self.type == "air"

    def bomber(self):
        return self.type == "air" and self.bombing > 0

    def fighter(self):
        return self.type == "air" and not self.bombing

    def ground(self):
        return self.type != "air"

    def is_a(self, vs):
        """True if this unit is of type or kind `vs` (V31: a modifier names either)."""
        return vs == self.type or vs == TYPE_WORDS[self.type] or vs == self.kind.lower()
