"""The game never stops for the flash (issue 19, on CPython with the real
journal over a file system that fails on cue).

A journal write that fails (full, read-only, I/O error) does not refuse the
action: the game goes on in RAM, the reply says `"saved": false`, one
`journal` event says why in words, `hello`/`state` carry the status, the
ring's outer LEDs flash amber, and the first write that works again rewrites
the whole game from RAM.  Boot never crashes on the file system."""

import errno

import pytest
from rules_support import engine_state

from osada_fw import app as app_mod
from osada_fw.store import journal as journal_mod
from shared_rules.siege.engine import replay
from tests.support.device import Dev, states_in


class Flash:
    """Makes the journal's file system fail with `code` while `broken`."""

    def __init__(self, monkeypatch, code=errno.ENOSPC):
        self.code = code
        self.broken = False
        real_open = open

        flash = self

        class File:
            """A file open for writing that fails once the flash does."""

            def __init__(self, f):
                self.f = f

            def write(self, data):
                if flash.broken:
                    raise OSError(flash.code, "injected")
                return self.f.write(data)

            def flush(self):
                if flash.broken:
                    raise OSError(flash.code, "injected")
                self.f.flush()

            def fileno(self):
                return self.f.fileno()

            def close(self):
                self.f.close()

        def fake_open(path, mode="r", *a, **kw):
            if any(c in mode for c in "wax+"):
                if self.broken:
                    raise OSError(self.code, "injected")
                return File(real_open(path, mode, *a, **kw))
            return real_open(path, mode, *a, **kw)

        def fake_mkdir(path, *a):
            if self.broken:
                raise OSError(self.code, "injected")
            return real_mkdir(path, *a)

        real_mkdir = journal_mod.os.mkdir
        monkeypatch.setattr(journal_mod, "open", fake_open, raising=False)
        monkeypatch.setattr(journal_mod.os, "mkdir", fake_mkdir)


def journal_events(msgs):
    return [m for m in msgs if m.get("ev") == "journal"]


@pytest.mark.parametrize("code,words", [(errno.ENOSPC, "flash full"), (errno.EROFS, "flash not writable"),
                                        (errno.EIO, "flash I/O error")])
def test_a_failing_flash_never_refuses_an_action_and_the_game_is_saved_when_it_works_again(
        tmp_path, monkeypatch, code, words):
    flash = Flash(monkeypatch, code)
    dev = Dev(tmp_path)
    dev.ok("new", seed=7)
    for a in ({"do": "move"}, {"do": "reveal"}):
        dev.ok("act", action=a)
    flash.broken = True
    reply, pushed = dev.ok("act", action={"do": "reveal"})
    assert reply["saved"] is False and reply["journal"] == words
    assert journal_events(pushed) == [{"ev": "journal", "saved": False, "status": words}]
    assert len(dev.app.siege.game.log) == 3 and states_in(pushed)[-1]["seq"] == 3
    reply, pushed = dev.ok("act", action={"do": "end_turn"})     # still not saved: said once
    assert reply["saved"] is False and journal_events(pushed) == []
    reply, _ = dev.ok("undo", confirm=True)
    assert reply["saved"] is False and reply["seq"] == 3
    assert dev.ok("hello")[0]["journal"] == words and dev.ok("state")[0]["journal"] == words
    # the ring says it: the outer LED of every sector amber in the sign's window
    r = dev.app.frame
    dev.app.draw(app_mod.FLASH_SIGN_PERIOD_MS * 10 + 10, force=True)
    amber = tuple(r.buf[3 * r.layout.index(1, 0):3 * r.layout.index(1, 0) + 3])
    for s in range(1, 7):
        i = r.layout.index(s, 0)
        assert tuple(r.buf[3 * i:3 * i + 3]) == amber
    assert amber[0] > amber[2] and amber[1] > amber[2]        # GRB order: green and red, no blue
    dev.app.draw(app_mod.FLASH_SIGN_PERIOD_MS * 10 + app_mod.FLASH_SIGN_MS + 10, force=True)
    assert tuple(r.buf[3 * r.layout.index(1, 0):3 * r.layout.index(1, 0) + 3]) != amber

    flash.broken = False                  # space freed / the chip answers again
    reply, pushed = dev.ok("act", action={"do": "end_turn"})
    assert "saved" not in reply
    assert journal_events(pushed) == [{"ev": "journal", "saved": True, "status": "ok"}]
    assert dev.ok("hello")[0]["journal"] == "ok"
    want = engine_state(dev.app.siege.game)
    # every action, those played while unsaved too, is in the journal now
    again = Dev(tmp_path)
    assert again.boot_msgs[0]["restored"] is True and engine_state(again.app.siege.game) == want
    assert again.app.siege.game.log.tuples() == dev.app.siege.game.log.tuples()


def test_a_new_game_on_a_full_flash_is_played_in_ram(tmp_path, monkeypatch):
    flash = Flash(monkeypatch)
    dev = Dev(tmp_path)
    flash.broken = True
    reply, pushed = dev.ok("new", seed=3)
    assert reply["saved"] is False and journal_events(pushed)[0]["status"] == "flash full"
    dev.ok("act", action={"do": "move"})
    assert len(dev.app.siege.game.log) == 1


@pytest.mark.parametrize("code,words", [(errno.ENOSPC, "flash full"), (errno.EROFS, "flash not writable"),
                                        (errno.ENODEV, "no filesystem")])
def test_a_fresh_board_whose_flash_fails_boots_into_a_game(tmp_path, monkeypatch, code, words):
    flash = Flash(monkeypatch, code)
    flash.broken = True
    dev = Dev(tmp_path / "never-made")          # the journal's directory cannot be made
    boot = [m for m in dev.boot_msgs if m.get("ev") == "boot"]
    assert boot == [{"ev": "boot", "restored": False, "seq": 0, "journal": words}]
    assert journal_events(dev.boot_msgs) == [{"ev": "journal", "saved": False, "status": words}]
    reply, _ = dev.ok("act", action={"do": "move"})
    assert reply["saved"] is False and len(dev.app.siege.game.log) == 1


def test_a_saved_game_on_flash_that_turned_read_only_is_restored_and_played_on(tmp_path, monkeypatch):
    dev = Dev(tmp_path)
    dev.ok("new", seed=11)
    dev.ok("act", action={"do": "move"})
    flash = Flash(monkeypatch, errno.EROFS)
    flash.broken = True
    again = Dev(tmp_path)
    assert again.boot_msgs[0]["restored"] is True and len(again.app.siege.game.log) == 1
    reply, pushed = again.ok("act", action={"do": "reveal"})
    assert reply["saved"] is False and journal_events(pushed)[0]["status"] == "flash not writable"
    assert len(again.app.siege.game.log) == 2


def test_a_corrupt_journal_at_boot_starts_a_game_and_says_the_saved_one_was_lost(tmp_path):
    (tmp_path / "journal.bin").write_bytes(b"OSJ\x01" + b"\x53\xff\x0f" + b"garbage")
    dev = Dev(tmp_path)
    boot = dev.boot_msgs[0]
    assert boot["ev"] == "boot" and boot["restored"] is False and "lost" in boot
    assert "setup" in boot["lost"]
    dev.ok("act", action={"do": "move"})
    assert Dev(tmp_path).app.siege.game.log.tuples() == dev.app.siege.game.log.tuples()   # the new game is saved


def test_an_internal_error_while_unsaved_keeps_the_game_from_ram(tmp_path, monkeypatch):
    flash = Flash(monkeypatch)
    dev = Dev(tmp_path)
    dev.ok("new", seed=5)
    flash.broken = True
    dev.ok("act", action={"do": "move"})
    want = engine_state(dev.app.siege.game)
    dev.app.siege.recover()               # what handle_line does after a bug
    assert engine_state(dev.app.siege.game) == want
    assert engine_state(replay(dev.app.siege.game.setup_dict(), dev.app.siege.game.log.tuples())) == want
