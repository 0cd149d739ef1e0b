"""The README's bill of materials, quantities from the config."""

import math

from osada.flash import boards
from osada_fw import config as fwconfig
from osada_fw.layouts import Layout

from .common import DEFAULT_DIAMETER_MM, num
from .placement import chain_lengths


def bom_md(cfg, diameter_mm=DEFAULT_DIAMETER_MM):
    count = fwconfig.led_count(cfg)
    leds = cfg["leds"]
    buz = cfg["buzzer"] is not None
    rows = [
        ("1", "%s, with header pins" % boards.NAME,
         "runs the official MicroPython %s image; %s" % (boards.BOARD, boards.REFUSED)),
        ("%d (+1 spare)" % count, _led_form(leds["layout"], leds["city"]),
         "24 board cells%s (config: layout \u201c%s\u201d, city %s)"
         % (" + 12 city LEDs" if leds["city"] else "", leds["layout"], "on" if leds["city"] else "off")),
        ("1", "rotary encoder EC11 with push switch (5 pins), and a knob", "a KY-040 module works too: "
         "its + pin to 3V3(OUT), never 5 V"),
        ("2", "momentary push buttons, normally open (12 mm tactile or panel buttons)", "ACTION and BACK"),
        ("1" if buz else "0\u20131", "passive piezo buzzer%s" % ("" if buz else " (optional; not in the config)"),
         "with a 100 \u03a9 series resistor" if buz
         else "needs \u201cbuzzer\u201d: {\u201cpin\u201d: N} in the config"),
        ("1", "330 \u03a9 resistor, 1/4 W", "in the LED data line, next to LED 0"),
        ("1", "1000 \u00b5F electrolytic capacitor, 6.3 V or more (10 V is common)", "across 5 V and GND at the strip"),
        ("0\u20131", "74AHCT125 (or 74AHCT1G125) level shifter, optional", "3.3 V data \u2192 5 V; see below"),
        ("%d m of each" % wire_m(cfg, diameter_mm), "hook-up wire in three colours (5 V, GND, data), 22\u201324 AWG; "
         "and a little for the controls",
         "the chain's links on a \u00d8 %s mm board, +20 %%, +0.5 m to the Pico" % num(diameter_mm)),
        ("1", "diffuser over the LEDs: 3\u20135 mm opal acrylic, or paper/foam under the board",
         "the LEDs sit %s mm or so below it" % "10\u201320"),
        ("1", "base panel (plywood/MDF/card) the size of the printed board", "the LED template goes on it"),
        ("1", "USB cable (data, not charge-only) to a USB 2.0 port or a 5 V / 1 A supply", ""),
    ]
    out = ["| qty | part | notes |", "|---|---|---|"]
    for q, part, note in rows:
        out.append("| %s | %s | %s |" % (q, part, note))
    return "\n".join(out)


def _led_form(layout, city):
    where = {
        "spokes": "placed as 6 spokes of 4",
        "rings": "placed as 4 rings of 6",
        "ring24": "placed on one circle (a ready-made 24-LED ring only if it matches the template's circle)",
    }[layout]
    out = "WS2812B LEDs: single 5050 LEDs on small breakout boards, or strip cut into single LEDs; " + where
    if city:
        out += ", plus 12 for the walls and buildings"
    return out


def wire_m(cfg, diameter_mm=DEFAULT_DIAMETER_MM):
    """Metres of wire per conductor (data, 5 V, GND) for the configured chain
    on a board of diameter_mm: the straight links plus 20 %, and 0.5 m from
    the Pico, rounded up."""
    _longest, total = chain_lengths(Layout(cfg["leds"]["layout"], cfg["leds"]["city"]), diameter_mm)
    return int(math.ceil(total * 1.2 / 1000.0 + 0.5))
