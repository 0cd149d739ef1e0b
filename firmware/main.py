# Osada firmware entry point on the Pico.  make flash copies it to the
# board's root; Osada's own MicroPython image (firmware/micropython/) has it
# frozen in, and runs that copy first, so the game starts even on a wiped
# filesystem.  Hold BACK while plugging the board in to skip the app and keep
# the REPL, or send {"cmd": "repl"} over the serial line; hold ACTION for the
# LED self-test (firmware/README.md, hardware/README.md).


def no_app(exc):
    """The app's code is not on the board (no ROMFS image, nothing on the
    filesystem): say so on the serial line and, when the ring's pin is known,
    on the ring (every LED dim red), and leave the REPL."""
    print("osada: the app is not installed on this board (%s): run make flash, or copy "
          "build/osada-pico.uf2 to the board in BOOTSEL mode. REPL kept." % (exc,))
    try:
        import json

        import machine
        import neopixel
        with open("/config.json") as f:
            leds = json.load(f)["leds"]
        ring = neopixel.NeoPixel(machine.Pin(leds["pin"]), 24)      # the ring; a city's LEDs stay dark
        ring.fill((24, 0, 0))
        ring.write()
    except Exception:            # no config, or no ring: the serial message stands alone
        pass


def main():
    try:
        from osada_fw import forget
        from osada_fw.app import App
        from osada_fw.config import led_count, load
        from osada_fw.hal.pico import PicoHardware
    except ImportError as exc:
        no_app(exc)
        return
    # set by Osada's frozen _boot.py when it had to format the filesystem
    g = globals()
    lost, new = g.get("osada_fs_lost"), g.get("osada_fs_new", False)
    cfg = load("/config.json")
    hw = PicoHardware(cfg, led_count(cfg))
    del load, led_count
    forget("osada_fw.config")          # boot-only: its code and tables leave the heap (~1.4 KB)
    if hw.inputs.held("back"):
        import micropython
        micropython.kbd_intr(3)
        print("osada: BACK held at boot: app not started, REPL kept")
        return
    app = App(hw, cfg)
    app.boot(lost, new)
    if hw.inputs.held("action"):
        # ACTION held at boot: the LED self-test (hardware/README.md)
        app.start_selftest(hw.clock.ticks_ms())
    app.run(booted=True)
    # {"cmd": "repl"} stopped the app (make flash asks for that first)
    print("osada: app stopped, REPL ready (Ctrl-D restarts the board)")


main()
