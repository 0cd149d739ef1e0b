"""Tank battle's («Танковый бой») host tools, the `osada tank` commands.

    cli      the command group: odds, watch, replay
    odds     `osada tank odds`: the exact odds of a fire test, as a table
    watch    `osada tank watch`: the device's rolls live, keys as its buttons
    rolls    a roll's counts re-checked against its faces; the lines printed
             for a roll; `osada tank replay` of a saved log
    ring     the device's ring for a roll, as text and SVG (the device's own
             drawing code)
    picture, dice_picture   the table's page's picture of the game, and of the
             last roll (dice_picture runs on MicroPython too: the static site)

The words for a roll and its odds are osada.words.tank_rolls."""

# The rule ids Tank battle's companion plays (docs/rules-tank.md), the device's dice
# and the host's odds alike; the others are the table's.  Each is named by a test
# (tests/test_rule_ids.py).  Declared here, not in shared_rules/tank, so the Pico's
# heap does not carry the list.
IMPLEMENTED = ("T1", "T2", "T10", "T12", "T13", "T14", "T15", "T16", "T17", "T18", "T19", "T20", "T21", "T22",
               "T27", "T29", "T35", "T39", "TA1", "TA2", "TA3", "TA4", "TA5", "TA6", "TA8", "TA9")
