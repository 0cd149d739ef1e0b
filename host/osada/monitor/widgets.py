"""The main screen and its widgets.  Each widget watches the app's reactive
attributes (the mirrored state, the cursor, the connection) and redraws
itself when they change; the board redraws at its own width on resize."""

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from osada.gameview import COMMON_KEYMAP, keys_text, more_keys_text

from .keymap import bindings

TOO_SMALL = "Make the window at least 80×24 (columns × rows) to see the board."


class Mirrored(Static):
    """A Static drawn from the app's state: `picture()` is redrawn whenever
    one of the app's reactive attributes named in WATCHES changes."""

    WATCHES = ()

    def on_mount(self):
        for name in self.WATCHES:
            self.watch(self.app, name, self.redraw, init=False)
        self.redraw()

    def redraw(self):
        self.update(self.picture())

    def picture(self):
        raise NotImplementedError


class BoardView(Mirrored):
    """The running game's board or ring, drawn to fit the widget's width (its view's render)."""

    WATCHES = ("state", "stale", "game", "revision")

    def picture(self):
        compact = self.screen.has_class("-short")          # a short window: the board one row a line
        return self.app.board_picture(self.content_size.width, compact)  # pyright: ignore[reportAttributeAccessIssue]

    def on_resize(self):
        self.call_after_refresh(self.redraw)       # after this layout: the new picture lays out anew


class GamePanel(Mirrored):
    """The game at a glance (its view's panel)."""

    WATCHES = ("state", "stale", "game", "revision")

    def picture(self):
        """The full panel where it fits; closed up (panel.info_text's compact
        form) in a short window or where the full one would be cut."""
        app = self.app
        if not self.screen.has_class("-short"):
            full = app.info_text(False)  # pyright: ignore[reportAttributeAccessIssue]
            room = self._room()
            width = self.content_size.width
            if room is None or width <= 0 or len(full.wrap(app.console, width)) <= room:
                return full
        return app.info_text(True)  # pyright: ignore[reportAttributeAccessIssue]

    def _room(self):
        """Rows the panel's text may take: its height when the layout fixes it,
        its max-height when it grows with its text (None: no limit)."""
        height = self.styles.height
        if height is None or not height.is_auto:
            return self.content_size.height
        top = self.styles.max_height
        if top is None or not top.is_cells:
            return None
        return int(top.value) - self.styles.gutter.height

    def on_resize(self):
        self.call_after_refresh(self.redraw)


class ConnLine(Mirrored):
    """The connection, coloured by how it is."""

    WATCHES = ("conn_kind", "conn_text")

    def picture(self):
        kind = self.app.conn_kind  # pyright: ignore[reportAttributeAccessIssue]
        self.set_class(kind == "connected", "ok")
        self.set_class(kind == "lost", "stale")
        self.set_class(kind not in ("connected", "lost", "starting"), "bad")
        t = Text(self.app.conn_text)  # pyright: ignore[reportAttributeAccessIssue]
        note = getattr(self.app, "local_note", "")   # this terminal's alone: the web view's PINs
        if note:
            t.append(" · " + note, style="bold")
        return t


class StatusLine(Mirrored):
    """What the last key did, or why it was refused."""

    WATCHES = ("status_text", "status_refused")

    def picture(self):
        self.set_class(self.app.status_refused, "refused")  # pyright: ignore[reportAttributeAccessIssue]
        return Text(self.app.status_text)  # pyright: ignore[reportAttributeAccessIssue]


class KeysPanel(Mirrored):
    """The keys of the game the device runs (gameview.keys_text)."""

    WATCHES = ("game",)

    def picture(self):
        return keys_text(self.app.view.KEYMAP + COMMON_KEYMAP)  # pyright: ignore[reportAttributeAccessIssue]


class MoreKeys(Mirrored):
    """The keys the footer leaves out, in a line above it: shown while the aside has the keys
    panel's place (monitor.tcss), so no key is found only under ? (issue 61 item 8)."""

    WATCHES = ("game",)

    def picture(self):
        return more_keys_text(self.app.view.KEYMAP + COMMON_KEYMAP)  # pyright: ignore[reportAttributeAccessIssue]


class AsidePanel(Mirrored):
    """The running game's second panel (its view's aside: Siege's threat
    forecast) in the keys' place in a wide window; the screen's class
    -aside says it has one (monitor.tcss)."""

    WATCHES = ("state", "stale", "game", "revision")

    def redraw(self):
        content = self.app.view.aside()  # pyright: ignore[reportAttributeAccessIssue]
        self.screen.set_class(content is not None, "-aside")
        self.update(content if content is not None else Text())


class EventLog(RichLog, can_focus=False):
    """The events as they come, wrapped to the log's width: on mount and at a
    new width it is written afresh from the app's log, newest at the bottom."""

    _written_at = None

    def on_mount(self):
        self._rewrite()

    def on_resize(self):
        if self.size.width != self._written_at:
            self._rewrite()
        self.scroll_end(animate=False, immediate=False)

    def _rewrite(self):
        self._written_at = self.size.width
        self.clear()
        for line, style in self.app.log_entries:  # pyright: ignore[reportAttributeAccessIssue]
            self.add(line, style)

    def add(self, line, style=None):
        self.write(Text(line, style=style or ""))


class MainScreen(Screen):
    """The board, the game panel, the event log and the keys, laid out by
    monitor.tcss for the window's size (the app's breakpoint classes)."""

    # every game's keys; the app's check_action keeps live (and in the footer) those of the game the device runs
    BINDINGS = bindings()

    def compose(self) -> ComposeResult:
        yield ConnLine("starting…", id="conn")
        yield Static(TOO_SMALL, id="toosmall")
        with Grid(id="main"):            # wide: board | game panel over log | keys; narrow: see monitor.tcss
            yield BoardView(id="board")
            yield GamePanel(id="info")
            yield EventLog(id="log", wrap=True, min_width=20, max_lines=2000, markup=False)
            yield KeysPanel(id="keys")
            yield AsidePanel(id="aside")
        yield StatusLine("", id="status")
        yield MoreKeys(id="morekeys")
        yield Footer()

    _laid_out = None

    def on_resize(self):
        """After the breakpoint classes changed (Screen._on_resize): the board
        and the game panel may have changed between compact and not at the same width; the
        footer closes up its keys below 120 columns.  Once a size: a terminal that reports no
        size (0×0, as `script` makes without a terminal) sends its fallback size again and
        again, and redrawing for each kept the app busy at 100 % (never reaching the board)."""
        laid_out = (self.size, tuple(sorted(self.classes)))
        if laid_out == self._laid_out:
            return
        self._laid_out = laid_out
        self.call_after_refresh(self.query_one(BoardView).redraw)
        self.call_after_refresh(self.query_one(GamePanel).redraw)
        self.query_one(Footer).compact = not self.has_class("-wide")

    def on_mount(self):
        self.query_one("#log").border_title = "events (newest at the bottom)"
        self.query_one("#info").border_title = "game"
        self.query_one("#keys").border_title = "keys (? for more)"
        self.query_one("#aside").border_title = "threat forecast"
