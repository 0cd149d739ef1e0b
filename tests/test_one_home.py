"""One home for each fact (issue 11, item 3): the values below are written
once in the code, and everything else imports them."""

import os
import re

import pytest

from osada.link.client import MAX_LINE, Decoder
from osada_fw.link.protocol import LineReader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE = ("host", "firmware", "shared_rules")

FACTS = [
    # (what, a regex of its literal, where it lives)
    ("the simulator's link path", r"[\"']/tmp/osada-sim[\"']", "host/osada/link/ports.py"),
    ("the Pico's USB vendor id", r"0x2[eE]8[aA]\b", "host/osada/link/ports.py"),
    ("the protocol version", r"PROTOCOL_VERSION\s*=\s*\d", "firmware/osada_fw/link/protocol.py"),
    ("the repository root", r"dirname\(os\.path\.dirname\(", "host/osada/paths.py"),
    ("the LED layouts' names", r"\(\s*[\"']spokes[\"'],\s*[\"']rings[\"'],\s*[\"']ring24[\"']\s*\)",
     "firmware/osada_fw/layouts.py"),
    # issue 27: the monitor said «Кубики» where the log said «Танковый бой»
    ("the games' names for players", r"[\"']tank[\"']\s*:\s*[\"']Tank battle", "host/osada/words/game_names.py"),
    # issue 27: each of these was written two to six times
    ("the device's read-only requests", r"READ_ONLY\s*=", "firmware/osada_fw/games.py"),
    ("the game menu's time at boot", r"\b2500\b", "firmware/osada_fw/games.py"),
    ("the file of the game chosen last", r"[\"']/game[\"']", "firmware/osada_fw/games.py"),
    ("the reading of that file", r"\+\s*SETTING\)\s*(as|:)", "firmware/osada_fw/games.py"),
    ("unloading a module", r"sys\.modules\.pop\(|del sys\.modules\[", "firmware/osada_fw/__init__.py"),
    ("ticks_ms's wrap", r"0x3[fF]{7}\b", "firmware/osada_fw/__init__.py"),
    # issue 27: the line framing (host and device each had one)
    ("a line's byte order mark", r"\\xef\\xbb\\xbf", "firmware/osada_fw/link/protocol.py"),
    ("a CRLF split across reads", r"after_cr\s*=\s*True", "firmware/osada_fw/link/protocol.py"),
]


def sources():
    for top in CODE:
        for dirpath, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(dirpath, f)
                    with open(path, encoding="utf-8") as fh:
                        yield os.path.relpath(path, ROOT), fh.read()


@pytest.mark.parametrize("what,pattern,home", FACTS, ids=[f[0] for f in FACTS])
def test_each_fact_is_written_once(what, pattern, home):
    where = [path for path, text in sources() for _ in re.finditer(pattern, text)]
    assert where == [home], "%s is written in %s" % (what, where)


def test_the_hosts_decoder_cuts_lines_with_the_devices_reader():
    d = Decoder()
    assert isinstance(d.lines, LineReader) and d.lines.max == MAX_LINE
    # as the device's reader does: an over-long line is dropped whole and counted once, even
    # when it comes in several reads, and the line after it is read (CRLF split across reads)
    msgs = d.feed(b"[" + b"x" * MAX_LINE) + d.feed(b"x]\r") + d.feed(b'\n\xef\xbb\xbf{"a": 1}\r\n')
    assert msgs == [{"a": 1}] and d.bad == 1
