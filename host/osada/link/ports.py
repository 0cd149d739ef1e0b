"""The serial ports a Link runs over: a Pico found by its USB id, the
simulator's link (SIM_LINK, trusted only while the simulator that made it
runs), who holds a busy port, and pyserial as a Link transport.

    find_device()    a Pico, else a running simulator's link, else None
    serial_link()    a Link over pyserial on a port (not yet connected)
    PortError        a port that cannot be used, with one sentence saying why"""

from osada.link.client import Link

PICO_VIDS = (0x2E8A,)       # Raspberry Pi: Pico and Pico 2 under MicroPython
SIM_LINK = "/tmp/osada-sim"



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
    holds an exclusive flock on link + ".pid" while it runs (sim/simulator.py), so a
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
