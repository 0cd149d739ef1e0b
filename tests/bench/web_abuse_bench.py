"""The web view under crafted traffic (issue 59's figures), on 127.0.0.0/8 only,
every loop bounded in count and time:

  pin_guesses_answered_per_s   wrong PINs answered as "wrong PIN" per second while
                               clients from 1,000 loopback addresses guess (the rest
                               are told to wait)
  watcher_p95_ms_quiet         a watching page: publish to receipt, p95, nothing else going on
  watcher_p95_ms_flood         the same while 4 connections send refused frames as fast as
                               they can (each is closed after MAX_REFUSALS and comes back)
  flood_refusals_per_s         refusals answered a second meanwhile
  watcher_p95_ms_half_open     the same while 500 connections are opened and left half-open

    .venv/bin/python -m tests.bench.web_abuse_bench
"""

import asyncio
import json
import socket
import sys
import threading
import time

from osada.web import roles
from osada.web.server import WebServer

PIN = "918273"
SECONDS = 5.0


def _publisher(server, stop):
    rev = 0
    while not stop.is_set():
        rev += 1
        snap = {"t": "snap", "rev": rev, "at": time.time() * 1000.0, "pad": "x" * 2000}
        server.publish({role: dict(snap, role=role) for role in roles.ROLES})
        time.sleep(0.05)


async def _watch(url, seconds):
    import aiohttp
    lat = []
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(url + "ws")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                msg = await asyncio.wait_for(ws.receive(), 1.0)
            except asyncio.TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data.get("t") == "snap" and "at" in data:
                lat.append(time.time() * 1000.0 - data["at"])
        await ws.close()
    lat.sort()
    return lat[int(len(lat) * 0.95)] if lat else float("nan")


async def _flood(url, seconds, counter):
    import aiohttp
    end = time.monotonic() + seconds
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < end:
            try:
                ws = await http.ws_connect(url + "ws")
                while time.monotonic() < end and not ws.closed:
                    await ws.send_str("junk")
                    msg = await asyncio.wait_for(ws.receive(), 1.0)
                    if msg.type == aiohttp.WSMsgType.TEXT and b"refused" in msg.data.encode():
                        counter[0] += 1
                await ws.close()
            except (aiohttp.ClientError, ConnectionError, asyncio.TimeoutError, RuntimeError):
                await asyncio.sleep(0.01)


def _half_open(port, n, seconds, stop):
    socks = []
    end = time.monotonic() + seconds
    while time.monotonic() < end and not stop.is_set():
        socks = [s for s in socks if s.fileno() >= 0]
        while len(socks) < n:
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=1)
                s.sendall(b"GET / HTTP/1.1\r\nHost: local")
                socks.append(s)
            except OSError:
                break
        time.sleep(0.2)
        for s in list(socks):                 # the ones the server closed
            s.setblocking(False)
            try:
                if s.recv(1) == b"":
                    s.close()
            except BlockingIOError:
                pass
            except OSError:
                s.close()
    for s in socks:
        s.close()


async def _guess(url_host, port, seconds):
    """Wrong PINs from 1,000 loopback addresses, 50 at a time: how many were answered as wrong."""
    import aiohttp
    answered = [0]
    end = time.monotonic() + seconds

    async def one(k):
        addr = "127.1.%d.%d" % (k // 250, k % 250 + 1)
        conn = aiohttp.TCPConnector(local_addr=(addr, 0))
        try:
            async with aiohttp.ClientSession(connector=conn) as http:
                ws = await http.ws_connect("http://%s:%d/ws" % (url_host, port))
                while time.monotonic() < end:
                    await ws.send_str(json.dumps({"t": "pin", "pin": "%06d" % (k * 7 % 1000000)}))
                    msg = await asyncio.wait_for(ws.receive(), 2.0)
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        return
                    data = json.loads(msg.data)
                    if data.get("t") == "reply" and data["text"].startswith("wrong PIN"):
                        answered[0] += 1
                await ws.close()
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
            pass
    k = 0
    while time.monotonic() < end and k < 1000:
        await asyncio.gather(*(one(k + i) for i in range(50)))
        k += 50
    return answered[0]


def figures():
    out = {}
    server = WebServer("127.0.0.1", 0, PIN)
    server.start()
    stop = threading.Event()
    pub = threading.Thread(target=_publisher, args=(server, stop), daemon=True)
    pub.start()
    try:
        t0 = time.monotonic()
        out["pin_guesses_answered_per_s"] = round(asyncio.run(_guess("127.0.0.1", server.port, SECONDS))
                                                  / (time.monotonic() - t0), 2)
        out["watcher_p95_ms_quiet"] = round(asyncio.run(_watch(server.url, SECONDS)), 1)

        async def flood_and_watch():
            counter = [0]
            floods = [asyncio.ensure_future(_flood(server.url, SECONDS, counter)) for _ in range(4)]
            p95 = await _watch(server.url, SECONDS)
            await asyncio.gather(*floods)
            return p95, counter[0] / SECONDS
        p95, per_s = asyncio.run(flood_and_watch())
        out["watcher_p95_ms_flood"] = round(p95, 1)
        out["flood_refusals_per_s"] = round(per_s)
        hold = threading.Event()
        half = threading.Thread(target=_half_open, args=(server.port, 500, SECONDS + 1, hold), daemon=True)
        half.start()
        time.sleep(0.5)
        out["watcher_p95_ms_half_open"] = round(asyncio.run(_watch(server.url, SECONDS)), 1)
        hold.set()
        half.join(5)
        out["refused_connections"] = server.refused
    finally:
        stop.set()
        server.stop()
    return out


if __name__ == "__main__":
    res = figures()
    for k, v in res.items():
        print("  %-30s %s" % (k, v))
    sys.exit(0)
