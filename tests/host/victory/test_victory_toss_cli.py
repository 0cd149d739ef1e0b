"""`osada victory toss` (host/osada/victory/toss.py): the device's lot for the
first player in words, for both seats and both factions, and the alternation
of later games (V8), the seat worked out again with shared_rules.victory.toss
and checked against the device's; against the real firmware app on fake
hardware (tests/support/app_link.py); a failure is one line on stderr, exit
status 2, nothing on stdout."""

import json
import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from osada import cli as osada_cli
from osada.link import client
from osada.victory import cli, toss, toss_words
from osada_fw.app import App
from osada_fw.config import led_count
from osada_fw.hal.fake import FakeHardware, ManualClock
from osada_fw.victory.mode import MAX_GAME
from tests.support.app_link import CFG, AppTransport


class Bits:
    def __init__(self, *bits):
        self.bits = list(bits)

    def below(self, n):
        return self.bits.pop(0)


def run(capsys, *argv):
    try:
        code = cli.run(list(argv))
    except SystemExit as exc:               # argparse's own exit
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


class Device:
    """The firmware app on fake hardware, which `osada victory toss` (and `osada send`) finds as its device."""

    def __init__(self, tmp_path, monkeypatch, game="siege", bits=(), seed=4):
        self.clock = ManualClock()
        self.app = App(FakeHardware(led_count(CFG), str(tmp_path), clock=self.clock, seed=seed), CFG)
        self.app.boot()
        self.bits = bits
        if game != "siege":
            self.link().request("game", game=game)
        monkeypatch.setattr(toss, "open_link", lambda args: self.link())
        monkeypatch.setattr(osada_cli, "open_link", lambda args: self.link())

    def link(self):
        link = client.Link(lambda: AppTransport(self.app, self.clock))
        link.connect()
        if getattr(self.app.mode, "id", None) == "victory" and self.bits:
            self.app.mode.rng = Bits(*self.bits)
        return link


# ================================================================== words


def state(lot, game, ussr="A", saved=True):
    return {"lot": lot, "game": game, "starter": toss_words.v8_starter(lot, game), "ussr": ussr, "saved": saved}


def test_v8_the_lot_in_words_for_each_seat():
    assert toss_words.describe(state("A", 1), True) == [
        "Seat A (USSR) starts game 1: the lot",
        "  the lot: one random bit, 1/2 (50.0%) for each seat; drawn now",
        "  the ring: seat A's half (sectors 1-3) lit red",
        "  game 2: seat B (Germany) starts (--next)"]
    assert toss_words.describe(state("B", 1), False) == [
        "Seat B (Germany) starts game 1: the lot",
        "  the lot: one random bit, 1/2 (50.0%) for each seat; drawn before, kept",
        "  the ring: seat B's half (sectors 4-6) lit field grey-blue",
        "  game 2: seat A (USSR) starts (--next)"]
    assert toss_words.headline(state("B", 1, ussr="B")) == "Seat B (USSR) starts game 1: the lot"
    assert toss_words.headline(state("A", 1, ussr="B")) == "Seat A (Germany) starts game 1: the lot"


def test_v8_later_games_alternate_in_words():
    assert toss_words.describe(state("A", 2), False) == [
        "game 2: Seat B (Germany) starts: alternating, V8",
        "  the lot gave game 1 to seat A, at 1/2 (50.0%); the first move alternates",
        "  the ring: seat B's half (sectors 4-6) lit field grey-blue",
        "  game 3: seat A (USSR) starts (--next)"]
    assert [toss_words.headline(state("B", g, ussr="B")) for g in (2, 3)] == [
        "game 2: Seat A (Germany) starts: alternating, V8", "game 3: Seat B (USSR) starts: alternating, V8"]
    assert toss_words.describe(state("A", 2, saved=False), False)[-1] == (
        "  not kept on the device's flash: lost if the device restarts")


def test_v8_json_says_who_starts_how_and_who_next():
    out = json.loads(toss.as_json(state("B", 4, ussr="B"), False))
    assert out == {"game": 4, "starter": "A", "faction": "Germany", "how": "alternating", "lot": "B",
                   "lot_chance": "1/2", "tossed": False, "ussr": "B", "next_starter": "B", "rule": "V8"}


@given(st.sampled_from(["A", "B"]), st.integers(1, MAX_GAME))
def test_v8_the_devices_counter_and_the_hosts_rule_agree_on_every_game(lot, game):
    """The device's arithmetic, (lot + game - 1) mod 2, is shared_rules' V8 chain."""
    from osada_fw.victory.mode import SEATS, Victory
    v = Victory.__new__(Victory)
    v.lot, v.game = SEATS.index(lot), game
    assert SEATS[v.starter()] == toss_words.v8_starter(lot, game)


@pytest.mark.parametrize("bad, words", [
    (dict(state("A", 2), starter="A"), "V8: the device says seat A starts game 2, but the lot gave seat A game 1, "
                                       "so seat B starts it"),
    ({"lot": None, "game": 1, "starter": None, "ussr": "A"}, "not a toss"),
    ({"ok": True}, "not a toss"),
    (dict(state("A", 1), game=0), "not a toss"),
])
def test_v8_a_device_answer_that_breaks_the_rule_is_refused(bad, words):
    with pytest.raises(toss_words.TossError) as exc:
        toss_words.checked(bad)
    assert words in str(exc.value)


# ===================================================== against the firmware


@pytest.mark.parametrize("bit, first, second", [
    (0, "Seat A (USSR) starts game 1: the lot", "game 2: Seat B (Germany) starts: alternating, V8"),
    (1, "Seat B (Germany) starts game 1: the lot", "game 2: Seat A (USSR) starts: alternating, V8")])
def test_v8_toss_switch_then_next_on_the_firmware(tmp_path, monkeypatch, capsys, bit, first, second):
    dev = Device(tmp_path, monkeypatch, bits=(bit,))
    monkeypatch.setattr(dev.app, "free_rng", Bits(bit))      # the Victory object takes it as it starts
    code, out, err = run(capsys, "toss", "--switch")
    assert (code, err) == (0, "") and out.splitlines()[0] == first and "drawn now" in out
    assert dev.app.mode.id == "victory"                       # --switch leaves it there, the ring lit
    code, out, err = run(capsys, "toss")                      # read again: the lot stands
    assert (code, err) == (0, "") and out.splitlines()[0] == first and "drawn before, kept" in out
    code, out, err = run(capsys, "toss", "--next")
    assert (code, err) == (0, "") and out.splitlines()[0] == second
    code, out, _ = run(capsys, "toss", "--next", "--json")
    assert json.loads(out)["game"] == 3 and json.loads(out)["starter"] == "AB"[bit]


def test_v8_a_new_match_draws_a_new_lot(tmp_path, monkeypatch, capsys):
    dev = Device(tmp_path, monkeypatch, game="victory", bits=(0,))
    assert run(capsys, "toss")[0] == 0 and run(capsys, "toss", "--next")[0] == 0
    dev.bits = (1,)                                          # the next link finds this lot ready
    code, out, err = run(capsys, "toss", "--new-match")
    assert (code, err) == (0, "") and out.splitlines()[:2] == [
        "Seat B (Germany) starts game 1: the lot", "  the lot: one random bit, 1/2 (50.0%) for each seat; drawn now"]


def test_the_seats_factions_from_the_host(tmp_path, monkeypatch, capsys):
    dev = Device(tmp_path, monkeypatch, game="victory", bits=(0,))
    code, out, err = run(capsys, "toss", "--ussr", "B")
    assert (code, err) == (0, "") and out.splitlines()[0] == "Seat A (Germany) starts game 1: the lot"
    assert dev.app.mode.ussr == 1


@pytest.mark.parametrize("argv, words", [
    (["toss"], "victory toss: the device runs Siege: --switch switches it to Victory Day"),
    (["toss", "--next", "--switch"], "victory toss: V8: no lot yet"),
    (["toss", "--next", "--ussr", "A"], "--ussr goes with the toss, not with --next"),
    (["toss", "--next", "--new-match"], "--new-match goes with the toss, not with --next"),
    (["toss", "--ussr", "C"], "argument --ussr: invalid choice: 'C'"),
])
def test_a_refused_toss_is_one_line_on_stderr_and_nothing_else(tmp_path, monkeypatch, capsys, argv, words):
    dev = Device(tmp_path, monkeypatch)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and words in err, err
    assert getattr(dev.app.mode, "lot", -1) == -1


def test_an_older_firmware_without_the_game_is_said_in_one_line(tmp_path, monkeypatch, capsys):
    Device(tmp_path, monkeypatch)
    from osada_fw import games
    monkeypatch.setattr(games, "GAMES", ("siege", "tank"))
    import osada_fw.gamemenu as gm
    monkeypatch.setattr(gm, "GAMES", ("siege", "tank"))
    code, out, err = run(capsys, "toss", "--switch")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "cannot switch to Victory Day: unknown game 'victory'" in err and "make flash" in err


def test_no_device_is_one_line(capsys):
    code, out, err = run(capsys, "toss", "--port", "/nonexistent/osada-port")
    assert code == 2 and out == "" and err.count("\n") == 1 and "/nonexistent/osada-port" in err


# ====================================================== the page's sessions

# docs/victory-day.md's board sessions, each on a fresh board running the game given: the
# page's output came from `osada sim --seed S`, whose free generator (the lot's) the fake
# board seeds alike; the requests' session runs Victory Day already, as the page says
SESSIONS = ((3, "siege"), (4, "siege"), (3, "siege"), (3, "victory"))


def sessions():
    from test_victory_docs import blocks
    return [b for b in blocks() if b and (b[0].startswith("$ .venv/bin/osada victory toss")
                                          or b[0].startswith("$ .venv/bin/osada send"))]


def test_v8_the_pages_toss_sessions_are_what_the_board_prints(tmp_path, monkeypatch, capsys):
    found = sessions()
    assert len(found) == len(SESSIONS)
    for k, (block, (seed, game)) in enumerate(zip(found, SESSIONS)):
        Device(tmp_path / str(k), monkeypatch, game=game, seed=seed)
        steps = []
        for line in block:
            if line.startswith("$ "):
                steps.append((shlex.split(line[len("$ .venv/bin/osada "):], comments=True), []))
            else:
                steps[-1][1].append(line)
        for argv, shown in steps:
            code = osada_cli.main(argv)
            got = capsys.readouterr()
            assert got.out.splitlines() + got.err.splitlines() == shown, argv
            assert code == (2 if got.err else 0), argv
