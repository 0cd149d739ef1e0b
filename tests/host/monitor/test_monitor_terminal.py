"""`osada monitor` needs a terminal (host/osada/monitor/__init__.py).

Before (issue 26, item 10): with stdin from /dev/null (a script) it drew its
screen into the output, spun at 93-100% CPU and ignored SIGTERM until a
SIGINT ten minutes later.  Now, without a terminal on stdin and stdout it says
so in one sentence (what to use instead) and exits 2 at once; in a terminal,
SIGTERM stops it within seconds."""

import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("textual")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                   os.path.join(ROOT, "firmware")]))

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs POSIX ptys")

SENTENCE = ("osada monitor: it needs a terminal, and here %s one: run it in a terminal, or in a script "
            "use `osada state`, `osada send` or `osada tank watch`")


def monitor(tmp_path, stdin, stdout, timeout=20):
    return subprocess.run([sys.executable, "-m", "osada.cli", "monitor", "--port", str(tmp_path / "none")],
                          stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, env=ENV, timeout=timeout)


def test_no_terminal_on_stdin_is_one_sentence_and_exit_2_at_once(tmp_path):
    master, slave = os.openpty()                      # stdout a terminal, stdin /dev/null
    start = time.monotonic()
    try:
        proc = monitor(tmp_path, subprocess.DEVNULL, slave)
        os.close(slave)
        try:
            drawn = os.read(master, 65536) if select.select([master], [], [], 0.2)[0] else b""
        except OSError:                                # EIO: nobody wrote, and the writer is gone
            drawn = b""
    finally:
        os.close(master)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines() == [SENTENCE % "stdin is not"]
    assert drawn == b""                               # nothing drawn
    assert time.monotonic() - start < 15


def test_a_script_with_stdin_from_dev_null_is_refused(tmp_path):
    proc = monitor(tmp_path, subprocess.DEVNULL, subprocess.PIPE)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines() == [SENTENCE % "neither stdin nor stdout is"]
    assert proc.stdout == b""                         # nothing drawn into the output


def test_no_terminal_on_stdout_is_refused_too(tmp_path):
    master, slave = os.openpty()
    try:
        proc = monitor(tmp_path, slave, subprocess.PIPE)
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines() == [SENTENCE % "stdout is not"]
    assert proc.stdout == b""


def test_in_a_terminal_sigterm_stops_it(tmp_path):
    import fcntl
    import struct
    import termios
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = dict(ENV, TERM="xterm-256color", COLUMNS="120", LINES="40")
    proc = subprocess.Popen([sys.executable, "-m", "osada.cli", "monitor", "--port", str(tmp_path / "none")],
                            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = b""

    def drain(seconds):
        nonlocal seen
        end = time.monotonic() + seconds
        while time.monotonic() < end and proc.poll() is None:
            r, _, _ = select.select([master], [], [], 0.05)
            if r:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    return
    try:
        end = time.monotonic() + 30
        while b"events (newest at the bottom)" not in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", seen):
            assert proc.poll() is None and time.monotonic() < end, seen[-2000:]   # up and drawing
            drain(0.2)
        drain(0.5)
        proc.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        while proc.poll() is None and time.monotonic() - sent < 5:
            drain(0.1)
        assert proc.poll() is not None, "still running 5 s after SIGTERM"
        assert b"Traceback" not in seen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        os.close(master)
