"""The forecast's compact public state and what the enemy phase does to it.

Everything here works on small ints and tuples, never on engine objects
("no engine object copied", spec §8), and follows what shared_rules/siege/moves.py
does, rule for rule:

  board   one int: walls in bits 0-5, dots in bits 6-11, buildings in bits
          12-17 (bit s for sector s+1).  A target's field in the forecast's
          vector is the same bit number (search.py), so the targets a move
          destroyed are `before & ~after`.
  cells   line * 6 + sector index (0-5): rear 0-5, air 6-11, artillery
          12-17, tank 18-23, city 24-29.
  groups  {cell: group}: the enemies of one cell move together (F5).  A group
          is its summed armor (an int) where no panther's repair can matter
          (F9 d; reduce.py), or the sorted tuple of its members' codes,
          armor * 4 + full armor; a tuple merged with a sum is a sum.
  tokens  kinds as the forecast needs them (KIND_OF): sabotage_* and
          discard_one are one blank kind (F9 a).

step() is R20-R25 (phase 5, move_<colour>, pz4h, maus), rotate() is R26,
bomb() R40-R42, repaired() the panther (R32).  A move's damage choices
(R25) come back as every distinct outcome; which targets fall and whether
the game is lost (R50, R62) never depend on them (F5).
"""

from shared_rules.siege.catalog import KIND_ARMOR, KIND_IDS, kind_index

REAR, AIR, ARTILLERY, TANK, CITY = 0, 1, 2, 3, 4

# the forecast's token kinds; 0-12 are drawn as they come, 13-15 lengthen the chain
BLANK, SDKFZ, PZ3, TIGER, PZ4H, MAUS, PANTHER, HE111 = 0, 1, 2, 3, 4, 5, 6, 7
MOVE_RED, MOVE_GREEN, MOVE_BLUE, MOVE_CW, MOVE_CCW = 8, 9, 10, 11, 12
PZ2H, REVEAL3, REVEAL4 = 13, 14, 15
NKINDS = 16
PLAIN = 13                     # kinds 0..12: drawn and resolved, the chain not lengthened
EXTRA = {PZ2H: 3, REVEAL3: 3, REVEAL4: 4}    # R30, R32: tokens each adds to the queue
PLACED = (SDKFZ, PZ3, TIGER, PZ4H, MAUS, PANTHER, PZ2H)      # kinds placed by a die roll (R31)

KIND_OF = {
    "sdkfz": SDKFZ, "pz3": PZ3, "tiger": TIGER, "pz2h": PZ2H, "pz4h": PZ4H, "maus": MAUS,
    "panther": PANTHER, "he111": HE111, "move_red": MOVE_RED, "move_green": MOVE_GREEN,
    "move_blue": MOVE_BLUE, "move_cw": MOVE_CW, "move_ccw": MOVE_CCW, "sabotage_air": BLANK,
    "sabotage_artillery": BLANK, "sabotage_tank": BLANK, "discard_one": BLANK,
    "reveal3": REVEAL3, "reveal4": REVEAL4,
}
assert sorted(KIND_OF) == sorted(KIND_IDS)       # every kind of the catalogue, and no other


def _full():
    full = [0] * NKINDS
    for name, k in KIND_OF.items():
        if k in PLACED:
            full[k] = KIND_ARMOR[kind_index(name)]
    return tuple(full)


FULL = _full()                 # full armor of the placed kinds, from the catalogue's one table

COLOR_SECTORS = (0b000011, 0b001100, 0b110000)    # red 1-2, green 3-4, blue 5-6 (sector bits)
ALL_SECTORS = 0b111111
LINE_NAMES = ("rear", "air", "artillery", "tank", "city")


def sectors_bits(sectors):
    """[1, 3] -> 0b101."""
    bits = 0
    for s in sectors:
        bits |= 1 << (s - 1)
    return bits


def code(armor, full):
    """A member of a group: its armor and its full armor (the panther's ceiling)."""
    return armor * 4 + full


def total_armor(group):
    """A group's summed armor, whichever form it has."""
    if isinstance(group, int):
        return group
    return sum(c >> 2 for c in group)


def to_sums(groups):
    """The groups with each member's armor summed (no panther can matter: F9 d)."""
    return {c: total_armor(g) for c, g in groups.items()}


# ------------------------------------------------------------------ moves


def _merge(a, b):
    if a is None:
        return b
    if isinstance(a, int) or isinstance(b, int):
        return total_armor(a) + total_armor(b)
    return tuple(sorted(a + b))


def _damaged(group):
    """Every distinct group after one of its members takes 1 damage (R21, R23,
    R25); None for a group that is gone."""
    if isinstance(group, int):
        return (group - 1 or None,)
    out = []
    for i, c in enumerate(group):
        if i and c == group[i - 1]:
            continue                      # alike members: the same outcome
        rest = group[:i] + group[i + 1:]
        if c >= 8:
            rest = tuple(sorted(rest + (c - 4,)))
        out.append(rest or None)
    return out


def step(board, groups, sectors):
    """R20-R25: every group in `sectors` (bits) steps once, all at the same
    time.  Returns (board, [groups, ...]): one groups dict per distinct way
    of assigning the damage (R25), the first when there is no choice."""
    walls = board & 63
    dots = (board >> 6) & 63
    blds = board >> 12
    out = {}
    hurt = []                 # [cell, group]: groups owing 1 damage, kept apart until it is dealt
    enter = {}
    for c, g in groups.items():
        s = c % 6
        if not (sectors >> s) & 1:
            out[c] = _merge(out.get(c), g)
        elif c < 18:                                   # rear, air, artillery: one line in (R20)
            out[c + 6] = _merge(out.get(c + 6), g)
        elif c < 24:                                   # the tank line
            bit = 1 << s
            if walls & bit:                            # R21: the wall (or its dot) falls, they stay
                if dots & bit:
                    dots ^= bit
                else:
                    walls ^= bit
                hurt.append([c, g])
            else:                                      # R22: into the city
                enter[s] = _merge(enter.get(s), g)
        else:                                          # in the city: one cell clockwise
            s2 = s + 1 if s < 5 else 0
            enter[s2] = _merge(enter.get(s2), g)
    for s, g in enter.items():
        if (blds >> s) & 1:                            # R23: the building falls, one of them is hurt
            blds ^= 1 << s
            hurt.append([24 + s, g])
        else:
            out[24 + s] = _merge(out.get(24 + s), g)
    board = walls | dots << 6 | blds << 12
    return board, _deal(out, hurt)


def _deal(out, hurt):
    if not hurt:
        return [out]
    if all(isinstance(g, int) for _c, g in hurt):
        for c, g in hurt:
            if g > 1:
                out[c] = _merge(out.get(c), g - 1)
        return [out]
    results = [out]
    for c, g in hurt:
        options = _damaged(g)
        nxt = []
        for res in results:
            for opt in options:
                r = dict(res) if len(options) > 1 else res
                if opt is not None:
                    r[c] = _merge(r.get(c), opt)
                nxt.append(r)
        results = nxt
    return results


def rotate(board, groups, d):
    """R26: every group one sector clockwise (d=1) or counter-clockwise (d=5),
    in its own line; in the city, entering a building's cell is R23."""
    blds = board >> 12
    out = {}
    hurt = []
    for c, g in groups.items():
        s = c % 6
        s2 = (s + d) % 6
        c2 = c - s + s2
        if c >= 24 and (blds >> s2) & 1:
            blds ^= 1 << s2
            hurt.append([c2, g])
        else:
            out[c2] = g                  # a rotation maps cells one to one: nothing merges
    return (board & 0o7777) | blds << 12, _deal(out, hurt)


def bomb(board, groups, s):
    """R40-R42: the He-111 rolled sector index s.  Returns (board, groups)."""
    o = (s + 3) % 6
    walls = board & 63
    dots = (board >> 6) & 63
    blds = board >> 12
    out = dict(groups)
    for line in range(4):                               # s rear, air, artillery, tank
        out.pop(line * 6 + s, None)
    bit = 1 << s
    obit = 1 << o
    if walls & bit:                                     # case 1: s's wall (its dot first)
        if dots & bit:
            dots ^= bit
        else:
            walls ^= bit
    elif blds & bit:                                    # case 2: s's building
        blds ^= bit
    else:
        out.pop(24 + s, None)
        if blds & obit:                                 # case 3: the opposite building
            blds ^= obit
        else:
            out.pop(24 + o, None)
            if walls & obit:                            # case 4: the opposite wall (its dot first)
                if dots & obit:
                    dots ^= obit
                else:
                    walls ^= obit
            else:                                       # case 5: across the whole board
                for line in range(4):
                    out.pop(line * 6 + o, None)
    return walls | dots << 6 | blds << 12, out


def hit_board(board, cells, sectors):
    """The board after the groups in `cells` (occupied cells of the tank line
    and the city: the only ones a single step can take to a target) of
    `sectors` step once (R20-R23): what a phase's last draw needs."""
    walls = board & 63
    dots = (board >> 6) & 63
    blds = board >> 12
    for c in cells:
        s = c % 6
        if not (sectors >> s) & 1:
            continue
        bit = 1 << s
        if c < 24:
            if walls & bit:
                if dots & bit:
                    dots ^= bit
                else:
                    walls ^= bit
            else:
                blds &= ~bit
        else:
            blds &= ~(1 << (s + 1 if s < 5 else 0))
    return walls | dots << 6 | blds << 12


def rotate_board(board, cells, d):
    """The board after a rotation (R26) of the groups in `cells`: only the city's can hit (R23)."""
    blds = board >> 12
    for c in cells:
        if c >= 24:
            blds &= ~(1 << ((c + d) % 6))
    return (board & 0o7777) | blds << 12


def bomb_board(board, s):
    """The board after an He-111 rolled sector index s (R40-R42): where it
    stops does not depend on the enemies."""
    return bomb(board, {}, s)[0]


def repaired(groups):
    """R32 panther: every damaged member regains 1 armor, never above its full armor."""
    out = {}
    for c, g in groups.items():
        if isinstance(g, int):
            out[c] = g                   # a sum: no repair of it can matter (reduce.py)
        else:
            out[c] = tuple(sorted(m + 4 if (m >> 2) < (m & 3) else m for m in g))
    return out


def place(groups, kind, s, members, cap=9):
    """R31: a new enemy of `kind` in sector index s's rear at full armor: a
    member (armor, full) when `members`, else its armor capped at `cap`
    (the hits it can still take, F9 d)."""
    out = dict(groups)
    full = FULL[kind]
    old = out.get(s)
    if members and not isinstance(old, int):
        out[s] = tuple(sorted((old or ()) + (full * 4 + full,)))
    else:
        out[s] = (old or 0) + min(full, cap)
    return out
