"""The web view holds under abuse (issue 59), with crafted traffic on 127.0.0.1
only, bounded in count and time: the Host header is checked, a connection
that never sends its request is closed, open connections are capped (the
rest get a 503, said once), a page flooding refused frames is closed with a
sentence, a deeply nested frame gets a sentence, and wrong PINs are limited
for the whole server, not per address."""

import asyncio
import json
import socket
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")

from osada.web import control, roles  # noqa: E402
from osada.web import server as server_mod  # noqa: E402
from osada.web.server import WebServer  # noqa: E402

SNAP = {"t": "snap", "rev": 1, "seq": 0}


@pytest.fixture
def srv(monkeypatch):
    monkeypatch.setattr(server_mod, "HEADER_TIMEOUT_S", 0.5)
    monkeypatch.setattr(server_mod, "MAX_CONNECTIONS", 40)
    said = []
    s = WebServer("127.0.0.1", 0, "123456", log=said.append)
    s.start()
    s.publish({role: dict(SNAP, role=role) for role in roles.ROLES})
    yield s, said
    s.stop()


def raw(port, data, wait=2.0):
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as c:
        c.sendall(data)
        out = b""
        try:
            while True:
                chunk = c.recv(65536)
                if not chunk:
                    break
                out += chunk
        except socket.timeout:
            pass
    return out


def test_only_the_names_it_serves_are_answered(srv):
    s, _ = srv
    ok = raw(s.port, b"GET /state.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % s.port)
    assert ok.startswith(b"HTTP/1.1 200") and b'"role":"watcher"' in ok
    assert raw(s.port, b"GET /state.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200")
    evil = raw(s.port, b"GET /state.json HTTP/1.1\r\nHost: rebind.example:%d\r\nConnection: close\r\n\r\n" % s.port)
    assert evil.startswith(b"HTTP/1.1 421") and b"serves the Osada web view as" in evil and b'"seq"' not in evil
    ws = raw(s.port, b"GET /ws HTTP/1.1\r\nHost: rebind.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert ws.startswith(b"HTTP/1.1 421")


def test_a_connection_that_never_sends_its_request_is_closed(srv):
    s, _ = srv
    with socket.create_connection(("127.0.0.1", s.port), timeout=5) as c:
        c.sendall(b"GET / HTTP/1.1\r\nHost: local")          # and then nothing
        t0 = time.monotonic()
        assert c.recv(100) == b""                              # closed by the server
        assert time.monotonic() - t0 < 3.0


def test_connections_over_the_cap_make_room_for_a_real_page_and_are_said_once(srv):
    """Half-open connections past the cap: the oldest silent one is closed for a page that
    asks; when every open one is a real page, a new one gets a 503 with a sentence."""
    s, said = srv
    socks = [socket.create_connection(("127.0.0.1", s.port), timeout=5) for _ in range(server_mod.MAX_CONNECTIONS)]
    try:
        time.sleep(0.2)
        page = raw(s.port, b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert page.startswith(b"HTTP/1.1 200")
        assert len([line for line in said if "closing those first" in line]) == 1
    finally:
        for c in socks:
            c.close()
    time.sleep(0.3)
    real = []
    try:                                                 # the cap full of requests being answered (kept alive)
        for _ in range(server_mod.MAX_CONNECTIONS):
            c = socket.create_connection(("127.0.0.1", s.port), timeout=5)
            c.sendall(b"GET /state.json HTTP/1.1\r\nHost: localhost\r\n\r\n")
            real.append(c)
        time.sleep(0.3)
        over = raw(s.port, b"", wait=1.0)
        assert over.startswith(b"HTTP/1.1 503") and b"too many connections" in over
    finally:
        for c in real:
            c.close()
    time.sleep(0.3)
    assert raw(s.port, b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").startswith(b"HTTP/1.1 200")
    assert any("takes new connections again" in line for line in said)


def test_a_page_that_floods_refused_frames_is_closed_with_a_sentence(srv):
    s, _ = srv

    async def run():
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(s.url + "ws")
            replies = []
            await ws.send_str("[" * 1020)                       # within a frame's size, past the parser's depth
            for _ in range(server_mod.MAX_REFUSALS + 5):
                await ws.send_str("junk")
            while True:
                msg = await asyncio.wait_for(ws.receive(), 5)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    replies.append(json.loads(msg.data))
                else:
                    return replies, msg, ws.close_code
    replies, last, code = asyncio.run(run())
    texts = [r["text"] for r in replies if r.get("t") == "reply"]
    assert texts[0] == "refused: JSON nested too deeply: a frame is a flat object"
    assert all(t.startswith("refused: ") for t in texts) and len(texts) == server_mod.MAX_REFUSALS
    assert code == 1008 and "refused frames" in (last.extra or "")


def test_nested_json_gets_a_sentence():
    with pytest.raises(control.Refused, match="nested too deeply"):
        control.check("[" * 1020)


def test_wrong_pins_are_limited_for_the_whole_server_not_per_address():
    """From 1,000 addresses (127.0.0.0/8 is all this machine's), 5 wrong tries each would
    have been 5,000 a minute: the whole server answers SERVER_TRIES, then checks none."""
    now = [0.0]
    gate = control.Gate("123456", clock=lambda: now[0], marshal_pin="654321")
    answered = 0
    for k in range(1000):
        role, why = gate.try_pin("127.0.%d.%d" % (k // 250, k % 250 + 1), "%06d" % k if k != 123456 else "0")
        assert role is None
        answered += why.startswith("wrong PIN")
        now[0] += 0.01
    assert answered == control.SERVER_TRIES
    assert gate.guessing is not None
    role, why = gate.try_pin("127.9.9.9", "123456")            # even the right PIN waits meanwhile
    assert role is None and "too many wrong PINs on this host" in why
    now[0] += control.PIN_WINDOW_S + 1
    assert gate.try_pin("127.9.9.9", "123456")[0] == "player"
    assert gate.try_pin("127.9.9.8", "654321")[0] == "marshal"
