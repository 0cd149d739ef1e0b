"""The Raspberry Pi build (`osada device`, osada_fw/hal/blinka.py): the Pi's
40-pin header, and the README's Pi section, from the same config: what to
buy besides the Pico build's parts, the wiring of the config's "pi" pins,
and what differs from the Pico build."""

import json

from osada_fw import config as fwconfig
from osada_fw.hal.blinka import PI_DEFAULTS, PI_GPIOS, STRIP_GPIOS, gpio_words

from .common import HardwareError

# Physical header pin -> its name, every Pi with the 40-pin header (Zero 2 W,
# 3, 4).  Odd pins run down the inner row (pin 1, 3V3, at the SD card's end),
# even ones the outer row.  Its GPIOs are exactly blinka.PI_GPIOS (ID_SD and
# ID_SC are GPIO0-1, the HAT EEPROM's; tests/host/pi/test_pi_guide.py checks it).
PI_HEADER = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "ID_SD", 28: "ID_SC", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
PIN_5V = 2
PIN_LED_GND = 6            # beside the 5 V pins: the strip's return
PIN_RAIL_GND = 14          # the controls' common ground
PI_MA = 600                # what a Pi Zero 2 W may draw itself, at its busiest, mA
SUPPLY_A = 2.5             # the official Zero 2 W supply: 5 V, 2.5 A


def header_pin(gpio):
    """Physical header pin of BCM GPIO n; HardwareError off the header."""
    name = "GPIO%d" % gpio
    for pin in range(1, 41):
        if PI_HEADER[pin] == name:
            return pin
    raise HardwareError("GPIO%d is not on the Pi's header: use GPIO%d-GPIO%d" % (gpio, PI_GPIOS[0], PI_GPIOS[-1]))


def _defaults_words():
    return "`\"pi\": %s`" % json.dumps(PI_DEFAULTS)


def _strip_words(strip):
    """How the strip's GPIO is driven, and what it asks of the Pi."""
    if strip == 10:
        return ("SPI (GPIO10, MOSI)", "turn SPI on (`dtparam=spi=on`; on a Pi 3 or Zero 2 W also `core_freq=250`, "
                "which the SPI clock follows); then `osada device` needs no root: a user in the `gpio` and `spi` "
                "groups runs it (`User=` in the unit)")
    if strip == 21:
        return ("PCM (GPIO21)", "no I2S audio HAT or overlay; `osada device` runs as root (rpi_ws281x's DMA "
                "through /dev/mem), as the systemd unit does")
    return ("PWM (GPIO%d)" % strip, "audio off: the PWM that drives the strip is the Pi's analog audio "
            "(`dtparam=audio=off` in /boot/firmware/config.txt); `osada device` runs as root (rpi_ws281x's "
            "DMA through /dev/mem), as the systemd unit does")


def bom_md(cfg):
    count = fwconfig.led_count(cfg)
    strip = cfg["pi"]["strip"]
    rows = [
        ("1", "Raspberry Pi Zero 2 W, with a soldered 40-pin header",
         "Raspberry Pi OS Lite (Bookworm or newer); a Pi 3 or 4 wires the same; a Pi 5 drives NeoPixels another "
         "way: not supported yet"),
        ("1", "microSD card, 8 GB or more", "for Raspberry Pi OS"),
        ("1", "74AHCT125 (or 74AHCT1G125) level shifter, powered from 5 V",
         "GPIO%d's 3.3 V data \u2192 5 V for the LEDs: not optional here" % strip),
        ("1", "5 V power supply, %.1f A (micro-USB for the Zero 2 W: the official one)" % SUPPLY_A,
         "the Pi and, through the header's 5 V pins, the LEDs: %d mA budget (`leds.max_ma`) + about %d mA for "
         "the Pi" % (cfg["leds"]["max_ma"], PI_MA)),
        ("\u2014", "the %d LEDs, the encoder, the two buttons, the 330 \u03a9 resistor, the 1000 \u00b5F capacitor, "
         "the wire, the diffuser and the base panel" % count,
         "as in the bill of materials above; no Pico, no USB cable, no buzzer"),
    ]
    out = ["| qty | part | notes |", "|---|---|---|"]
    for q, part, note in rows:
        out.append("| %s | %s | %s |" % (q, part, note))
    return "\n".join(out)


def connection_rows(cfg):
    """(header pin, name, goes to, config key) for every wire to the Pi."""
    pi = cfg["pi"]
    count = fwconfig.led_count(cfg)
    rows = [(PIN_5V, "5V", "LED strip 5 V, the 1000 \u00b5F capacitor + and the level shifter's VCC", "\u2014"),
            (PIN_LED_GND, "GND", "LED strip GND, the capacitor \u2212, the level shifter's GND and 1OE", "\u2014"),
            (header_pin(pi["strip"]), "GPIO%d" % pi["strip"],
             "level shifter 1A; its 1Y \u2192 330 \u03a9 resistor \u2192 DIN of LED 0 (first of %d)" % count,
             "pi.strip")]
    for key, gpio, to in (("encoder.a", pi["encoder"]["a"], "encoder pin A"),
                          ("encoder.b", pi["encoder"]["b"], "encoder pin B"),
                          ("encoder.switch", pi["encoder"]["switch"], "encoder push switch (one leg)"),
                          ("buttons.action", pi["buttons"]["action"], "ACTION button (one leg)"),
                          ("buttons.back", pi["buttons"]["back"], "BACK button (one leg)")):
        rows.append((header_pin(gpio), "GPIO%d" % gpio, to, "pi." + key))
    rows.append((PIN_RAIL_GND, "GND", "GND rail: encoder C and switch leg, both buttons' 2nd leg", "\u2014"))
    return rows


def pins_md(cfg):
    out = ["| Pi pin | name | goes to | config key |", "|---:|---|---|---|"]
    for pin, name, to, key in connection_rows(cfg):
        out.append("| %s | %s | %s | %s |" % (pin, name, to, "`%s`" % key if key != "\u2014" else key))
    return "\n".join(out)


def differences_md(cfg):
    strip = cfg["pi"]["strip"]
    how, needs = _strip_words(strip)
    return "\n".join([
        "- **The pins** are the Pi's BCM GPIO numbers, in the config's `\"pi\"` section (its defaults: %s); the "
        "Pico's pins in the rest of the file mean nothing on a Pi." % _defaults_words(),
        "- **The strip** (`pi.strip`, GPIO%d here) is driven by rpi_ws281x through the Pi's %s: only %s can "
        "drive one, and `osada device` refuses any other pin at start, naming it." % (strip, how,
                                                                                   gpio_words(STRIP_GPIOS)),
        "- **What that pin asks of the Pi:** %s." % needs,
        "- **The level shifter is not optional**: the Pi's 3.3 V data reaches the LEDs through the 74AHCT125 "
        "(or the first-LED diode trick of section 2).",
        "- **No buzzer** (the config's `buzzer` is ignored), **no watchdog**: systemd starts `osada device` "
        "again if it stops.",
        "- **Power**: the same frame cap, `leds.max_ma` = %d mA, from the supply through the header's 5 V "
        "pins; keep it under the supply's %.1f A less the Pi's own." % (cfg["leds"]["max_ma"], SUPPLY_A),
        "- **The host link** is a pseudo-terminal on the Pi, not USB: the monitor runs on the Pi (or over "
        "SSH) and finds the device by itself; the game is saved in its state directory (`/var/lib/osada`).",
    ])


def pi_md(cfg):
    """The README's Pi section: parts, wiring, differences."""
    return "\n\n".join(["**Parts** for the Pi build:", bom_md(cfg),
                        "**Wiring** (the Pi's header, seen from above, pin 1 at the SD card's end):", pins_md(cfg),
                        "**What differs from the Pico build:**", differences_md(cfg)])
