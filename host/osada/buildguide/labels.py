"""Placing a label in the clearest spot: what is already drawn, and the
distances from a label's rectangle to it."""

import math


def pt_seg(px, py, x1, y1, x2, y2):
    """Distance from point (px, py) to the segment (x1, y1)-(x2, y2)."""
    dx, dy = x2 - x1, y2 - y1
    dd = dx * dx + dy * dy
    t = 0.0 if dd == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / dd))
    return math.hypot(px - x1 - t * dx, py - y1 - t * dy)


def _pt_rect(px, py, r):
    dx = max(r[0] - px, 0.0, px - r[2])
    dy = max(r[1] - py, 0.0, py - r[3])
    return math.hypot(dx, dy)


def _seg_hits_rect(x1, y1, x2, y2, r):
    # Liang-Barsky clipping: does the segment enter the rectangle?
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - r[0]), (dx, r[2] - x1), (-dy, y1 - r[1]), (dy, r[3] - y1)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _seg_rect(seg, r):
    x1, y1, x2, y2 = seg
    if _seg_hits_rect(x1, y1, x2, y2, r):
        return 0.0
    return min(_pt_rect(x1, y1, r), _pt_rect(x2, y2, r),
               pt_seg(r[0], r[1], *seg), pt_seg(r[2], r[1], *seg),
               pt_seg(r[0], r[3], *seg), pt_seg(r[2], r[3], *seg))


def _rect_rect(a, b):
    dx = max(a[0] - b[2], 0.0, b[0] - a[2])
    dy = max(a[1] - b[3], 0.0, b[1] - a[3])
    return math.hypot(dx, dy)


class Scene:
    """What is already drawn, for placing a label in the clearest spot."""

    def __init__(self):
        self.segs = []          # (x1, y1, x2, y2, slack, bbox): slack is added to the distance
        self.dots = []          # (x, y, radius)
        self.rects = []

    def seg(self, x1, y1, x2, y2, slack=0.0):
        self.segs.append((x1, y1, x2, y2, slack, (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))))

    def circle(self, cx, cy, r, slack=0.0, n=96):
        pts = [(cx + r * math.sin(2 * math.pi * j / n), cy - r * math.cos(2 * math.pi * j / n)) for j in range(n + 1)]
        for j in range(n):
            self.seg(pts[j][0], pts[j][1], pts[j + 1][0], pts[j + 1][1], slack)

    def clearance(self, r, cap):
        """Distance from rectangle r to the nearest thing drawn, at most cap."""
        best = cap
        r0, r1, r2, r3 = r
        for x1, y1, x2, y2, slack, bb in self.segs:
            m = best - slack
            if bb[2] < r0 - m or bb[0] > r2 + m or bb[3] < r1 - m or bb[1] > r3 + m:
                continue
            best = min(best, _seg_rect((x1, y1, x2, y2), r) + slack)
        for x, y, rad in self.dots:
            best = min(best, _pt_rect(x, y, r) - rad)
        for o in self.rects:
            best = min(best, _rect_rect(o, r))
        return best

    def place(self, cands, enough):
        """cands: rectangles in order of preference; the first whose
        clearance is at least `enough`, else the clearest.  Keeps it."""
        best = None
        for r in cands:
            c = self.clearance(r, enough)
            if c >= enough:
                best = (c, r)
                break
            if best is None or c > best[0]:
                best = (c, r)
        self.rects.append(best[1])
        return best[1]


def text_w(s, size, bold=False):
    """Rough width of s at font size `size`: enough to keep labels apart."""
    return (0.64 if bold else 0.58) * size * len(s)
