"""The live forecast's worker process: `python -m osada.siege.forecast_worker`.

It reads one job, a JSON line on stdin:
    {"state": the device's state with pool_kinds, "setup": {mode, variants,
     players, houses}, "seconds": the most it may work, "memory": bytes}
and writes one JSON line per answer as it improves (F11): the first bounds
(every chain cut at its 2nd extender), the next ones, then the exact values:
    {"forecast": result.to_json(), "k": the cut or null, "states": memo entries}
or {"error": "…"} for a state the forecast refuses (F1, FA1, FA5); last
{"done": "exact" | "time" | "memory"}.  Its owner (live_forecast.py) kills it
the moment the state changes: the work is CPU-bound, and a process is the one
way to stop it at once and keep the monitor's own thread free.  It runs at a
low priority (nice 15), so the pages and the monitor are never kept waiting."""

import json
import os
import sys

from shared_rules.siege.forecast import ForecastError
from shared_rules.siege.forecast.run import CLOCK, MEMORY, Forecaster
from shared_rules.siege.forecast.search import OutOfTime


def answers(job, out):
    """Write the job's answers to `out` (a text file), best last."""
    def say(obj):
        out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        out.flush()

    t0 = CLOCK()
    try:
        fc = Forecaster(job["state"], job.get("setup"), int(job.get("memory") or MEMORY))
    except ForecastError as exc:
        say({"error": str(exc)})
        say({"done": "refused"})
        return
    seconds = job.get("seconds")
    se = fc.search
    cuts = list(range(1, fc.extenders)) + [None]
    why = "exact"
    for i, cut in enumerate(cuts):
        # the first bounds come whatever the time (E8's in under 2 s); the rest within it
        se.deadline = None if i == 0 or seconds is None else t0 + seconds
        try:
            fields = fc.value(cut)
        except OutOfTime as exc:
            why = str(exc) or "time"
            if i:
                break
            se.forget()                       # not even the first bounds in memory: the chains cut at once
            se.max_entries = None
            cut = 0
            fields = fc.value(cut)
        answer = fc.answer(fields, cut, t0)
        say({"forecast": answer.to_json(), "k": cut, "states": fc.states()})
        if cut == 0:
            break
    say({"done": why})


NICE = 15          # below everything the table waits for: the device's link, the monitor, the pages


def main():
    if hasattr(os, "nice"):
        try:
            os.nice(NICE)
        except OSError:
            pass
    try:
        job = json.loads(sys.stdin.readline())
        if not isinstance(job, dict) or not isinstance(job.get("state"), dict):
            raise ValueError("a job is {\"state\": …, \"setup\": …}")
    except ValueError as exc:
        sys.stdout.write(json.dumps({"error": "format: %s" % exc}) + "\n")
        return 2
    answers(job, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
