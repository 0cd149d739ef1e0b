"""The command line: python -m osada.buildguide (`make hardware`)."""

import argparse
import os
import sys

from osada_fw import config as fwconfig

from . import __doc__ as PACKAGE_DOC
from .build import generate
from .common import DEFAULT_CONFIG, DEFAULT_DIAMETER_MM, DEFAULT_OUT, HardwareError


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m osada.buildguide", description=PACKAGE_DOC.split("\n\n")[0])
    ap.add_argument("--config", default=DEFAULT_CONFIG, help="the firmware config (default firmware/config.json)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (default hardware/)")
    ap.add_argument("--diameter-mm", type=float, default=DEFAULT_DIAMETER_MM,
                    help="the printed board's diameter for the 1:1 templates (default %d)" % DEFAULT_DIAMETER_MM)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is out of date")
    args = ap.parse_args(argv)
    d = args.diameter_mm
    if d == int(d):
        d = int(d)
    readme_path = os.path.join(args.out, "README.md")
    readme = None
    if os.path.exists(readme_path):
        with open(readme_path, encoding="utf-8", newline="") as f:
            readme = f.read()
    try:
        files = generate(args.config, d, readme)
    except (HardwareError, fwconfig.ConfigError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    stale = []
    for name in sorted(files):
        path = os.path.join(args.out, name)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                old = f.read()
        except OSError:
            old = None
        if old != files[name]:
            stale.append(name)
            if not args.check:
                os.makedirs(args.out, exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(files[name])
    shown = os.path.relpath(args.out)
    if args.check:
        if stale:
            print("out of date (run `make hardware`): %s" % ", ".join(os.path.join(shown, n) for n in stale),
                  file=sys.stderr)
            return 1
        print("%s: %d files up to date" % (shown, len(files)))
        return 0
    print("%s: %d files, %d rewritten%s" % (shown, len(files), len(stale),
                                            (": " + ", ".join(stale)) if stale else ""))
    return 0
