"""The event log kept between sessions: what the monitor's log showed of the
game is there again the next time it starts (`make run` after `q`), above a
line that says so; the session's own lines (connected, the simulator started,
the web view's address) are not kept, or every start would pad it (issue 61
item 10).  One JSON line per entry ([line, style]), appended as the log grows;
cut to its last KEEP entries when it has twice as many.  One monitor at a time
keeps it: a second one running beside it (another terminal) keeps its log in
memory only, and says so, rather than mix the two.  A file that cannot be
written or read costs the history only, never the session."""

import json
import os

from osada.files.pids import alive

KEEP = 1000


class LogFile:
    def __init__(self, path):
        self.path = path
        self.broken = False
        self.torn = False             # the file ends inside a line: the next entry starts a new one
        self.owner = path + ".owner"  # the pid of the monitor that keeps it

    def claim(self):
        """Keep the file for this process, unless another monitor that is still running does:
        True if this one keeps it."""
        try:
            with open(self.owner, encoding="utf-8") as f:
                pid = int(f.read().strip() or 0)
        except (OSError, ValueError):
            pid = 0
        if pid and pid != os.getpid() and alive(pid):
            self.broken = True                 # not ours: neither read nor written
            return False
        try:
            os.makedirs(os.path.dirname(self.owner) or ".", exist_ok=True)
            with open(self.owner, "w", encoding="utf-8") as f:
                f.write("%d\n" % os.getpid())
        except OSError:
            pass                               # unclaimed: it still works, unguarded
        return True

    def release(self):
        try:
            with open(self.owner, encoding="utf-8") as f:
                mine = int(f.read().strip() or 0) == os.getpid()
            if mine:
                os.remove(self.owner)
        except (OSError, ValueError):
            pass

    def load(self):
        """The entries kept, oldest first: [(line, style)] ([] if none, unreadable or not ours)."""
        if self.broken:
            return []
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

