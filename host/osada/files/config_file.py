"""A hardware config file (firmware/config.json's format, checked by
osada_fw/config.py validate) read on the PC, strictly: a file a user names
must be there and be right, and what is wrong is one sentence naming the
file (ConfigError).  `osada sim --config` and `make hardware` read it so.
(The device itself takes the defaults when its /config.json is missing:
osada_fw/config.py load.)"""

import json

from osada.files.userfile import UnreadableFile, read_text
from osada_fw.config import ConfigError, validate


def read_config(path):
    """The config at `path`, validated; ConfigError (one sentence naming the file) if it cannot be used."""
    try:
        text = read_text(path, "config")
    except UnreadableFile as exc:
        raise ConfigError(str(exc)) from None
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise ConfigError("the config %s is not valid JSON: %s" % (path, exc)) from None
    try:
        return validate(raw)
    except ConfigError as exc:
        raise ConfigError("the config %s: %s" % (path, exc)) from None
