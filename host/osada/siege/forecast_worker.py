"""The live forecast's worker process: `python -m osada.siege.forecast_worker`.

It reads one job, a JSON line on stdin:
    {"state": the device's state with pool_kinds, "setup": {mode, variants,
     players, houses}, "seconds": the most it may work, "memory": bytes (none:
     OSADA_FORECAST_MEMORY, in MiB, else the forecast's default: 1 GiB, or a
     quarter of the machine's memory where that is less)}
and writes one JSON line per answer as it improves (F11): the first bounds
(every chain cut at its 2nd extender), the next ones, then the exact values:
    {"forecast": result.to_json(), "k": the cut or null, "states": memo entries}
or {"error": "…"} for a state the forecast refuses (F1, FA1, FA5); last
{"done": "exact" | "time" | "memory"}.  Its owner (live_forecast.py) kills it
the moment the state changes: the work is CPU-bound, and a process is the one
way to stop it at once and keep the monitor's own thread free.  It runs at a
low priority (nice 19, set before the forecast loads), so the pages and the monitor are never kept waiting."""

import json
import os
import sys

MIN_MIB = 1        # the smallest memory cap a user may set (MiB): at the cap the chains are cut at once
NICE = 19          # the lowest: below everything the table waits for (the device's link, the monitor,
                   # the pages), yet not starved on a busy machine as Linux's idle class would be


def niceness():
    """NICE, unless OSADA_FORECAST_NICE (0-19) says otherwise (the test suite, whose two
    processes keep both cores busy, runs its workers at 0: at 19 they would wait minutes)."""
    try:
        n = int(os.environ.get("OSADA_FORECAST_NICE", NICE))
    except ValueError:
        n = NICE
    return min(19, max(0, n))


def memory_cap(mib=None):
    """The forecast's memory cap in bytes (F11): `mib` (the command's --memory), else
    OSADA_FORECAST_MEMORY (MiB; the live panel's workers), else None: the forecast's own
    default (run.default_memory: 1 GiB, less on a machine with under 4 GiB).  A value that
    is not a whole number of MiB of at least MIN_MIB is ValueError."""
    if mib is None:
        mib = os.environ.get("OSADA_FORECAST_MEMORY")
        if mib is None:
            return None                                   # the forecast's own default (run.default_memory)
    try:
        n = int(mib)
    except ValueError:
        raise ValueError("the forecast's memory cap must be a whole number of MiB, not %r" % (mib,))
    if n < MIN_MIB:
        raise ValueError("the forecast's memory cap must be at least %d MiB, not %d" % (MIN_MIB, n))
    return n << 20


AUTOGROUP = "/proc/self/autogroup"     # Linux: the scheduler's group of this session's processes


def _lower_priority():
    """Before the forecast's modules load: the loading is work the table does not wait for either.
    The worker runs in a session of its own (live_forecast.spawn), and where Linux groups the
    processes of a session (its autogroups, on by default) a process's nice ranks it only within
    its group, while the groups share the CPU as equals: the worker's group got a third of the
    machine beside the host and a browser (a TV's page, make bench's twenty), whatever its nice.
    So the group is lowered to the same nice, where the system has it."""
    n = niceness()
    if n and hasattr(os, "nice"):
        try:
            os.nice(n)
        except OSError:
            pass
        try:
            with open(AUTOGROUP, "w") as f:
                f.write(str(n))
        except OSError:                        # not Linux, no autogroups, or a kernel that refuses
            pass


if __name__ == "__main__":
    _lower_priority()

from osada.siege.forecast import ForecastError  # noqa: E402
from osada.siege.forecast.run import CLOCK, Forecaster, default_memory  # noqa: E402


def answers(job, out):
    """Write the job's answers to `out` (a text file), best last."""
    def say(obj):
        out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        out.flush()

    t0 = CLOCK()
    try:
        memory = job.get("memory") or memory_cap() or default_memory()
        fc = Forecaster(job["state"], job.get("setup"), int(memory))
    except (ForecastError, ValueError) as exc:
        say({"error": str(exc)})
        say({"done": "refused"})
        return
    for fields, cut in fc.reached(job.get("seconds"), first_free=True):   # the first bounds come at once
        say({"forecast": fc.answer(fields, cut, t0).to_json(), "k": cut, "states": fc.states()})
    say({"done": fc.stopped})


def main():
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
