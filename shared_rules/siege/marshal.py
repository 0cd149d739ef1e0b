# The field marshal mode's own rules (R60): his hand, what he may play and
# when, and his draws.  Loaded only in a marshal game (plays.py's
# marshal_play handler, the draws of his phase in engine.py's turn machine
# and of his reveal3/reveal4 in moves.py), so a standard game on the Pico
# never carries it.  Functions of the Game they are given.

from shared_rules.errors import bad
from shared_rules.siege.catalog import C_SPECIAL, KIND_CLASS, KIND_IDS, PHASE_MARSHAL


def draw(g, n=None):
    """R60: the marshal draws up to 3 (or n more) tokens from the pool."""
    want = 3 - len(g.marshal_hand) if n is None else n
    got = 0
    while got < want and g.pool:
        g.marshal_hand.append(g.pool.pop())
        got += 1
    if got:
        g.events.append({"ev": "marshal_draw", "count": got})


def play(g, sector, kinds):
    """The marshal_play action: his tokens, checked in full, go to the
    queue the turn machine resolves (tanks first)."""
    extra = _may_play(g, kinds)
    hand = list(g.marshal_hand)
    for k in kinds:
        if k not in hand:
            bad("R60", "the marshal holds no %s" % KIND_IDS[k])
        hand.remove(k)
    if extra:
        if len(kinds) > g.marshal_extra:
            bad("R60", "the marshal may play at most %d token(s) now" % g.marshal_extra)
        if sector:
            bad("R60", "these tokens are placed by die rolls")
    else:
        _shape(kinds, sector)
    # valid: tanks first (by die roll, or the chosen sector), then the others
    g.marshal_hand = hand
    for k in kinds:
        if KIND_CLASS[k] <= C_SPECIAL:
            g.queue.append((k, sector))
    for k in kinds:
        if KIND_CLASS[k] > C_SPECIAL:
            g.queue.append((k, 0))
    g.events.append({"ev": "marshal_play", "tokens": [KIND_IDS[k] for k in kinds]})
    if extra:
        g.pending = None
        g.marshal_extra = 0
    g.ending = True


def _may_play(g, kinds):
    """R60/R17: may the marshal play now?  True for the extra play after
    his reveal3/reveal4, False for his turn's play; RuleError if neither."""
    if g.pending is not None and g.pending["choice"] == "marshal_extra":
        return True
    g.need_phase(PHASE_MARSHAL, "marshal_play")
    if g.ending:
        bad("R60", "the marshal has played this turn")
    if g.patrol and kinds:
        bad("R17", "patrol: the marshal only moves the enemies this turn")
    return False


def _shape(kinds, sector):
    """R60: his turn's play is one tank, two tokens, or nothing."""
    n = len(kinds)
    if n == 1:
        # «Выбирает 1 танк на руке и помещает его в тыл любого сектора»:
        # one token alone is a tank (to a sector of his choice, or rolled)
        if KIND_CLASS[kinds[0]] > C_SPECIAL:
            bad("R60", "a lone %s is not a play: the marshal plays one tank, two tokens, or nothing"
                % KIND_IDS[kinds[0]])
    elif n == 2:
        if sector:
            bad("R60", "with two tokens, tanks are placed by die rolls")
    elif n > 2:
        bad("R60", "the marshal plays one token or two (more only after reveal3/reveal4)")
