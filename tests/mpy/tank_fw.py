# «Кубики» INSIDE MicroPython: the firmware app on the real Pico hardware
# layer over fake machine/neopixel modules (mounted at /fakes).  Prints one
# line per check; tests/firmware/test_tank_device_mpy.py reads them.
#
#   modules <phase> <names>     the game modules loaded at each phase (Siege
#                               must load none of the tank mode's, nor keep
#                               what built its game or, but in a marshal
#                               game, the marshal's rules)
#   alloc <test> <bytes>        heap allocated by one roll (Tank.roll), after a warm-up
#   roll <json>                 the events of a few protocol rolls
#   bench <json>                what the `roll` request's bench (osada_fw/tank/bench.py) sends
#   leaky <json>                ... and with a display that allocates
#   siege <seq> <same>          Siege's game after tank and back

import gc
import json
import sys

sys.path.insert(0, "/fakes")

from memserial import Serial, send  # noqa: E402

from osada_fw.app import App  # noqa: E402
from osada_fw.config import led_count, validate  # noqa: E402
from osada_fw.hal.pico import PicoHardware  # noqa: E402

LAZY = ("osada_fw.gamemenu", "shared_rules.siege.newgame", "shared_rules.siege.marshal")


def loaded(phase):
    names = sorted(n for n in sys.modules if "tank" in n or n in LAZY)
    print("modules", phase, ",".join(names) or "-")


def main():
    cfg = validate({"state_dir": "/state"})
    serial = Serial()
    app = App(PicoHardware(cfg, led_count(cfg), serial=serial), cfg)
    app.boot()
    loaded("boot")
    send(app, serial, {"id": 1, "cmd": "new", "players": 2, "seed": 5})
    send(app, serial, {"id": 2, "cmd": "act", "action": {"do": "patrol"}})
    send(app, serial, {"id": 2, "cmd": "act", "action": {"do": "end_turn"}})
    send(app, serial, {"id": 2, "cmd": "undo"})
    loaded("siege")
    siege = json.dumps(app.siege.game.state())
    send(app, serial, {"id": 3, "cmd": "game", "game": "tank"})
    loaded("tank")
    tank = app.mode
    tank.vals[6] = 3                  # collision: 3 units a side (osada_fw.tank.mode.F_NA, F_NB)
    tank.vals[10] = 3
    for t in range(5):
        tank.test = t
        tank.roll()                   # warm-up: first calls may intern names
        gc.collect()
        m0 = gc.mem_alloc()
        tank.roll()
        tank.roll()
        tank.roll()
        print("alloc", t, gc.mem_alloc() - m0)
    gc.collect()
    m0 = gc.mem_alloc()
    [tank.roll()]
    print("probe", gc.mem_alloc() - m0 > 0)       # the probe does see an allocation
    for req in ({"test": "fire", "dice": 12, "hit": 2, "protection": 4},
                {"test": "suppress", "dice": 12, "hit": 2, "ambush": True},
                {"test": "morale", "dice": 2, "steadiness": 7},
                {"test": "counter"}, {"test": "collision", "a": 7, "b": 8},
                {"test": "collision", "a": [7, 7], "b": [8, 5, 7]},
                {"test": "fire", "dice": 13}):
        req["cmd"] = "roll"
        req["id"] = 9
        for m in send(app, serial, req):
            print("roll", json.dumps(m))
    for m in send(app, serial, {"id": 10, "cmd": "roll", "bench": 5}):
        print("bench", json.dumps(m))
    # the same with a display that keeps 8 bytes a frame: the bench must see them
    from osada_fw.tank import view as tank_view
    draw = tank_view.draw
    kept = []

    def leaky(*args):
        draw(*args)
        kept.append(bytearray(8))

    tank_view.draw = leaky
    for m in send(app, serial, {"id": 11, "cmd": "roll", "bench": 5}):
        print("leaky", json.dumps(m))
    tank_view.draw = draw
    send(app, serial, {"id": 4, "cmd": "game", "game": "siege"})
    gc.collect()
    loaded("back")
    print("siege", len(app.siege.game.log), json.dumps(app.siege.game.state()) == siege)
    send(app, serial, {"id": 12, "cmd": "new", "players": 2, "mode": "marshal", "seed": 5})
    loaded("marshal")


main()
