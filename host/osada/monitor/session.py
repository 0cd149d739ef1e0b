"""The serial session: the Link (osada.link) connected, polled, reconnected
every RETRY_S; what it hears is posted to the app as messages."""

import queue
import threading
import time

from textual.message import Message

from osada.link.client import Link, ProtocolError
from osada.link.ports import SerialTransport

RETRY_S = 0.5                 # reconnect / look for the device this often
REPLY_TIMEOUT_S = 5.0         # a request unanswered this long: the device is gone

class NoDevice(OSError):
    pass


class Session:
    """The Link, run by the app in a thread worker (`run`).  The UI calls
    submit(); what the link hears is posted as messages (below) to `post`
    (the app's post_message; by default the queue `updates`, for use with no
    app).  Status kinds: connected / lost / nodevice / cantopen / noanswer /
    mismatch."""

    class StateChanged(Message):
        """A new state from the device."""

        def __init__(self, seq, state):
            super().__init__()
            self.seq, self.state = seq, state

    class Pushed(Message):
        """An event the device pushed (`{"ev": ...}`)."""

        def __init__(self, msg):
            super().__init__()
            self.msg = msg

    class Reply(Message):
        """The device's reply to a request of ours (or its failure to go out)."""

        def __init__(self, cmd, fields, msg):
            super().__init__()
            self.cmd, self.fields, self.msg = cmd, fields, msg

    class Status(Message):
        """The connection changed: kind, a sentence, the port, the device's hello."""

        def __init__(self, kind, text, port, hello):
            super().__init__()
            self.kind, self.text, self.port, self.hello = kind, text, port, hello

    def __init__(self, resolve, retry=RETRY_S, transport=SerialTransport, post=None):
        self.resolve = resolve
        self.retry = retry
        self.transport = transport
        self.updates = queue.Queue()
        self.post = post or self.updates.put
        self.outq = queue.Queue()
        self.port = None
        self.waiting = {}                       # request id -> (cmd, fields, time sent)
        self.was_connected = False
        self.last_status = None
        self._stop = threading.Event()
        self._done = threading.Event()
        self._done.set()                        # not running
        self.link = Link(self._open, on_message=self._on_message)

    def stop(self, wait=3.0):
        """Ask `run` to return, and wait (up to `wait` s) until it has."""
        self._stop.set()
        self._done.wait(wait)
        self.link.close()

    def halt(self):
        """Ask `run` to return (it stops looking for the device), without waiting."""
        self._stop.set()

    def submit(self, cmd, **fields):
        self.outq.put((cmd, fields))

    # ------------------------------------------------ on the worker's thread

    def _open(self):
        port = self.resolve()
        self.port = port
        return self.transport(port)

    def _status(self, kind, text):
        key = (kind, text)
        if key == self.last_status:
            return
        self.last_status = key
        self.post(self.Status(kind, text, self.port, self.link.mirror.hello))

    def _on_message(self, msg):
        ev = msg.get("ev")
        if ev == "state":
            if isinstance(msg.get("state"), dict):
                self.post(self.StateChanged(msg.get("seq"), msg["state"]))
        elif ev is not None:
            self.post(self.Pushed(msg))
        elif "ok" in msg:
            if msg.get("ok") and isinstance(msg.get("state"), dict):
                self.post(self.StateChanged(msg.get("seq"), msg["state"]))
            w = self.waiting.pop(msg.get("id"), None)
            if w is not None:
                self.post(self.Reply(w[0], w[1], msg))

    def _fail_queued(self, why):
        while True:
            try:
                cmd, fields = self.outq.get_nowait()
            except queue.Empty:
                break
            self.post(self.Reply(cmd, fields, {"ok": False, "error": why}))
        for rid, (cmd, fields, _t) in list(self.waiting.items()):
            self.post(self.Reply(cmd, fields, {"ok": False, "error": why}))
        self.waiting = {}

    def _lost(self, why):
        self._fail_queued("not sent: no device (%s)" % why)
        self._status("lost", why)

    def _connect(self):
        try:
            self.link.connect()                 # hello (version check), then a full state
        except ProtocolError as exc:
            self._fail_queued("not sent: the device speaks another protocol")
            self._status("mismatch", str(exc))
            self._stop.wait(max(self.retry, 2.0))
            return
        except OSError as exc:                  # NoDevice, TimeoutError and the port's own errors
            if self.was_connected:
                self._lost(str(exc))            # keep saying "lost" until it is back
            elif isinstance(exc, NoDevice):
                self._status("nodevice", str(exc))
            elif isinstance(exc, TimeoutError):
                self._status("noanswer", "%s does not answer (%s): is it running the Osada firmware?"
                             % (self.port, exc))
            else:
                self._status("cantopen", str(exc))
            self._fail_queued("not sent: no device")
            self._stop.wait(self.retry)
            return
        self.was_connected = True
        self.waiting = {}
        self._status("connected", "connected")

    def run(self):
        """Connect, poll, reconnect until stop(): the app runs this in a thread worker."""
        self._done.clear()
        try:
            self._loop()
        finally:
            self.link.close()
            self._done.set()

    def _loop(self):
        link = self.link
        while not self._stop.is_set():
            if not link.connected:
                self._connect()
                continue
            try:
                while True:
                    cmd, fields = self.outq.get_nowait()
                    rid = link.send(cmd, **fields)
                    self.waiting[rid] = (cmd, fields, time.monotonic())
            except queue.Empty:
                pass
            except OSError as exc:
                self.post(self.Reply(cmd, fields, {"ok": False, "error": "not sent: %s" % exc}))
                self._lost(str(exc))
                continue
            link.poll()                         # at most ~20 ms (the transport's timeout)
            link.replies.clear()                # ours went through _on_message already
            if not link.connected:
                self._lost(link.error or "connection lost")
                continue
            now = time.monotonic()
            for rid, (cmd, _f, t) in list(self.waiting.items()):
                if now - t > REPLY_TIMEOUT_S:
                    link.drop()
                    self._lost("no reply to %r within %.0f s" % (cmd, REPLY_TIMEOUT_S))
                    break
