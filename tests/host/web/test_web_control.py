"""Issue 41 item 4: who may act from a page.  Without the PIN nothing a
browser sends reaches the board: crafted WebSocket frames (the device's own
protocol smuggled in, keys, malformed, binary, oversized ones) and HTTP junk
are refused with a sentence to that client alone, the device's state does
not move, the server goes on serving and every page keeps its live view.
With the PIN a page's keys are the monitor's keys, through the host's one
link.  No browser needed: aiohttp's client speaks the WebSocket."""

import asyncio
import json
import socket
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")

from osada.web import control, roles  # noqa: E402
from osada.web.server import WebServer  # noqa: E402
from tests.support.web_rig import PIN, sim_and_host  # noqa: E402


def _synced(host):
    return (host.app.view.setup is not None and host.server.latest is not None and not host.app._web_pending
            and json.loads(host.server.latest["watcher"])["rev"] == host.app.web_rev)


@pytest.fixture(scope="module")
def rig():
    with sim_and_host("web-control", synced=_synced) as (dev, host):
        yield dev, host


async def next_of(ws, kind, timeout=5.0):
    """The next frame of type `kind` ("snap", "reply", "hello") the page gets."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return msg
        data = json.loads(msg.data)
        if data.get("t") == kind:
            return data


CRAFTED = [
    '{"t": "key", "game": "siege", "i": 16}',                      # choose (KEYMAP row 16), no PIN
    '{"cmd": "act", "action": {"do": "end_turn"}}',                # the device's protocol, smuggled
    '{"t": "act", "action": {"do": "end_turn"}}',
    '{"t": "act", "game": "siege", "do": "hit", "enemy": 1}',      # a well-formed tap, no PIN
    '{"t": "act", "game": "siege", "do": "surrender"}',
    '{"t": "act", "game": "siege", "do": "dot", "sector": 9}',
    '{"t": "key", "game": "siege", "i": "16"}',
    '{"t": "key", "game": "siege", "i": 999}',
    '{"t": "key", "game": "../../etc", "i": 0}',
    '{"t": "pin", "pin": 424242}',
    '{"t": "pin"}',
    "not json at all",
    "[1, 2, 3]",
    '{"t": "key", "game": "siege", "i": 5, "n": 70}',
    "",
]


def test_without_the_pin_nothing_a_page_sends_reaches_the_board(rig):
    dev, host = rig
    before = dev.state()
    sent_before = host.app.session.link.next_id

    async def run():
        async with aiohttp.ClientSession() as http:
            viewer = await http.ws_connect(host.url + "ws")
            first = await next_of(viewer, "snap")
            attacker = await http.ws_connect(host.url + "ws")
            replies = []
            for frame in CRAFTED:
                await attacker.send_str(frame)
                replies.append((await next_of(attacker, "reply"))["text"])
            await attacker.send_bytes(b"\x00\x01binary")
            replies.append((await next_of(attacker, "reply"))["text"])
            await attacker.send_str('{"t": "pin", "pin": "%s"}' % ("9" * 2000))     # oversized: 1009, closed
            closed = await next_of(attacker, "reply")
            # the viewer keeps its view: still open, still the same board
            async with http.get(host.url + "state.json") as r:
                now = await r.json()
            async with http.get(host.url) as r:
                page_ok = r.status == 200 and "Osada" in await r.text()
            assert not viewer.closed
            await viewer.close()
            return first, replies, closed, now, page_ok

    first, replies, closed, now, page_ok = asyncio.run(run())
    for frame, text in zip(CRAFTED + ["binary"], replies):
        assert text.startswith("refused: ") or "no actions" in text or "wrong PIN" in text, (frame, text)
    assert replies[0] == "refused: enter the PIN the host printed first"
    assert replies[2] == 'refused: a tap\'s action is Siege\'s: "game": "siege"'
    assert replies[3] == "refused: enter the PIN the host printed first"
    assert replies[4].startswith("refused: a tap may ask ") and replies[5].startswith("refused: dot takes sector")
    assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert dev.state() == before, "the board did not move"
    assert host.app.session.link.next_id == sent_before, "no request went out on the link"
    assert page_ok and now["conn"]["live"] and now["state"] == first["state"]


async def watching_and_controlling(http, host):
    """(a page that watches, one that gave the PIN, the PIN's reply) on the host."""
    viewer = await http.ws_connect(host.url + "ws")
    await next_of(viewer, "snap")
    ctl = await http.ws_connect(host.url + "ws")
    await ctl.send_str(json.dumps({"t": "pin", "pin": PIN}))
    return viewer, ctl, await next_of(ctl, "reply")


def test_with_the_pin_a_page_presses_the_monitors_keys(rig):
    dev, host = rig
    _st, seq = dev.state()
    end_turn = next(i for i, row in enumerate(host.app.view.KEYMAP) if row[1] == "end_turn")
    new_game = next(i for i, row in enumerate(host.app.view.KEYMAP) if row[1] == "new_game")

    async def run():
        async with aiohttp.ClientSession() as http:
            viewer, ctl, ok = await watching_and_controlling(http, host)
            await ctl.send_str(json.dumps({"t": "key", "game": "siege", "i": new_game}))
            dialog = await next_of(ctl, "reply")
            await ctl.send_str(json.dumps({"t": "key", "game": "siege", "i": end_turn}))
            sent = await next_of(ctl, "reply")
            while True:                               # every page sees the turn end
                snap = await next_of(viewer, "snap")
                if dict(snap["facts"]).get("Turn", "").startswith("%d " % (_st["turn"] + 1)):
                    break
            await ctl.send_str(json.dumps({"t": "key", "game": "tank", "i": 0}))    # not the running game
            await next_of(ctl, "reply")
            while True:
                snap = await next_of(viewer, "snap")
                if snap["status"]["refused"]:
                    break
            return ok, dialog, sent, snap

    ok, dialog, sent, snap = asyncio.run(run())
    assert ok["ok"] and ok["text"].startswith("PIN accepted")
    assert not dialog["ok"] and "monitor" in dialog["text"]
    assert sent["ok"]
    assert dev.state()[1] > seq
    assert "device runs siege" in snap["status"]["text"]


def _end_turn_from_a_page(dev, host, hold_s):
    """A watching page and a controlling one (the PIN given); the end-turn key sent while the
    board's loop is held for hold_s seconds (it cannot answer meanwhile).  Returns the first
    snapshot the watching page got after the key, and how long after the key it came (s)."""
    end_turn = next(i for i, row in enumerate(host.app.view.KEYMAP) if row[1] == "end_turn")

    async def run():
        async with aiohttp.ClientSession() as http:
            viewer, ctl, _ok = await watching_and_controlling(http, host)

            async def first_snapshot():
                snap = await next_of(viewer, "snap")
                return snap, time.monotonic() - t0

            with dev.lock:
                t0 = time.monotonic()
                await ctl.send_str(json.dumps({"t": "key", "game": "siege", "i": end_turn}))
                got = asyncio.ensure_future(first_snapshot())
                await asyncio.sleep(hold_s)
            return await got

    return asyncio.run(run())


def test_a_pages_key_redraws_the_pages_once_with_the_devices_answer(rig):
    """Make bench's web latency: a page's key changed what the pages show (the status) before
    the device answered, so when the board took longer than 30 ms every page drew twice, the
    key's own change and then the device's state, and the second waited for the first.  Now
    the pages get one snapshot for the key, with the answer in it -- here from a board that
    takes 0.15 s."""
    dev, host = rig
    _st, seq = dev.state()
    snap, _after = _end_turn_from_a_page(dev, host, 0.15)
    assert snap["seq"] > seq and dev.state()[1] == snap["seq"], (snap["rev"], snap["status"])


def test_a_board_that_does_not_answer_a_pages_key_leaves_the_pages_waiting_a_quarter_second_at_most(rig):
    from osada.web.host import ANSWER_WAIT_S
    dev, host = rig
    _st, seq = dev.state()
    snap, after = _end_turn_from_a_page(dev, host, 1.0)          # the board does not answer for a second
    assert snap["seq"] == seq and ANSWER_WAIT_S - 0.05 <= after < 0.9, after     # the key's own change


def raw_http(port, data):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk or b"\r\n" in out + chunk:
                    out += chunk
                    break
                out += chunk
        except socket.timeout:
            pass
    return int(out.split(b"\r\n", 1)[0].split()[1])       # the status code


def test_http_junk_is_refused_and_the_pages_go_on(rig):
    _dev, host = rig
    port = host.server.port
    assert raw_http(port, b"\x16\x03\x01 GARBAGE \r\n\r\n") == 400
    assert raw_http(port, b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
                          b"hello") == 405
    assert raw_http(port, b"GET /static/..%2fserver.py HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    ) == 404
    assert raw_http(port, b"GET /etc/passwd HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n") == 404
    assert raw_http(port, b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n") in (400, 431)
    assert raw_http(port, b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: http://evil.example\r\nUpgrade: websocket"
                          b"\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          b"Sec-WebSocket-Version: 13\r\n\r\n" % port) == 403
    assert raw_http(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == 421, "a name not served"
    assert raw_http(port, b"GET / HTTP/1.1\r\nHost: localhost:%d\r\nConnection: close\r\n\r\n" % port
                    ) == 200, "still serving"
    assert host.app.conn_kind == "connected"


def test_wrong_pins_lock_the_address_out_for_a_while():
    now = [0.0]
    gate = control.Gate("123456", clock=lambda: now[0])
    for k in range(control.PIN_TRIES):
        assert gate.try_pin("a", "000000") == (None, "wrong PIN (%d of %d tries)" % (k + 1, control.PIN_TRIES))
    ok, why = gate.try_pin("a", "123456")
    assert not ok and why.startswith("too many wrong PINs")
    assert gate.try_pin("b", "123456")[0] == "player", "another address is not locked out"
    now[0] += control.PIN_WINDOW_S + 1
    assert gate.try_pin("a", "123456")[0] == "player"
    rate = control.Rate(per_s=3, clock=lambda: now[0])
    assert [rate.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert rate.take()


def test_a_host_without_control_takes_no_keys_even_with_a_pin():
    keys = []
    server = WebServer("127.0.0.1", 0, pin=None, on_key=keys.append)
    server.start()

    async def run():
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(server.url + "ws")
            hello = await next_of(ws, "hello")
            await ws.send_str('{"t": "pin", "pin": ""}')
            a = await next_of(ws, "reply")
            await ws.send_str('{"t": "key", "game": "siege", "i": 6}')
            b = await next_of(ws, "reply")
            return hello, a, b

    try:
        hello, a, b = asyncio.run(run())
    finally:
        server.stop()
    assert hello["control"] is False
    assert not a["ok"] and "--control" in a["text"]
    assert not b["ok"] and "no --control" in b["text"]
    assert keys == []


def test_a_slow_page_gets_the_newest_snapshot_not_a_growing_queue():
    server = WebServer("127.0.0.1", 0, pin=None)
    server.start()
    pad = "x" * 200000

    async def run():
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(server.url + "ws", max_msg_size=0)
            await next_of(ws, "hello")
            for rev in range(1, 101):                 # the page reads nothing meanwhile: its socket fills
                server.publish({role: {"t": "snap", "rev": rev, "pad": pad} for role in roles.ROLES})
            await asyncio.sleep(1.0)
            pending = [p["next"] for p in server.pages.values()]
            got = []
            while not got or got[-1] != 100:
                got.append((await next_of(ws, "snap"))["rev"])
            await ws.close()
            return got, pending

    try:
        got, pending = asyncio.run(run())
    finally:
        server.stop()
    assert got[-1] == 100 and got == sorted(got), "in order, the newest last"
    assert len(got) < 100, "the ones a slow page had no time for were skipped"
    assert all(p is None or isinstance(p, str) for p in pending), "at most one snapshot waits per page"


def test_with_the_pin_f_and_shift_f_show_the_forecast_on_the_pages_and_the_ring(rig):
    """Siege's `f` (the threat forecast on, for every page) and `F` (it on the board's ring for
    3 s, F13) from a controlling page, as from the monitor: `F` sends the host's own forecast
    of the state on the board, which the device only draws; it was a button a page offered and
    the host then refused."""
    dev, host = rig
    keymap = host.app.view.KEYMAP
    show = next(i for i, row in enumerate(keymap) if row[1] == "forecast")
    ring = next(i for i, row in enumerate(keymap) if row[1] == "ring_forecast")
    view = host.app.view

    def answer():
        return view.live.current(view.state, view.setup) if view.live is not None else None

    async def run():
        async with aiohttp.ClientSession() as http:
            ctl = await http.ws_connect(host.url + "ws")
            await ctl.send_str(json.dumps({"t": "pin", "pin": PIN}))
            assert (await next_of(ctl, "reply"))["ok"]
            await ctl.send_str(json.dumps({"t": "key", "game": "siege", "i": show}))
            assert (await next_of(ctl, "reply"))["ok"]
            for _ in range(600):
                snap = await next_of(ctl, "snap", timeout=30)
                fc = snap["forecast"]
                if fc and answer() is not None and "Forecast for turn" in fc.get("head", ""):
                    break
            else:
                raise AssertionError("no forecast on the page")
            await ctl.send_str(json.dumps({"t": "key", "game": "siege", "i": ring}))
            sent = await next_of(ctl, "reply")
            for _ in range(100):
                with dev.lock:
                    if any(type(a).__name__ == "Show" for a in dev.sim.app.siege.anims):
                        break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the ring did not show the forecast: %s" % host.app.status_text)
            await ctl.send_str(json.dumps({"t": "key", "game": "siege", "i": show}))     # off again
            await next_of(ctl, "reply")
            return sent

    try:
        sent = asyncio.run(run())
    finally:
        host.app.forecast = False
    assert sent["ok"] and "not sent from a page" not in host.app.status_text


def test_the_marshals_play_and_a_new_game_are_checked_before_anything_is_sent():
    """Issue 62 item 4: a page's marshal_play and new frames, checked as every frame is: what
    they may carry, each bad one refused with its sentence (no seed: it gives the pool away)."""
    from osada.web.control import Refused, check

    assert check('{"t": "act", "game": "siege", "do": "marshal_play", "tokens": ["tiger"], "sector": 3}') == \
        ("marshal", "siege", {"do": "marshal_play", "tokens": ["tiger"], "sector": 3})
    assert check('{"t": "act", "game": "siege", "do": "marshal_play", "tokens": []}')[2]["tokens"] == []
    assert check('{"t": "new", "game": "siege", "players": 4, "mode": "shoulder", "variants": ["my_house"]}') == \
        ("new", {"players": 4, "mode": "shoulder", "variants": ["my_house"]}, False)
    for frame, words in (
            ('{"t": "act", "game": "siege", "do": "marshal_play", "tokens": ["dragon"]}', "token kinds"),
            ('{"t": "act", "game": "siege", "do": "marshal_play", "tokens": "tiger"}', "token kinds"),
            ('{"t": "act", "game": "siege", "do": "marshal_play", "tokens": [], "sector": 7}', "1 to 6"),
            ('{"t": "act", "game": "siege", "do": "marshal_play", "tokens": [], "enemy": 1}', "not enemy"),
            ('{"t": "new", "game": "siege", "players": 4, "seed": 1}', "not seed"),
            ('{"t": "new", "game": "siege", "players": 9}', "1 to 6"),
            ('{"t": "new", "game": "siege", "players": 2, "mode": "chaos"}', "mode: one of"),
            ('{"t": "new", "game": "siege", "players": 2, "variants": ["my_house", "my_house"]}', "each once"),
            ('{"t": "new", "game": "tank", "players": 2}', "Siege's"),
            ('{"t": "new", "game": "siege", "players": 2, "replace": "yes"}', "true or false")):
        with pytest.raises(Refused) as exc:
            check(frame)
        assert words in str(exc.value), (frame, str(exc.value))
