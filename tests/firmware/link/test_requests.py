"""The device's requests and replies over the USB protocol (firmware/README.md;
osada_fw/link/commands.py, Siege's osada_fw/siege/commands.py), on the fake
hardware: hello and the boot event, state, new, act, undo (a new game's too),
roll, leds, press, repl, unknown commands and unreadable lines.  What each
reply holds, what it pushes before it, and that a refused request changes
nothing, in RAM or in the journal.

Every test drives a real App through tests.support.device's Dev."""

import json

import pytest
from rules_support import canon, engine_state

from osada_fw.app import App
from osada_fw.hal.fake import FakeHardware, ManualClock, RealClock
from osada_fw.link import commands
from shared_rules.siege.engine import Game, replay
from tests.support.device import CFG, NLEDS, Dev, snapshot, states_in


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
    reply, _ = again.request("undo", confirm=True)                # nothing replaced since this boot: a plain undo
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


# ======================================== formerly bugs (kept as regressions)


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


def test_r30_an_undo_past_a_reveal_is_refused_unless_confirmed(tmp_path):
    """Issue 59, 3: `e`, `u`, `e` showed the same tokens again with no word.
    An action that drew tokens or rolled the die for them (R30, R31) is
    taken back only when confirmed, and the undo event says the table saw
    what came out; an action that drew nothing undoes at once."""
    dev = Dev(tmp_path)
    dev.ok("new", players=2, seed=21)
    dev.ok("act", action={"do": "move"})              # moves, draws nothing
    reply, pushed = dev.ok("undo")
    assert pushed[0] == {"ev": "undo", "seq": 0}
    dev.ok("act", action={"do": "end_turn"})          # moves, then reveals 2 tokens (R30)
    before = snapshot(dev)
    reply, pushed = dev.request("undo")
    assert reply["ok"] is False and reply["rule"] == "R30" and "confirm" in reply["error"]
    assert snapshot(dev) == before and states_in(pushed) == []     # nothing changed
    reply, pushed = dev.ok("undo", confirm=True)
    assert reply["seq"] == 0 and {"ev": "undo", "seq": 0, "seen": True} in pushed
    assert Dev(tmp_path).app.siege.game.log.tuples() == []          # journalled
