# The USB protocol's requests (firmware/README.md, "Protocol"): one method a
# command, each replying with a dict or raising CommandError / RuleError,
# which handle_line() turns into the error reply.  The app (osada_fw/app.py)
# owns the game, the journal and the outbox; this is its serial front desk.
# Runs on MicroPython and CPython alike.

from osada_fw import protocol
from osada_fw.anim import SELFTEST_MS
from osada_fw.config import led_count
from shared_rules import actions as A
from shared_rules.engine import RuleError

FIRMWARE_VERSION = "0.1.0"
LOG_PAGE = 40              # actions per `log` reply: a reply stays well inside the outbox


class CommandError(Exception):
    pass


class Commands:
    def __init__(self, app):
        self.app = app
        self.handlers = {
            "hello": self.cmd_hello, "state": self.cmd_state, "new": self.cmd_new,
            "act": self.cmd_act, "undo": self.cmd_undo, "roll": self.cmd_roll,
            "leds": self.cmd_leds, "press": self.cmd_press, "repl": self.cmd_repl,
            "log": self.cmd_log, "selftest": self.cmd_selftest,
        }

    def reply(self, rid, fields):
        fields["id"] = rid
        fields["ok"] = True
        self.app.outbox.put(fields)

    def reply_error(self, rid, message, rule=None):
        obj = {"id": rid, "ok": False, "error": message}
        if rule is not None:
            obj["rule"] = rule
        self.app.outbox.put(obj)

    def handle_line(self, line):
        if line is None:
            self.reply_error(None, "line too long (max %d bytes)" % self.app.reader.max)
            return
        rid = None
        try:
            rid, req = protocol.parse_request(line)
            fn = self.handlers.get(req["cmd"])
            if fn is None:
                raise CommandError("unknown command %r; known: %s"
                                   % (req["cmd"], ", ".join(sorted(self.handlers))))
            self.reply(rid, fn(req))
        except protocol.RequestError as exc:
            self.reply_error(exc.rid, str(exc))
        except RuleError as exc:
            self.reply_error(rid, exc.message, exc.rule)
        except CommandError as exc:
            self.reply_error(rid, str(exc))
        except SystemExit:
            raise
        except Exception as exc:          # never let a request stop the device
            self.reply_error(rid, "internal error: %r" % (exc,))
            self.app.recover()

    def cmd_hello(self, req):
        return {"protocol": protocol.PROTOCOL_VERSION, "firmware": FIRMWARE_VERSION,
                "game": "siege", "leds": led_count(self.app.cfg), "layout": self.app.layout.name,
                "seq": len(self.app.game.log), "journal": self.app.journal_status()}

    def cmd_state(self, req):
        st = self.app.game.state()
        del st["events"]
        return {"state": st, "seq": len(self.app.game.log), "journal": self.app.journal_status()}

    def cmd_log(self, req):
        """The game so far as a scenario, in pages: LOG_PAGE actions from
        `from` (default 0); `next` is where the next page starts, or null."""
        start = req.get("from", 0)
        total = len(self.app.game.log)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0 or start > total:
            raise CommandError("from must be an integer from 0 to %d" % total)
        page = []
        i = 0
        for t in self.app.game.log:
            if i >= start + LOG_PAGE:
                break
            if i >= start:
                page.append(A.to_dict(t))
            i += 1
        end = start + len(page)
        return {"setup": self.app.game.setup_dict(), "actions": page, "from": start,
                "total": total, "next": end if end < total else None}

    def cmd_new(self, req):
        setup = {}
        for k in ("players", "mode", "variants", "seed"):
            if k in req:
                setup[k] = req[k]
        saved = self.app.new_game(setup)         # RuleError('format') if bad
        return self._saved({"seq": 0}, saved)

    def cmd_act(self, req):
        action = req.get("action")
        if not isinstance(action, dict):
            raise CommandError("act needs 'action', a spec action object")
        events = self.app.apply(action)
        return self._saved({"seq": len(self.app.game.log), "events": len(events)}, self.app.unsaved is None)

    def cmd_undo(self, req):
        self.app.undo()
        return self._saved({"seq": len(self.app.game.log)}, self.app.unsaved is None)

    def _saved(self, reply, saved):
        """A reply to a change says `"saved": false` when flash failed it."""
        if not saved:
            reply["saved"] = False
            reply["journal"] = self.app.unsaved
        return reply

    def cmd_roll(self, req):
        value = self.app.free_roll()
        self.app.ui.show_roll(value, self.app.hw.clock.ticks_ms())
        self.app.push({"ev": "roll", "value": value})
        return {"value": value}

    def cmd_leds(self, req):
        return {"leds": self.app.renderer.rgb_list()}

    def cmd_press(self, req):
        now = self.app.hw.clock.ticks_ms()
        if "turn" in req:
            d = req["turn"]
            if not isinstance(d, int) or isinstance(d, bool) or d not in (1, -1):
                raise CommandError("turn must be 1 or -1")
            self.app.ui.handle(("turn", d), now)
        else:
            name = req.get("button")
            if name not in ("action", "back", "encoder"):
                raise CommandError("button must be action, back or encoder (or give turn)")
            self.app.ui.handle(("long" if req.get("long") else "press", name), now)
        return {}

    def cmd_selftest(self, req):
        self.app.start_selftest(self.app.hw.clock.ticks_ms())
        return {"leds": self.app.layout.count, "ms_per_led": SELFTEST_MS}

    def cmd_repl(self, req):
        self.app.release = True           # after this reply has gone out (tick)
        return {"bye": True}
