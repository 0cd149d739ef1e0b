"""The simulator a tool starts when there is no device (`osada sim --headless`): the
monitor (`make run`) and `osada tank watch --start-sim` (`make run GAME=tank`).

It is the starting process's: it stops on quit, and it stops by itself when that
process dies, however it dies (kill -9 too): it is given the starter's pid
(PARENT_ENV) and leaves when it is no longer its parent (simulator.parent_gone)."""

import os
import subprocess
import sys
import tempfile
import time

from osada.files import paths
from osada.link.ports import SIM_LINK

PARENT_ENV = "OSADA_SIM_PARENT"     # the pid of the process that started the simulator
CONFIG_ERROR, BUSY = 2, 3           # `osada sim`'s exit codes that no restart mends (simulator.main)


class SimProcess:
    """`osada sim --headless` as a subprocess, stopped on quit."""

    def __init__(self, link=SIM_LINK, state=paths.SIM_STATE, config=None):
        self.link = link
        self.state = state
        self.config = config                    # None: the simulator's default
        self.proc = None
        self.errfile = None
        self.started_at = None

    def start(self):
        self._close_err()
        env = dict(os.environ)
        root = paths.REPO                       # a checkout; installed, the package is on sys.path
        search = [os.path.join(root, "host"), root, os.path.join(root, "firmware")] if root else []
        if env.get("PYTHONPATH"):
            search.append(env["PYTHONPATH"])
        if search:
            env["PYTHONPATH"] = os.pathsep.join(search)
        env[PARENT_ENV] = str(os.getpid())
        os.makedirs(self.state, exist_ok=True)
        self.errfile = tempfile.TemporaryFile()
        argv = [sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", self.link, "--state", self.state]
        if self.config:
            argv += ["--config", self.config]
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.errfile, env=env, start_new_session=True)
        self.started_at = time.monotonic()
        return self.proc.pid

    def errors(self):
        """What the simulator wrote on stderr, as lines (the blank ones left out)."""
        try:
            self.errfile.seek(0)
            text = self.errfile.read().decode("utf-8", "replace")
        except (AttributeError, OSError, ValueError):
            return []
        return [ln for ln in text.splitlines() if ln.strip()]

    def died(self):
        """None while it runs (or was never started), else a line saying why it stopped."""
        if self.proc is None or self.proc.poll() is None:
            return None
        lines = self.errors()
        tail = lines[-1] if lines else ""
        code = self.proc.returncode
        how = "was killed (signal %d)" % -code if code < 0 else "exited (code %s)" % code
        return "the simulator %s%s" % (how, ": " + tail if tail else "")

    def wait_for(self, found, seconds=10.0, every=0.1):
        """Wait until found() (the device shows up): None then, else why not in one line, the
        simulator's own words included (its config refused, say); a simulator still starting
        after `seconds` is left to the caller, None."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if found():
                return None
            if self.died() is not None:
                return "\n  ".join([self.died()] + self.errors()[:-1])
            time.sleep(every)
        return None

    def busy(self):
        """It exited because another simulator holds its state directory (BUSY): that
        one is running the game, and a tool can show it instead."""
        return self.proc is not None and self.proc.poll() is not None and self.proc.returncode == BUSY

    def mendable(self):
        """A simulator that died can be started again to some purpose: it was not refused
        its config or its link (those stay as they are until someone mends them)."""
        return self.proc is not None and self.proc.returncode not in (CONFIG_ERROR, BUSY)

    def _close_err(self):
        if self.errfile is not None:
            self.errfile.close()
            self.errfile = None

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(2.0)
        self._close_err()
