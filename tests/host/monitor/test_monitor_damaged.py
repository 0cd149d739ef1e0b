"""A damaged save (issue 64) as the table meets it: the simulator finds its
journal overwritten, keeps the bytes beside it and starts a new game; the
monitor shows what was lost in a dialog until Enter acknowledges it, and
`osada journal save FILE` copies the kept bytes off the device."""

import asyncio
import os
import random

import pytest

from tests.host.monitor.test_monitor import make_app, until, widget_text
from tests.support.simthread import SimThread

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")


def _damaged_sim(tmp_path):
    state = tmp_path / "st"
    state.mkdir()
    junk = random.Random(64).randbytes(300)
    (state / "journal.bin").write_bytes(junk)
    return SimThread(tmp_path / "tty", state, seed=1), junk


def test_the_monitor_shows_a_damaged_save_until_it_is_acknowledged(tmp_path):
    from osada.monitor.screens import DamagedSaveScreen
    dev, junk = _damaged_sim(tmp_path)
    app = make_app(tmp_path / "tty")

    async def run():
        async with app.run_test(size=(140, 45)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, DamagedSaveScreen) and app.screen.query("#damaged"),
                        what="the damaged-save dialog")
            text = str(app.screen.query_one("#damaged").content)
            assert "The saved game was damaged" in text and "300 bytes" in text
            assert "journal-damaged-" in text
            assert app.damaged is not None
            await pilot.press("enter")
            await until(pilot, lambda: app.damaged is None, what="the acknowledgement")
            assert "acknowledged" in widget_text(app, "#status")
            assert dev.sim.app.siege.journal_status() == "ok"
    try:
        asyncio.run(run())
    finally:
        dev.close()


def test_osada_journal_saves_the_kept_bytes_and_acknowledges(tmp_path, capsys):
    from osada import cli
    dev, junk = _damaged_sim(tmp_path)
    try:
        assert cli.main(["journal", "--port", str(tmp_path / "tty")]) == 0
        out = capsys.readouterr().out
        assert out.startswith("damaged: the saved game could not be read") and "300 bytes" in out
        dest = tmp_path / "kept.bin"
        assert cli.main(["journal", "save", str(dest), "--port", str(tmp_path / "tty")]) == 0
        assert dest.read_bytes() == junk
        assert "saved 300 kept bytes" in capsys.readouterr().out
        assert cli.main(["journal", "ack", "--port", str(tmp_path / "tty")]) == 0
        assert "acknowledged" in capsys.readouterr().out
        assert cli.main(["journal", "--port", str(tmp_path / "tty")]) == 0
        assert "reads back in full" in capsys.readouterr().out
        assert cli.main(["journal", "save", "--port", str(tmp_path / "tty")]) == 2
    finally:
        dev.close()
