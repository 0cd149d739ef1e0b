# The USB protocol's framing: JSON lines in, JSON lines out (firmware/README.md).
#
# Nothing a host sends can crash the loop or grow memory without bound:
# lines are capped at max_line bytes (a longer one is dropped whole and
# answered with an error), bytes that are not UTF-8 JSON objects are answered
# with an error, and output waits in a bounded outbox that is drained a
# little at a time, so a host that never reads cannot block the device.

import json

PROTOCOL_VERSION = 1

try:
    bytearray().extend("-")    # MicroPython: a str is a buffer of its UTF-8 bytes
    _STR_IS_BYTES = True       # so a line goes into the outbox without a copy
except TypeError:              # CPython
    _STR_IS_BYTES = False


# The one home of the line framing: the host's Decoder (host/osada/link/client.py)
# cuts the device's replies with this same class (tests/test_one_home.py).
class LineReader:
    """Bytes in, complete lines out (without the line end).

    A line ends with LF, CR (terminals such as `screen` send only that on
    Enter) or CRLF, which counts as one end even when the CR and the LF come
    in separate reads.  A UTF-8 byte order mark at the start of a line is
    dropped."""

    TOO_LONG = None            # what feed() puts out for a line over the limit
    BOM = b"\xef\xbb\xbf"

    def __init__(self, max_line):
        self.max = max_line
        self.buf = bytearray()
        self.dropping = False
        self.after_cr = False      # the last byte seen was a CR: a LF next is its pair

    def reset(self):
        """Forget a partial line (its sender went away mid-line)."""
        self.buf = bytearray()
        self.dropping = False
        self.after_cr = False

    def partial(self):
        return len(self.buf) > 0 or self.dropping

    def pending(self):
        """Bytes of the partial line held (for the message when it is dropped)."""
        return len(self.buf)

    def feed(self, data, out):
        start = 0
        n = len(data)
        if n and self.after_cr and data[0] == 10:
            start = 1                          # the LF of a CRLF split across reads
        self.after_cr = False
        lf = -1
        cr = -1
        while start < n:
            if lf < start:
                lf = data.find(b"\n", start)
                if lf < 0:
                    lf = n
            if cr < start:
                cr = data.find(b"\r", start)
                if cr < 0:
                    cr = n
            end = lf if lf < cr else cr
            self._take(data, start, end, out)
            if end >= n:
                return
            self._end_line(out)
            start = end + 1
            if end == cr:                      # CR: a LF right after it is the same line end
                if start >= n:
                    self.after_cr = True
                elif data[start] == 10:
                    start += 1


    def _take(self, data, start, end, out):
        """data[start:end] is more of the current line."""
        if self.dropping:
            return
        if len(self.buf) + (end - start) > self.max:
            self.dropping = True
            self.buf = bytearray()
            out.append(self.TOO_LONG)
        else:
            self.buf.extend(data[start:end])

    def _end_line(self, out):
        if self.dropping:
            self.dropping = False              # the overlong line ends here
            return
        line = bytes(self.buf)
        if line.startswith(self.BOM):
            line = line[3:]
        line = line.strip()
        if line:
            out.append(line)
        self.buf = bytearray()


class CommandError(Exception):
    """A request the device understood and refuses (a game's own checks,
    the device's state): its message goes back to the host as the error."""


class RequestError(ValueError):
    """A request the device cannot take; rid is its id when that was readable."""

    def __init__(self, rid, message):
        super().__init__(message)
        self.rid = rid


def parse_request(line):
    """A line -> (id, request dict).  Raises RequestError with a message for
    the host when the line is not a JSON object with a string 'cmd'."""
    try:
        text = line.decode("utf-8")
    except UnicodeError:
        raise RequestError(None, "not UTF-8 text")
    try:
        req = json.loads(text)
    except (ValueError, RuntimeError, IndexError):
        raise RequestError(None, "not valid JSON")
    if not isinstance(req, dict):
        raise RequestError(None, "a request is a JSON object {\"id\": n, \"cmd\": ...}")
    rid = req.get("id")
    if rid is not None and (not isinstance(rid, int) or isinstance(rid, bool)
                            or rid < -(1 << 30) or rid >= (1 << 30)):
        raise RequestError(None, "id must be an integer")
    cmd = req.get("cmd")
    if not isinstance(cmd, str):
        raise RequestError(rid, "missing 'cmd'")
    return rid, req


class Outbox:
    """Lines waiting for the host.  Bounded: when a host stops reading, new
    lines are dropped and counted, and an {"ev": "overflow"} tells the host
    to resync with a full `state` once it reads again.

    An object is written by the runtime's own (C) json.dumps, and that text
    is what waits: the lines are kept as the texts they are, each sent with
    a line end after it, from an offset into the first.  So a push allocates
    its text and nothing more (on MicroPython a str is sent as the bytes it
    is; on CPython it is encoded once), where copying it into one buffer
    cost as much again at the moment of an action's heaviest allocation.
    Key order is whatever the runtime's dict gives (a JSON object has none);
    the canonical text (shared_rules/jsonout.py) is the host's and the
    tests', as writing it in Python took 12.6 ms of a Pico's 15 ms state
    push against 1.5 ms for json.dumps."""

    def __init__(self, limit=6144):
        self.lines = []            # the texts waiting (memoryviews of their bytes), oldest first
        self.head = 0              # bytes of lines[0] already sent; len + 1 once its line end is
        self.size = 0              # bytes waiting: the texts and their line ends, less what is sent
        self.limit = limit
        self.dropped = 0

    def put(self, data):
        """Queue one line: a dict (written as JSON), str or bytes.  Returns
        False when it did not fit (counted, and said later).  An object
        json.dumps refuses raises, and nothing is queued."""
        if isinstance(data, dict):
            data = json.dumps(data)
        if not _STR_IS_BYTES and isinstance(data, str):
            data = data.encode("utf-8")
        line = memoryview(data)        # its bytes (a str's UTF-8 on MicroPython), no copy
        n = len(line) + 1
        note = None
        if self.dropped:
            note = '{"ev": "overflow", "dropped": %d}' % self.dropped
            note = memoryview(note if _STR_IS_BYTES else note.encode())
            n += len(note) + 1
        if self.size + n > self.limit:
            self.dropped += 1
            return False
        if note is not None:
            self.lines.append(note)
        self.lines.append(line)
        self.size += n
        self.dropped = 0
        return True

    def pump(self, serial, clock, budget_ms):
        """Write what the host takes, for at most budget_ms."""
        lines = self.lines
        if not lines:
            return
        t0 = clock.ticks_ms()
        while lines:
            line = lines[0]
            end = len(line)
            head = self.head
            if head == 0 and end <= 256:   # most lines: written as they are
                n = serial.write(line)
            elif head < end:
                n = serial.write(line[head:head + 256])
            else:
                n = serial.write(b"\n")
            if not n:
                return
            self.size -= n
            if head + n > end:             # its line end went too: the next line
                lines.pop(0)
                self.head = 0
            else:
                self.head = head + n
            if clock.diff(clock.ticks_ms(), t0) >= budget_ms:
                return

    def pending(self):
        return self.size
