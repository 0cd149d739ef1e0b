"""Chained power cuts on the emulated Pico (issue 64's measurement): one flash,
cut after cut, each cut inside a flash erase or program (torn bit by bit at a
random fraction) or at a random moment of a request; after every power on the
board must hold the last acknowledged game (or that and the change in flight),
boot, and say nothing of damage.  Not part of `make bench` (a cut takes 5 to
12 s on one core, the boot's restore growing with the game: 1,000 cuts are
about 2 1/2 hours of one core); run it as

    OSADA_FIRMWARE_UF2=/path/to/RPI_PICO-v1.28.0.uf2 .venv/bin/python -m tests.bench.pico_cuts --cuts 1000 --jobs 2

It prints a line every 25 cuts of a chain and one per chain done, and the
figures at the end (and writes them to build/pico_cuts.json)."""

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tests"), ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host")]

from osada.flash import deploy  # noqa: E402
from shared_rules.siege.autoplay import random_setup  # noqa: E402
from tests.support import pico_emu as pe  # noqa: E402
from tests.support.pico_chain import Chain, ChainError  # noqa: E402


def _chain(k, n, seed, uf2, work):
    """One chain of n cuts on a fresh board (game and cuts from seed + k):
    its figures, and the failure if there was one."""
    t0 = time.monotonic()
    chain = Chain(random_setup(seed + k), uf2, work, seed=seed + k)
    failure = None
    try:
        for _ in range(n):
            chain.trial()
            if chain.cuts % 25 == 0:
                f = chain.figures()
                print("chain %d: %4d cuts, %5.0f s: %d in erases, %d in programs, %d acknowledged actions lost, "
                      "%d failed boots" % (k, chain.cuts, time.monotonic() - t0, f["in_erase"], f["in_program"],
                                           f["acknowledged_lost"], f["failed_boots"]), flush=True)
        chain.final_check()
    except ChainError as exc:
        failure = "chain %d: %s" % (k, exc)
        print("FAILED: " + failure, flush=True)
    return chain.figures(), failure


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tests.bench.pico_cuts", description=__doc__.split("\n\n")[0])
    p.add_argument("--cuts", type=int, default=1000)
    p.add_argument("--seed", type=int, default=64)
    p.add_argument("--chain", type=int, default=250, help="cuts on one flash before a fresh board (default 250)")
    p.add_argument("--jobs", type=int, default=1, help="chains run at once, one emulator (one core) each (default 1)")
    args = p.parse_args(argv)
    fw = pe.firmware()
    if fw is None:
        print("no MicroPython firmware for the emulated Pico: " + pe.FIRMWARE_HOWTO)
        return 2
    t0 = time.monotonic()
    total = {"cuts": 0, "in_erase": 0, "in_program": 0, "acknowledged_lost": 0, "failed_boots": 0, "chains": 0}
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "firmware")
        deploy.build(out=bundle, quiet=True)
        uf2 = deploy.make_uf2(out=os.path.join(tmp, "osada-pico.uf2"), firmware=fw, bundle=bundle, quiet=True)
        plan = []
        left = args.cuts
        while left > 0:
            n = min(args.chain, left)
            work = os.path.join(tmp, "chain-%d" % len(plan))
            os.mkdir(work)
            plan.append((len(plan), n, args.seed, uf2, work))
            left -= n
        with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for f, failure in pool.map(_chain, *zip(*plan)):
                for key in ("cuts", "in_erase", "in_program", "acknowledged_lost", "failed_boots"):
                    total[key] += f[key]
                total["chains"] += 1
                if failure:
                    failures.append(failure)
                print("%5d cuts in %d chains, %5.0f s: %d in erases, %d in programs, %d acknowledged actions lost, "
                      "%d failed boots" % (total["cuts"], total["chains"], time.monotonic() - t0, total["in_erase"],
                                           total["in_program"], total["acknowledged_lost"], total["failed_boots"]),
                      flush=True)
    total["seconds"] = round(time.monotonic() - t0)
    total["jobs"] = args.jobs
    total["failures"] = failures
    print(json.dumps(total))
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "pico_cuts.json"), "w") as f:
        json.dump(total, f)
    return 0 if total["acknowledged_lost"] == 0 and total["failed_boots"] == 0 and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
