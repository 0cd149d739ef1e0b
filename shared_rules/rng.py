# The game's random generator: the die and the shuffles.
#
# Requirements (rules core issue): integer-only, the same sequence on CPython
# and MicroPython, no heap allocation per draw on MicroPython, an unbiased die.
#
# It is xorshift32 (Marsaglia, 2003: x ^= x<<13; x ^= x>>17; x ^= x<<5) with
# the 32-bit state kept as two 16-bit halves.  Every intermediate value stays
# below 2**30, so on a 32-bit MicroPython port all of them are small ints and a
# draw allocates nothing.  Draws use rejection sampling, never a bare modulo.

_MASK16 = 0xFFFF


class Rng:
    def __init__(self, seed=1):
        if not isinstance(seed, int) or seed < 0 or seed > 0xFFFFFFFF:
            raise ValueError("seed must be an integer from 0 to 4294967295")
        # Mix the seed so that nearby seeds start far apart; xorshift's state
        # must not be all zero.
        self.hi = ((seed >> 16) & _MASK16) ^ 0x9E37
        self.lo = (seed & _MASK16) ^ 0x79B9
        if self.hi == 0 and self.lo == 0:
            self.lo = 1
        for _ in range(8):
            self.next15()

    def next15(self):
        """Advance the state and return 15 random bits (0..32767)."""
        hi = self.hi
        lo = self.lo
        # x ^= x << 13
        hi ^= ((hi << 13) | (lo >> 3)) & _MASK16
        lo ^= (lo << 13) & _MASK16
        # x ^= x >> 17
        lo ^= hi >> 1
        # x ^= x << 5
        hi ^= ((hi << 5) | (lo >> 11)) & _MASK16
        lo ^= (lo << 5) & _MASK16
        self.hi = hi
        self.lo = lo
        return hi >> 1

    def below(self, n):
        """Uniform integer in 0..n-1 for 1 <= n <= 32768 (rejection sampling)."""
        limit = 32768 - (32768 % n)
        r = self.next15()
        while r >= limit:
            r = self.next15()
        return r % n

    def die(self):
        """One roll of the six-sided die: 1..6, unbiased."""
        r = self.next15()
        while r >= 32766:          # 32766 = 6 * 5461: reject the 2 excess values
            r = self.next15()
        return r % 6 + 1

    def shuffle(self, items):
        """Fisher-Yates shuffle of a list, in place (random.shuffle is not on MicroPython)."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1

    def state(self):
        return (self.hi, self.lo)
