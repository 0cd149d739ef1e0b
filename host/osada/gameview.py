"""One game's view of the device, as every front end shows it: the interface
each game's host package implements (osada/<game>/view.py) and the shells
call (the monitor, osada/monitor/; any other front end the same way).

A view is told what the device says and asked what to show:

    on_connect()              the requests to send when the board is (re)connected
                              or switches to this game: [(cmd, fields), ...]
    on_state(state, seq)      a state push (Siege's game state; other games push events)
    on_event(ev)              a pushed event of this game (the shell logs every event)
    on_reply(cmd, fields, msg)  the answer to a request this view sent (ok or refused)
    render(width, compact, stale) -> rich Text   the board or ring, no row wider than width
    panel(compact, stale) -> rich Text           the game panel: the counts, what to do next
    on_key(action, *args)     a key of KEYMAP: returns a request (cmd, fields) for the
                              shell to send, or None (the view changed itself, or said why not)
    picture(role) -> dict or None  the game as data for the table's page to draw (JSON-able;
                              Siege's page draws from its state instead: None)
    aside() -> rich Text or None  a second panel beside the board (Siege: the threat
                              forecast), in the keys' place in a wide window; None: none
    aside_line() -> Text or None  its one-line form, under the game panel in a smaller window
    help_tail(closes)         how to read the board, under the keys in the help
    on_quit()                 the shell is closing: stop what the view runs (a worker)

It reaches the shell only through `self.shell`: `state`, `seq`, `conn_kind`,
`forecast` (Siege's forecast panel shown), `set_status(text, refused)`,
`push_screen(screen, callback)`, `send(cmd, **fields)`, `changed()` (redraw)
and `changed_from_thread()` (the same, from another thread).  The shell picks
the view from the game the device says it runs (`view_class(game)`), never
from what it ran last.

KEYMAP rows: (textual key(s), action, keys as shown, short name, what it does,
shown in the footer).  The bindings, the footer, the help and every hint that
names a key (keys_for) are made from them."""

import importlib

from rich.text import Text

# The keys of every game (the shell's own)
COMMON_KEYMAP = (
    ("G", "switch_game", "G", "game", "switch the device's game to the next one (Siege → Tank battle → Victory"
     " Day → War Chest → Siege); Siege's game in progress is kept", False),
    ("question_mark", "help", "?", "help", "this help (every key)", True),
    ("q", "quit", "q", "quit", "quit (stops a simulator the monitor started); Ctrl+Q too", True),
    # the event log's keys: in the help, not in the sidebar (a row with no short name)
    ("pageup", "log_scroll(-1)", "PgUp", "", "the event log a page back (the mouse wheel scrolls it too)", False),
    ("pagedown", "log_scroll(1)", "PgDn", "", "the event log a page on; a new event brings it back to the newest",
     False),
)


class GameView:
    """The base every game's view builds on: it shows nothing and sends nothing."""

    GAME = None
    KEYMAP = ()
    EVENT_STYLES = {}             # the log's colour for each of its events, by name

    def __init__(self, shell):
        self.shell = shell

    # ------------------------------------------------------ what the device says

    def on_connect(self):
        return [("state", {})]

    def on_state(self, state, seq):
        pass

    def on_event(self, ev):
        pass

    def on_reply(self, cmd, fields, msg):
        pass

    def on_quit(self):
        pass

    # ------------------------------------------------------------- what to show

    def render(self, width, compact=False, stale=False):
        return Text()

    def panel(self, compact=False, stale=False, role=None):
        """The game panel; role: a page's (osada.web.roles), None for the monitor's own."""
        return Text()

    def picture(self, role=None):
        return None

    def aside(self):
        return None

    def aside_line(self):
        return None

    def help_tail(self, closes):
        return Text(closes, style="dim")

    # ------------------------------------------------------------------ the keys

    def on_key(self, action, *args):
        """The request key `action` sends (its key_<action> method's), or None; the view is redrawn."""
        handler = getattr(self, "key_" + action, None)
        if handler is None:
            return None
        request = handler(*args)
        self.shell.changed()
        return request

    def request_words(self, cmd, fields):
        """A request in words, for "not connected: … not sent" and "… refused"."""
        return cmd

    def keys_for(self, action):
        return keys_for(action, self.KEYMAP + COMMON_KEYMAP)

    def hints(self, pairs):
        return " · ".join("%s %s" % (self.keys_for(a), what) for a, what in pairs)


def keys_for(action, keymap):
    """The keys that do `action`, as the help shows them ('c/Enter')."""
    for _k, a, shown, _short, _w, _f in keymap:
        if a == action:
            return shown.replace(" ", "/")
    raise KeyError(action)


def keys_text(keymap):
    """A key map, two keys a line (the sidebar's short version of the help: the rows with a short name)."""
    items = [(shown, short) for _k, _a, shown, short, _w, _f in keymap if shown and short]
    t = Text()
    for i in range(0, len(items), 2):
        for shown, short in items[i:i + 2]:
            t.append(shown.rjust(7) + " ", style="bold")
            t.append(short.ljust(13)[:13])
        t.append("\n")
    t.rstrip()
    return t


def more_keys_text(keymap):
    """The keys the footer leaves out (its rows not marked for it), in one wrapped line:
    what a panel in the keys panel's place adds under itself (issue 61 item 8)."""
    t = Text()
    items = [(shown, short) for _k, _a, shown, short, _w, footer in keymap if shown and short and not footer]
    t.append("more keys: ", style="dim")
    for i, (shown, short) in enumerate(items):
        t.append(("  " if i else "") + shown, style="bold")
        t.append(" " + short)
    return t


def view_class(game):
    """The view class of device game `game` (osada/<game>/view.py's VIEW), loaded on first use."""
    from osada_fw.games import GAMES
    if game not in GAMES:
        raise KeyError(game)
    return importlib.import_module("osada.%s.view" % game).VIEW


def view_classes():
    """{game: its view class} for every game the device runs, in its menu order."""
    from osada_fw.games import GAMES
    return {g: view_class(g) for g in GAMES}
