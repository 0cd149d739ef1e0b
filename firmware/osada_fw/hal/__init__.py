# The one thin layer between the app and the hardware.
#
# Everything the app touches in the outside world goes through a Hardware
# object with these members; hal/pico.py implements them on the Pico
# (MicroPython), hal/blinka.py on a Raspberry Pi (CPython, Adafruit's
# Blinka), hal/fake.py on CPython (tests and the simulator).  The app above
# is the same code in all three.
#
#   hw.leds.write(buf)        show a frame: bytes in the strip's wire order
#   hw.inputs.poll(now_ms)    -> list of input events (may be empty), each a
#                             tuple (what, value): ("turn", +1/-1),
#                             ("press", "action"|"back"|"encoder"),
#                             ("long", "action"|"back"|"encoder"); the
#                             Pico's refills one list: read it before the next poll
#   hw.inputs.held(name)      -> True while a button is held (boot-time checks)
#   hw.serial.read()          -> bytes (or a bytearray) waiting on the USB
#                             serial, b"" if none; never blocks
#   hw.serial.wait(ms)        sleep until bytes come in, at most ms (the app's
#                             idle between ticks: a request is taken at once)
#   hw.serial.write(data)     -> how many bytes were taken; never blocks (may
#                             take fewer, or none, when the host is not reading)
#   hw.clock.ticks_ms()       -> milliseconds, wrapping as time.ticks_ms does
#   hw.clock.diff(a, b)       -> a - b, wrap-aware
#   hw.state_dir              directory for the game journal (flash)
#   hw.watchdog               None, or an object with feed()
#   hw.buzzer                 None, or an object with tone(freq_hz, ms)
#   hw.free_roll_seed()       an integer seed from a hardware entropy source,
#                             0 <= seed < 2**30 (a small int on the Pico)
#   hw.console_release()      give the serial line back to the REPL (exit)

EVENT_TURN = "turn"
EVENT_PRESS = "press"
EVENT_LONG = "long"
LONG_PRESS_MS = 700


# What the Pico's and the Pi's inputs share: the buttons' debounce and long
# press, and the poll that turns the encoder's detents and the buttons into
# events.  Each HAL brings its own pins, its own encoder and its clock's
# wrap-aware diff (time.ticks_diff on the Pico).

class Inputs:
    """hw.inputs over an encoder (take() -> the whole detents turned since
    the last call, signed) and buttons (Inputs.Button); diff(a, b): a - b
    in the clock's ticks.  Button is nested, not a global of this module:
    on the Pico one global more here costs heap (its dict grows)."""

    DEBOUNCE_MS = 20

    class Button:
        """A push button between its pin and GND, read active low: `pin.value()`
        is 0 while it is pressed (a machine.Pin with its pull-up on the Pico,
        hal/blinka.py's digitalio pin on a Pi).  A press is sent on release, a
        long press once it has been held LONG_PRESS_MS (and then no press)."""

        def __init__(self, name, pin):
            self.name = name
            self.pin = pin
            self.down = False
            self.since = 0
            self.long_sent = False
            self.raw = False
            self.raw_since = 0

        def poll(self, now, out, diff):
            raw = self.pin.value() == 0               # active low
            if raw != self.raw:
                self.raw = raw
                self.raw_since = now
                return
            if diff(now, self.raw_since) < Inputs.DEBOUNCE_MS or raw == self.down:
                if self.down and not self.long_sent and diff(now, self.since) >= LONG_PRESS_MS:
                    self.long_sent = True
                    out.append((EVENT_LONG, self.name))
                return
            self.down = raw
            if raw:
                self.since = now
                self.long_sent = False
            elif not self.long_sent:
                out.append((EVENT_PRESS, self.name))

    def __init__(self, encoder, buttons, diff):
        self.encoder = encoder
        self.buttons = buttons
        self.diff = diff
        self.out = []

    def poll(self, now_ms):
        out = self.out                 # one list, refilled each tick (read at once by the app)
        out.clear()
        steps = self.encoder.take()
        while steps > 0:
            out.append((EVENT_TURN, 1))
            steps -= 1
        while steps < 0:
            out.append((EVENT_TURN, -1))
            steps += 1
        diff = self.diff
        for b in self.buttons:
            b.poll(now_ms, out, diff)
        return out

    def held(self, name):
        for b in self.buttons:
            if b.name == name:
                return b.pin.value() == 0
        return False
