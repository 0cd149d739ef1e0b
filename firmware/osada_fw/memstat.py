# The `mem` command (make bench's heap and frame figures on a board), loaded
# only when it is asked for, so a board that never measures carries none of
# it.  MicroPython only (gc.mem_alloc, time.ticks_us).

import gc
import time

from osada_fw.link.protocol import CommandError

_live = [0]                            # the live high-water mark (see sample)


def sample(app):
    """After the requests of a tick (while `mem` tracks): the heap in use
    then (live data + what those requests allocated, as a collection ran
    after the last sample) raises the high-water mark; then collect, and
    what is left (the live data between requests) raises the live mark.
    The heap the app needs lies between the two."""
    m = gc.mem_alloc()                 # pyright: ignore[reportAttributeAccessIssue]  MicroPython only
    if m > app.heap_peak:
        app.heap_peak = m
    gc.collect()
    m = gc.mem_alloc()                 # pyright: ignore[reportAttributeAccessIssue]
    if m > _live[0]:
        _live[0] = m


def mem(app, req):
    """`alloc`, `free` (the heap now), `peak` (the high-water mark since
    {"cmd": "mem", "track": true} started tracking, or -1; "track": false
    stops it), `live` (the live data's high-water mark between requests,
    or -1), and `frame_us`: one frame (render + LED write) drawn now and
    timed."""
    if not hasattr(gc, "mem_alloc"):
        raise CommandError("mem needs MicroPython (gc.mem_alloc)")
    us = time.ticks_us                 # pyright: ignore[reportAttributeAccessIssue]  MicroPython (checked above)
    t0 = us()
    app.draw(app.hw.clock.ticks_ms(), force=True)
    frame = time.ticks_diff(us(), t0)  # pyright: ignore[reportAttributeAccessIssue]
    peak = app.heap_peak
    live = _live[0] if peak >= 0 else -1
    track = req.get("track")
    if track:
        gc.collect()
        app.heap_peak = _live[0] = gc.mem_alloc()  # pyright: ignore[reportAttributeAccessIssue]
    elif track is False:               # stop: no collection after each request any more
        app.heap_peak = -1
        _live[0] = 0
    return {"alloc": gc.mem_alloc(), "free": gc.mem_free(), "peak": peak,  # pyright: ignore[reportAttributeAccessIssue]
            "live": live, "frame_us": frame}
