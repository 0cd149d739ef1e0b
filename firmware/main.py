# Osada firmware entry point on the Pico (copied to the board's root).
# Hold BACK while plugging the board in to skip the app and keep the REPL;
# or send {"cmd": "repl"} over the serial line (firmware/README.md).

import asyncio

from osada_fw.config import load, led_count
from osada_fw.hal.pico import PicoHardware
from osada_fw.app import App


def main():
    cfg = load("/config.json")
    hw = PicoHardware(cfg, led_count(cfg))
    if hw.inputs.held("back"):
        import micropython
        micropython.kbd_intr(3)
        print("osada: BACK held at boot: app not started, REPL kept")
        return
    asyncio.run(App(hw, cfg).run())


main()
