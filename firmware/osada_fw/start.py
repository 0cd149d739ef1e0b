# What main.py starts once the app's code is found: the config, the
# hardware, the keys held at boot, the app.  Here rather than in main.py,
# which the board compiles into RAM at every boot and keeps there for the
# whole game.


def run(no_app):
    """no_app(exc): main.py's word for a board without the app's code."""
    try:
        from osada_fw import forget
        from osada_fw.app import App
        from osada_fw.config import led_count, load
        from osada_fw.hal.pico import PicoHardware
    except ImportError as exc:
        no_app(exc)
        return
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
    del cfg                            # read: its dicts leave the heap (this frame lasts the whole game)
    app.boot()
    if hw.inputs.held("action"):
        # ACTION held at boot: the LED self-test (hardware/README.md)
        from osada_fw import selftest
        selftest.start(app, hw.clock.ticks_ms())
    app.run(booted=True)
    # {"cmd": "repl"} stopped the app (make flash asks for that first)
    print("osada: app stopped, REPL ready (Ctrl-D restarts the board)")
