"""The LED self-test: each LED lit in turn, named on the serial line, so a
builder can check the layout against the board."""

import json

import pytest

from osada_fw import selftest
from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.fake import FakeHardware, ManualClock
from osada_fw.layouts import Layout
from osada_fw.selftest import SELFTEST_MS


def boot(tmp_path, layout, city):
    cfg = validate({"state_dir": str(tmp_path), "leds": {"layout": layout, "city": city}})
    clock = ManualClock()
    hw = FakeHardware(led_count(cfg), str(tmp_path), clock=clock, seed=2)
    app = App(hw, cfg)
    app.boot()
    app.tick()
    hw.serial.host_take()
    return app, hw, clock


def events(hw):
    return [json.loads(ln) for ln in hw.serial.host_take().decode().splitlines()]


@pytest.mark.parametrize("layout,city", [("spokes", False), ("rings", True), ("ring24", False)])
def test_selftest_lights_and_names_every_led_in_order(tmp_path, layout, city):
    app, hw, clock = boot(tmp_path, layout, city)
    lay = Layout(layout, city)
    hw.serial.host_send(b'{"id": 1, "cmd": "selftest"}\n')
    clock.advance(40)
    app.tick()
    clock.advance(4)               # a frame follows an answered request one idle wait later (app.py)
    app.tick()
    seen = []
    lit = []
    for _ in range(lay.count * SELFTEST_MS // 40 + 40):
        for m in events(hw):
            if m.get("ev") == "selftest":
                seen.append(m)
        frame = hw.leds.frame
        on = [i for i in range(lay.count) if any(frame[3 * i:3 * i + 3])]
        if app.selftest_led is not None:
            assert on == [app.selftest_led]          # exactly the LED being named
            lit.append(on[0])
        clock.advance(40)
        app.tick()
    named = [m for m in seen if "led" in m]
    assert [m["led"] for m in named] == list(range(lay.count))
    for m in named:
        sector, part = lay.cell_of(m["led"])
        assert m["sector"] == sector
        assert m["line"] == (part if isinstance(part, str) else ("rear", "air", "artillery", "tank")[part])
    assert seen[-1] == {"ev": "selftest", "done": True, "leds": lay.count}
    assert sorted(set(lit)) == list(range(lay.count))
    assert app.selftest_led is None                  # back to the game


def test_a_button_press_ends_the_selftest(tmp_path):
    app, hw, clock = boot(tmp_path, "spokes", False)
    selftest.start(app, clock.ticks_ms())
    clock.advance(40)
    app.tick()
    assert app.selftest_led == 0
    before = app.siege.game.state_json(events=[])
    hw.inputs.press("back")             # BACK would end the turn's phase 4 in a game
    clock.advance(40)
    app.tick()
    assert app.selftest_led is None
    assert app.siege.game.state_json(events=[]) == before     # the press did not act on the game
    assert len(app.siege.game.log) == 0
