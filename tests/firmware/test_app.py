"""The firmware app (firmware/osada_fw/app.py) on the fake hardware:
the USB protocol, the state mirror, the buttons, the LED frames, the
power-safe journal, a host that never reads and the output time budget.

Every test drives a real App through FakeHardware: requests go in through
MemorySerial.host_send, time moves with ManualClock (RealClock where wall
time is the point), inputs come from FakeInputs."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from rules_support import canon, engine_state  # noqa: E402

from osada_fw import app as app_mod  # noqa: E402
from osada_fw.app import App  # noqa: E402
from osada_fw.config import led_count, load  # noqa: E402
from osada_fw.hal.fake import FakeHardware, ManualClock, MemorySerial, RealClock  # noqa: E402
from osada_fw.link import commands  # noqa: E402
from osada_fw.siege import anim  # noqa: E402
from osada_fw.siege.ui import M_MENU, M_PLAY  # noqa: E402
from osada_fw.store.journal import Journal  # noqa: E402
from shared_rules import scenario  # noqa: E402
from shared_rules.autoplay import RandomPlayer  # noqa: E402
from shared_rules.catalog import KIND_CLASS, KIND_IDS, MODES, VARIANTS  # noqa: E402
from shared_rules.engine import PLAYING, Game, RuleError, replay  # noqa: E402
from shared_rules.jsonout import dumps  # noqa: E402
from tests.support.fw_extras import board_from_config  # noqa: E402

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


# ====================================================== protocol round trips


def test_hello_reply_shape_and_id_echo(tmp_path):
    dev = Dev(tmp_path)
    reply, _ = dev.ok("hello")
    assert set(reply) == {"id", "ok", "protocol", "firmware", "game", "leds", "layout", "seq", "journal"}
    assert reply["journal"] == "ok"
    assert reply["protocol"] == 1
    assert reply["firmware"] == commands.FIRMWARE_VERSION
    assert reply["game"] == "siege"
    assert reply["leds"] == NLEDS == 24
    assert reply["layout"] == CFG["leds"]["layout"] == "spokes"
    assert reply["seq"] == 0
    # the id is the host's choice and comes back as given; without one it is null
    for rid in (0, -5, 123456789, (1 << 30) - 1, -(1 << 30)):
        dev.send_raw(b'{"cmd": "hello", "id": %d}\n' % rid)
        dev.tick(3)
        (r,) = [m for m in dev.take() if "ok" in m]
        assert r["id"] == rid and r["ok"] is True
    dev.send_raw(b'{"cmd": "hello"}\n')
    dev.tick(3)
    (r,) = [m for m in dev.take() if "ok" in m]
    assert r["id"] is None and r["ok"] is True and r["protocol"] == 1


def test_boot_event_on_a_fresh_device(tmp_path):
    dev = Dev(tmp_path)
    assert dev.boot_msgs == [{"ev": "boot", "restored": False, "seq": 0}]
    assert dev.app.siege.game.log.dicts() == []


def test_state_reply_is_the_engine_state(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=9, players=3)
    st, seq = dev.state()
    assert seq == 0
    assert st == engine_state(Game(players=3, seed=9))
    assert "events" not in st
    assert st["phase"] == 4 and st["turn"] == 1 and st["outcome"] == "playing"


def test_new_reply_setup_and_pushes(tmp_path):
    dev = Dev(tmp_path)
    reply, pushed = dev.ok("new", players=3, mode="shoulder", variants=["one_for_all"], seed=77)
    assert set(reply) == {"id", "ok", "seq"} and reply["seq"] == 0
    expected = Game(players=3, mode="shoulder", variants=["one_for_all"], seed=77)
    # the engine's setup event, then the full state
    assert [m["ev"] for m in pushed] == ["setup", "state"]
    assert pushed[0] == canon(expected.events[0])
    assert pushed[1] == {"ev": "state", "seq": 0, "state": engine_state(expected)}
    assert dev.log() == ({"players": 3, "mode": "shoulder", "variants": ["one_for_all"], "seed": 77}, [])
    # without a seed the device draws one from its entropy source (the fake's seed)
    dev.ok("new")
    assert dev.log()[0]["seed"] == dev.hw.free_roll_seed() & 0x3FFFFFFF


@pytest.mark.parametrize("fields,rule", [
    ({"players": 9}, "format"),
    ({"players": 6, "mode": "marshal"}, "format"),
    ({"players": 2, "mode": "solo"}, "format"),
    ({"mode": "chess"}, "format"),
    ({"variants": ["no_such"]}, "format"),
    ({"variants": "one_for_all"}, "format"),
    ({"seed": -1}, "format"),
    ({"seed": 1 << 32}, "format"),
    ({"seed": "7"}, "format"),
    ({"players": True}, "format"),
])
def test_bad_new_is_refused_and_changes_nothing(tmp_path, fields, rule):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.act({"do": "hit", "enemy": 1})
    before = snapshot(dev)
    reply, pushed = dev.request("new", **fields)
    assert reply["ok"] is False and reply["rule"] == rule and reply["error"]
    assert pushed == []
    assert snapshot(dev) == before
    # and the journal still holds the old game
    again = Dev(tmp_path)
    assert snapshot(again) == before


def test_act_pushes_engine_events_then_state(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    action = {"do": "hit", "enemy": 1}
    mirror = replay(dev.app.siege.game.setup_dict(), dev.app.siege.game.log.tuples())
    expected_events = canon(mirror.apply(action))
    reply, pushed = dev.act(action)
    assert reply["ok"] is True
    assert set(reply) == {"id", "ok", "seq", "events"}
    assert reply["seq"] == 1
    assert reply["events"] == len(expected_events) >= 1
    assert pushed[:-1] == expected_events
    assert pushed[-1] == {"ev": "state", "seq": 1, "state": engine_state(mirror)}
    st, seq = dev.state()
    assert (st, seq) == (pushed[-1]["state"], 1)


@pytest.mark.parametrize("action,rule", [
    ({"do": "hit", "enemy": 1, "card": {"arm": "tank", "color": "red"}}, "R10"),   # enemy 1 is in the air line
    ({"do": "hit", "enemy": 99}, "R10"),
    ({"do": "reveal"}, "turn"),
    ({"do": "choose", "enemy": 1}, "R25"),
    ({"do": "fly"}, "format"),
    ({"do": "hit"}, "format"),
    ({"do": "dot", "sector": 7}, "format"),
    ({"do": "rebuild", "sector": 1}, "R16"),
    ({"do": "kill", "enemy": 1, "card": {"arm": "air", "color": "red"}}, "R12"),
])
def test_refused_act_pushes_nothing_and_changes_nothing(tmp_path, action, rule):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.ok("act", action={"do": "patrol"})
    before = snapshot(dev)
    reply, pushed = dev.act(action)
    assert reply["ok"] is False
    assert reply["rule"] == rule
    assert isinstance(reply["error"], str) and reply["error"]
    assert pushed == []
    dev.tick(5)
    assert [m for m in dev.take() if m.get("ev") == "state"] == []
    assert snapshot(dev) == before
    assert dev.ok("hello")[0]["seq"] == 1
    # the refused action did not reach the journal either
    assert snapshot(Dev(tmp_path)) == before


@pytest.mark.parametrize("fields", [{}, {"action": "end_turn"}, {"action": [{"do": "move"}]}, {"action": None}])
def test_act_without_an_action_object(tmp_path, fields):
    dev = Dev(tmp_path)
    before = snapshot(dev)
    reply, pushed = dev.request("act", **fields)
    assert reply["ok"] is False and "rule" not in reply and reply["error"]
    assert pushed == [] and snapshot(dev) == before


def test_undo_round_trip(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    reply, pushed = dev.request("undo")
    assert reply["ok"] is False and "rule" not in reply and "undo" in reply["error"]
    assert pushed == []
    s0 = snapshot(dev)
    dev.ok("act", action={"do": "hit", "enemy": 1})
    s1 = snapshot(dev)
    dev.ok("act", action={"do": "move"})
    reply, pushed = dev.ok("undo")
    assert set(reply) == {"id", "ok", "seq"} and reply["seq"] == 1
    assert pushed[0] == {"ev": "undo", "seq": 1}
    assert pushed[-1] == {"ev": "state", "seq": 1, "state": s1[0]}
    assert snapshot(dev) == s1
    assert dev.ok("undo")[0]["seq"] == 0
    assert snapshot(dev) == s0
    assert dev.log()[1] == []


def test_undo_after_a_new_game_brings_back_the_game_it_replaced(tmp_path):
    # issue 26 item 1: a new game over a game in progress is recoverable
    dev = Dev(tmp_path)
    dev.ok("new", players=3, seed=3)
    for a in ({"do": "hit", "enemy": 1}, {"do": "move"}, {"do": "end_turn"}):
        dev.request("act", action=a)
    before = snapshot(dev)
    setup, acts = dev.log()
    assert before[1] == len(acts) >= 2
    dev.ok("new", players=2, seed=9)                 # over the game in progress
    assert snapshot(dev)[1] == 0
    reply, pushed = dev.ok("undo")
    assert reply["seq"] == len(acts)
    assert pushed[0] == {"ev": "undo", "seq": len(acts), "game_back": True}
    assert snapshot(dev) == before and dev.log() == (setup, acts)
    again = Dev(tmp_path)                             # the journal holds it: a power cut keeps it
    assert snapshot(again) == before
    reply, _ = again.request("undo")                  # nothing replaced since this boot: a plain undo
    assert reply["ok"] and reply["seq"] == len(acts) - 1


def test_undo_steps_back_through_the_new_game_to_the_one_it_replaced(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.ok("act", action={"do": "hit", "enemy": 1})
    before = snapshot(dev)
    dev.ok("new", seed=4)
    dev.ok("act", action={"do": "hit", "enemy": 1})
    assert dev.ok("undo")[0]["seq"] == 0              # the new game's action first
    assert dev.ok("undo")[0]["seq"] == 1              # then the old game, whole
    assert snapshot(dev) == before
    assert dev.ok("undo")[0]["seq"] == 0
    reply, _ = dev.request("undo")                    # the old game's start: nothing more
    assert reply["ok"] is False and "nothing to undo" in reply["error"]


def test_a_new_game_over_a_fresh_one_keeps_nothing(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.ok("new", seed=4)
    assert dev.app.siege.replaced is None
    reply, _ = dev.request("undo")
    assert reply["ok"] is False and "nothing to undo" in reply["error"]


def test_roll_is_free_and_pushes_a_roll_event(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.ok("act", action={"do": "hit", "enemy": 1})
    before = snapshot(dev)
    seen = set()
    for _ in range(120):
        reply, pushed = dev.ok("roll")
        assert set(reply) == {"id", "ok", "value"}
        v = reply["value"]
        assert isinstance(v, int) and 1 <= v <= 6
        assert pushed == [{"ev": "roll", "value": v}]
        seen.add(v)
    assert seen == {1, 2, 3, 4, 5, 6}
    assert snapshot(dev) == before


def test_leds_reply_is_the_frame_on_the_strip(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.tick(400)                         # every animation over
    reply, _ = dev.ok("leds", ms=0)       # no new frame drawn meanwhile
    leds = reply["leds"]
    assert set(reply) == {"id", "ok", "leds"}
    assert len(leds) == NLEDS
    frame = dev.hw.leds.frame             # wire order GRB
    assert CFG["leds"]["order"] == "GRB"
    for i, rgb in enumerate(leds):
        assert len(rgb) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in rgb)
        assert rgb == [frame[3 * i + 1], frame[3 * i], frame[3 * i + 2]]
    assert any(any(rgb) for rgb in leds)


def test_press_command_drives_the_ui(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    target = [e for e in dev.app.siege.game.enemies if e.sector == 1][0]
    for fields in ({"turn": 2}, {"turn": 0}, {"button": "start"}, {"button": None}, {}):
        reply, pushed = dev.request("press", **fields)
        assert reply["ok"] is False and reply["error"] and pushed == []
    reply, pushed = dev.ok("press", turn=1)          # cursor: sector 1 rear -> air
    assert set(reply) == {"id", "ok"} and pushed == []
    reply, pushed = dev.ok("press", button="action")  # hit the enemy there
    assert [m["ev"] for m in pushed][-1] == "state"
    assert pushed[0] == {"ev": "hit", "enemy": target.id, "armor": target.armor}
    assert dev.app.siege.game.log.dicts() == [{"do": "hit", "enemy": target.id}]
    dev.ok("press", button="back", long=True)        # undo
    assert dev.app.siege.game.log.dicts() == []


def test_repl_replies_then_releases_the_port(tmp_path):
    seen = {}

    class HW(FakeHardware):
        def console_release(self):
            seen["out"] = bytes(self.serial.outbox)   # what the host had been given by then
            FakeHardware.console_release(self)

    clock = ManualClock()
    hw = HW(NLEDS, str(tmp_path), clock=clock, seed=5)
    app = App(hw, CFG)
    app.boot()
    hw.serial.host_send(b'{"id": 42, "cmd": "repl"}\n')
    assert not hw.released
    for _ in range(3):
        clock.advance(10)
        app.tick()
    assert hw.released
    replies = [json.loads(ln) for ln in seen["out"].splitlines() if b'"ok"' in ln]
    assert replies == [{"id": 42, "ok": True, "bye": True}]


def test_repl_ends_the_apps_run_loop_instead_of_raising(tmp_path):
    # issue 19: a SystemExit out of main.py soft-resets the rp2 port and the
    # app starts again, so the REPL never got the port; run() now returns
    # and main.py ends at the prompt
    import threading
    hw = FakeHardware(NLEDS, str(tmp_path), clock=RealClock(), seed=5)
    app = App(hw, CFG)
    hw.serial.host_send(b'{"id": 7, "cmd": "repl"}\n')
    runner = threading.Thread(target=app.run, daemon=True)
    runner.start()
    runner.join(timeout=5)
    assert not runner.is_alive()                             # returns: no hang
    assert hw.released and not app.running
    assert b'"bye": true' in bytes(hw.serial.outbox)


def test_unknown_command_and_bad_lines_get_errors(tmp_path):
    dev = Dev(tmp_path)
    reply, pushed = dev.request("dance")
    assert reply["ok"] is False and "dance" in reply["error"] and "hello" in reply["error"]
    assert "rule" not in reply and pushed == []
    for raw in (b"not json\n", b"[1, 2]\n", b'{"id": 5}\n', b'{"id": "x", "cmd": "hello"}\n',
                b'{"id": 1.5, "cmd": "hello"}\n', b'{"id": true, "cmd": "hello"}\n',
                b'{"id": 1073741824, "cmd": "hello"}\n', b"\xff\xfe\n", b"\x03\n"):
        dev.send_raw(raw)
        dev.tick(3)
        msgs = dev.take()
        assert len(msgs) == 1 and msgs[0]["ok"] is False, (raw, msgs)
    dev.send_raw(b'{"id": 5}\n')                      # a readable id is echoed
    dev.tick(3)
    assert dev.take() == [{"id": 5, "ok": False, "error": "missing 'cmd'"}]
    dev.send_raw(b"x" * 3000 + b"\n")
    dev.tick(10)
    msgs = dev.take()
    assert len(msgs) == 1 and msgs[0]["ok"] is False and "too long" in msgs[0]["error"]
    assert dev.ok("hello")[0]["protocol"] == 1


# ===================================================== the mirror and `log`


def _random_session(dev, setup, agent_seed, attempts, undo_every=0):
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
            reply, pushed = dev.ok("undo")
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


@pytest.mark.parametrize("setup,agent_seed", [
    ({"players": 2, "seed": 11}, 1),
    ({"players": 4, "mode": "shoulder", "variants": ["one_for_all"], "seed": 12}, 2),
    ({"players": 1, "mode": "solo", "variants": ["caught_off_guard"], "seed": 13}, 3),
    ({"players": 2, "mode": "marshal", "variants": ["supplies_low"], "seed": 14}, 4),
    ({"players": 3, "variants": ["my_house", "all_for_one", "simple_battles"], "seed": 15}, 5),
])
def test_state_pushes_mirror_the_game_and_log_replays_it(tmp_path, setup, agent_seed):
    dev = Dev(tmp_path)
    accepted = _random_session(dev, setup, agent_seed, attempts=90, undo_every=7)
    assert accepted > 5
    log_setup, log_actions = dev.log()
    assert len(log_actions) == accepted
    for k in ("players", "mode", "seed"):
        if k in setup:
            assert log_setup[k] == setup[k]
    # the log is a scenario: osada's runner rebuilds the device's game exactly
    game, events = scenario.run({**log_setup, "actions": log_actions})
    assert [e for e in events if e["ev"] == "refused"] == []
    st, seq = dev.state()
    assert engine_state(game) == st and seq == accepted
    # also through JSON text, as `osada record` would save it
    text = json.dumps({**log_setup, "actions": log_actions})
    out = json.loads(scenario.run_text(text))
    del out["events"]
    assert out == st


# ================================================================ the buttons


def _to_cell(dev, sector, line):
    """Turn the encoder from where the cursor is to (sector, line)."""
    target = (sector - 1) * 5 + line
    steps = (target - dev.app.siege.ui.cursor) % 30
    dev.turn(1, steps)
    assert dev.app.siege.ui.cursor_cell() == (sector, line)


def test_a_turn_from_the_buttons_alone(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    game = dev.app.siege.game
    e = max(game.enemies, key=lambda x: (x.armor, -x.id))
    assert e.line == 1 and e.armor >= 2
    # the encoder wraps backwards too: one step back is sector 6's city
    dev.turn(-1)
    assert dev.app.siege.ui.cursor_cell() == (6, 4)
    _to_cell(dev, e.sector, e.line)
    dev.take()
    dev.press("action")                                   # hit it
    msgs = dev.take()
    assert msgs[0] == {"ev": "hit", "enemy": e.id, "armor": e.armor}
    assert msgs[-1]["ev"] == "state" and msgs[-1]["seq"] == 1
    assert dev.app.siege.game.log.dicts() == [{"do": "hit", "enemy": e.id}]
    after_hit = snapshot(dev)

    _to_cell(dev, e.sector, 0)                           # an empty rear cell
    dev.take()
    dev.press("action")                                   # nothing there: nothing happens
    assert states_in(dev.take()) == [] and snapshot(dev) == after_hit

    dev.press("back")                                     # phase 4 -> the enemies move
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "move"}
    assert dev.app.siege.game.phase == 6 and dev.app.siege.game.pending is None
    assert dev.app.siege.game.reveals >= 1
    dev.press("action")                                   # reveal one token
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "reveal"}
    turn, player = dev.app.siege.game.turn, dev.app.siege.game.player
    dev.press("back")                                     # end the turn
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "end_turn"}
    assert (dev.app.siege.game.turn, dev.app.siege.game.player) != (turn, player)
    assert dev.app.siege.game.phase == 4
    seq = len(dev.app.siege.game.log)
    assert seq == 4
    st, s = dev.state()
    assert s == seq

    dev.take()
    dev.press("back", long=True)                          # undo the end of turn
    msgs = dev.take()
    assert {"ev": "undo", "seq": seq - 1} in msgs
    assert msgs[-1]["ev"] == "state" and msgs[-1]["seq"] == seq - 1
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "reveal"}
    assert dev.app.siege.game.phase == 6
    for _ in range(3):
        dev.press("back", long=True)
    assert len(dev.app.siege.game.log) == 0
    dev.press("back", long=True)                          # nothing left to undo: harmless
    assert len(dev.app.siege.game.log) == 0
    assert dev.app.siege.game.phase == 4


def test_a_refused_button_action_reports_and_changes_nothing(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    dev.ok("act", action={"do": "push_back", "enemy": 1})   # enemy 1 now in the rear
    e = dev.app.siege.game.enemy(1)
    before = snapshot(dev)
    _to_cell(dev, e.sector, 0)
    dev.take()
    dev.press("action")                       # hit an enemy in the rear: R10
    msgs = dev.take()
    assert [m for m in msgs if m.get("ev") == "refused"] == [
        {"ev": "refused", "rule": "R10", "error": msgs[0]["error"], "source": "buttons"}]
    assert states_in(msgs) == []
    assert snapshot(dev) == before


def _choice_dev(tmp_path):
    Journal(str(tmp_path)).start(Game.from_setup(CHOICE_SETUP).setup_dict())
    dev = Dev(tmp_path)
    assert dev.boot_msgs == [{"ev": "boot", "restored": True, "seq": 0}]
    return dev


def test_damage_choice_answered_with_encoder_and_action(tmp_path):
    dev = _choice_dev(tmp_path)
    dev.press("back")                                   # move: both attack the dotted wall
    p = dev.app.siege.game.pending
    assert p is not None and p["choice"] == "damage" and len(p["candidates"]) == 2
    cands = list(p["candidates"])
    before = snapshot(dev)
    dev.press("back")                                   # not an answer: ignored
    dev.hw.inputs.press("action", long=True)            # no play menu either
    dev.tick()
    assert snapshot(dev) == before
    dev.turn(1)
    dev.turn(1)
    dev.turn(-1)                                        # -> the second candidate
    dev.take()
    dev.press("action")
    assert dev.app.siege.game.log.dicts() == [{"do": "move"}, {"do": "choose", "enemy": cands[1]}]
    game, _ = scenario.run({**CHOICE_SETUP, "actions": [{"do": "move"}, {"do": "choose", "enemy": cands[1]}]})
    assert snapshot(dev) == (engine_state(game), 2)
    assert dev.take()[-1] == {"ev": "state", "seq": 2, "state": engine_state(game)}


def test_play_menu_hedgehog_and_dot(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    e = dev.app.siege.game.enemies[2]
    _to_cell(dev, e.sector, e.line)
    before = snapshot(dev)
    dev.press("action", long=True)                      # the play menu ...
    dev.press("back")                                   # ... cancelled
    assert snapshot(dev) == before
    dev.press("action", long=True)
    dev.turn(1)                                         # kill, [hedgehog], ...
    dev.press("action")
    assert dev.app.siege.game.log.dicts() == [{"do": "hedgehog", "enemy": e.id}]
    st, _ = dev.state()
    assert [x["held"] for x in st["enemies"] if x["id"] == e.id] == [True]
    dev.press("action", long=True)
    dev.turn(1, 3)                                      # ..., push_back, [dot]
    dev.press("action")
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "dot", "sector": e.sector}
    assert dev.state()[0]["dots"] == [e.sector]
    dev.press("action", long=True)
    dev.turn(-1)                                        # wraps to the last: patrol
    dev.press("action")
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "patrol"}
    # back in play mode: ACTION hits again
    dev.press("action")
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "hit", "enemy": e.id}
    assert len(dev.app.siege.game.log) == 4


@pytest.mark.parametrize("players_i,mode_i,variant_is,expect_players", [
    (2, 1, (2, 4), 3),          # 3 players, shoulder, one_for_all + my_house
    (5, 3, (), 5),              # 6 players, marshal: capped to 5 defenders
    (3, 2, (0,), 1),            # solo: one player whatever was picked
    (0, 0, (5,), 2),            # 1 player in standard: made 2
])
def test_setup_menu_starts_a_new_game(tmp_path, players_i, mode_i, variant_is, expect_players):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    dev.ok("act", action={"do": "hit", "enemy": 1})
    dev.press("encoder", long=True)                   # players 1..6
    dev.turn(1, players_i)
    dev.press("action")
    dev.turn(1, mode_i)                               # MODES
    dev.press("action")
    sel = 0
    for v in variant_is:                              # VARIANTS, toggled
        dev.turn(1, v - sel)
        sel = v
        dev.press("action")
    assert len(dev.app.siege.game.log) == 1                 # nothing started yet
    dev.take()
    dev.press("back")                                 # start
    msgs = dev.take()
    evs = [m["ev"] for m in msgs if "ev" in m]
    assert "setup" in evs and evs[-1] == "state" and evs.count("state") == 1
    setup = dev.app.siege.game.setup_dict()
    assert setup["players"] == expect_players
    assert setup["mode"] == MODES[mode_i]
    assert setup["variants"] == sorted(VARIANTS[i] for i in variant_is)
    assert setup["seed"] == dev.hw.free_roll_seed() & 0x3FFFFFFF
    assert len(dev.app.siege.game.log) == 0
    expected = Game.from_setup(setup)
    assert dev.state() == (engine_state(expected), 0)
    assert msgs[-1] == {"ev": "state", "seq": 0, "state": engine_state(expected)}


def test_setup_menu_cancelled_changes_nothing(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    before = snapshot(dev)
    dev.press("encoder", long=True)
    dev.turn(1, 2)
    dev.press("back")                                 # cancel at the players menu
    dev.press("encoder", long=True)
    dev.press("action")
    dev.press("back")                                 # cancel at the mode menu
    assert snapshot(dev) == before
    assert dev.app.siege.game.setup_dict()["seed"] == 3
    dev.turn(1)
    dev.press("action")                               # play mode again: a hit
    assert len(dev.app.siege.game.log) == 1


def test_encoder_press_rolls_the_free_die(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    before = snapshot(dev)
    seen = set()
    for _ in range(60):
        dev.press("encoder")
        msgs = dev.take()
        rolls = [m for m in msgs if m.get("ev") == "roll"]
        assert len(rolls) == 1 and 1 <= rolls[0]["value"] <= 6
        assert states_in(msgs) == []
        seen.add(rolls[0]["value"])
    assert seen == {1, 2, 3, 4, 5, 6}
    assert snapshot(dev) == before


def test_marshal_plays_from_the_buttons(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", players=2, mode="marshal", seed=14)
    dev.press("back")                                  # phase 4 -> move, then phase 7
    assert dev.app.siege.game.phase == 7
    hand = list(dev.app.siege.game.state()["marshal_hand"])
    assert len(hand) >= 2
    dev.press("action")                                # the marshal's menu: his hand
    dev.press("action")                                # pick the first two tokens
    dev.turn(1)
    dev.press("action")
    n = len(dev.app.siege.game.log)
    dev.press("back")                                  # play them
    assert len(dev.app.siege.game.log) == n + 1
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": hand[:2]}


def _marshal_dev(tmp_path, seed=3):
    """Marshal mode in phase 7 from the buttons; seed 3: his hand is sabotage_air, tiger, pz3."""
    dev = Dev(tmp_path)
    dev.ok("new", players=2, mode="marshal", seed=seed)
    dev.press("back")                                  # phase 4: end the turn -> phase 7
    assert dev.app.siege.game.log.dicts() == [{"do": "end_turn"}]
    assert dev.app.siege.game.phase == 7
    return dev


def _refusals(msgs):
    return [m for m in msgs if m.get("ev") == "refused"]


def test_marshal_menu_offers_only_r60_plays(tmp_path):
    dev = _marshal_dev(tmp_path)
    assert dev.app.siege.game.state()["marshal_hand"] == ["sabotage_air", "tiger", "pz3"]
    before = snapshot(dev)
    dev.press("action")                                # his menu
    dev.press("action")                                # sabotage_air alone ...
    dev.take()
    dev.press("back")                                  # ... is no play: refused, with the reason
    msgs = dev.take()
    (r,) = _refusals(msgs)
    assert r["rule"] == "R60" and r["source"] == "buttons"
    assert r["error"].startswith("a lone sabotage_air is no play: one token alone must be a tank")
    assert states_in(msgs) == [] and snapshot(dev) == before
    assert dev.app.siege.ui.mode == 2 and dev.app.siege.ui.menu[0] == "marshal"       # the menu stays open
    dev.turn(1)
    dev.press("action")                                # + tiger
    dev.turn(1)
    dev.take()
    dev.press("action")                                # + pz3: a third token is refused
    (r,) = _refusals(dev.take())
    assert r["rule"] == "R60" and "at most 2" in r["error"]
    assert dev.app.siege.ui.menu[2] == [True, True, False]
    dev.press("back")                                  # two tokens: a play, tanks by die roll
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": ["sabotage_air", "tiger"]}
    assert dev.app.siege.game.turn == 2


def test_marshal_lone_tank_goes_where_he_chooses(tmp_path):
    dev = _marshal_dev(tmp_path)
    dev.press("action")
    dev.turn(1)
    dev.press("action")                                # the tiger alone
    dev.press("back")                                  # -> where? the sector menu
    assert dev.app.siege.ui.menu[0] == "sector"
    dev.turn(1, 3)
    dev.press("action")                                # sector 4
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": ["tiger"], "sector": 4}
    game = dev.app.siege.game
    assert [(e.sector, e.line) for e in game.enemies if e.id == game.next_id - 1] == [(4, 0)]


def test_marshal_back_plays_nothing_and_a_patrol_skips_him(tmp_path):
    dev = _marshal_dev(tmp_path)
    dev.press("back")                                  # phase 7: BACK = he plays nothing
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": []}
    assert (dev.app.siege.game.turn, dev.app.siege.game.phase) == (2, 4)
    hand = list(dev.app.siege.game.marshal_hand)
    dev.press("action", long=True)
    dev.turn(-1)                                       # the play menu's last item: patrol
    dev.press("action")
    dev.press("back")                                  # end the turn: with a patrol, no phase 7 stop
    assert dev.app.siege.game.log.dicts()[-2:] == [{"do": "patrol"}, {"do": "end_turn"}]
    assert (dev.app.siege.game.turn, dev.app.siege.game.phase) == (3, 4) and dev.app.siege.game.marshal_hand == hand


def test_marshal_extra_play_takes_a_lone_non_tank(tmp_path):
    dev = _marshal_dev(tmp_path, seed=11)              # his hand: reveal4, pz3, sabotage_air
    dev.ok("act", action={"do": "marshal_play", "tokens": ["reveal4", "sabotage_air"]})
    assert dev.app.siege.game.pending == {"choice": "marshal_extra", "count": 4}
    hand = [KIND_IDS[k] for k in dev.app.siege.game.marshal_hand]
    lone = [i for i, k in enumerate(hand) if KIND_CLASS[KIND_IDS.index(k)] > 1][0]
    dev.press("action")                                # the menu: up to 4, by die rolls
    dev.turn(1, lone)
    dev.press("action")
    dev.take()
    dev.press("back")
    assert _refusals(dev.take()) == []
    assert dev.app.siege.game.log.dicts()[-1] == {"do": "marshal_play", "tokens": [hand[lone]]}


# ================================================================ LED frames


def _quiet_frame_time(dev):
    """Advance to a time where the cursor blink is off and a frame is due."""
    dev.tick(ms=40)
    while (dev.clock.now // 250) & 1:
        dev.tick(ms=40)
    return dev.clock.now


def test_frame_after_new_is_deterministic(tmp_path):
    frames = {}
    for name, seed in (("a", 42), ("b", 42), ("c", 43)):
        dev = Dev(tmp_path / name, seed=1)
        dev.ok("new", seed=seed)
        dev.tick(100, ms=100)                   # animations over
        now = _quiet_frame_time(dev)
        frames[name] = (now, dev.hw.leds.frame, dev.ok("leds", ms=0)[0]["leds"])
        # the frame for this known state is the renderer's picture of that game
        r = board_from_config(CFG)
        r.render(Game(seed=seed), now)
        assert bytes(r.frame.buf) == dev.hw.leds.frame
    assert frames["a"] == frames["b"]
    assert Game(seed=42).state()["enemies"] != Game(seed=43).state()["enemies"]
    assert frames["a"][1] != frames["c"][1]


def test_frame_changes_when_an_enemy_moves(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=42)
    dev.tick(100, ms=100)
    _quiet_frame_time(dev)
    before = dev.hw.leds.frame
    old = {e.id: (e.sector, e.line, e.armor) for e in dev.app.siege.game.enemies}
    dev.ok("act", action={"do": "move"})
    moved = [e for e in dev.app.siege.game.enemies if e.id in old and (e.sector, e.line) != old[e.id][:2]]
    assert moved
    dev.tick(100, ms=100)                       # the sweep has played
    assert dev.app.siege.anims == []
    now = _quiet_frame_time(dev)
    after = dev.hw.leds.frame
    assert after != before
    r = board_from_config(CFG)
    r.render(replay(dev.app.siege.game.setup_dict(), dev.app.siege.game.log.tuples()), now)
    assert bytes(r.frame.buf) == after
    lay = dev.app.layout
    for e in moved:
        alone = [x for x in dev.app.siege.game.enemies if (x.sector, x.line) == (e.sector, e.line)] == [e]
        was_alone = sum(1 for v in old.values() if v[:2] == old[e.id][:2]) == 1
        if alone and was_alone and e.armor == old[e.id][2] and e.line < 4:
            i_old = lay.index(old[e.id][0], old[e.id][1])
            i_new = lay.index(e.sector, e.line)
            # the enemy's colour moved with it
            assert after[3 * i_new:3 * i_new + 3] == before[3 * i_old:3 * i_old + 3]
            assert after[3 * i_old:3 * i_old + 3] != before[3 * i_old:3 * i_old + 3]


def test_move_sweep_cells(tmp_path):
    """The sweep a move starts lights the cells the moved enemies now stand
    on, grouped by line from the rear inwards; Siege.positions keeps each
    enemy's place as one small int (sector * 8 + line), no tuple."""
    dev = Dev(tmp_path)
    dev.ok("new", seed=42)
    dev.tick(100, ms=100)
    game = dev.app.siege.game
    old = {e.id: (e.sector, e.line) for e in game.enemies}
    before = dev.app.siege.positions
    assert before == {i: s * 8 + line for i, (s, line) in old.items()}
    dev.ok("act", action={"do": "move"})
    groups = [[] for _ in range(5)]
    for e in dev.app.siege.game.enemies:
        if e.id in old and (e.sector, e.line) != old[e.id]:
            groups[e.line].append((e.sector, e.line if e.line < 4 else "city"))
    want = [g for g in groups if g]
    assert want and anim.moved_cells(dev.app.siege, before) == want
    assert anim.cell(3 * 8 + 4) == (3, "city") and anim.cell(6 * 8 + 0) == (6, 0)


def test_every_animation_ends(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", players=3, seed=5)
    agent = RandomPlayer(9, skill=1)
    names = set()
    accepted = 0
    for _ in range(400):
        if dev.app.siege.game.outcome != PLAYING:
            break
        reply, pushed = dev.act(agent.action(dev.app.siege.game))
        if not reply["ok"]:
            continue
        accepted += 1
        names.update(m["ev"] for m in pushed)
        if accepted % 5 == 0:
            dev.ok("roll")
        dev.clock.advance(10000)
        dev.tick(2)
        assert dev.app.siege.anims == [], [type(a).__name__ for a in dev.app.siege.anims]
    assert accepted > 40
    assert {"move", "reveal"} <= names
    # from the buttons too
    dev.press("encoder")
    dev.press("back", long=True)
    dev.clock.advance(10000)
    dev.tick(2)
    assert dev.app.siege.anims == []


# ================================================================ power-safe


def test_restart_restores_game_seq_and_pending_choice(tmp_path):
    dev = _choice_dev(tmp_path)
    dev.ok("act", action={"do": "patrol"})
    dev.ok("act", action={"do": "hit", "enemy": 1})
    dev.ok("undo")
    dev.ok("act", action={"do": "move"})
    st, seq = dev.state()
    assert st["pending"] is not None and st["pending"]["choice"] == "damage"
    assert seq == 2
    log = dev.log()
    del dev                                                  # power cut

    dev2 = Dev(tmp_path, seed=99)
    assert dev2.boot_msgs == [{"ev": "boot", "restored": True, "seq": 2}]
    assert dev2.state() == (st, 2)
    assert dev2.ok("hello")[0]["seq"] == 2
    assert dev2.log() == log
    # the restored choice can be answered, from the buttons
    cand = st["pending"]["candidates"][0]
    dev2.press("action")
    assert dev2.app.siege.game.log.dicts()[-1] == {"do": "choose", "enemy": cand}
    assert dev2.app.siege.game.pending is None
    # and once more
    st3, seq3 = dev2.state()
    dev3 = Dev(tmp_path, seed=7)
    assert dev3.state() == (st3, seq3) == (st3, 3)


def test_restart_restores_a_long_random_game(tmp_path):
    dev = Dev(tmp_path)
    accepted = _random_session(dev, {"players": 3, "seed": 31}, 8, attempts=150, undo_every=9)
    st = dev.state()
    assert st[1] == accepted
    dev2 = Dev(tmp_path, seed=1)
    assert dev2.boot_msgs == [{"ev": "boot", "restored": True, "seq": accepted}]
    assert dev2.state() == st


# ========================================================= a host that never reads


def test_host_that_never_reads(tmp_path):
    serial = MemorySerial(capacity=0)
    dev = Dev(tmp_path, serial=serial)
    limit = dev.app.outbox.limit
    max_line = CFG["serial"]["max_line"]
    e = dev.app.siege.game.enemies[0]
    target = (e.sector - 1) * 5 + e.line
    for _ in range(target):
        dev.hw.inputs.turn(1)
    frames = dev.hw.leds.writes
    for k in range(300):
        serial.host_send(b'{"id": %d, "cmd": "state"}\n{"cmd": "act", "action": {"do": "patrol"}}\n'
                         b'{"cmd": "hello"}\n' % k)
        if k % 2:
            dev.hw.inputs.press("action")            # hit
        else:
            dev.hw.inputs.press("back", long=True)   # undo it
        dev.clock.advance(40)
        dev.app.tick()
        assert dev.app.outbox.pending() <= limit
        assert len(dev.app.reader.buf) <= max_line
    assert serial.host_take() == b""
    # the device kept working: the buttons played, the LEDs were drawn
    assert dev.hw.leds.writes - frames >= 250
    assert dev.app.siege.game.log.dicts() in ([], [{"do": "hit", "enemy": e.id}], [{"do": "patrol"}],
                                        [{"do": "patrol"}, {"do": "hit", "enemy": e.id}])
    # the host reads again, and asks something
    serial.capacity = 1 << 20
    reply, pushed = dev.ok("hello")
    msgs = pushed + [reply]
    over = [m for m in msgs if m.get("ev") == "overflow"]
    assert over and over[0]["dropped"] >= 1
    # it comes before the reply to the host's first new request
    assert msgs.index(over[0]) < msgs.index(reply)
    # resync: the state it then asks for is the device's
    st, seq = dev.state()
    assert (st, seq) == snapshot(dev)
    assert dev.app.outbox.pending() <= limit


def test_host_that_never_reads_small_buffer(tmp_path):
    """A host whose buffer holds a few lines and then is never read: the
    device stays bounded; once the host reads again, every line is either
    delivered or counted in an overflow note, never lost silently."""
    serial = MemorySerial(capacity=300)
    dev = Dev(tmp_path, serial=serial)
    limit = dev.app.outbox.limit
    rolls = 0
    for k in range(2000):
        serial.host_send(b'{"id": %d, "cmd": "log"}\n' % k)
        dev.clock.advance(5)
        dev.app.tick()
        assert dev.app.outbox.pending() <= limit
        if k % 50 == 0:
            dev.hw.inputs.press("encoder")          # free rolls push events
            rolls += 1
    assert len(serial.outbox) == 300
    dev.collect()                                   # the host reads what it held ...
    early = dev.take()
    assert dev.boot_msgs[0]["ev"] == "boot" and early[0]["id"] == 0
    serial.capacity = 1 << 20                       # ... and from now on, everything
    reply, pushed = dev.ok("hello")
    msgs = early + pushed + [reply]
    for _ in range(1000):
        if not serial.inbox and dev.app.outbox.pending() == 0:
            break
        dev.tick()
    msgs += dev.take()
    log_replies = [m for m in msgs if "ok" in m and m["id"] != reply["id"]]
    assert all(m["ok"] and m["actions"] == [] for m in log_replies)
    roll_events = [m for m in msgs if m.get("ev") == "roll"]
    dropped = sum(m["dropped"] for m in msgs if m.get("ev") == "overflow")
    assert len(log_replies) + len(roll_events) + dropped == 2000 + rolls
    ids = [m["id"] for m in log_replies]
    assert ids == sorted(set(ids))                  # in order, none twice


# ================================================================ output budget


class SlowSerial(MemorySerial):
    """A USB line whose every write() takes WRITE_MS of the app's (manual)
    clock and 64 bytes at most: the time a slow host costs is simulated, so
    what is asserted does not depend on how loaded the machine is."""

    WRITE_MS = 2

    def __init__(self, clock):
        MemorySerial.__init__(self)
        self.clock = clock
        self.write_ms = 0          # simulated time spent writing since reset
        self.writes = 0

    def write(self, data):
        self.clock.advance(self.WRITE_MS)
        self.write_ms += self.WRITE_MS
        self.writes += 1
        return MemorySerial.write(self, data[:64])


def test_tick_output_stays_within_the_write_budget(tmp_path):
    # A lot to send over a slow line: the app writes at most WRITE_BUDGET_MS
    # a tick (plus the write under way when it runs out), so the loop, the
    # LEDs and the buttons stay live; a budget per request line (an old bug)
    # spent 15-19 writes (30-38 ms) in one tick here.
    clock = ManualClock()
    serial = SlowSerial(clock)
    dev = Dev(tmp_path, serial=serial, clock=clock)
    app = dev.app
    for k in range(40):
        serial.host_send(b'{"id": %d, "cmd": "state"}\n' % k)
    serial.host_send(b'{"id": 99, "cmd": "log"}\n{"id": 100, "cmd": "leds"}\n')
    dev.hw.inputs.press("encoder")
    worst = 0
    ticks = 0
    got = b""
    for ticks in range(1, 3000):
        serial.write_ms = 0
        app.tick()
        worst = max(worst, serial.write_ms)
        got += serial.host_take()
        if b'"id": 100' in got and not serial.inbox and app.outbox.pending() == 0:
            break
    msgs = [json.loads(line) for line in got.splitlines()]
    assert [m["id"] for m in msgs if "ok" in m] == list(range(40)) + [99, 100]    # all answered, in order
    assert len([m for m in msgs if m.get("ev") == "roll"]) == 1                   # the button was seen
    assert app_mod.WRITE_BUDGET_MS <= 10
    assert worst <= app_mod.WRITE_BUDGET_MS + SlowSerial.WRITE_MS, "%d ms writing in one tick" % worst
    assert ticks > 10 and serial.writes > 100          # the line really was the bottleneck


# ============================================== formerly bugs (kept as regressions)


@pytest.mark.parametrize("turn", [1.0, -1.0, True, False, "1", None, [1], 2, 0])
def test_press_with_a_bad_turn_is_refused_and_the_loop_lives(tmp_path, turn):
    """{"cmd": "press", "turn": 1.0} used to pass the check (1.0 == 1), make
    the cursor a float and kill the loop at the next frame."""
    dev = Dev(tmp_path)
    before = snapshot(dev)
    reply, pushed = dev.request("press", turn=turn)
    assert reply["ok"] is False and "turn" in reply["error"] and pushed == []
    for _ in range(30):
        dev.tick(ms=40)                   # frames with the cursor blink on
    assert dev.app.siege.ui.cursor == 0 and type(dev.app.siege.ui.cursor) is int
    assert dev.ok("hello")[0]["seq"] == 0
    assert snapshot(dev) == before


def _long_game(dev, min_bytes):
    """Play (through the app's own apply, for speed) until the game as one
    scenario would take more than min_bytes."""
    dev.ok("new", players=2, seed=11)
    agent = RandomPlayer(3, skill=2)
    for _ in range(5000):
        game = dev.app.siege.game
        size = len(dumps({"setup": game.setup_dict(), "actions": game.log.dicts()}))
        if size > min_bytes or game.outcome != PLAYING:
            break
        try:
            dev.app.siege.apply(agent.action(game))
        except RuleError:
            continue
        dev.tick()                        # the host reads the pushes
        dev.take()
    assert size > min_bytes and dev.app.siege.game.outcome == PLAYING
    dev.tick(5)
    dev.take()


def test_log_of_a_long_game_comes_in_pages(tmp_path):
    """A game whose log is bigger than the whole outbox (it used to be
    dropped, with no reply) comes page by page, every page answered."""
    dev = Dev(tmp_path)
    _long_game(dev, 2 * dev.app.outbox.limit)
    n = len(dev.app.siege.game.log)
    assert n > 3 * LOG_PAGE
    setup, actions = dev.log()
    assert actions == dev.app.siege.game.log.dicts()
    game, events = scenario.run({**setup, "actions": actions})
    assert [e for e in events if e["ev"] == "refused"] == []
    assert (engine_state(game), n) == snapshot(dev)
    # a page from anywhere, and the last one
    reply, _ = dev.ok("log", **{"from": n - 3})
    assert reply["actions"] == actions[n - 3:] and reply["next"] is None and reply["total"] == n
    reply, _ = dev.ok("log", **{"from": n})
    assert reply["actions"] == [] and reply["next"] is None
    dev.tick(5)
    assert [m for m in dev.take() if m.get("ev") == "overflow"] == []


@pytest.mark.parametrize("start", [-1, "0", True, 1.0, None, [0], 10 ** 30, 4])
def test_log_with_a_bad_from(tmp_path, start):
    dev = Dev(tmp_path)
    dev.ok("new", seed=3)
    for a in ({"do": "hit", "enemy": 1}, {"do": "patrol"}, {"do": "move"}):
        dev.ok("act", action=a)
    reply, pushed = dev.request("log", **{"from": start})
    assert reply["ok"] is False and "from" in reply["error"] and "rule" not in reply
    assert pushed == []


class WrapClock:
    """time.ticks_ms() as on the Pico: wraps at 2**30; diff is ticks_diff."""

    P = 1 << 30

    def __init__(self, start):
        self.t = start

    @property
    def now(self):
        return self.t % self.P

    def ticks_ms(self):
        return self.t % self.P

    def advance(self, ms):
        self.t += ms

    def diff(self, a, b):
        d = (a - b) & (self.P - 1)
        return d - self.P if d >= self.P // 2 else d


def _cursor_after_a_roll(tmp_path, start):
    """The colours the cursor's LED shows in 1 s before a die roll made at
    start + ~1 s, and in 1 s starting 5 s after it."""
    clock = WrapClock(start)
    dev = Dev(tmp_path, clock=clock)
    i = dev.app.layout.index(1, 0)                 # the cursor's cell at start

    def cursor_colours():
        seen = set()
        for _ in range(40):
            dev.tick(ms=25)
            seen.add(tuple(dev.app.frame.rgb_list()[i]))
        return seen

    before = cursor_colours()
    dev.press("encoder")                           # roll, shown for 1.5 s
    rolled_at = clock.ticks_ms()
    dev.tick(ms=5000)                              # long over
    return before, cursor_colours(), rolled_at, clock.ticks_ms()


def test_cursor_comes_back_after_a_roll(tmp_path):
    before, after, _, _ = _cursor_after_a_roll(tmp_path, 0)
    assert len(before) == 2                        # the cursor blinks
    assert after == before


def test_cursor_comes_back_after_a_roll_across_the_tick_wrap(tmp_path):
    before, after, rolled_at, now = _cursor_after_a_roll(tmp_path, WrapClock.P - 2000)
    assert rolled_at > WrapClock.P - 1500 and now < 10000      # the roll's 1.5 s spanned the wrap
    assert len(before) == 2
    assert after == before


def test_a_half_line_left_by_a_host_that_went_away_is_dropped(tmp_path):
    """A partial line with no more bytes for 2 s is forgotten, so the next
    host's first request is answered instead of being glued onto it."""
    dev = Dev(tmp_path)
    dev.send_raw(b'{"id": 5, "cmd": "hel')
    dev.tick(n=3, ms=10)
    assert dev.take() == []                       # still waiting for the rest
    dev.tick(n=3, ms=1000)                        # the sender is gone
    dropped = dev.take()                          # and the next host is told why
    assert [m["ev"] for m in dropped] == ["line_timeout"]
    assert dropped[0]["bytes"] == 21 and "no line end" in dropped[0]["error"]
    reply, pushed = dev.request("hello")
    assert reply["ok"] is True and [m for m in pushed if "ok" in m] == []
    # a slow sender that keeps going is not cut off
    dev.send_raw(b'{"id": 6, "cmd": ')
    dev.tick(n=1, ms=1500)
    dev.send_raw(b'"hello"}\n')
    dev.tick(n=2, ms=10)
    assert [m for m in dev.take() if m.get("id") == 6][0]["ok"] is True


def test_a_configured_buzzer_sounds_what_a_player_must_not_miss(tmp_path):
    """hardware/README.md offers a buzzer ("buzzer": {"pin": N}); it sounds a
    refused button action, a lost building and the end of the game, and is
    silent for the rest (moves, reveals, state pushes)."""
    from osada_fw.hal.fake import FakeBuzzer
    from osada_fw.tones import TONES
    dev = Dev(tmp_path, boot=False)
    bz = dev.hw.buzzer = FakeBuzzer()
    dev.app.boot()
    dev.ok("new", seed=21)
    dev.ok("act", action={"do": "push_back", "enemy": 1})
    assert bz.tones == []                                   # quiet play
    _to_cell(dev, dev.app.siege.game.enemy(1).sector, 0)
    dev.press("action")                                     # R10: refused from the buttons
    assert bz.tones == [TONES["refused"]]
    del bz.tones[:]
    # a game that loses its last building on the first move
    lost = {"board": {"walls": [], "buildings": [1],
                      "enemies": [{"kind": "maus", "sector": 1, "line": "tank"}]}, "seed": 1}
    dev.app.siege.new_game(lost)                                  # (the protocol's new takes no board)
    dev.ok("act", action={"do": "end_turn"})                # the enemy phase: the Maus reaches the city
    assert dev.app.siege.game.outcome == "lost"
    assert bz.tones == [TONES["building_destroyed"], TONES["lost"]]
