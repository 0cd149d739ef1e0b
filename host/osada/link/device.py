"""What a command of the `osada` CLI needs of a device: a connected Link,
or one sentence saying why there is none, and the device's failures as the
command's exit status (`osada state`, `send`, `record`, `tank watch`)."""

import sys

from osada.link import ports
from osada.link.client import ProtocolError


def fail(msg, code=2):
    """`osada: msg` on stderr; returns the exit status `code`."""
    sys.stderr.write("osada: %s\n" % msg)
    return code


def open_link(args):
    """A connected Link to --port (or the device found automatically)."""
    port = args.port
    if port in (None, "auto"):
        port = ports.find_device()
        if port is None:
            raise ProtocolError("no device found: plug in a Pico, or start the simulator "
                                "(make run, or osada sim), or give --port")
    link = ports.serial_link(port)
    try:
        link.connect()
    except ports.PortError as exc:     # missing, busy (and who holds it), a stale simulator link
        raise ProtocolError(str(exc))
    except TimeoutError:          # before OSError: it is one since Python 3.10
        raise ProtocolError("%s does not answer: is it running the Osada firmware?" % port)
    except OSError as exc:
        said = str(exc)
        if said in (ports.DEVICE_GONE, ports.DEVICE_STUCK):   # it opened, then failed: no "cannot open"
            raise ProtocolError("%s: %s" % (port, said))
        raise ProtocolError("cannot open %s: %s" % (port, said))
    return link


def device_cmd(fn):
    """A command that talks to a device: its ProtocolError, timeout or OS
    error becomes one line on stderr and exit status 2."""
    def run(args):
        try:
            return fn(args)
        except ProtocolError as exc:
            return fail(str(exc))
        except TimeoutError as exc:
            return fail("the device stopped answering: %s" % exc)
        except OSError as exc:
            return fail("device: %s" % exc)
    return run
