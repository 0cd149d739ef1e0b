"""Drawing into SVG through drawsvg, every number in the fixed format.

The drawing code draws on a Canvas: a drawsvg group whose methods round each
coordinate with num() before drawsvg writes it, so that the files stay short
and byte for byte the same on every machine (a libm's last bit cannot show).
drawsvg does the rest: the elements, escaping, the marker definitions and the
document around them."""

import drawsvg as dw

from .common import num


def q(v):
    """A float as the files write it (see num()): 12.5, 3, never -0.
    Anything else as it is."""
    if not isinstance(v, float):
        return v
    v = float(num(v))
    return int(v) if v.is_integer() else v


def _q(kw):
    return {k: q(v) for k, v in kw.items()}


class _Line(dw.DrawingBasicElement):
    """A real <line>: drawsvg's Line writes a <path>, and the templates'
    readers (tests/test_hardware.py among them) look for x1, y1, x2, y2."""
    TAG_NAME = "line"


def arrow_marker(color):
    """An arrowhead for marker_end=, 4.5 stroke widths long, in color."""
    m = dw.Marker(0, 0, 10, 10, scale=0.45, orient="auto", refX=9, refY=5)
    m.append(dw.Lines(0, 0, 10, 5, 0, 10, close=True, fill=color))
    return m


class Canvas:
    """Draws into a drawsvg group; attribute names as drawsvg takes them
    (stroke_width, class_, data_led ...)."""

    def __init__(self, group=None):
        self.group = dw.Group() if group is None else group

    def _add(self, element):
        self.group.append(element)
        return element

    def g(self, **kw):
        """A group (<g>) inside this one, as a Canvas of its own."""
        return Canvas(self._add(dw.Group(**_q(kw))))

    def rect(self, x, y, width, height, **kw):
        self._add(dw.Rectangle(q(x), q(y), q(width), q(height), **_q(kw)))

    def circle(self, cx, cy, r, **kw):
        self._add(dw.Circle(q(cx), q(cy), q(r), **_q(kw)))

    def line(self, x1, y1, x2, y2, **kw):
        self._add(_Line(x1=q(x1), y1=q(y1), x2=q(x2), y2=q(y2), **_q(kw)))

    def polyline(self, pts, **kw):
        self._add(dw.Lines(*(q(float(c)) for pt in pts for c in pt), **_q(kw)))

    def path(self, commands, **kw):
        """commands: (letter, numbers...) each, as drawsvg's Path has them:
        ("M", x, y), ("L", x, y), ("A", rx, ry, rot, large, sweep, x, y),
        ("q", dx1, dy1, dx, dy), ("Z",)."""
        p = dw.Path(**_q(kw))
        for letter, *args in commands:
            getattr(p, letter)(*(q(a) for a in args))
        self._add(p)

    def text(self, x, y, s, font_size=None, **kw):
        self._add(dw.Text(s, q(font_size), q(float(x)), q(float(y)), **_q(kw)))

    def render(self, width, height, unit, header, title):
        """The SVG document: header as a comment on its second line, the
        title, a white background and what was drawn; width and height in
        unit, the viewBox in user units (so 1 unit = 1 mm with unit "mm")."""
        d = dw.Drawing(q(float(width)), q(float(height)))
        d.set_render_size("%s%s" % (num(width), unit), "%s%s" % (num(height), unit))
        d.append_title(title)
        d.append(dw.Rectangle(0, 0, q(float(width)), q(float(height)), fill="#ffffff"))
        for element in self.group.children:
            d.append(element)
        comment = "<!-- %s -->\n" % header.replace("--", "\u2014")
        return d.as_svg(header='<?xml version="1.0" encoding="UTF-8"?>\n' + comment)
