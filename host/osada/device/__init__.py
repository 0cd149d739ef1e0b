"""`osada device`: the app on a Raspberry Pi's own pins (issue 31), through
the Blinka hardware layer (osada_fw/hal/blinka.py), its serial side the
simulator's pty (osada/sim/ptylink.py), so the monitor mirrors it as it
mirrors a Pico.

    config  the config file with its "pi" section (the Pi's pins), checked
    cli     the command: its parser (add_parser) and run()"""
