"""Who may put damage on whom in one combat: the aviation rules (V37, V38).

V37: aviation's attack and defence count only against aviation; a ground unit
that attacks aviation (on its 2nd line) makes it 0/0 (destroyed, deals
nothing); a bomber deals its bombing strength to what it attacks and the
ground cannot hit it back; fighters never attack ground units (VA7).
V38: a defending untapped fighter that intercepts a bomber cancels its attack
(the two fight as aviation, the bombing unused); an escort binds one defending
fighter, which then fights only escorts; several defenders may take one
escort.  A bomber bombing an airfield names its target ("bombs"), which is
bombed even if it fought an escort and survived.

Units bound by these links form dogfights (groups); everything else is the
combat's main part.  can_hit(s, t) is the rule; Links holds the groups.
"""

from shared_rules.errors import bad


class Links:
    """The dogfight groups of one combat (V38): group[name] = group id, for the linked aviation only."""

    def __init__(self, units):
        by = {u.name: u for u in units}
        bound = {}
        for u in units:
            if u.binds is not None:
                f = by.get(u.binds)
                if f is None or f.side != "def" or not f.fighter():
                    bad("V38", "%s escorts against %r: not a defending fighter in this combat" % (u.name, u.binds))
                if f.turned:
                    bad("V38", "%s is turned: it intercepts nothing, so no escort binds it" % f.name)
                bound.setdefault(f.name, []).append(u.name)
            if u.bombs is not None:
                t = by.get(u.bombs)
                if t is None or t.side != "def":
                    bad("V37", "%s bombs %r: not a defending unit in this combat" % (u.name, u.bombs))
        parent = {}

        def root(n):
            while parent.get(n, n) != n:
                n = parent[n]
            return n
        for f in units:
            if f.intercepts is None:
                continue
            x = by.get(f.intercepts)
            if x is None or x.side != "att" or not x.air():
                bad("V38", "%s intercepts %r: not attacking aviation in this combat" % (f.name, f.intercepts))
        for f in units:
            mates = bound.get(f.name) or ([f.intercepts] if f.intercepts is not None else [])
            for m in mates:                         # bound by an escort: its own interception is void (V38)
                parent.setdefault(f.name, f.name)
                parent.setdefault(m, m)
                parent[root(f.name)] = root(m)
        self.group = {n: root(n) for n in parent}
        self.bound = bound

    def free(self, u):
        return u.name not in self.group

    def intercepted(self, u):
        """True for a bomber an interceptor reached: it fights, its bombing unused (V38)."""
        return u.bomber() and not self.free(u)


def can_hit(s, t, links):
    """True if unit s may put its attack (or bombing) on unit t in this combat (V26, V37, V38)."""
    if s.side == t.side:
        return False
    if s.bombs is not None and links.free(s):
        return t.name == s.bombs                    # a bomber's directed air attack, an airfield included
    gs, gt = links.group.get(s.name), links.group.get(t.name)
    if gs is not None or gt is not None:
        return gs == gt                             # a dogfight: aviation against aviation only
    if s.side == "att":
        if s.ground() or s.bomber():
            return True                             # ground units, or aviation at 0/0; bombing any target
        return t.air()                              # a fighter attacks aviation only (V37, VA7)
    if s.ground():
        return t.ground()                           # the ground cannot hit aviation (V37)
    return t.fighter()                              # defending aviation fights the fighters that attack it
