"""The simulator a tool starts when there is no device (`osada sim --headless`): the
monitor (`make run`) and `osada tank watch --start-sim` (`make run GAME=tank`)."""

import os
import subprocess
import sys
import tempfile

from osada import paths
from osada.link.ports import SIM_LINK


class SimProcess:
    """`osada sim --headless` as a subprocess, stopped on quit."""

    def __init__(self, link=SIM_LINK, state=paths.SIM_STATE):
        self.link = link
        self.state = state
        self.proc = None
        self.errfile = None

    def start(self):
        env = dict(os.environ)
        root = paths.REPO                       # a checkout; installed, the package is on sys.path
        search = [os.path.join(root, "host"), root, os.path.join(root, "firmware")] if root else []
        if env.get("PYTHONPATH"):
            search.append(env["PYTHONPATH"])
        if search:
            env["PYTHONPATH"] = os.pathsep.join(search)
        os.makedirs(self.state, exist_ok=True)
        self.errfile = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "osada.cli", "sim", "--headless", "--link", self.link, "--state", self.state],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.errfile, env=env,
            start_new_session=True)
        return self.proc.pid

    def died(self):
        """None while it runs (or was never started), else a line saying why it stopped."""
        if self.proc is None or self.proc.poll() is None:
            return None
        tail = ""
        try:
            self.errfile.seek(0)
            lines = [ln for ln in self.errfile.read().decode("utf-8", "replace").splitlines() if ln.strip()]
            tail = lines[-1] if lines else ""
        except (OSError, ValueError):
            pass
        return "the simulator exited (code %s)%s" % (self.proc.returncode, ": " + tail if tail else "")

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
        if self.errfile is not None:
            self.errfile.close()
            self.errfile = None
