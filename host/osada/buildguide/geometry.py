"""Where each LED of a layout sits on the board, as an angle and a radius:
the fact the placement templates, the LED maps and the simulator's window
draw from.  The device needs none of it (it only knows which LED shows
which cell: osada_fw/layouts.py), so it lives here, off the Pico's heap.

polar(layout, i) -> (angle, radius)
  angle  degrees CLOCKWISE from the centre line of sector 1, in [0, 360):
         the centre of sector s is at (s - 1) * 60.  Turn the template so that
         0 points at the middle of the board's sector 1.
  radius fraction of the board's radius (the outer edge of the rear line = 1).
The board is seen from above (the players' side); "clockwise" is as seen
from above, as in the rules."""

from osada_fw.layouts import NPARTS

# Radius (fraction of the board radius) of each part's LED in the spokes and
# rings templates: the middle of each line's band, then the buildings inside
# the city, then the wall ring at the tank/city border (parts 0..5).
PART_RADIUS = (0.9, 0.75, 0.6, 0.45, 0.18, 0.32)
# ring24: the stock ring's LEDs all sit at one radius.
RING24_RADIUS = 0.6


def polar(layout, i):
    """(angle_deg, radius_frac) of LED i of layout (an osada_fw Layout)."""
    layout.cell_of(i)                  # a LayoutError if the layout has no LED i
    c = layout.leds[i]
    s = c // NPARTS
    p = c % NPARTS
    if layout.name == "ring24" and p < 4:
        # 4 LEDs per 60-degree arc, 15 degrees apart, centred on the
        # sector's centre line: -22.5, -7.5, +7.5, +22.5 degrees.
        a = s * 60 - 22.5 + 15 * p
        if a < 0:
            a += 360
        return (a, RING24_RADIUS)
    return (s * 60, PART_RADIUS[p])
