# Siege's undo (siege/mode.py Siege.undo loads this module for it and forgets
# it after, so no game in progress carries its code): the last action taken
# back by replaying the game without it, or, in a new game with none yet, the
# game it replaced brought back (siege/replaced.py).  An action that drew tokens
# from the pool or rolled the die for them (R30, R31; the field marshal's play,
# R60) is taken back only when confirmed: the table has seen what came out, and
# the same tokens and dice come out again, so an undo is no way to peek at the
# pool (issue 59).  The board's buttons confirm with a second long BACK within
# 5 s (siege/ui.py).  Runs on MicroPython 1.2x and CPython.

from osada_fw import forget
from osada_fw.link.protocol import CommandError
from shared_rules.errors import RuleError
from shared_rules.siege.actions import MARSHAL_PLAY
from shared_rules.siege.engine import replay


def undo(siege, confirm):
    """Take back siege's last action (or bring back the game a new one replaced).
    confirm None: from the board's buttons, where a second long BACK within 5 s
    of a refused one confirms.  Returns (the undo event, whether the whole game
    is new on flash); raises RuleError (R30) or CommandError with nothing changed."""
    ui = siege.ui
    now = siege.app.hw.clock.ticks_ms()
    if confirm is None:
        asked = getattr(ui, "undo_asked", None)     # set only once an undo was refused
        confirm = asked is not None and siege.app.hw.clock.diff(now, asked) < 5000
    ui.undo_asked = None
    game = siege.game
    log = game.log.tuples()
    if log:
        before = replay(game.setup_dict(), log[:-1])
        drew = len(before.pool) != len(game.pool) or log[-1][0] == MARSHAL_PLAY
        if drew and not confirm:
            ui.undo_asked = now            # the buttons' second long BACK within 5 s confirms
            raise RuleError("R30", "undo past a reveal: the table has seen the tokens and dice that came out, "
                            "and they would come out again; confirm to undo all the same")
        siege.game = before
        ev = {"ev": "undo", "seq": len(log) - 1}
        if drew:
            ev["seen"] = True          # the table saw what came out (the host's log says so)
        return ev, False
    if siege.replaced is None:
        raise CommandError("nothing to undo")
    from osada_fw.siege import replaced
    siege.game = replaced.back(siege.replaced)
    forget("osada_fw.siege.replaced")
    siege.replaced = None
    siege.ui.reset()
    return {"ev": "undo", "seq": len(siege.game.log), "game_back": True}, True
