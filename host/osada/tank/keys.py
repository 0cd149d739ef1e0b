"""Tank battle's keys in the monitor (KEYMAP) and the key names made from them."""

from osada.gameview import COMMON_KEYMAP
from osada.gameview import keys_for as _keys_for

# Tank battle's keys («Кубики», osada_fw/tank/mode.py), live only while the device runs it:
# the test and its numbers are chosen here (the game panel shows them) and sent with the roll.
# They are the board's model (issue 61 item 2): a marker over the test, then its numbers, the
# marked one changed as the board's knob changes it; `osada sim` uses the same keys (BOARD).
KEYMAP = (
    ("left", "change(-1)", "← → + −", "change",
     "change the marked row: the test (fire T12, suppression fire T27, morale T21, counter-attack T29, collision"
     " T39), or one of its numbers (it wraps at its ends; ambush: yes / no); the board's knob", True),
    ("right", "change(1)", "", "", "", False),
    ("plus,equals_sign", "change(1)", "", "", "", False),
    ("minus", "change(-1)", "", "", "", False),
    ("up", "field(-1)", "↑ ↓", "mark", "mark the previous / next row (▶ in the game panel): the test, then its"
     " numbers; the board's BACK / encoder button", True),
    ("down", "field(1)", "", "", "", False),
    ("o,enter", "roll", "o Enter", "roll", "roll the test with these numbers on the device: the board"
     " shows its ring, the log the result with its odds; the board's ACTION", True),
    ("t", "new_turn", "t", "new turn", "a new game turn: the protection back to the value you set (T17); after"
     " a fire roll the protection left is the next shot's (T16); BACK held on the board", True),
    ("d", "defaults", "d", "defaults", "the test's numbers back to the device's defaults; the encoder held on"
     " the board", False),
)

# What each key is on the board (osada_fw/tank/mode.py's buttons): `osada sim`'s window presses
# these for the same keys, so the game is keyed the same in both.
BOARD = {"change(-1)": ("turn", -1), "change(1)": ("turn", 1), "field(-1)": ("press", "back"),
         "field(1)": ("press", "encoder"), "roll": ("press", "action"), "new_turn": ("long", "back"),
         "defaults": ("long", "encoder")}


def keys_for(action):
    """The keys that do `action` in Tank battle, as the help shows them ('o/Enter')."""
    return _keys_for(action, KEYMAP + COMMON_KEYMAP)
