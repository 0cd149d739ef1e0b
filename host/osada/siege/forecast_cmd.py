"""`osada forecast SCENARIO.json [--json] [--fractions] [--bounds] [--seconds S] [--memory MIB]`:
Siege's threat forecast (docs/rules-forecast.md, F1-F11) for the state a scenario file ends
in: the odds that each building, wall and dot falls in the coming enemy phase, that the game
is lost, and the buildings to expect lost.

It prints L and E first, then a row per sector with a building or a wall: each chance a
percentage with one decimal, its fraction beside it when short, "—" where there is nothing,
worst and best labelled where they differ (F6: the damage choices, R25), E as a decimal
(forecast_words.py says how); then whether the values are exact or bounds (F11) and how long
they took.  --fractions: every exact fraction instead.  --seconds (default 3): how long to
work on the exact values before printing the best bounds reached; --memory (MiB, default
OSADA_FORECAST_MEMORY, else 1024 or a quarter of the machine's memory if less): the memo's
cap, at which it stops the same way; --bounds: the first bounds (k = 1) at once.  --json: one
object (lowest-terms fractions as strings; bounds as {"low", "high"}).  The work is done by a
worker process, so Ctrl-C stops it at once (one line, exit status 130).

Bad input -- not readable, not JSON, not a scenario, a field marshal's game (FA5), a state
not in phase 4 or not a game in play (F1: over, or no building standing) -- is one line on
stderr, exit status 2.
"""

import argparse
import json
import sys

from osada.files.userfile import UnreadableFile, read_text
from osada.link.device import fail
from shared_rules.siege.actions import END_TURN
from shared_rules.siege.engine import RuleError
from shared_rules.siege.public import public_state

from .forecast_words import cell


def add_parser(sub):
    """The `forecast` command, added to the CLI's subparsers."""
    p = sub.add_parser("forecast", help="Siege: the odds of the coming enemy phase for a scenario's last state",
                       description="The threat forecast (docs/rules-forecast.md): for the state a scenario ends in "
                                   "(phase 4: if the turn ended now), the exact odds that each building, wall and "
                                   "dot falls in the enemy phase, that the game is lost, and the buildings to "
                                   "expect lost; worst and best over the players' damage choices (R25).")
    p.add_argument("file", nargs="?",
                   help="scenario JSON file (format: shared_rules/README.md), read at the end of its actions; "
                        "or, instead, --port / --sim for the game live on a board or the simulator")
    live = p.add_mutually_exclusive_group()
    live.add_argument("--port", help="the game live on a board: its serial port, or auto (the Pico found)")
    live.add_argument("--sim", action="store_true", help="the game live on the simulator (make run, osada sim)")
    p.add_argument("--json", action="store_true", help="print one JSON object for tools (exact fractions)")
    p.add_argument("--fractions", action="store_true",
                   help="print every value as its exact fraction (the table shows percentages, a short "
                        "fraction beside them)")
    p.add_argument("--bounds", action="store_true",
                   help="print the first bounds at once (every chain cut at its 2nd extender, F11)")
    p.add_argument("--seconds", type=float, default=3.0,
                   help="work on the exact values at most this long, then print the best bounds (default 3)")
    p.add_argument("--memory", metavar="MIB",
                   help="stop working on the exact values when the memo holds about this many MiB, and print "
                        "the best bounds (default: OSADA_FORECAST_MEMORY, else 1024 or a quarter of the "
                        "machine's memory, whichever is less)")
    p.set_defaults(func=run)
    return p


def run(args):
    from osada.siege.forecast import default_memory
    from shared_rules.siege.scenario import run as run_scenario

    from .forecast_worker import memory_cap

    if not args.seconds > 0:
        return fail("forecast: --seconds must be more than 0")
    try:
        memory = memory_cap(getattr(args, "memory", None)) or default_memory()
    except ValueError as exc:
        return fail("forecast: %s (--memory, or OSADA_FORECAST_MEMORY)" % exc)
    live = getattr(args, "sim", False) or getattr(args, "port", None) is not None
    if live == (args.file is not None):
        return fail("forecast: give a scenario file, or --port / --sim for a live game (one of them)")
    if live:
        scenario, where, device_state = _live(args)
        if scenario is None:
            return where
    else:
        where, device_state = args.file, None
        try:
            text = read_text(args.file, "scenario")
        except UnreadableFile as exc:
            return fail("forecast: %s" % exc)
        try:
            scenario = json.loads(text)
        except ValueError as exc:
            return fail("forecast: %s is not JSON (%s)" % (args.file, exc))
        except RecursionError:
            return fail("forecast: %s is not JSON (nested too deep)" % args.file)
    try:
        game, events = run_scenario(scenario)
    except RuleError as exc:
        return fail("forecast: %s is not a scenario: %s" % (where, exc))
    if device_state is not None and _board(game.state()) != _board(device_state):
        return fail("forecast: the game on %s does not replay to the board it shows: try again" % where)
    state = public_state(game)
    try:
        f, stopped = _work(state, game.setup_dict(), args.seconds, memory, args.bounds)
    except KeyboardInterrupt:
        sys.stderr.write("osada: forecast: stopped (Ctrl-C)\n")
        return 130
    except ForecastRefused as exc:
        return fail("forecast: no forecast for this state: %s" % exc)
    if args.json:
        sys.stdout.write(json.dumps(f.to_json(), ensure_ascii=False) + "\n")
        return 0
    refused = sum(1 for ev in events if ev.get("ev") == "refused")
    why = {"time": "within %g s" % args.seconds,
           "memory": "within the memory cap (%d MiB)" % (memory >> 20)}
    sys.stdout.write(render(f, state, refused, None if args.bounds else why.get(stopped),
                            fractions=getattr(args, "fractions", False), in_turn=_in_turn(game)) + "\n")
    return 0


class ForecastRefused(Exception):
    """The forecast refuses the state (F1, FA1, FA5): its sentence."""


def _work(state, setup, seconds, memory, bounds_only):
    """The forecast of `state`, worked out by a worker process (forecast_worker.py) that a
    Ctrl-C stops at once (the search is C code that holds the interpreter): (Forecast, why
    it stopped: "exact", "time", "memory").  bounds_only: the first bounds.  Raises
    ForecastRefused, or KeyboardInterrupt with the worker killed."""
    from osada.siege.forecast import result as fresult

    from .live_forecast import spawn

    proc = spawn({"state": state, "setup": setup, "seconds": seconds, "memory": memory}, nice=0)
    last, stopped = None, None
    try:
        for line in proc.stdout or ():
            msg = json.loads(line)
            if "error" in msg:
                raise ForecastRefused(msg["error"])
            if "forecast" in msg:
                last = fresult.from_json(msg["forecast"])
                last.k, last.states = msg.get("k"), msg.get("states")
                if bounds_only:
                    stopped = "bounds"
                    break
            elif "done" in msg:
                stopped = msg["done"]
    finally:
        proc.kill()
        proc.wait()
    if last is None:
        raise ForecastRefused("the forecast's worker stopped (exit status %s)" % proc.returncode)
    return last, stopped


def _in_turn(game):
    """The actions taken in this turn: after the scenario's last end_turn."""
    n = 0
    for t in game.log.tuples():
        n = 0 if t[0] == END_TURN else n + 1
    return n


def _board(state):
    return {k: v for k, v in state.items() if k != "events"}


def _live(args):
    """(scenario, where, the device's state) of the game on a board or the
    simulator (its log, osada record's), or (None, exit status, None) after
    saying why not in one line."""
    from osada.link import ports
    from osada.link.client import ProtocolError
    from osada.link.device import open_link

    port = ports.SIM_LINK if args.sim else args.port
    try:
        link = open_link(argparse.Namespace(port=port))
    except ProtocolError as exc:
        return None, fail("forecast: %s" % exc), None
    try:
        hello = link.mirror.hello or {}
        if hello.get("game", "siege") != "siege":
            return None, fail("forecast: %s runs %s, not Siege: switch it to Siege (G in osada monitor)"
                              % (port, hello.get("game"))), None
        scenario = link.fetch_log()
        link.resync()                             # the board as it is now, after the log
        state = link.mirror.state
    except (ProtocolError, OSError) as exc:
        return None, fail("forecast: %s: %s" % (port, exc)), None
    finally:
        link.close()
    return scenario, "the game on %s" % port, state


def render(fc, state, refused=0, why=None, fractions=False, in_turn=None):
    """The forecast as the table `osada forecast` prints; why: what kept the exact values away;
    fractions: every value as its exact fraction (--fractions); in_turn: the actions of this turn."""
    lines = ["Threat forecast, turn %d%s, player %d: the enemy phase if the turn ended now%s"
             % (state["turn"], "" if in_turn is None else " (%d action%s into it)" % (in_turn, "" if in_turn == 1
                                                                                         else "s"),
                state["player"], " (after a patrol: no reveals)" if state.get("patrol") else "")]
    lines.append("lost (L): %s" % cell(fc, "L", fractions=fractions))
    lines.append("expected buildings lost (E): %s" % cell(fc, "E", True, fractions=fractions))
    rows = [("sector", "building", "wall", "dot")]
    for s in range(1, 7):
        if s in state["buildings"] or s in state["walls"]:
            rows.append((str(s),) + tuple(cell(fc, (t, s), fractions=fractions) for t in "BWD"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(4)).rstrip())
    if fc.exact:
        how = "exact values"
    else:
        how = "bounds (every chain cut at its extender no. %d, F11): the exact values were not reached%s" % (
            (fc.k or 1) + 1, " " + why if why else "")
    lines.append("%s, %s states, %.2f s" % (how, "{:,}".format(fc.states) if fc.states is not None else "?",
                                           fc.seconds))
    if refused:
        lines.append("(%d action(s) of the scenario were refused: see osada scenario)" % refused)
    return "\n".join(lines)
