"""Keys from a terminal: what one read of stdin holds, split into its keys
(several keys typed quickly, pasted, or sent by tmux or SSH arrive in one
read), escape sequences whole.  `osada sim`'s window and the watch commands'
keys (osada.link.watching) read them so.  And whether there is a terminal
at all (no_terminal: the full-screen commands refuse to start without one)."""

import sys
import time


def no_terminal(instead):
    """Why a full-screen command (it draws the whole window and reads keys)
    cannot run here, or None when stdin and stdout are both terminals.
    instead: what to use in a script, in words."""
    def tty(f):
        try:
            return f is not None and f.isatty()
        except (AttributeError, ValueError):       # closed, or not a file at all
            return False
    ins, outs = tty(sys.stdin), tty(sys.stdout)
    if ins and outs:
        return None
    which = "stdin is not" if outs else "stdout is not" if ins else "neither stdin nor stdout is"
    return "it needs a terminal, and here %s one: run it in a terminal, or in a script use %s" % (which, instead)


class KeyParser:
    """Terminal bytes -> keys.  An escape sequence is one key, never its
    letters: ESC [ A (and ESC O A, as terminals in application mode send it)
    is "up", not a press of A.  Keys: one-byte bytes objects (b"a", b"\r"),
    or "up", "down", "right", "left"; other sequences (F-keys, Home, Alt+x,
    mouse reports) are dropped whole, or with `unknown` given are that key
    (to say that they mean nothing).  A sequence split across reads is
    completed by the next feed(); a lone ESC is dropped once `expire(now)`
    finds it older than ESC_WAIT seconds."""

    ESC_WAIT = 0.3
    ARROWS = {b"A": "up", b"B": "down", b"C": "right", b"D": "left"}

    def __init__(self, unknown=None):
        self.unknown = unknown
        self.pending = b""
        self.since = 0.0

    def feed(self, data, now=None):
        now = time.monotonic() if now is None else now
        if not self.pending:
            self.since = now
        buf = self.pending + bytes(data)
        self.pending = b""
        keys = []
        i = 0
        n = len(buf)
        while i < n:
            if buf[i] != 0x1B:
                keys.append(buf[i:i + 1])
                i += 1
                continue
            end, key = self._escape(buf, i)
            if end is None:                       # incomplete: wait for the rest
                self.pending = buf[i:]
                if i:
                    self.since = now
                break
            if key is not None:
                keys.append(key)
            elif self.unknown is not None:
                keys.append(self.unknown)
            i = end
        return keys

    def _escape(self, buf, i):
        """(index after the sequence starting at buf[i] == ESC, its key or None);
        (None, None) when the buffer ends inside it."""
        n = len(buf)
        if i + 1 >= n:
            return None, None
        kind = buf[i + 1:i + 2]
        if kind == b"O":                          # SS3: one final byte
            if i + 2 >= n:
                return None, None
            return i + 3, self.ARROWS.get(buf[i + 2:i + 3])
        if kind == b"[":                          # CSI: parameters, intermediates, a final byte
            j = i + 2
            while j < n and 0x20 <= buf[j] <= 0x3F:
                j += 1
            if j >= n:
                return None, None
            if not 0x40 <= buf[j] <= 0x7E:        # malformed: drop what was read so far
                return j, None
            return j + 1, self.ARROWS.get(buf[j:j + 1])
        if kind == b"\x1b":                       # ESC ESC: the first one was a lone Escape
            return i + 1, None
        return i + 2, None                        # Alt+key: not one of ours

    def expire(self, now=None):
        """Drop an unfinished sequence (a lone Escape key) after ESC_WAIT s:
        the keys that makes (`unknown`, if given, for what was dropped)."""
        now = time.monotonic() if now is None else now
        if self.pending and now - self.since > self.ESC_WAIT:
            self.pending = b""
            return [] if self.unknown is None else [self.unknown]
        return []
