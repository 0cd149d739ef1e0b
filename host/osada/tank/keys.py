"""Tank battle's keys in the monitor (KEYMAP) and the key names made from them."""

from osada.gameview import COMMON_KEYMAP
from osada.gameview import keys_for as _keys_for

# Tank battle's keys («Кубики», osada_fw/tank/mode.py), live only while the device runs it:
# the test and its numbers are chosen here (the game panel shows them) and sent with the roll.
KEYMAP = (
    ("left", "test(-1)", "← →", "test",
     "previous / next test: fire (T12), suppression fire (T27), morale (T21), counter-attack (T29),"
     " collision (T39)", False),
    ("right", "test(1)", "", "", "", False),
    ("up", "field(-1)", "↑ ↓", "number", "mark the previous / next number of the test (▶ in the game panel)",
     False),
    ("down", "field(1)", "", "", "", False),
    ("plus,equals_sign", "change(1)", "+ −", "change",
     "raise / lower the marked number (it wraps at its ends; ambush: yes / no)", True),
    ("minus", "change(-1)", "", "", "", False),
    ("o,enter", "roll", "o Enter", "roll", "roll the test with these numbers on the device: the board"
     " shows its ring, the log the result with its odds", True),
    ("t", "new_turn", "t", "new turn", "a new game turn: the protection back to the value you set (T17); after"
     " a fire roll the protection left is the next shot's (T16)", True),
    ("d", "defaults", "d", "defaults", "the test's numbers back to the device's defaults", False),
)


def keys_for(action):
    """The keys that do `action` in Tank battle, as the help shows them ('o/Enter')."""
    return _keys_for(action, KEYMAP + COMMON_KEYMAP)
