"""The main screen and its widgets.  Each widget watches the app's reactive
attributes (the mirrored state, the cursor, the connection) and redraws
itself when they change; the board redraws at its own width on resize."""

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from .keymap import KEYMAP, keys_text


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
    """The board, drawn to fit the widget's width (board.render_board)."""

    WATCHES = ("state", "stale", "cursor", "sel_id", "cand_i")

    def picture(self):
        return self.app.board_picture(self.content_size.width)  # pyright: ignore[reportAttributeAccessIssue]

    def on_resize(self):
        self.redraw()


class GamePanel(Mirrored):
    """The game at a glance (panel.info_text)."""

    WATCHES = ("state", "setup", "stale", "cursor", "sel_id", "cand_i")

    def picture(self):
        return self.app.info_text()  # pyright: ignore[reportAttributeAccessIssue]


class ConnLine(Mirrored):
    """The connection, coloured by how it is."""

    WATCHES = ("conn_kind", "conn_text")

    def picture(self):
        kind = self.app.conn_kind  # pyright: ignore[reportAttributeAccessIssue]
        self.set_class(kind == "connected", "ok")
        self.set_class(kind == "lost", "stale")
        self.set_class(kind not in ("connected", "lost", "starting"), "bad")
        return Text(self.app.conn_text)  # pyright: ignore[reportAttributeAccessIssue]


class StatusLine(Mirrored):
    """What the last key did, or why it was refused."""

    WATCHES = ("status_text", "status_refused")

    def picture(self):
        self.set_class(self.app.status_refused, "refused")  # pyright: ignore[reportAttributeAccessIssue]
        return Text(self.app.status_text)  # pyright: ignore[reportAttributeAccessIssue]


class EventLog(RichLog, can_focus=False):
    pass


class MainScreen(Screen):
    BINDINGS = [Binding(k, "app." + a, short or k, show=f) for k, a, _sh, short, _w, f in KEYMAP if a != "digit"]
    BINDINGS += [Binding(str(n), "app.digit(%d)" % n, str(n), show=False) for n in range(1, 10)]

    def compose(self) -> ComposeResult:
        yield ConnLine("starting…", id="conn")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield EventLog(id="log", wrap=True, max_lines=2000, markup=False)
            with Vertical(id="side"):
                yield GamePanel(id="info")
                yield Static(keys_text(), id="keys")
        yield StatusLine("", id="status")
        yield Footer()

    def on_mount(self):
        self.query_one("#log").border_title = "events (newest at the bottom)"
        self.query_one("#info").border_title = "game"
        self.query_one("#keys").border_title = "keys (? for more)"
