"""The Raspberry Pi Pico's header, and what firmware/config.json wires to it."""

from osada_fw import config as fwconfig

from .common import HardwareError

# Physical header pin -> its name, Raspberry Pi Pico and Pico 2 (same header;
# the W variants too).  Pins 1-20 run down the left edge (USB at the top, seen
# from above), 21-40 up the right edge.  Its GPIOs are exactly the firmware
# config's on_header() (tests/test_one_home.py checks it).
PICO_HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15",
    21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21",
    28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28",
    35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
PIN_VBUS = 40
PIN_LED_GND = 38           # next to VBUS: the LED strip's return
PIN_GND_LEFT = 18          # the lowest GND pins: the common ground rail
PIN_GND_RIGHT = 23


def header_pin(gpio):
    """Physical header pin of GPIO n; HardwareError for a GPIO the Pico's
    header does not bring out (the firmware config's NOT_ON_HEADER, which
    the board itself uses)."""
    name = "GP%d" % gpio
    for pin in range(1, 41):
        if PICO_HEADER[pin] == name:
            return pin
    raise HardwareError("GPIO %d is not on the Pico's header (the board itself uses %s); use %s"
                        % (gpio, fwconfig.spans(fwconfig.NOT_ON_HEADER, "GP", " and "),
                           fwconfig.spans(fwconfig.on_header(), "GP", " or ")))


def pin_row(pin):
    """(side, row): side 'L' for pins 1-20 (row 0 at the top), 'R' for 21-40."""
    if pin <= 20:
        return "L", pin - 1
    return "R", 40 - pin


def rail_pins(cfg):
    """The Pico GND pins wired down to the GND rail: the lowest GND pin of
    each side, where no used pin lies below it (its wire would cross
    theirs); at least the left one."""
    used = [pin_row(t[2]) for t in signals(cfg)]
    out = []
    for pin in (PIN_GND_LEFT, PIN_GND_RIGHT):
        side, row = pin_row(pin)
        if not any(s == side and r > row for s, r in used):
            out.append(pin)
    return out or [PIN_GND_LEFT]


def signals(cfg):
    """The config's GPIO connections: list of (config key, gpio, header pin,
    short name, what it goes to)."""
    out = [("leds.pin", cfg["leds"]["pin"], "LED DIN", "LED 0 DIN, through the 330 \u03a9 resistor")]
    enc = cfg["encoder"]
    out.append(("encoder.a", enc["a"], "ENC A", "encoder pin A"))
    out.append(("encoder.b", enc["b"], "ENC B", "encoder pin B"))
    out.append(("encoder.switch", enc["switch"], "ENC SW", "encoder push switch (one leg)"))
    btn = cfg["buttons"]
    out.append(("buttons.action", btn["action"], "ACTION", "ACTION button (one leg)"))
    out.append(("buttons.back", btn["back"], "BACK", "BACK button (one leg)"))
    if cfg["buzzer"] is not None:
        out.append(("buzzer.pin", cfg["buzzer"]["pin"], "BUZZER", "piezo + (through 100 \u03a9)"))
    return [(key, gpio, header_pin(gpio), short, to) for key, gpio, short, to in out]


def connection_rows(cfg):
    """(header pin, name, goes to, config key) for every wire to the Pico."""
    count = fwconfig.led_count(cfg)
    rows = [(PIN_VBUS, "VBUS", "LED strip 5 V and the 1000 \u00b5F capacitor + (5 V from USB)", "\u2014"),
            (PIN_LED_GND, "GND", "LED strip GND and the capacitor \u2212", "\u2014")]
    for key, gpio, pin, short, to in signals(cfg):
        if key == "leds.pin":
            to = "330 \u03a9 resistor \u2192 DIN of LED 0 (first of %d)" % count
        rows.append((pin, "GP%d" % gpio, to, key))
    if cfg["buzzer"] is None:
        rows.append(("\u2014", "\u2014", "No buzzer configured (\u201cbuzzer\u201d: null); to add one: "
                     "\u201cbuzzer\u201d: {\u201cpin\u201d: N}", "buzzer"))
    rail = rail_pins(cfg)
    rows.append((rail[0], "GND", "GND rail: encoder C and switch leg, both buttons' 2nd leg"
                 + (", piezo \u2212" if cfg["buzzer"] is not None else ""), "\u2014"))
    for pin in rail[1:]:
        rows.append((pin, "GND", "GND rail (the same net, a second joint)", "\u2014"))
    return rows


def pins_md(cfg):
    out = ["| Pico pin | name | goes to | config key |", "|---:|---|---|---|"]
    for pin, name, to, key in connection_rows(cfg):
        out.append("| %s | %s | %s | %s |" % (pin, name, to, "`%s`" % key if key != "\u2014" else key))
    return "\n".join(out)
