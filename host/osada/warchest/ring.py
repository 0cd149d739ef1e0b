"""The device's War Chest ring, drawn by the device's own code
(osada_fw/warchest/view.py) from the tracker's counts (its `state` reply or
`warchest` event): what the monitor's board area and the web view show.  A
blinking or pulsing LED is drawn lit; each LED's letter (c, i, m, >) is the
simulator's (osada/sim/warchest_lines.role)."""

from osada.terminal.ringtext import Layout, Ring
from osada_fw.warchest import view as wc_view

NOBODY = -1
SHOWN_AT_MS = 750        # a frame where the blink is on and the pulse bright


class _Tracker:
    """The counts as the fields the view reads of the device's WarChest."""

    def __init__(self, st):
        self.hand = list(st["hand"])
        self.markers = list(st["markers"])
        self.holder = st["initiative"] - 1
        self.moved = 1 if st.get("moved") else 0
        self.turn = st["turn"] - 1 if st.get("turn") else NOBODY
        self.winner = st["winner"] - 1 if st.get("winner") else NOBODY
        self.flip_at = NOBODY
        self.refused_at = NOBODY

    def showing_cursor(self, now):
        return False


def colours(st):
    """The 24 (r, g, b) colours the ring shows for the counts `st`."""
    ring = Ring()
    wc_view.draw(_Tracker(st), Layout(), SHOWN_AT_MS, ring)
    return ring.px
