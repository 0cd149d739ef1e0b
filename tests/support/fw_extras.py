"""Firmware helpers that only the host (the hardware guide, the tests) uses.

They were part of osada_fw, but the Pico never calls them, and every
function or class there costs the device heap (its bytecode is loaded at
import).  They work on the firmware's own objects, so they stay in step with
it; they run on CPython only.
"""

from osada_fw import anim as _anim
from osada_fw.layouts import NONE, Layout
from osada_fw.render import Renderer
from shared_rules.actions import decode as _decode


class Blink(_anim.Anim):
    """Blink cells until cancel(): half of each period_ms the board shows
    through, the other half the cells show `color` (default: dark).  The
    hardware guide's power figures play it over every cell."""

    def __init__(self, cells, start_ms, period_ms=400, color=None):
        _anim.Anim.__init__(self, start_ms)
        if not isinstance(period_ms, int) or period_ms < 20:
            raise ValueError("period_ms must be at least 20")
        self._codes = _anim._codes(cells)
        self.period_ms = period_ms
        self.duration_ms = None
        if color is not None:
            self._r, self._g, self._b = _anim._rgb(color)
        else:
            self._r = self._g = self._b = 0

    def _draw(self, t, r):
        if t % self.period_ms < self.period_ms // 2:
            return
        inv = r.layout.inv
        for code in self._codes:
            i = inv[code]
            if i != NONE:
                r.set_pixel(i, self._r, self._g, self._b)


def renderer_from_config(cfg):
    """Renderer for a validated config (osada_fw.config.validate), as the app builds it."""
    leds = cfg["leds"]
    return Renderer(Layout(leds["layout"], leds["city"]), leds["brightness"],
                    leds["order"], leds["max_ma"], leds["ma_per_channel"])


def frame(r, game, now_ms, anims=None):
    """r.render() with animations: draw, each animation's step() over it,
    then the power cap.  Returns r.buf.  Finished animations stay in the list
    (anim.run() removes them)."""
    r.draw(game, now_ms)
    if anims is not None:
        for a in anims:
            a.step(now_ms, r)
    r.limit()
    return r.buf


def level(r, v):
    """The wire byte for channel value v (0-255) on renderer r, before the power cap."""
    return r._lut[v]


def journal_load(j):
    """(setup dict, [action tuples]) of the game in journal j
    (osada_fw.journal.Journal), or None if there is none or it is unreadable
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
