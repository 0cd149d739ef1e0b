"""The host side of «Кубики» (host/osada/tank/, words/tank_rolls.py): `osada tank watch`
mirrors the device's rolls with their exact odds and logs them, `osada tank
replay` prints a log and re-checks every count.  The device is a real
firmware App on fake hardware behind a Link (as tests/host/link/test_client.py),
the odds are the spec's worked numbers (part (b))."""

import io
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from osada import cli  # noqa: E402
from osada.link import client  # noqa: E402
from osada.tank import ring as tank_ring  # noqa: E402
from osada.tank import rolls, watch  # noqa: E402
from osada.words import tank_rolls  # noqa: E402
from osada_fw.app import App  # noqa: E402
from osada_fw.config import led_count  # noqa: E402
from osada_fw.hal.fake import FakeHardware, ManualClock  # noqa: E402
from osada_fw.tank.mode import MAX_TIED  # noqa: E402
from tests.support.app_link import CFG, AppTransport  # noqa: E402

FIRE = {"ev": "roll", "test": "fire", "dice": [1, 2, 2, 1, 2, 6, 6, 5, 4, 3, 3, 3], "n": 12, "hit": 2,
        "ambush": False, "hits": 5, "protection": 4, "absorbed": 4, "damage": 1, "morale": True, "source": "host"}


def linked(tmp_path):
    clock = ManualClock()
    app = App(FakeHardware(led_count(CFG), str(tmp_path), clock=clock, seed=4), CFG)
    app.boot()
    link = client.Link(lambda: AppTransport(app, clock))
    link.connect()
    return app, link


def test_t12_t16_fire_odds_line_is_the_exact_tail():
    # spec (b) 2: 12 dice hitting on <= 2, P(H >= 5) = 65275/177147 = 36.8%; damage >= 1 vs 4 the same
    assert tank_rolls.odds_line(FIRE) == ("5 hits: you had a 36.8% chance of 5 or more; "
                                          "1 damage: a 36.8% chance of 1 or more")
    six = {"test": "fire", "n": 6, "hit": 3, "hits": 2, "protection": 0, "dice": [1, 2, 4, 5, 6, 6]}
    assert tank_rolls.odds_line(six) == "2 hits: you had a 89.1% chance of 2 or more"     # 57/64
    none = dict(six, hits=0, dice=[4, 4, 5, 5, 6, 6])
    assert tank_rolls.odds_line(none) == "0 hits: a 1.6% chance of none"                 # 1/64
    safe = dict(FIRE, hits=3, absorbed=3, damage=0, morale=False, dice=[1, 2, 2] + [6] * 9)
    assert tank_rolls.odds_line(safe).endswith("no damage (any damage had a 36.8% chance)")
    assert rolls.check(FIRE) == [] and rolls.check(safe) == []


def test_t21_t29_t39_morale_and_duel_odds_lines():
    mor = {"test": "morale", "dice": [3, 5], "steadiness": 7, "sum": 8, "passed": False}
    assert tank_rolls.odds_line(mor) == "failed: the test passes with a 58.3% chance"      # 21/36
    assert rolls.check(mor) == []
    cnt = {"test": "counter", "dice": [2, 5], "winner": "b"}
    assert tank_rolls.odds_line(cnt).startswith("each side wins a counter-attack with a 50.0% chance")
    col = {"test": "collision", "dice": [3, 3], "a": 7, "b": 8, "totals": [10, 11], "winner": "b"}
    assert tank_rolls.odds_line(col) == "A moves in 27.8%, B 58.3%, both stop 13.9% (T39)"    # 10/5/21 of 36
    assert rolls.check(col) == []


@pytest.mark.parametrize("change, words", [
    ({"hits": 6}, "hits says 6 but the dice give 5"),
    ({"damage": 0}, "damage says 0 but the dice give 1"),
    ({"dice": FIRE["dice"][:-1]}, "11 dice, not n = 12"),
    ({"dice": [0] + FIRE["dice"][1:]}, "not faces 1-6"),
    ({"morale": False}, "morale says False but the dice give True"),
    ({"test": "suppress", "intensity": 7}, "rolls 11 dice, not 12"),
])
def test_t27_check_finds_counts_that_do_not_match_the_faces(change, words):
    ev = dict(FIRE, **change)
    assert any(words in b for b in rolls.check(ev)), rolls.check(ev)


def test_watch_mirrors_live_rolls_with_odds_and_logs_them(tmp_path):
    app, link = linked(tmp_path / "dev")
    out = io.StringIO()
    log = tmp_path / "rolls.jsonl"
    w = watch.Watcher(out, str(log))
    assert watch.watch(link, w, switch=True, count=0) == 0       # --switch: for the session only
    assert app.mode is app.siege and "the device now runs Siege" in out.getvalue()
    assert link.request("game", game="tank")["ok"]
    for req in ({"test": "fire", "dice": 12, "hit": 2, "protection": 4}, {"test": "morale", "dice": 2, "steadiness": 7},
                {"test": "counter"}, {"test": "collision", "a": 7, "b": 8}):
        link.send("roll", **req)
    app.hw.inputs.press("action")                                   # a roll from the buttons too
    assert watch.watch(link, w, count=5, seconds=10) == 0
    w.close()
    text = out.getvalue()
    assert "fire 12 dice, hit on <= 2, protection 4:" in text
    assert text.count("you had a") >= 1 and "the test passes with a 58.3% chance" in text
    assert "WRONG" not in text
    assert "    ring: " in text                                       # the ring, as the device shows it
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["test"] for r in recs] == ["fire", "morale", "counter", "collision", "collision"]
    assert recs[-1]["source"] == "buttons" and all("time" in r for r in recs)
    # the saved session replays, every count re-checked
    rep = io.StringIO()
    assert rolls.replay(str(log), rep) == 0
    lines = rep.getvalue().splitlines()
    assert lines[0].startswith("1. fire 12 dice") and lines[1] == "    " + tank_rolls.odds_line(recs[0])
    assert cli.main(["tank", "replay", str(log)]) == 0


def test_replay_flags_a_tampered_log(tmp_path, capsys):
    log = tmp_path / "rolls.jsonl"
    bad = dict(FIRE, hits=7)
    log.write_text(json.dumps(FIRE) + "\n" + json.dumps(bad) + "\nnot json\n" + json.dumps({"ev": "boot"}) + "\n")
    assert cli.main(["tank", "replay", str(log)]) == 1
    out = capsys.readouterr().out
    assert "WRONG: hits says 7 but the dice give 5" in out and "line 3: not JSON" in out
    assert "line 4: not a tank roll" in out and "3 roll(s) do not add up" in out
    assert cli.main(["tank", "replay", str(tmp_path / "missing.jsonl")]) == 2


def test_keys_become_press_requests():
    assert watch.key_request(b"\x1b[C") == {"turn": 1}
    assert watch.key_request(b"\r") == {"button": "action", "long": False}
    assert watch.key_request(b"B") == {"button": "back", "long": True}
    assert watch.key_request(b"z") is None


def test_ring_text_is_the_devices_view_of_the_roll():
    # 12 dice: 4 hits absorbed (blue), 1 damage (red), 7 misses; sector 6 amber: morale test due
    assert tank_ring.text(FIRE) == "BBBB R... .... ---- ---- AAAA"
    assert tank_ring.text(dict(FIRE, morale=False)) == "BBBB R... .... ---- ---- ----"
    # the faces page: face f in sector f, green where it hits (<= 2)
    assert tank_ring.text(FIRE, page=1) == "GG-- GGG- RRR- R--- R--- RR--"
    mor = {"test": "morale", "dice": [3, 5], "steadiness": 7, "sum": 8, "passed": False}
    assert tank_ring.text(mor) == "RRR- --RR RRR- ---- ---- ----"          # 3 and 5, six LEDs a die
    col = {"test": "collision", "dice": [3, 3], "a": 7, "b": 8, "totals": [10, 11], "winner": "b"}
    assert tank_ring.text(col) == "RRR- ---- ---- GGG- ---- ----"
    svg = tank_ring.svg(FIRE)
    assert svg.startswith("<svg") and svg.count("<circle") == 25 and "#ff0000" in svg


def test_the_readme_pictures_are_the_renderers(tmp_path):
    """docs/tank/*.svg are tank_ring's drawings of its EXAMPLES (regenerate:
    .venv/bin/python -m osada.tank.ring docs/tank), and each example adds up."""
    names = tank_ring.write_pictures(str(tmp_path))
    committed = os.path.join(ROOT, "docs", "tank")
    assert sorted(names) == sorted(os.listdir(committed))
    for name in names:
        with open(os.path.join(committed, name), encoding="utf-8") as a, open(tmp_path / name, encoding="utf-8") as b:
            assert a.read() == b.read(), "docs/tank/%s is stale: python -m osada.tank.ring docs/tank" % name
    for _name, _caption, ev, _page in tank_ring.EXAMPLES:
        assert rolls.check(ev) == []


def test_the_monitors_log_words_tank_rolls_with_their_odds():
    from osada.words import texts
    line = texts.describe(FIRE)
    assert line.startswith("fire 12 dice") and line.endswith("1 damage: a 36.8% chance of 1 or more")
    assert texts.describe({"ev": "roll", "value": 4}) == "Free die roll: 4"          # Siege's, as before
    assert texts.describe({"ev": "game", "game": "tank"}) == "The device now runs Tank battle («Танковый бой»)"


@pytest.mark.parametrize("ev", [
    {"ev": "roll", "test": "suppress", "dice": [1, 2], "n": 2, "hit": 2, "hits": 2, "protection": 0},
    {"ev": "roll", "test": "fire", "dice": [1, 2], "n": 2, "hit": "2", "hits": 2},
    {"ev": "roll", "test": "morale", "dice": [1, 2]},
    {"ev": "roll", "test": "collision", "dice": [1]},
    {"ev": "roll", "test": "counter", "dice": [3, 3], "winner": "a"},
])
def test_replay_of_broken_rolls_says_so_and_never_crashes(tmp_path, ev):
    log = tmp_path / "rolls.jsonl"
    log.write_text(json.dumps(ev) + "\n")
    out = io.StringIO()
    assert rolls.replay(str(log), out) == 1
    assert "WRONG" in out.getvalue() or "incomplete" in out.getvalue()


E3 = {"ev": "roll", "test": "collision", "dice": [5, 3, 2, 3, 4], "a": [7, 7], "b": [8, 5, 7],
      "totals": [12, 10, 10, 8, 11], "enter": [0], "winner": "a", "source": "host"}
TIES = {"ev": "roll", "test": "counter", "dice": [2, 6], "ties": 2, "tied": [3, 5], "winner": "b", "source": "host"}


def test_t39_ta9_a_collision_of_several_units_in_words_odds_and_on_the_ring():
    """E3 as the device sends it: each unit's die + its own steadiness, who moves
    in, and before the roll each unit's chance (spec (b) 5: 115/648, 91/216, nobody 95/486)."""
    assert rolls.check(E3) == []
    assert tank_rolls.describe(E3) == ("collision: A1 5+7=12, A2 3+7=10, B1 2+8=10, B2 3+5=8, B3 4+7=11 "
                                       "-> A1 moves in")
    line = tank_rolls.odds_line(E3)
    assert line.startswith("moves in: A1 17.7%, A2 17.7%, B1 42.1%, ") and line.endswith("nobody 19.5% (T39, TA9)")
    assert tank_ring.text(E3) == "WGGG RRR- ---- RR-- RRR- RRRR"
    both = dict(E3, dice=[6, 5, 1, 1, 1], totals=[13, 12, 9, 6, 8], enter=[0, 1])
    assert rolls.check(both) == [] and tank_rolls.describe(both).endswith("A1 and A2 move in")
    tie = dict(E3, dice=[4, 1, 3, 2, 4], totals=[11, 8, 11, 7, 11], enter=[], winner=None)
    assert rolls.check(tie) == [] and tank_rolls.describe(tie).endswith("nobody moves in")
    assert tank_ring.text(tie) == "AAAA R--- ---- AAA- RR-- AAAA"


@pytest.mark.parametrize("change, words", [
    ({"enter": [0, 1]}, "enter says [0, 1] but the dice give [0]"),
    ({"totals": [12, 10, 10, 8, 12]}, "totals says"),
    ({"winner": "b"}, "winner says 'b'"),
    ({"dice": [5, 3, 2, 3]}, "a collision of 2 + 3 units rolls 5 dice, not 4"),
    ({"b": []}, "needs each unit's steadiness"),
])
def test_t39_ta9_replay_rechecks_a_collision_of_several_units(tmp_path, change, words):
    ev = dict(E3, **change)
    assert any(words in b for b in rolls.check(ev)), rolls.check(ev)
    log = tmp_path / "rolls.jsonl"
    log.write_text(json.dumps(E3) + "\n" + json.dumps(ev) + "\n")
    out = io.StringIO()
    assert rolls.replay(str(log), out) == 1 and out.getvalue().count("WRONG") >= 1


def test_t29_ta8_the_counter_attack_says_how_many_ties_were_rerolled(tmp_path):
    assert rolls.check(TIES) == []
    assert tank_rolls.describe(TIES) == "counter-attack: A 2, B 6 -> B moves in (after 2 ties re-rolled: 3-3, 5-5)"
    assert tank_rolls.odds_line(TIES).endswith("; 2 ties or more first: a 2.8% chance")        # 1/36
    assert tank_rolls.describe(dict(TIES, ties=0, tied=[])) == "counter-attack: A 2, B 6 -> B moves in"
    for change, words in (({"ties": 3}, "3 ties re-rolled but 2 tied faces listed"),
                          ({"tied": [3, 7]}, "tied must list the faces"),
                          ({"ties": -1}, "ties must be the number")):
        assert any(words in b for b in rolls.check(dict(TIES, **change)))
    many = dict(TIES, ties=30, tied=[6] * MAX_TIED)        # more than the device keeps: still whole
    assert rolls.check(many) == []
    log = tmp_path / "rolls.jsonl"
    log.write_text(json.dumps(TIES) + "\n" + json.dumps(dict(TIES, ties=1)) + "\n")
    out = io.StringIO()
    assert rolls.replay(str(log), out) == 1
    assert "WRONG: 1 ties re-rolled but 2 tied faces listed" in out.getvalue()


def test_t29_t39_the_devices_counter_attack_and_collision_events_replay_clean(tmp_path):
    app, link = linked(tmp_path / "dev")
    assert link.request("game", game="tank")["ok"]
    log = tmp_path / "rolls.jsonl"
    w = watch.Watcher(io.StringIO(), str(log))
    for k in range(30):
        if k % 2:
            link.send("roll", test="counter")
        else:
            link.send("roll", test="collision", a=[7, 7, 9][:1 + k % 3], b=[8, 5, 7][:3 - k % 3])
    assert watch.watch(link, w, count=30, seconds=20) == 0
    w.close()
    recs = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(recs) == 30 and all(rolls.check(r) == [] for r in recs)
    assert {len(r["dice"]) for r in recs if r["test"] == "collision"} == {4}
    assert all("ties" in r for r in recs if r["test"] == "counter")
    assert rolls.replay(str(log), io.StringIO()) == 0


def test_words_count_right_and_say_impossible():
    """Issue 26 item 9: one die, one hit; a chance of exactly 0 is "no chance (impossible)", never "0.0%"."""
    ev = {"test": "fire", "dice": [2], "n": 1, "hit": 3, "hits": 1, "protection": 0, "absorbed": 0, "damage": 1,
          "morale": True}
    assert tank_rolls.describe(ev).startswith("fire 1 die, hit on <= 3, protection 0: [2] -> 1 hit;")
    ev = {"test": "morale", "dice": [6, 6, 6, 6], "steadiness": 3, "sum": 24, "passed": False}
    assert tank_rolls.describe(ev).startswith("morale 4 dice vs steadiness 3")
    assert tank_rolls.odds_line(ev) == "failed: the test passes with no chance (impossible)"
    ev = {"test": "fire", "dice": [1] * 12, "n": 12, "hit": 1, "hits": 12, "protection": 0, "absorbed": 0,
          "damage": 12, "morale": True}
    assert tank_rolls.odds_line(ev) == "12 hits: you had a chance below 0.05% of 12 or more"


def test_tank_watch_loads_no_textual():
    """Issue 27: `osada tank watch` (and its --start-sim) is a plain terminal tool: the
    simulator process it starts lives beside the link, not in the monitor's package."""
    import subprocess
    code = ("import sys; from osada import cli; from osada.tank import watch; from osada.link import simproc; "
            "sys.exit('textual' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_docs_tank_md_shows_what_watch_prints_for_the_example_rolls():
    """Issue 42 item 1: docs/tank.md's `osada tank watch` transcript (it once left out the ring lines
    watch prints after every roll but the first) is the Watcher's output for tests/host/tank/rolls-example.jsonl,
    the log the page's `osada tank replay` example reads (tests/host/test_doc_examples.py reruns that one)."""
    from osada.tank.watch import Watcher
    with open(os.path.join(ROOT, "docs", "tank.md"), encoding="utf-8") as f:
        page = f.read()
    block = page.split("$ .venv/bin/osada tank watch [--port P] [--switch] [--log rolls.jsonl]\n")[1].split("```")[0]
    out = io.StringIO()
    w = Watcher(out)
    with open(os.path.join(ROOT, "tests", "host", "tank", "rolls-example.jsonl"), encoding="utf-8") as f:
        for line in f:
            w.on_message(json.loads(line))
    assert block == out.getvalue() and w.rolls == 5
