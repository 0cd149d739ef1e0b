"""`osada device [--config F] [--link PATH] [--state DIR] [--group NAME]`:
the app on this Raspberry Pi's GPIOs (osada_fw/hal/blinka.py), its serial
line the simulator's pty, linked at --link (by default where the monitor
looks for a simulator: `osada monitor` on the Pi, or over SSH, mirrors it
with no options).  It prints the port and runs until stopped (SIGTERM, as
systemd stops it: hardware/pi/osada-device.service), the strip dark then.

What cannot be used (the config, a pin, the strip, the libraries, a state
directory or link another app holds) is one line on stderr and a non-zero
exit, before anything is taken."""

import grp
import os
import signal
import sys

from osada.device.config import read
from osada.files import paths
from osada.link.ports import SIM_LINK
from osada.sim.ptylink import PtyLink, SimBusy
from osada_fw.app import App
from osada_fw.config import ConfigError, led_count
from osada_fw.hal.blinka import BlinkaHardware, PiError
from osada_fw.hal.fake import FdSerial

DEFAULT_STATE = os.path.join(paths.OUTPUT, "device-state")


def add_parser(sub):
    """The `device` command, added to the CLI's subparsers."""
    dv = sub.add_parser("device", help="run the app on this Raspberry Pi's own pins (docs/raspberry-pi.md)",
                        description="The Osada app on a Raspberry Pi: the LED strip, the encoder and the "
                                    "buttons on the Pi's GPIOs (config.json's \"pi\" section), the host link "
                                    "on a pseudo-terminal as the simulator's.")
    dv.add_argument("--config", default=None,
                    help="hardware config with its \"pi\" section (default: %s)" % paths.shown(paths.DEFAULT_CONFIG))
    dv.add_argument("--link", default=SIM_LINK,
                    help="symlink to the device's serial port (default: %s, where the monitor looks)" % SIM_LINK)
    dv.add_argument("--state", default=DEFAULT_STATE,
                    help="directory for the game journal (default: %s)" % paths.shown(DEFAULT_STATE))
    dv.add_argument("--group", default=None, metavar="NAME",
                    help="a group whose members may open the serial port (e.g. dialout, as for a Pico); "
                         "default: only this user")
    dv.set_defaults(func=run)
    return dv


def _fail(msg, code):
    sys.stderr.write("osada: device: %s\n" % msg)
    return code


def _group_id(name):
    try:
        return grp.getgrnam(name).gr_gid
    except KeyError:
        raise ConfigError("--group %s: no such group on this system" % name) from None


def _give_port(port, group, gid):
    try:
        os.chown(port, -1, gid)
        os.chmod(port, 0o660)
    except OSError as exc:
        raise ConfigError("--group %s: cannot give the serial port to that group (%s): run as root, or as "
                          "one of its members" % (group, (exc.strerror or str(exc)).lower())) from None


def open_device(args):
    """(pty, hardware, app), or raises ConfigError, PiError or SimBusy.  A
    failure after the pty is taken gives it back, and a state directory
    made for it goes too: what cannot start changes nothing."""
    config = args.config or paths.DEFAULT_CONFIG
    cfg = read(config, missing_ok=args.config is None)
    gid = _group_id(args.group) if args.group else None
    made = not os.path.isdir(args.state)
    pty = PtyLink(args.link, args.state, who="device")
    try:
        if gid is not None:
            _give_port(pty.port, args.group, gid)
        hw = BlinkaHardware(cfg, led_count(cfg), args.state, FdSerial(pty.master))
        return pty, hw, App(hw, cfg)
    except BaseException:
        pty.close()
        if made:
            try:
                os.remove(os.path.join(args.state, "sim.lock"))
                os.rmdir(args.state)
            except OSError:
                pass
        raise


def run(args):
    try:
        pty, hw, app = open_device(args)
    except ConfigError as exc:
        return _fail(exc, 2)
    except PiError as exc:
        return _fail(exc, 4)
    except SimBusy as exc:
        return _fail(exc, 3)
    except OSError as exc:
        return _fail("cannot open the serial port: %s" % (exc.strerror or exc), 3)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(0))
    pins = hw.pins
    print("osada device: serial port %s (link %s), state in %s, strip on GPIO%d (%d LEDs, %s)"
          % (pty.port, pty.link, args.state, pins["strip"], hw.leds.count, hw.leds.order), flush=True)
    try:
        app.boot()
        app.run(booted=True)
    except KeyboardInterrupt:
        pass
    finally:
        try:
            hw.leds.write(bytes(3 * hw.leds.count))      # dark when it stops
        except Exception:
            pass
        app.siege.journal.close()
        pty.close()
    return 0
