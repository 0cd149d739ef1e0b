# The one thin layer between the app and the hardware.
#
# Everything the app touches in the outside world goes through a Hardware
# object with these members; hal/pico.py implements them on the Pico
# (MicroPython), hal/fake.py on CPython (tests and the simulator).  The app
# above is the same code in both.
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
