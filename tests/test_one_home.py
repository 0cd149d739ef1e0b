"""One home for each fact (issue 11, item 3): the values below are written
once in the code, and everything else imports them."""

import ast
import os
import re

import pytest

from osada.buildguide.common import HardwareError
from osada.buildguide.pico import PICO_HEADER, header_pin
from osada.link.client import MAX_LINE, Decoder
from osada_fw.config import GPIOS, NOT_ON_HEADER, ConfigError, on_header, validate
from osada_fw.layouts import SECTOR_LEDS
from osada_fw.link.protocol import LineReader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE = ("host", "firmware", "shared_rules")

FACTS = [
    # (what, a regex of its literal, where it lives)
    ("the simulator's link path", r"[\"']/tmp/osada-sim[\"']", "host/osada/link/ports.py"),
    ("the Pico's USB vendor id", r"0x2[eE]8[aA]\b", "host/osada/link/ports.py"),
    ("the protocol version", r"PROTOCOL_VERSION\s*=\s*\d", "firmware/osada_fw/link/protocol.py"),
    ("the repository root", r"dirname\(os\.path\.dirname\(", "host/osada/files/paths.py"),
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
    # issue 27: the line framing (host and device each had one), the header's pins (the config and the
    # build guide), the ring's LED count (main.py's no_app writes it too: see test_no_app_lights_the_ring)
    ("a line's byte order mark", r"\\xef\\xbb\\xbf", "firmware/osada_fw/link/protocol.py"),
    ("a CRLF split across reads", r"after_cr\s*=\s*True", "firmware/osada_fw/link/protocol.py"),
    ("the GPIOs the Pico's header lacks", r"\b23,\s*24,\s*25,\s*29\b", "firmware/osada_fw/config.py"),
    ("the ring's LED count", r"SECTOR_LEDS\s*=\s*\d", "firmware/osada_fw/layouts.py"),
]

# facts every reader derives from their home: written nowhere in the code
DERIVED = [
    ("the header's GPIOs in words", r"\b(GP)?0\s*-\s*(GP)?22\b|\b(GP)?26\s*-\s*(GP)?28\b"),
    ("the GPIOs the header lacks in words", r"\b(GP)?23\s*-\s*(GP)?25\b"),
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


@pytest.mark.parametrize("what,pattern", DERIVED, ids=[f[0] for f in DERIVED])
def test_each_derived_fact_is_written_nowhere(what, pattern):
    where = [path for path, text in sources() for _ in re.finditer(pattern, text)]
    assert where == [], "%s is written in %s" % (what, where)


def test_the_hosts_decoder_cuts_lines_with_the_devices_reader():
    d = Decoder()
    assert isinstance(d.lines, LineReader) and d.lines.max == MAX_LINE
    # as the device's reader does: an over-long line is dropped whole and counted once, even
    # when it comes in several reads, and the line after it is read (CRLF split across reads)
    msgs = d.feed(b"[" + b"x" * MAX_LINE) + d.feed(b"x]\r") + d.feed(b'\n\xef\xbb\xbf{"a": 1}\r\n')
    assert msgs == [{"a": 1}] and d.bad == 1


def test_the_build_guides_header_has_the_firmwares_gpios():
    named = sorted(int(name[2:]) for name in PICO_HEADER.values() if name.startswith("GP"))
    assert named == on_header() and len(named) + len(NOT_ON_HEADER) == GPIOS
    for gpio in range(GPIOS + 2):          # the guide and the config refuse the same pins
        try:
            header_pin(gpio)
            host_ok = True
        except HardwareError:
            host_ok = False
        try:
            validate({"buzzer": {"pin": gpio}, "leds": {"pin": 8 if gpio == 2 else 2}})
            device_ok = True
        except ConfigError as exc:
            device_ok = "both use" in str(exc)
        assert host_ok == device_ok == (gpio in named), gpio
    # and say so in words made from the one list
    with pytest.raises(HardwareError) as exc:
        header_pin(25)
    assert str(exc.value) == ("GPIO 25 is not on the Pico's header (the board itself uses GP23-GP25 and GP29); "
                              "use GP0-GP22 or GP26-GP28")
    with pytest.raises(ConfigError) as exc:
        validate({"leds": {"pin": 29}})
    assert str(exc.value) == "leds.pin must be a GPIO on the Pico's header: 0-22, 26-28 (got 29)"


def test_no_app_lights_the_ring():
    """firmware/main.py's no_app runs when the app is not on the board, so it
    cannot import osada_fw.layouts: the number of LEDs it lights is written
    there, and must be the ring's, SECTOR_LEDS."""
    with open(os.path.join(ROOT, "firmware", "main.py"), encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    counts = [ast.literal_eval(node.args[1]) for node in ast.walk(tree)
              if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "NeoPixel"]
    assert counts == [SECTOR_LEDS]
