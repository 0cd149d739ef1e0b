"""Where each LED sits under the board, and the 1:1 placement templates
(placement-<layout>[-city].svg)."""

import math

from osada_fw.layouts import PART_NAMES

from .common import FONT, num
from .geometry import polar
from .labels import Scene, pt_seg, text_w
from .svg import Canvas, arrow_marker

SECTOR_COLOR = (None, "#c62828", "#c62828", "#2e7d32", "#2e7d32", "#1565c0", "#1565c0")


def led_xy(layout, i, diameter_mm):
    """(x, y) in mm of LED i from the board's centre, seen from above: x to
    the right, y towards the middle of sector 1 (up)."""
    a, r = polar(layout, i)
    rad = math.radians(a)
    rr = r * diameter_mm / 2.0
    return rr * math.sin(rad), rr * math.cos(rad)


def cell_name(layout, i):
    s, p = layout.cell_of(i)
    if p == "wall":
        return s, "wall"
    if p == "city":
        return s, "building"
    return s, PART_NAMES[p]


def placement_name(name, city):
    return "placement-%s%s.svg" % (name, "-city" if city else "")


def chain_lengths(layout, diameter_mm):
    """(longest link, total) in mm of straight wire from each LED to the next."""
    pos = [led_xy(layout, i, diameter_mm) for i in range(layout.count)]
    links = [math.hypot(pos[i + 1][0] - pos[i][0], pos[i + 1][1] - pos[i][1]) for i in range(layout.count - 1)]
    return max(links), sum(links)


def _box(qx, qy, w, h):
    """The w x h rectangle centred on (qx, qy), as (x0, y0, x1, y1)."""
    return qx - w / 2, qy - h / 2, qx + w / 2, qy + h / 2


def _draw_heading(s, layout, cfg, D, k, x0):
    configured = cfg["leds"]["layout"] == layout.name and cfg["leds"]["city"] == layout.city
    s.text(x0, 11 * k, "Osada LED placement \u2014 layout \u201c%s\u201d, %d LEDs%s%s"
           % (layout.name, layout.count, " (with the 12 city LEDs)" if layout.city else " (no city LEDs)",
              " \u2014 the configured layout" if configured else ""),
           font_size=7 * k, font_weight="bold")
    s.text(x0, 20 * k, "Board \u00d8 %s mm, printed 1:1. TOP VIEW (the players' side): lay it face up on the "
           "panel under the board, LEDs facing up. Seen from below, everything is mirrored." % num(D),
           font_size=4.2 * k)
    s.text(x0, 27 * k, "0\u00b0 = the middle of sector 1 (up); angles run clockwise. Big number = the LED's "
           "place in the chain (index); arrows = data direction (DOUT \u2192 next DIN).", font_size=4.2 * k)
    s.text(x0, 34 * k, "Print at 100 % (\u201cactual size\u201d, tiled over several pages if needed) and "
           "check the 100 mm bar at the bottom before drilling.", font_size=4.2 * k)


def _draw_sectors(s, scene, at, cx, cy, R, D):
    """The sector wedges, their boundaries and the board's edge."""
    for sec in range(1, 7):
        a0 = (sec - 1) * 60 - 30
        xa, ya = at(a0, 1)
        xb, yb = at(a0 + 60, 1)
        s.path([("M", cx, cy), ("L", xa, ya), ("A", R, R, 0, 0, 1, xb, yb), ("Z",)],
               fill=SECTOR_COLOR[sec], fill_opacity="0.06", stroke="none")
    for sec in range(6):
        x, y = at(sec * 60 + 30, 1)
        s.line(cx, cy, x, y, stroke="#888888", stroke_width=0.5, stroke_dasharray="4 2")
        scene.seg(cx, cy, x, y, 1.5)
    s.circle(id="edge", cx=cx, cy=cy, r=R, fill="none", stroke="#111111", stroke_width=0.8,
             data_diameter_mm=num(D))
    scene.circle(cx, cy, R)


def _draw_sector_labels(s, scene, cx, cy, R, k):
    """The "sector N" labels, just outside the edge in the middle of each sector."""
    for sec in range(1, 7):
        label = "sector %d" % sec
        fs = 7.5 * k
        t = math.radians((sec - 1) * 60)
        ux, uy = math.sin(t), -math.cos(t)
        w, h = text_w(label, fs, True), fs * 0.75
        d = R + 3 * k + (w / 2) * abs(ux) + (h / 2) * abs(uy)
        s.text(cx + ux * d, cy + uy * d + h / 2, label, text_anchor="middle", font_size=fs, font_weight="bold",
               fill=SECTOR_COLOR[sec])
        scene.rects.append(_box(cx + ux * d, cy + uy * d, w, h))


def _draw_centre_mark(s, scene, cx, cy, k):
    c = 6 * k
    s.line(cx - c, cy, cx + c, cy, stroke="#111111", stroke_width=0.4)
    s.line(cx, cy - c, cx, cy + c, stroke="#111111", stroke_width=0.4)
    s.text(cx + 1.5 * k, cy + 5 * k, "centre", font_size=3 * k, fill="#444444")
    scene.rects.append((cx - c, cy - c, cx + 1.5 * k + text_w("centre", 3 * k), cy + c))


def _led_radii(layout):
    """{radius (a fraction of the board's): the parts with LEDs on it, in LED order}."""
    radii = {}
    for i in range(layout.count):
        r = polar(layout, i)[1]
        part = cell_name(layout, i)[1]
        radii.setdefault(r, [])
        if part not in radii[r]:
            radii[r].append(part)
    return radii


def _draw_guide_circles(s, scene, radii, cx, cy, R):
    """A dashed circle through each LED radius; returns their slice of scene.segs
    (they are only in the way of the labels placed before theirs)."""
    first = len(scene.segs)
    for r in sorted(radii):
        s.circle(cx=cx, cy=cy, r=r * R, fill="none", stroke="#9e9e9e", stroke_width=0.35,
                 stroke_dasharray="1.5 1.5")
        scene.circle(cx, cy, r * R, 1.0)
    return first, len(scene.segs)


def _draw_chain(s, scene, pts, lr, k, arrow_head):
    """The data wire, LED to LED in index order, an arrow per link."""
    chain = s.g(id="chain", stroke="#1b9e3a", stroke_width=0.7 * k, fill="none")
    for i in range(len(pts) - 1):
        (xa, ya), (xb, yb) = pts[i], pts[i + 1]
        d = math.hypot(xb - xa, yb - ya)
        ux, uy = (xb - xa) / d, (yb - ya) / d
        chain.line(xa + ux * lr, ya + uy * lr, xb - ux * (lr + 0.6), yb - uy * (lr + 0.6), marker_end=arrow_head,
                   data_from=i, data_to=i + 1)
        scene.seg(xa, ya, xb, yb)
    for x, y in pts:
        scene.dots.append((x, y, lr))


def _clearest_direction(scene, x, y, a0, k):
    """The unit vector (ux, uy) from LED 0 at (x, y), at angle a0, towards its
    clearest side: furthest from the chain and the other LEDs along 4-16 k."""
    best = None
    for da in (0, 180, 90, -90, 45, -45, 135, -135):
        t = math.radians(a0 + da)
        ux, uy = math.sin(t), -math.cos(t)
        c = 1e9
        for f in range(4, 17, 2):
            px, py = x + ux * f * k, y + uy * f * k
            for sx1, sy1, sx2, sy2, slack, _bb in scene.segs:
                if slack == 0:
                    c = min(c, pt_seg(px, py, sx1, sy1, sx2, sy2))
            for qx, qy, rad in scene.dots[1:]:
                c = min(c, math.hypot(px - qx, py - qy) - rad)
        if best is None or c > best[0] + 1e-9:
            best = (c, ux, uy)
    return best[1], best[2]


def _draw_data_in(s, scene, pt, a0, lr, k, arrow_head, pin):
    """DATA IN: a short arrow into LED 0 (at pt, angle a0) from its clearest
    side (clear of the chain, the LEDs and the board's edge), and its label."""
    x, y = pt
    arrow = 16 * k
    ux, uy = _clearest_direction(scene, x, y, a0, k)
    ex, ey = x + ux * arrow, y + uy * arrow
    s.line(ex, ey, x + ux * (lr + 0.6), y + uy * (lr + 0.6), stroke="#1b9e3a", stroke_width=1.0 * k,
           marker_end=arrow_head, stroke_dasharray="2 1")
    scene.seg(ex, ey, x, y)
    label = "DATA IN from GP%d (330 \u03a9)" % pin
    fs = 3.6 * k
    w, h = text_w(label, fs, True), fs * 1.3
    cands = []
    for da in (0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180):
        t = math.atan2(ux, -uy) + math.radians(da)
        vx, vy = math.sin(t), -math.cos(t)
        d = 1.0 + (w / 2) * abs(vx) + (h / 2) * abs(vy)
        cands.append(_box(ex + vx * d, ey + vy * d, w, h))
    r = scene.place(cands, 2 * k)
    s.text((r[0] + r[2]) / 2, r[3] - 0.3 * h, label, text_anchor="middle", font_size=fs, font_weight="bold",
           fill="#1b9e3a")


def _draw_leds(s, layout, pts, lr, k):
    """Each LED's mark: a ring in its sector's colour, the 5 mm LED, a cross at its centre."""
    for i, (x, y) in enumerate(pts):
        sec, part = cell_name(layout, i)
        col = SECTOR_COLOR[sec]
        s.circle(cx=x, cy=y, r=lr, fill="#ffffff", stroke=col, stroke_width=0.6 * k)
        s.circle(class_="led", id="led-%d" % i, cx=x, cy=y, r=2.5, fill=col, fill_opacity="0.35",
                 stroke=col, stroke_width=0.3, data_led=i, data_sector=sec, data_part=part)
        s.line(x - 1.5, y, x + 1.5, y, stroke="#111111", stroke_width=0.2)
        s.line(x, y - 1.5, x, y + 1.5, stroke="#111111", stroke_width=0.2)


def _draw_led_labels(s, scene, layout, pts, lr, k):
    """Each LED's index and cell, in the clearest spot next to it; the cell
    line in its sector's colour."""
    big, small = 6 * k, 2.8 * k
    n = len(pts)
    for i, (x, y) in enumerate(pts):
        sec, part = cell_name(layout, i)
        sub = "S%d %s%s" % (sec, part, ", last" if i == n - 1 else "")
        w = max(text_w(str(i), big, True), text_w(sub, small))
        h = big * 0.75 + small * 1.2 + 0.4 * k
        a = polar(layout, i)[0]
        cands = []
        for da in (0, 90, -90, 180, 45, -45, 135, -135, 22.5, -22.5, 67.5, -67.5, 112.5, -112.5, 157.5, -157.5):
            t = math.radians(a + da)
            ux, uy = math.sin(t), -math.cos(t)
            d = lr + 1.0 + (w / 2) * abs(ux) + (h / 2) * abs(uy)
            cands.append(_box(x + ux * d, y + uy * d, w, h))
        r = scene.place(cands, 3.5 * k)
        qx = (r[0] + r[2]) / 2
        s.text(qx, r[1] + big * 0.75, str(i), text_anchor="middle", font_size=big, font_weight="bold",
               fill="#111111")
        s.text(qx, r[3] - 0.2 * small, sub, text_anchor="middle", font_size=small, fill=SECTOR_COLOR[sec])


def _draw_guide_labels(s, scene, radii, at, R, k):
    """Each guide circle's parts and radius, where there is room near the circle."""
    gs = 3.2 * k
    for rfrac in sorted(radii):
        parts = radii[rfrac]
        what = "/".join(parts) if len(parts) < 3 else "ring"
        label = "%s: r = %s mm (%s)" % (what, num(rfrac * R, 1), num(rfrac, 2))
        w, h = text_w(label, gs), gs * 1.2
        cands = []
        for off in (0, -1, 1, -2, 2):
            for step in range(0, 72):
                t = 330 + (step // 2 + 1) * 5 * (1 if step % 2 else -1) if step else 330
                qx, qy = at(t, rfrac + off * (h / 2 + 1.5 * k) / R)
                cands.append(_box(qx, qy, w, h))
        r = scene.place(cands, 3 * k)
        s.text((r[0] + r[2]) / 2, r[3] - 0.25 * h, label, text_anchor="middle", font_size=gs, fill="#555555",
               stroke="#ffffff", stroke_width=0.8 * k, paint_order="stroke")


def _draw_scale_and_legend(s, layout, D, bx, band_top, k):
    """The 100 mm bar to check the print by, and the legend beside it, in the bottom band."""
    k = max(k, 0.8)
    by = band_top + 8 * k
    s.rect(x=bx, y=by, width=100, height=3, fill="#111111")
    for t in range(11):
        s.line(bx + 10 * t, by, bx + 10 * t, by - (3 if t % 5 == 0 else 1.8), stroke="#111111", stroke_width=0.3)
    s.text(bx, by + 8 * k, "100 mm: measure this bar on the print", font_size=3.8 * k)
    lx = bx + 115
    s.circle(cx=lx, cy=by + 1, r=2.5, fill="#888888", fill_opacity="0.35", stroke="#555555", stroke_width=0.3)
    s.text(lx + 5, by + 2.5, "LED centre (the inner \u00d8 5 mm mark: a WS2812B 5050 is 5 \u00d7 5 mm)",
           font_size=3.8 * k)
    longest, total = chain_lengths(layout, D)
    s.text(lx - 2.5, by + 8 * k, "S<sector> <line>: the cell the LED lights. Table: leds.md. Sectors 1\u20132 red, "
           "3\u20134 green, 5\u20136 blue.", font_size=3.8 * k)
    s.text(lx - 2.5, by + 14 * k, "Data wire, LED to LED in a straight line: longest link %s mm, %s mm in all "
           "(plus slack and the run from the Pico)." % (num(longest, 0), num(total, 0)), font_size=3.8 * k)


def placement_svg(layout, diameter_mm, header, cfg):
    D = float(diameter_mm)
    R = D / 2
    k = min(1.6, max(0.6, D / 500.0))          # text scale
    margin = 34 * k
    top_band = 40 * k
    bot_band = 40 * max(k, 0.8)
    W = D + 2 * margin
    H = top_band + D + 2 * margin + bot_band
    cx = W / 2
    cy = top_band + margin + R
    n = layout.count
    page = Canvas()
    s = page.g(font_family=FONT)
    arrow_head = arrow_marker("#1b9e3a")
    x0 = margin * 0.5
    _draw_heading(s, layout, cfg, D, k, x0)

    def at(ang, frac):
        """The page point at angle ang (clockwise from up), frac x R from the centre."""
        t = math.radians(ang)
        return cx + frac * R * math.sin(t), cy - frac * R * math.cos(t)

    scene = Scene()
    _draw_sectors(s, scene, at, cx, cy, R, D)
    _draw_sector_labels(s, scene, cx, cy, R, k)
    _draw_centre_mark(s, scene, cx, cy, k)
    radii = _led_radii(layout)
    guides = _draw_guide_circles(s, scene, radii, cx, cy, R)     # labelled at the end
    pts = [(cx + x, cy - y) for x, y in (led_xy(layout, i, D) for i in range(n))]
    lr = 3.8 * k                                 # the LED mark's radius
    _draw_chain(s, scene, pts, lr, k, arrow_head)
    _draw_data_in(s, scene, pts[0], polar(layout, 0)[0], lr, k, arrow_head, cfg["leds"]["pin"])
    _draw_leds(s, layout, pts, lr, k)
    _draw_led_labels(s, scene, layout, pts, lr, k)
    del scene.segs[guides[0]:guides[1]]
    _draw_guide_labels(s, scene, radii, at, R, k)
    _draw_scale_and_legend(s, layout, D, x0, H - bot_band, k)
    return page.render(W, H, "mm", header, "Osada LED placement \u2014 %s" % placement_name(layout.name, layout.city))
