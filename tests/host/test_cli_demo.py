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

from osada import cli  # noqa: E402
from osada.words import texts  # noqa: E402
from osada.words.board_text import columns  # noqa: E402
from shared_rules.siege.autoplay import RandomPlayer  # noqa: E402
from shared_rules.siege.engine import PLAYING, Game, RuleError  # noqa: E402


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
    assert board and all(ln.split() == ["sector", "1", "red", "2", "red", "3", "green", "4", "green", "5", "blue",
                                        "6", "blue"] for ln in board)


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
        said += [texts.describe(ev, before) for ev in events if ev["ev"] not in cli.DEMO_QUIET]
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
    assert raw and not any(ev["ev"] in cli.DEMO_QUIET for ev in raw)
    assert raw[-1] == {"ev": "won", "rule": "R51", "ranking": raw[-1]["ranking"]}
    assert {"reveal", "hit", "move", "destroyed", "won"} <= {ev["ev"] for ev in raw}
    assert not any(ln.startswith("  Revealed ") for ln in lines)
    assert all(columns(ln) <= 80 for ln in lines if not ln.startswith("  {"))


def _boards(lines):
    """The demo's boards: {turn: [its lines, the heading excepted]}."""
    boards = {}
    for k, ln in enumerate(lines):
        if ln.startswith("turn ") and lines[k + 1].startswith("sector "):
            rows = [lines[k + 1]]
            for row in lines[k + 2:]:
                if not row or row.startswith("turn ") or (row.startswith(" ") and row[:11].strip()):
                    break                               # an event line (a row's label margin is 11 wide)
                rows.append(row)
            boards[int(ln.split()[1])] = rows
    return boards


def test_demo_board_reads_like_the_monitors(capsys):
    """Issue 26 item 8: the board was transposed against the monitor's (a row a
    sector).  Now a column a sector, 1..6 left to right, and a row a line: rear
    at the top, then air, artillery, tank, the wall, the city.  Rows after a
    line's first (more enemies in a cell) have no label: the same line goes on."""
    code, lines = demo(capsys, "--seed", "3", "--turns", "8")
    boards = _boards(lines)
    assert sorted(boards) == list(range(1, 10))
    for turn, rows in boards.items():
        head = rows[0]
        starts = [head.index("%d %s" % (s, c)) for s, c in
                  zip(range(1, 7), ("red", "red", "green", "green", "blue", "blue"))]
        assert starts == sorted(starts)                     # sectors 1..6, left to right
        labels = [r.split()[0] for r in rows[1:] if not r.startswith(" ")]
        assert labels == ["rear", "air", "artillery", "tank", "wall", "city"], (turn, rows)
    # turn 1 (the seed's setup): one enemy in each sector's air cell, in its sector's column
    air = next(r for r in boards[1] if r.startswith("air "))
    assert air.split()[1:] == ["Sdk1", "Sdk1", "Sdk1", "PzIII2", "Tgr3", "PzIII2"]
    wall = next(r for r in boards[3] if r.startswith("wall "))
    assert wall.split()[1:] == ["wall", "wall", "wall", "no", "wall", "wall", "wall"]   # sector 4's fell
    # turn 6: two enemies in sector 5's rear cell: the second on an unlabelled row, in sector 5's column
    rows = boards[6]
    k = next(i for i, r in enumerate(rows) if r.startswith("rear "))
    col5 = rows[0].index("5 blue")
    assert rows[k][col5:].split()[0] == "PzIII2" and rows[k + 1][:col5].strip() == ""
    assert rows[k + 1][col5:].split()[0] == "Tgr3"


def test_demo_prints_the_hits_the_board_shows(capsys):
    """Issue 26 item 8: with seed 3, sector 5's Tiger went from Tgr3 (turn 2's
    board, artillery) to Tgr1 (turn 3's board, tank) and no line said why."""
    code, lines = demo(capsys, "--seed", "3", "--turns", "3")
    assert code == 0
    boards = _boards(lines)
    col5 = boards[2][0].index("5 blue")
    art = next(r for r in boards[2] if r.startswith("artillery "))
    tank = next(r for r in boards[3] if r.startswith("tank "))
    assert art[col5:].split()[0] == "Tgr3" and tank[col5:].split()[0] == "Tgr1"
    between = lines[lines.index(next(ln for ln in lines if ln.startswith("turn 2 "))):
                    lines.index(next(ln for ln in lines if ln.startswith("turn 3 ")))]
    said = [ln.strip() for ln in between if ln.startswith("  ")]
    hits = [ln for ln in said if ln.startswith("Hit Tiger E #5 ")]
    assert hits == ["Hit Tiger E #5 (sector 5 artillery line): armor 2 left",
                    "Hit Tiger E #5 (sector 5 artillery line): armor 1 left"]
    assert said.index(hits[1]) < said.index("→ 3 enemies moved one step")   # hit, then it moved to the tank line


def _board_of(st):
    return ({(e["id"], e["sector"], e["line"], e["armor"], e["held"]) for e in st["enemies"]},
            st["walls"], st["dots"], st["buildings"])


@pytest.mark.parametrize("seed", [3, 7, 2026])
def test_every_change_of_the_board_has_its_line(capsys, seed):
    """Each action that changes what the board shows (an enemy's place, armor
    or hedgehog, a wall, a ДОТ, a building) prints at least one event, and an
    enemy whose armor changed is named by one of them."""
    g = Game(players=2, seed=seed)
    agent = RandomPlayer(seed, skill=1)
    said = []                       # the hedgehog's marks lifted (no event of their own)
    while g.outcome == PLAYING:
        before = g.state()
        try:
            events = g.apply(agent.action(g))
        except RuleError:
            continue
        shown = [ev for ev in events if ev["ev"] not in cli.DEMO_QUIET]
        lifted = [words for _eid, words in cli._lifted(before, g.state())]
        said += lifted
        if _board_of(before) != _board_of(g.state()):
            assert shown or lifted, (before, events)
        armor = {e["id"]: e["armor"] for e in g.state()["enemies"]}
        for e in before["enemies"]:
            if e["id"] in armor and armor[e["id"]] != e["armor"]:
                named = [ev for ev in shown if ev.get("enemy") == e["id"]] or \
                    [ev for ev in shown if ev["ev"] == "repaired"]
                assert named, (e, events)
    code, lines = demo(capsys, "--seed", str(seed))
    text = "\n".join(lines)
    assert "Hit " in text and "enemies moved one step" in text
    flat = " ".join(" ".join(lines).split())
    for words in said:
        assert words in flat, words
    assert bool(said) == (seed == 2026)     # seed 2026 plays the hedgehog (its "#" goes at the next turn)


def test_demo_into_a_pipe_that_closes_stops_quietly():
    """`osada demo | head` (or a pager quit early): no BrokenPipeError traceback.
    The pipe's reading end is closed before the demo writes, so every write fails."""
    import subprocess
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "host"),
                                                       os.environ.get("PYTHONPATH", "")]))
    r, w = os.pipe()
    os.close(r)                                             # what head does once it has its lines
    try:
        proc = subprocess.run([sys.executable, "-m", "osada.cli", "demo", "--seed", "3"], cwd=ROOT, env=env,
                              stdout=w, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
