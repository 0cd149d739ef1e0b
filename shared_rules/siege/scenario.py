# Running a scenario (spec: "Scenario files"): setup, then the actions in
# order.  A refused action is reported as an event and the run goes on.
# The same function runs on CPython and inside MicroPython, so both runtimes
# print byte-identical state JSON for the same scenario.

from shared_rules.siege.engine import Game, RuleError


def run(scenario):
    """Play a scenario object.  Returns (game, events) where events is every
    event of the run in order, refusals included as {"ev": "refused", ...}.
    Raises RuleError('format') if the setup itself is malformed."""
    game = Game.from_setup(scenario)
    events = list(game.events)
    acts = scenario.get("actions", [])
    if not isinstance(acts, list):
        raise RuleError("format", "actions must be a list")
    for i in range(len(acts)):
        try:
            events.extend(game.apply(acts[i]))
        except RuleError as exc:
            events.append({"ev": "refused", "action": i, "rule": exc.rule, "error": exc.message})
    return game, events


def run_text(text):
    """Scenario JSON text -> state JSON text (with every event of the run)."""
    import json
    try:
        scenario = json.loads(text)
    except (ValueError, RuntimeError) as exc:     # RuntimeError: nested too deep
        raise RuleError("format", "scenario is not valid JSON (%s)" % (exc,))
    game, events = run(scenario)
    return game.state_json(events)


def main_micropython(path):
    """Entry point used by `osada scenario --runtime micropython` inside the VM."""
    import sys
    with open(path) as f:
        text = f.read()
    try:
        out = run_text(text)
    except RuleError as exc:
        sys.stderr.write("osada: scenario: %s\n" % (exc,))
        sys.exit(2)
    sys.stdout.write(out)
    sys.stdout.write("\n")
