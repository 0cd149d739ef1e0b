# The USB protocol's requests (firmware/README.md, "Protocol"): one method a
# command (HANDLERS), each taking the app and the request and replying with
# a dict or raising CommandError / RuleError, which handle_line() turns into
# the error reply.  Plain functions: no bound methods kept on the Pico's heap.  The app (osada_fw/app.py)
# owns the game, the journal and the outbox; this is its serial front desk.
# Runs on MicroPython and CPython alike.

from osada_fw import protocol
from osada_fw.anim import SELFTEST_MS
from osada_fw.protocol import CommandError
from osada_fw.ui import M_PLAY
from shared_rules import actions as A
from shared_rules.engine import RuleError

FIRMWARE_VERSION = "0.1.0"
LOG_PAGE = 40              # actions per `log` reply: a reply stays well inside the outbox


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
        fn = HANDLERS.get(cmd)
        ui = app.ui
        if app.mode is not None:       # another game than Siege (games.py) answers its own first
            fn = app.mode.handlers.get(cmd, fn)
        elif cmd not in READ_ONLY and ui.menu and ui.menu[0] == "game":
            ui.mode = M_PLAY           # a host that acts closes the game menu
            ui.menu = None
        if fn is None:
            raise CommandError("unknown command %s; known: %s"
                               % (protocol.json.dumps(cmd), ", ".join(sorted(HANDLERS))))
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
        app.recover()


def cmd_hello(app, req):
    return {"protocol": protocol.PROTOCOL_VERSION, "firmware": FIRMWARE_VERSION,
            "game": app.mode.id if app.mode else "siege", "leds": app.layout.count, "layout": app.layout.name,
            "seq": len(app.game.log), "journal": app.journal_status()}


def cmd_state(app, req):
    st = app.game.state()
    del st["events"]
    return {"state": st, "seq": len(app.game.log), "journal": app.journal_status(), "game": "siege"}


def cmd_log(app, req):
    """The game so far as a scenario, in pages: LOG_PAGE actions from
    `from` (default 0); `next` is where the next page starts, or null."""
    start = req.get("from", 0)
    total = len(app.game.log)
    if not isinstance(start, int) or isinstance(start, bool) or start < 0 or start > total:
        raise CommandError("from must be an integer from 0 to %d" % total)
    page = []
    i = 0
    for t in app.game.log:
        if i >= start + LOG_PAGE:
            break
        if i >= start:
            page.append(A.to_dict(t))
        i += 1
    end = start + len(page)
    return {"setup": app.game.setup_dict(), "actions": page, "from": start,
            "total": total, "next": end if end < total else None}


def cmd_new(app, req):
    setup = {}
    for k in ("players", "mode", "variants", "seed"):
        if k in req:
            setup[k] = req[k]
    saved = app.new_game(setup)         # RuleError('format') if bad
    return _saved(app, {"seq": 0}, saved)


def cmd_act(app, req):
    action = req.get("action")
    if not isinstance(action, dict):
        raise CommandError("act needs 'action', a spec action object")
    events = app.apply(action)
    return _saved(app, {"seq": len(app.game.log), "events": len(events)}, app.unsaved is None)


def cmd_undo(app, req):
    app.undo()
    return _saved(app, {"seq": len(app.game.log)}, app.unsaved is None)


def _saved(app, reply, saved):
    """A reply to a change says `"saved": false` when flash failed it."""
    if not saved:
        reply["saved"] = False
        reply["journal"] = app.unsaved
    return reply


def cmd_roll(app, req):
    if len(req) > 1 + ("id" in req):   # a field more is a mistake (Tank battle's roll?): never ignored
        raise CommandError("roll takes no numbers in Siege: it is one free die 1-6")
    value = app.free_roll()
    app.ui.show_roll(value, app.hw.clock.ticks_ms())
    app.push({"ev": "roll", "value": value})
    return {"value": value}


def cmd_leds(app, req):
    return {"leds": app.renderer.rgb_list()}


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
    (app.ui if app.mode is None else app.mode).handle(ev, app.hw.clock.ticks_ms())
    return {}


def cmd_selftest(app, req):
    app.start_selftest(app.hw.clock.ticks_ms())
    return {"leds": app.layout.count, "ms_per_led": SELFTEST_MS}


def cmd_mem(app, req):
    """The heap and a timed frame (osada_fw/memstat.py, loaded only when asked)."""
    from osada_fw import memstat
    return memstat.mem(app, req)


def cmd_game(app, req):
    """List the games or switch (osada_fw/games.py, loaded only when asked)."""
    from osada_fw import games
    return games.cmd_game(app, req)


def cmd_repl(app, req):
    app.release = True           # after this reply has gone out (tick)
    return {"bye": True}


HANDLERS = {
    "hello": cmd_hello, "state": cmd_state, "new": cmd_new, "act": cmd_act, "undo": cmd_undo,
    "roll": cmd_roll, "leds": cmd_leds, "press": cmd_press, "repl": cmd_repl, "log": cmd_log,
    "selftest": cmd_selftest, "mem": cmd_mem, "game": cmd_game,
}
READ_ONLY = ("hello", "state", "log", "leds", "game", "mem")   # these leave the game menu open
