"""The browser's hardware layer (osada_fw/hal/browser.py, issue 63), on CPython: the page's
lines and buttons in, the app's lines out, and the ring the page draws from the firmware's
own LED frame: the 24 board LEDs in the ring's order (sector 1's rear line first), the
colours the game drew (back through brightness and gamma), only when they changed."""

import json

from osada_fw.hal import browser


def _boot(tmp_path):
    out = browser.start(5, "{}", str(tmp_path / "state"))
    assert json.loads(out.splitlines()[0])["ev"] == "boot"
    browser.step("")
    return browser._dev[0]


def test_the_ring_is_the_frames_board_leds_in_ring_order_and_only_when_changed(tmp_path):
    app = _boot(tmp_path)
    browser.ring()
    assert browser.ring() == ""                                  # nothing changed since
    f = app.frame
    f.clear()
    want = []
    for p in range(24):                                          # a colour of its own for each ring place
        sector, line = p // 4 + 1, p % 4
        colour = (255 if line == 0 else 0, 40 * sector, 255 if line == 3 else 0)
        f.set_pixel(f.layout.inv[(sector - 1) * 6 + line], *colour)
        want.append("#%02x%02x%02x" % colour)
    app.hw.leds.write(f.buf)
    got = browser.ring().split(",")
    assert len(got) == 24
    for g, w in zip(got, want):                                  # gamma and brightness undone to within a step
        for a, b in zip(bytes.fromhex(g[1:]), bytes.fromhex(w[1:])):
            assert abs(a - b) <= 40 and (a == 0) == (b == 0), (got, want)
    assert got[0] != got[4] and got[3] != got[0]                 # each place its own colour, in order
    assert browser.ring() == ""
    assert browser.ring(always=True).split(",") == got           # (the page that starts drawing it: at once)


def test_the_pages_buttons_reach_the_running_game(tmp_path):
    app = _boot(tmp_path)
    out = browser.step(json.dumps({"cmd": "game", "game": "tank", "id": 1}) + "\n")
    assert any(json.loads(line).get("id") == 1 and json.loads(line)["ok"] for line in out.splitlines())
    assert app.mode.id == "tank"
    seen = []
    app.mode.handle = lambda ev, now: seen.append(ev)            # what the game is handed
    browser.step("", "+1,-1,action,!back,encoder")
    assert seen == [("turn", 1), ("turn", -1), ("press", "action"), ("long", "back"), ("press", "encoder")]
