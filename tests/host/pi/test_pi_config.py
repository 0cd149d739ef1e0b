"""The Pi's pins (osada_fw/hal/blinka.py pi_pins) and the config file that
carries them (osada/device/config.py): config.json's "pi" section over the
defaults, the strip only on a GPIO that can drive one, every refusal one
sentence naming the setting; the rest of the file is the Pico's, checked as
the Pico checks it."""

import json
import sys

import pytest

from osada.device.config import read
from osada_fw.config import ConfigError
from osada_fw.hal import blinka
from osada_fw.hal.blinka import PI_DEFAULTS, PI_GPIOS, STRIP_GPIOS, PiError, pi_pins


def test_the_defaults():
    assert pi_pins(None) == pi_pins({}) == PI_DEFAULTS
    assert pi_pins(None) is not PI_DEFAULTS and pi_pins(None)["encoder"] is not PI_DEFAULTS["encoder"]
    assert PI_DEFAULTS["strip"] == 18 and set(STRIP_GPIOS) == {10, 12, 18, 21}


@pytest.mark.parametrize("gpio", PI_GPIOS)
def test_the_strip_takes_only_the_pins_that_drive_one(gpio):
    pins = {"strip": gpio, "encoder": {"a": 5, "b": 6, "switch": 13}, "buttons": {"action": 19, "back": 26}}
    if gpio in STRIP_GPIOS:
        assert pi_pins(pins)["strip"] == gpio
        return
    with pytest.raises(ConfigError) as ei:
        pi_pins(pins)
    assert str(ei.value) == ("pi.strip is GPIO%d, which cannot drive the LED strip: the Pi drives one only "
                             "from GPIO10, GPIO12, GPIO18 or GPIO21" % gpio)


@pytest.mark.parametrize("section,words", [
    ({"strip": 1}, "pi.strip must be a GPIO on the Pi's header, GPIO2-GPIO27 (got 1)"),
    ({"strip": True}, "pi.strip must be a GPIO on the Pi's header, GPIO2-GPIO27 (got True)"),
    ({"encoder": {"switch": "22"}}, "pi.encoder.switch must be a GPIO on the Pi's header, GPIO2-GPIO27 (got '22')"),
    ({"encoder": {"c": 5}}, "unknown setting pi.encoder.c"),
    ({"encoder": 17}, "pi.encoder must be an object"),
    ({"buttons": {"action": 17}}, "pi.encoder.a and pi.buttons.action both use GPIO17"),
    ({"strip": 10, "buttons": {"back": 10}}, "pi.strip and pi.buttons.back both use GPIO10"),
    ({"pin": 18}, "unknown setting pi.pin"),
])
def test_what_is_refused(section, words):
    with pytest.raises(ConfigError) as ei:
        pi_pins(section)
    assert str(ei.value) == words


def test_a_config_with_its_pi_section(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"leds": {"layout": "rings", "city": True, "order": "RGB"},
                                "pi": {"strip": 10, "buttons": {"back": 25}}}))
    cfg = read(str(path))
    assert cfg["leds"]["layout"] == "rings" and cfg["leds"]["city"] is True and cfg["leds"]["order"] == "RGB"
    assert cfg["pi"] == {"strip": 10, "encoder": {"a": 17, "b": 27, "switch": 22},
                         "buttons": {"action": 23, "back": 25}}
    assert cfg["encoder"] == {"a": 3, "b": 4, "switch": 5}            # the Pico's, untouched


def test_the_pico_takes_the_config_that_has_a_pi_section(tmp_path):
    """Issue 42 item 10: one config.json with a "pi" section was refused by the Pico (unknown setting
    config.pi) while `make hardware` read it.  The Pico (and the simulator) leave the section to the Pi."""
    from osada.files.config_file import read_config
    from osada_fw.config import load
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"leds": {"layout": "rings"}, "pi": {"strip": 10, "buttons": {"back": 25}}}))
    for cfg in (load(str(path)), read_config(str(path))):
        assert cfg["leds"]["layout"] == "rings" and "pi" not in cfg and cfg["buttons"]["back"] == 7
    assert read(str(path))["pi"]["strip"] == 10                       # the Pi's reader still checks it
    path.write_text(json.dumps({"leds": {"layout": "rings"}, "pie": {}}))
    with pytest.raises(ConfigError, match="unknown setting config.pie"):
        load(str(path))


def test_the_rest_is_checked_as_the_picos(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"leds": {"layout": "hexagon"}, "pi": {"strip": 18}}))
    with pytest.raises(ConfigError) as ei:
        read(str(path))
    assert str(ei.value).startswith("the config %s: leds.layout must be one of" % path)
    with pytest.raises(ConfigError, match="no such file"):
        read(str(tmp_path / "missing.json"))
    assert read(str(tmp_path / "missing.json"), missing_ok=True)["pi"] == PI_DEFAULTS


def test_the_libraries_missing_is_one_sentence(monkeypatch):
    monkeypatch.setitem(sys.modules, "neopixel", None)          # import neopixel -> ImportError
    monkeypatch.setitem(sys.modules, "board", None)
    with pytest.raises(PiError) as ei:
        blinka.libraries()
    assert "pip install 'osada[pi]'" in str(ei.value) and "\n" not in str(ei.value)
