"""The page with no host, in words and pictures (issue 63): the static site's worker
runs this module in MicroPython's WebAssembly VM beside the firmware's app, hands it
every line the app writes (the device's JSON-line protocol) and passes on what it
says.  It is the host's own code, not a second copy: the log's sentences
(osada.words.texts), Siege's facts (osada.words.table), and each other game's
picture but the ring, which the page draws from the device's own LEDs (osada.tank
.dice_picture, osada.victory.picture, osada.warchest.picture).  It runs on CPython
and on MicroPython (tests/host/site/test_reader.py runs it in the VM on exactly the
modules build.py puts in the site: SITE_MODULES).

What it says is the table's, as a host says it to every page: Siege's facts from
the state as the table may see it (shared_rules.siege.public.table_state: the field
marshal's hand as a count); the device's events are public (the host's log shows
them to every page)."""

import json

from osada.words import table, texts


class Reader:
    """The device's lines in, the page's words out, as JSON (read()): {"events": the
    log's last table.EVENTS sentences, newest first, as a host's snapshot has them
    (texts.describe, each event with the state before it to name the enemies),
    "facts": Siege's, "state": Siege's state as the table may see it (the page draws
    this one, not the device's own), "picture": another game's picture (but its
    ring), once the device said it}.  names: {action: the page's button for it} (the catalog's)."""

    def __init__(self, names=None):
        self.names = names or {}
        self.state = None             # the device's last Siege state (the events after it name its enemies)
        self.game = "siege"
        self.log = []                 # the last table.EVENTS sentences, oldest first
        self.roll = None              # Tank battle's last roll, and the device's state of it
        self.tank = None
        self.toss = None              # Victory Day's toss; War Chest's counts
        self.counts = None

    def name(self, action):
        return "“%s”" % self.names.get(action, action.replace("_", " "))

    def read(self, text):
        """What the page adds for the device's output `text`: a JSON object, "" when nothing."""
        events = []
        changed = False
        for line in text.split("\n"):
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict):
                changed = self._take(msg, events) or changed
        if not events and not changed:
            return ""
        self.log = (self.log + events)[-table.EVENTS:]
        out = {"events": self.log[::-1], "facts": []}
        if self.game == "siege":
            from shared_rules.siege.public import table_state
            seen = table_state(self.state) if isinstance(self.state, dict) else None
            out["facts"] = table.facts(seen, self.name)
            if seen is not None:
                out["state"] = seen                      # what the page draws: the table's, never his hand
        pic = self.picture()
        if pic is not None:
            out["picture"] = pic
        return json.dumps(out)

    def _take(self, msg, events):
        """One line of the device's: its sentence into `events`; whether what the page draws changed."""
        ev = msg.get("ev")
        if ev == "state" or (ev is None and msg.get("ok") and isinstance(msg.get("state"), dict)):
            self.state = msg.get("state")
            return True
        if ev is None:
            if msg.get("ok") is False:
                events.append(self.refused(msg))
            return self._reply(msg)
        events.append(texts.describe(msg, self.state))
        if ev == "game":
            self.game = msg.get("game")
        elif ev == "roll" and "test" in msg:
            self.roll = msg
        elif ev == "victory":
            from osada.victory.toss_words import toss_of
            self.toss = toss_of(msg)
        elif ev == "warchest" and isinstance(msg.get("warchest"), dict):
            self.counts = msg["warchest"]
        return True

    def _reply(self, msg):
        """A reply's news: the game the device runs (hello's), another game's state."""
        changed = False
        if isinstance(msg.get("game"), str) and msg.get("game") != self.game:
            self.game = msg["game"]
            changed = True
        if isinstance(msg.get("tank"), dict):              # its test and numbers, its last roll
            self.tank = msg["tank"]
            self.roll = self.tank.get("last") or self.roll
            changed = True
        if isinstance(msg.get("victory"), dict):
            self.toss = msg["victory"]
            changed = True
        if isinstance(msg.get("warchest"), dict):
            self.counts = msg["warchest"]
            changed = True
        return changed

    def refused(self, msg):
        rule = msg.get("rule")
        return "✗ refused%s: %s" % (" (%s)" % rule if rule else "",
                                    texts.named_enemies(msg.get("error", "?"), self.state))

    def picture(self):
        """The running game's picture but its ring (None for Siege: its page draws from its state)."""
        if self.game == "tank":
            from osada.tank.dice_picture import NO_ROLL, not_adding_up, roll_picture
            from osada.words.tank_rolls import setting_line
            out = {"game": "tank", "roll": None, "words": NO_ROLL}
            if self.tank is not None:
                out["now"] = "the device is set to: " + setting_line(self.tank)
            if self.roll is not None:
                out["words"] = not_adding_up(self.roll)
                out["roll"] = None if out["words"] else roll_picture(self.roll)
            return out
        if self.game == "victory":
            from osada.victory.picture import table_part
            return table_part(self.toss)
        if self.game == "warchest":
            from osada.warchest.picture import table_part
            return table_part(self.counts)
        return None


_reader = Reader()


def start(names_json):
    """The worker's start: the page's button names (JSON); a fresh log."""
    global _reader
    _reader = Reader(json.loads(names_json) if names_json else None)


def read(text):
    """The worker's step: Reader.read of the one reader."""
    return _reader.read(text)
