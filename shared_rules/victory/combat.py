"""One combat (V26): the units attacking one target and those blocking them.

Effective values (V27): printed attack/defence, plus a tactical modifier only if
every opposing unit the unit fights in this combat is of the modifier's type or
kind; then a turned unit's attack is 0 whatever it is given (V23), artillery
support is added (V34).  Each side sums what its units may put on the enemy
(bombing included, V37) and spreads it at will (V28): a set of enemy units can
be destroyed if the damage each still needs (defence minus damage already taken
this wave, V29) can be covered, each unit's attack going only where air.can_hit
lets it (checked by Hall's condition over the targets' classes).  The owner of
the pool picks among the maximal such sets.  Both sides strike at once.

A combat falls into parts that cannot touch each other (a dogfight of V38, the
ground fight with its bombing, ...): each is resolved on its own.
Attacks on the deck and on a resource card (V30) are deck_attack() and
resource_attack().
"""

from shared_rules.errors import bad
from shared_rules.victory.air import Links, can_hit
from shared_rules.victory.units import SIDES

MAX_A_SIDE = 12                 # units a side in one combat: 2**12 sets to try, no table holds more


class Fighter:
    """A unit's effective values in this combat and why (V27, V23, V34, V37)."""

    def __init__(self, unit, foes, hit_by_ground, bombing):
        self.unit = unit
        self.foes = [f.name for f in foes]       # the enemy units it fights in this combat
        self.foe_types = sorted({f.type for f in foes})
        self.mods = [m for m in unit.mods if foes and all(f.is_a(m.vs) for f in foes)]
        self.unused = [m for m in unit.mods if m not in self.mods]
        self.zero = hit_by_ground and unit.air()     # V37: 0/0 against a ground attacker
        self.bombing = bombing                       # V37: a free bomber deals its bombing, nothing else
        self.attack = unit.attack + sum(m.a for m in self.mods)
        self.defence = unit.defence + sum(m.d for m in self.mods)
        if self.zero:
            self.attack = self.defence = 0
        elif bombing:
            self.attack = unit.bombing
        elif unit.turned:
            self.attack = 0                          # V23: a turned unit's attack stays 0
        else:
            self.attack += unit.support              # V34
        self.need = max(0, self.defence - unit.damage)


class SideResult:
    """What one side does to the enemy in one part: its pool and the maximal sets it can destroy."""

    def __init__(self, side, sources, options):
        self.side = side
        self.sources = sources            # [(name, attack or bombing it puts in)], those with something to give
        self.pool = sum(v for _, v in sources)
        self.options = options            # [tuple of enemy names], every maximal set; [()] if none can die


class Part:
    """Units that fight only each other (a connected part of the combat)."""

    def __init__(self, names, kind):
        self.names = names
        self.kind = kind                  # "ground", "dogfight", "interception", "untouched", ...
        self.sides = {}


class Combat:
    """The resolution of one combat.  units: [Unit], both sides."""

    def __init__(self, units):
        units = list(units)
        check_units(units)
        self.units = units
        self.links = Links(units)
        self.hits = {(s.name, t.name) for s in units for t in units if can_hit(s, t, self.links)}
        check_shape(units, self.links, self.hits)
        self.fighters = {}
        for u in units:
            foes = [v for v in units if (u.name, v.name) in self.hits or (v.name, u.name) in self.hits]
            by_ground = any(v.ground() and (v.name, u.name) in self.hits for v in units)
            bombing = u.bomber() and self.links.free(u)
            self.fighters[u.name] = Fighter(u, foes, by_ground, bombing)
        self.parts = [self._part(names) for names in _parts(units, self.hits)]

    def _part(self, names):
        part = Part(names, _kind([u for u in self.units if u.name in names], self.links, self.fighters))
        for side in SIDES:
            mine = [n for n in names if self.fighters[n].unit.side == side]
            theirs = [n for n in names if self.fighters[n].unit.side != side]
            sources = [(n, self.fighters[n].attack) for n in mine
                       if self.fighters[n].attack and any((n, t) in self.hits for t in theirs)]
            part.sides[side] = SideResult(side, sources, self.maximal(sources, theirs))
        return part

    def maximal(self, sources, targets):
        """Every maximal set of `targets` the sources can destroy together (V28), in the targets' order."""
        need = [self.fighters[t].need for t in targets]
        by = [frozenset(s for s, _ in sources if (s, t) in self.hits) for t in targets]
        value = dict(sources)
        classes = sorted(set(by), key=sorted)
        n = len(targets)
        ok = [False] * (1 << n)
        for mask in range(1 << n):
            ok[mask] = _covered(mask, need, by, classes, value)
        out = []
        for mask in range(1 << n):
            if ok[mask] and all(mask >> i & 1 or not ok[mask | 1 << i] for i in range(n)):
                out.append(tuple(targets[i] for i in range(n) if mask >> i & 1))
        return sorted(out, key=lambda names: [targets.index(x) for x in names])


def _covered(mask, need, by, classes, value):
    """Hall's condition: every union of target classes in the set needs no more
    than the attack of the sources that may hit it."""
    total = {}
    for i in range(len(need)):
        if mask >> i & 1:
            total[by[i]] = total.get(by[i], 0) + need[i]
    present = [c for c in classes if c in total]
    for pick in range(1, 1 << len(present)):
        chosen = [present[j] for j in range(len(present)) if pick >> j & 1]
        wanted = sum(total[c] for c in chosen)
        reach = set()
        for c in chosen:
            reach |= c
        if wanted > sum(value[s] for s in reach):
            return False
    return True


def _parts(units, hits):
    """The connected parts of the combat under `hits`, each a list of names in input order."""
    seen, out = set(), []
    for u in units:
        if u.name in seen:
            continue
        part, todo = [], [u.name]
        seen.add(u.name)
        while todo:
            n = todo.pop()
            part.append(n)
            for v in units:
                if v.name not in seen and ((n, v.name) in hits or (v.name, n) in hits):
                    seen.add(v.name)
                    todo.append(v.name)
        order = [v.name for v in units]
        out.append(sorted(part, key=order.index))
    return out


def _kind(units, links, fighters):
    if len(units) == 1:
        return "untouched"
    if any(links.intercepted(u) for u in units):
        return "interception"
    if all(u.air() for u in units) and not any(fighters[u.name].bombing for u in units):
        return "dogfight"
    if any(fighters[u.name].bombing for u in units):
        return "bombing" if all(u.air() or u.side == "def" for u in units) else "ground and bombing"
    return "ground"


def check_units(units, sides=SIDES):
    """Names apart, the `sides` each given, at most MAX_A_SIDE a side, one turned unit at most (V21, V26)."""
    names = [u.name for u in units]
    for n in names:
        if names.count(n) > 1:
            bad("V26", "two units are named %r: name them apart (e.g. %s 1, %s 2)" % (n, n, n))
    for side in sides:
        count = sum(1 for u in units if u.side == side)
        if not count:
            bad("V26", "a combat has units on both sides (no %s given)" % ("attacker" if side == "att" else "defender"))
        if count > MAX_A_SIDE:
            bad("V26", "this tool resolves at most %d units a side in one combat (got %d)" % (MAX_A_SIDE, count))
    turned = [u.name for u in units if u.turned]
    if len(turned) > 1:
        bad("V21", "%s are turned: a turned unit neither blocks nor supports; only the target of a directed "
                   "attack may be turned (V23)" % " and ".join(turned))


def check_shape(units, links, hits):
    """The combat's shape: every attacker has something to attack (V26, V37); a 2nd-line
    unit fights only when it is itself the target, unsupported (V22)."""
    for u in units:
        if u.side == "att" and not any((u.name, t.name) in hits for t in units):
            if u.fighter():
                bad("V37", "%s is a fighter: it attacks aviation only, or escorts (binds an enemy fighter, V38)"
                    % u.name)
            bad("V26", "%s has nothing to attack in this combat" % u.name)
    main = [u for u in units if u.side == "def" and links.free(u)]
    rear = [u.name for u in main if u.line == 2]
    if rear and len(main) > 1:
        bad("V22", "%s on the 2nd line: a 2nd-line unit blocks only when attacked itself, and 1st-line units "
                   "support only on the 1st line; a defending fighter joins by intercepting (V38)"
            % " and ".join(rear))


def attack_strength(units, what):
    """V30: the summed attack of broken-through ground units (printed attack plus
    artillery support; no type modifiers: there is no opposing unit)."""
    if not units:
        bad("V30", "an attack on the %s needs attacking units" % what)
    for u in units:
        if u.side != "att":
            bad("V30", "%s: the %s has no defenders: give attackers only" % (u.name, what))
        if u.air():
            bad("V30", "%s: aviation attacks neither the deck nor resources, only broken-through ground units "
                       "do (VA5, V24)" % u.name)
    check_units(units, ("att",))
    return sum(u.attack + u.support for u in units)


def deck_attack(units, deck=None):
    """V30: (X, cards milled, deck left or None).  The owner puts the top X cards
    into the losses, X the attackers' summed attack; a shorter deck loses all."""
    x = attack_strength(units, "deck")
    if deck is None:
        return x, x, None
    if not isinstance(deck, int) or isinstance(deck, bool) or deck < 0:
        bad("V30", "the deck holds a whole number of cards >= 0 (got %r)" % (deck,))
    return x, min(x, deck), max(0, deck - x)


def resource_attack(units):
    """V30, VA5: (summed attack, destroyed?): a resource card is destroyed by an attack of 1 or more."""
    x = attack_strength(units, "resource")
    return x, x >= 1
