# The device's games: the one registry.  Adding a game is one package
# osada_fw/<id>/ whose mode.py has start(app) -> the game's object (see
# app.py for what that object answers), and its id here.  Switching and the
# game menu: gamemenu.py, loaded only for that.  The games' names for
# players live on the host (osada/words/game_names.py): the board shows none.
#
# Siege is the home game: it is started at every boot and kept while another
# game plays, its game in progress journalled (siege/mode.py); the others
# are loaded when chosen and unloaded when left.
#
# Runs on MicroPython and CPython alike.

GAMES = ("siege", "tank", "victory", "warchest")       # ids, in menu order: game k lights sector k + 1
HOME = "siege"

# Every menu of the device lights item k in sector k + 1 in MENU_COLORS[k]
# (the game menu's games, Siege's own menus' items).
MENU_COLORS = ((255, 40, 0), (255, 255, 255), (0, 120, 255), (255, 200, 0), (0, 255, 60), (180, 0, 255))

GAME_MENU_MS = 2500     # the game menu at boot: the highlighted game is taken after this
OPEN_MENU_MS = 8000     # ... opened in a game (hold ACTION and BACK)

# Requests that change nothing: they leave an open menu open.  Any other
# closes it first and goes to the running game.
READ_ONLY = ("hello", "state", "log", "leds", "game", "mem")

SETTING = "/game"       # in the state dir: the id of the game chosen last


def remembered(state_dir):
    """The id of the game chosen last (HOME when none is saved, or the
    flash cannot say): not checked against GAMES, the caller does."""
    try:
        with open(state_dir + SETTING) as f:
            gid = f.read(16).strip()
    except Exception:
        return HOME
    return gid or HOME

