"""F9's reductions: what of a state can still change a target, and the
state's canonical key with everything else left out.

Given how many advancing draws can still come (`h`: the draws left, counted
without the chain's extenders) and the pool's counts, a group matters only if
the tokens that can move it (move_<its colour>, every colour while a rotation
is left, pz4h, maus; rotations too in the city) can bring it to its first
wall, dot or building (F9 c); otherwise it can never deal or take a blow,
and it is dropped; so is a group that only ever walks where one in front of
it in its sector has been, while that one lasts or its armor covers what
the sector has left standing (_shadowed).  A group's summed armor is
capped at the blows it can still take (F9 d): no more than its steps (a
rotation that brings it its first blow is a draw and no step), and no more
than the tokens left can walk it into alone, on a board that can only lose
targets (max_blows; a group that can deal none is dropped, F9 c).  A kind
whose draw can no longer change anything becomes a blank (F9 a, e): a
plain tank with too few draws after it, a move of a colour no group that
matters can be stepped by (the colours of the cells it can still step out
of), the panther when no repair can matter (then groups are sums, F9 d) -- and as
soon as nothing on the board or to come matters, everything but the He-111
and the chain's extenders.  (A pz2h that can never get its 4 steps is left
out of the chain's pattern itself: chains.live, search._live.)

Each test is a bound that only shrinks as the phase goes on, so a group or a
kind left out is never needed again further down (the memo stays exact).
"""

from osada.siege.forecast.model import (
    BLANK,
    HE111,
    MAUS,
    MOVE_BLUE,
    MOVE_CCW,
    MOVE_CW,
    MOVE_GREEN,
    MOVE_RED,
    PANTHER,
    PLAIN,
    PZ3,
    PZ4H,
    SDKFZ,
    TIGER,
    total_armor,
)

INF = 99


def _distances():
    """DCW[blds][s], DCCW[blds][s]: steps from city cell s to the nearest
    standing building clockwise / counter-clockwise (INF: none)."""
    dcw = []
    dccw = []
    for blds in range(64):
        cw = []
        ccw = []
        for s in range(6):
            cw.append(next((k for k in range(1, 7) if (blds >> ((s + k) % 6)) & 1), INF))
            ccw.append(next((k for k in range(1, 7) if (blds >> ((s - k) % 6)) & 1), INF))
        dcw.append(tuple(cw))
        dccw.append(tuple(ccw))
    return tuple(dcw), tuple(dccw)


DCW, DCCW = _distances()


def _colours_near(s, cw, ccw):
    """The colours of the sectors a group in sector index s can be rotated to (R26)."""
    return frozenset(((s + k) % 6) >> 1 for k in range(-ccw, cw + 1))


NEAR = {}


class Reach:
    """What a pool can still do to the board, for `h` advancing draws at
    most: the bounds F9 (c) and (d) use.  `counts` is indexed by kind.

    A group outside the city is advanced by move_<its colour>, pz4h and
    maus (own[s] of them for sector index s); by the moves of the colours a
    rotation can take it to as well (wide[s]), but then one draw at least is
    that rotation.  In the city every move, pz4h, maus and rotation is a step
    -- but a group in a city cell of a colour with no move left, and no
    pz4h or maus, walks nowhere: rotations alone take it, no further than
    their counts (wide[s] counts the moves of every colour they can take it
    to)."""

    __slots__ = ("h", "rot", "ccw", "own", "wide", "outer", "city", "outer_max", "tanks", "specials")

    def __init__(self, counts, h):
        self.h = h
        mv = (counts[MOVE_RED], counts[MOVE_GREEN], counts[MOVE_BLUE])
        cw, ccw = counts[MOVE_CW], counts[MOVE_CCW]
        self.rot = cw + ccw
        self.ccw = ccw
        both = counts[PZ4H] + counts[MAUS]
        self.own = own = [mv[s >> 1] + both for s in range(6)]
        if self.rot:
            wide = []
            for s in range(6):
                near = NEAR.get((s, cw, ccw))
                if near is None:
                    near = NEAR[(s, cw, ccw)] = _colours_near(s, cw, ccw)
                wide.append(sum(mv[c] for c in near) + both)
            self.wide = wide
        else:
            self.wide = own
        self.outer = [self.steps(s, h) for s in range(6)]
        self.city = mv[0] + mv[1] + mv[2] + both + self.rot
        self.outer_max = max(self.outer)

    def steps(self, s, h, spent=0):
        """The most steps a group outside the city in sector index s can get in h draws."""
        a = min(h, self.own[s] - spent)
        if self.rot:
            b = min(h - 1, self.wide[s] - spent)
            if b > a:
                return b
        return a

    def group(self, board, c):
        """(steps it can still take, steps to its first blow) for a group in cell c."""
        s = c % 6
        blds = board >> 12
        h = self.h
        if c >= 24:
            d = DCW[blds][s]
            ccw = self.ccw
            if not self.wide[s]:         # no move of a colour it can be rotated to, no pz4h or maus:
                cw = self.rot - ccw      # rotations alone move it, cw cells one way and ccw the other
                if d > cw:
                    d = INF
                if ccw and DCCW[blds][s] <= ccw:
                    d = min(d, DCCW[blds][s])
                return min(h, self.rot), d
            if ccw:
                d = min(d, DCCW[blds][s])
            return min(h, self.city), d
        first = 4 - c // 6
        reach = self.outer[s]
        if self.rot or ((board | blds) >> s) & 1:      # rotations, or a wall or building ahead
            if reach < first:
                return reach, first
            if reach == first and not self.rot and (board >> s) & 1:
                return reach, first      # its wall's blow takes its last step: it never enters the city
            if min(h, self.own[s]) < first:
                # its first blow needs a rotation, drawn while it is outside the city: a draw and a
                # token that are no step of its
                return min(h, self.city) - 1, first
            return min(h, self.city), first
        if reach < first:                                # it does not even reach the city
            return 0, first
        return min(h, self.city), first + DCW[blds][s]

    def placed(self, first=4, spent=0):
        """Can an enemy placed by a later draw get `first` steps?  `spent`:
        advancing tokens the draw itself takes out (pz4h, maus)."""
        h = self.h - 1
        for s in range(6):
            if self.steps(s, h, spent) >= first:
                return True
        return False


_REACH = {}


def reach_of(counts, h):
    """The Reach of a pool and horizon: the same few recur all through a search, so each is built once."""
    r = _REACH.get((counts, h))
    if r is None:
        if len(_REACH) > 200000:
            _REACH.clear()
        r = _REACH[(counts, h)] = Reach(counts, h)
        r.tanks = r.placed()
        r.specials = r.placed(3, 1)
    return r


def reduce(board, groups, counts, h, members, extenders=0):
    """The state's canonical parts: (groups key, groups, counts, members).

    counts: the pool by kind (13 plain kinds, or all 16 with the chain's
    extenders); h: the advancing draws that can still come; members: groups
    are member tuples (a panther may matter) rather than sums; extenders:
    pz2h tokens still to be placed (placed like a plain tank, R32)."""
    r = reach_of(counts, h)
    tanks = r.tanks
    placements = tanks or (extenders and r.outer_max >= 4) or ((counts[PZ4H] or counts[MAUS]) and r.specials)
    walked = None if placements or r.rot else WALKED     # the moves of colours no group walks are blanked below
    kept = {}
    caps = {}
    colors = 0                       # colours whose moves can step a group that matters
    for c, g in groups.items():
        reach, first = r.group(board, c)
        cap = _cap(board, c, counts, h, r.rot, reach, first)
        if not cap:
            continue                                          # F9 (c): it can deal no blow
        caps[c] = cap
        if walked:
            colors |= walked[c][reach if reach < 10 else 10]  # 10 steps walk a rear group round the city
        kept[c] = g
    _shadowed(board, kept, caps, r, counts[HE111])
    out = list(counts)
    if not (kept or placements):                              # F9 (e)
        blank = 0
        for k in range(PLAIN):
            if k != HE111 and k != BLANK:
                blank += out[k]
                out[k] = 0
        out[BLANK] += blank
        return (), {}, tuple(out), False
    if members:
        # the blows a tank to come could take with a repair: its steps, in the draws other than
        # its own (a plain tank's draw is one of the h, a pz2h's is not) and the panther's
        new_blows = min(h - (0 if extenders else 1) - 1, r.city) - 3 if placements else 0
        members = _split(kept, _repair_caps(board, kept, counts, h), counts[PANTHER], new_blows)
    for c, g in kept.items():
        if isinstance(g, int) and g > caps[c]:
            kept[c] = caps[c]                                 # F9 (d): capped at the blows it can take
    if not members:
        _fold_panther(out, tanks)
        _fold_tanks(out, tanks, min(h - 1, r.city) - 3)
    elif not tanks or (new_blows < 3 and not any(c < 6 and not isinstance(g, int) for c, g in kept.items())):
        _fold_tanks(out, tanks, min(h - 1, r.city) - 3)       # a tank to come is a sum at once
    if walked:
        for col in range(3):
            if not (colors >> col) & 1:
                out[BLANK] += out[MOVE_RED + col]              # no group that matters is or will be there
                out[MOVE_RED + col] = 0
    return tuple(sorted(kept.items())), kept, tuple(out), members


def _colours_walked(c, reach):
    """The colours (bits) whose moves can step the group in cell c, with no
    rotation left, in `reach` steps: its sector's, and in the city the
    colour of every cell it can still step out of -- a step out of city
    cell s is a step of s's colour (R20, R22), so the cells it reaches with
    its last step add none.  Outside the city, 4 - line of its steps go to
    entering its city cell (a wall's or a dot's blow takes a step more, never
    fewer, so counting none keeps every colour it can walk to)."""
    s = c % 6
    moves = reach if c >= 24 else reach - (4 - c // 6)
    bits = 1 << (s >> 1)
    for k in range(min(moves, 6)):
        bits |= 1 << (((s + k) % 6) >> 1)
    return bits


WALKED = tuple(tuple(_colours_walked(c, steps) for steps in range(11)) for c in range(30))   # [cell][steps]


def _repair_caps(board, groups, counts, h):
    """{cell: the blows its group can take after a repair}: a repair needs the
    panther's own draw, which moves nobody, so they are counted over the h - 1
    other draws (and only they can outlast a group's armor)."""
    r = reach_of(counts, h - 1)
    caps = {}
    for c in groups:
        reach, first = r.group(board, c)
        caps[c] = reach - first + 1
    return caps


def _split(groups, caps, panther, new_blows):
    """With a panther in the pool (`panther`, a count): keep as member
    tuples only the groups its repair (R32) can still change -- a group that
    can take more blows than its summed armor (else it lasts as long as it
    can do harm, repaired or not, and its sum less its blows left never
    drops) with a member damaged or that could be hurt and live; the others
    become sums.  Returns whether tuples are still needed: such a group, or
    a tank to come (full armor 2 or 3) that could take 3 blows or more."""
    need = bool(panther) and new_blows >= 3
    for c, g in groups.items():
        if isinstance(g, int):
            continue
        if panther and total_armor(g) < caps[c] and any((m >> 2) < (m & 3) or m >= 8 for m in g):
            need = True
        else:
            groups[c] = total_armor(g)
    if not need:
        for c, g in groups.items():
            groups[c] = total_armor(g)
    return need


def _fold_panther(out, tanks):
    """The panther when no repair matters: a plain tank of armor 2, or a blank."""
    n = out[PANTHER]
    if n:
        out[PANTHER] = 0
        out[PZ3 if tanks else BLANK] += n


def _fold_tanks(out, tanks, blows):
    """Plain tanks: blanks if none placed can matter (F9 c); kinds whose capped
    armor is the same are one kind (F9 d)."""
    if not tanks:
        out[BLANK] += out[SDKFZ] + out[PZ3] + out[TIGER]
        out[SDKFZ] = out[PZ3] = out[TIGER] = 0
    elif blows <= 1:
        out[SDKFZ] += out[PZ3] + out[TIGER]
        out[PZ3] = out[TIGER] = 0
    elif blows == 2:
        out[PZ3] += out[TIGER]
        out[TIGER] = 0


def _shadowed(board, kept, caps, r, bombers):
    """With no rotation left, a group behind another in its sector's outer
    lines moves with it, step for step (the same tokens move them both, and
    a bomb that reaches one there kills both), and can only catch it up and
    join it where it stays (at a wall or dot): it only ever walks where the
    one in front has been, dot, wall and building included, while that one
    lives.  So it deals no blow of its own, and is left out:

    - behind a group that lasts (its armor at its cap: it can take every
      blow it can still deal) -- when no bomber is left, or when its own
      sector's tokens can take it no further than into its sector's city
      cell (which the one in front entered first: a bomber can kill that one
      in the city, but then the one behind cannot get past where it died);
    - behind a group whose armor covers every dot, wall and building still
      standing in the sector, when its own sector's tokens can take it no
      further than into its sector's city cell: all it could reach is gone
      before it gets there (the one in front dies, at the latest, on the last
      of them; a bomber that kills the one in front in the outer lines kills
      both; joined to it at the wall, it brings armor that no draw is left to
      use beyond the sector)."""
    if r.rot or len(kept) < 2:
        return
    seen = shared = 0                      # sectors with an outer group, with two or more
    for c in kept:
        if c < 24:
            b = 1 << (c % 6)
            shared |= seen & b
            seen |= b
    if not shared:
        return
    front = 0                              # sectors (bits) with a lasting group in front
    guard = 0                              # ... with one whose armor covers the sector's targets
    for c in sorted((c for c in kept if c < 24 and (shared >> (c % 6)) & 1), reverse=True):
        s = c % 6
        stays = r.outer[s] <= 4 - c // 6
        if ((front >> s) & 1 and (not bombers or stays)) or ((guard >> s) & 1 and stays):
            del kept[c]
            del caps[c]
            continue
        armor = total_armor(kept[c])
        if armor >= caps[c]:
            front |= 1 << s
        if armor >= ((board >> s) & 1) + ((board >> (6 + s)) & 1) + ((board >> (12 + s)) & 1):
            guard |= 1 << s


def _cap(board, c, counts, h, rot, reach, first):
    """The blows the group in cell c can still take (F9 d), 0 for none (F9 c): at most its
    steps (`reach`) less those before its first blow (`first`), and at most what the tokens
    left can walk it into (max_blows: worth the search where that could be less -- more than
    one blow, or a rotation to take it sideways)."""
    cap = reach - first + 1
    if cap <= 0:
        return 0
    if cap > 1 or rot:
        return min(cap, max_blows(board, c, counts, h))
    return cap


_BLOWS = {}
BLOWS_TOKENS = 10     # max_blows searches with at most this many moving tokens (a game's pool has 10)


def max_blows(board, c, counts, h):
    """The most blows the group in cell c can deal alone in h draws of the
    pool's moving tokens (move_<colour>, move_cw, move_ccw, pz4h, maus), on
    this board or one with fewer targets: a wall or dot ahead of it may have
    fallen to another enemy or a bomber before it gets there (then it walks
    into the city), and a building counts only while it stands.  (A bound:
    merged with another group it walks where it would alone.)"""
    tk = [counts[MOVE_RED], counts[MOVE_GREEN], counts[MOVE_BLUE], counts[MOVE_CW], counts[MOVE_CCW],
          counts[PZ4H] + counts[MAUS]]
    total = sum(tk)
    if total > BLOWS_TOKENS:
        return INF                                 # a scenario's pool: no bound (the search would be long)
    h = max(0, min(h, total))                      # each draw it uses takes a token
    key = (c, board, h, tuple(tk))
    v = _BLOWS.get(key)
    if v is None:
        if len(_BLOWS) > 200000:
            _BLOWS.clear()
        v = _BLOWS[key] = _blows(c, board, tk, h, {})
    return v


def _blows(c, board, tk, h, memo):
    """max_blows' search, depth first: h draws left, tk the tokens left (moves by colour,
    move_cw, move_ccw, pz4h + maus), memo what it found below each node."""
    if h <= 0:
        return 0
    key = (c, board, h, tuple(tk))
    best = memo.get(key)
    if best is not None:
        return best
    best = 0
    s = c % 6
    for i in (s >> 1, 5):                         # a step: a move of its cell's colour, pz4h or maus
        if tk[i]:
            tk[i] -= 1
            for gain, c2, b2 in _stepped(c, board):
                best = max(best, gain + _blows(c2, b2, tk, h - 1, memo))
            tk[i] += 1
    for i, d in ((3, 1), (4, 5)):                 # a rotation: a blow only in the city (R26)
        if tk[i]:
            tk[i] -= 1
            s2 = (s + d) % 6
            bit = 1 << (12 + s2)
            if c >= 24 and board & bit:
                best = max(best, 1 + _blows(c - s + s2, board & ~bit, tk, h - 1, memo))
            else:
                best = max(best, _blows(c - s + s2, board, tk, h - 1, memo))
            tk[i] += 1
    memo[key] = best
    return best


def _stepped(c, board):
    """[(blow or not, cell, board)]: the ways one step can go for a group in cell c."""
    s = c % 6
    if c < 18:
        return [(0, c + 6, board)]
    if c < 24:
        out = []
        gone = board & ~(0o101 << s)                     # its wall and dot fallen before it came
        if (board >> (6 + s)) & 1:                       # its dot takes the blow, the wall stays
            out.append((1, c, board & ~(1 << (6 + s))))
        if board & (1 << s):                             # its wall falls (its dot gone before); it stays
            out.append((1, c, gone))
        if (board >> (12 + s)) & 1:                      # into the city, its wall gone before it came
            out.append((1, 24 + s, gone & ~(1 << (12 + s))))
        else:
            out.append((0, 24 + s, gone))
        return out
    s2 = s + 1 if s < 5 else 0
    if (board >> (12 + s2)) & 1:
        return [(1, 24 + s2, board & ~(1 << (12 + s2)))]
    return [(0, 24 + s2, board)]
