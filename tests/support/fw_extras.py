"""Firmware helpers that only the tests use.

They were part of osada_fw, but the Pico never calls them, and every
function or class there costs the device heap (its bytecode is loaded at
import).  They work on the firmware's own objects, so they stay in step with
it; they run on CPython only.  (The hardware guide's Blink animation is
osada.buildguide.power's.)
"""

from osada_fw.frame import Frame
from osada_fw.layouts import Layout
from osada_fw.siege import colors
from osada_fw.siege.board import Board
from shared_rules.siege.actions import decode as _decode
from shared_rules.siege.catalog import KIND_IDS


def board_from_config(cfg):
    """Siege's board in a frame for a validated config (osada_fw.config.validate), as the app builds them."""
    leds = cfg["leds"]
    return Board(Frame(Layout(leds["layout"], leds["city"]), leds["brightness"],
                    leds["order"], leds["max_ma"], leds["ma_per_channel"]))


def frame(r, game, now_ms, anims=None):
    """Board r's render() with animations: draw, each animation's step()
    over it, then the power cap.  Returns the frame's bytes.  Finished animations stay in the list
    (anim.run() removes them)."""
    r.draw(game, now_ms)
    if anims is not None:
        for a in anims:
            a.step(now_ms, r)
    r.frame.limit()
    return r.frame.buf


def level(r, v):
    """The wire byte for channel value v (0-255) on board r's frame, before the power cap."""
    return r.frame.lut[v]


def journal_load(j):
    """(setup dict, [action tuples]) of the game in journal j
    (osada_fw.store.journal.Journal), or None if there is none or it is unreadable
    (the reason in j.last_error).  Never raises on corrupt data."""
    setup = j._scan()
    if setup is None:
        return None
    out = []
    pos = 0
    for _ in range(j._count):
        t, pos = _decode(j._live, pos)
        out.append(t)
    return setup, out


def palette_rgb(name):
    """(r, g, b) of Siege's palette row by name: a fixed row by its constant's
    name in lower case ('armor3', 'wall', 'plane'), or a kind with a hue of its
    own by its id ('maus', 'panther'); plain tanks are coloured by armor."""
    if name in KIND_IDS:
        row = colors.KIND_PAL[KIND_IDS.index(name)]
        if not row:
            raise ValueError("%s is coloured by its armor (armor1-3), it has no row of its own" % name)
        return colors.rgb(row)
    row = getattr(colors, name.upper(), None)
    if not isinstance(row, int) or not 0 <= row < colors.FIXED_ROWS:
        raise ValueError("no palette row named %r" % name)
    return colors.rgb(row)
