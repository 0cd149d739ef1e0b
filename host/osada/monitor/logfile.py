"""The event log kept between sessions: what the monitor's log showed is
there again the next time it starts (`make run` after `q`), above a line
that says so.  One JSON line per entry ([line, style]), appended as the log
grows; cut to its last KEEP entries when it has twice as many.  A file that
cannot be written or read costs the history only, never the session."""

import json
import os

KEEP = 1000


class LogFile:
    def __init__(self, path):
        self.path = path
        self.broken = False
        self.torn = False             # the file ends inside a line: the next entry starts a new one

    def load(self):
        """The entries kept, oldest first: [(line, style)] ([] if none or unreadable)."""
        try:
            with open(self.path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            return []
        self.torn = bool(text) and not text.endswith("\n")
        rows = text.splitlines()
        out = []
        for row in rows:
            try:
                line, style = json.loads(row)
            except (ValueError, TypeError):
                continue                               # a torn last line (a crash while writing)
            if isinstance(line, str) and (style is None or isinstance(style, str)):
                out.append((line, style))
        if len(out) > 2 * KEEP:
            out = out[-KEEP:]
            self._write(out)
            self.torn = False
        return out

    def _write(self, entries):
        try:
            tmp = self.path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.writelines(json.dumps([line, style], ensure_ascii=False) + "\n" for line, style in entries)
            os.replace(tmp, self.path)
        except OSError:
            self.broken = True

    def append(self, line, style):
        if self.broken:
            return
        try:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(("\n" if self.torn else "") + json.dumps([line, style], ensure_ascii=False) + "\n")
            self.torn = False
        except OSError:
            self.broken = True                         # say nothing more: the session goes on
