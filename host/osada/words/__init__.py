"""Words for people: what the tools print and show.

    game_names   the games' names as players are told them (GAME_NAMES)
    texts        Siege's tokens, lines, modes and variants by name; one line
                 for every event the device pushes (describe)
    tank_rolls   Tank battle's rolls in words: what was rolled, its exact
                 odds, the test and numbers the device is set to
    board_text   the board as plain text (`osada demo`)"""
