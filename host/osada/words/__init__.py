"""Words for people: what the tools print and show.

    game_names   the games' names as players are told them (GAME_NAMES)
    texts        Siege's tokens, lines, modes and variants by name; one line
                 for every event the device pushes (describe)
    tank_rolls   Tank battle's rolls in words: what was rolled, its exact
                 odds, the test and numbers the device is set to
    board_text   the board as plain text (`osada demo`)
    table        the facts of Siege's state a page lists beside its picture

All but board_text run on MicroPython too: the static site's page with no host says
its log and facts with them (osada.site.reader, osada.site.build.SITE_MODULES)."""
