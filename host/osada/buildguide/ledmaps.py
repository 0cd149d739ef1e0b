"""leds.md (every LED's cell and position, per layout) and the README's
LED maps (which LED lights which cell)."""

from osada_fw.layouts import LAYOUTS, PART_NAMES, Layout

from .common import num
from .geometry import polar
from .placement import cell_name, led_xy, placement_name


def leds_md(cfg, diameter_mm, header):
    D = float(diameter_mm)
    out = ["<!-- %s -->" % header, "",
           "# Where every LED sits",
           "",
           "For each shipped layout: every LED by its place in the chain (index 0 is the",
           "one whose DIN the Pico drives), the board cell it lights, and its position",
           "under a board of \u00d8 %s mm. Angle: degrees clockwise from the middle of" % num(D),
           "sector 1, seen from above. Radius: fraction of the board's radius (1 = the",
           "outer edge of the rear line). x, y: mm from the board's centre, x to the",
           "right, y towards the middle of sector 1. The 1:1 templates are the",
           "`placement-*.svg` files next to this one; `python -m osada.buildguide",
           "--diameter-mm N --out DIR` redraws everything for another board size.",
           "",
           "The config (`firmware/config.json`) selects layout **%s**%s."
           % (cfg["leds"]["layout"], ", with the city LEDs" if cfg["leds"]["city"] else ", without the city LEDs"),
           ""]
    for name in LAYOUTS:
        for city in (False, True):
            L = Layout(name, city)
            out.append("## %s%s \u2014 %d LEDs" % (name, " + city" if city else "", L.count))
            out.append("")
            out.append("Template: [%s](%s)" % (placement_name(name, city), placement_name(name, city)))
            out.append("")
            out.append("| LED | sector | line | angle \u00b0 | radius | x mm | y mm |")
            out.append("|---:|---:|---|---:|---:|---:|---:|")
            for i in range(L.count):
                a, r = polar(L, i)
                sec, part = cell_name(L, i)
                x, y = led_xy(L, i, D)
                out.append("| %d | %d | %s | %s | %s | %s | %s |"
                           % (i, sec, part, _f1(a), "%.2f" % r, _f1(x), _f1(y)))
            out.append("")
    return "\n".join(out) + "\n"


def _f1(v):
    t = "%.1f" % round(v, 9)
    return "0.0" if t == "-0.0" else t


def layout_maps_md():
    """README section: per layout, which LED index sits in which cell."""
    out = ["Which LED (its index in the chain) lights which cell. Columns: sectors 1\u20136;",
           "rows: the lines from the outside in, then the city LEDs (only with",
           "`\"city\": true`, the same in every layout: walls 24\u201329, buildings 30\u201335).", ""]
    for name in LAYOUTS:
        L = Layout(name, True)
        out.append("**%s** \u2014 [placement-%s.svg](placement-%s.svg), "
                   "[placement-%s-city.svg](placement-%s-city.svg)" % (name, name, name, name, name))
        out.append("")
        out.append("| line | S1 | S2 | S3 | S4 | S5 | S6 |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for part in (0, 1, 2, 3, "wall", "city"):
            label = PART_NAMES[part] if isinstance(part, int) else ("wall (city)" if part == "wall"
                                                                    else "building (city)")
            out.append("| %s | %s |" % (label, " | ".join(str(L.lookup(s, part)) for s in range(1, 7))))
        out.append("")
        a0 = polar(Layout(name), 0)
        out.append("Chain: %s. LED 0 sits at sector %d %s, %s of the radius."
                   % (_chain_words(name), L.cell_of(0)[0], PART_NAMES[L.cell_of(0)[1]], num(a0[1], 2)))
        out.append("")
    return "\n".join(out).rstrip("\n")


def _chain_words(name):
    return {
        "spokes": "one spoke per sector, serpentine: sector 1 from the tank line outwards to the rear, "
                  "sector 2 from the rear inwards, and so on",
        "rings": "four rings of six, outermost (rear) first; each ring clockwise from sector 1",
        "ring24": "one circle of 24, clockwise from sector 1's rear; "
                  "each sector's 60\u00b0 arc holds rear, air, artillery, tank in clockwise order",
    }[name]
