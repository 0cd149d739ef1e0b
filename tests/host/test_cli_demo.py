"""`osada demo` plays the seeded game to its end (won or lost), or says why it
stopped: a --turns cap, closed with a line saying the game is still going."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada import cli  # noqa: E402
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
    assert "to the end of the game" in lines[0]
    assert lines[-1].startswith("Game over: WON in turn %d -- the pool is empty and no enemy is left (R51)" % turn)
    assert "pts" in lines[-1] and "WON" in lines[-10]       # the last board says so too
    assert '{"ev": "won", "rule": "R51"' in "\n".join(lines)


def test_demo_plays_to_a_loss(capsys):
    outcome, turn = the_game(7)
    assert outcome == "lost"
    code, lines = demo(capsys, "--seed", "7")
    assert code == 0
    assert lines[-1] == "Game over: LOST in turn %d -- the last building has fallen (R50)." % turn


def test_demo_turns_cap_says_the_game_goes_on(capsys):
    code, lines = demo(capsys, "--seed", "2026", "--turns", "3")
    assert code == 0
    assert "for at most 3 turns" in lines[0]
    assert lines[-1].startswith("Stopped after 3 turns (--turns 3): the game is still going (turn 4, ")
    assert "Game over" not in "\n".join(lines)
    assert "turn 5 " not in "\n".join(lines)


def test_demo_refuses_bad_arguments(capsys):
    assert cli.main(["demo", "--turns", "0"]) == 2
    assert cli.main(["demo", "--players", "1"]) == 2
    err = capsys.readouterr().err
    assert "--turns must be 1 or more" in err and "R3" in err
