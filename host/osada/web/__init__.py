"""`osada web`: the live board in every browser at the table (issue 41).

The host, connected to a board (or the simulator) as `osada monitor` is,
serves one page that any number of phones, a TV or a stream open to watch
the game live, drawn as a picture from the game's state (issue 62).

    host     the shell: the monitor's app (its Session, reconnect, resync and
             game views) headless, or in the terminal with `osada monitor --web`
    render   a snapshot of what a page shows, per role: Siege's state, the other
             games' picture data, the facts in words, the forecast, the events
    server   aiohttp: the page, its files, /state.json, the WebSocket /ws
    control  --control: the PIN, the keys a page may press, the refusals
    catalog  the facts the page draws with (/catalog.json), from their homes in Python
    pagefile the page's file with its data blocks in it (the host's and the static site's)
    static/  the page (index.html, app.js, siege.js, ring.js, device.js, style.css): no
             build step, nothing from the internet

`add_parser(sub, port_help)` registers `osada web`; `web_args(parser)` adds
the web switches to `osada monitor`; `run(args, in_terminal)` runs either."""

import sys

DEFAULT_LISTEN = 8765
HEADLESS_SIZE = (140, 45)     # the headless monitor's screen (its layout is not shown; a size it lays out once)


def web_args(p, monitor=False):
    """The web switches (`osada web`'s, or `osada monitor --web`'s)."""
    p.add_argument("--listen", type=int, default=DEFAULT_LISTEN, metavar="N",
                   help="HTTP port of the page (default: %d)" % DEFAULT_LISTEN)
    p.add_argument("--lan", action="store_true",
                   help="serve on the local network (default: this computer only) and print the address "
                        "and a QR code for phones")
    p.add_argument("--control", action="store_true",
                   help="print a PIN: a page that enters it may press the game's keys (default: pages only watch)")


def add_parser(sub, port_help):
    w = sub.add_parser("web", help="serve the live board to browsers (phones, a TV) on http://localhost:%d/"
                       % DEFAULT_LISTEN)
    w.add_argument("--port", default="auto", help=port_help)
    w.add_argument("--no-forecast", dest="forecast", action="store_false",
                   help="no threat forecast on the pages (it is worked out beside the server, at the lowest priority)")
    w.add_argument("--start-sim", action="store_true",
                   help="if no device is found, start the simulator (osada sim --headless)")
    web_args(w)
    w.set_defaults(func=lambda args: run(args, in_terminal=False))


def lan_address():
    """This computer's address on the local network (the route a packet would take; none is sent)."""
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())
    finally:
        s.close()


def qr_text(url):
    """The address as a QR code in terminal characters (segno)."""
    import io

    import segno
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def banner(url, lan, pin, marshal_pin, out):
    out.write("Osada web view: open %s in a browser%s\n" % (url, " on this network" if lan else ""))
    if lan:
        out.write("Scan this with a phone's camera (the phone on the same Wi-Fi):\n")
        out.write(qr_text(url))
    else:
        out.write("(this computer only: --lan serves it to phones on the local network)\n")
    if pin is not None:
        out.write("Control PIN: %s  (a page that enters it may press the game's keys)\n" % pin)
        if marshal_pin is not None:
            out.write("Field marshal's PIN: %s  (give it to him alone: in «Фельдмаршал» his page shows his hand)\n"
                      % marshal_pin)
    else:
        out.write("Pages only watch (--control lets a page with the PIN press keys).\n")
    out.flush()


def run(args, in_terminal=False):
    """Serve the pages beside the monitor's app: headless (`osada web`), or in
    this terminal (`osada monitor --web`).  Exit status 2 when the port is taken."""
    try:
        import aiohttp  # noqa: F401
        import segno  # noqa: F401
    except ImportError as exc:
        sys.stderr.write("osada web: %s; install the web view's packages: pip install 'osada[web]' "
                         "(make setup does)\n" % exc)
        return 3
    from . import control
    from .host import WebMonitorApp
    from .server import WebServer

    pin = control.new_pin() if args.control else None
    marshal_pin = control.new_pin() if args.control else None
    while marshal_pin is not None and marshal_pin == pin:
        marshal_pin = control.new_pin()
    host = "0.0.0.0" if args.lan else "127.0.0.1"
    names = ()
    if args.lan:
        import socket
        names = (lan_address(), socket.gethostname(), socket.gethostname() + ".local")
    server = WebServer(host, args.listen, pin, marshal_pin=marshal_pin, names=names,
                       log=lambda line: sys.stderr.write("osada web: %s\n" % line))
    if in_terminal:
        from osada.monitor import no_terminal
        why = no_terminal()
        if why is not None:
            sys.stderr.write("osada monitor: %s\n" % why)
            return 2
    try:
        server.start()
    except OSError as exc:
        sys.stderr.write("osada web: %s (another program uses port %d? try --listen N)\n" % (exc, args.listen))
        return 2
    url = "http://%s:%d/" % (lan_address() if args.lan else "localhost", server.port)
    banner(url, args.lan, pin, marshal_pin, sys.stdout)
    app = WebMonitorApp(server, headless=not in_terminal, port=getattr(args, "port", "auto"),
                        start_sim=getattr(args, "start_sim", False), handle_signals=True,
                        forecast=getattr(args, "forecast", True))
    if in_terminal:
        # where the pages are goes to the log (every page shows it); the PINs only to this
        # terminal's own connection line, which no page receives (issue 59)
        app.web_note = "web view at %s" % url
        app.local_note = control.pin_words(pin, marshal_pin)
        server.log = lambda line: app.call_from_thread(app.add_log, "— %s —" % line, "bold #d0a000")
    try:
        app.run(headless=not in_terminal, size=None if in_terminal else HEADLESS_SIZE)
    except KeyboardInterrupt:
        pass
    finally:
        app.shutdown()
    return app.return_code or 0
