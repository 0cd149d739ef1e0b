"""`python -m osada.monitor [--port PORT] [--start-sim]`: the same as `osada monitor`."""

import argparse
import sys

from . import main

if __name__ == "__main__":
    ap = argparse.ArgumentParser(prog="python -m osada.monitor", description="the device mirrored live, with keys")
    ap.add_argument("--port", default="auto", help="serial port of the Pico (default: found automatically)")
    ap.add_argument("--start-sim", action="store_true", help="no device: start the simulator without asking")
    sys.exit(main(ap.parse_args()))
