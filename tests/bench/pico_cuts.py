"""Chained power cuts on the emulated Pico (issue 64's measurement): one flash,
cut after cut, each cut inside a flash erase or program (torn bit by bit at a
random fraction) or at a random moment of a request; after every power on the
board must hold the last acknowledged game (or that and the change in flight),
boot, and say nothing of damage.  Not part of `make bench` (1,000 cuts take
about an hour on one core); run it as

    OSADA_FIRMWARE_UF2=/path/to/RPI_PICO-v1.28.0.uf2 .venv/bin/python -m tests.bench.pico_cuts --cuts 1000

It prints a line every 25 cuts and the figures at the end (and writes them
to build/pico_cuts.json)."""

import argparse
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


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tests.bench.pico_cuts", description=__doc__.split("\n\n")[0])
    p.add_argument("--cuts", type=int, default=1000)
    p.add_argument("--seed", type=int, default=64)
    p.add_argument("--chain", type=int, default=250, help="cuts on one flash before a fresh board (default 250)")
    args = p.parse_args(argv)
    fw = pe.firmware()
    if fw is None:
        print("no MicroPython firmware for the emulated Pico: " + pe.FIRMWARE_HOWTO)
        return 2
    t0 = time.monotonic()
    total = {"cuts": 0, "in_erase": 0, "in_program": 0, "acknowledged_lost": 0, "failed_boots": 0, "chains": 0}
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "firmware")
        deploy.build(out=bundle, quiet=True)
        uf2 = deploy.make_uf2(out=os.path.join(tmp, "osada-pico.uf2"), firmware=fw, bundle=bundle, quiet=True)
        k = 0
        while total["cuts"] < args.cuts:
            chain = Chain(random_setup(args.seed + k), uf2, tmp, seed=args.seed + k)
            n = min(args.chain, args.cuts - total["cuts"])
            try:
                for _ in range(n):
                    chain.trial()
                    done = total["cuts"] + chain.cuts
                    if done % 25 == 0:
                        f = chain.figures()
                        print("%5d cuts, %5.0f s: %d in erases, %d in programs, %d acknowledged actions lost, "
                              "%d failed boots" % (done, time.monotonic() - t0, total["in_erase"] + f["in_erase"],
                                                   total["in_program"] + f["in_program"],
                                                   total["acknowledged_lost"] + f["acknowledged_lost"],
                                                   total["failed_boots"] + f["failed_boots"]), flush=True)
                chain.final_check()
            except ChainError as exc:
                print("FAILED: %s" % exc, flush=True)
            f = chain.figures()
            for key in ("cuts", "in_erase", "in_program", "acknowledged_lost", "failed_boots"):
                total[key] += f[key]
            total["chains"] += 1
            k += 1
    total["seconds"] = round(time.monotonic() - t0)
    print(json.dumps(total))
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "pico_cuts.json"), "w") as f:
        json.dump(total, f)
    return 0 if total["acknowledged_lost"] == 0 and total["failed_boots"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
