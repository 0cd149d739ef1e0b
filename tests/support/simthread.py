"""The simulator's app loop in a background thread of the test process, on the pty
`link` (its journal in `state_dir`): the device the monitor, web and CLI tests talk to.
`lock` keeps reads of its game consistent; close() is the board unplugged."""

import json
import threading
import time

from osada.sim.simulator import Simulator
from shared_rules.jsonout import dumps


class SimThread:
    def __init__(self, link, state_dir, seed=None):
        self.link, self.state_dir, self.seed = str(link), str(state_dir), seed
        self.sim = Simulator(link=self.link, state_dir=self.state_dir, seed=seed)
        self.lock = threading.Lock()
        self.stop_flag = threading.Event()
        self.sim.app.boot()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stop_flag.is_set():
            with self.lock:
                self.sim.app.tick()
            time.sleep(0.002)

    def state(self):
        """The device's Siege state (as it pushes it) and its action count."""
        with self.lock:
            st = self.sim.app.siege.game.state()
            seq = len(self.sim.app.siege.game.log)
        del st["events"]
        return json.loads(dumps(st)), seq

    def close(self):
        self.stop_flag.set()
        self.thread.join(2.0)
        self.sim.close()
