"""The keys of a game with a board key map (Tank battle, Victory Day, War Chest) in the
terminal tools that press the board's buttons (`osada sim`'s window, `osada tank watch`,
`osada warchest watch`): that game's own keys, the very ones the monitor binds (its
KEYMAP), each pressing the board's button its BOARD table names -- one key map per game,
in every tool that plays it, and the help made from the same rows (issue 61 item 2).
Siege keeps the board's buttons' keys: its monitor keys are requests that no single button
makes.  The common keys stay: ←/→ (and a/d) the knob, g the game menu, q quit."""

import importlib
import textwrap

# textual's key names -> what osada.terminal.termkeys.KeyParser gives for them
TERM_KEYS = {"enter": (b"\r", b"\n"), "space": (b" ",), "backspace": (b"\x7f", b"\x08"), "plus": (b"+",),
             "minus": (b"-",), "equals_sign": (b"=",), "left": ("left",), "right": ("right",), "up": ("up",),
             "down": ("down",)}
HOMES = {"tank": "osada.tank.keys", "victory": "osada.victory.view", "warchest": "osada.warchest.view"}
COMMON_HELP = ("←/→ the knob", "g game menu", "q quit")
_CACHE = {}


def working(app):
    """The game the board's buttons work on the device app `app` now: its mode's id, or None
    while the game menu is up (its keys are the buttons' own)."""
    mode = app.mode
    return None if hasattr(mode, "inner") else getattr(mode, "id", None)


def _keymap(game):
    mod = importlib.import_module(HOMES[game])
    return mod.KEYMAP, mod.BOARD


def table(game):
    """{a key as KeyParser gives it: the board's input ("press" | "long", button) or ("turn", d)}
    for `game`, or None for a game that keeps the buttons' keys (Siege)."""
    if game not in HOMES:
        return None
    if game not in _CACHE:
        keymap, board = _keymap(game)
        out = {}
        for keys, action, _shown, _short, _what, _footer in keymap:
            if action not in board:
                continue
            for k in keys.split(","):
                for term in TERM_KEYS.get(k, (k.encode(),) if len(k) == 1 else ()):
                    out[term] = board[action]
        _CACHE[game] = out
    return _CACHE[game]


def help_lines(game, width=80, common=None):
    """The lines of keys for `game` (`osada sim`'s window: two of 80 columns): its key map's
    rows that press a button, as the monitor's help names them, then the common keys
    (default the window's: the knob where the game's keys leave ←/→ to it, g, q)."""
    keymap, board = _keymap(game)
    items = ["%s %s" % (shown, short) for _k, action, shown, short, _w, _f in keymap
             if shown and short and action in board]
    if common is None:
        common = COMMON_HELP if "left" not in table(game) else COMMON_HELP[1:]     # ← → are the game's own
    nb = "\u00a0"                             # an item is never cut across the two lines
    words = [i.replace(" ", nb) for i in items + list(common)]
    text = "keys: " + " ".join(w + nb + "·" for w in words[:-1]) + " " + words[-1]
    lines = textwrap.wrap(text, width, subsequent_indent="      ", break_on_hyphens=False, break_long_words=False)
    return tuple(line.replace(nb, " ") for line in lines)
