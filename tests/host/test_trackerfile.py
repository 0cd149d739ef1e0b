"""What the trackers' commands share (host/osada/trackerfile.py): a saved game resumed or a
new one made, a setup option refused beside a saved game, one error line for anything wrong,
and no file written when the new game is not to be saved.  The trackers' own tests
(tests/host/line/test_line_track.py, tests/host/warchest/test_warchest_journal.py) run
it through their commands."""

import json
import os

from osada import trackerfile


class Journal:
    def __init__(self, path, fail_save=False):
        self.path, self.fail_save = path, fail_save

    def save(self):
        if self.fail_save:
            raise ValueError("%s: cannot be written" % self.path)
        with open(self.path, "w") as f:
            json.dump({"events": []}, f)


def _open(path, given=(), write=True, start=None, resume=None):
    return trackerfile.open_journal("game track", path, list(given), resume or Journal, start or Journal, write)


def test_a_new_game_is_made_and_saved_and_a_saved_one_resumed(tmp_path, capsys):
    path = str(tmp_path / "g.json")
    journal, code = _open(path, write=False)
    assert code is None and journal.path == path and not os.path.exists(path)   # not saved: not written
    journal, code = _open(path, given=["units"])
    assert code is None and os.path.exists(path)
    resumed = []
    journal, code = _open(path, resume=lambda p: resumed.append(p) or Journal(p), start=lambda p: 1 / 0)
    assert code is None and resumed == [path]
    assert capsys.readouterr().err == ""


def test_a_setup_option_beside_a_saved_game_is_one_line_and_changes_nothing(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text("saved")
    journal, code = _open(str(path), given=["units", "owner"], resume=lambda p: 1 / 0)
    assert journal is None and code == 2 and path.read_text() == "saved"
    assert capsys.readouterr().err == ("osada: game track: %s holds a game already: resume it without --units "
                                       "--owner, or name another file for a new game\n" % path)


def test_a_refusal_or_a_file_that_cannot_be_written_is_one_line(tmp_path, capsys):
    path = str(tmp_path / "g.json")

    def refuse(p):
        raise trackerfile.Refusal("a new game needs --units")

    assert _open(path, start=refuse) == (None, 2)
    assert capsys.readouterr().err == "osada: game track: a new game needs --units\n"
    assert _open(path, start=lambda p: Journal(p, fail_save=True)) == (None, 2)
    assert capsys.readouterr().err == "osada: game track: %s: cannot be written\n" % path
    assert not os.path.exists(path)
