# The hardware layer on a Raspberry Pi: CPython and Adafruit's Blinka, which
# gives Linux CircuitPython's board, digitalio, rotaryio and neopixel.
# `osada device` (host/osada/device/) runs the app on it; see
# hal/__init__.py for the interface.  Host-side code: never copied to the
# Pico (host/osada/flash/deploy.py SKIP_FW).
#
#   LEDs     adafruit-circuitpython-neopixel's NeoPixel on the strip's GPIO,
#            pixel order config.leds.order, brightness 1.0: the app's Frame
#            has applied brightness, gamma and the power cap already, so the
#            strip gets the Frame's very bytes, sent with one show() a frame
#   inputs   rotaryio's IncrementalEncoder and digitalio buttons with their
#            pull-ups, debounced and long-pressed as on the Pico (Inputs and
#            Inputs.Button, hal/__init__.py)
#   serial   the pty `osada device` opens (osada/sim/ptylink.py), read and
#            written as the simulator does (hal/fake.py FdSerial)
#   journal  state_dir on the Pi's own filesystem: store/journal.py, which
#            fsyncs the file after every record and the directory after
#            every rename (what a power cut needs on Linux)
#
# The pins are BCM GPIO numbers, from config.json's "pi" section (PI_DEFAULTS
# where it is silent; pi_pins() checks them): the Pico's own pins in the
# rest of the file mean nothing on a Pi.  rpi_ws281x, which Blinka drives a
# WS2812 strip with on a Pi Zero 2 W to Pi 4, can do so only from
# STRIP_GPIOS; any other pin is refused at start, in words.

import os

from osada_fw.config import ConfigError
from osada_fw.hal import Inputs
from osada_fw.hal.fake import FdSerial, RealClock  # noqa: F401  (FdSerial: the device's serial, as the simulator's)

# The 40-pin header's GPIOs (0 and 1 are the HAT EEPROM's): the one home of
# that fact; the build guide's header map (osada.buildguide.pi) is tied to it.
PI_GPIOS = tuple(range(2, 28))
# The strip: rpi_ws281x's SPI (GPIO10), PWM (GPIO12, GPIO18) and PCM (GPIO21) pins
STRIP_GPIOS = (10, 12, 18, 21)
PI_DEFAULTS = {
    "strip": 18,
    "encoder": {"a": 17, "b": 27, "switch": 22},
    "buttons": {"action": 23, "back": 24},
}


class PiError(Exception):
    """The Pi's libraries or pins cannot be used: one sentence saying why."""


def gpio_words(gpios, last="or"):
    """[10, 12, 18] -> 'GPIO10, GPIO12 or GPIO18'."""
    names = ["GPIO%d" % g for g in gpios]
    return names[0] if len(names) == 1 else "%s %s %s" % (", ".join(names[:-1]), last, names[-1])


def _gpio(v, where):
    if not isinstance(v, int) or isinstance(v, bool) or v not in PI_GPIOS:
        raise ConfigError("%s must be a GPIO on the Pi's header, GPIO%d-GPIO%d (got %r)"
                          % (where, PI_GPIOS[0], PI_GPIOS[-1], v))
    return v


def _section(given, defaults, where):
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise ConfigError("%s must be an object" % where)
    for k in given:
        if k not in defaults:
            raise ConfigError("unknown setting %s.%s" % (where, k))
    out = {}
    for k, d in defaults.items():
        v = given.get(k)
        out[k] = _section(v, d, where + "." + k) if isinstance(d, dict) else _gpio(d if v is None else v,
                                                                                  where + "." + k)
    return out


def pi_pins(section):
    """The Pi's pins: config.json's "pi" section (None: none) over
    PI_DEFAULTS, checked.  ConfigError, one sentence, when a pin is not on
    the header, two share a GPIO, or the strip's cannot drive a strip."""
    pins = _section(section, PI_DEFAULTS, "pi")
    strip = pins["strip"]
    if strip not in STRIP_GPIOS:
        raise ConfigError("pi.strip is GPIO%d, which cannot drive the LED strip: the Pi drives one only from %s"
                          % (strip, gpio_words(STRIP_GPIOS)))
    seen = {strip: "pi.strip"}
    for group in ("encoder", "buttons"):
        for k, g in pins[group].items():
            name = "pi.%s.%s" % (group, k)
            if g in seen:
                raise ConfigError("%s and %s both use GPIO%d" % (seen[g], name, g))
            seen[g] = name
    return pins


class Libraries:
    """The CircuitPython modules the HAL uses: Blinka's (libraries()), or a
    test's stand-ins."""

    def __init__(self, board, digitalio, neopixel, IncrementalEncoder):
        self.board = board
        self.digitalio = digitalio
        self.neopixel = neopixel
        self.IncrementalEncoder = IncrementalEncoder


def _said(exc):
    return " ".join(str(exc).split()) or type(exc).__name__


def libraries():
    """Blinka's board, digitalio, neopixel and IncrementalEncoder; PiError
    when they are not installed or Blinka finds no board it can drive."""
    try:
        import board  # pyright: ignore[reportMissingImports]  CPython + Blinka only
        import digitalio  # pyright: ignore[reportMissingImports]  CPython + Blinka only
        import neopixel  # pyright: ignore[reportMissingImports]  adafruit-circuitpython-neopixel
    except ImportError as exc:
        raise PiError("the Raspberry Pi libraries are not installed (%s): pip install 'osada[pi]'" % _said(exc))
    except NotImplementedError as exc:
        raise PiError("Blinka finds no board here whose pins it can drive (%s): osada device runs on a "
                      "Raspberry Pi" % _said(exc).split(". ")[0])
    except (RuntimeError, OSError) as exc:
        raise PiError("Blinka cannot drive this computer's pins: %s" % _said(exc))
    try:
        from rotaryio import IncrementalEncoder  # pyright: ignore[reportMissingImports]  CircuitPython's name
    except ImportError:
        # Blinka 10's wheel ships no top-level rotaryio: its Linux one (a thread
        # polling the two pins, what it picks on a Pi Zero 2 W to Pi 4) by its full name
        from adafruit_blinka.microcontroller.generic_linux.rotaryio import (  # pyright: ignore[reportMissingImports]
            IncrementalEncoder,
        )
    return Libraries(board, digitalio, neopixel, IncrementalEncoder)


def board_pin(board, gpio, where):
    """Blinka's pin object for BCM GPIO `gpio` (board.D<n>)."""
    pin = getattr(board, "D%d" % gpio, None)
    if pin is None:
        raise PiError("this board has no GPIO%d (%s): is it a Raspberry Pi?" % (gpio, where))
    return pin


class BlinkaLeds:
    """The strip through adafruit-circuitpython-neopixel.  write(buf) takes
    the Frame's bytes (wire order, brightness and gamma applied) and hands
    the library the same bytes, with one show()."""

    def __init__(self, neopixel, pin, count, order):
        self.count = count
        self.order = order
        self.offsets = (order.index("R"), order.index("G"), order.index("B"))
        self.np = neopixel.NeoPixel(pin, count, bpp=3, brightness=1.0, auto_write=False, pixel_order=order)

    def write(self, buf):
        r, g, b = self.offsets
        # (r, g, b) per LED: the library puts each back in `order`, the frame's own
        self.np[0:self.count] = [(buf[i + r], buf[i + g], buf[i + b]) for i in range(0, 3 * self.count, 3)]
        self.np.show()


class DigitalPin:
    """A digitalio input with its pull-up on, read as the Pico reads a
    machine.Pin: value() is 0 while its button holds it to GND."""

    def __init__(self, digitalio, pin):
        self.io = digitalio.DigitalInOut(pin)
        self.io.switch_to_input(pull=digitalio.Pull.UP)

    def value(self):
        return 1 if self.io.value else 0


class Encoder:
    """rotaryio's IncrementalEncoder (4 quarter steps a detent, the Pico's
    too) as hal.Inputs takes it: take() -> whole detents since the last call."""

    def __init__(self, incremental):
        self.enc = incremental
        self.last = incremental.position

    def take(self):
        pos = self.enc.position
        steps = pos - self.last
        self.last = pos
        return steps


class BlinkaHardware:
    """The app's hardware on a Pi.  cfg: a validated config, its "pi"
    section (if any) beside the rest; serial: the link to the host (an
    FdSerial on the pty's master); lib: Libraries (default: Blinka's).
    Raises ConfigError for a wrong pin, PiError when the strip cannot be
    driven (the first, dark frame is written here: a strip that needs root
    says so at start, not at the first game)."""

    def __init__(self, cfg, led_count, state_dir, serial, lib=None, clock=None):
        pins = pi_pins(cfg.get("pi"))
        lib = lib if lib is not None else libraries()
        board = lib.board
        strip = pins["strip"]
        try:
            self.leds = BlinkaLeds(lib.neopixel, board_pin(board, strip, "pi.strip"), led_count, cfg["leds"]["order"])
            self.leds.write(bytes(3 * led_count))
        except (RuntimeError, OSError, ValueError) as exc:
            raise PiError("cannot drive the LED strip on GPIO%d: %s" % (strip, _said(exc)))
        self.clock = clock if clock is not None else RealClock()
        enc = pins["encoder"]
        but = pins["buttons"]
        dio = lib.digitalio
        self.inputs = Inputs(
            Encoder(lib.IncrementalEncoder(board_pin(board, enc["a"], "pi.encoder.a"),
                                           board_pin(board, enc["b"], "pi.encoder.b"))),
            (Inputs.Button("action", DigitalPin(dio, board_pin(board, but["action"], "pi.buttons.action"))),
             Inputs.Button("back", DigitalPin(dio, board_pin(board, but["back"], "pi.buttons.back"))),
             Inputs.Button("encoder", DigitalPin(dio, board_pin(board, enc["switch"], "pi.encoder.switch")))),
            self.clock.diff)
        self.pins = pins
        self.serial = serial
        self.state_dir = state_dir
        self.watchdog = None          # systemd restarts a device that dies (hardware/pi/osada-device.service)
        self.buzzer = None            # the audio PWM is off: GPIO18's PWM drives the strip
        self.released = False

    def open_journal(self):
        """None: the app keeps the file journal (store/journal.py) in state_dir."""
        return None

    def free_roll_seed(self):
        return int.from_bytes(os.urandom(4), "little") >> 2     # below 2**30, as the HAL promises

    def console_release(self):
        """{"cmd": "repl"}: there is no REPL on a Pi; the app's run() returns
        and `osada device` ends (systemd starts it again)."""
        self.released = True
