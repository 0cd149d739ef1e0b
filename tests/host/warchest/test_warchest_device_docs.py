"""docs/war-chest.md's section on the device says what the device and the
host do: its drawing of the ring is the simulator's window (host/osada/sim)
for the game it describes, its `make run GAME=warchest` transcript is what
`osada warchest watch` prints for the keys it names, and its tables name
every key of the device, the simulator and watch.

    python tests/host/warchest/test_warchest_device_docs.py   # prints both, to paste after a change"""

import io
import os
import re
import sys
import tempfile

from osada.link import client
from osada.sim import view as S
from osada.terminal import gamekeys
from osada.warchest import watch
from osada_fw import gamemenu
from osada_fw.app import App
from osada_fw.config import led_count
from osada_fw.hal.fake import FakeHardware, ManualClock
from osada_fw.warchest import view as wc_view
from osada_fw.warchest.mode import FIX_MS
from tests.support.app_link import CFG, AppTransport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DOC = os.path.join(ROOT, "docs", "war-chest.md")
# the transcript's keys: player 1 acts, player 2 claims the initiative, player 1 takes a
# location (his markers 4 -> 3) and ends his action, player 2 tries to claim again
# (refused, W16), then acts, and both hands run out: round 2
KEYS = (b"\r", b"b", b"\x1b[D", b"\r", b"b", b"\r", b"\r", b"\r")


class Bits:
    def __init__(self, bits):
        self.bits = list(bits)

    def below(self, n):
        return self.bits.pop(0)


def _device(state_dir):
    """A fresh device (its state in state_dir), its flip forced to player 1."""
    clock = ManualClock()
    app = App(FakeHardware(led_count(CFG), str(state_dir), clock=clock, seed=4), CFG)
    app.boot()
    app.free_rng = Bits([0])                       # the flip: player 1
    return app, clock


def drawing(state_dir):
    """The simulator's window, colours off, after player 1 acted, player 2
    claimed and player 1 placed a marker (the docs' picture)."""
    app, clock = _device(state_dir)
    gamemenu.switch(app, "warchest")
    clock.advance(wc_view.FLIP_MS)
    for ev in (("press", "action"), ("press", "back"), ("turn", -1)):
        app.input(ev, clock.ticks_ms())
    clock.advance(FIX_MS + (250 - (clock.ticks_ms() + FIX_MS) % 500) % 500)   # the cursor gone; the marker lit
    app.draw(clock.ticks_ms(), force=True)
    lines = S.Screen(app).render(80, 24)
    return [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", x).rstrip() for x in lines]


def transcript(state_dir):
    """What `osada warchest watch --switch` prints for KEYS."""
    app, clock = _device(state_dir)
    link = client.Link(lambda: AppTransport(app, clock))
    link.connect()
    out = io.StringIO()
    w = watch.Watcher(out)
    keys = []
    for k in KEYS:
        keys += [k, None, None]
    keys.append(b"q")
    it = iter(keys)
    watch.watch(link, w, switch=True, keys=lambda: next(it), seconds=20)
    return out.getvalue().splitlines()


def blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```[a-z]*\n(.*?)```", text, re.S), text


def test_the_docs_ring_is_the_simulators_window(tmp_path):
    block = next(b for b in blocks()[0] if b.startswith("Osada simulator · War Chest"))
    assert block.splitlines() == drawing(tmp_path)


def test_w12_w16_w20_the_docs_transcript_is_what_watch_prints_for_its_keys(tmp_path):
    block = next(b for b in blocks()[0] if b.startswith("$ make run GAME=warchest"))
    lines = block.splitlines()
    assert lines[1] == watch.KEYS_HELP
    assert lines[2:] == transcript(tmp_path)


def test_the_docs_say_where_the_game_menu_shows_war_chest():
    from osada_fw.games import GAMES
    ordinal = ("first", "second", "third", "fourth", "fifth", "sixth")[GAMES.index("warchest")]
    assert "it is the %s sector" % ordinal in blocks()[1]


def test_the_docs_tables_name_every_key():
    """watch's keys (watch.KEYS) and the simulator's (the monitor's, terminal/gamekeys.py,
    in its window's help: gamekeys.help_lines)."""
    text = blocks()[1]
    section = text[text.index("### Buttons and keys"):text.index("### Mirrored on the PC")]
    names = {"right": "`→`", "left": "`←`", b"\r": "`Enter`", b"\n": "`Enter`", b" ": "Space",
             b"\x7f": "Backspace", b"\x08": "Backspace"}
    for key in watch.KEYS:
        assert (names[key] if key in names else "`%s`" % key.decode()) in section, key
    sim_help = " ".join(gamekeys.help_lines("warchest"))
    for key in ("Enter", "b", "e", "B", "E", "g", "q"):
        assert " %s " % key in " %s " % sim_help and "`%s`" % key.split("/")[0] in section, key


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        sys.stdout.write("\n".join(drawing(a)) + "\n\n$ make run GAME=warchest\n" + watch.KEYS_HELP + "\n"
                         + "\n".join(transcript(b)) + "\n")
