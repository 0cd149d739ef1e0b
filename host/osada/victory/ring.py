"""The device's Victory Day ring, drawn by the device's own code
(osada_fw/victory/view.py) from the toss's state (its `state` reply's
"victory" or a `victory` event): the starting seat's half lit in its
faction's colour, both halves dim before the lot.  What the monitor's board
area and the web view show."""

from osada.terminal.ringtext import Layout, Ring
from osada_fw.victory import view as v_view
from shared_rules.victory.toss import SEATS


class _Toss:
    """The state as the fields the view reads of the device's Victory."""

    def __init__(self, st):
        s = st.get("starter")
        self._starter = SEATS.index(s) if s in SEATS else -1
        self.ussr = SEATS.index(st.get("ussr", "A"))
        self.shown = v_view.SHOW_STEADY
        self.at = 0

    def starter(self):
        return self._starter


def colours(st):
    """The 24 (r, g, b) colours the ring shows for the toss state `st` (steady, after the flips)."""
    ring = Ring()
    v_view.draw(_Toss(st), Layout(), 0, ring)
    return ring.px
