"""`osada forecast SCENARIO.json [--json] [--bounds] [--seconds S]`: Siege's
threat forecast (docs/rules-forecast.md, F1-F11) for the state a scenario file
ends in: the odds that each building, wall and dot falls in the coming enemy
phase, that the game is lost, and the buildings to expect lost.

The table has a row per sector with a building or a wall, each value "p/q
(xx.x%)", "—" where there is nothing, and the best case beside the worst
where they differ (F6: the damage choices, R25); then L and E, and whether
the values are exact or bounds (F11) and how long they took.  --seconds
(default 3): how long to work on the exact values before printing the best
bounds reached; --bounds: the first bounds (k = 1) at once.  --json: one
object (lowest-terms fractions as strings; bounds as {"low", "high"}).

Bad input -- not readable, not JSON, not a scenario, a field marshal's game
(FA5), a state not in phase 4 (F1) -- is one line on stderr, exit status 2.
"""

import json
import sys

from osada.link.device import fail
from osada.userfile import UnreadableFile, read_text
from shared_rules.exact import decimal3, percent1
from shared_rules.siege.engine import RuleError
from shared_rules.siege.public import public_state

NOTHING = "—"


def add_parser(sub):
    """The `forecast` command, added to the CLI's subparsers."""
    p = sub.add_parser("forecast", help="Siege: the odds of the coming enemy phase for a scenario's last state",
                       description="The threat forecast (docs/rules-forecast.md): for the state a scenario ends in "
                                   "(phase 4: if the turn ended now), the exact odds that each building, wall and "
                                   "dot falls in the enemy phase, that the game is lost, and the buildings to "
                                   "expect lost; worst and best over the players' damage choices (R25).")
    p.add_argument("file", help="scenario JSON file (format: shared_rules/README.md), read at the end of its actions")
    p.add_argument("--json", action="store_true", help="print one JSON object for tools")
    p.add_argument("--bounds", action="store_true",
                   help="print the first bounds at once (every chain cut at its 2nd extender, F11)")
    p.add_argument("--seconds", type=float, default=3.0,
                   help="work on the exact values at most this long, then print the best bounds (default 3)")
    p.set_defaults(func=run)
    return p


def run(args):
    from shared_rules.siege.forecast import ForecastError, forecast
    from shared_rules.siege.scenario import run as run_scenario

    if not args.seconds > 0:
        return fail("forecast: --seconds must be more than 0")
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
        return fail("forecast: %s is not a scenario: %s" % (args.file, exc))
    try:
        f = forecast(public_state(game), game.setup_dict(), seconds=args.seconds, bounds_only=args.bounds)
    except ForecastError as exc:
        return fail("forecast: no forecast for this state: %s" % exc)
    if args.json:
        sys.stdout.write(json.dumps(f.to_json(), ensure_ascii=False) + "\n")
        return 0
    refused = sum(1 for ev in events if ev.get("ev") == "refused")
    sys.stdout.write(render(f, public_state(game), refused) + "\n")
    return 0


def percent(f):
    """One decimal; "<0.1%" for a value above 0 below it, ">99.9%" below 1 above it (F14)."""
    if 0 < f < 0.001:
        return "<0.1%"
    if 0.999 < f < 1:
        return ">99.9%"
    return percent1(f.numerator, f.denominator)


def decimal(f):
    return decimal3(f.numerator, f.denominator)


def exact_text(f, expectation=False):
    return "%s (%s)" % (f, decimal(f) if expectation else percent(f))


def bounds_text(low, high, expectation=False):
    if low == high:                        # settled already, bounds or not
        return exact_text(low, expectation)
    if expectation:
        return "≥ %s ≤ %s" % (decimal(low), decimal(high))
    return "≥ %s ≤ %s" % (percent(low), percent(high))


def cell(fc, target, expectation=False):
    """A value's words: worst, and the best beside it where they differ (F6)."""
    if target not in fc.values:
        return NOTHING
    worst, best = fc.values[target]
    say = exact_text if fc.exact else (lambda v, e=False: bounds_text(v[0], v[1], e))
    text = say(worst, expectation)
    if best != worst:
        text += ", best " + say(best, expectation)
    return text


def render(fc, state, refused=0):
    """The forecast as the table `osada forecast` prints."""
    lines = ["Threat forecast, turn %d, player %d: the enemy phase if the turn ended now%s"
             % (state["turn"], state["player"], " (after a patrol: no reveals)" if state.get("patrol") else "")]
    rows = [("sector", "building", "wall", "dot")]
    for s in range(1, 7):
        if s in state["buildings"] or s in state["walls"]:
            rows.append((str(s), cell(fc, ("B", s)), cell(fc, ("W", s)), cell(fc, ("D", s))))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(4)).rstrip())
    lines.append("lost (L): %s" % cell(fc, "L"))
    lines.append("expected buildings lost (E): %s" % cell(fc, "E", True))
    if fc.exact:
        how = "exact values"
    else:
        how = "bounds (every chain cut at its extender no. %d, F11): the exact values were not reached" % (fc.k + 1)
    lines.append("%s, %d states, %.2f s" % (how, fc.states, fc.seconds))
    if refused:
        lines.append("(%d action(s) of the scenario were refused: see osada scenario)" % refused)
    return "\n".join(lines)
