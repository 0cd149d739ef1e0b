# Osada firmware entry point on the Pico (copied to the board's root).
# Hold BACK while plugging the board in to skip the app and keep the REPL,
# or send {"cmd": "repl"} over the serial line; hold ACTION for the LED
# self-test (firmware/README.md, hardware/README.md).

import asyncio

from osada_fw.app import App
from osada_fw.config import led_count, load
from osada_fw.hal.pico import PicoHardware


def main():
    cfg = load("/config.json")
    hw = PicoHardware(cfg, led_count(cfg))
    if hw.inputs.held("back"):
        import micropython
        micropython.kbd_intr(3)
        print("osada: BACK held at boot: app not started, REPL kept")
        return
    app = App(hw, cfg)
    app.boot()
    if hw.inputs.held("action"):
        # ACTION held at boot: the LED self-test (hardware/README.md)
        app.start_selftest(hw.clock.ticks_ms())
    asyncio.run(app.run(booted=True))
    # {"cmd": "repl"} stopped the app (make flash asks for that first)
    print("osada: app stopped, REPL ready (Ctrl-D restarts the board)")


main()
