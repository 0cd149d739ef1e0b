# One LED frame: the bytes the strip is sent, in its wire order, for any
# game to paint (the running game's draw(now, frame)).
#
#     f = Frame(Layout("spokes"), brightness=96, order="GRB", max_ma=400, ma_per_channel=20)
#     f.clear(); f.set_pixel(i, r, g, b) ...   # colours 0-255, before brightness and gamma
#     f.limit()                                # the power cap, over everything drawn
#     strip.write(f.buf)
#
# Brightness and gamma: a channel value v (0-255, colour space) becomes
# GAMMA[v] * brightness / 255, rounded, and at least 1 when v > 0 (so dim
# tints stay visible at low brightness).  One 256-byte table (lut) does both;
# a game that keeps colours ready in wire bytes (siege/board.py) builds them
# from it.
#
# Power cap: the frame's current is estimated from the frame itself:
#     frame_ma = idle_ma * count + sum(every channel byte) * ma_per_channel / 255
# (idle_ma = IDLE_MA = 1 mA per LED, the WS2812's own draw).  If it exceeds
# max_ma, every byte is scaled by the same factor so that it fits.
#
# set_pixel(), limit() and the rest allocate nothing on MicroPython.
# Runs on MicroPython and CPython alike.

from osada_fw.layouts import Layout

IDLE_MA = 1             # quiescent current per LED, mA

# 256 entries, monotonic, GAMMA[0] = 0, GAMMA[255] = 255:
# GAMMA[i] = round(255 * (i / 255) ** 2.5).  A literal, not computed at boot:
# the formula needs integers up to 10**12, big ints on the Pico (slow, and
# they allocate).  tests/firmware/test_leds.py recomputes it from the formula.
GAMMA = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
    b"\x01\x02\x02\x02\x02\x02\x02\x02\x02\x03\x03\x03\x03\x03\x04\x04"
    b"\x04\x04\x04\x05\x05\x05\x05\x06\x06\x06\x06\x07\x07\x07\x07\x08"
    b"\x08\x08\x09\x09\x09\x0a\x0a\x0a\x0b\x0b\x0c\x0c\x0c\x0d\x0d\x0e"
    b"\x0e\x0f\x0f\x0f\x10\x10\x11\x11\x12\x12\x13\x13\x14\x14\x15\x16"
    b"\x16\x17\x17\x18\x19\x19\x1a\x1a\x1b\x1c\x1c\x1d\x1e\x1e\x1f\x20"
    b"\x21\x21\x22\x23\x24\x24\x25\x26\x27\x28\x28\x29\x2a\x2b\x2c\x2d"
    b"\x2e\x2e\x2f\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c"
    b"\x3d\x3e\x3f\x40\x41\x43\x44\x45\x46\x47\x48\x49\x4b\x4c\x4d\x4e"
    b"\x50\x51\x52\x53\x55\x56\x57\x59\x5a\x5b\x5d\x5e\x5f\x61\x62\x63"
    b"\x65\x66\x68\x69\x6b\x6c\x6e\x6f\x71\x72\x74\x75\x77\x79\x7a\x7c"
    b"\x7d\x7f\x81\x82\x84\x86\x87\x89\x8b\x8d\x8e\x90\x92\x94\x96\x97"
    b"\x99\x9b\x9d\x9f\xa1\xa3\xa5\xa6\xa8\xaa\xac\xae\xb0\xb2\xb4\xb6"
    b"\xb8\xba\xbd\xbf\xc1\xc3\xc5\xc7\xc9\xcc\xce\xd0\xd2\xd4\xd7\xd9"
    b"\xdb\xdd\xe0\xe2\xe4\xe7\xe9\xeb\xee\xf0\xf3\xf5\xf8\xfa\xfd\xff"
)


def _order_offsets(order):
    if not isinstance(order, str) or len(order) != 3 or sorted(order) != ["B", "G", "R"]:
        raise ValueError("order must be a permutation of RGB such as GRB (got %r)" % (order,))
    return order.index("R"), order.index("G"), order.index("B")


def _int(v, lo, hi, what):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        raise ValueError("%s must be an integer %d-%d (got %r)" % (what, lo, hi, v))
    return v


class Frame:
    """One preallocated frame for a layout; see the module comment."""

    def __init__(self, layout, brightness=96, order="GRB", max_ma=400,
                 ma_per_channel=20, idle_ma=IDLE_MA):
        if not isinstance(layout, Layout):
            raise ValueError("layout must be a layouts.Layout")
        self.layout = layout
        self.count = layout.count
        self.order = order
        self._ro, self._go, self._bo = _order_offsets(order)
        self.max_ma = _int(max_ma, 1, 100000, "max_ma")
        self.ma_per_channel = _int(ma_per_channel, 1, 255, "ma_per_channel")
        self.idle_ma = _int(idle_ma, 0, 100, "idle_ma")
        # the cap in channel-value units: sum(buf) may not exceed this
        b = (self.max_ma - self.idle_ma * self.count) * 255 // self.ma_per_channel
        self._budget = b if b > 0 else 0
        self.limited = False            # did the last limit() scale the frame?
        self.buf = bytearray(self.count * 3)
        self.lut = bytearray(256)
        self.brightness = 0
        self.set_brightness(brightness)

    def set_brightness(self, brightness):
        """1-255; rebuilds the brightness+gamma table in place (a game that
        keeps wire colours rebuilds them after this)."""
        _int(brightness, 1, 255, "brightness")
        self.brightness = brightness
        lut = self.lut
        g = GAMMA
        for v in range(256):
            x = (g[v] * brightness + 127) // 255
            if x == 0 and v > 0:
                x = 1
            lut[v] = x

    def wire(self, rgb, out, at):
        """out[at:at + 3] = the colour rgb (a 3-byte sequence) as this strip's
        wire bytes, brightness and gamma applied."""
        lut = self.lut
        out[at + self._ro] = lut[rgb[0]]
        out[at + self._go] = lut[rgb[1]]
        out[at + self._bo] = lut[rgb[2]]

    # ------------------------------------------------------------- pixels

    def set_pixel(self, i, r, g, b):
        """LED i to colour (r, g, b) (0-255, before brightness and gamma).
        An index outside the strip (e.g. -1 for a missing city LED) is ignored."""
        if i < 0 or i >= self.count:
            return
        lut = self.lut
        buf = self.buf
        o = i * 3
        buf[o + self._ro] = lut[r]
        buf[o + self._go] = lut[g]
        buf[o + self._bo] = lut[b]

    def fill(self, r, g, b):
        """Every LED to (r, g, b)."""
        for i in range(self.count):
            self.set_pixel(i, r, g, b)

    def clear(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0

    def get_pixel(self, i):
        """(r, g, b) wire bytes of LED i (allocates a tuple; for tests and tools)."""
        o = i * 3
        return (self.buf[o + self._ro], self.buf[o + self._go], self.buf[o + self._bo])

    def rgb_list(self):
        """The frame as [[r, g, b], ...] per LED, channels in R, G, B order (the
        wire bytes: after brightness, gamma and the cap).  Allocates; for the
        host protocol and the simulator, not for the frame loop."""
        buf = self.buf
        out = []
        for i in range(self.count):
            o = i * 3
            out.append([buf[o + self._ro], buf[o + self._go], buf[o + self._bo]])
        return out

    # -------------------------------------------------------------- power

    def frame_sum(self):
        return sum(self.buf)            # the builtin's C loop: ~0.8 ms less a frame on a Pico, no allocation

    def frame_ma(self):
        """Estimated current of the frame in .buf, mA (rounded up)."""
        return self.idle_ma * self.count + (self.frame_sum() * self.ma_per_channel + 254) // 255

    def limit(self):
        """Scale the whole frame down if it would draw more than max_ma."""
        total = self.frame_sum()
        budget = self._budget
        if total <= budget:
            self.limited = False
            return
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = buf[i] * budget // total
        self.limited = True
