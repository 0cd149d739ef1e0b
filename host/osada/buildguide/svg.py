"""The SVG writer: hand-written SVG text, numbers in the fixed format."""

from .common import num


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _attrs(kw):
    out = []
    for k, v in kw.items():
        k = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):
            v = num(v)
        out.append(' %s="%s"' % (k, esc(str(v))))
    return "".join(out)


class Svg:
    """Hand-written SVG text; units are whatever the viewBox says."""

    def __init__(self, width, height, unit, header, title):
        self.parts = []
        self.w = width
        self.h = height
        self.unit = unit
        self.header = header
        self.title = title

    def add(self, s):
        self.parts.append(s)

    def el(self, tag, **kw):
        self.add("<%s%s/>" % (tag, _attrs(kw)))

    def line(self, x1, y1, x2, y2, **kw):
        self.el("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **kw)

    def text(self, x, y, s, **kw):
        self.add("<text%s>%s</text>" % (_attrs(dict(x=float(x), y=float(y), **kw)), esc(s)))

    def open(self, tag, **kw):
        self.add("<%s%s>" % (tag, _attrs(kw)))

    def close(self, tag):
        self.add("</%s>" % tag)

    def polyline(self, pts, **kw):
        self.el("polyline", points=" ".join("%s,%s" % (num(x), num(y)) for x, y in pts), **kw)

    def render(self):
        u = self.unit
        head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                "<!-- %s -->\n"
                '<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" viewBox="0 0 %s %s">\n'
                "<title>%s</title>\n"
                '<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>\n'
                % (esc(self.header).replace("--", "\u2014"), num(self.w), u, num(self.h), u,
                   num(self.w), num(self.h), esc(self.title), num(self.w), num(self.h)))
        return head + "\n".join(self.parts) + "\n</svg>\n"
