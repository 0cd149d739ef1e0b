"""The HTTP and WebSocket server (aiohttp), in a thread with its own event loop,
beside the shell that owns the link.

    GET /            the page (static/index.html); /static/<file> its script and style
    GET /state.json  the latest snapshot a watcher draws, for scripts
    GET /catalog.json  the facts the page draws with (catalog.py), from their home in Python
    GET /ws          the live view: the latest snapshot at once, then every new one;
                     with --control, the PIN and the keys (control.py)

The shell hands snapshots in with publish({role: snapshot}) from its own
thread, one for each role (roles.py: a watcher, a player who entered the PIN,
the field marshal with his); the server keeps the latest (a page opened now
draws it at once) and sends each open page its role's.

It holds under abuse (issue 59): only the Host names it serves are answered
(a DNS-rebinding page gets nothing); a connection has HEADER_TIMEOUT_S to
send its request and KEEPALIVE_S idle between requests; at most
MAX_CONNECTIONS are open (past that the oldest connection that never sent a
request is closed to make room, and when every one is a real page the new
one gets a 503; one line in the log while it lasts); a page that sends MAX_REFUSALS refused frames within
REFUSAL_WINDOW_S is closed with a sentence; wrong PINs are limited for the
whole server (control.Gate).  A page's key goes to the shell with on_key(...) (the
shell runs it on its own thread: the one link).  Anything else a browser
sends is refused with a sentence to that page alone; nothing it sends can
stop the server or change what the other pages see."""

import asyncio
import json
import os
import threading

from aiohttp import WSMsgType, web

from . import control, pagefile, roles
from .pagefile import FILES, STATIC

HEADER_TIMEOUT_S = 10.0      # a connection's request line and headers must come within this
KEEPALIVE_S = 15.0           # an idle HTTP connection is closed after this
MAX_CONNECTIONS = 200        # open at once; past it the oldest silent one is closed, else the new one gets a 503
MAX_REFUSALS = 20            # refused frames from one page within REFUSAL_WINDOW_S: it is closed
REFUSAL_WINDOW_S = 10.0
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")

HEADERS = {
    # everything the page loads comes from this host; the picture's texts carry inline sizes
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


class _Texts(dict):
    """{role: the snapshot's JSON text}, each made on first use from {role: snapshot}."""

    def __init__(self, snaps):
        super().__init__()
        self.snaps = snaps

    def __bool__(self):
        return True                           # there are snapshots, made JSON or not yet

    def __missing__(self, role):
        text = self[role] = json.dumps(self.snaps[role], ensure_ascii=False, separators=(",", ":"))
        return text


def _files():
    out = {}
    for name, ctype in FILES.items():
        with open(os.path.join(STATIC, name), "rb") as f:
            out[name] = (f.read(), ctype)
    return out


class WebServer:
    """start() serves on host:port until stop(); publish(snapshot) from any thread."""

    def __init__(self, host="127.0.0.1", port=8765, pin=None, on_key=None, marshal_pin=None, names=(),
                 log=None, site=None):
        self.host, self.port = host, port
        self.site = site                      # /play/'s folder (`make site`'s); None: build/site
        self.gate = control.Gate(pin, marshal_pin=marshal_pin)
        self.control = pin is not None
        self.names = set(LOCAL_NAMES) | set(n.lower() for n in names)   # the Host names answered
        self.log = log                        # log(line): a line for the host's terminal (any thread)
        self.refused = 0                      # requests refused for their Host, connections over the cap
        self._seen = set()                    # transports that sent a whole request
        self._full = False                    # over MAX_CONNECTIONS: said once until it is not
        self.on_key = on_key                  # on_key(page, request): called on the server's thread
        self.files = _files()
        self.catalog = pagefile.catalog_json()             # /catalog.json, and in the page: the facts it draws with
        self.latest = None                    # the last snapshots, {role: JSON text}
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
        app = web.Application(client_max_size=control.MAX_FRAME, middlewares=[self._hosts, self._headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/state.json", self._state)
        app.router.add_get("/catalog.json", self._catalog)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/play", self._play_root)
        app.router.add_get("/play/{path:.*}", self._play)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0,
                                     keepalive_timeout=KEEPALIVE_S)
        await self._runner.setup()
        srv = self._runner.server
        made = srv.connection_made
        lost = srv.connection_lost

        def connection_made(handler, transport):
            made(handler, transport)
            if len(srv._connections) > MAX_CONNECTIONS:
                self.refused += 1
                idle = next((t for t in srv._connections.values() if t not in self._seen and t is not transport
                             and not t.is_closing()), None)
                if idle is not None:          # the oldest that never sent a request makes room: a real
                    if not self._full:        # page, which sends one at once, gets in
                        self._full = True
                        self._say("more than %d connections to the web view at once, most sending "
                                  "nothing: closing those first" % MAX_CONNECTIONS)
                    idle.close()
                    self.loop.call_later(HEADER_TIMEOUT_S, self._header_due, transport)
                    return
                if not self._full:
                    self._full = True
                    self._say("more than %d connections to the web view at once: refusing new ones" % MAX_CONNECTIONS)
                body = b"the web view has too many connections open: try again in a moment\n"
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                transport.close()
                return
            self.loop.call_later(HEADER_TIMEOUT_S, self._header_due, transport)

        def connection_lost(handler, exc=None):
            lost(handler, exc)
            self._seen.discard(handler.transport)
            if self._full and len(srv._connections) <= MAX_CONNECTIONS // 2:
                self._full = False
                self._say("the web view takes new connections again")
        srv.connection_made = connection_made
        srv.connection_lost = connection_lost
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

    def publish(self, snaps):
        """New snapshots, {role: snapshot} for every role of roles.ROLES, for every page (any
        thread).  Each is made JSON once, when a page of its role (or /state.json) first needs it."""
        if self.loop is not None and not self.loop.is_closed():
            try:
                self.loop.call_soon_threadsafe(self._broadcast, snaps)
            except RuntimeError:              # the loop closed meanwhile
                pass

    def _broadcast(self, snaps):
        self.latest = _Texts(snaps)
        for page in list(self.pages.values()):
            self._queue(page)

    def _queue(self, page):
        text = self.latest[page["role"]]
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

    def _say(self, line):
        if self.log is not None:
            try:
                self.log(line)
            except RuntimeError:
                pass

    def _header_due(self, transport):
        """HEADER_TIMEOUT_S after a connection opened: one that has not sent a whole request is closed."""
        if transport not in self._seen and not transport.is_closing():
            transport.close()

    # ------------------------------------------------------------ HTTP

    @web.middleware
    async def _hosts(self, request, handler):
        """Only the names this server serves (a DNS-rebinding page names another)."""
        if request.transport is not None:
            self._seen.add(request.transport)
        name = (request.host or "").lower()
        if name.startswith("["):
            name = name[1:].split("]", 1)[0]
        elif name.count(":") == 1:
            name = name.split(":", 1)[0]
        if name not in self.names:
            self.refused += 1
            raise web.HTTPMisdirectedRequest(text="this host serves the Osada web view as %s only, not as %r\n"
                                             % (" or ".join(sorted(self.names)), request.host[:80]))
        return await handler(request)

    @web.middleware
    async def _headers(self, request, handler):
        resp = await handler(request)
        for k, v in HEADERS.items():
            resp.headers.setdefault(k, v)
        return resp

    async def _index(self, request):
        """The page, with the snapshot a watcher draws already in it (issue 61 item 11): its first
        paint is the board, not "connecting…" while its WebSocket opens.  A JSON block, which no
        browser runs (the policy lets no inline script run either); "</" escaped inside it."""
        body, ctype = self.files["index.html"]
        blocks = [("catalog", self.catalog)]
        if self.latest is not None:
            blocks.append(("first", self.latest[roles.WATCHER]))
        body = pagefile.with_blocks(body, blocks)
        return web.Response(body=body, content_type=ctype, charset="utf-8")

    # Osada in the browser (issue 63): `make site`'s folder at /play/, the device in the page
    # (its worker runs the VM: the policy lets WebAssembly compile, from this host only)
    PLAY_CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
                "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; frame-ancestors 'none'")
    PLAY_TYPES = {".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                  ".wasm": "application/wasm", ".json": "application/json", ".bin": "application/octet-stream",
                  ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml"}

    async def _play_root(self, request):
        raise web.HTTPFound("/play/")

    async def _play(self, request):
        from osada.files import paths
        root = os.path.realpath(self.site or os.path.join(paths.OUTPUT, "site"))
        rel = request.match_info["path"] or "index.html"
        full = os.path.realpath(os.path.join(root, rel))
        if not os.path.isdir(root):
            return web.Response(status=404, text="Osada in the browser is not built here: run `make site` "
                                                 "(it writes build/site/), then open /play/ again")
        ext = os.path.splitext(full)[1]
        if not full.startswith(root + os.sep) or not os.path.isfile(full) or ext not in self.PLAY_TYPES:
            raise web.HTTPNotFound(text="no such file")
        with open(full, "rb") as f:
            body = f.read()
        resp = web.Response(body=body, content_type=self.PLAY_TYPES[ext])
        resp.headers["Content-Security-Policy"] = self.PLAY_CSP
        return resp

    async def _catalog(self, request):
        return web.Response(text=self.catalog, content_type="application/json")

    async def _static(self, request):
        name = request.match_info["name"]
        if name not in self.files or name == "index.html":
            raise web.HTTPNotFound(text="no such file")
        body, ctype = self.files[name]
        return web.Response(body=body, content_type=ctype, charset="utf-8")

    async def _state(self, request):
        if self.latest is None:
            return web.json_response({"t": "wait", "text": "the host has no board yet"}, status=503)
        return web.Response(text=self.latest[roles.WATCHER], content_type="application/json")

    # ------------------------------------------------------------ the live view

    async def _ws(self, request):
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="a page of another site may not open this view")
        ws = web.WebSocketResponse(max_msg_size=control.MAX_FRAME, heartbeat=20.0)
        await ws.prepare(request)
        page = {"ws": ws, "addr": request.remote or "?", "role": roles.WATCHER, "rate": control.Rate(),
                "next": None, "refusals": []}
        self.pages[ws] = page
        try:
            await ws.send_str(json.dumps({"t": "hello", "control": self.control}))
            if self.latest is not None:
                await ws.send_str(self.latest[roles.WATCHER])
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._frame(page, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await self._refuse(page, "only JSON text frames are read")
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

    async def _refuse(self, page, why):
        """A refused frame: its sentence to that page; one that floods them is closed, with a sentence."""
        now = self.loop.time()
        page["refusals"] = [t for t in page["refusals"] if now - t < REFUSAL_WINDOW_S] + [now]
        if len(page["refusals"]) > MAX_REFUSALS:
            self.pages.pop(page["ws"], None)
            await page["ws"].close(code=1008, message=("closed: more than %d refused frames in %d s"
                                                       % (MAX_REFUSALS, REFUSAL_WINDOW_S)).encode())
            return
        await self._tell(page, False, "refused: %s" % why)

    async def _frame(self, page, text):
        try:
            req = control.check(text)
        except control.Refused as exc:
            await self._refuse(page, str(exc))
            return
        if req[0] == "pin":
            was = self.gate.guessing
            role, why = self.gate.try_pin(page["addr"], req[1])
            if self.gate.guessing is not None and self.gate.guessing != was and (
                    was is None or self.gate.guessing - was > control.PIN_WINDOW_S):
                self._say("someone is guessing the web view's PIN: no PIN is checked for a while "
                          "(pages already unlocked go on)")
            if role is None and not why.startswith("wrong PIN"):
                await self._refuse(page, why)
                return
            if role is not None:
                page["role"] = role
            await self._tell(page, role is not None, why)
            if role is not None and self.latest is not None:
                self._queue(page)             # what this role sees, at once
            return
        if not self.control:
            await self._refuse(page, "this host takes no actions from pages (no --control)")
        elif not roles.may_act(page["role"]):
            await self._refuse(page, "enter the PIN the host printed first")
        elif req[0] == "marshal" and not roles.plays_marshal(page["role"]):
            await self._refuse(page, "the field marshal's play is his alone: from his own page (his PIN)")
        elif not page["rate"].take():
            await self._refuse(page, "too many keys at once (at most %d a second)" % control.KEYS_PER_S)
        elif self.on_key is None:
            await self._refuse(page, "nothing takes keys here")
        else:
            self.on_key(req)
            await self._tell(page, True, "sent")
