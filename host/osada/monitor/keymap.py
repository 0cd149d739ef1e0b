"""The tables of keys (KEYMAP: Siege's and every game's; TANK_KEYMAP: Tank
battle's) and the texts made from them: the help's key names (keys_for),
the game panel's hints, the keys panel (keys_text).  A game's keys are live
only while the device runs that game (MonitorApp.check_action)."""

from rich.text import Text

# The one table of keys: (textual key(s), action, keys as shown, short name, what it does, in the footer).
# The bindings, the footer, the help screen, the sidebar's key list and every hint
# that names a key (keys_for) are made from it, so none can name a key that does
# something else (tests/host/test_monitor_keys.py holds them to it).
SIEGE_KEYMAP = (
    ("left", "cursor(0,-1)", "← →", "sector", "cursor: previous / next sector (1…6, wraps)", False),
    ("right", "cursor(0,1)", "", "", "", False),
    ("up", "cursor(-1,0)", "↑ ↓", "line", "cursor: outwards / inwards (rear, air, artillery, tank, city)", False),
    ("down", "cursor(1,0)", "", "", "", False),
    ("tab", "next_enemy", "Tab", "next enemy",
     "next enemy in the cursor cell; with a pending choice: mark the next candidate", False),
    ("1,2,3,4,5,6,7,8,9", "digit", "1–9", "sector / candidate",
     "cursor to sector N (1–6); with a pending choice: choose candidate N at once", False),
    ("h", "hit", "h", "hit",
     "hit the selected enemy (default: the cell's strongest): 1 damage (R10)", True),
    ("k", "kill", "k", "kill", "kill the selected enemy: IL-2 (R12)", True),
    ("g", "hedgehog", "g", "hedgehog", "hedgehog (противотанковые ежи) on the selected enemy (R13)", False),
    ("p", "push_back", "p", "push back", "push the selected enemy back to the rear: Натиск (R15)", False),
    ("d", "dot", "d", "ДОТ", "ДОТ (dot) on the wall of the cursor's sector (R14)", False),
    ("b", "rebuild", "b", "rebuild", "rebuild the cursor sector's wall: sandbags + barbed wire (R16)", False),
    ("t", "patrol", "t", "patrol", "patrol: no reveals this turn; in marshal mode he only moves the enemies (R17)",
     False),
    ("m", "move", "m", "move", "the enemies move (phase 5), then the reveals (phase 6) or the marshal (phase 7)",
     False),
    ("r", "reveal", "r", "reveal", "reveal the next token (phase 6)", True),
    ("e", "end_turn", "e", "end turn", "end the turn: the enemies move, the reveals due, next player. Marshal mode:"
     " the enemies move, then the marshal draws and plays (phase 7: his play opens; after a patrol he only"
     " moves them)", True),
    ("c,enter", "choose", "c Enter", "choose",
     "choose the marked candidate of a pending choice; the marshal's extra play (after reveal3/reveal4)", True),
    ("M", "marshal", "M", "marshal", "the field marshal's play from his hand: phase 7, or his extra play after"
     " reveal3/reveal4 (R60)", False),
    ("u", "undo", "u", "undo", "undo the last action", True),
    ("o", "roll", "o", "roll",
     "a free die roll, 1–6 (the game is not touched)", False),
    ("n", "new_game", "n", "new game", "new game: players, mode, variants, seed", True),
)

# Tank battle's keys («Кубики», osada_fw/tank/mode.py), live only while the device runs it:
# the test and its numbers are chosen here (the game panel shows them) and sent with the roll.
TANK_KEYMAP = (
    ("left", "tank_test(-1)", "← →", "test",
     "previous / next test: fire (T12), suppression fire (T27), morale (T21), counter-attack (T29),"
     " collision (T39)", False),
    ("right", "tank_test(1)", "", "", "", False),
    ("up", "tank_field(-1)", "↑ ↓", "number", "mark the previous / next number of the test (▶ in the game panel)",
     False),
    ("down", "tank_field(1)", "", "", "", False),
    ("plus,equals_sign", "tank_change(1)", "+ −", "change",
     "raise / lower the marked number (it wraps at its ends; ambush: yes / no)", True),
    ("minus", "tank_change(-1)", "", "", "", False),
    ("o,enter", "tank_roll", "o Enter", "roll", "roll the test with these numbers on the device: the board"
     " shows its ring, the log the result with its odds", True),
    ("t", "tank_new_turn", "t", "new turn", "a new game turn: the protection back to the value you set (T17); after"
     " a fire roll the protection left is the next shot's (T16)", True),
    ("d", "tank_defaults", "d", "defaults", "the test's numbers back to the device's defaults", False),
)

# The keys of every game.
COMMON_KEYMAP = (
    ("G", "switch_game", "G", "game", "switch the device's game: Siege ↔ Tank battle («Кубики»); Siege's game"
     " in progress is kept", False),
    ("question_mark", "help", "?", "help", "this help (every key)", True),
    ("q", "quit", "q", "quit", "quit (stops a simulator the monitor started); Ctrl+Q too", True),
)


KEYMAP = SIEGE_KEYMAP + COMMON_KEYMAP          # Siege's keys, as the help shows them
GAME_KEYMAPS = {"siege": KEYMAP, "tank": TANK_KEYMAP + COMMON_KEYMAP}
# action name (without its arguments) -> the game whose keys run it; COMMON_KEYMAP's are every game's
_ACTION_GAME = {r[1].split("(")[0]: game for game, rows in (("siege", SIEGE_KEYMAP), ("tank", TANK_KEYMAP))
                for r in rows}


def action_game(action):
    """The game whose keys run `action` (its name without arguments), None for every game's."""
    return _ACTION_GAME.get(action)


def keys_for(action):
    """The keys that do `action`, as the help shows them ('c/Enter'), from the keymaps."""
    for _k, a, shown, _short, _w, _f in KEYMAP + TANK_KEYMAP:
        if a == action:
            return shown.replace(" ", "/")
    raise KeyError(action)


# The hints of the game panel: (action, what its keys do there); keys from KEYMAP.
DAMAGE_HINTS = (("next_enemy", "mark the next"), ("choose", "choose the marked one"),
                ("digit", "choose that number at once"))
MARSHAL_HINTS = (("marshal", "his play"), ("end_turn", "his play too"))
EXTRA_HINTS = (("choose", "his play"), ("marshal", "his play"))


def hints(pairs):
    return " · ".join("%s %s" % (keys_for(a), what) for a, what in pairs)


def keys_text(game="siege"):
    """A game's key map, two keys a line (the sidebar's short version of the help)."""
    items = [(shown, short) for _k, _a, shown, short, _w, _f in GAME_KEYMAPS.get(game, KEYMAP) if shown]
    t = Text()
    for i in range(0, len(items), 2):
        for shown, short in items[i:i + 2]:
            t.append(shown.rjust(7) + " ", style="bold")
            t.append(short.ljust(13)[:13])
        t.append("\n")
    t.rstrip()
    return t

