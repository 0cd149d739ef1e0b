"""Siege's keys in the monitor (KEYMAP) and the texts made from them: the help's
key names (keys_for), the game panel's hints.  Every hint that names a key is
made from KEYMAP, so none can name a key that does something else
(tests/host/monitor/test_monitor_keys.py holds them to it)."""

from osada.gameview import COMMON_KEYMAP
from osada.gameview import keys_for as _keys_for

KEYMAP = (
    ("left", "cursor(0,-1)", "← →", "sector", "cursor: previous / next sector (1…6, wraps)", False),
    ("right", "cursor(0,1)", "", "", "", False),
    ("up", "cursor(-1,0)", "↑ ↓", "line", "cursor: outwards / inwards (rear, air, artillery, tank, city)", False),
    ("down", "cursor(1,0)", "", "", "", False),
    ("tab", "next_enemy", "Tab", "next enemy",
     "next enemy in the cursor cell; with a pending choice: mark the next candidate", False),
    ("1,2,3,4,5,6,7,8,9", "digit", "1–9", "sector / candidate",
     "cursor to sector N (1–6); with a pending choice: choose candidate N at once", False),
    ("h", "hit", "h", "hit",
     "hit the selected enemy (default: the cell's strongest): 1 damage (R10)", True),
    ("k", "kill", "k", "kill", "kill the selected enemy: IL-2 (R12)", True),
    ("g", "hedgehog", "g", "hedgehog", "hedgehog (противотанковые ежи) on the selected enemy (R13)", False),
    ("p", "push_back", "p", "push back", "push the selected enemy back to the rear: Натиск (R15)", False),
    ("d", "dot", "d", "ДОТ", "ДОТ (dot) on the wall of the cursor's sector (R14)", False),
    ("b", "rebuild", "b", "rebuild", "rebuild the cursor sector's wall: sandbags + barbed wire (R16)", False),
    ("t", "patrol", "t", "patrol", "patrol: no reveals this turn; in marshal mode he only moves the enemies (R17)",
     False),
    ("m", "move", "m", "move", "the enemies move (phase 5), then the reveals (phase 6) or the marshal (phase 7)",
     False),
    ("r", "reveal", "r", "reveal", "reveal the next token (phase 6)", True),
    ("e", "end_turn", "e", "end turn", "end the turn: the enemies move, the reveals due, next player. Marshal mode:"
     " the enemies move, then the marshal draws and plays (phase 7: his play opens; after a patrol he only"
     " moves them)", True),
    ("c,enter", "choose", "c Enter", "choose",
     "choose the marked candidate of a pending choice; the marshal's extra play (after reveal3/reveal4)", True),
    ("M", "marshal", "M", "marshal", "the field marshal's play from his hand: phase 7, or his extra play after"
     " reveal3/reveal4 (R60)", False),
    ("u", "undo", "u", "undo", "undo the last action", True),
    ("o", "roll", "o", "roll",
     "a free die roll, 1–6 (the game is not touched)", False),
    ("n", "new_game", "n", "new game", "new game: players, mode, variants, seed", True),
    ("f", "forecast", "f", "forecast", "show / hide the threat forecast: the exact odds that each building, wall"
     " and ДОТ falls if the turn ended now (phase 4; worked out beside the monitor)", False),
    ("F", "ring_forecast", "F", "forecast on the ring",
     "show the threat forecast on the board's ring for 3 s: a bar per sector, the largest pulsing (F13)", False),
    ("H", "show_hand", "H", "hand",
     "show the field marshal's hand here for 10 s (his alone: hidden otherwise, and on no page but his)", False),
)


def keys_for(action):
    """The keys that do `action` in Siege, as the help shows them ('c/Enter')."""
    return _keys_for(action, KEYMAP + COMMON_KEYMAP)


# The hints of the game panel: (action, what its keys do there); keys from KEYMAP.
DAMAGE_HINTS = (("next_enemy", "mark the next"), ("choose", "choose the marked one"),
                ("digit", "choose that number at once"))
MARSHAL_HINTS = (("marshal", "his play"), ("end_turn", "his play too"))
EXTRA_HINTS = (("choose", "his play"), ("marshal", "his play"))


def hints(pairs):
    return " · ".join("%s %s" % (keys_for(a), what) for a, what in pairs)
