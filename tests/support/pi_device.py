"""`osada device` as a process on a computer that is not a Pi, for the tests
(tests/host/pi/): the command's own code (osada.device.cli run()), its Blinka
libraries the agnostic board's and the stand-ins of tests/support/pi_fakes.py.

    python -m tests.support.pi_device --link L --state D [osada device's options]"""

import argparse
import os
import sys

os.environ["BLINKA_OS_AGNOSTIC"] = "1"


def main(argv):
    from osada.device import cli
    from osada_fw.hal import blinka
    from tests.support import pi_fakes
    blinka.libraries = pi_fakes.libraries        # what BlinkaHardware loads when it is given none
    p = argparse.ArgumentParser(prog="pi_device")
    cli.add_parser(p.add_subparsers(dest="cmd"))
    args = p.parse_args(["device"] + argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
