"""The HTTP and WebSocket server (aiohttp), in a thread with its own event loop,
beside the shell that owns the link.

    GET /            the page (static/index.html); /static/<file> its script and style
    GET /state.json  the latest snapshot (what a page draws), for scripts
    GET /ws          the live view: the latest snapshot at once, then every new one;
                     with --control, the PIN and the keys (control.py)

The shell hands snapshots in with publish(dict) from its own thread; the
server keeps the latest (a page opened now draws it at once) and sends it
to every open page.  A page's key goes to the shell with on_key(...) (the
shell runs it on its own thread: the one link).  Anything else a browser
sends is refused with a sentence to that page alone; nothing it sends can
stop the server or change what the other pages see."""

import asyncio
import json
import os
import threading

from aiohttp import WSMsgType, web

from . import control

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
HEADERS = {
    # everything the page loads comes from this host; the fragments carry inline styles
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


def _files():
    out = {}
    for name, ctype in FILES.items():
        with open(os.path.join(STATIC, name), "rb") as f:
            out[name] = (f.read(), ctype)
    return out


class WebServer:
    """start() serves on host:port until stop(); publish(snapshot) from any thread."""

    def __init__(self, host="127.0.0.1", port=8765, pin=None, on_key=None):
        self.host, self.port = host, port
        self.gate = control.Gate(pin)
        self.control = pin is not None
        self.on_key = on_key                  # on_key(page, request): called on the server's thread
        self.files = _files()
        self.latest = None                    # the last snapshot, as its JSON text
        self.pages = {}                       # ws -> the page (its address, PIN, key rate, what waits to go)
        self.loop = None
        self.thread = None
        self.error = None
        self.sent = 0                         # snapshots sent, all pages (tests, bench)
        self._ready = threading.Event()
        self._runner = None

    # ------------------------------------------------------------ lifecycle

    def start(self, timeout=10.0):
        self.thread = threading.Thread(target=self._run, name="osada web", daemon=True)
        self.thread.start()
        self._ready.wait(timeout)
        if self.error is not None:
            raise OSError("cannot serve on %s:%d: %s" % (self.host, self.port, self.error))

    def _run(self):
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._serve())
        except OSError as exc:
            self.error = exc.strerror or str(exc)
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self._shutdown())
        self.loop.close()

    async def _serve(self):
        app = web.Application(client_max_size=control.MAX_FRAME, middlewares=[self._headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/state.json", self._state)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/static/{name}", self._static)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        await site.start()
        if self.port == 0:                    # tests: the port the OS gave
            self.port = self._runner.addresses[0][1]

    async def _shutdown(self):
        for ws in list(self.pages):
            await ws.close(code=1001, message=b"the host is stopping")
        if self._runner is not None:
            await self._runner.cleanup()

    def stop(self):
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        if self.thread is not None:
            self.thread.join(5.0)

    @property
    def url(self):
        return "http://%s:%d/" % (self.host, self.port)

    # ------------------------------------------------------------ publishing

    def publish(self, snap):
        """A new snapshot for every page (any thread)."""
        text = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
        if self.loop is not None and not self.loop.is_closed():
            try:
                self.loop.call_soon_threadsafe(self._broadcast, text)
            except RuntimeError:              # the loop closed meanwhile
                pass

    def _broadcast(self, text):
        self.latest = text
        for page in list(self.pages.values()):
            if page["next"] is None:          # idle: send now; busy: only the newest goes when it is done
                asyncio.ensure_future(self._send(page))
            page["next"] = text

    async def _send(self, page):
        """Send the page its newest snapshot, and again while a newer one came meanwhile: a slow page
        (a phone on a poor Wi-Fi) skips the ones it had no time for, and nothing piles up for it."""
        ws = page["ws"]
        try:
            while page["next"] is not None:
                text = page["next"]
                await ws.send_str(text)
                self.sent += 1
                if page["next"] is text:
                    page["next"] = None
        except (ConnectionError, RuntimeError):
            page["next"] = None
            self.pages.pop(ws, None)

    # ------------------------------------------------------------ HTTP

    @web.middleware
    async def _headers(self, request, handler):
        resp = await handler(request)
        for k, v in HEADERS.items():
            resp.headers.setdefault(k, v)
        return resp

    async def _index(self, request):
        body, ctype = self.files["index.html"]
        return web.Response(body=body, content_type=ctype, charset="utf-8")

    async def _static(self, request):
        name = request.match_info["name"]
        if name not in self.files or name == "index.html":
            raise web.HTTPNotFound(text="no such file")
        body, ctype = self.files[name]
        return web.Response(body=body, content_type=ctype, charset="utf-8")

    async def _state(self, request):
        if self.latest is None:
            return web.json_response({"t": "wait", "text": "the host has no board yet"}, status=503)
        return web.Response(text=self.latest, content_type="application/json")

    # ------------------------------------------------------------ the live view

    async def _ws(self, request):
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="a page of another site may not open this view")
        ws = web.WebSocketResponse(max_msg_size=control.MAX_FRAME, heartbeat=20.0)
        await ws.prepare(request)
        page = {"ws": ws, "addr": request.remote or "?", "unlocked": False, "rate": control.Rate(), "next": None}
        self.pages[ws] = page
        try:
            await ws.send_str(json.dumps({"t": "hello", "control": self.control}))
            if self.latest is not None:
                await ws.send_str(self.latest)
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._frame(page, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await self._tell(page, False, "refused: only JSON text frames are read")
                elif msg.type == WSMsgType.ERROR:
                    break
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass
        finally:
            self.pages.pop(ws, None)
        return ws

    async def _tell(self, page, ok, text):
        try:
            await page["ws"].send_str(json.dumps({"t": "reply", "ok": ok, "text": text}, ensure_ascii=False))
        except (ConnectionError, RuntimeError):
            pass

    async def _frame(self, page, text):
        try:
            req = control.check(text)
        except control.Refused as exc:
            await self._tell(page, False, "refused: %s" % exc)
            return
        if req[0] == "pin":
            ok, why = self.gate.try_pin(page["addr"], req[1])
            page["unlocked"] = page["unlocked"] or ok
            await self._tell(page, ok, why)
            return
        if not self.control:
            await self._tell(page, False, "refused: this host takes no actions from pages (no --control)")
        elif not page["unlocked"]:
            await self._tell(page, False, "refused: enter the PIN the host printed first")
        elif not page["rate"].take():
            await self._tell(page, False, "refused: too many keys at once (at most %d a second)"
                             % control.KEYS_PER_S)
        elif self.on_key is None:
            await self._tell(page, False, "refused: nothing takes keys here")
        else:
            self.on_key(req)
            await self._tell(page, True, "sent")
