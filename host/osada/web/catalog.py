"""The facts a page draws with -- the lines, the sectors' colours and armies, each enemy
kind's printed name, short name, armour and class, the games' names, each game's keys, the
actions a tap may ask --
made from their one home in the Python sources (issue 62 item 1), served as
/catalog.json: the page types none of them a second time.  Public facts only: the same
for every role."""

from osada.gameview import view_class
from osada.siege.board import CELL_BG, HEADER_BG, NATION, ROW_LABELS
from osada.web.control import TOUCH
from osada.words import texts
from osada.words.game_names import game_name
from osada_fw.games import GAMES
from shared_rules.siege.catalog import (
    C_BOMBER,
    C_SPECIAL,
    C_TANK,
    KIND_ARMOR,
    KIND_CLASS,
    KIND_IDS,
    LINES,
    MODES,
    SECTOR_COLOR,
    VARIANTS,
)

CLASSES = {C_TANK: "tank", C_SPECIAL: "special", C_BOMBER: "bomber"}
# what the page says when it is the device itself (the static site): the connection, and where the
# host-only parts are had
IN_PAGE = {
    "conn": "the device in this page",
    "forecast": "The threat forecast is worked out by the host: on a computer, osada web (or osada "
                "monitor) with a board or the simulator shows it on every page.",
    "continue": "Continue the game",
    "play": "Play this game",
    "new": "New game",
    # a game other than Siege, as the device in the page plays it: on its ring and its buttons, as a
    # board is played with no host; the buttons: [id (the page's data-action), the press the
    # browser's hardware layer takes (osada_fw/hal/browser.py step()), its name, what it does]
    "on_device": "Played on the device in this page as on a board: its ring above, its knob and buttons "
                 "below (the game's own guide says what each does); the events below say what it did.",
    "controls": [["knob_left", "-1", "◀ knob", "turn the knob one step back"],
                 ["knob_right", "+1", "knob ▶", "turn the knob one step on"],
                 ["knob", "encoder", "press knob", "press the knob"],
                 ["action", "action", "ACTION", "press ACTION"],
                 ["back", "back", "BACK", "press BACK"],
                 ["hold_action", "!action", "hold ACTION", "hold ACTION down"]],
    "switch": "Play",
}


def _keys(game):
    """A game's keys as its view binds them: each row with a name (the help's), its action
    (the view's), the keys shown, and whether the footer lists it."""
    out = []
    for keys, action, shown, short, what, footer in view_class(game).KEYMAP:
        if shown and short:
            out.append({"action": action, "keys": shown, "name": short, "what": what, "main": bool(footer)})
    return out


def catalog():
    """The catalog as a JSON-able dict."""
    return {
        "lines": list(LINES),
        "line_names": {line: list(ROW_LABELS[line]) for line in LINES},
        "sectors": {str(s): {"colour": SECTOR_COLOR[s], "army": NATION[SECTOR_COLOR[s]],
                             "strong": HEADER_BG[SECTOR_COLOR[s]], "tint": CELL_BG[SECTOR_COLOR[s]]}
                    for s in range(1, 7)},
        "kinds": {k: {"name": texts.ru(k), "short": texts.short(k).rstrip("*"), "armor": KIND_ARMOR[i],
                      "class": CLASSES.get(KIND_CLASS[i], "event"), "enemy": texts.is_enemy(k)}
                  for i, k in enumerate(KIND_IDS)},
        "modes": {m: texts.label(m, texts.MODES) for m in MODES},
        "new_game": {                    # the new-game dialog's words (the monitor's NewGameScreen's)
            "modes": [{"id": m, "name": texts.label(m, texts.MODES), "what": texts.MODES[m][2]} for m in MODES],
            "variants": [{"id": v, "name": texts.label(v, texts.VARIANTS), "what": texts.VARIANTS[v][2]}
                         for v in VARIANTS],
            "players": texts.PLAYERS_WORDS,
        },
        "games": {g: {"name": game_name(g), "short": game_name(g, True), "keys": _keys(g)} for g in GAMES},
        "touch": dict(TOUCH),            # what a tap on Siege's picture may ask, and the target each takes
        "in_page": IN_PAGE,              # the device in the page's words (the static site, issue 63)
    }
