"""The pseudo-terminal a device app on this computer speaks through: the
simulator's (`osada sim`) and the Raspberry Pi build's (`osada device`).

A PtyLink is a raw pty, symlinked at `link`, so pyserial clients (the
monitor, `osada state`, your own scripts) open it exactly as a Pico's USB
serial port.  One state directory (the game journal) has at most one app
on it, and a link belongs to the app that made it: both are flocks held
while it runs (state_dir/sim.lock, link + ".pid"; link/ports.py sim_owner
reads the second); a second one is refused with the holder's pid and never
touches the first's link or journal."""

import os
import pty
import termios
import time
import tty

from osada.files.pids import alive


class SimBusy(Exception):
    """Another live simulator (or device) has this state directory or this link."""


def _read_pid(fd):
    try:
        return int(os.pread(fd, 64, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None


def take_lock(path, tries=50):
    """An exclusive flock on `path` (created if need be), held as long as the
    returned fd is open: (fd, None), or (None, pid of the holder).  A holder
    that has not written its pid yet, or a client peeking with a shared
    lock (ports.sim_owner), is waited for a little."""
    import fcntl
    pid = None
    for _ in range(tries):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            if pid is not None and pid != os.getpid() and alive(pid):
                return None, pid
            time.sleep(0.02)
            continue
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd, None
        os.close(fd)                   # its owner removed it as it quit: lock the new one
    return None, pid


def _write_lock(fd, text):
    os.ftruncate(fd, 0)
    os.pwrite(fd, text.encode(), 0)


def _other_link(state_dir):
    try:
        with open(os.path.join(state_dir, "sim.lock")) as f:
            lines = f.read().split()
        return lines[1] if len(lines) > 1 else None
    except OSError:
        return None


class PtyLink:
    """A raw pty for the app whose journal is in `state_dir`, symlinked at
    `link` (None: no link; `port` is the pty's own name).  `who` names the
    app in the refusals ("simulator", "device").  `master` is the app's end
    (hal/fake.py FdSerial reads and writes it); close() gives everything
    back, and removes the link only while it still points at this pty."""

    def __init__(self, link, state_dir, who="simulator"):
        from osada.link.ports import describe_sim
        self.link = link
        self.port = None
        self.master = self.slave = None
        self.state_lock = self.link_lock = None
        os.makedirs(state_dir, exist_ok=True)
        self.state_lock, pid = take_lock(os.path.join(state_dir, "sim.lock"))
        if self.state_lock is None:
            other = _other_link(state_dir)
            raise SimBusy("the state directory %s already has a %s: pid %s (%s)%s. One state "
                          "directory takes one %s: use that one%s, stop it, or give this one "
                          "its own --state DIR and --link PATH"
                          % (state_dir, who, pid, describe_sim(pid) if pid else "starting",
                             ", serial port %s" % other if other else "", who,
                             " (osada monitor --port %s)" % other if other else ""))
        try:
            if link:
                if os.path.lexists(link) and not os.path.islink(link):
                    raise SimBusy("%s exists and is not a link: give --link a free path" % link)
                self.link_lock, pid = take_lock(link + ".pid")
                if self.link_lock is None:
                    raise SimBusy("%s belongs to another running %s: pid %s (%s). Stop it, or "
                                  "give this one its own --link PATH" % (link, who, pid, describe_sim(pid)))
            self.master, self.slave = pty.openpty()
            tty.setraw(self.slave)                 # bytes pass through untouched, like USB CDC
            attrs = termios.tcgetattr(self.slave)
            attrs[3] &= ~termios.ECHO
            termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
            self.port = os.ttyname(self.slave)
            _write_lock(self.state_lock, "%d\n%s\n" % (os.getpid(), link or self.port))
            if link:
                tmp = "%s.new%d" % (link, os.getpid())
                try:
                    os.remove(tmp)
                except FileNotFoundError:
                    pass
                os.symlink(self.port, tmp)
                os.replace(tmp, link)              # re-pointed in one step: never missing
                # clients tell a live link from a stale one by this pid; written once
                # the link is there, so a client that sees the owner can open the link
                _write_lock(self.link_lock, "%d\n" % os.getpid())
        except BaseException:
            self.close()
            raise

    def close(self):
        if self.link and self.link_lock is not None:
            # ours while we hold its lock: remove the link only if it still points at our pty
            try:
                if self.master is not None and os.path.islink(self.link) and os.readlink(self.link) == self.port:
                    os.remove(self.link)
            except OSError:
                pass
            try:
                os.remove(self.link + ".pid")
            except OSError:
                pass
        for fd in (self.master, self.slave, self.link_lock, self.state_lock):
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self.slave = self.link_lock = self.state_lock = None
