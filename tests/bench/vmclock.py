# Timing inside the MicroPython VM, shared by the benchmark scripts that run
# there.  time.ticks_us() has only 1 ms resolution in the WebAssembly VM, so
# the clock is JavaScript's performance.now() where it exists.

try:
    import js
    _now = js.performance.now

    def now_us():
        return _now() * 1000.0
except ImportError:                     # another port: ticks_us
    import time

    def now_us():
        return time.ticks_us()


def add1000():
    # the usual "1000 integer additions" loop, loop overhead included
    x = 0
    for i in range(1000):
        x = x + 1
    return x


def calibrate():
    """Median time of add1000() in us, after letting the wasm JIT settle."""
    for _ in range(300):
        add1000()
    ts = []
    for _ in range(301):
        t0 = now_us()
        add1000()
        ts.append(now_us() - t0)
    ts.sort()
    return ts[150]
