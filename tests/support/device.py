"""A firmware App on fake hardware, driven as the board's host and its
player would: the driver the firmware's tests share (tests/firmware/).

    Dev            one App on FakeHardware and the host's end of its serial
                   line: requests in (MemorySerial.host_send), replies and
                   pushes out, time moved with ManualClock (or the clock
                   given), the encoder and the buttons through FakeInputs
    snapshot       the game as the engine sees it, and its log's length
    states_in      the state pushes among messages
    to_cell        the encoder turned to a cell
    choice_dev     a device restored into the R25 damage choice of CHOICE_SETUP
    random_session a random player's game over the protocol, every exchange checked"""

import json
import os

from rules_support import canon, engine_state

from osada_fw.app import App
from osada_fw.config import led_count, load
from osada_fw.hal.fake import FakeHardware, ManualClock
from osada_fw.siege.ui import M_MENU, M_PLAY
from osada_fw.store.journal import Journal
from shared_rules.siege.autoplay import RandomPlayer
from shared_rules.siege.engine import PLAYING, Game, RuleError, replay

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = os.path.join(ROOT, "firmware", "config.json")
CFG = load(CONFIG)
NLEDS = led_count(CFG)

# the wall_choice example's board: a move brings a tiger and a pz3 against
# the dotted wall of sector 3 and the players must choose which takes it (R25)
CHOICE_SETUP = {
    "board": {"walls": [1, 2, 3, 4, 5, 6], "dots": [3], "buildings": [1, 2, 3, 4, 5, 6],
              "enemies": [{"kind": "tiger", "sector": 3, "line": "tank"},
                          {"kind": "pz3", "sector": 3, "line": "tank", "armor": 1}]},
    "pool": ["pz3"], "rolls": [1], "seed": 1,
}

LOG_PAGE = 40               # README: `log` gives at most 40 actions a reply


class Dev:
    """One App on fake hardware, and the host's end of its serial line."""

    def __init__(self, state_dir, seed=5, serial=None, clock=None, boot=True, menu=False):
        self.clock = clock if clock is not None else ManualClock()
        self.hw = FakeHardware(NLEDS, str(state_dir), serial=serial, clock=self.clock, seed=seed)
        self.app = App(self.hw, CFG)
        self.partial = b""
        self.inbox = []           # messages received and not yet consumed
        self.next_id = 1 << 24           # clear of the ids tests write by hand
        self.boot_msgs = []
        if boot:
            self.app.boot()
            if not menu:
                # the game menu a boot offers (ui.py, osada_fw/games.py),
                # closed as when a host acts: these tests press ACTION and
                # turn the encoder for Siege at once
                if self.app.siege.ui.mode == M_MENU and self.app.siege.ui.menu[0] == "game":
                    self.app.siege.ui.mode = M_PLAY
                if hasattr(self.app.mode, "inner"):         # games.Menu
                    self.app.mode.take(-1)
            self.tick()
            self.boot_msgs = self.take()     # what the device says first
            for m in self.boot_msgs:         # how long the restore took: a figure, not compared
                if m.get("ev") == "boot":
                    assert isinstance(m.pop("restore_ms"), int)

    # ------------------------------------------------------------- host side

    def collect(self):
        data = self.partial + self.hw.serial.host_take()
        lines = data.split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            assert line, "the device sent an empty line"
            self.inbox.append(json.loads(line.decode("utf-8")))   # every line is JSON

    def tick(self, n=1, ms=10):
        for _ in range(n):
            if hasattr(self.clock, "advance"):
                self.clock.advance(ms)
            self.app.tick()
        self.collect()

    def take(self):
        msgs = self.inbox
        self.inbox = []
        return msgs

    def send_raw(self, data):
        self.hw.serial.host_send(data)

    def request(self, cmd, ms=10, **fields):
        """Send one request with a fresh id; tick until its reply is in.
        Returns (reply, the messages pushed before it)."""
        rid = self.next_id
        self.next_id += 1
        req = {"id": rid, "cmd": cmd}
        req.update(fields)
        self.take()
        self.send_raw((json.dumps(req) + "\n").encode())
        for _ in range(200):
            self.tick(ms=ms)
            for k, m in enumerate(self.inbox):
                if m.get("id") == rid and "ok" in m:
                    before = self.inbox[:k]
                    self.inbox = self.inbox[k + 1:]
                    return m, before
        raise AssertionError("no reply to %r" % (req,))

    def ok(self, cmd, **fields):
        reply, pushed = self.request(cmd, **fields)
        assert reply["ok"] is True, reply
        return reply, pushed

    def state(self):
        reply, _ = self.ok("state")
        return reply["state"], reply["seq"]

    def log(self):
        """The whole game as a scenario, page by page (`from` / `next`).
        Checks every page; returns (setup, actions)."""
        total = len(self.app.siege.game.log)
        actions = []
        setup = None
        start = 0
        pages = 0
        while True:
            reply, pushed = self.ok("log", **{"from": start})
            assert pushed == []
            assert set(reply) == {"id", "ok", "setup", "actions", "from", "total", "next"}
            assert reply["from"] == start and reply["total"] == total
            assert 1 <= len(reply["actions"]) <= LOG_PAGE or total == 0
            if setup is None:
                setup = reply["setup"]
            assert reply["setup"] == setup
            actions += reply["actions"]
            pages += 1
            if reply["next"] is None:
                break
            assert reply["next"] == start + len(reply["actions"]) < total
            start = reply["next"]
        assert len(actions) == total and pages == max(1, -(-total // LOG_PAGE))
        return setup, actions

    def act(self, action):
        return self.request("act", action=action)

    # ------------------------------------------------------------ the inputs

    def turn(self, d, times=1):
        for _ in range(times):
            self.hw.inputs.turn(d)
            self.tick()

    def press(self, name, long=False):
        self.hw.inputs.press(name, long=long)
        self.tick()


def snapshot(dev):
    return engine_state(dev.app.siege.game), len(dev.app.siege.game.log)


def states_in(msgs):
    return [m for m in msgs if m.get("ev") == "state"]


def to_cell(dev, sector, line):
    """Turn the encoder from where the cursor is to (sector, line)."""
    target = (sector - 1) * 5 + line
    steps = (target - dev.app.siege.ui.cursor) % 30
    dev.turn(1, steps)
    assert dev.app.siege.ui.cursor_cell() == (sector, line)


def choice_dev(tmp_path):
    Journal(str(tmp_path)).start(Game.from_setup(CHOICE_SETUP).setup_dict())
    dev = Dev(tmp_path)
    assert dev.boot_msgs == [{"ev": "boot", "restored": True, "seq": 0}]
    return dev


def random_session(dev, setup, agent_seed, attempts, undo_every=0):
    """Play through the protocol with the random player; check every
    exchange.  Returns the number of accepted actions."""
    dev.ok("new", **setup)
    agent = RandomPlayer(agent_seed, skill=1)
    accepted = 0
    for k in range(attempts):
        if dev.app.siege.game.outcome != PLAYING:
            break
        before = snapshot(dev)
        if undo_every and k % undo_every == undo_every - 1 and accepted:
            reply, pushed = dev.ok("undo", confirm=True)
            accepted -= 1
            assert reply["seq"] == accepted
        else:
            action = agent.action(dev.app.siege.game)
            mirror = replay(dev.app.siege.game.setup_dict(), dev.app.siege.game.log.tuples())
            try:
                expected = canon(mirror.apply(action))
            except RuleError as exc:
                expected = exc
            reply, pushed = dev.act(action)
            if isinstance(expected, RuleError):
                assert reply["ok"] is False and reply["rule"] == expected.rule
                assert pushed == [] and snapshot(dev) == before
                continue
            accepted += 1
            assert reply["ok"] is True and reply["seq"] == accepted
            assert reply["events"] == len(expected)
            assert pushed[:-1] == expected
        ev = pushed[-1]
        assert ev["ev"] == "state" and ev["seq"] == accepted
        assert states_in(pushed) == [ev]
        st, seq = dev.state()
        assert (st, seq) == (ev["state"], accepted)
    return accepted
