"""Tank battle's («Танковый бой») host tools, the `osada tank` commands.

    cli      the command group: odds, watch, replay
    odds     `osada tank odds`: the exact odds of a fire test, as a table
    watch    `osada tank watch`: the device's rolls live, keys as its buttons
    rolls    a roll's counts re-checked against its faces; the lines printed
             for a roll; `osada tank replay` of a saved log
    ring     the device's ring for a roll, as text and SVG (the device's own
             drawing code)

The words for a roll and its odds are osada.words.tank_rolls."""
