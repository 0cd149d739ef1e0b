"""Osada firmware: the app that runs on the Pico (and, with fake hardware, in the simulator).

    start.py      the boot: config, hardware, app (main.py calls it)
    app.py        the device loop: requests in, inputs to the running game, frames out
    games.py      the registry of the device's games (ids, menu colours, times, read-only commands)
    gamemenu.py   switching games and the game menu (loaded only for that)
    frame.py      one LED frame: brightness, gamma, channel order, power cap
    layouts.py    which LED shows which cell of the board; config.py: /config.json
    link/         the USB line: framing, outbox, the dispatcher and the device-wide commands
    store/        the game journal on flash and its record format
    siege/        War Thunder: Siege on the device (its game, UI, menus, board, animations, commands)
    tank/         Tank battle's dice mode
    hal/          the one thin layer to the hardware (pico.py on the board, fake.py on CPython)
    memstat.py, selftest.py, tones.py   the heap figures, the LED self-test, the buzzer's tones

Here: tick arithmetic (the one home of ticks_ms's wrap) and module unloading."""

TICKS_MASK = 0x3FFFFFFF     # time.ticks_ms() wraps at 2**30: its period, minus one (a small int)
TICKS_HALF = 0x20000000


def elapsed(now_ms, start_ms):
    """time.ticks_diff(now_ms, start_ms) for ticks_ms values (period 2**30),
    on any runtime."""
    d = (now_ms - start_ms) & TICKS_MASK
    if d >= TICKS_HALF:
        d = d - TICKS_HALF - TICKS_HALF
    return d


def later(now_ms, ms):
    """The ticks_ms value ms after now_ms (time.ticks_add), on any runtime."""
    return (now_ms + ms) & TICKS_MASK


def forget(name, always=False):
    """Drop module `name` ("osada_fw.x") from sys.modules and from its
    package, so the heap its code and tables hold is freed (once nothing
    else refers to them) for a module only the boot, or a rare job, needs;
    a later import loads it again.  MicroPython only, unless `always`
    (a game's package when another game is chosen: the same on both
    runtimes, so the tests see what the board does): CPython's memory is
    not short, and a module imported again there has new classes, which
    an `except` holding the old ones would not catch."""
    import sys
    if not always and sys.implementation.name != "micropython":
        return
    # MicroPython's dict keeps a removed entry's value in its slot (for the
    # caller), where the collector still finds it: None goes there first,
    # or the module would stay in the heap, unreachable but alive.
    if name in sys.modules:
        sys.modules[name] = None
        del sys.modules[name]
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot])
    attr = name[dot + 1:]
    if parent is not None and hasattr(parent, attr):
        try:
            setattr(parent, attr, None)
            delattr(parent, attr)
        except (AttributeError, TypeError):
            pass


def collect():
    """Collect the garbage now on MicroPython, whose collector otherwise
    waits until the heap is full: after a rare job (building a game), what
    it left goes before the next allocations land on top of it.  Nothing on
    CPython, whose collector needs no help."""
    import gc
    if hasattr(gc, "mem_alloc"):
        gc.collect()
