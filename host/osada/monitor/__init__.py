"""`osada monitor`: the device mirrored live, full screen, with keys to play
every game it runs.  The monitor is a shell over the games' views
(osada.gameview): it keeps the connection, the event log, the help, the
layout, the game switch and the reconnection; what is one game's (its board
or ring, its panel, its keys, its dialogs, its words) lives in that game's
host package (osada/siege/, osada/tank/, osada/victory/, osada/warchest/).

    session  the serial Link (osada.link) in a thread worker: connects, polls,
             reconnects every 0.5 s; posts what it hears to the app as messages
    keymap   the key bindings, made from every game's KEYMAP and the common keys
    screens  the shell's modal screens: help (the running game's keys), ask-sim
    logfile  the event log kept between sessions (`make run` after `q` shows it again)
    widgets  the main screen: widgets that redraw themselves from the app's
             reactive attributes (the board and panel: the running game's view)
    app      MonitorApp, the shell (stylesheet: monitor.tcss)

`run_monitor(port, start_sim)` is what the CLI calls; `main(args)` takes the
argparse Namespace (`port`, `start_sim`, `forecast`)."""

from osada.files.paths import MONITOR_LOG, SIM_STATE
from osada.link.ports import SIM_LINK
from osada.link.simproc import SimProcess

from .app import MonitorApp
from .screens import AskSimScreen, HelpScreen, help_text
from .session import REPLY_TIMEOUT_S, RETRY_S, NoDevice, Session
from .widgets import BoardView, EventLog, GamePanel, MainScreen

__all__ = [
    "AskSimScreen", "BoardView", "EventLog", "GamePanel", "HelpScreen", "MainScreen", "MonitorApp", "NoDevice",
    "REPLY_TIMEOUT_S", "RETRY_S", "SIM_LINK", "SIM_STATE", "Session", "SimProcess", "help_text", "main",
    "run_monitor",
]


def no_terminal():
    """Why the monitor cannot run here (it draws full screen and reads keys),
    or None when stdin and stdout are both terminals."""
    from osada.terminal.termkeys import no_terminal as why
    return why("`osada state`, `osada send` or `osada tank watch`")


def run_monitor(port="auto", start_sim=False, forecast=True):
    """The monitor in this terminal; exit status 2 at once (one sentence on
    stderr) when there is none: with no terminal it would draw into a pipe and
    spin on a stdin that never blocks."""
    import sys
    why = no_terminal()
    if why is not None:
        sys.stderr.write("osada monitor: %s\n" % why)
        return 2
    app = MonitorApp(port=port, start_sim=start_sim, handle_signals=True, forecast=forecast,
                     log_file=MONITOR_LOG)
    try:
        app.run()
    finally:
        app.shutdown()
    return app.return_code or 0


def main(args):
    return run_monitor(getattr(args, "port", "auto"), getattr(args, "start_sim", False),
                       getattr(args, "forecast", True))
