"""The War Chest tracker's saved game and its commands: the file written
atomically after every event (a crash loses nothing, a failed write leaves
the last good file), `osada warchest track` refusing a bad setup or file in
one line (the setup checked by the rules core: WA1, W1, W3, W6), and
`osada warchest replay` re-checking a saved game event by event, naming the
first wrong one with its rule id."""

import json
import os

import pytest

from osada import cli
from osada.files import savefile
from osada.warchest import track
from osada.warchest.journal import Journal, JournalError
from shared_rules.warchest.units import preset
from tests.mpy.warchest_play import COUNTS

COUNTS_TEXT = ",".join("%s:%d" % (t, n) for t, n in COUNTS.items())
GOOD = ["p1 draw swordsman,swordsman,royal", "p2 draw", "p1 deploy swordsman", "p2 deploy archer",
        "p1 recruit crossbowman coin=royal", "p2 initiative", "p1 control swordsman", "p2 pass"]


def setup(known=(0,)):
    return {"players": 2, "types": preset("first"), "counts": dict(COUNTS), "initiative": 0, "known": list(known)}


def saved(tmp_path, events, name="game.json"):
    j = Journal.new(str(tmp_path / name), setup())
    j.events = list(events)
    j.save()
    return j.path


def main(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(cli.main(list(argv)))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_the_file_is_written_whole_and_read_back(tmp_path):
    path = saved(tmp_path, GOOD)
    data = json.loads(open(path, encoding="utf-8").read())
    assert data["format"] == "osada-warchest" and data["events"] == GOOD
    assert os.listdir(tmp_path) == ["game.json"]                        # no temp file left
    j = Journal.load(path)
    assert j.events == GOOD and j.setup == setup()
    assert j.game().log[-1]["e"] == "pass"


def test_a_failed_write_keeps_the_last_good_file(tmp_path, monkeypatch):
    path = saved(tmp_path, GOOD[:2])
    j = Journal.load(path)
    j.events.append(GOOD[2])

    def broken(_src, _dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(savefile.os, "replace", broken)
    with pytest.raises(JournalError) as exc:
        j.save()
    assert "No space left on device" in str(exc.value)
    assert Journal.load(path).events == GOOD[:2]
    assert os.listdir(tmp_path) == ["game.json"]


@pytest.mark.parametrize("text,says", [
    ("not json", "not JSON"),
    ('{"format": "something else"}', "is not a saved War Chest game"),
    ('{"format": "osada-warchest", "version": 9}', "version 9"),
    ('{"format": "osada-warchest", "version": 1, "setup": {}, "events": []}', "damaged"),
])
def test_a_file_that_is_not_a_saved_game_is_one_line(tmp_path, text, says):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(JournalError) as exc:
        Journal.load(str(path))
    assert says in str(exc.value) and "\n" not in str(exc.value)


def test_w29_replay_prints_the_events_as_the_table_reads_them(tmp_path, capsys):
    path = saved(tmp_path, GOOD)
    code, out, err = main(capsys, "warchest", "replay", path)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "   1  p1 draw"                                   # the entered coins stay hidden (W24)
    assert lines[4] == "   5  p1 recruit crossbowman"
    assert "8 events, every one within the rules." in out
    assert "Player 1: bag 6, hand 0, face down 1, face up crossbowman 1 · swordsman 1, board swordsman 1, box —" in out
    assert "Player 1: 3 control markers to place, 3 on the board" in out
    code, out, _err = main(capsys, "warchest", "replay", path, "--owner", "1")
    assert "   1  p1 draw swordsman,swordsman,royal" in out


def test_replay_owner_means_what_it_means_in_track(tmp_path, capsys):
    """Issue 42 item 8: `replay --owner 1 FILE` said "unknown option: FILE" (--owner was a flag there, a list
    of players in track).  Now a list of players in both; the old flag's use is told what --owner takes."""
    path = saved(tmp_path, GOOD)
    code, out, err = main(capsys, "warchest", "replay", "--owner", "1", path)
    assert code == 0 and err == "" and "   1  p1 draw swordsman,swordsman,royal" in out
    code, out, err = main(capsys, "warchest", "replay", "--owner", "2", path)
    assert code == 0 and "   1  p1 draw\n" in out                  # player 1's coins stay hidden
    code, out, err = main(capsys, "warchest", "replay", "--owner", path)
    assert code == 2 and out == ""
    assert err == ("osada: warchest replay: --owner takes the players whose hidden coins to print (N or N,N, "
                   "as in track), not the file %r: e.g. --owner 1 %s\n" % (path, path))
    code, out, err = main(capsys, "warchest", "replay", path, "--owner", "3")
    assert code == 2 and err == "osada: warchest replay: --owner: a player is 1..2, not '3'\n"


def test_w16_w28_replay_names_the_first_wrong_event_with_its_rule(tmp_path, capsys):
    path = saved(tmp_path, GOOD[:5] + ["p2 initiative", "p1 initiative coin=swordsman", "p2 pass"])
    code, out, err = main(capsys, "warchest", "replay", path)
    assert code == 1
    assert err == ("osada: warchest replay: %s: event 7 (p1 initiative coin=swordsman): W16: the initiative marker "
                   "has changed hands this round already\n" % path)
    assert out.splitlines()[-1] == "   6  p2 initiative"
    path = saved(tmp_path, GOOD[:4] + ["p1 pass coin=swordsman", "p2 attack archer p1:swordsman"], "b.json")
    code, _out, err = main(capsys, "warchest", "replay", path)
    assert code == 1 and "event 6 (p2 attack archer p1:swordsman): W28:" in err and err.count("\n") == 1


def test_replay_of_a_missing_file_is_one_line(tmp_path, capsys):
    code, out, err = main(capsys, "warchest", "replay", str(tmp_path / "none.json"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "cannot read" in err


def track_args(tmp_path, **kw):
    argv = ["warchest", "track", str(tmp_path / "g.json")]
    for k, v in kw.items():
        argv += ["--" + k, v]
    return argv


@pytest.mark.parametrize("kw,says", [
    ({"counts": COUNTS_TEXT}, "a new game needs --units"),
    ({"units": "first", "counts": COUNTS_TEXT.replace("scout:5", "scout:6")}, "W1: the counts sum to 75 coins"),
    ({"units": "first", "counts": "scout:6"}, "W1: the counts sum to 75 coins"),      # an override is checked too
    ({"units": "first", "counts": "archer:5,scout:4"}, "W28: the archer card prints x4 coins, not 5"),
    ({"units": "crecy", "counts": COUNTS_TEXT}, "flip the marker (W6)"),
    ({"units": "archer,cavalry/scout", "counts": COUNTS_TEXT, "initiative": "1"}, "W3: player 1 has 2 unit cards"),
    ({"units": "archer,dragon", "counts": COUNTS_TEXT}, "'dragon' is not a unit type"),
    ({"units": "first", "counts": "no-such-file"}, "is neither TYPE:N,... nor a file"),
    ({"units": "first", "counts": COUNTS_TEXT, "owner": "3"}, "--owner: a player is 1..2"),
])
def test_wa1_w1_w3_a_bad_new_game_is_one_line_and_saves_nothing(tmp_path, capsys, kw, says):
    code, out, err = main(capsys, *track_args(tmp_path, **kw))
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err
    assert not os.path.exists(tmp_path / "g.json")


def test_wa1_w1_the_published_cards_counts_are_the_default_and_may_be_changed(tmp_path, capsys, monkeypatch):
    """Issue 42 item 12: track asked for all 16 counts; the published cards' are the default now."""
    from shared_rules.warchest.units import CARD_COUNTS, TOTAL_COINS, TYPES
    four = {"archer", "cavalry", "knight", "lancer", "pikeman", "swordsman"}
    assert CARD_COUNTS == {t: 4 if t in four else 5 for t in TYPES} and sum(CARD_COUNTS.values()) == TOTAL_COINS
    monkeypatch.setattr("osada.warchest.app.TrackerApp.run", lambda self: None)
    monkeypatch.setattr("osada.trackerfile.no_terminal", lambda instead: None)   # as in a terminal
    code, out, err = main(capsys, *track_args(tmp_path, units="first"))
    assert code == 0 and err == ""
    assert Journal.load(str(tmp_path / "g.json")).setup["counts"] == CARD_COUNTS
    code, out, err = main(capsys, "warchest", "track", str(tmp_path / "h.json"), "--units", "first",
                          "--counts", "scout:4,knight:5")
    assert code == 0 and err == ""
    assert Journal.load(str(tmp_path / "h.json")).setup["counts"] == dict(CARD_COUNTS, scout=4, knight=5)


def test_track_starts_a_new_game_and_resumes_it(tmp_path, capsys, monkeypatch):
    runs = []
    monkeypatch.setattr("osada.warchest.app.TrackerApp.run", lambda self: runs.append(self))
    monkeypatch.setattr("osada.trackerfile.no_terminal", lambda instead: None)   # as in a terminal
    counts = tmp_path / "counts.txt"
    counts.write_text(COUNTS_TEXT.replace(",", "\n") + "\n")
    code, out, err = main(capsys, *track_args(tmp_path, units="first", counts=str(counts), owner="1"))
    assert code == 0 and err == "" and "saved in" in out
    j = Journal.load(str(tmp_path / "g.json"))
    assert j.setup == dict(setup(), counts=COUNTS) and j.events == []
    j.events = GOOD[:4]
    j.save()
    code, _out, err = main(capsys, "warchest", "track", str(tmp_path / "g.json"))
    assert code == 0 and err == "" and runs[-1].game.log[-1]["e"] == "deploy"
    code, _out, err = main(capsys, *track_args(tmp_path, units="first"))
    assert code == 2 and "holds a game already" in err and err.count("\n") == 1


def test_w14_track_refuses_to_resume_a_file_with_a_wrong_event(tmp_path, capsys):
    path = saved(tmp_path, GOOD[:2] + ["p1 bolster swordsman"])
    code, _out, err = main(capsys, "warchest", "track", path)
    assert code == 2 and "event 3 (p1 bolster swordsman): W14:" in err and err.count("\n") == 1


def test_w6_a_saved_game_whose_setup_breaks_a_rule_is_one_line_naming_it(tmp_path, capsys):
    path = saved(tmp_path, GOOD[:2])
    with open(path) as f:
        data = json.load(f)
    data["setup"]["initiative"] = 5
    with open(path, "w") as f:
        json.dump(data, f)
    code, _out, err = main(capsys, "warchest", "track", path)
    assert code == 2 and err == "osada: warchest track: %s: the setup: W6: who holds the initiative marker? " \
        "a player 1..2 (flip it)\n" % path


def test_the_default_file_is_under_the_output_folder():
    assert track.DEFAULT_FILE.endswith(os.path.join("warchest", "game.json"))


def test_without_a_terminal_track_refuses_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """A script or a pipe (pytest's captured stdin and stdout are no terminal): one line, exit 2,
    no game file made, and a saved game resumed is left as it was, where the tracker used to draw
    into the pipe and wait for keys forever."""
    monkeypatch.setattr("osada.warchest.app.TrackerApp.run", lambda self: pytest.fail("ran without a terminal"))
    code, out, err = main(capsys, *track_args(tmp_path, units="first"))
    assert code == 2 and err.count("\n") == 1 and "needs a terminal" in err and "warchest replay" in err, err
    assert not os.path.exists(tmp_path / "g.json")
    path = saved(tmp_path, GOOD)
    before = open(path, "rb").read()
    code, out, err = main(capsys, "warchest", "track", path)
    assert code == 2 and "needs a terminal" in err and open(path, "rb").read() == before
