# Osada firmware entry point on the Pico, in the root of the official
# MicroPython image's filesystem (make flash copies it; make uf2's one file
# holds it).  Hold BACK while plugging the board in to skip the app and keep
# the REPL, or send {"cmd": "repl"} over the serial line; hold ACTION for the
# LED self-test (firmware/README.md, hardware/README.md).  It stays this
# small because the board compiles it into RAM and keeps it for the whole
# game: the start itself is osada_fw/start.py.


def no_app(exc):
    """The app's code is not on the board's filesystem: say so on the
    serial line and, when the ring's pin is known, on the ring (every LED
    dim red), and leave the REPL."""
    print("osada: the app is not installed on this board (%s): run make flash, or copy "
          "build/osada-pico.uf2 to the board in BOOTSEL mode. REPL kept." % (exc,))
    try:
        import json

        import machine
        import neopixel
        with open("/config.json") as f:
            leds = json.load(f)["leds"]
        # 24: the ring, osada_fw.layouts.SECTOR_LEDS, which this cannot import (the app is not
        # there); tests/test_one_home.py holds the two equal.  A city's LEDs stay dark.
        ring = neopixel.NeoPixel(machine.Pin(leds["pin"]), 24)
        ring.fill((24, 0, 0))
        ring.write()
    except Exception:            # no config, or no ring: the serial message stands alone
        pass


try:
    from osada_fw.start import run
except ImportError as exc:
    no_app(exc)
else:
    run(no_app)     # osada_fw/start.py: the config, the hardware, the app
