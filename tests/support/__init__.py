"""The test harness: what the tests and the benchmarks (python -m tests.bench)
share, and the installed package does not ship.

    pico_emu    the real firmware on an emulated Pico (rp2040js, Node.js)
    fw_extras   firmware helpers only the tests call (a renderer from a
                config, a frame with animations, a journal read back)
    app_link    a Link transport straight into the firmware app on fake
                hardware
    device      Dev: a firmware app on fake hardware driven as its host
                and its player would (the firmware tests' driver)
    monitor_fakes  a stand-in for the monitor's serial session
    both_runtimes  a tests/mpy script run on CPython and in MicroPython, lines compared

Imported as tests.support.X: `make test` (pytest) and `python -m tests.bench`
both run from the repository root, which pyproject's pytest `pythonpath`
puts on sys.path."""
