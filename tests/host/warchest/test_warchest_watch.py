"""`osada warchest watch` (host/osada/warchest/watch.py, its words
device_words.py): the device's round tracker mirrored from what the device
says.  The device is a real firmware App on fake hardware behind a Link
(as tests/host/tank/test_tank_host.py); the lines are checked word for word
on the device's own replies and events."""

import io
import sys

import pytest

from osada import cli
from osada.link import client
from osada.warchest import device_words, watch
from osada_fw.app import App
from osada_fw.config import led_count
from osada_fw.hal.fake import FakeHardware, ManualClock
from tests.support.app_link import CFG, AppTransport


class Bits:
    """The device's flip, forced: below(2) gives these bits in order."""

    def __init__(self, bits):
        self.bits = list(bits)

    def below(self, n):
        return self.bits.pop(0)


def linked(tmp_path, bit=0):
    clock = ManualClock()
    app = App(FakeHardware(led_count(CFG), str(tmp_path), clock=clock, seed=4), CFG)
    app.boot()
    app.free_rng = Bits([bit, bit])
    link = client.Link(lambda: AppTransport(app, clock))
    link.connect()
    return app, link


def state(**kw):
    st = {"players": 2, "round": 1, "hand": [3, 3], "markers": [4, 4], "hand_size": 3, "markers_all": 6,
          "markers_start": 4, "initiative": 1, "moved": False, "turn": 1, "winner": None, "flipped": 1,
          "cursor": "markers 1", "undo": 0}
    st.update(kw)
    return st


def test_w6_w11_the_counts_in_words():
    assert device_words.status_lines(state()) == [
        "War Chest («Сундук войны») · round 1 · player 1's action · initiative: player 1",
        "  player 1 (blue): 3 of 3 coins in hand · 4 control markers to place · holds the initiative · his action",
        "  player 2 (red): 3 of 3 coins in hand · 4 control markers to place",
    ]
    moved = state(round=3, hand=[1, 0], markers=[1, 0], initiative=2, moved=True, turn=None, winner=2)
    assert device_words.status_lines(moved) == [
        "War Chest («Сундук войны») · round 3 · game over: player 2 placed his last control marker and won (W7)"
        " · initiative: player 2 (claimed this round: not again until the next, W16)",
        "  player 1 (blue): 1 of 3 coins in hand · 1 control marker to place",
        "  player 2 (red): 0 of 3 coins in hand · no control marker left to place · holds the initiative",
    ]


def test_w6_w12_w16_w11_each_event_in_one_line():
    def ev(what, st, **kw):
        return dict({"ev": "warchest", "what": what, "source": "buttons", "warchest": st}, **kw)
    assert device_words.event_line(ev("new", state(initiative=2, turn=2, flipped=2))) == \
        "new game: the device flipped the initiative marker: player 2 holds it and acts first (W6)"
    assert device_words.event_line(ev("new", state(flipped=None))) == \
        "new game: player 1 holds the initiative, as set (not flipped), and acts first"
    assert device_words.event_line(ev("claim", state(hand=[2, 2], initiative=2, moved=True), player=2)) == \
        "player 2 claimed the initiative with a coin (W12, W16): he acts first next round"
    assert device_words.event_line(ev("action", state(round=2), round_ended=1, player=2)) == \
        "player 2's action done; round 1 is over, both hands empty (W11): round 2, 3 coins each (W8), player 1 first"
    assert device_words.event_line(ev("set", state(markers=[3, 5])), state()) == \
        "fixed: player 1's markers to place 4 -> 3, player 2's markers to place 4 -> 5"
    assert device_words.event_line({"ev": "refused", "game": "warchest", "rule": "W16",
                                    "error": "player 1 holds the initiative marker already"}) == \
        "refused: W16: player 1 holds the initiative marker already (nothing changed)"
    assert device_words.event_line({"ev": "roll"}) is None


def test_watch_mirrors_the_devices_buttons_and_requests(tmp_path):
    app, link = linked(tmp_path / "dev", bit=1)
    out = io.StringIO()
    w = watch.Watcher(out)
    assert watch.watch(link, w, switch=True, count=0) == 0          # --switch: for the session only
    assert app.mode is app.siege and "the device now runs Siege" in out.getvalue()
    assert link.request("game", game="warchest")["ok"]
    out = w.out = io.StringIO()
    w.state = None
    assert watch.watch(link, w, seconds=0.2) == 0                   # the counts as they are

    def step(do):
        do()
        assert watch.watch(link, w, count=w.changes + 1, seconds=10) == 0

    step(lambda: app.hw.inputs.press("action"))                     # player 2 (the flip's) acts
    step(lambda: app.hw.inputs.press("back"))                       # player 1 claims
    step(lambda: link.send("warchest", do="set", player=1, markers=3))
    link.send("press", button="back")                               # refused: player 2 held it (W16)
    assert watch.watch(link, w, seconds=0.3) == 0
    text = out.getvalue().splitlines()
    st = link.request("state")["warchest"]
    assert text[:4] == ["the device flipped the initiative marker: player 2 holds it and acts first (W6)"] + \
        device_words.status_lines(dict(st, round=1, hand=[3, 3], markers=[4, 4], initiative=2, turn=2, moved=False))
    assert text[4] == "player 2's action done"
    assert text[8] == "player 1 claimed the initiative with a coin (W12, W16): he acts first next round"
    assert text[12] == "fixed: player 1's markers to place 4 -> 3"
    assert text[13:16] == device_words.status_lines(st)
    assert text[16] == ("refused: W16: player 2 held the initiative marker earlier this round: it changes hands "
                        "at most once a round (nothing changed)")
    assert len(text) == 17


def test_keys_press_the_devices_buttons_only_while_it_runs_war_chest(tmp_path):
    app, link = linked(tmp_path / "dev", bit=0)
    out = io.StringIO()
    w = watch.Watcher(out)
    keys = iter([b"\r", None, b"q"])
    assert watch.watch(link, w, keys=lambda: next(keys), seconds=5) == 0
    assert "that key does nothing: the device runs Siege, not War Chest" in out.getvalue()
    assert len(app.siege.game.log) == 0                             # nothing pressed in Siege
    assert link.request("game", game="warchest")["ok"]
    keys = iter([b"\r", None, None, b"e", None, None, b"q"])
    assert watch.watch(link, w, keys=lambda: next(keys), seconds=5) == 0
    text = out.getvalue()
    assert "player 1's action done" in text and "the encoder fixes: markers 1" in text
    assert app.mode.hand[0] == 2 and app.mode.cur_p == 0


def test_a_burst_of_keys_in_one_read_presses_each_and_an_unknown_one_is_said(tmp_path):
    """Issue 42 item 4: `tmux send-keys Enter Enter`, arrows in a burst, an SSH session: one read, many keys."""
    app, link = linked(tmp_path / "dev", bit=0)
    assert link.request("game", game="warchest")["ok"]
    sent, send = [], link.send
    link.send = lambda cmd, **fields: (sent.append(fields) if cmd == "press" else None, send(cmd, **fields))[1]
    out = io.StringIO()
    w = watch.Watcher(out)
    keys = iter([b"\r\r", None, None, b"\x1b[C\x1b[C\x1b[C\x1b[D\x1b[C", None, None, b"z\x1b[A\x1b[15~", None,
                 b"\x1b[", b"D", None, None, b"q"])
    assert watch.watch(link, w, keys=lambda: next(keys), seconds=5) == 0
    text = out.getvalue()
    assert text.count("'s action done") == 2, text                     # both Enters: two actions
    assert list(app.mode.hand) == [2, 2]
    action = {"button": "action", "long": False}
    assert sent == [action, action] + [{"turn": t} for t in (1, 1, 1, -1, 1)] + [{"turn": -1}]    # ESC [ | D: one
    said = [ln for ln in text.splitlines() if "does nothing here" in ln]
    assert said == ["'z' does nothing here (the keys are listed above; q quits)",
                    "↑ does nothing here (the keys are listed above; q quits)",
                    "that key does nothing here (the keys are listed above; q quits)"]


def test_keys_become_press_requests():
    assert watch.key_request(b"\x1b[C") == {"turn": 1}
    assert watch.key_request(b"\r") == {"button": "action", "long": False}
    assert watch.key_request(b"b") == {"button": "back", "long": False}
    assert watch.key_request(b"B") == {"button": "back", "long": True}
    assert watch.key_request(b"E") == {"button": "encoder", "long": True}
    assert watch.key_request(b"z") is None


def test_counts_it_cannot_read_are_said_not_crashed_on(tmp_path):
    out = io.StringIO()
    w = watch.Watcher(out)
    w.on_message({"ev": "warchest", "what": "claim", "warchest": {"round": 1}})
    assert "the device changed its counts (claim)" in out.getvalue()
    assert "the device sent counts this tool cannot read" in out.getvalue()


@pytest.mark.parametrize("argv, words", [
    (["warchest", "watch", "--count", "0"], "--count must be 1 or more (got 0)"),
    (["warchest", "watch", "--seconds", "soon"], "invalid float value: 'soon'"),
    (["warchest", "watch", "--swich"], "unknown option: --swich"),
])
def test_bad_options_are_one_line_on_stderr(argv, words, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_no_device_is_one_line(tmp_path, capsys):
    code = cli.main(["warchest", "watch", "--port", str(tmp_path / "nothing"), "--no-keys", "--seconds", "1"])
    err = capsys.readouterr().err
    assert code != 0 and len(err.strip().splitlines()) == 1 and "nothing" in err


def test_watch_loads_no_textual():
    import subprocess
    code = "import sys, osada.warchest.watch; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_long_lines_wrap_at_words_to_the_terminals_width():
    """Issue 61 item 13: at 100 columns the watch's lines wrapped mid-word."""
    out = io.StringIO()
    w = watch.Watcher(out, width=40)
    w.say("  Player 2 claims the initiative with a coin instead of an action (W12)")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and all(len(ln) <= 40 for ln in lines)
    assert lines[0] == "  Player 2 claims the initiative with a"
    assert lines[1] == "    coin instead of an action (W12)"
    out = io.StringIO()
    watch.Watcher(out).say("x " * 80)                     # not a terminal: no wrapping (a pipe keeps its lines)
    assert len(out.getvalue().splitlines()) == 1
