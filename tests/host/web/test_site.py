"""Issue 63: Osada in the browser with no install.  `make site`'s folder, served as it is by a
plain static server from a folder of its own (no Osada process at all), in Debian's
chromium: the page runs the firmware's own app in MicroPython's WebAssembly VM in a Web
Worker and is the device.  Siege played by taps; the page reloaded in the middle (the same
game); the tab closed right after an action was sent (every acknowledged action is there
when it opens again); offline after the first visit."""

import functools
import http.server
import json
import os
import shutil
import tempfile
import threading

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from osada.site.build import build  # noqa: E402
from tests.support.web_rig import CHROMIUM, NO_BROWSER, PICTURE, launch, picture_of, until  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(NO_BROWSER, allow_module_level=True)

PHONE = {"width": 390, "height": 844}
BOOT_S = 60.0                      # the VM and the firmware's modules loaded, on a loaded 2-core machine


FOLDERS = {}                       # the site's url -> its folder


def _site_folder(url):
    return FOLDERS[url]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site():
    """The site built into a folder of its own and served from there by Python's static server."""
    tmp = tempfile.mkdtemp(prefix="osada-site-")
    folder = os.path.join(tmp, "anywhere", "osada")
    build(folder, quiet=True)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    pw = sync_api.sync_playwright().start()
    browser = launch(pw)
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    FOLDERS[url] = folder
    try:
        yield url, browser
    finally:
        browser.close()
        pw.stop()
        httpd.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


def _open(ctx, url):
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#picture [data-sector]", state="attached", timeout=BOOT_S * 1000)
    until(lambda: page.evaluate("document.body.dataset.live") == "yes", what="the device in the page", timeout=BOOT_S)
    return page


def _seen(page):
    got = page.evaluate(PICTURE)
    got["tokens"] = sorted(got["tokens"])
    del got["width"]
    got["seq"] = int(page.evaluate("document.body.dataset.seq || '0'"))
    return got


def _act(page, what):
    """One step by taps, waited for until the device acknowledged it (its seq moved)."""
    before = _seen(page)
    if what == "hit":
        tok = page.locator("#picture [data-enemy]").first
        tok.click()
        page.click("#actionbar [data-action='hit']")
    else:
        page.click("#actionbar [data-action='%s']" % what)
    until(lambda: _seen(page)["seq"] != before["seq"] or page.locator("#toast").is_visible(),
          what="the device answering %s" % what, timeout=20)
    return _seen(page)


def _now(page):
    """What the page shows, or None while it reloads itself (as it does on an import)."""
    try:
        return _seen(page)
    except sync_api.Error:
        return None


def _imported(ctx, url, data, st, seq, what="the imported game"):
    """A page that never saw the game, the journal file `data` imported into it: returned once
    it shows that game (the device's state `st` after `seq` actions)."""
    page = _open(ctx, url)
    page.set_input_files("[data-action='import']", files=[{"name": "journal.bin", "mimeType":
                                                          "application/octet-stream", "buffer": data}])
    want = dict(picture_of(st), seq=seq)
    until(lambda: _now(page) == want, what="%s: %s" % (what, want), timeout=BOOT_S)
    return page


def test_siege_played_by_taps_in_a_page_with_no_host_and_reloaded(site):
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _open(ctx, url)
        start = _seen(page)
        assert start["turn"] == "1" and start["tokens"], start
        assert not page.locator("#pinform").is_visible()            # the phone in the hand is the device's own
        # the first screen: no saved game yet, a new one offered; the forecast says where it is had
        assert page.locator("[data-action='new'][data-game='siege']").first.is_visible()
        assert page.inner_text("[data-action='continue']") == "Play this game"
        assert "osada web" in page.inner_text("#forecast")
        # the facts and the events in the host's words, from the device in the page (osada.words.table)
        facts = page.inner_text("#facts")
        assert "Turn" in facts and "1 · player 1 of" in facts and "“end turn” ends the turn" in facts, facts
        target = page.locator("#picture [data-enemy]").first.get_attribute("data-enemy")
        after_hit = _act(page, "hit")
        assert after_hit["seq"] == start["seq"] + 1, "the hit taken"
        until(lambda: "Hit " in page.inner_text("#events") and "#%s (sector" % target in page.inner_text("#events"),
              what="the hit in words, its enemy by name and place", timeout=10)
        after = _act(page, "end_turn")
        assert after["seq"] > after_hit["seq"] and after != after_hit
        page.reload()
        page.wait_for_selector("#picture [data-sector]", state="attached", timeout=BOOT_S * 1000)
        until(lambda: _seen(page) == after, what="the same game after a reload: %s vs %s"
              % (_seen(page), after), timeout=BOOT_S)
        until(lambda: page.inner_text("[data-action='continue']") == "Continue the game", what="the saved game offered")
        assert "turn %s" % after["turn"] in page.inner_text("#startgame")
        page.click("[data-action='continue']")
        assert not page.locator("#start").is_visible() and _seen(page) == after
        assert "game restored from its journal" in page.inner_text("#events")
        assert "%s · player" % after["turn"] in page.inner_text("#facts")
        page.close()
    finally:
        ctx.close()


def test_a_tab_closed_during_an_action_loses_no_acknowledged_one(site):
    """Each action waited for is acknowledged (the page showed the device's new state); the
    tab is closed right after the next is sent: opened again, the game is the acknowledged
    one, or that and the one in flight."""
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    try:
        for _ in range(3):
            page = _open(ctx, url)
            acked = _seen(page)
            page.click("#actionbar [data-action='move']")           # in flight when the tab goes
            page.close()
            page = _open(ctx, url)
            again = _seen(page)
            assert again["seq"] in (acked["seq"], acked["seq"] + 1), (acked, again)
            if again["seq"] == acked["seq"]:
                assert again == acked
            page.close()
    finally:
        ctx.close()


def test_offline_after_the_first_visit(site):
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _open(ctx, url)
        until(lambda: page.evaluate("navigator.serviceWorker.controller !== null || "
                                    "navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))"),
              what="the service worker installed", timeout=BOOT_S)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        was = _seen(page)
        ctx.set_offline(True)
        page.reload()
        page.wait_for_selector("#picture [data-sector]", state="attached", timeout=BOOT_S * 1000)
        until(lambda: _seen(page) == was, what="the game offline", timeout=BOOT_S)
        page.close()
    finally:
        ctx.close()


def _played_and_exported(browser, url, path):
    """A hit and an end of turn played in a fresh page, the game exported to `path`: what the page showed."""
    ctx = browser.new_context(viewport=PHONE, accept_downloads=True)
    try:
        page = _open(ctx, url)
        _act(page, "hit")
        played = _act(page, "end_turn")
        with page.expect_download() as dl:
            page.click("[data-action='export']")
        dl.value.save_as(str(path))
        assert dl.value.suggested_filename.endswith("journal.bin")
        page.close()
    finally:
        ctx.close()
    return played


def test_a_game_exported_from_the_page_goes_on_in_the_simulator_and_back(site, tmp_path):
    """Issue 63 item 3: the page's game exported as the journal's own file; the simulator (the
    very firmware, build/sim-state/'s journal) continues it; the simulator's journal imported
    into a fresh browser is that game."""
    from tests.support.simthread import SimThread

    url, browser = site
    state = tmp_path / "state"
    state.mkdir()
    played = _played_and_exported(browser, url, state / "journal.bin")
    sim = SimThread(str(tmp_path / "tty"), str(state), seed=3)
    try:
        st, seq = sim.state()
        assert seq == played["seq"] and picture_of(st) == {k: v for k, v in played.items() if k != "seq"}
        from osada_fw.siege.commands import HANDLERS
        with sim.lock:                                              # the simulator plays on, as a request does
            HANDLERS["act"](sim.sim.app, {"cmd": "act", "action": {"do": "move"}})
        st, seq = sim.state()
        assert seq == played["seq"] + 1
    finally:
        sim.close()
    with open(state / "journal.bin", "rb") as f:
        data = f.read()
    ctx = browser.new_context(viewport=PHONE)                         # a phone that never saw this game
    try:
        page = _imported(ctx, url, data, st, seq)
        page.close()
    finally:
        ctx.close()


def test_r30_the_device_in_the_page_asks_before_an_undo_past_a_reveal(site, tmp_path):
    """R30 on a shared phone: an undo that would take back tokens the table saw drawn is asked
    about first (the phone's own question, as the monitor asks); declined, nothing changes;
    confirmed, it is undone. The game is made in the simulator, seeded, so that its last
    action drew tokens, and imported into the page."""
    from osada_fw.siege.commands import HANDLERS
    from shared_rules.errors import RuleError
    from tests.support.simthread import SimThread
    state = tmp_path / "state"
    state.mkdir()
    sim = SimThread(str(tmp_path / "tty"), str(state), seed=3)
    try:
        with sim.lock:
            app = sim.sim.app
            before = len(app.siege.game.log)
            HANDLERS["act"](app, {"cmd": "act", "action": {"do": "end_turn"}})
            assert len(app.siege.game.log) == before + 1
            with pytest.raises(RuleError) as refused:                  # the end of turn drew tokens: R30
                app.siege.undo(False)
            assert refused.value.rule == "R30"
        st, seq = sim.state()
    finally:
        sim.close()
    with open(state / "journal.bin", "rb") as f:
        data = f.read()
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _imported(ctx, url, data, st, seq)
        want = _seen(page)
        until(lambda: page.evaluate("document.body.dataset.live") == "yes", what="the device in the page",
              timeout=BOOT_S)
        page.click("[data-action='continue']")
        asked = []

        def undo(yes):
            """The undo tapped and the question it asks answered (the sync API hands a dialog to its
            handler only while it is waiting on the page: the wait is the page's own)."""
            n = len(asked)

            def answer(dialog):
                asked.append(dialog.message)
                dialog.accept() if yes else dialog.dismiss()
            page.once("dialog", answer)
            page.click("#actionbar [data-action='undo']")
            for _ in range(400):
                if len(asked) > n:
                    return
                page.wait_for_timeout(50)
            raise AssertionError("no question asked before the undo past a reveal")
        undo(False)
        assert "R30" in asked[0] and "Undo it all the same?" in asked[0]
        until(lambda: page.locator("#toast").is_visible(), what="the refusal shown", timeout=20)
        assert _seen(page) == want                                  # declined: nothing changed
        undo(True)
        until(lambda: (_now(page) or {}).get("seq") == seq - 1, what="the undo, confirmed", timeout=20)
        assert len(asked) == 2 and _seen(page)["turn"] == "1"
        page.close()
    finally:
        ctx.close()


PICTURED = {"tank": "[data-die]", "victory": "[data-seat]", "warchest": "[data-player]"}
RING = "[...document.querySelectorAll('#picture [data-led]')].map(g => g.dataset.colour).join(',')"


@pytest.mark.parametrize("game", ["tank", "victory", "warchest"])
def test_each_other_device_game_in_a_page_with_no_host(site, game):
    """Issue 63 item 1: every game the device plays works in the page. The first screen starts
    it (data-action="new", data-game); it is played as on a board, on the device's ring (the
    LEDs drawn from the firmware's own frame) with its knob and buttons; a reload comes back to
    it (the device remembers its game); and the page switches back to Siege's game."""
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _open(ctx, url)
        page.click("#start [data-action='new'][data-game='%s']" % game)
        assert not page.locator("#start").is_visible()
        until(lambda: page.evaluate("document.body.dataset.game") == game and page.evaluate(RING).count(",") == 23,
              what="%s on the device in the page, its ring drawn" % game, timeout=20)
        assert "on the device in this page" in page.inner_text("#pictext")
        from osada.words.game_names import game_name
        until(lambda: "The device now runs %s" % game_name(game) in page.inner_text("#events"),
              what="the switch in the log's words", timeout=10)
        lit = lambda: [c for c in page.evaluate(RING).split(",") if c != "#000000"]   # noqa: E731
        until(lit, what="the ring lit", timeout=20)
        before = page.evaluate(RING)
        for control in ("knob_right", "knob_right", "action"):        # the game's own steps, as on a board
            page.click("#keys [data-action='%s']" % control)
        until(lambda: page.evaluate(RING) != before, what="the ring answering the buttons", timeout=20)
        # its picture as a host draws it (osada.site.reader in the device's VM), under the device's ring
        until(lambda: page.locator("#pictext " + PICTURED[game]).count() >= (1 if game == "tank" else 2),
              what="%s's picture drawn by the page with no host" % game, timeout=20)
        if game == "tank":
            assert page.locator("#pictext [data-chance]").count() == 1
            assert "the device is set to: " in page.inner_text("#pictext")
        page.reload()
        until(lambda: page.evaluate("document.body.dataset.live") == "yes" and
              page.evaluate("document.body.dataset.game") == game, what="the same game after a reload", timeout=BOOT_S)
        page.click("[data-action='continue']")
        page.click("#keys [data-action='switch'][title='%s']" % game_name("siege"))
        page.wait_for_selector("#picture [data-sector]", state="attached", timeout=20000)
        assert page.evaluate("document.body.dataset.game") == "siege"
        page.close()
    finally:
        ctx.close()


def test_a_page_game_put_on_a_board_played_there_and_got_back_into_a_page(site, tmp_path, capsys):
    """Issue 63 item 3 with a board: the page's export put on a board (`osada journal put`, here
    the simulator as a board over its serial line), played on there, got back off it (`osada
    journal get`) and imported into a page: that game."""
    from osada import cli
    from osada_fw.siege.commands import HANDLERS
    from tests.support.simthread import SimThread

    url, browser = site
    exported = str(tmp_path / "from-page.bin")
    played = _played_and_exported(browser, url, exported)
    (tmp_path / "board").mkdir()
    port = str(tmp_path / "board.tty")
    board = SimThread(port, str(tmp_path / "board"), seed=11)
    try:
        assert cli.main(["journal", "put", exported, "--port", port]) == 0
        st, seq = board.state()
        assert seq == played["seq"] and picture_of(st) == {k: v for k, v in played.items() if k != "seq"}
        with board.lock:
            HANDLERS["act"](board.sim.app, {"cmd": "act", "action": {"do": "move"}})
        st, seq = board.state()
        back = str(tmp_path / "from-board.bin")
        assert cli.main(["journal", "get", back, "--port", port]) == 0
    finally:
        board.close()
    capsys.readouterr()
    with open(back, "rb") as f:
        data = f.read()
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _imported(ctx, url, data, st, seq, what="the board's game in the page")
        page.close()
    finally:
        ctx.close()


# every snapshot the page with no host is given (device.js to app.js), kept for the test to read
KEEP_SNAPS = """Object.defineProperty(window, "OsadaDevice", {configurable: true, set(dev) {
  const open = dev.open;
  dev.open = (cfg, catalog, deliver) => open(cfg, catalog, (m) => { (window.__snaps = window.__snaps || []).push(
    JSON.stringify(m)); deliver(m); });
  Object.defineProperty(window, "OsadaDevice", {value: dev, writable: true});
}});"""


def test_the_field_marshals_hand_is_never_in_what_the_page_draws(site):
    """Issue 59's promise with no host: a field marshal's game started from the page's first
    screen; the device's lines hold his hand, but no snapshot the page draws from does: it has
    how many tokens it holds (shared_rules' table_state, made in the device's VM), and so do
    the facts."""
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_init_script(KEEP_SNAPS)
    try:
        page = _open(ctx, url)
        page.click("#start [data-action='new'][data-game='siege']")
        page.wait_for_selector("#newdialog[open]", timeout=5000)
        page.select_option("#players", "2")
        page.check("#modes input[value='marshal']")
        page.click("#newstart")
        until(lambda: "his alone" in page.inner_text("#facts"), what="the marshal's game, his hand a count",
              timeout=20)
        _act(page, "end_turn")                                 # the enemies move, he draws (phase 7)
        snaps = [json.loads(m) for m in page.evaluate("window.__snaps")]
        drawn = [m["state"]["game"] for m in snaps if m.get("t") == "snap" and m.get("state")]
        assert drawn and any(st.get("mode") == "marshal" or "marshal_hand_count" in st for st in drawn)
        assert all("marshal_hand" not in st for st in drawn)
        assert all("his alone" in dict(m["facts"]).get("Field marshal's hand", "his alone") for m in snaps
                   if m.get("t") == "snap")
        page.close()
    finally:
        ctx.close()


def test_a_file_that_is_no_game_is_announced_not_silently_replaced(site):
    """Issue 64's promise in the browser: bytes that are no journal, imported, are kept aside
    and the page says the saved game was damaged."""
    url, browser = site
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _open(ctx, url)
        page.set_input_files("[data-action='import']", files=[{"name": "journal.bin", "mimeType":
                                                              "application/octet-stream", "buffer": os.urandom(300)}])
        until(lambda: _visible(page, "#damaged"), what="the damaged save announced", timeout=BOOT_S)
        page.close()
    finally:
        ctx.close()


def _visible(page, sel):
    try:
        return page.locator(sel).is_visible()
    except sync_api.Error:                                           # the page reloading itself
        return False


def test_osada_web_serves_the_site_at_play(site):
    """Issue 63 item 2: `osada web` serves `make site`'s folder at /play/ (the device in the
    page, under the host's own policy: WebAssembly may compile, nothing from elsewhere), and
    says how to build it where it is not built."""
    import urllib.error
    import urllib.request

    from osada.web.server import WebServer
    url, browser = site
    folder = os.path.join(os.path.dirname(__file__), "no-such-site")
    with urllib.request.urlopen(url + "fw/files.json"):                # (the fixture's own site is there)
        pass
    missing = WebServer("127.0.0.1", 0, None, site=folder)
    missing.start()
    try:
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(missing.url + "play/")
        assert exc.value.code == 404 and "make site" in exc.value.read().decode()
    finally:
        missing.stop()
    root = _site_folder(url)
    host = WebServer("127.0.0.1", 0, None, site=root)
    host.start()
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = _open(ctx, host.url + "play/")
        assert _seen(page)["tokens"]
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(host.url + "play/../../etc/passwd")
        page.close()
    finally:
        ctx.close()
        host.stop()

