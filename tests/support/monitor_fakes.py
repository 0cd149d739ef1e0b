"""A stand-in for the monitor's serial session, over an engine Game in this
process (no port, no thread of its own): the app under test gets the same
Session messages a device would send.  Used by tests/host/monitor/
(test_monitor_keys.py: keys; test_monitor_layout.py, test_monitor_snapshots.py:
sizes and snapshots) and tests/host/test_readme.py (the README's picture)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada import monitor  # noqa: E402
from shared_rules.siege.engine import Game, RuleError  # noqa: E402


class FakeSession:
    """What monitor.Session gives the UI (its messages), over a Game in this process."""

    def __init__(self, game, post, history=(), rolls=()):
        self.game = game
        self.post = post
        self.history = list(history)            # events "pushed" before the monitor connected
        self.sent = []                          # (cmd, fields) as submitted
        self.running = "siege"                  # the device's game ({"cmd": "game"})
        self.rolls = list(rolls)                # Tank battle: the roll events `roll` pushes, in order
        self.last = None

    def run(self):                              # the app's thread worker: connect, the first state
        self.post(monitor.Session.Status("connected", "connected", "fake", {"firmware": "t", "protocol": 1}))
        self._push_state()
        for ev in self.history:
            self.post(monitor.Session.Pushed(ev))

    def stop(self):
        pass

    def _push_state(self):
        st = self.game.state()
        del st["events"]
        self.post(monitor.Session.StateChanged(len(self.game.log), st))

    def _reply(self, cmd, fields, msg):
        self.post(monitor.Session.Reply(cmd, fields, msg))

    def submit(self, cmd, **fields):
        self.sent.append((cmd, fields))
        if cmd == "act":
            try:
                evs = list(self.game.apply(fields["action"]))
            except RuleError as exc:
                self._reply(cmd, fields, {"ok": False, "error": exc.message, "rule": exc.rule})
                return
            for ev in evs:
                self.post(monitor.Session.Pushed(ev))
            self._push_state()
            self._reply(cmd, fields, {"ok": True})
        elif cmd == "log":
            self._reply(cmd, fields, {"ok": True, "setup": self.game.setup_dict()})
        elif cmd == "game":
            was, self.running = self.running, fields.get("game", self.running)
            if was != self.running:
                self.post(monitor.Session.Pushed({"ev": "game", "game": self.running}))
            self._reply(cmd, fields, {"ok": True, "game": self.running, "changed": was != self.running})
        elif cmd == "state" and self.running == "tank":
            self._reply(cmd, fields, {"ok": True, "game": "tank", "tank": {"last": self.last}})
        elif cmd == "roll" and self.running == "tank" and self.rolls:
            self.last = dict(self.rolls.pop(0), ev="roll")
            self.post(monitor.Session.Pushed(self.last))
            self._reply(cmd, fields, dict({k: v for k, v in self.last.items() if k != "ev"}, ok=True))
        elif cmd == "new":
            self.game = Game(**fields)
            self._push_state()
            self._reply(cmd, fields, {"ok": True})
        else:
            self._reply(cmd, fields, {"ok": True, "value": 3})

    def actions(self):
        return [f["action"] for c, f in self.sent if c == "act"]


def fake_app(game, box=None, history=(), rolls=(), **kw):
    """A MonitorApp whose session is a FakeSession over `game` (put in box["session"]);
    `rolls`: the Tank battle roll events its `roll` pushes, in order."""
    box = {} if box is None else box

    def make_session(resolve, retry=None, post=None):
        box["session"] = FakeSession(game, post, history, rolls)
        return box["session"]

    return monitor.MonitorApp(port="fake", session=make_session, **kw)


def damage_game():
    """The wall_choice board: a move brings a tiger and a pz3 against the dotted wall (R25)."""
    g = Game.from_setup({
        "board": {"walls": [1, 2, 3, 4, 5, 6], "dots": [3], "buildings": [1, 2, 3, 4, 5, 6],
                  "enemies": [{"kind": "tiger", "sector": 3, "line": "tank"},
                              {"kind": "pz3", "sector": 3, "line": "tank", "armor": 1},
                              {"kind": "pz3", "sector": 5, "line": "air"}]},
        "pool": ["pz3", "pz3"], "rolls": [1, 1], "seed": 1})
    g.apply({"do": "move"})
    assert g.pending and g.pending["candidates"] == [1, 2]
    return g


def mid_game():
    """A seeded game four turns in, the same every time: three players, walls
    broken, enemies damaged, one under the hedgehog, a ДОТ, trophies; and the
    events of its last turns, for the event log."""
    g = Game(players=3, seed=7)
    history = []

    def apply(action):
        history.extend(g.apply(action))

    while g.turn < 5 and g.outcome == "playing":
        if g.pending:
            apply({"do": "choose", "enemy": g.pending["candidates"][0]})
            continue
        for e in sorted((e for e in g.state()["enemies"] if e["line"] == "tank"), key=lambda e: e["id"]):
            for _ in range(2):
                try:
                    apply({"do": "hit", "enemy": e["id"]})
                except RuleError:
                    pass
        apply({"do": "end_turn"})
    st = g.state()
    held = [e for e in st["enemies"] if e["line"] in ("air", "artillery")][0]
    apply({"do": "hedgehog", "enemy": held["id"]})
    apply({"do": "dot", "sector": st["walls"][0]})
    return g, history[-12:]


def marshal_turn():
    """Marshal mode, seed 3, after the defenders' turn: phase 7, his hand
    sabotage_air, tiger, pz3 (his play is the next thing to do)."""
    g = Game(players=2, mode="marshal", seed=3)
    history = list(g.apply({"do": "end_turn"}))
    return g, history


# Tank battle rolls as the device pushes them (tests/host/tank/test_tank_host.py has their arithmetic checked)
TANK_ROLLS = (
    {"test": "fire", "dice": [1, 2, 2, 1, 2, 6, 6, 5, 4, 3, 3, 3], "n": 12, "hit": 2, "ambush": False, "hits": 5,
     "protection": 4, "absorbed": 4, "damage": 1, "morale": True, "source": "host"},
    {"test": "collision", "dice": [5, 3, 6, 2, 3, 4], "a": [7, 7, 9], "b": [8, 5, 7], "totals": [12, 10, 15, 10, 8, 11],
     "enter": [0, 2], "winner": "a", "source": "host"},
    {"test": "counter", "dice": [2, 6], "ties": 2, "tied": [3, 5], "winner": "b", "source": "buttons"},
    {"test": "suppress", "intensity": 12, "n": 18, "dice": [1, 5, 2, 6, 2, 3, 1, 4, 4, 6, 1, 2, 5, 3, 6, 4, 1, 6],
     "hit": 2, "ambush": False, "hits": 7, "protection": 3, "absorbed": 3, "damage": 4, "morale": True,
     "source": "host"},
)


class SimPortSession(FakeSession):
    """The fake session connected as `make run` is, to the simulator's port: the
    state first, then the history's events (the pictures in the docs use it)."""

    def run(self):
        from osada_fw.link.commands import FIRMWARE_VERSION
        from osada_fw.link.protocol import PROTOCOL_VERSION
        self.post(monitor.Session.Status("connected", "connected", "/tmp/osada-sim",
                                         {"firmware": FIRMWARE_VERSION, "protocol": PROTOCOL_VERSION}))
        self._push_state()
        for ev in self.history:
            self.post(monitor.Session.Pushed(ev))
