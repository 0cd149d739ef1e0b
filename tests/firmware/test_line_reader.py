"""The device's line reader (firmware/osada_fw/link/protocol.py LineReader): LF, CR
(what `screen` and some terminals send on Enter) and CRLF all end a line, a
CRLF is ONE line end even when its CR and LF arrive in separate reads, and a
UTF-8 byte order mark at the start of a line is dropped.  The same cases run
in real MicroPython, where this code runs on the Pico."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada_fw  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada_fw.link.protocol import LineReader  # noqa: E402

BOM = b"\xef\xbb\xbf"

# (name, reads as they arrive, lines expected; None = "line too long")
CASES = [
    ("lf", [b"a\nb\n"], [b"a", b"b"]),
    ("cr only", [b"a\rb\r"], [b"a", b"b"]),
    ("crlf", [b"a\r\nb\r\n"], [b"a", b"b"]),
    ("crlf split across reads", [b"a\r", b"\nb\r", b"\n", b"c\n"], [b"a", b"b", b"c"]),
    ("cr then a line in the next read", [b"a\r", b"b\r"], [b"a", b"b"]),
    ("cr, empty read, lf", [b"a\r", b"", b"\nb\n"], [b"a", b"b"]),
    ("lf cr is two ends, no empty line", [b"a\n\rb\n"], [b"a", b"b"]),
    ("mixed", [b"x\ry\r\nz\n"], [b"x", b"y", b"z"]),
    ("one byte a read", [bytes([c]) for c in b"ab\r\ncd\ref\n"], [b"ab", b"cd", b"ef"]),
    ("bom", [BOM + b'{"cmd": "hello"}\r\n'], [b'{"cmd": "hello"}']),
    ("bom split", [BOM[:2], BOM[2:] + b"a\r", b"\n" + BOM + b"b\r"], [b"a", b"b"]),
    ("bom only mid-line stays", [b"a" + BOM + b"\n"], [b"a" + BOM]),
    ("no end yet", [b"abc"], []),
    ("overlong, ended by cr", [b"x" * 30 + b"\r\nok\r"], [None, b"ok"]),
    ("overlong, crlf split", [b"x" * 30 + b"\r", b"\nok\n"], [None, b"ok"]),
]
MAX = 24


def run_case(reads):
    r = LineReader(MAX)
    out = []
    for data in reads:
        r.feed(data, out)
    return out


@pytest.mark.parametrize("name,reads,want", CASES, ids=[c[0] for c in CASES])
def test_line_ends(name, reads, want):
    assert run_case(reads) == want


def test_a_cr_only_host_gets_answers_from_the_app(tmp_path):
    """What `screen` sends: requests ended by CR only are answered."""
    from osada_fw.app import App
    from osada_fw.config import led_count, load
    from osada_fw.hal.fake import FakeHardware, ManualClock
    cfg = load(os.path.join(ROOT, "firmware", "config.json"))
    clock = ManualClock()
    hw = FakeHardware(led_count(cfg), str(tmp_path), clock=clock, seed=1)
    app = App(hw, cfg)
    app.boot()
    hw.serial.host_take()
    hw.serial.host_send(b'{"id": 1, "cmd": "hello"}\r{"id": 2, "cmd": "roll"}\r')
    for _ in range(5):
        clock.advance(10)
        app.tick()
    ids = [json.loads(ln).get("id") for ln in hw.serial.host_take().splitlines()]
    assert 1 in ids and 2 in ids


VM_CODE = """
import sys
from osada_fw.link.protocol import LineReader
CASES = %r
res = []
for reads in CASES:
    r = LineReader(%d)
    out = []
    for data in reads:
        r.feed(data, out)
    res.append([None if l is None else l.hex() for l in out])
import json
print(json.dumps(res))
"""


@pytest.mark.micropython
def test_same_lines_in_micropython():
    from osada import mpyvm
    code = VM_CODE % ([c[1] for c in CASES], MAX)
    proc = mpyvm.run_code(code, mounts=mpyvm.project_mounts() + [
        (os.path.join(ROOT, "firmware", "osada_fw"), "/lib/osada_fw")], timeout=120)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    got = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    want = [[None if ln is None else ln.hex() for ln in c[2]] for c in CASES]
    assert got == want
