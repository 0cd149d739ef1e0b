"""A config file for the Pi build, read strictly: firmware/config.json's
format (osada_fw/config.py validate) plus an optional "pi" section, the
Pi's BCM GPIOs (osada_fw/hal/blinka.py pi_pins: its defaults, its checks).
The Pico's own config has no such section, so it is taken out before the
rest is checked and put back checked.  What is wrong is one sentence naming
the file (ConfigError).  `osada device` and `make hardware` read it so."""

import json
import os

from osada.files.config_file import read_config
from osada_fw.config import ConfigError, validate
from osada_fw.hal.blinka import pi_pins


def read(path, missing_ok=False):
    """The config at `path`, validated, with cfg["pi"] the Pi's pins.
    missing_ok: a missing file means the defaults (the shipped default
    config, as the device itself takes it)."""
    if missing_ok and not os.path.exists(path):
        raw = {}
    else:
        try:
            with open(path, encoding="utf-8") as f:
                raw = json.loads(f.read())
        except (OSError, ValueError):
            read_config(path)               # raises the sentence for it: missing, a directory, not UTF-8, not JSON
            raise ConfigError("cannot read the config %s" % path) from None
    section = raw.pop("pi", None) if isinstance(raw, dict) else None
    try:
        cfg = validate(raw)
        cfg["pi"] = pi_pins(section)
    except ConfigError as exc:
        raise ConfigError("the config %s: %s" % (path, exc)) from None
    return cfg
