"""War Thunder: Siege on the device, the home game: its game and journal
(mode.py), the buttons' UI and its menus (ui.py, menu.py, marshal_menu.py),
the board in light (board.py, colors.py, anim.py), its requests
(commands.py) and the game a new one replaced (replaced.py)."""
