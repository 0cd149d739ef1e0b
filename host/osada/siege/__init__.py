"""Siege (Осада) on the host: the monitor's view of it (view.py: the board,
board.py; the game panel, panel.py; its keys, keys.py; its dialogs,
screens.py) and `osada forecast`, the threat forecast (forecast_cmd.py)."""
