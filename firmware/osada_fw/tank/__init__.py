"""«Танковый бой» on the device: «Кубики», the dice mode (mode.py), its ring
(view.py) and its bench (bench.py).  gamemenu.py loads osada_fw.<game>.mode for
a game other than Siege, and unloads the package when the game changes."""
