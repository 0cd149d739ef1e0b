# The device's hardware description: pins, LED count and layout, brightness,
# power budget.  One JSON file (firmware/config.json, copied to the Pico as
# /config.json); the code never hard-codes a pin.  Runs on MicroPython.

import json

from osada_fw.layouts import CITY_LEDS, LAYOUTS, SECTOR_LEDS

ORDERS = ("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")

DEFAULTS = {
    "leds": {"pin": 2, "layout": "spokes", "city": False, "order": "GRB",
             "brightness": 96, "max_ma": 400, "ma_per_channel": 20},
    "encoder": {"a": 3, "b": 4, "switch": 5},
    "buttons": {"action": 6, "back": 7},
    "buzzer": None,
    "watchdog": False,
    "state_dir": "/osada",
    "serial": {"max_line": 1024},
}


class ConfigError(ValueError):
    pass


def _merge(defaults, given, where):
    if given is None:
        return defaults
    if isinstance(defaults, dict):
        if not isinstance(given, dict):
            raise ConfigError("%s must be an object" % where)
        out = {}
        for k in defaults:
            out[k] = _merge(defaults[k], given.get(k), where + "." + k)
        for k in given:
            if k not in defaults:
                raise ConfigError("unknown setting %s.%s" % (where, k))
        return out
    return given


# The RP2040 has GP0-GP29; the Pico's header brings out all but the four the
# board itself uses: GP23 the power supply's mode, GP24 VBUS sense, GP25 the
# on-board LED, GP29 VSYS sense (on a Pico W they belong to the radio).  The
# one home of that fact: the host's build guide (osada.buildguide.pico)
# derives its pin words from these, and tests/test_one_home.py ties its
# header map to them.
GPIOS = 30
NOT_ON_HEADER = (23, 24, 25, 29)


def on_header():
    """The GPIOs on the Pico's header, in order."""
    return [g for g in range(GPIOS) if g not in NOT_ON_HEADER]


def spans(gpios, prefix="", sep=", "):
    """Ascending GPIO numbers in words, a run of consecutive ones as one
    span: spans([1, 2, 3, 7], "GP", " or ") is 'GP1-GP3 or GP7'."""
    out = []
    first = None
    for i, g in enumerate(gpios):
        if first is None:
            first = g
        if i + 1 == len(gpios) or gpios[i + 1] != g + 1:
            out.append(prefix + str(g) if first == g else "%s%d-%s%d" % (prefix, first, prefix, g))
            first = None
    return sep.join(out)


def _pin(v, where):
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v >= GPIOS or v in NOT_ON_HEADER:
        raise ConfigError("%s must be a GPIO on the Pico's header: %s (got %r)" % (where, spans(on_header()), v))
    return v


def validate(cfg):
    """Merge cfg over the defaults and check every value; ConfigError if bad.
    A "pi" section (the Raspberry Pi build's pins: `osada device` and `make
    hardware` read and check it) is left to them: one config.json serves both."""
    if isinstance(cfg, dict) and "pi" in cfg:
        cfg = dict((k, v) for k, v in cfg.items() if k != "pi")
    c = _merge(DEFAULTS, cfg, "config")
    leds = c["leds"]
    _pin(leds["pin"], "leds.pin")
    if leds["layout"] not in LAYOUTS:
        raise ConfigError("leds.layout must be one of %s (got %r)" % (", ".join(LAYOUTS), leds["layout"]))
    if leds["order"] not in ORDERS:
        raise ConfigError("leds.order must be one of %s" % ", ".join(ORDERS))
    for key, lo, hi in (("brightness", 1, 255), ("max_ma", 50, 5000), ("ma_per_channel", 1, 60)):
        v = leds[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
            raise ConfigError("leds.%s must be an integer %d-%d (got %r)" % (key, lo, hi, v))
    if not isinstance(leds["city"], bool):
        raise ConfigError("leds.city must be true or false")
    pins = [("leds.pin", leds["pin"])]
    for k in ("a", "b", "switch"):
        pins.append(("encoder." + k, _pin(c["encoder"][k], "encoder." + k)))
    for k in ("action", "back"):
        pins.append(("buttons." + k, _pin(c["buttons"][k], "buttons." + k)))
    if c["buzzer"] is not None:
        if not isinstance(c["buzzer"], dict) or "pin" not in c["buzzer"]:
            raise ConfigError("buzzer must be null or {\"pin\": N}")
        pins.append(("buzzer.pin", _pin(c["buzzer"]["pin"], "buzzer.pin")))
    seen = {}
    for name, p in pins:
        if p in seen:
            raise ConfigError("%s and %s both use GPIO %d" % (seen[p], name, p))
        seen[p] = name
    if not isinstance(c["watchdog"], bool):
        raise ConfigError("watchdog must be true or false")
    ml = c["serial"]["max_line"]
    if not isinstance(ml, int) or ml < 256 or ml > 8192:
        raise ConfigError("serial.max_line must be 256-8192")
    return c


def led_count(c):
    return SECTOR_LEDS + (CITY_LEDS if c["leds"]["city"] else 0)


def load(path):
    """Read and validate a config file.  A missing file means the defaults."""
    try:
        f = open(path)
    except OSError:
        return validate({})
    try:
        raw = json.loads(f.read())
    except ValueError as exc:
        raise ConfigError("%s is not valid JSON: %s" % (path, exc))
    finally:
        f.close()
    return validate(raw)
