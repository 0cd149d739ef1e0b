"""Osada firmware: the app that runs on the Pico (and, with fake hardware, in the simulator)."""

TICKS_MASK = 0x3FFFFFFF     # time.ticks_ms() wraps at 2**30: its period, minus one (a small int)
TICKS_HALF = 0x20000000


def elapsed(now_ms, start_ms):
    """time.ticks_diff(now_ms, start_ms) for ticks_ms values (period 2**30),
    on any runtime."""
    d = (now_ms - start_ms) & TICKS_MASK
    if d >= TICKS_HALF:
        d = d - TICKS_HALF - TICKS_HALF
    return d


def forget(name):
    """Drop module `name` ("osada_fw.x") from sys.modules and from its
    package, so the heap its code and tables hold is freed (once nothing
    else refers to them) for a module only the boot, or a rare job, needs;
    a later import loads it again.  MicroPython only: CPython's memory is
    not short, and a module imported again is compiled again there."""
    import sys
    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot])
    if parent is not None and hasattr(parent, name[dot + 1:]):
        delattr(parent, name[dot + 1:])


def collect():
    """Collect the garbage now on MicroPython, whose collector otherwise
    waits until the heap is full: after a rare job (building a game), what
    it left goes before the next allocations land on top of it.  Nothing on
    CPython, whose collector needs no help."""
    import gc
    if hasattr(gc, "mem_alloc"):
        gc.collect()
