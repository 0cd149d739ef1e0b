"""Issue 42 item 10: the event log was empty after `q` and `make run` again.
The monitor that `osada monitor` runs keeps its log in a file (paths.MONITOR_LOG)
and shows it again, above a line that says so; a torn or unwritable file costs
the history only."""

import asyncio
import os

from test_monitor import widget_text  # noqa: F401  (the monitor tests' path set-up)

from osada import monitor
from osada.monitor import logfile


def test_the_log_of_the_last_session_is_there_again(tmp_path):
    path = str(tmp_path / "state" / "monitor-log.jsonl")
    first = monitor.MonitorApp(port=str(tmp_path / "none"), log_file=path)
    first.add_log("Hit Tiger E #5 (sector 5 artillery line): destroyed", "#ff7070")
    first.add_log("— connection lost (gone) —", None)
    with open(path, "a", encoding="utf-8") as f:
        f.write('["torn')                                  # a crash while writing: that line only is lost
    again = monitor.MonitorApp(port=str(tmp_path / "none"), log_file=path)
    assert again.log_lines == ["Hit Tiger E #5 (sector 5 artillery line): destroyed", "— connection lost (gone) —",
                               "— the log of earlier sessions is above —"]
    assert again.log_entries[0][1] == "#ff7070"
    again.add_log("after the torn line", None)
    assert monitor.MonitorApp(port="x", log_file=path).log_lines[-2] == "after the torn line"

    async def run():
        async with again.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            shown = "\n".join(strip.text for strip in again.main.query_one("#log").lines)
            assert "Hit Tiger E #5" in shown and "earlier sessions" in shown
    try:
        asyncio.run(run())
    finally:
        again.shutdown()
    assert monitor.MonitorApp(port="x").log_entries == []                      # tests and scripts: no file


def test_the_file_is_cut_and_an_unwritable_one_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setattr(logfile, "KEEP", 3)
    path = str(tmp_path / "log.jsonl")
    log = logfile.LogFile(path)
    for i in range(7):
        log.append("line %d" % i, None)
    assert [ln for ln, _s in log.load()] == ["line 4", "line 5", "line 6"]
    with open(path, encoding="utf-8") as f:
        assert len(f.read().splitlines()) == 3
    os.chmod(tmp_path, 0o500)
    try:
        stuck = logfile.LogFile(str(tmp_path / "sub" / "log.jsonl"))
        stuck.append("x", None)                                              # no exception
        assert stuck.broken or os.geteuid() == 0
    finally:
        os.chmod(tmp_path, 0o700)


def test_pgup_and_pgdn_scroll_the_event_log(tmp_path):
    """Issue 42's leftover: the log scrolled with the mouse wheel only.  PgUp goes a page back,
    PgDn a page on, down to the newest line; a new event brings the log back to the newest."""
    app = monitor.MonitorApp(port=str(tmp_path / "none"))
    for i in range(120):
        app.add_log("event number %d" % i, None)

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.2)
            log = app.main.query_one("#log")
            end = log.max_scroll_y
            assert end > 0 and log.scroll_y == end                    # the newest shown
            await pilot.press("pageup")
            await pilot.pause(0.05)
            back = log.scroll_y
            assert 0 < end - back <= log.scrollable_content_region.height
            await pilot.press("pageup")
            await pilot.pause(0.05)
            assert log.scroll_y < back
            await pilot.press("pagedown", "pagedown", "pagedown")
            await pilot.pause(0.05)
            assert log.scroll_y == end
            await pilot.press("pageup")
            await pilot.pause(0.05)
            app.add_log("a new event", None)
            await pilot.pause(0.1)
            assert log.scroll_y == log.max_scroll_y                   # the newest again
    try:
        asyncio.run(run())
    finally:
        app.shutdown()


def test_the_sessions_own_lines_are_not_kept_and_one_monitor_keeps_the_file(tmp_path):
    """Issue 61 item 10: every earlier session's "Started the simulator / connected" padded the
    log, and two monitors wrote one file and showed each other's lines."""
    import subprocess
    import sys
    path = str(tmp_path / "state" / "monitor-log.jsonl")
    first = monitor.MonitorApp(port=str(tmp_path / "none"), log_file=path)
    first.add_log("— connected to /tmp/osada-sim (firmware 1, protocol 1) —", "dim", session=True)
    first.add_log("Hit Tiger E #5 (sector 5 artillery line): destroyed", "#ff7070")
    assert monitor.MonitorApp(port="x", log_file=path).log_lines == [
        "Hit Tiger E #5 (sector 5 artillery line): destroyed", "— the log of earlier sessions is above —"]
    # a monitor in another process holds the file: this one neither shows nor writes it
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        with open(path + ".owner", "w") as f:
            f.write("%d\n" % other.pid)
        second = monitor.MonitorApp(port="x", log_file=path)
        assert len(second.log_lines) == 1 and "another monitor keeps the event log" in second.log_lines[0]
        second.add_log("the second monitor's own line", None)
        with open(path, encoding="utf-8") as f:
            assert "second monitor" not in f.read()
    finally:
        other.kill()
        other.wait()
    third = monitor.MonitorApp(port="x", log_file=path)       # the other one is gone: the file is this one's
    assert "Hit Tiger E #5" in third.log_lines[0]
    third.shutdown()
    assert not os.path.exists(path + ".owner")
