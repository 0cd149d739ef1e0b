"""The host side of the USB protocol (firmware/README.md), independent of any port.

    Decoder   bytes in, messages out: lines cut as the device cuts them (its
              LineReader), skips what is not a JSON object (reported, never
              raised), survives torn and corrupted streams
    Mirror    the host's model of the device: the latest full state, its seq,
              the event log; knows when it must resync
    Link      requests and replies over a transport (pyserial, or anything
              with read(n)/write(b)); reconnects and resyncs

The serial ports a Link runs over (a Pico's, the simulator's) are ports.py's.
Everything here is tested by feeding recorded byte streams, torn and
corrupted ones included (tests/host/link/test_client.py)."""

import json
import time

# the device's own: one protocol number and one line framing for both ends
from osada_fw.link.protocol import PROTOCOL_VERSION, LineReader

MAX_LINE = 1 << 20          # far above anything the device sends; a guard only


class ProtocolError(Exception):
    pass


class Decoder:
    """Bytes in, messages (dicts) out.  The lines are cut by the device's own
    LineReader (osada_fw/link/protocol.py), the one home of the framing: a
    line ends with LF, CR or CRLF (one end, even split across reads), a UTF-8
    byte order mark at its start is dropped, and a line over MAX_LINE is
    dropped whole.  Lines that are not JSON objects, an over-long one
    included, are counted in `bad` and kept in `last_bad`, never raised."""

    def __init__(self):
        self.lines = LineReader(MAX_LINE)
        self.bad = 0
        self.last_bad = None

    def feed(self, data):
        """The messages the lines completed by data hold."""
        lines = []
        self.lines.feed(data, lines)
        out = []
        for line in lines:
            if line is LineReader.TOO_LONG:
                self._bad(b"(a line over %d bytes, dropped)" % MAX_LINE)
                continue
            try:
                msg = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self._bad(line[:80])
                continue
            if not isinstance(msg, dict):
                self._bad(line[:80])
                continue
            out.append(msg)
        return out

    def _bad(self, sample):
        self.bad += 1
        self.last_bad = sample

    def reset(self):
        """A new connection: a torn line from the old one must not be glued on."""
        self.lines.reset()


class Mirror:
    """The host's picture of the device, built from what it pushes."""

    def __init__(self, log_size=500):
        self.state = None
        self.seq = None
        self.hello = None
        self.log = []             # (monotonic time, event dict), oldest first
        self.log_size = log_size
        self.stale = True         # no trusted state (not yet, or connection lost)
        self.need_resync = True
        self.updated = 0.0        # monotonic time of the last state change

    def apply(self, msg):
        """Take one message from the device.  Returns True if the state changed."""
        ev = msg.get("ev")
        if ev is None:
            if msg.get("ok") and isinstance(msg.get("state"), dict):
                return self._set(msg["state"], msg.get("seq"))
            return False
        if ev == "state":
            return self._set(msg.get("state"), msg.get("seq"))
        if ev == "overflow":
            self.need_resync = True          # the device dropped lines: fetch a full state
        elif ev == "boot":
            self.need_resync = True
        self.log.append((time.monotonic(), msg))
        if len(self.log) > self.log_size:
            del self.log[:len(self.log) - self.log_size]
        return False

    def _set(self, state, seq):
        if not isinstance(state, dict):
            return False
        self.state = state
        self.seq = seq
        self.stale = False
        self.need_resync = False
        self.updated = time.monotonic()
        return True

    def lost(self):
        """The connection went away: keep the last board, marked stale."""
        self.stale = True
        self.need_resync = True


def request_line(req):
    """A request as the line sent: compact JSON (no spaces: the Pico reads
    USB a byte at a time, ~0.1 ms each), UTF-8, newline-terminated."""
    return (json.dumps(req, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class Link:
    """Requests, replies and pushed messages over one transport.

    transport: an object with read(n) -> bytes (may return b"" at once or
    after a short timeout), write(data), and close(); opener: a function that
    returns a fresh transport (for reconnecting), raising OSError while the
    device is away."""

    def __init__(self, opener, mirror=None, on_message=None, timeout=2.0):
        self.opener = opener
        self.timeout = timeout             # s to wait for a reply unless a call says: a board answers in ms
        self.transport = None
        self.decoder = Decoder()
        self.mirror = mirror if mirror is not None else Mirror()
        self.on_message = on_message
        self.next_id = 1
        self.replies = {}
        self.error = None
        self.version_error = None

    # ----------------------------------------------------------- connection

    @property
    def connected(self):
        return self.transport is not None

    def connect(self):
        """Open the port and sync; raises OSError if the device is not there,
        ProtocolError if it speaks another protocol version."""
        self.transport = self.opener()
        self.decoder.reset()
        self.replies = {}
        try:
            hello = self.request("hello")
            if hello.get("protocol") != PROTOCOL_VERSION:
                self.version_error = ("the device speaks protocol %r, this osada speaks %d: "
                                      "update the %s" % (hello.get("protocol"), PROTOCOL_VERSION,
                                                         "firmware (make flash)"
                                                         if (hello.get("protocol") or 0) < PROTOCOL_VERSION
                                                         else "host tool (git pull; make setup)"))
                raise ProtocolError(self.version_error)
            self.mirror.hello = hello
            self.resync()
        except (OSError, ProtocolError, TimeoutError):
            self.drop()
            raise

    def resync(self):
        reply = self.request("state")
        self.mirror.apply(reply)

    def drop(self):
        if self.transport is not None:
            try:
                self.transport.close()
            except OSError:
                pass
        self.transport = None
        self.mirror.lost()

    def close(self):
        self.drop()

    # ------------------------------------------------------------- traffic

    def send(self, cmd, **fields):
        """Send a request; returns its id.  The reply arrives through poll()."""
        if self.transport is None:
            raise OSError("not connected")
        rid = self.next_id
        self.next_id += 1
        req = {"id": rid, "cmd": cmd}
        req.update(fields)
        try:
            self.transport.write(request_line(req))
        except OSError:
            self.drop()
            raise
        return rid

    def poll(self, max_bytes=65536):
        """Read what is there and dispatch it.  Returns the messages read.
        A read error drops the connection (the mirror goes stale)."""
        if self.transport is None:
            return []
        try:
            data = self.transport.read(max_bytes)
        except OSError as exc:
            self.error = str(exc)
            self.drop()
            return []
        if not data:
            return []
        msgs = self.decoder.feed(data)
        for msg in msgs:
            if "ok" in msg and msg.get("id") is not None:
                self.replies[msg["id"]] = msg
                if len(self.replies) > 64:       # replies nobody waited for (auto-resync)
                    del self.replies[next(iter(self.replies))]
            self.mirror.apply(msg)
            if self.on_message is not None:
                self.on_message(msg)
        if self.mirror.need_resync and not self.mirror.stale:
            self.send("state")                  # its reply updates the mirror
            self.mirror.need_resync = False
        return msgs

    def wait_reply(self, rid, timeout=None):
        if timeout is None:
            timeout = self.timeout
        end = time.monotonic() + timeout
        while rid not in self.replies:
            if self.transport is None:
                raise OSError(self.error or "connection lost")
            if time.monotonic() > end:
                raise TimeoutError("no reply from the device within %.1f s" % timeout)
            self.poll()
        return self.replies.pop(rid)

    def request(self, cmd, timeout=None, **fields):
        """Send and wait for the reply; returns it (ok true or false)."""
        return self.wait_reply(self.send(cmd, **fields), timeout)

    def fetch_log(self):
        """The device's game so far as a scenario: its setup plus every action."""
        scenario = None
        start = 0
        while start is not None:
            reply = self.request("log", **{"from": start})
            if not reply.get("ok"):
                raise ProtocolError(reply.get("error", "log refused"))
            if scenario is None:
                scenario = dict(reply["setup"])
                scenario["actions"] = []
            scenario["actions"].extend(reply["actions"])
            start = reply.get("next")
        return scenario
