# War Chest's round tracker INSIDE MicroPython: the firmware app on the real
# Pico hardware layer over fake machine/neopixel modules (mounted at /fakes).
# Prints one line per check; test_warchest_device_mpy.py reads them, and
# plays SCRIPT on CPython too to compare the protocol's lines.
#
#   modules <phase> <names>   the tracker's modules loaded at each phase (Siege: none)
#   heap <what> <bytes>       what the tracker holds once chosen; what its rules-core
#                             piece (shared_rules.warchest.units) holds alone
#   alloc <view> <bytes>      heap allocated by 60 frames of the ring, after a warm-up
#   msg <json>                the replies and events of a script of requests
#   siege <seq> <same>        Siege's game after the tracker and back

import gc
import json
import sys

MINE = ("osada_fw.warchest", "shared_rules.warchest")     # the tracker's, and the rules core's it leaves out


def loaded(phase):
    names = sorted(n for n in sys.modules if n.startswith(MINE) or n == "osada_fw.gamemenu")
    print("modules", phase, ",".join(names) or "-")


def used():
    gc.collect()
    return gc.mem_alloc()


def frames(app, wc, t0):
    """60 frames, 33 ms apart, from t0: the allocation they make."""
    f = app.frame
    for k in range(5):                 # warm-up
        wc.draw(t0 + 33 * k, f)
    m0 = used()
    for k in range(60):
        wc.draw(t0 + 33 * k, f)
    return gc.mem_alloc() - m0


SCRIPT = (
    {"do": "new", "holder": 2}, {"do": "action"}, {"do": "claim"}, {"do": "action"}, {"do": "claim"},
    {"do": "set", "player": 1, "markers": 3}, {"do": "set", "holder": 1}, {"do": "action"}, {"do": "action"},
    {"do": "action"}, {"do": "action"}, {"do": "undo"}, {"do": "set", "player": 2, "hand": 0},
    {"do": "set", "player": 1, "markers": 0}, {"do": "action"}, {"do": "set", "player": 1, "markers": 2},
    {"do": "set", "player": 1, "markers": 9}, {"do": "dance"},
)


def main():
    sys.path.insert(0, "/fakes")
    from memserial import Serial, send

    from osada_fw.app import App
    from osada_fw.config import led_count, validate
    from osada_fw.hal.pico import PicoHardware
    cfg = validate({"state_dir": "/state"})
    serial = Serial()
    app = App(PicoHardware(cfg, led_count(cfg), serial=serial), cfg)
    app.boot()
    loaded("boot")
    send(app, serial, {"id": 1, "cmd": "new", "players": 2, "seed": 5})
    send(app, serial, {"id": 2, "cmd": "act", "action": {"do": "patrol"}})
    loaded("siege")
    siege = json.dumps(app.siege.game.state())
    m0 = used()
    send(app, serial, {"id": 3, "cmd": "game", "game": "warchest"})
    print("heap tracker", used() - m0)
    loaded("warchest")
    wc = app.mode
    n = 10
    for fields in SCRIPT:
        req = {"cmd": "warchest", "id": n}
        req.update(fields)
        n += 1
        for m in send(app, serial, req):
            print("msg", json.dumps(m))
    now = app.hw.clock.ticks_ms()
    send(app, serial, {"id": 50, "cmd": "warchest", "do": "set", "player": 1, "markers": 3})
    print("alloc counts", frames(app, wc, now))
    send(app, serial, {"id": 51, "cmd": "warchest", "do": "new"})       # flipped: the flip's show
    print("alloc flip", frames(app, wc, wc.flip_at))
    wc.flip_at = -1
    send(app, serial, {"id": 52, "cmd": "warchest", "do": "action"})
    send(app, serial, {"id": 53, "cmd": "warchest", "do": "claim"})      # the initiative blinks
    app.input(("press", "encoder"), app.hw.clock.ticks_ms())             # the cursor shows
    app.input(("press", "back"), app.hw.clock.ticks_ms())                # refused (W16): the flash
    print("alloc cursor", frames(app, wc, app.hw.clock.ticks_ms()))
    send(app, serial, {"id": 54, "cmd": "warchest", "do": "set", "player": 2, "markers": 0})
    print("alloc won", frames(app, wc, app.hw.clock.ticks_ms()))
    gc.collect()
    m0 = gc.mem_alloc()
    [wc.draw(now, app.frame)]
    print("probe", gc.mem_alloc() - m0 > 0)       # the probe does see an allocation
    send(app, serial, {"id": 4, "cmd": "game", "game": "siege"})
    gc.collect()
    loaded("back")
    print("siege", len(app.siege.game.log), json.dumps(app.siege.game.state()) == siege)
    m0 = used()
    import shared_rules.warchest.units  # noqa: F401
    print("heap units", used() - m0)


if __name__ == "__main__":
    main()
