"""`osada line track` (issue 42, item 11): the line-of-battle tracker at the
table.  Cards entered as played, draws, claims proved as they are made, each
refused by its rule and changing nothing; the game saved after every event
and resumed; the saved game read by the other commands as a state file; the
app driven by its keys on a short game, its screen compared as text."""

import asyncio
import json
import os
import shutil

import pytest

from osada import cli
from osada.line import journal as J
from osada.line import table_text
from osada.line.track_app import LineTrackerApp
from shared_rules.errors import RuleError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
EXAMPLE = os.path.join(ROOT, "tests", "host", "line", "example-track.json")
HAND = "R8 R9 B3 G5 Y9 P2 O6"


def table(*events, me="south", hand=HAND):
    t = J.Table(J.new_setup(me, hand))
    for e in events:
        t.apply(e)
    return t


def refused(t, line):
    before = json.dumps(t.data), t.turn
    with pytest.raises(RuleError) as exc:
        t.apply(line)
    assert (json.dumps(t.data), t.turn) == before            # nothing changed
    return exc.value


def test_l5_l6_plays_and_draws_keep_the_hand_and_the_counts():
    t = table("south plays R8 on 2", "north plays B9 on 5", "north draws", "south draws R10")
    st = t.state
    assert [c for c in st.fields[2].cards["south"]] == [("R", 8)] and st.fields[5].cards["north"] == [("B", 9)]
    assert sorted(t.data["hand"]) == sorted(["R9", "B3", "G5", "Y9", "P2", "O6", "R10"])
    assert (st.draw_pile, st.their_hand, t.turn) == (60 - 14 - 2, 7, 2)
    assert refused(t, "south plays G1 on 3").message == "G1 is not in your hand (your hand: R9 R10 B3 G5 Y9 P2 O6)"
    assert refused(t, "north plays R9 on 3").rule == "L1"                  # in my hand: not his to play
    assert refused(t, "south draws X3").rule == "L1"
    assert refused(t, "south plays R9 on 10").rule == "L2"
    assert refused(t, "north draws").rule == "L6"                             # he holds 7
    assert refused(t, "south draws G1").rule == "L6"                          # so do I
    assert refused(t, "south plays").rule == "format"


def test_l8_l11_a_side_takes_size_cards_and_its_completion_turn_is_kept():
    t = table("south plays R8 on 2", "north plays B9 on 2", "south plays R9 on 2", "north draws",
              "south draws R10", "north plays B10 on 2", "south plays R10 on 2")
    assert t.data["fields"]["2"]["completed"] == {"south": 5}
    t.apply("south draws G1")
    assert refused(t, "south plays G1 on 2").rule == "L8"


def test_l17_l19_l20_l21_l22_claims_are_proved_as_they_are_made():
    t = table("south plays R8 on 2", "south draws R10", "south plays R9 on 2", "south draws G1")
    assert refused(t, "south claims 2").rule == "L17"                        # 2 of 3 cards
    t.apply("south plays R10 on 2")
    t.apply("south claims 2")                                                  # wedge (5, 27): nothing beats it
    assert t.state.fields[2].claimed == "south" and t.data["fields"]["2"]["claim_turn"] == 3
    assert refused(t, "north plays B3 on 2").rule == "L21"
    assert refused(t, "north claims 2").rule == "L21"
    weak = table("south plays R8 on 3", "south draws R7", "south plays R9 on 3", "south draws G1",
                 "south plays R7 on 3")
    e = refused(weak, "south claims 3")                                       # wedge (5, 24): G8 G9 G10 beats it
    assert e.rule == "L19" and "North could still beat it on field 3 (with B8 B9 B10)" in e.message
    both = table("south plays B3 on 4", "north plays Y1 on 4", "south plays G5 on 4", "north plays Y2 on 4",
                 "south plays P2 on 4", "north plays Y3 on 4")
    assert refused(both, "south claims 4").rule == "L20"                       # his wedge beats my skirmish
    both.apply("north claims 4")


def test_l22_a_won_game_takes_no_event():
    t = J.Table(J.new_setup("north", "R8 R9 R10 B8 B9 B10 G8"))
    for line in ("north plays R8 on 1", "north draws G9", "north plays R9 on 1", "north draws G10",
                 "north plays R10 on 1", "north claims 1", "north draws O1",
                 "north plays B8 on 2", "north plays B9 on 2", "north plays B10 on 2", "north claims 2",
                 "north plays G8 on 3", "north plays G9 on 3", "north plays G10 on 3", "north claims 3"):
        t.apply(line)
    assert t.state.winner()[0] == "north"
    assert refused(t, "south draws").rule == "L22"
    assert table_text.lines(t.state, t.turn)[-1] == "North has won: fields 1 2 3 in a row (L22)."


def test_the_saved_game_is_resumed_and_read_as_a_state_file(tmp_path, capsys):
    path = str(tmp_path / "game.json")
    j = J.Journal(path, J.new_setup("south", HAND))
    t = j.table()
    for e in ("south plays R8 on 2", "north plays B9 on 5"):
        t.apply(e)
        j.events.append(e)
    j.save()
    again = J.Journal.load(path)
    assert again.events == j.events and again.table().data == t.data
    assert cli.main(["line", "status", "--state", path]) == 0
    out = capsys.readouterr().out
    assert "  2    R8  1/3" in out and "B9  1/3" in out
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data["events"].append("north plays R9 on 1")                              # a hand-edited file: named
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    assert cli.main(["line", "status", "--state", path]) == 2
    assert capsys.readouterr().err == ("osada: line status: %s: event 3 (north plays R9 on 1): L1: R9 is in your "
                                       "hand and on the table (field 1 north): the deck holds each card once\n"
                                       % path)


def test_a_new_game_needs_the_hand_and_a_saved_one_no_setup(tmp_path, capsys, monkeypatch):
    runs = []
    monkeypatch.setattr("osada.trackerfile.no_terminal", lambda instead: None)     # as in a terminal
    monkeypatch.setattr(LineTrackerApp, "run", lambda self: runs.append(self))
    path = str(tmp_path / "g.json")
    assert cli.main(["line", "track", path]) == 2
    assert "a new game needs --hand" in capsys.readouterr().err and not os.path.exists(path)
    assert cli.main(["line", "track", path, "--hand", "R1", "R1"]) == 2
    assert "L1" in capsys.readouterr().err and not os.path.exists(path)
    assert cli.main(["line", "track", path, "--me", "north", "--hand"] + HAND.split()) == 0
    assert "saved in" in capsys.readouterr().out and runs[-1].table.me == "north"
    assert cli.main(["line", "track", path, "--hand", "R1"]) == 2
    assert "holds a game already" in capsys.readouterr().err
    assert cli.main(["line", "track", path]) == 0 and len(runs) == 2


def test_without_a_terminal_the_tracker_refuses_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """Issue 42's leftover: with stdin and stdout not terminals (a script, a pipe) the tracker
    drew into the pipe and waited for keys forever; now one line, exit 2, no file made, and a
    saved game is left as it was.  (pytest's captured stdin and stdout are no terminal.)"""
    import sys as _sys
    assert not _sys.stdin.isatty()
    monkeypatch.setattr(LineTrackerApp, "run", lambda self: pytest.fail("the tracker ran without a terminal"))
    path = str(tmp_path / "g.json")
    assert cli.main(["line", "track", path, "--hand"] + HAND.split()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err and "osada line status" in err, err
    assert not os.path.exists(path)
    J.Journal(path, J.new_setup("south", HAND)).save()
    before = open(path, "rb").read()
    assert cli.main(["line", "track", path]) == 2 and "needs a terminal" in capsys.readouterr().err
    assert open(path, "rb").read() == before


def test_the_tracker_plays_a_short_game_by_its_keys(tmp_path):
    """The docs' example game: its first six events as saved, the rest typed (both claims, a refusal of each)."""
    with open(EXAMPLE, encoding="utf-8") as f:
        example = json.load(f)["events"]
    path = str(tmp_path / "game.json")
    j = J.Journal(path, J.new_setup("south", HAND), example[:6])
    j.save()
    app = LineTrackerApp(J.Journal.load(path))

    async def typed(pilot, key, text):
        await pilot.press(key)
        await pilot.press(*["space" if ch == " " else ch for ch in text])
        await pilot.press("enter")

    def status():
        return app.query_one("#status").content.plain

    async def go():
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            await typed(pilot, "s", "R9 2")
            await typed(pilot, "d", "O1")
            await typed(pilot, "c", "2")
            assert status().startswith("refused: ") and "(L17)" in status()
            await typed(pilot, "n", "b8 5")
            await pilot.press("D")
            await typed(pilot, "s", "R10 2")
            await typed(pilot, "d", "G6")
            await typed(pilot, "c", "2")
            assert status() == "south claims 2 — proved"
            await typed(pilot, "n", "Y2 1")
            await pilot.press("D")
            await typed(pilot, "s", "O6 2")
            assert status().startswith("refused: field 2 is claimed by South") and "(L21)" in status()
            await pilot.pause()
            assert app.query_one("#table").content.plain.splitlines() == app.picture()
    asyncio.run(go())
    assert J.Journal.load(path).events == example                      # saved as it went
    assert app.picture() == table_text.lines(J.Journal.load(EXAMPLE).table().state, 7)


def test_the_docs_show_the_trackers_screen_of_the_example_game():
    t = J.Journal.load(EXAMPLE).table()
    with open(os.path.join(ROOT, "docs", "line-of-battle.md"), encoding="utf-8") as f:
        doc = f.read()
    block = doc.split("```\nLine of battle · you: South")[1].split("```")[0]
    assert ("Line of battle · you: South" + block).rstrip("\n").splitlines() == table_text.lines(t.state, t.turn)
    assert all(len(ln) <= 80 for ln in table_text.lines(t.state, t.turn))


def test_the_example_file_is_the_one_the_docs_name(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "g.json")
    assert J.Journal.load(str(tmp_path / "g.json")).table().turn == 7
