"""Whether a process whose pid a file names still runs: the simulator's lock
(sim/ptylink.py) and the monitor's event log's owner (monitor/logfile.py) ask it."""

import os


def alive(pid):
    """Does process `pid` run?  Another user's process counts (we may not signal it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, ValueError, OverflowError):
        return False
    return True
