"""«Сундук войны» (War Chest) on the device: the round tracker, public
information only (docs/war-chest.md, "The device: the round tracker").  mode.py:
the counts the table can see (the round, the coins left in each hand, the
control markers still to place, the initiative marker and whose action it
is), the buttons and the requests; view.py: its ring.  gamemenu.py loads
osada_fw.warchest.mode when the game is chosen and unloads the package when
another is; nothing of it is loaded while Siege plays.

IMPLEMENTED: the rule ids the device plays.  The coins themselves (what is
in a hand, a bag, a discard) are secret (W8, W24) and are never on the ring:
the host's bag tracker follows them (`osada warchest track`, whose rules
core is shared_rules.warchest).  Two players only: four (W25) do not fit on
24 LEDs (docs/war-chest.md says why)."""

IMPLEMENTED = ("W2", "W6", "W7", "W8", "W10", "W11", "W12", "W16", "W20", "WA6")
