"""`osada demo` plays the seeded game to its end (won or lost), or says why it
stopped: a --turns cap, closed with a line saying the game is still going.
Its events read as the monitor's log sentences (--json: raw JSON), and no
line wraps on an 80-column terminal."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada import cli, texts  # noqa: E402
from osada.board_text import columns  # noqa: E402
from shared_rules.autoplay import RandomPlayer  # noqa: E402
from shared_rules.engine import PLAYING, Game, RuleError  # noqa: E402


def the_game(seed, players=2):
    """The demo's game, played here independently: (outcome, last turn)."""
    g = Game(players=players, seed=seed)
    agent = RandomPlayer(seed, skill=1)
    while g.outcome == PLAYING:
        try:
            g.apply(agent.action(g))
        except RuleError:
            pass
    return g.outcome, g.turn


def demo(capsys, *argv):
    code = cli.main(["demo"] + list(argv))
    return code, capsys.readouterr().out.rstrip("\n").split("\n")


def test_demo_plays_to_a_win(capsys):
    outcome, turn = the_game(2026)
    assert outcome == "won" and turn > 12                  # it used to stop at turn 12, without a word
    code, lines = demo(capsys, "--seed", "2026")
    assert code == 0
    assert "to the end of the game" in " ".join(lines[:2])
    assert lines[-2] == "Game over: WON in turn %d -- the pool is empty and no enemy is left (R51)." % turn
    assert lines[-1].startswith("Ranking: player ") and "pts" in lines[-1]
    boards = [ln for ln in lines if ln.startswith("turn ")]
    assert boards[-1].endswith("WON")                      # the last board says so too
    assert any(ln.startswith("  WON — the pool is empty and no enemy is left (R51); ranking: player") for ln in lines)


def test_demo_plays_to_a_loss(capsys):
    outcome, turn = the_game(7)
    assert outcome == "lost"
    code, lines = demo(capsys, "--seed", "7")
    assert code == 0
    assert lines[-1] == "Game over: LOST in turn %d -- the last building has fallen (R50)." % turn
    assert "  LOST — the last building has fallen (R50)" in lines


def test_demo_turns_cap_says_the_game_goes_on(capsys):
    code, lines = demo(capsys, "--seed", "2026", "--turns", "3")
    assert code == 0
    assert "for at most 3 turns" in " ".join(lines[:2])
    start = [k for k, ln in enumerate(lines) if ln.startswith("Stopped after 3 turns")]
    closing = " ".join(lines[start[0]:])                   # wrapped to 80 columns
    assert closing.startswith("Stopped after 3 turns (--turns 3): the game is still going (turn 4, ")
    assert closing.endswith(" enemies on the board).")
    assert "Game over" not in "\n".join(lines)
    assert "turn 5 " not in "\n".join(lines)


def test_demo_refuses_bad_arguments(capsys):
    assert cli.main(["demo", "--turns", "0"]) == 2
    assert cli.main(["demo", "--players", "1"]) == 2
    err = capsys.readouterr().err
    assert "--turns must be 1 or more" in err and "R3" in err


@pytest.mark.parametrize("argv", [("--seed", "2026"), ("--seed", "7"), ("--seed", "2026", "--turns", "3"),
                                  ("--seed", "3", "--players", "4")])
def test_demo_fits_80_columns_and_speaks_in_sentences(capsys, argv):
    code, lines = demo(capsys, *argv)
    assert code == 0
    wide = [ln for ln in lines if columns(ln) > 80]
    assert not wide, wide[:3]
    text = "\n".join(lines)
    assert '{"ev"' not in text and "{'" not in text
    assert "Revealed " in text and " destroyed" in text
    board = [ln for ln in lines if ln.startswith("sector ")]
    assert board and all(ln.split() == ["sector", "rear", "air", "artillery", "tank", "wall", "city"] for ln in board)


def test_demo_events_are_the_monitors_log_sentences(capsys):
    """Each event line is texts.describe() of the event, with the state before
    its action: the same game played here, its events described the same way."""
    code, lines = demo(capsys, "--seed", "2026", "--turns", "2")
    g = Game(players=2, seed=2026)
    agent = RandomPlayer(2026, skill=1)
    said = []
    while g.turn <= 2:
        before = g.state()
        try:
            events = g.apply(agent.action(g))
        except RuleError:
            continue
        said += [texts.describe(ev, before) for ev in events if ev["ev"] in cli.DEMO_EVENTS]
    assert said
    text = " ".join(ln.strip() for ln in lines)
    pos = 0
    for sentence in said:                                  # in order, wrapped or not
        pos = text.index(" ".join(sentence.split()), pos)
    assert "Tiger E #5 destroyed: trophy for player 2 (+3)" in said


def test_demo_json_keeps_the_raw_events(capsys):
    code, lines = demo(capsys, "--seed", "2026", "--json")
    assert code == 0
    raw = [json.loads(ln) for ln in lines if ln.startswith("  {")]
    assert raw and all(ev["ev"] in cli.DEMO_EVENTS for ev in raw)
    assert raw[-1] == {"ev": "won", "rule": "R51", "ranking": raw[-1]["ranking"]}
    assert {"reveal", "destroyed", "won"} <= {ev["ev"] for ev in raw}
    assert not any(ln.startswith("  Revealed ") for ln in lines)
    assert all(columns(ln) <= 80 for ln in lines if not ln.startswith("  {"))
