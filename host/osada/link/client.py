"""The host side of the USB protocol (firmware/README.md), independent of any port.

    Decoder   bytes in, messages out: splits lines, skips what is not a JSON
              object (reported, never raised), survives torn and corrupted streams
    Mirror    the host's model of the device: the latest full state, its seq,
              the event log; knows when it must resync
    Link      requests and replies over a transport (pyserial, or anything
              with read(n)/write(b)); reconnects and resyncs

Everything here is tested by feeding recorded byte streams, torn and
corrupted ones included (tests/host/test_client.py)."""

import json
import time

from osada_fw.protocol import PROTOCOL_VERSION  # the device's own: one number for both ends

MAX_LINE = 1 << 20          # far above anything the device sends; a guard only
PICO_VIDS = (0x2E8A,)       # Raspberry Pi: Pico and Pico 2 under MicroPython
SIM_LINK = "/tmp/osada-sim"


class ProtocolError(Exception):
    pass


class Decoder:
    """Bytes in, messages (dicts) out.  Lines that are not JSON objects are
    counted in `bad` and kept in `last_bad`, never raised."""

    def __init__(self):
        self.buf = bytearray()
        self.bad = 0
        self.last_bad = None
        self.after_cr = False      # a LF first in the next read ends nothing (CRLF)

    def feed(self, data):
        """A line ends with LF, CR or CRLF (one end, even split across reads);
        a UTF-8 byte order mark at the start of a line is dropped."""
        out = []
        if data and self.after_cr and data[:1] == b"\n":
            data = data[1:]
        self.after_cr = False
        self.buf.extend(data)
        while True:
            lf = self.buf.find(b"\n")
            cr = self.buf.find(b"\r")
            end = cr if (cr >= 0 and (lf < 0 or cr < lf)) else lf
            if end < 0:
                if len(self.buf) > MAX_LINE:
                    self._bad(bytes(self.buf[:80]))
                    self.buf = bytearray()
                return out
            line = bytes(self.buf[:end])
            skip = end + 1
            if end == cr:
                if skip < len(self.buf):
                    if self.buf[skip] == 10:
                        skip += 1
                else:
                    self.after_cr = True
            del self.buf[:skip]
            if line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            line = line.strip()
            if not line:
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

    def _bad(self, sample):
        self.bad += 1
        self.last_bad = sample

    def reset(self):
        """A new connection: a torn line from the old one must not be glued on."""
        self.buf = bytearray()
        self.after_cr = False


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


# ------------------------------------------------------------ the transport


class PortError(OSError):
    """A port that cannot be used, with one sentence saying why."""


class PortBusy(PortError):
    """Another process holds the port (its exclusive lock)."""

    def __init__(self, port, holders):
        self.port = port
        self.holders = holders           # [(pid, what it is)]
        if holders:
            who = ", ".join("%s (pid %d)" % (what, pid) for pid, what in holders)
            msg = "%s is busy: %s has it open; quit that first (or use it)" % (port, who)
        else:
            msg = "%s is busy: another program has it open; quit that first" % port
        super().__init__(msg)


def describe_pid(pid):
    """A short name for a process: `osada monitor`, `screen /dev/ttyACM0`..."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            args = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except (OSError, ValueError):
        return "process"
    import os
    for k, a in enumerate(args):
        if a == "osada.cli" or os.path.basename(a) == "osada":
            sub = [x for x in args[k + 1:] if not x.startswith("-")][:1]
            return " ".join(["osada"] + sub)
    if not args:
        return "process"
    text = " ".join([os.path.basename(args[0])] + args[1:])
    return text if len(text) <= 60 else text[:57] + "..."


def describe_sim(pid):
    """describe_pid, plus the osada process that started it, if one did
    (the monitor starts its own simulator)."""
    what = describe_pid(pid)
    try:
        with open("/proc/%d/stat" % pid) as f:
            ppid = int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return what
    parent = describe_pid(ppid)
    if parent.startswith("osada"):
        what += ", started by %s (pid %d)" % (parent, ppid)
    return what


def port_holders(port):
    """[(pid, what)] of the processes holding an flock on `port` (Linux: /proc/locks)."""
    import os
    try:
        st = os.stat(port)
        want = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
        with open("/proc/locks") as f:
            rows = f.read().splitlines()
    except (OSError, AttributeError):
        return []
    out = []
    for row in rows:
        parts = row.split()
        # "1: FLOCK  ADVISORY  WRITE 8330 00:1a:3 0 EOF"; a waiter's line has a "->" more
        if "->" in parts or len(parts) < 6 or parts[1] != "FLOCK":
            continue
        try:
            pid = int(parts[4])
        except ValueError:
            continue
        if parts[5] == want and pid not in [p for p, _ in out]:
            out.append((pid, describe_pid(pid)))
    return out


def sim_owner(link):
    """The pid of the live simulator that made `link`, or None.  A simulator
    holds an exclusive flock on link + ".pid" while it runs (sim.py), so a
    killed one (even with its pid reused since) is told apart from a live one."""
    import os
    try:
        fd = os.open(link + ".pid", os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            import fcntl
        except ImportError:             # no flock here: trust the pid alone
            fcntl = None
        held = True
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                held = True
            except OSError:
                held = False
            else:
                held = False
                fcntl.flock(fd, fcntl.LOCK_UN)
        try:
            pid = int(os.read(fd, 64).split()[0])
        except (OSError, ValueError, IndexError):
            return None
        if fcntl is None:
            try:
                os.kill(pid, 0)
            except OSError:
                return None
        return pid if held else None
    finally:
        os.close(fd)


def check_port(port):
    """Raise PortError with a clear sentence if `port` is missing, a dangling
    link, or the link of a simulator that is no longer running."""
    import os
    is_sim_link = os.path.islink(port) and os.path.lexists(port + ".pid")
    if is_sim_link and sim_owner(port) is None:
        raise PortError("%s is the link of a simulator that is no longer running (a stale link): "
                        "start one with `osada sim` or `make run`" % port)
    if os.path.islink(port) and not os.path.exists(port):
        raise PortError("cannot open %s: it is a link to %s, which does not exist"
                        % (port, os.readlink(port)))
    if not os.path.exists(port):
        raise PortError("cannot open %s: no such port (is the board plugged in?)" % port)


def open_serial(port, timeout=0.02, write_timeout=1.0):
    """pyserial on `port`, locked against other osada processes (an exclusive
    flock, as pyserial does it).  Raises PortError with a clear sentence:
    missing, stale simulator link, busy (and who holds it), or the OS's reason."""
    import errno
    import os

    import serial
    check_port(port)
    kw = {"exclusive": True} if os.name == "posix" else {}
    try:
        return serial.Serial(port, 115200, timeout=timeout, write_timeout=write_timeout, **kw)
    except serial.SerialException as exc:
        if "exclusively lock" in str(exc):
            raise PortBusy(port, port_holders(port))
        reason = os.strerror(exc.errno) if isinstance(exc.errno, int) else str(exc)
        if exc.errno == errno.EACCES:
            reason = "permission denied (on Linux: add yourself to the dialout group)"
        raise PortError("cannot open %s: %s" % (port, reason))
    except (OSError, ValueError) as exc:
        raise PortError("cannot open %s: %s" % (port, exc))


# what a port that fails once open means, said as a person would: pyserial's
# own words ("device reports readiness to read but returned no data (device
# disconnected or multiple access on port?)", "read failed: [Errno 5] ...")
# never reach the user
DEVICE_GONE = "the device went away: the USB cable was unplugged or the board reset"
DEVICE_STUCK = "the device took no data for 1 s: is it stuck? (unplug it and plug it in again)"


class SerialTransport:
    """pyserial, non-blocking-ish: reads return what is there within `timeout`.
    A read or write that fails raises OSError(DEVICE_GONE) (DEVICE_STUCK when
    a write timed out)."""

    def __init__(self, port, timeout=0.02):
        self.port = port
        self.s = open_serial(port, timeout=timeout, write_timeout=1.0)

    def read(self, n):
        try:
            waiting = self.s.in_waiting      # an ioctl: a plain OSError when the device is gone
            return self.s.read(max(1, min(n, waiting)) if waiting else 1)
        except (OSError, TypeError):         # serial.SerialException is an OSError
            raise OSError(DEVICE_GONE) from None

    def write(self, data):
        import serial
        try:
            self.s.write(data)
        except serial.SerialTimeoutException:
            raise OSError(DEVICE_STUCK) from None
        except (OSError, TypeError):
            raise OSError(DEVICE_GONE) from None

    def close(self):
        self.s.close()


def find_device():
    """A Pico running MicroPython (by USB vendor id), else a running simulator's link."""
    try:
        from serial.tools import list_ports
        for p in sorted(list_ports.comports(), key=lambda p: p.device):
            if p.vid in PICO_VIDS:
                return p.device
    except ImportError:
        pass
    if sim_alive(SIM_LINK):
        return SIM_LINK
    return None


def sim_alive(link):
    """A simulator's link is trusted only while the simulator that made it runs:
    a link left by a killed one may point at a pty someone else now uses."""
    import os
    return sim_owner(link) is not None and os.path.exists(link)


def serial_link(port, **kw):
    return Link(lambda: SerialTransport(port), **kw)
