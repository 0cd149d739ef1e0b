"""Where the host tool finds its files: in a checkout, or in an installed package.

A checkout (`make setup`'s editable install, or PYTHONPATH=host:.:firmware)
uses the repository's own folders, and writes under build/ as always.  After
`pip install .` the package carries what the commands need (pyproject's
package data): firmware/main.py and firmware/config.json as
`osada.firmware_files`, the rules core and the firmware as the `shared_rules`
and `osada_fw` packages; the output (the simulator's journal, the firmware
bundle) goes under $XDG_STATE_HOME/osada (~/.local/state/osada).
"""

import importlib.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))        # host/osada/files
_PKG = os.path.dirname(_HERE)                              # host/osada
_ABOVE = os.path.dirname(os.path.dirname(_PKG))            # host/osada -> the repository


def _is_checkout(d):
    return (os.path.isfile(os.path.join(d, "pyproject.toml"))
            and os.path.isfile(os.path.join(d, "firmware", "config.json"))
            and os.path.isdir(os.path.join(d, "shared_rules")))


REPO = _ABOVE if _is_checkout(_ABOVE) else None
"""The repository root when running from a checkout, else None."""

FIRMWARE_FILES = os.path.join(REPO, "firmware") if REPO else os.path.join(_PKG, "firmware_files")
DEFAULT_CONFIG = os.path.join(FIRMWARE_FILES, "config.json")
FIRMWARE_MAIN = os.path.join(FIRMWARE_FILES, "main.py")

if REPO:
    OUTPUT = os.path.join(REPO, "build")
else:
    OUTPUT = os.path.join(os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state"),
                          "osada")
SIM_STATE = os.path.join(OUTPUT, "sim-state")
MONITOR_LOG = os.path.join(OUTPUT, "monitor-log.jsonl")     # the monitor's event log, kept between sessions


def package_dir(name):
    """The source folder of a top-level package (shared_rules, osada_fw), without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("cannot find the %s package" % name)
    return list(spec.submodule_search_locations)[0]


def shown(path):
    """A path as printed: relative to the repository in a checkout, else as it is."""
    p = os.path.abspath(path)
    if REPO and p.startswith(REPO + os.sep):
        return os.path.relpath(p, REPO)
    return p
