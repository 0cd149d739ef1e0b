"""Tank battle as the table's page draws it (issue 62 item 2): the game as data,
JSON-able, for static/ring.js.  The last roll (dice_picture.py, which the page with
no host draws too); the ring as the device lights it (its own drawing code,
ring.py); the test and the numbers the roll key sends (panel.py's TankSetup), the
one the keys change marked."""

from osada.terminal.ringtext import rgb

from . import ring as tank_ring
from .dice_picture import NO_ROLL, not_adding_up, roll_picture
from .panel import TEST_WORDS

DARK = [rgb((0, 0, 0))] * 24


def setting(setup):
    """The test and numbers the roll key sends: {"test": words, "rows": [[label, value, marked]]}."""
    rows = [[label.strip(), str(value), i + 1 == setup.field] for i, (_k, label, value, _lo, _hi)
            in enumerate(setup.rows())]
    return {"test": TEST_WORDS[setup.test], "marked": setup.field == 0, "rows": rows}


def picture(roll, setup):
    """The page's picture of Tank battle: the last roll event `roll` (None: none yet)
    and the TankSetup `setup`."""
    out = {"game": "tank", "ring": DARK, "roll": None, "setting": setting(setup)}
    if roll is None:
        out["words"] = NO_ROLL
        return out
    bad = not_adding_up(roll)
    if bad:
        out["words"] = bad
        return out
    out["roll"] = roll_picture(roll)
    out["ring"] = [rgb(c) for c in tank_ring.colours(roll)]
    return out
