# The game a new game replaced (issue 26): kept when a new game starts over
# a game with actions, brought back whole by an undo in the new game before
# its first action.  A rare job: App loads this module for it and forgets it
# after, so no game carries its code.  Runs on MicroPython 1.2x and CPython.

from shared_rules.siege.actions import decode, encode
from shared_rules.siege.engine import replay


def keep(game):
    """What App.replaced holds for `game` (one with actions): its setup and
    its actions encoded back to back (~4 bytes an action)."""
    return game.setup_dict(), b"".join([encode(t) for t in game.log.tuples()])


def back(kept):
    """The game keep() kept, rebuilt."""
    setup, raw = kept
    acts = []
    pos = 0
    while pos < len(raw):
        t, pos = decode(raw, pos)
        acts.append(t)
    return replay(setup, acts)
