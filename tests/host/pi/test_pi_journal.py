"""The game journal on a Raspberry Pi's filesystem: the Blinka HAL keeps the
littlefs-file journal (store/journal.py) in its state directory, and what a
power cut needs on Linux is done before an action is acknowledged: the
journal file fsynced after every record, the directory after every rename."""

import json
import os

import pytest

from osada_fw.hal.fake import ManualClock
from osada_fw.store import journal
from tests.support import pi_fakes
from tests.support.pi_fakes import blinka_app

pi_fakes.blinka_or_skip()
pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names an fd through /proc (Linux)")


def test_every_acknowledged_action_is_fsynced_first(tmp_path, monkeypatch):
    state = tmp_path / "state"
    app = blinka_app(state, ManualClock())
    assert app.hw.open_journal() is None                   # the file journal, not the Pico's raw flash
    synced = []

    def fsync(fd):
        path = os.readlink("/proc/self/fd/%d" % fd)
        replied = [m.get("id") for m in map(json.loads, app.hw.serial.outbox.decode().splitlines()) if "ok" in m]
        synced.append((path, replied))
        os.fsync(fd)

    monkeypatch.setattr(journal, "_fsync", fsync)

    def request(rid, cmd, **fields):
        del synced[:]
        app.hw.serial.outbox = bytearray()
        app.hw.serial.host_send(json.dumps(dict(fields, id=rid, cmd=cmd)).encode() + b"\n")
        for _ in range(5):
            app.hw.clock.advance(20)
            app.tick()
        (reply,) = [m for m in map(json.loads, app.hw.serial.outbox.decode().splitlines()) if m.get("id") == rid]
        assert reply["ok"] is True, reply
        return list(synced)

    # a new game: the snapshot written, synced, renamed, and the rename synced
    done = request(1, "new", players=2, seed=9)
    assert done == [(str(state / "journal.tmp"), []), (str(state), [])]
    assert os.path.exists(state / "journal.bin") and not os.path.exists(state / "journal.tmp")
    # each action: its record synced before its reply is sent
    for rid, action in ((2, {"do": "hit", "enemy": 1}), (3, {"do": "end_turn"})):
        done = request(rid, "act", action=action)
        assert done == [(str(state / "journal.bin"), [])]
    size = os.path.getsize(state / "journal.bin")
    assert size > 11 and app.siege.game.log
