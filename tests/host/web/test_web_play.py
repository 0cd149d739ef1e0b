"""Issue 62 item 4, in a real browser (Debian's chromium) over the simulator: the field
marshal plays his turn (phase 7, R60) from his own page, and only from it; a new game with
its options is started from a page with the PIN (over a game in progress, the dialog says so
and its one button replaces it)."""

import asyncio
import concurrent.futures
import json
import os

import pytest

aiohttp = pytest.importorskip("aiohttp")
sync_api = pytest.importorskip("playwright.sync_api")

from osada.words import texts  # noqa: E402
from shared_rules.siege.autoplay import play  # noqa: E402
from tests.support.web_rig import CHROMIUM, NO_BROWSER, PIN, launch, read, sim_and_host, until  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(NO_BROWSER, allow_module_level=True)

MARSHAL_PIN = "737373"
SETUP = {"players": 3, "mode": "marshal", "seed": 31}
PHONE = {"width": 390, "height": 844}
UNMARKED = ("[...document.querySelectorAll('button')].filter(b => b.checkVisibility() && !b.dataset.action)"
            ".map(b => b.textContent)")


@pytest.fixture(scope="module")
def rig():
    with sim_and_host("web-play", marshal_pin=MARSHAL_PIN) as (dev, host):
        pw = sync_api.sync_playwright().start()
        browser = launch(pw)
        try:
            yield dev, host, browser
        finally:
            browser.close()
            pw.stop()


def _unlocked(browser, host, pin):
    page = browser.new_page(viewport=PHONE)
    page.goto(host.url)
    page.wait_for_selector("body:not([data-rev='0'])", state="attached", timeout=5000)
    page.fill("[data-pin]", pin)
    page.click("#pinform button")
    until(lambda: "accepted" in page.inner_text("#reply"), what="the PIN accepted")
    return page


def _to_the_marshals_turn(dev, host):
    """A marshal game played through the host up to his first turn (phase 7, no patrol):
    the play the autoplayer makes there (its end_turn there: he plays nothing)."""
    acts = []
    play(SETUP, 31, keep=lambda g, a, e: acts.append(a), skill=2)
    host.app.call_from_thread(host.app.send, "new", **SETUP)
    until(lambda: dev.state()[1] == 0 and host.app.seq == 0 and "marshal_hand" in dev.state()[0]
          and (host.app.view.setup or {}).get("mode") == "marshal", what="the new game")
    for a in acts:
        st, seq = dev.state()
        if st["phase"] == 7 and not st["pending"] and not st.get("patrol"):
            assert a["do"] in ("marshal_play", "end_turn"), a
            until(lambda: host.app.seq == seq, what="the host's mirror")
            return a if a["do"] == "marshal_play" else {"do": "marshal_play", "tokens": []}
        host.app.call_from_thread(host.app.send, "act", action=a)
        until(lambda: dev.state()[1] == seq + 1, what="the device taking %r" % (a,))
    raise AssertionError("no marshal's turn in the game")


def test_R60_the_field_marshal_plays_from_his_own_page_and_only_there(rig):
    dev, host, browser = rig
    his = _to_the_marshals_turn(dev, host)
    player = _unlocked(browser, host, PIN)
    marshal = _unlocked(browser, host, MARSHAL_PIN)
    marshal.wait_for_selector("#actionbar [data-action='marshal_play']", timeout=10000)
    assert not marshal.evaluate(UNMARKED), "every control carries data-action (issue 62 item 5)"
    hand = dev.state()[0]["marshal_hand"]
    shown = marshal.evaluate("[...document.querySelectorAll('#actionbar [data-token]')].map(b => b.dataset.token)")
    assert shown == hand                                          # his tokens, on his page
    assert player.locator("#actionbar [data-token]").count() == 0
    facts = dict(read(player)["facts"])
    assert facts["Field marshal's hand"] == "%d tokens, his alone" % len(hand), facts
    # a player's page cannot play for him, even with a frame made by hand
    async def crafted():
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(host.url + "ws")
            await ws.send_str(json.dumps({"t": "pin", "pin": PIN}))
            for _ in range(5):
                m = json.loads((await ws.receive()).data)
                if m.get("t") == "reply":
                    break
            await ws.send_str(json.dumps({"t": "act", "game": "siege", "do": "marshal_play", "tokens": []}))
            while True:
                m = json.loads((await ws.receive()).data)
                if m.get("t") == "reply":
                    return m["text"]
    _st, seq = dev.state()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:          # (Playwright's loop runs in this thread)
        said = pool.submit(lambda: asyncio.run(crafted())).result(30)
    assert said == "refused: the field marshal's play is his alone: from his own page (his PIN)"
    assert dev.state()[1] == seq
    # he plays a lone tank into a sector he chooses (R60), tapped on his page: it stands in that
    # sector's rear, and his hand has one token fewer
    before = dev.state()[0]
    tank = next((i for i, k in enumerate(hand) if texts.is_enemy(k)), None)
    if tank is None:                                               # (no tank in his hand: two tokens)
        for i in (0, 1):
            marshal.locator("#actionbar [data-token]").nth(i).click()
    else:
        marshal.locator("#actionbar [data-token]").nth(tank).click()
        marshal.click("#actionbar [data-sector='3']")
    marshal.click("#actionbar [data-action='marshal_play']")
    until(lambda: dev.state()[1] == seq + 1, what="the device taking his play (the page says %r)"
          % marshal.inner_text("#status"), timeout=20)
    after = dev.state()[0]
    if tank is not None:
        new = [e for e in after["enemies"] if e["id"] not in {x["id"] for x in before["enemies"]}]
        assert [(e["kind"], e["sector"], e["line"]) for e in new] == [(hand[tank], 3, "rear")], new
    assert his["do"] == "marshal_play"
    player.close()
    marshal.close()


def test_a_new_game_with_its_options_from_a_page(rig):
    dev, host, browser = rig
    _st, seq = dev.state()
    assert seq > 0 and dev.state()[0]["outcome"] == "playing"
    page = _unlocked(browser, host, PIN)
    assert not page.evaluate(UNMARKED), "every control carries data-action (issue 62 item 5)"
    page.click("#ctlsec [data-action='new'][data-game='siege']")
    page.wait_for_selector("#newdialog[open]", timeout=5000)
    assert not page.evaluate(UNMARKED)
    assert page.inner_text("#newstart") == "Replace the game" and "in progress" in page.inner_text("#newover")
    page.select_option("#players", "4")
    page.check("#modes input[value='shoulder']")
    page.check("#variants input[value='caught_off_guard']")
    page.click("#newstart")
    until(lambda: dev.state()[1] == 0 and (host.app.view.setup or {}).get("mode") == "shoulder",
          what="the new game on the device", timeout=20)
    setup = host.app.view.setup
    assert setup["players"] == 4 and setup["variants"] == ["caught_off_guard"]
    assert dev.state()[0]["walls"] == []                          # caught off guard: no walls at the start
    page.close()


def test_keys_on_a_computers_page_still_work(rig):
    """Issue 62 item 4: a computer's keyboard plays as the monitor's does: e ends the turn; a key
    for an enemy takes the one tapped, and without one says to tap it first."""
    dev, host, browser = rig
    page = _unlocked(browser, host, PIN)
    page.set_viewport_size({"width": 1280, "height": 900})
    st, seq = dev.state()
    assert st["outcome"] == "playing"
    root = page.evaluate("({seq: document.body.dataset.seq, game: document.body.dataset.game})")
    assert root == {"seq": str(seq), "game": "siege"}
    page.keyboard.press("h")                                       # nothing tapped: said, nothing sent
    until(lambda: "tap an enemy first" in page.inner_text("#toast"), what="the page saying to tap first")
    assert dev.state()[1] == seq
    page.keyboard.press("e")
    until(lambda: dev.state()[1] == seq + 1, what="e ending the turn (the page says %r)" % page.inner_text("#status"))
    page.close()
