"""wiring.svg: the Pico's header with every pin the config uses, wired to the
LED strip, the encoder, the buttons and the buzzer; and a table of every connection."""

from osada.flash import boards
from osada_fw import config as fwconfig

from .common import FONT, num
from .pico import PICO_HEADER, PIN_LED_GND, PIN_VBUS, connection_rows, pin_row, rail_pins, signals
from .svg import Canvas

WIRE = {
    "leds.pin": "#1b9e3a", "encoder.a": "#e66a00", "encoder.b": "#c9a100",
    "encoder.switch": "#8e44ad", "buttons.action": "#1f63c6", "buttons.back": "#0097a7",
    "buzzer.pin": "#8d5524", "5v": "#d32f2f", "gnd": "#222222",
}


# geometry (px)
W_WIDTH = 1220
PITCH = 28
ROW0 = 200                  # y of row 0
PICO_X0, PICO_X1 = 490, 740
STUB = 30
TOP_ROUTE = 120             # the over-the-Pico channel
L_BOX = (110, 340)          # left component column (x0, x1)
R_BOX = (900, 1130)
LED_BOX = (920, 1190)


def _row_y(row):
    return ROW0 + row * PITCH


def _parts_by_side(sig):
    """The encoder, the buttons and the buzzer (if configured), each put on
    the side of the Pico most of its pins are on: {"L": [...], "R": [...]} of
    (the average row of its pins, (name, title, its signals, its GND terminals))."""
    parts = [("encoder", "EC11 rotary encoder + push", [sig[1], sig[2], sig[3]],
              ["C (middle pin of the 3)", "switch, 2nd leg"]),
             ("action", "ACTION button", [sig[4]], ["2nd leg"]),
             ("back", "BACK button", [sig[5]], ["2nd leg"])]
    if len(sig) > 6:
        parts.append(("buzzer", "Piezo buzzer (passive)", [sig[6]], ["\u2212 leg"]))
    sides = {"L": [], "R": []}
    for p in parts:
        rows = [pin_row(t[2]) for t in p[2]]
        left = sum(1 for side, _ in rows if side == "L")
        side = "L" if 2 * left >= len(rows) else "R"
        sides[side].append((sum(r for _, r in rows) / len(rows), p))
    return sides


def _place_boxes(sides, lbot):
    """The parts' boxes stacked down each side, in the order of their pins,
    and their terminals.  Returns (boxes, wires, grounds, the lowest y):
    boxes [(side, name, title, btop, bh)], wires [[side of the box, key, gpio,
    pin, short, term y]], grounds [[side, part name, label, term y]]."""
    boxes = []
    wires = []
    grounds = []
    bottom = 0
    for side in ("L", "R"):
        floor = lbot + 24 if side == "R" else _row_y(0) - 30
        for _avg, (name, title, sigs, gnds) in sorted(sides[side], key=lambda t: t[0]):
            # terminals in the order of their Pico rows; same side first
            sigs = sorted(sigs, key=lambda t: (pin_row(t[2])[0] != side, pin_row(t[2])[1]))
            btop = max(_row_y(pin_row(sigs[0][2])[1]) - 30, floor)
            bh = 30 + (len(sigs) + len(gnds) - 1) * PITCH + 16
            boxes.append((side, name, title, btop, bh))
            ty = btop + 30
            for key, gpio, pin, short, _to in sigs:
                wires.append([side, key, gpio, pin, short, ty])
                ty += PITCH
            for g in gnds:
                grounds.append([side, name, g, ty])
                ty += PITCH
            floor = btop + bh + 14
            bottom = max(bottom, btop + bh)
    return boxes, wires, grounds, bottom


def _pin_y(w):
    return _row_y(pin_row(w[3])[1])


def _signal_lanes(wires):
    """{wire key: its lane, 0 nearest the Pico}, per side of the Pico: the
    wires that run down first (the lowest pin nearest), then those that run
    up, then those that go over the top; a wire straight across needs none."""
    lane_of = {}
    for pside in ("L", "R"):
        mine = [w for w in wires if pin_row(w[3])[0] == pside and not (w[0] == pside and _pin_y(w) == w[5])]
        down = sorted((w for w in mine if w[0] == pside and w[5] > _pin_y(w)), key=lambda w: -_pin_y(w))
        up = sorted((w for w in mine if w[0] == pside and w[5] < _pin_y(w)), key=_pin_y)
        over = sorted((w for w in mine if w[0] != pside), key=_pin_y)
        for k, w in enumerate(down + up + over):
            lane_of[w[1]] = k
    return lane_of


def _ground_lanes(grounds):
    """{(part name, terminal): its lane}, per side: the lowest terminal nearest its part."""
    gnd_lane = {}
    for side in ("L", "R"):
        for k, g in enumerate(sorted((g for g in grounds if g[0] == side), key=lambda g: -g[3])):
            gnd_lane[(g[1], g[2])] = k
    return gnd_lane


def _draw_boxes(s, boxes):
    for side, name, title, btop, bh in boxes:
        x0, x1 = L_BOX if side == "L" else R_BOX
        s.rect(x=x0, y=btop, width=x1 - x0, height=bh, rx=6, fill="#f4f6fb", stroke="#4a5a80",
               stroke_width=2)
        s.text(x0 + 8, btop + 16, title, font_size=12, font_weight="bold")


def _draw_signal_wires(s, wires, lane_of):
    """Each signal from its Pico pin to its terminal: straight across when
    level, else by its lane; to a box on the other side, over the top of the
    Pico (the later ones higher and further out)."""
    over_k = {"L": 0, "R": 0}
    for side, key, gpio, pin, short, ty in wires:
        x0, x1 = L_BOX if side == "L" else R_BOX
        term_x = x1 if side == "L" else x0
        col = WIRE[key]
        pside, prow = pin_row(pin)
        py = _row_y(prow)
        xs = PICO_X0 - STUB if pside == "L" else PICO_X1 + STUB
        out = -1 if pside == "L" else 1
        net = s.g(class_="net", data_key=key, data_gpio=gpio, data_pin=pin)
        if pside == side and py == ty:
            pts = [(xs, py), (term_x, py)]
        elif pside == side:
            lane = xs + out * (24 + 12 * lane_of[key])
            pts = [(xs, py), (lane, py), (lane, ty), (term_x, ty)]
        else:
            # the other side of the Pico: over the top
            lane1 = xs + out * (24 + 12 * lane_of[key])
            k = over_k[side]
            over_k[side] += 1
            ytop = TOP_ROUTE - 14 - 10 * k
            lane2 = term_x + (30 + 10 * k) * (1 if side == "L" else -1)
            pts = [(xs, py), (lane1, py), (lane1, ytop), (lane2, ytop), (lane2, ty), (term_x, ty)]
        net.polyline(pts, fill="none", stroke=col, stroke_width=3)
        net.circle(cx=term_x, cy=ty, r=4, fill=col)
        lab = "%s \u2192 GP%d (pin %d)" % (short, gpio, pin)
        if side == "L":
            net.text(x1 - 8, ty + 4, lab, text_anchor="end", font_size=12, font_weight="bold", fill=col)
        else:
            net.text(x0 + 8, ty + 4, lab, font_size=12, font_weight="bold", fill=col)


def _draw_ground_wires(s, grounds, gnd_lane, rail_y):
    """Each GND terminal by its lane down to the GND rail at rail_y."""
    for side, name, g, ty in grounds:
        x0, x1 = L_BOX if side == "L" else R_BOX
        gx = x0 if side == "L" else x1
        k = gnd_lane[(name, g)]
        lane = gx - 16 - 10 * k if side == "L" else gx + 16 + 10 * k
        net = s.g(class_="net", data_key="gnd", data_part=name)
        net.polyline([(gx, ty), (lane, ty), (lane, rail_y)], fill="none", stroke=WIRE["gnd"], stroke_width=2.5)
        net.circle(cx=gx, cy=ty, r=4, fill=WIRE["gnd"])
        net.circle(cx=lane, cy=rail_y, r=4.5, fill=WIRE["gnd"])
        if side == "L":
            net.text(x0 + 8, ty + 4, g + " \u2192 GND", font_size=12)
        else:
            net.text(x1 - 8, ty + 4, g + " \u2192 GND", font_size=12, text_anchor="end")


def _draw_parts(s, sig, lbot, rail_y):
    """The encoder, the buttons and the buzzer, each beside the side of the
    Pico its pins are on, wired to their pins and to the GND rail at rail_y.
    Returns the lowest y drawn.  Lanes (the vertical runs) are handed out so
    that wires do not cross where that can be helped: a wire that runs down
    gets a lane nearer the Pico than the ones above it, a wire that runs up
    one further out; GND runs likewise, the lowest nearest its part."""
    boxes, wires, grounds, bottom = _place_boxes(_parts_by_side(sig), lbot)
    _draw_boxes(s, boxes)
    _draw_signal_wires(s, wires, _signal_lanes(wires))
    _draw_ground_wires(s, grounds, _ground_lanes(grounds), rail_y)
    return bottom


def wiring_svg(cfg, header):
    sig = signals(cfg)
    leds = cfg["leds"]
    count = fwconfig.led_count(cfg)
    rail_y = _row_y(19) + 78
    page = Canvas()
    s = page.g(font_family=FONT, font_size=13, fill="#111111")
    s.text(24, 38, "Osada \u2014 wiring", font_size=24, font_weight="bold")
    s.text(24, 62, "%s, seen from above, USB at the top; %s." % (boards.NAME, boards.REFUSED), font_size=13)
    s.text(24, 80, "Every GPIO below is the one firmware/config.json names. Not to scale. All GND points are one "
           "net: the Pico's GND pins are joined on the board.", font_size=13, fill="#444444")
    s.text(24, 98, "A dot \u25cf marks a joint; crossing wires without a dot do not touch.",
           font_size=13, fill="#444444")

    # -- the Pico
    top, bot = _row_y(0) - 34, _row_y(19) + 24
    s.rect(x=PICO_X0, y=top, width=PICO_X1 - PICO_X0, height=bot - top, rx=8,
           fill="#2e7d32", fill_opacity="0.10", stroke="#2e7d32", stroke_width=2)
    mid = (PICO_X0 + PICO_X1) / 2
    s.rect(x=mid - 30, y=top - 18, width=60, height=24, rx=3, fill="#cccccc", stroke="#555555")
    s.text(mid, top - 1, "USB", text_anchor="middle", font_size=12, font_weight="bold")
    ym = (_row_y(0) + _row_y(19)) / 2
    s.text(mid, ym + 5, "%s \u2014 top view" % boards.NAME, text_anchor="middle", font_size=15,
           font_weight="bold", fill="#2e7d32", transform="rotate(-90 %s %s)" % (num(mid), num(ym)))
    used = {}
    for key, gpio, pin, short, _to in sig:
        used[pin] = (key, short)
    used[PIN_VBUS] = ("5v", "5 V out")
    used[PIN_LED_GND] = ("gnd", "GND")
    for pin in rail_pins(cfg):
        used[pin] = ("gnd", "GND")
    for pin in range(1, 41):
        side, row = pin_row(pin)
        y = _row_y(row)
        name = PICO_HEADER[pin]
        u = used.get(pin)
        col = WIRE[u[0]] if u else "#999999"
        if side == "L":
            s.line(PICO_X0 - STUB, y, PICO_X0, y, stroke=col, stroke_width=3 if u else 1.5)
            s.circle(cx=PICO_X0, cy=y, r=4, fill=col)
            if u:
                s.rect(x=PICO_X0 + 6, y=y - 10, width=92, height=20, rx=3, fill=col, fill_opacity="0.18")
            s.text(PICO_X0 + 10, y + 4, str(pin), font_size=11, fill="#555555")
            s.text(PICO_X0 + 34, y + 5, name, font_size=13, font_weight="bold" if u else "normal",
                   fill="#111111" if u else "#777777")
        else:
            s.line(PICO_X1, y, PICO_X1 + STUB, y, stroke=col, stroke_width=3 if u else 1.5)
            s.circle(cx=PICO_X1, cy=y, r=4, fill=col)
            if u:
                s.rect(x=PICO_X1 - 98, y=y - 10, width=92, height=20, rx=3, fill=col, fill_opacity="0.18")
            s.text(PICO_X1 - 10, y + 4, str(pin), font_size=11, fill="#555555", text_anchor="end")
            s.text(PICO_X1 - 34, y + 5, name, font_size=13, font_weight="bold" if u else "normal",
                   fill="#111111" if u else "#777777", text_anchor="end")
    s.text(PICO_X0 + 10, bot - 6, "pin", font_size=10, fill="#555555")
    s.text(PICO_X1 - 10, bot - 6, "pin", font_size=10, fill="#555555", text_anchor="end")

    # -- the LED strip, its resistor and capacitor
    data = sig[0]
    dside, drow = pin_row(data[2])
    y5 = _row_y(pin_row(PIN_VBUS)[1])
    yg = _row_y(pin_row(PIN_LED_GND)[1])
    ydin = y5 - 2 * PITCH if dside == "L" else yg + 2 * PITCH
    lx0, lx1 = LED_BOX
    ltop = min(ydin, y5) - 58
    lbot = max(ydin, yg) + 58
    s.rect(x=lx0, y=ltop, width=lx1 - lx0, height=lbot - ltop, rx=6, fill="#fff8e1", stroke="#b28704",
           stroke_width=2)
    s.text(lx0 + 10, ltop + 18, "LED strip: %d \u00d7 WS2812B" % count, font_weight="bold")
    s.text(lx0 + 10, ltop + 34, "layout \u201c%s\u201d%s"
           % (leds["layout"], ", with city LEDs" if leds["city"] else ""), font_size=12, fill="#444444")
    for name, y, key in (("DIN", ydin, "leds.pin"), ("5V", y5, "5v"), ("GND", yg, "gnd")):
        s.circle(cx=lx0, cy=y, r=4, fill=WIRE[key])
        s.text(lx0 + 10, y + 5, name + (" of LED 0" if name == "DIN" else ""), font_weight="bold")
    # a few LEDs of the chain
    cy = lbot - 22
    for k in range(4):
        x = lx0 + 110 + k * 38
        if k < 3:
            s.rect(x=x - 11, y=cy - 11, width=22, height=22, rx=2, fill="#ffffff", stroke="#555555")
            s.circle(cx=x, cy=cy, r=5, fill="#ffe082", stroke="#b28704")
            s.text(x, cy - 15, str(k), text_anchor="middle", font_size=10)
            s.line(x + 12, cy, x + 25, cy, stroke="#555555", stroke_width=1.5)
        else:
            s.text(x - 6, cy + 5, "\u2026 %d" % (count - 1), font_size=12)
    s.text(lx0 + 10, cy + 5, "DOUT\u2192DIN", font_size=10, fill="#555555")
    # 5 V from VBUS and GND from pin 38, the bulk capacitor across them
    x5 = PICO_X1 + STUB
    net = s.g(class_="net", data_key="5v", data_pin=PIN_VBUS)
    net.line(x5, y5, lx0, y5, stroke=WIRE["5v"], stroke_width=3)
    net.text(x5 + 8, y5 - 7, "5 V from USB", font_size=12, fill=WIRE["5v"], font_weight="bold")
    net = s.g(class_="net", data_key="gnd", data_pin=PIN_LED_GND)
    net.line(x5, yg, lx0, yg, stroke=WIRE["gnd"], stroke_width=3)
    net.text(x5 + 8, yg + 17, "GND (pin %d)" % PIN_LED_GND, font_size=12, font_weight="bold")
    cx = 800
    s.circle(cx=cx, cy=y5, r=4.5, fill=WIRE["5v"])
    s.circle(cx=cx, cy=yg, r=4.5, fill=WIRE["gnd"])
    ym = (y5 + yg) / 2
    s.line(cx, y5, cx, ym - 5, stroke=WIRE["5v"], stroke_width=2)
    s.line(cx - 12, ym - 5, cx + 12, ym - 5, stroke="#111111", stroke_width=3)
    s.path([("M", cx - 12, ym + 6), ("q", 12, -6, 24, 0)], fill="none", stroke="#111111", stroke_width=3)
    s.line(cx, ym + 3, cx, yg, stroke=WIRE["gnd"], stroke_width=2)
    s.text(cx - 16, ym - 6, "+", font_size=14, font_weight="bold", text_anchor="middle")
    s.text(cx + 18, ym - 2, "1000 \u00b5F", font_size=12, font_weight="bold")
    s.text(cx + 18, ym + 12, "\u2265 6.3 V", font_size=11, fill="#444444")
    # data: pin -> 330 ohm -> DIN
    key, gpio, pin, short, _to = data
    col = WIRE[key]
    rx0, rx1 = lx0 - 82, lx0 - 38
    if dside == "L":
        xs = PICO_X0 - STUB
        lane = xs - 10
        pts = [(xs, _row_y(drow)), (lane, _row_y(drow)), (lane, TOP_ROUTE), (cx - 40, TOP_ROUTE),
               (cx - 40, ydin), (rx0, ydin)]
    else:
        xs = PICO_X1 + STUB
        lane = cx - 30
        pts = [(xs, _row_y(drow)), (lane, _row_y(drow)), (lane, ydin), (rx0, ydin)]
    net = s.g(class_="net", data_key=key, data_gpio=gpio, data_pin=pin)
    net.polyline(pts, fill="none", stroke=col, stroke_width=3)
    net.line(rx1, ydin, lx0, ydin, stroke=col, stroke_width=3)
    net.rect(x=rx0, y=ydin - 8, width=rx1 - rx0, height=16, fill="#ffffff", stroke="#111111", stroke_width=2)
    net.text((rx0 + rx1) / 2, ydin - 13, "330 \u03a9", text_anchor="middle", font_size=12, font_weight="bold")
    label = "GP%d (pin %d) \u2192 LED data" % (gpio, pin)
    if dside == "L":
        net.text(pts[2][0] + 8, TOP_ROUTE - 8, label, font_size=12, fill=col, font_weight="bold")
    else:
        ym = (_row_y(drow) + ydin) / 2
        net.text(lane + 16, ym, label, font_size=12, fill=col, font_weight="bold", text_anchor="middle",
                 transform="rotate(-90 %s %s)" % (num(lane + 16), num(ym)))
    s.text(rx1, ydin + 22, "next to LED 0", font_size=10, fill="#555555", text_anchor="end")

    # -- encoder, buttons, buzzer: placed once to find the rail's height, then drawn
    rail_y = max(rail_y, _draw_parts(Canvas(), sig, lbot, rail_y) + 40)
    _draw_parts(s, sig, lbot, rail_y)

    # -- the GND rail
    s.line(40, rail_y, W_WIDTH - 40, rail_y, stroke=WIRE["gnd"], stroke_width=4)
    s.text(W_WIDTH / 2, rail_y + 22, "GND \u2014 common ground rail (every part's GND, "
           "the LED strip's GND and the Pico's GND)", text_anchor="middle", font_weight="bold")
    for pin in rail_pins(cfg):
        side, row = pin_row(pin)
        y = _row_y(row)
        x = PICO_X0 - STUB if side == "L" else PICO_X1 + STUB
        x2 = x - 14 if side == "L" else x + 14
        s.polyline([(x, y), (x2, y), (x2, rail_y)], fill="none", stroke=WIRE["gnd"], stroke_width=2.5)
        s.circle(cx=x2, cy=rail_y, r=4.5, fill=WIRE["gnd"])

    # -- the connection table
    y = rail_y + 66
    s.text(40, y, "Every connection", font_size=16, font_weight="bold")
    y += 10
    cols = (40, 130, 220, 800)
    s.line(40, y, W_WIDTH - 40, y, stroke="#999999")
    y += 20
    for c, h in zip(cols, ("Pico pin", "name", "goes to", "config key")):
        s.text(c, y, h, font_weight="bold")
    y += 8
    s.line(40, y, W_WIDTH - 40, y, stroke="#999999")
    for pin, name, to, key in connection_rows(cfg):
        y += 22
        s.text(cols[0], y, str(pin))
        s.text(cols[1], y, name, font_weight="bold")
        s.text(cols[2], y, to)
        s.text(cols[3], y, key, fill="#555555", font_family="DejaVu Sans Mono, monospace")
    y += 12
    s.line(40, y, W_WIDTH - 40, y, stroke="#999999")
    return page.render(W_WIDTH, y + 30, "", header, "Osada wiring")
