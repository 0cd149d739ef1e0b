"""What every part of the build guide shares: where things are, the
defaults, the error, the fixed number format."""

import os

from osada.files import paths

ROOT = paths.REPO or os.getcwd()                 # installed: hardware/ is written here
DEFAULT_CONFIG = paths.DEFAULT_CONFIG
DEFAULT_OUT = os.path.join(ROOT, "hardware")
DEFAULT_DIAMETER_MM = 500


class HardwareError(ValueError):
    pass


def num(x, digits=2):
    """A fixed, short decimal: 12.5, 3, -0.25 (never '-0').  Rounded to 1e-9
    first, so that the last bit of a libm's sin/cos cannot flip a digit."""
    s = "%.*f" % (digits, round(x, 9))
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return s


FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
