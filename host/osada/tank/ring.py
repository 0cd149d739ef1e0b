"""The device's «Кубики» ring as text and SVG, drawn by the device's own
renderer code (osada_fw/tank/view.py) from a roll event: what `osada tank
watch` prints under each roll, and the pictures of the README.

Text: the 24 positions clockwise from sector 1, a space between sectors,
one letter per LED by colour (LETTERS); a blinking LED is shown lit."""

from osada.terminal.ringtext import Layout, Ring
from osada_fw.tank import view as tank_view
from osada_fw.tank.mode import TESTS

# colour (as tank_view names it) -> letter
LETTERS = ((tank_view.ABSORBED, "B"), (tank_view.DAMAGE, "R"), (tank_view.MISS, "."),
           (tank_view.HIT_FACE, "G"), (tank_view.MANY, "W"), (tank_view.MORALE_DUE, "A"),
           (tank_view.TIE, "A"))
LEGEND = ("B hit absorbed by protection, R hit that is damage (a red die face, a failed test, the loser), "
          ". miss, G green (a hit face, a passed test, the winner), W white (5th-8th die of a face), "
          "A amber (morale test due; a collision unit tied with the best opposing total), - dark")


class _Roll:
    """A roll event as the fields tank_view reads from the device's Tank."""

    def __init__(self, ev, page=0):
        t = TESTS.index(ev["test"])
        faces = ev["dice"]
        self.view = 1
        self.page = page
        self.rolled = t
        self.at = 0
        self.n = len(faces)
        self.buf = bytearray(faces) + bytearray(24)
        self.count = bytearray(7)
        self.hit = ev.get("hit", 0)
        self.hits = ev.get("hits", 0)
        self.absorbed = ev.get("absorbed", 0)
        self.morale = ev.get("morale", ev.get("passed", False))
        w = ev.get("winner")
        self.winner = -1 if w is None else (0 if w == "a" else 1)
        a = ev.get("a", 0)                              # a collision: A's units, then B's (T39)
        self.na = len(a) if isinstance(a, list) else 1
        totals = ev.get("totals") or [0, 0]
        self.totals = bytearray(totals)
        self.total = max(totals[:self.na])              # each side's best total
        self.total_b = max(totals[self.na:] or [0])


def colours(ev, page=0, blink_on=True):
    """The 24 (r, g, b) colours (before brightness) the ring shows for roll event ev."""
    ring = Ring()
    now = tank_view.ROLL_MS + (0 if blink_on else 250)     # after the tumble; blink phase on/off
    tank_view.draw(_Roll(ev, page), Layout(), now, ring)
    return ring.px


def letter(c):
    if c == (0, 0, 0):
        return "-"
    for col, ch in LETTERS:
        if c == col:
            return ch
    return "R" if c[0] and not c[1] else "?"


def text(ev, page=0):
    """The ring as 6 groups of 4 letters ("BBRR ...."), blinking LEDs lit."""
    px = colours(ev, page)
    chars = "".join(letter(c) for c in px)
    return " ".join(chars[k:k + 4] for k in range(0, 24, 4))


def svg(ev, page=0, size=220):
    """The ring as an SVG picture: 24 LEDs on a circle, sector 1 at the top, clockwise."""
    import math
    px = colours(ev, page)
    c = size / 2
    rad = size * 0.38
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (size, size, size, size),
           '<rect width="100%%" height="100%%" fill="#111"/>',
           '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="#333" stroke-width="%g"/>'
           % (c, c, rad, size * 0.09)]
    for s in range(6):                      # sector borders
        a = math.radians(s * 60 - 30)
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555"/>'
                   % (c + math.sin(a) * rad * 0.8, c - math.cos(a) * rad * 0.8,
                      c + math.sin(a) * rad * 1.2, c - math.cos(a) * rad * 1.2))
        out.append('<text x="%.1f" y="%.1f" fill="#888" font-size="%d" text-anchor="middle" '
                   'dominant-baseline="middle" font-family="sans-serif">%d</text>'
                   % (c + math.sin(math.radians(s * 60)) * rad * 1.32,
                      c - math.cos(math.radians(s * 60)) * rad * 1.32, size // 16, s + 1))
    for p in range(24):
        a = math.radians(p * 15 - 22.5)      # 4 LEDs per 60-degree sector
        r, g, b = px[p]
        if max(r, g, b) < 64:                # a dim LED: brighter on paper, or it looks off
            r, g, b = r * 4, g * 4, b * 4
        fill = "#%02x%02x%02x" % (r, g, b) if px[p] != (0, 0, 0) else "#222"
        out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#000"/>'
                   % (c + math.sin(a) * rad, c - math.cos(a) * rad, size * 0.035, fill))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# The README's pictures (docs/tank/): (file name, caption, roll event, page)
EXAMPLES = (
    ("fire.svg", "fire: 12 dice hitting on <= 2 against protection 4: 5 hits, 4 absorbed (blue), "
                 "1 damage (red), 7 misses (dim); sector 6 amber: a morale test is due",
     {"test": "fire", "dice": [1, 2, 2, 1, 2, 6, 6, 5, 4, 3, 3, 3], "n": 12, "hit": 2, "ambush": False, "hits": 5,
      "protection": 4, "absorbed": 4, "damage": 1, "morale": True}, 0),
    ("fire-faces.svg", "the same roll, encoder turned: sector f holds the dice showing face f "
                       "(green: hits, red: misses)",
     {"test": "fire", "dice": [1, 2, 2, 1, 2, 6, 6, 5, 4, 3, 3, 3], "n": 12, "hit": 2, "ambush": False, "hits": 5,
      "protection": 4, "absorbed": 4, "damage": 1, "morale": True}, 1),
    ("suppress.svg", "suppression fire, card intensity 12 -> 18 dice hitting on <= 2, protection 3: "
                     "7 hits, 3 absorbed, 4 damage; the morale test is always due after suppression fire",
     {"test": "suppress", "intensity": 12, "n": 18, "dice": [1, 5, 2, 6, 2, 3, 1, 4, 4, 6, 1, 2, 5, 3, 6, 4, 1, 6],
      "hit": 2, "ambush": False, "hits": 7, "protection": 3, "absorbed": 3, "damage": 4, "morale": True}, 0),
    ("morale.svg", "morale: 2 dice (3 and 5) against steadiness 7: sum 8, failed (red)",
     {"test": "morale", "dice": [3, 5], "steadiness": 7, "sum": 8, "passed": False}, 0),
    ("counter.svg", "counter-attack: two tied throws (3-3, 5-5) re-rolled, then A 2, B 6: B moves in (green), "
                    "A stops (red)",
     {"test": "counter", "dice": [2, 6], "ties": 2, "tied": [3, 5], "winner": "b"}, 0),
    ("collision.svg", "collision of the rulebook's five units (E3): A1 5+7=12 moves in (green; a 5 is one white "
                      "and three lit), A2 3+7=10, B1 2+8=10, B2 3+5=8, B3 4+7=11 stop (red)",
     {"test": "collision", "dice": [5, 3, 2, 3, 4], "a": [7, 7], "b": [8, 5, 7], "totals": [12, 10, 10, 8, 11],
      "enter": [0], "winner": "a"}, 0),
)


def write_pictures(out_dir):
    """Write EXAMPLES as SVG files into out_dir; returns their names."""
    import os
    os.makedirs(out_dir, exist_ok=True)
    names = []
    for name, _caption, ev, page in EXAMPLES:
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(svg(ev, page))
        names.append(name)
    return names


if __name__ == "__main__":        # python -m osada.tank.ring DIR: the README's pictures
    import sys
    for n in write_pictures(sys.argv[1] if len(sys.argv) > 1 else "docs/tank"):
        print(n)
