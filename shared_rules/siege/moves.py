# What the enemy side does on its own, after the players' plays: the enemies'
# moves (R20-R26) and the damage they deal to walls, dots and buildings
# (R21-R25, queued as the game's tasks), the tokens revealed from the pool or
# played by the marshal (R30-R35), and the He-111's flight (R40-R42).
# Functions of the Game they are given (engine.py's turn machine and the
# reveal play call them); what they change is the game's own state.

from shared_rules.siege.catalog import (
    AIR,
    ARTILLERY,
    C_BOMBER,
    C_SPECIAL,
    CITY,
    KIND_ARMOR,
    KIND_CLASS,
    KIND_IDS,
    MOVE_COLOR,
    REAR,
    REVEAL_MORE,
    SECTOR_COLOR,
    TANK,
    ccw,
    cw,
    opposite,
)

# -------------------------------------------------------------- movement


def step(g, color, cause):
    """R20-R25: every enemy (of `color`'s sectors, or all if None) not under
    the hedgehog moves one step at the same time."""
    walls = g.walls
    attack = None        # per sector: enemies attacking its wall (R21)
    enter = None         # per sector: enemies entering its city cell (R22/R23)
    held = g.hedgehog
    n = 0
    for e in g.enemies:
        if e.id == held or (color is not None and SECTOR_COLOR[e.sector] != color):
            continue
        n += 1
        line = e.line
        if line < TANK:
            e.line = line + 1
        elif line == TANK:
            s = e.sector
            if walls[s]:
                attack = _group(attack, s, e.id)
            else:
                e.line = CITY
                enter = _group(enter, s, e.id)
        else:
            s = e.sector % 6 + 1
            e.sector = s
            enter = _group(enter, s, e.id)
    g.events.append({"ev": "move", "cause": cause, "count": n})
    _collide(g, attack, enter)


def _rotate(g, d, cause):
    """R26: every enemy not under the hedgehog moves one sector clockwise
    (d=1) or counter-clockwise (d=-1) in its own line."""
    enter = None
    held = g.hedgehog
    n = 0
    for e in g.enemies:
        if e.id == held:
            continue
        n += 1
        s = cw(e.sector) if d > 0 else ccw(e.sector)
        e.sector = s
        if e.line == CITY:
            enter = _group(enter, s, e.id)
    g.events.append({"ev": "move", "cause": cause, "count": n})
    _collide(g, None, enter)


def _group(groups, s, eid):
    """Add enemy eid to sector s's group (R21 attackers, R23 entrants):
    groups is None until the first one, then a list of 7 (index = sector)."""
    if groups is None:
        groups = [None] * 7
    if groups[s] is None:
        groups[s] = [eid]
    else:
        groups[s].append(eid)
    return groups


def _collide(g, attack, enter):
    """Walls (R21) and buildings (R23) met by a move; queue the damage."""
    if attack is not None:
        for s in range(1, 7):
            ids = attack[s]
            if ids is not None:
                g.tasks.append([_breach(g, s, "enemy"), s, ids])
    if enter is not None:
        for s in range(1, 7):
            ids = enter[s]
            if ids is None or not g.buildings[s]:
                continue
            g.tasks.append(["building", s, ids])
            g.lose_building(s, "enemy")
        g.check_lost()


def next_task(g):
    """Apply queued damage (R21, R23) until a choice is needed (R25).
    Returns True when it stopped on a pending choice."""
    while g.tasks:
        cause, s, ids = g.tasks[0]
        cands = []
        for eid in ids:
            e = g.enemy(eid)
            if e is not None:
                cands.append(e)
        if len(cands) > 1:
            k = cands[0].kind
            a = cands[0].armor
            for e in cands:
                if e.kind != k or e.armor != a:
                    g.pending = {"choice": "damage", "candidates": [e.id for e in cands],
                                 "cause": cause, "sector": s}
                    return True
        g.tasks.pop(0)
        if cands:
            g.damage(cands[0], cause)    # one candidate, or all alike: lowest id
    return False

# ---------------------------------------------------------------- tokens


def reveal_from_pool(g):
    """R30/R35: draw the top token and resolve it; an empty pool reveals nothing."""
    g.reveals -= 1
    if not g.pool:
        g.reveals = 0
        g.events.append({"ev": "pool_empty"})
        return
    resolve(g, g.pool.pop(), 0, False)


def resolve(g, k, sector, from_hand):
    """Resolve one token (R31-R34, R40; R60 for the marshal's own tokens)."""
    cls = KIND_CLASS[k]
    name = KIND_IDS[k]
    if cls <= C_SPECIAL:                                  # R31
        s = sector or g.roll()
        e = g.place(k, s, REAR, 0)
        g.events.append({"ev": "reveal", "kind": name, "sector": s, "enemy": e.id})
        if name == "pz2h":                                  # R32
            g.reveals += 3
        elif name == "pz4h":
            step(g, SECTOR_COLOR[s], name)
        elif name == "maus":
            step(g, None, name)
        elif name == "panther":
            n = 0
            for x in g.enemies:
                if x.armor < KIND_ARMOR[x.kind]:
                    x.armor += 1
                    n += 1
            g.events.append({"ev": "repaired", "count": n})
        return
    g.discard.append(k)
    if cls == C_BOMBER:                                   # R40
        s = g.roll()
        g.events.append({"ev": "reveal", "kind": name, "sector": s})
        _bomb(g, s)
        return
    g.events.append({"ev": "reveal", "kind": name})
    color = MOVE_COLOR.get(name)
    if color is not None:                                 # R33
        step(g, color, name)
    elif name == "move_cw":                                      # R26
        _rotate(g, 1, name)
    elif name == "move_ccw":
        _rotate(g, -1, name)
    elif name in REVEAL_MORE:
        n = REVEAL_MORE[name]
        if from_hand:                                     # R60
            from shared_rules.siege import marshal
            marshal.draw(g, n)
            g.marshal_extra += n
        else:                                             # R30
            g.reveals += n
    # sabotage_* and discard_one: announced only (R34)

# ---------------------------------------------------------------- He-111


def _bomb(g, s):
    """R40-R42: the bomber's straight path from outside s through o."""
    o = opposite(s)
    killed = []
    ev = {"ev": "he111", "sector": s, "destroyed": killed, "stop": None}
    g.events.append(ev)        # filled in below, so it reads before its effects
    for line in (REAR, AIR, ARTILLERY, TANK):
        _bomb_cell(g, s, line, killed)
    # the first of these that stops it: [what, sector]
    stop = _bomb_wall(g, s) or _bomb_city(g, s, killed) or _bomb_city(g, o, killed) or _bomb_wall(g, o)
    if stop is None:
        for line in (TANK, ARTILLERY, AIR, REAR):
            _bomb_cell(g, o, line, killed)
        return
    ev["stop"], ev["at"] = stop
    if stop[0] == "building":
        g.lose_building(stop[1], "he111")
        g.check_lost()


def _bomb_cell(g, s, line, killed):
    enemies = g.enemies
    i = 0
    while i < len(enemies):
        e = enemies[i]
        if e.sector == s and e.line == line:
            killed.append(e.id)
            g.destroy(e, "he111")
        else:
            i += 1


def _bomb_wall(g, s):
    if g.walls[s]:
        return [_breach(g, s, "he111"), s]
    return None


def _bomb_city(g, s, killed):
    if g.buildings[s]:
        return ["building", s]
    _bomb_cell(g, s, CITY, killed)
    return None


def _breach(g, s, cause):
    """Sector s's wall is hit (R21, R41): its dot is destroyed if it has
    one, else the wall.  Returns which ("dot" or "wall")."""
    if g.dots[s]:
        g.dots[s] = 0
        g.events.append({"ev": "dot_destroyed", "sector": s, "cause": cause})
        return "dot"
    g.walls[s] = 0
    g.events.append({"ev": "wall_destroyed", "sector": s, "cause": cause})
    return "wall"
