"""Issue 63 item 3: a game carried off a board into the journal's own file and onto another
board (`osada journal get FILE`, `osada journal put FILE`): the same game, seed and all; a
game in progress replaced only when asked; a file that is no game, or damaged, refused with
what is wrong and nothing sent. The file is the one Osada in the browser exports and imports
(tests/host/web/test_site.py carries a page's game through the simulator the same way)."""

import os
import random

import pytest

from osada import cli
from osada.link import carry
from osada_fw.siege.commands import HANDLERS
from tests.support.simthread import SimThread

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def _board(tmp_path, name, seed):
    state = tmp_path / name
    state.mkdir()
    return SimThread(tmp_path / (name + ".tty"), state, seed=seed), str(tmp_path / (name + ".tty"))


def _play(board, actions):
    with board.lock:
        for a in actions:
            HANDLERS["act"](board.sim.app, {"cmd": "act", "action": a})


def test_a_game_goes_off_one_board_and_on_to_another_the_same(tmp_path, capsys):
    a, port_a = _board(tmp_path, "a", 3)
    b, port_b = _board(tmp_path, "b", 9)
    f = str(tmp_path / "game.bin")
    try:
        _play(a, [{"do": "end_turn"}, {"do": "move"}])
        want, seq = a.state()
        assert cli.main(["journal", "get", f, "--port", port_a]) == 0
        assert "wrote the board's game" in capsys.readouterr().out
        setup, actions = carry.read_file(f)                  # the journal's own reader
        assert setup == a.sim.app.siege.game.setup_dict() and len(actions) == seq
        other, _ = b.state()
        assert other != want                                 # another seed: another game
        assert cli.main(["journal", "put", f, "--port", port_b]) == 0
        assert "the same state" in capsys.readouterr().out
        got, got_seq = b.state()
        assert (got, got_seq) == (want, seq)
        # the game goes on on the second board as on the first: the same draws from the same seed
        _play(a, [{"do": "end_turn"}])
        _play(b, [{"do": "end_turn"}])
        assert a.state() == b.state()
        # over a game in progress: only when asked
        assert cli.main(["journal", "put", f, "--port", port_b]) == 2
        assert "game in progress" in capsys.readouterr().err and b.state()[1] == seq + 1
        assert cli.main(["journal", "put", f, "--replace", "--port", port_b]) == 0
        assert b.state() == (want, seq)
    finally:
        a.close()
        b.close()


def test_a_file_that_is_no_game_or_damaged_is_refused_and_nothing_sent(tmp_path, capsys):
    a, port_a = _board(tmp_path, "a", 3)
    b, port_b = _board(tmp_path, "b", 9)
    try:
        _play(a, [{"do": "end_turn"}])
        before = b.state()
        junk = tmp_path / "junk.bin"
        junk.write_bytes(random.Random(63).randbytes(200))
        assert cli.main(["journal", "put", str(junk), "--replace", "--port", port_b]) == 2
        assert "holds no game" in capsys.readouterr().err
        good = tmp_path / "good.bin"
        assert cli.main(["journal", "get", str(good), "--port", port_a]) == 0
        data = bytearray(good.read_bytes())
        data[-3] ^= 0x10                                     # a bit flipped in its last record
        torn = tmp_path / "torn.bin"
        torn.write_bytes(bytes(data))
        assert cli.main(["journal", "put", str(torn), "--replace", "--port", port_b]) == 2
        err = capsys.readouterr().err
        assert "damaged" in err and "nothing was carried" in err
        assert b.state() == before
        assert cli.main(["journal", "put", str(tmp_path / "none.bin"), "--port", port_b]) == 2
        assert "no file" in capsys.readouterr().err
        assert cli.main(["journal", "get", "--port", port_b]) == 2
        assert cli.main(["journal", "ack", "--replace", "--port", port_b]) == 2
        assert b.state() == before
    finally:
        a.close()
        b.close()
