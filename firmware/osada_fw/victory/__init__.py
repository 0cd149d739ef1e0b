"""«День Победы» on the device: the toss for the first player (rule V8 of
docs/rules-victory-day.md): the game (mode.py: the lot, the game counter,
the seats' factions, the buttons and the requests) and its ring (view.py).
gamemenu.py loads osada_fw.victory.mode when the game is chosen and unloads
the package when another is.  Nothing of shared_rules/victory/ runs here (it
is off the device bundle): the device's arithmetic is a bit and a counter."""
