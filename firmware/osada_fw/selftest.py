# The LED self-test: each LED lit white in turn, its cell named on the serial
# line, so a builder can check the layout against the board
# (hardware/README.md).  Loaded only when it runs (the `selftest` command, or
# ACTION held at boot): its code costs the Pico no heap in a game.

from shared_rules.siege.catalog import LINES

SELFTEST_MS = 700           # each LED lit this long

_lit_at = [0]               # when the LED lit now came on (here, not on the App: its heap is counted)


def start(app, now):
    """Start it; returns the `selftest` request's reply."""
    app.selftest_led = -1
    _next(app, now)
    return {"leds": app.layout.count, "ms_per_led": SELFTEST_MS}


def _next(app, now):
    app.selftest_led += 1
    _lit_at[0] = now
    i = app.selftest_led
    if i >= app.layout.count:
        app.selftest_led = None
        app.push({"ev": "selftest", "done": True, "leds": app.layout.count})
        return
    sector, part = app.layout.cell_of(i)
    name = part if isinstance(part, str) else LINES[part]
    app.push({"ev": "selftest", "led": i, "sector": sector, "line": name})


def draw(app, now, r):
    """The self-test's frame into r; False once it has ended."""
    if app.hw.clock.diff(now, _lit_at[0]) >= SELFTEST_MS:
        _next(app, now)
        if app.selftest_led is None:
            return False
    r.clear()
    r.set_pixel(app.selftest_led, 255, 255, 255)
    return True
