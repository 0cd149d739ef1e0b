"""`osada monitor`: the device mirrored live, full screen, with keys to play.

    session  the serial Link (osada.link) in a thread worker: connects, polls,
             reconnects every 0.5 s; posts what it hears to the app as messages
    board    the board as a picture: one column per sector, rows rear ...
             tank, the wall, the city
    tank_board  the board area while the device runs Tank battle: the ring
             of the last roll (the device's drawing code), its words and odds
    tank_panel  the game panel while Tank battle runs: the test and the
             numbers the roll key sends (TankSetup)
    panel    the game panel: the game, trophies, what to do next, the cursor
    keymap   each game's keys (KEYMAP: Siege's, TANK_KEYMAP), only the running
             game's live (help: ?), and the texts made from them
    screens  the modal screens: help, new game, the marshal's play, ask-sim
    widgets  the main screen: widgets that redraw themselves from the app's
             reactive attributes
    siege_keys  Siege's selection (the cursor, the enemy it picks) and the
             actions its keys send: a base of MonitorApp
    app      MonitorApp (stylesheet: monitor.tcss)

`run_monitor(port, start_sim)` is what the CLI calls; `main(args)` takes the
argparse Namespace (`port`, `start_sim`)."""

from osada.link.ports import SIM_LINK
from osada.link.simproc import SimProcess
from osada.paths import SIM_STATE

from .app import MonitorApp
from .board import (
    CELL_BG,
    CURSOR_BG,
    HEADER_BG,
    LABEL_W,
    NATION,
    ROW_LABELS,
    board_cells,
    candidates,
    enemy_tag,
    render_board,
    strongest,
)
from .keymap import DAMAGE_HINTS, EXTRA_HINTS, KEYMAP, MARSHAL_HINTS, hints, keys_for, keys_text
from .panel import info_text, phase_text, trophy_points
from .screens import AskSimScreen, HelpScreen, MarshalScreen, NewGameScreen, marshal_play_problem
from .session import REPLY_TIMEOUT_S, RETRY_S, NoDevice, Session
from .widgets import BoardView, EventLog, GamePanel, MainScreen

__all__ = [
    "AskSimScreen", "BoardView", "CELL_BG", "CURSOR_BG", "DAMAGE_HINTS", "EXTRA_HINTS", "EventLog", "GamePanel",
    "HEADER_BG", "HelpScreen", "KEYMAP", "LABEL_W", "MARSHAL_HINTS", "MainScreen", "MarshalScreen", "MonitorApp",
    "NATION", "NewGameScreen", "NoDevice", "REPLY_TIMEOUT_S", "RETRY_S", "ROW_LABELS", "SIM_LINK", "SIM_STATE",
    "Session", "SimProcess", "board_cells", "candidates", "enemy_tag", "hints", "info_text",
    "keys_for", "keys_text", "main", "marshal_play_problem", "phase_text", "render_board", "run_monitor",
    "strongest", "trophy_points",
]


def no_terminal():
    """Why the monitor cannot run here (it draws full screen and reads keys),
    or None when stdin and stdout are both terminals."""
    import sys

    def tty(f):
        try:
            return f is not None and f.isatty()
        except (AttributeError, ValueError):       # closed, or not a file at all
            return False
    ins, outs = tty(sys.stdin), tty(sys.stdout)
    if ins and outs:
        return None
    which = "stdin is not" if outs else "stdout is not" if ins else "neither stdin nor stdout is"
    return ("it needs a terminal, and here %s one: run it in a terminal, or in a script use "
            "`osada state`, `osada send` or `osada tank watch`" % which)


def run_monitor(port="auto", start_sim=False):
    """The monitor in this terminal; exit status 2 at once (one sentence on
    stderr) when there is none: with no terminal it would draw into a pipe and
    spin on a stdin that never blocks."""
    import sys
    why = no_terminal()
    if why is not None:
        sys.stderr.write("osada monitor: %s\n" % why)
        return 2
    app = MonitorApp(port=port, start_sim=start_sim, handle_signals=True)
    try:
        app.run()
    finally:
        app.shutdown()
    return app.return_code or 0


def main(args):
    return run_monitor(getattr(args, "port", "auto"), getattr(args, "start_sim", False))
