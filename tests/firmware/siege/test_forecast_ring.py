"""F13: the threat forecast on the ring.  The host sends one `forecast` line
(osada/siege/ring_forecast.py makes it); the device only draws it
(osada_fw/siege/forecast_ring.py), for 3 s, and only at the state it is
stamped with: a stale one is refused, and one shown ends when the game moves on."""

from fractions import Fraction as Fr

from osada.siege import ring_forecast
from osada_fw.layouts import NPARTS
from tests.support.device import Dev


def leds(dev):
    return [tuple(c) for c in dev.app.frame.rgb_list()]


def lit(dev, sector):
    """The sector's four line LEDs (rear, air, artillery, tank) as drawn: their colours."""
    inv = dev.app.layout.inv
    rgb = dev.app.frame.rgb_list()
    return [tuple(rgb[inv[(sector - 1) * NPARTS + k]]) for k in range(4)]


def codes(dev, s, lost=0):
    g = dev.app.siege.game
    return {"stamp": [g.turn, len(g.log)], "s": s, "l": lost}


def test_f13_sector_codes_from_the_values():
    code = ring_forecast.sector_code
    assert code(Fr(0), Fr(0)) == 0                               # nothing at risk: no LED
    assert code(Fr(0), None) == 0
    assert code(Fr(0), Fr(1, 3)) == 32                           # the wall alone: its tank LED amber
    assert code(Fr(1, 1000000), Fr(1, 2)) == 1                   # above 0: one LED, green
    assert code(Fr(1, 10), None) == 1 | 1 << 3                   # 10%: amber
    assert code(Fr(1, 4), None) == 1 | 1 << 3                    # ⌈4·¼⌉ = 1
    assert code(Fr(251, 1000), None) == 2 | 1 << 3
    assert code(Fr(1, 2), None) == 2 | 2 << 3                    # 50%: red
    assert code(Fr(999, 1000), None) == 4 | 2 << 3
    assert code(Fr(1), None) == 4 | 3 << 3                       # certain


def test_f13_the_ring_shows_the_bars_for_3_s_then_the_board(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    dev.tick(5)
    board = leds(dev)
    s = [0, 1, 1 | 1 << 3, 2 | 2 << 3, 4 | 3 << 3 | 64, 32]
    reply, _ = dev.ok("forecast", **codes(dev, s))
    assert reply["shown_ms"] == 3000
    dev.tick(2)
    assert lit(dev, 1) == [(0, 0, 0)] * 4
    g, a, r, w = lit(dev, 2)[3], lit(dev, 3)[3], lit(dev, 4), lit(dev, 5)
    assert lit(dev, 2)[:3] == [(0, 0, 0)] * 3 and g[1] > 0 and g[0] == 0          # one LED from the city, green
    assert a[0] > 0 and a[1] > 0 and a[2] == 0                                     # amber
    assert r[:2] == [(0, 0, 0)] * 2 and r[2] == r[3] and r[3][0] > 0 and r[3][1] == 0   # two, red
    assert all(c[0] > 0 and c[2] > 0 for c in w)                                   # four, white-red
    assert lit(dev, 6)[3][0] > 0 and lit(dev, 6)[3][1] > 0                         # the wall alone: amber
    dev.tick(60, ms=10)                                       # 0.6 s in: the largest (sector 5) is dark
    assert lit(dev, 5) == [(0, 0, 0)] * 4 and lit(dev, 4)[3] == r[3]
    dev.tick(250, ms=10)                                      # 3.1 s: the board again
    assert leds(dev) == board


def test_f13_lost_flashes_red_once_a_second_and_solid_when_certain(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    dev.ok("forecast", **codes(dev, [1] * 6, lost=1))
    dev.tick(2)
    assert set(leds(dev)) >= {lit(dev, 1)[0]} and lit(dev, 1)[0][0] > 0 and lit(dev, 1)[0][1] == 0  # red flash
    dev.tick(40, ms=10)                                       # 0.4 s: the bars
    assert lit(dev, 1)[0] == (0, 0, 0) and lit(dev, 1)[3][1] > 0
    dev.ok("forecast", **codes(dev, [1] * 6, lost=2))
    dev.tick(40, ms=10)
    assert all(c[0] > 0 and c[1] == 0 and c[2] == 0 for c in lit(dev, 1))


def test_f13_a_forecast_for_another_state_is_never_shown(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=21)
    dev.tick(5)
    board = leds(dev)
    g = dev.app.siege.game
    reply, _ = dev.request("forecast", stamp=[g.turn, len(g.log) + 1], s=[4] * 6, l=0)
    assert reply["ok"] is False and "stale" in reply["error"]
    dev.tick(3)
    assert leds(dev) == board                                 # refused: nothing drawn
    for bad in ({"stamp": [1, 0], "s": [4] * 5}, {"stamp": [1, 0], "s": [4] * 5 + [200]}, {"stamp": "now"},
                {"stamp": [1, 0], "s": [4] * 6, "l": 7}, {"stamp": [1, 0], "s": [True] * 6}):
        reply, _ = dev.request("forecast", **bad)
        assert reply["ok"] is False and reply["error"].startswith("forecast:"), (bad, reply)
    dev.ok("forecast", **codes(dev, [4] * 6))
    dev.tick(3)
    green = lit(dev, 1)[0]
    assert all(lit(dev, s) == [green] * 4 for s in range(1, 7))          # every bar full, green
    e = max(g.enemies, key=lambda x: x.armor)
    dev.ok("act", action={"do": "hit", "enemy": e.id})        # the game moves on: the forecast goes at once
    dev.tick(3)
    assert not all(lit(dev, s) == [green] * 4 for s in range(1, 7))
    assert lit(dev, e.sector)[e.line] != green                # the enemy hit is drawn, not a bar
    assert not any(type(a).__name__ == "Show" for a in dev.app.siege.anims)


def test_f13_the_host_request_for_a_live_answer(tmp_path):
    """ring_forecast.request: the stamp, the codes (the upper end of an interval), the largest pulsing, L."""
    from osada.siege.forecast.result import Forecast

    values = {("B", 1): (Fr(1, 2), Fr(1, 4)), ("W", 1): (Fr(1), Fr(1)), ("B", 2): (Fr(1, 20), Fr(0)),
              ("W", 3): (Fr(1, 3), Fr(0)), "L": (Fr(1, 50), Fr(0)), "E": (Fr(11, 20), Fr(1, 4))}

    class Res:
        forecast = Forecast(list(values), values, True, 0.1, 5)
        turn, actions = 3, 17
    cmd, f = ring_forecast.request(Res)
    assert cmd == "forecast" and f["stamp"] == [3, 17]
    assert f["s"] == [2 | 2 << 3 | 64, 1, 32, 0, 0, 0] and f["l"] == 1
    assert f["b"] == [500, 50, None, None, None, None] and f["w"][0] == 1000 and f["w"][2] == 334
    bounds = {t: ((lo, hi), (lo, hi)) for t, (hi, lo) in values.items()}
    Res.forecast = Forecast(list(values), bounds, False, 0.1, 5)
    cmd, f = ring_forecast.request(Res)
    assert f["s"][0] == 2 | 2 << 3 | 64                       # an interval: its upper end
