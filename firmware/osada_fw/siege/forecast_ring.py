# Siege's threat forecast on the ring (F13), as the host sends it: the device
# never works a forecast out, it only draws the one line the host pushes
# ({"cmd": "forecast", ...}, host/osada/siege/ring_forecast.py), for SHOW_MS, and
# only while the game is at the state the forecast is stamped with.  Loaded
# with the first forecast request (siege/commands.py), never at boot.
#
#   stamp  [turn, actions]: the game's turn and len(log) the forecast is for
#   s      six codes, one a sector: LEDs lit (0-4, the bar from the city
#          outward) | colour << 3 (0 green < 10%, 1 amber < 50%, 2 red,
#          3 certain) | 32 the wall alone at risk | 64 the largest (pulses)
#   l      0: the game cannot be lost; 1: it may (the ring flashes red once a
#          second); 2: it is lost for certain (solid red)
#   b, w   per-mille values (the host's words; the device keeps no copy)

from osada_fw import elapsed
from osada_fw.layouts import NPARTS
from osada_fw.link.protocol import CommandError

SHOW_MS = 3000
IMPLEMENTED = ("F13",)      # docs/rules-forecast.md: what the device plays of the forecast
_COLORS = ((0, 200, 0), (255, 150, 0), (255, 0, 0), (255, 150, 150))   # green, amber, red, certain (white-red)
_AMBER = _COLORS[1]


def _code(v, top):
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > top:
        raise CommandError("forecast: s is six codes 0-127 and l is 0, 1 or 2")
    return v


def take(siege, req, now):
    """Check the request; show it on the ring at once (the board's other
    animations give way).  A forecast for another state is refused."""
    stamp = req.get("stamp")
    game = siege.game
    if not isinstance(stamp, list) or len(stamp) != 2:
        raise CommandError("forecast: stamp must be [turn, actions]")
    if stamp[0] != game.turn or stamp[1] != len(game.log):
        raise CommandError("forecast: stale (for turn %s, %s actions; the game is at turn %d, %d actions)"
                           % (stamp[0], stamp[1], game.turn, len(game.log)))
    s = req.get("s")
    if not isinstance(s, list) or len(s) != 6:
        raise CommandError("forecast: s must be six sector codes")
    codes = bytes([_code(v, 127) for v in s])
    show = Show(game, siege.board, codes, _code(req.get("l", 0), 2), now)
    siege.animations()
    siege.anims = [show]
    return {"shown_ms": SHOW_MS}


def _picture(frame, inv, codes, lost, pulse):
    """One picture of the forecast in the frame's wire bytes (a copy): the
    bars (the largest dark when pulse is off), or the ring all red (lost)."""
    frame.clear()
    for s0 in range(6):
        base = s0 * NPARTS
        if lost:
            for p in range(base, base + NPARTS):
                frame.set_pixel(inv[p], 255, 0, 0)
            continue
        c = codes[s0]
        if c & 64 and not pulse:
            continue
        col = _COLORS[(c >> 3) & 3]
        for k in range(c & 7):               # from the city outward: tank, artillery, air, rear
            frame.set_pixel(inv[base + 3 - k], col[0], col[1], col[2])
        if c & 32:
            frame.set_pixel(inv[base + 3], _AMBER[0], _AMBER[1], _AMBER[2])
    return bytes(frame.buf)


class Show:
    """The forecast for SHOW_MS, an animation (siege/anim.py's run steps it):
    its pictures are made once, so a frame only copies one; it ends at once
    when the game moves on from its stamp."""

    def __init__(self, game, board, codes, lost, now):
        self.game = game
        self.log_len = len(game.log)
        self.turn = game.turn
        self.start_ms = now
        frame, inv = board.frame, board.layout.inv
        self.lost = lost
        self.red = _picture(frame, inv, codes, True, True) if lost else None
        self.on = _picture(frame, inv, codes, False, True)
        self.off = _picture(frame, inv, codes, False, False)

    def step(self, now, r):
        g = self.game
        t = elapsed(now, self.start_ms)
        if t >= SHOW_MS or len(g.log) != self.log_len or g.turn != self.turn:
            return False                         # never a forecast of another state
        if self.lost == 2 or (self.lost and t % 1000 < 250):
            pic = self.red
        else:
            pic = self.on if t % 1000 < 500 else self.off
        r.frame.buf[:] = pic
        return True
