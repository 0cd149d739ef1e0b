# The USB protocol's requests (firmware/README.md, "Protocol"): the
# dispatcher, and the commands every game answers the same.  A request goes
# to the running game's own handlers first (app.mode.handlers(): Siege's are
# siege/commands.py), then to HANDLERS here.  Each handler takes the app and
# the request and returns the reply's fields, or raises CommandError /
# RuleError, which handle_line() turns into the error reply.  Plain
# functions: no bound methods kept on the Pico's heap.  Loaded when the host
# first speaks, not before the board's first frame.
# Runs on MicroPython and CPython alike.

from osada_fw.games import READ_ONLY
from osada_fw.link import protocol
from osada_fw.link.protocol import CommandError
from shared_rules.errors import RuleError

FIRMWARE_VERSION = "0.1.0"


def reply(app, rid, fields):
    fields["id"] = rid
    fields["ok"] = True
    app.outbox.put(fields)


def reply_error(app, rid, message, rule=None):
    obj = {"id": rid, "ok": False, "error": message}
    if rule is not None:
        obj["rule"] = rule
    app.outbox.put(obj)


def handle_line(app, line):
    if line is None:
        reply_error(app, None, "line too long (max %d bytes)" % app.reader.max)
        return
    rid = None
    try:
        rid, req = protocol.parse_request(line)
        cmd = req["cmd"]
        if cmd not in READ_ONLY:
            app.mode = app.mode.acting()   # a host that acts closes an open menu first
        own = app.mode.handlers()
        fn = own.get(cmd) or HANDLERS.get(cmd)
        if fn is None:
            known = sorted(list(own) + [c for c in HANDLERS if c not in own])
            raise CommandError("unknown command %s; known: %s" % (protocol.json.dumps(cmd), ", ".join(known)))
        reply(app, rid, fn(app, req))
    except protocol.RequestError as exc:
        reply_error(app, exc.rid, str(exc))
    except RuleError as exc:
        reply_error(app, rid, exc.message, exc.rule)
    except CommandError as exc:
        reply_error(app, rid, str(exc))
    except SystemExit:
        raise
    except Exception as exc:          # never let a request stop the device
        reply_error(app, rid, "internal error: %r" % (exc,))
        app.siege.recover()        # the home game's record rebuilt from what is known good


def cmd_hello(app, req):
    siege = app.siege                  # the home game's record: its length and whether flash keeps it
    return {"protocol": protocol.PROTOCOL_VERSION, "firmware": FIRMWARE_VERSION,
            "game": app.mode.id, "leds": app.layout.count, "layout": app.layout.name,
            "seq": len(siege.game.log), "journal": siege.journal_status()}


def cmd_leds(app, req):
    return {"leds": app.frame.rgb_list()}


def cmd_press(app, req):
    if "turn" in req:
        d = req["turn"]
        if not isinstance(d, int) or isinstance(d, bool) or d not in (1, -1):
            raise CommandError("turn must be 1 or -1")
        ev = ("turn", d)
    else:
        name = req.get("button")
        if name not in ("action", "back", "encoder"):
            raise CommandError("button must be action, back or encoder (or give turn)")
        ev = ("long" if req.get("long") else "press", name)
    app.input(ev, app.hw.clock.ticks_ms())
    return {}


def cmd_selftest(app, req):
    """Light each LED in turn (osada_fw/selftest.py, loaded only when asked)."""
    from osada_fw import selftest
    return selftest.start(app, app.hw.clock.ticks_ms())


def cmd_mem(app, req):
    """The heap and a timed frame (osada_fw/memstat.py, loaded only when asked)."""
    from osada_fw import memstat
    app.memstat = memstat              # for the tick's samples while it tracks
    return memstat.mem(app, req)


def cmd_game(app, req):
    """List the games or switch (osada_fw/gamemenu.py, loaded only when asked)."""
    from osada_fw import gamemenu
    return gamemenu.cmd_game(app, req)


def cmd_journal(app, req):
    """A damaged save: what was lost, acknowledge it, read its kept bytes
    (osada_fw/store/damage.py, loaded only when asked)."""
    from osada_fw import forget
    from osada_fw.store import damage
    try:
        return damage.report(app.siege.journal, req)
    except ValueError as exc:
        raise CommandError(str(exc))
    finally:
        forget("osada_fw.store.damage")


def cmd_repl(app, req):
    app.release = True           # after this reply has gone out (tick)
    return {"bye": True}


HANDLERS = {
    "hello": cmd_hello, "leds": cmd_leds, "press": cmd_press, "repl": cmd_repl,
    "selftest": cmd_selftest, "mem": cmd_mem, "game": cmd_game, "journal": cmd_journal,
}
