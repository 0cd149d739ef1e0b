"""Who may act from a page (--control): a short PIN printed in the host's
terminal, and only the keys of the running game's KEYMAP (osada.gameview) plus
the game switch, nothing else.

A page sends JSON text frames:

    {"t": "pin", "pin": "123456"}                       unlock this page
    {"t": "key", "game": "siege", "i": 6}               KEYMAP row i of that game
    {"t": "key", "game": "siege", "i": 5, "n": 3}       the digit row, with its number
    {"t": "key", "game": "siege", "i": -1}              the game switch (COMMON_KEYMAP's G)
    {"t": "ack"}                                        acknowledge the device's damaged save
    {"t": "act", "game": "siege", "do": "hit", "enemy": 7}      a tap on the picture (issue 62
    {"t": "act", "game": "siege", "do": "dot", "sector": 3}     item 4): a Siege action on an
    {"t": "act", "game": "siege", "do": "move"}                 enemy, a sector, or none (end turn
                                                                and undo go as keys: their confirmations)
    {"t": "act", "game": "siege", "do": "marshal_play", "tokens": ["tiger"], "sector": 3}
                                                    the field marshal's play (R60), from his own page
    {"t": "new", "game": "siege", "players": 3, "mode": "standard", "variants": [], "replace": false}
                                                    a new game (its options; never a seed: with
                                                    one the pool's order can be worked out)

check() turns a frame into ("pin", pin) / ("key", game, action, args) /
("act", game, action) / ("marshal", game, action) / ("new", fields, replace) /
("switch",) / ("ack",) or raises Refused with the sentence
the page is told.  A tap's action is one of TOUCH's, with exactly the target it
takes; the device checks it as any action (a rule refuses it with its sentence).  What a
key does is the view's own on_key (the monitor's path), so a page can send
no request the monitor's keys could not; the requests that reach the link
are checked once more against ALLOWED_CMDS (what the views' keys send).
Keys that open one of the monitor's dialogs (a new game, the field
marshal's play) are not offered as keys: the page has its own for them (the
"new" frame, and marshal_play from the marshal's own page: the server checks
his role)."""

import ast
import hmac
import json
import re
import secrets
import time

from osada.gameview import view_class
from shared_rules.siege.catalog import KIND_IDS, MODES, VARIANTS

MAX_FRAME = 1024              # bytes: the largest frame a page may send (aiohttp's max_msg_size)
PIN_DIGITS = 6
PIN_TRIES = 5                 # wrong PINs from one address ...
PIN_WINDOW_S = 60.0           # ... within this many seconds, and it waits out the window
SERVER_TRIES = 20             # wrong PINs from all addresses within PIN_WINDOW_S: then none is checked
KEYS_PER_S = 10               # a page's key rate
NO_WEB = ("new_game", "marshal")          # these open the monitor's dialogs
TERMINAL_ONLY = ("show_hand",)            # the field marshal's hand: on the monitor, or on his own page
SWITCH = -1
ARROWS = ("←", "→", "↑", "↓")
DOM_KEYS = {"left": "ArrowLeft", "right": "ArrowRight", "up": "ArrowUp", "down": "ArrowDown", "enter": "Enter",
            "space": " ", "tab": "Tab", "backspace": "Backspace", "escape": "Escape", "plus": "+", "minus": "-",
            "equals_sign": "=", "question_mark": "?"}
SELECT = ("cursor", "next_enemy", "digit")   # Siege's keys that pick what an action is on: a tap does it there
# every request the views' keys make (osada/<game>/view.py key_* methods) and the game switch
ALLOWED_CMDS = frozenset(("act", "undo", "roll", "press", "toss", "next", "game", "state",
                          "forecast"))        # Siege's F: the host's own forecast, the device only draws it (F13)
_CALL = re.compile(r"^(\w+)(?:\((.*)\))?$")
MARSHAL_PLAY = "marshal_play"            # the field marshal's play (R60): from his own page only
MAX_PLAYED = 6                            # tokens one play may name (R60: 2, or up to 4 after a reveal4)
# what a tap on Siege's picture may ask: the action -> the target it takes (the protocol's field)
TOUCH = {"hit": "enemy", "kill": "enemy", "hedgehog": "enemy", "push_back": "enemy", "choose": "enemy",
         "dot": "sector", "rebuild": "sector", "patrol": None, "move": None, "reveal": None}


class Refused(ValueError):
    """A frame that is not done, with the sentence its page is told."""


def new_pin():
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def pin_ok(given, pin):
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8"), pin.encode("utf-8"))


def parse_action(action):
    """'cursor(0,-1)' -> ('cursor', (0, -1)); 'hit' -> ('hit', ())."""
    m = _CALL.match(action)
    if m is None:
        raise ValueError(action)
    return m.group(1), (ast.literal_eval("(%s,)" % m.group(2)) if m.group(2) else ())


def buttons(game):
    """The keys a controlling page shows for `game`: [{i, label, keys, what, digits}], then the switch."""
    out = []
    prev = None
    seen = {}
    for i, (textual, action, shown, short, what, _f) in enumerate(view_class(game).KEYMAP):
        name = parse_action(action)[0]
        if name in NO_WEB or name in TERMINAL_ONLY:
            continue
        if action in seen:                     # another key for the same thing (Tank's + is its →)
            seen[action]["press"] += dom_keys(textual)
            continue
        if short:
            arrows = [k for k in shown.split() if k in ARROWS]
            label = "%s %s" % (short, arrows[0]) if len(arrows) == 2 else short
            prev = (short, arrows, what)
        elif prev is not None and len(prev[1]) == 2:     # the second key of a pair ("← →"): its arrow
            label, what = "%s %s" % (prev[0], prev[1][1]), prev[2]
        else:
            label = name
        row = {"i": i, "label": label, "keys": shown.split()[0] if shown else "", "what": what, "action": name,
               "by_tap": game == "siege" and (name in TOUCH or name in SELECT), "press": dom_keys(textual)}
        seen[action] = row
        if name == "digit":
            row["digits"] = 9 if game == "siege" else 6
        out.append(row)
    out.append({"i": SWITCH, "label": "switch game", "keys": "G", "what": "switch the device to its next game",
                "by_tap": False, "press": ["G"]})
    return out


def dom_keys(textual):
    """A KEYMAP row's keys (Textual's names, "left,enter") as a browser names them (KeyboardEvent.key):
    the keys a computer's page takes for it."""
    return [DOM_KEYS.get(k, k) for k in textual.split(",") if k]


def check(text):
    """A page's frame -> what it asks for; Refused with the reason otherwise."""
    if not isinstance(text, str):
        raise Refused("only JSON text frames are read")
    if len(text.encode("utf-8")) > MAX_FRAME:
        raise Refused("a frame may be at most %d bytes" % MAX_FRAME)
    try:
        msg = json.loads(text)
    except ValueError:
        raise Refused("not JSON") from None
    except RecursionError:
        raise Refused("JSON nested too deeply: a frame is a flat object") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise Refused('a frame is a JSON object with "t": "pin", "key", "act" or "ack"')
    kind = msg["t"]
    if kind == "pin":
        if not isinstance(msg.get("pin"), str) or len(msg["pin"]) > 32:
            raise Refused('"pin" is the PIN the host printed, as a string')
        return ("pin", msg["pin"])
    if kind == "key":
        return _key(msg)
    if kind == "ack":
        return ("ack",)
    if kind == "act":
        return _marshal(msg) if msg.get("do") == MARSHAL_PLAY else _act(msg)
    if kind == "new":
        return _new(msg)
    raise Refused("unknown frame %r: a page sends only a pin, a key, an act, a new or an ack" % kind[:40])


def _marshal(msg):
    """The field marshal's play: ("marshal", "siege", {"do": "marshal_play", "tokens", "sector"?})."""
    if msg.get("game") != "siege":
        raise Refused("the field marshal's play is Siege's: \"game\": \"siege\"")
    extra = set(msg) - {"t", "game", "do", "tokens", "sector"}
    if extra:
        raise Refused("marshal_play takes tokens and a sector, not %s" % ", ".join(sorted(extra))[:60])
    tokens = msg.get("tokens")
    if (not isinstance(tokens, list) or len(tokens) > MAX_PLAYED
            or not all(isinstance(k, str) and k in KIND_IDS for k in tokens)):
        raise Refused("marshal_play takes tokens: a list of at most %d token kinds from his hand" % MAX_PLAYED)
    action = {"do": MARSHAL_PLAY, "tokens": list(tokens)}
    if "sector" in msg:
        v = msg["sector"]
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise Refused("marshal_play's sector: a number from 1 to 6")
        action["sector"] = v
    return ("marshal", "siege", action)


def _new(msg):
    """A new game of Siege with its options: ("new", {players, mode, variants}, replace)."""
    if msg.get("game") != "siege":
        raise Refused("a new game from a page is Siege's (the other games' keys start theirs)")
    extra = set(msg) - {"t", "game", "players", "mode", "variants", "replace"}
    if extra:
        raise Refused("a new game takes players, mode, variants and replace, not %s"
                      % ", ".join(sorted(extra))[:60])
    players, mode, variants = msg.get("players"), msg.get("mode", "standard"), msg.get("variants", [])
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 6:
        raise Refused("players: a number from 1 to 6")
    if mode not in MODES:
        raise Refused("mode: one of %s" % ", ".join(MODES))
    if (not isinstance(variants, list) or not all(isinstance(v, str) and v in VARIANTS for v in variants)
            or len(set(variants)) != len(variants)):
        raise Refused("variants: a list of %s, each once" % ", ".join(VARIANTS))
    replace = msg.get("replace", False)
    if not isinstance(replace, bool):
        raise Refused("replace: true or false")
    return ("new", {"players": players, "mode": mode, "variants": list(variants)}, replace)


def _act(msg):
    """A tap's action: ("act", "siege", {"do": ..., its target}); Refused otherwise."""
    if msg.get("game") != "siege":
        raise Refused("a tap's action is Siege's: \"game\": \"siege\"")
    do = msg.get("do")
    if do not in TOUCH:
        raise Refused("a tap may ask %s, not %r" % (", ".join(sorted(TOUCH)), str(do)[:40]))
    target = TOUCH[do]
    extra = set(msg) - {"t", "game", "do"} - ({target} if target else set())
    if extra:
        raise Refused("%s takes %s, not %s" % (do, target or "nothing", ", ".join(sorted(extra))[:60]))
    action = {"do": do}
    if target is not None:
        v = msg.get(target)
        top = 6 if target == "sector" else 999
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise Refused("%s takes %s: a number from 1 to %d" % (do, target, top))
        action[target] = v
    return ("act", "siege", action)


def _key(msg):
    game, i = msg.get("game"), msg.get("i")
    if not isinstance(i, int) or isinstance(i, bool):
        raise Refused('"i" is the number of a key')
    if i == SWITCH:
        return ("switch",)
    try:
        keymap = view_class(game).KEYMAP
    except (KeyError, TypeError):
        raise Refused("no such game: %r" % (str(game)[:40],)) from None
    if not 0 <= i < len(keymap):
        raise Refused("%s has no key %d" % (game, i))
    name, args = parse_action(keymap[i][1])
    if name in TERMINAL_ONLY:
        raise Refused("%s is for the monitor's screen: a page shows the field marshal's hand only to him "
                      "(his own PIN)" % keymap[i][3])
    if name in NO_WEB:
        raise Refused("%s opens one of the monitor's dialogs: do it in `osada monitor`" % keymap[i][3])
    if name == "digit":
        n = msg.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9:
            raise Refused('the digit key takes "n", 1 to 9')
        args = (n,)
    return ("key", game, name, args)


def pin_words(pin, marshal_pin=None):
    """The PINs as the host's terminal shows them (and nothing else does: issue 59)."""
    if pin is None:
        return ""
    words = "PIN %s" % pin
    if marshal_pin is not None:
        words += " · field marshal's PIN %s (his alone)" % marshal_pin
    return words


class Gate:
    """The PINs' lock.  Wrong tries are counted per address (PIN_TRIES in
    PIN_WINDOW_S, then that address waits out the window) and for the whole
    server (SERVER_TRIES in PIN_WINDOW_S from any addresses: a local process
    can use every address of 127.0.0.0/8); past that no PIN is checked until
    the window has room again.  A page already unlocked stays unlocked.
    try_pin returns (role or None, the sentence for the page); `guessing`
    says when the server-wide limit was reached last (the host says so)."""

    def __init__(self, pin, clock=time.monotonic, marshal_pin=None):
        self.pin = pin
        self.marshal_pin = marshal_pin
        self.clock = clock
        self.wrong = {}               # address -> [times of wrong tries]
        self.all_wrong = []           # times of every wrong try, any address
        self.guessing = None          # when the server-wide limit was last reached, or None

    def try_pin(self, addr, given):
        """(role or None, sentence)."""
        now = self.clock()
        self.all_wrong = [t for t in self.all_wrong if now - t < PIN_WINDOW_S]
        if len(self.all_wrong) >= SERVER_TRIES:
            self.guessing = now
            return None, ("too many wrong PINs on this host lately: try again in %d s"
                          % (PIN_WINDOW_S - (now - self.all_wrong[0]) + 1))
        tries = [t for t in self.wrong.get(addr, ()) if now - t < PIN_WINDOW_S]
        if len(tries) >= PIN_TRIES:
            self.wrong[addr] = tries
            return None, "too many wrong PINs: try again in %d s" % (PIN_WINDOW_S - (now - tries[0]) + 1)
        if self.pin is None:
            return None, "this host takes no actions from pages (start it with --control)"
        if self.marshal_pin is not None and pin_ok(given, self.marshal_pin):
            self.wrong.pop(addr, None)
            return "marshal", "field marshal's PIN accepted: this page shows his hand and may act"
        if pin_ok(given, self.pin):
            self.wrong.pop(addr, None)
            return "player", "PIN accepted: this page may act"
        tries.append(now)
        self.wrong[addr] = tries
        self.all_wrong.append(now)
        if len(self.wrong) > 1000:            # many addresses: forget the oldest (the server-wide count stays)
            self.wrong.pop(next(iter(self.wrong)))
        return None, "wrong PIN (%d of %d tries)" % (len(tries), PIN_TRIES)


class Rate:
    """At most KEYS_PER_S keys a second (a token bucket)."""

    def __init__(self, per_s=KEYS_PER_S, clock=time.monotonic):
        self.per_s, self.clock = per_s, clock
        self.tokens, self.at = float(per_s), clock()

    def take(self):
        now = self.clock()
        self.tokens = min(self.per_s, self.tokens + (now - self.at) * self.per_s)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
