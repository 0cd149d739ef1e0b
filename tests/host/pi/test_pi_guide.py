"""The build guide's Raspberry Pi section (host/osada/buildguide/pi.py, `make
hardware`): generated from the same config as the Pico's, its wiring follows the
config's "pi" pins, its header is the one the HAL accepts, and a pin the strip
cannot use is refused there too, in the same words."""

import json
import os
import subprocess
import sys

import pytest

from osada.buildguide import build, cli
from osada.buildguide.common import HardwareError
from osada.buildguide.pi import PI_HEADER, header_pin, pi_md
from osada.device.config import read
from osada_fw.hal.blinka import PI_GPIOS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
README = os.path.join(ROOT, "hardware", "README.md")


def section(cfg_path, tmp_path):
    """The README's Pi section for this config, as `make hardware` fills it in."""
    return pi_md(read(str(cfg_path)))


def config(tmp_path, **raw):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(raw))
    return path


def test_the_header_is_the_hals():
    gpios = sorted(int(name[4:]) for name in PI_HEADER.values() if name.startswith("GPIO"))
    assert gpios == list(PI_GPIOS) and len(PI_HEADER) == 40
    assert [header_pin(g) for g in (18, 17, 27, 22, 23, 24, 10, 21)] == [12, 11, 13, 15, 16, 18, 19, 40]
    for gpio in (0, 1, 28, 40):
        with pytest.raises(HardwareError, match="GPIO%d is not on the Pi's header: use GPIO2-GPIO27" % gpio):
            header_pin(gpio)


def test_the_shipped_config_wires_the_defaults(tmp_path):
    text = section(os.path.join(ROOT, "firmware", "config.json"), tmp_path)
    for row in ("| 12 | GPIO18 | level shifter 1A; its 1Y \u2192 330 \u03a9 resistor \u2192 DIN of LED 0 (first of 24) "
                "| `pi.strip` |", "| 11 | GPIO17 | encoder pin A | `pi.encoder.a` |",
                "| 16 | GPIO23 | ACTION button (one leg) | `pi.buttons.action` |", "| 2 | 5V |", "| 14 | GND |"):
        assert row in text
    assert "Raspberry Pi Zero 2 W" in text and "74AHCT125" in text and "dtparam=audio=off" in text
    assert "root" in text and "400 mA budget" in text


def test_the_section_follows_the_config(tmp_path):
    path = config(tmp_path, leds={"city": True, "max_ma": 900},
                  pi={"strip": 10, "encoder": {"a": 5, "b": 6}, "buttons": {"back": 26}})
    text = section(path, tmp_path)
    assert "| 19 | GPIO10 | level shifter 1A; its 1Y \u2192 330 \u03a9 resistor \u2192 DIN of LED 0 (first of 36) " \
           "| `pi.strip` |" in text
    assert "| 29 | GPIO5 | encoder pin A |" in text and "| 31 | GPIO6 | encoder pin B |" in text
    assert "| 37 | GPIO26 | BACK button (one leg) |" in text and "GPIO17" not in text.split("**What differs")[0]
    assert "dtparam=spi=on" in text and "dtparam=audio=off" not in text and "900 mA budget" in text
    assert "the 36 LEDs" in text


def test_a_strip_pin_it_cannot_use_is_refused_in_words(tmp_path, capsys):
    path = config(tmp_path, pi={"strip": 4})
    assert cli.main(["--config", str(path), "--out", str(tmp_path / "hw")]) == 2
    err = capsys.readouterr().err
    assert err == ("error: the config %s: pi.strip is GPIO4, which cannot drive the LED strip: the Pi drives one "
                   "only from GPIO10, GPIO12, GPIO18 or GPIO21\n" % path)
    assert not os.path.exists(tmp_path / "hw")


def test_make_hardware_check_sees_the_pi_section(tmp_path):
    """The committed README holds the Pi section as generated; a stale one is named."""
    assert "pi" in build.SECTIONS
    out = tmp_path / "hw"
    assert cli.main(["--config", os.path.join(ROOT, "firmware", "config.json"), "--out", str(out)]) == 0
    readme = out / "README.md"
    assert not readme.exists()                     # no README to fill: only the drawn files
    with open(README, encoding="utf-8") as f:
        text = f.read()
    readme.write_text(text.replace("| 12 | GPIO18 |", "| 12 | GPIO19 |"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT,
                                                       os.path.join(ROOT, "firmware")]))
    p = subprocess.run([sys.executable, "-m", "osada.buildguide", "--check", "--out", str(out)],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert p.returncode == 1 and "README.md" in p.stderr
