# Siege's own requests (firmware/README.md, "Protocol"): the game's state,
# its log, new games, actions, undo and the free die.  The dispatcher
# (link/commands.py) asks the running game for these first; while another
# game runs, that game answers them its own way (or refuses them).
# Loaded with the host's first request.
# Runs on MicroPython and CPython alike.

from osada_fw.link.protocol import CommandError
from shared_rules.siege import actions as A

LOG_PAGE = 40              # actions per `log` reply: a reply stays well inside the outbox


def cmd_state(app, req):
    siege = app.siege
    st = siege.game.state()
    del st["events"]
    return {"state": st, "seq": len(siege.game.log), "journal": siege.journal_status(), "game": "siege"}


def cmd_log(app, req):
    """The game so far as a scenario, in pages: LOG_PAGE actions from
    `from` (default 0); `next` is where the next page starts, or null."""
    game = app.siege.game
    start = req.get("from", 0)
    total = len(game.log)
    if not isinstance(start, int) or isinstance(start, bool) or start < 0 or start > total:
        raise CommandError("from must be an integer from 0 to %d" % total)
    page = []
    i = 0
    for t in game.log:
        if i >= start + LOG_PAGE:
            break
        if i >= start:
            page.append(A.to_dict(t))
        i += 1
    end = start + len(page)
    return {"setup": game.setup_dict(), "actions": page, "from": start,
            "total": total, "next": end if end < total else None}


def cmd_new(app, req):
    setup = {}
    for k in ("players", "mode", "variants", "seed"):
        if k in req:
            setup[k] = req[k]
    siege = app.siege
    saved = siege.new_game(setup)      # RuleError('format') if bad
    return _saved(siege, {"seq": 0}, saved)


def cmd_act(app, req):
    action = req.get("action")
    if not isinstance(action, dict):
        raise CommandError("act needs 'action', a spec action object")
    siege = app.siege
    events = siege.apply(action)
    return _saved(siege, {"seq": len(siege.game.log), "events": len(events)}, siege.unsaved is None)


def cmd_undo(app, req):
    siege = app.siege
    siege.undo(req.get("confirm") is True)   # past a reveal only when confirmed (R30)
    return _saved(siege, {"seq": len(siege.game.log)}, siege.unsaved is None)


def _saved(siege, reply, saved):
    """A reply to a change says `"saved": false` when flash failed it."""
    if not saved:
        reply["saved"] = False
        reply["journal"] = siege.unsaved
    return reply


def cmd_roll(app, req):
    if len(req) > 1 + ("id" in req):   # a field more is a mistake (Tank battle's roll?): never ignored
        raise CommandError("roll takes no numbers in Siege: it is one free die 1-6")
    value = app.free_rng.die()
    app.siege.ui.show_roll(value, app.hw.clock.ticks_ms())
    app.push({"ev": "roll", "value": value})
    return {"value": value}


def cmd_forecast(app, req):
    """The host's threat forecast on the ring for 3 s (F13; siege/forecast_ring.py, loaded only then)."""
    from osada_fw.siege import forecast_ring
    return forecast_ring.take(app.siege, req, app.hw.clock.ticks_ms())


HANDLERS = {
    "state": cmd_state, "new": cmd_new, "act": cmd_act, "undo": cmd_undo, "roll": cmd_roll, "log": cmd_log,
    "forecast": cmd_forecast,
}
