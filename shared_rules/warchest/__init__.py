"""Osada rules core, third game: the bag tracker of «Сундук войны» (War Chest).

Rule ids (W1..., WA1...): docs/rules-war-chest.md, each in a line.  The
coin count of each unit type is printed on its card, not in the rulebook: the
published cards' are units.CARD_COUNTS, and the players may enter theirs (WA1).

    units.py   the 16 types, the first game's and the scenarios' sets, the setup numbers (W1-W5, W25, W27, W28)
    zones.py   one player's coins in the zones of W29; drawing and the refill (W8-W10)
    events.py  the tracker's events: their shape and their text form
    actions.py one handler per event, checked against W11-W30
    game.py    Game: the players, markers, initiative and the round (W7, W11); state() / from_state()
    odds.py    exact draw odds in integers: next hand, the refill, within r rounds, the public estimate
    views.py   the public view (W24) and the owner view, as plain data

Plain Python for CPython and MicroPython alike (no dataclasses, fractions,
itertools).  IMPLEMENTED: the rule ids this package plays; the others are the
players' (the board's geometry, the unit cards' texts, the draft)."""

IMPLEMENTED = ("W1", "W2", "W3", "W4", "W5", "W7", "W8", "W9", "W10", "W11", "W12", "W13", "W14", "W15",
               "W16", "W17", "W18", "W19", "W20", "W21", "W22", "W23", "W24", "W25", "W27", "W28", "W29",
               "W30", "WA1", "WA3", "WA4", "WA5", "WA6")
