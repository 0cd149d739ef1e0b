# Rolling the dice of «Танковый бой» (rules: docs/rules-tank.md).
#
# The die is the rules core's own (shared_rules.rng.Rng.die): a d6 (T1, TA1)
# drawn by rejection sampling from 15 random bits, never a bare modulo, and
# allocation-free on MicroPython.  A roll of N dice fills a caller-owned
# bytearray (make one with dice_buffer() once), so rolling allocates nothing
# per die; the counting helpers only read it.

MAX_DICE = 96          # a buffer big enough for any roll here (60 card dice + suppression)


def dice_buffer(size=MAX_DICE):
    """The preallocated buffer the rolls fill: one byte per die."""
    return bytearray(size)


def roll(rng, buf, n):
    """Roll n dice into buf[0:n] (faces 1..6).  Allocates nothing per die."""
    if n < 0 or n > len(buf):
        raise ValueError("dice: n must be 0..%d" % len(buf))
    i = 0
    while i < n:
        buf[i] = rng.die()        # a method call, not a bound method: no allocation
        i += 1


def count_at_most(buf, n, v):
    """How many of the first n dice show a face <= v."""
    c = 0
    i = 0
    while i < n:
        if buf[i] <= v:
            c += 1
        i += 1
    return c


def dice_sum(buf, n):
    s = 0
    i = 0
    while i < n:
        s += buf[i]
        i += 1
    return s


def effective_accuracy(accuracy, ambush=False):
    """T13: the hit number after the one modifier, ambush +1 (T35), clamped to
    0..6: 6 or more hits with every die, 0 or less with none."""
    v = accuracy + 1 if ambush else accuracy
    if v < 0:
        return 0
    if v > 6:
        return 6
    return v


def suppression_dice(intensity):
    """T14/T27: suppression fire rolls N + ceil(N/2) dice (E4: 12 -> 18, 7 -> 11)."""
    if intensity < 0:
        raise ValueError("intensity must be >= 0")
    return intensity + (intensity + 1) // 2


def fire_test(rng, buf, n, accuracy, ambush=False):
    """T12 steps 4-7: roll n dice; a die is a hit if its face <= the effective
    accuracy (T13).  Returns the number of hits; the faces stay in buf[0:n]."""
    roll(rng, buf, n)
    return count_at_most(buf, n, effective_accuracy(accuracy, ambush))


def suppression_fire(rng, buf, intensity, accuracy, ambush=False):
    """T27: the fire test with N + ceil(N/2) dice.  Returns the hits; the target
    always takes a morale test (T20), whatever the hits."""
    return fire_test(rng, buf, suppression_dice(intensity), accuracy, ambush)


def morale_passes(total, steadiness):
    """T21: the test passes if the dice sum does not exceed the steadiness."""
    return total <= steadiness


def morale_test(rng, buf, n, steadiness):
    """T21: roll n dice (the card's steadiness table says how many, TA3);
    True if the sum <= current steadiness.  The faces stay in buf[0:n]."""
    roll(rng, buf, n)
    return morale_passes(dice_sum(buf, n), steadiness)


def counter_attack_ties(rng, buf):
    """T29: each side rolls one die, the higher moves into the enemy hex; no
    steadiness is added.  Ties are re-rolled until they differ (TA8).  The
    deciding faces are buf[0] (side A) and buf[1] (side B); the face of each
    tied throw, in order, goes to buf[2:] while there is room.  Returns the
    number of tied throws re-rolled.  Allocates nothing."""
    ties = 0
    room = len(buf)
    while True:
        roll(rng, buf, 2)
        if buf[0] != buf[1]:
            return ties
        if 2 + ties < room:
            buf[2 + ties] = buf[0]
        ties += 1


def counter_attack(rng, buf):
    """T29 (TA8 ties re-rolled): 0 if side A wins, 1 if side B; the deciding
    faces are buf[0], buf[1]."""
    counter_attack_ties(rng, buf)
    return 0 if buf[0] > buf[1] else 1


def unit_totals(rng, buf, totals, steadiness, n):
    """T39: n units each roll one die and add their current steadiness:
    faces in buf[0:n], die + steadiness[i] in totals[i].  Allocates nothing."""
    roll(rng, buf, n)
    i = 0
    while i < n:
        totals[i] = buf[i] + steadiness[i]
        i += 1


def highest(totals, start, stop):
    """The highest of totals[start:stop] (-1 for none), without slicing."""
    best = -1
    i = start
    while i < stop:
        if totals[i] > best:
            best = totals[i]
        i += 1
    return best


def collision_result(totals_a, totals_b):
    """T39 with several units per side (TA9): a unit moves into the hex only if
    its total (die + current steadiness) is greater than every opposing total;
    equal totals stay adjacent.  Returns (indices of A that enter, of B)."""
    best_a = max(totals_a) if totals_a else -1
    best_b = max(totals_b) if totals_b else -1
    enter_a = [i for i in range(len(totals_a)) if totals_a[i] > best_b]
    enter_b = [i for i in range(len(totals_b)) if totals_b[i] > best_a]
    return enter_a, enter_b


def collision(rng, buf, steadiness_a, steadiness_b):
    """T39: every unit rolls one die and adds its current steadiness.  Returns
    (totals_a, totals_b, enter_a, enter_b); the faces are in buf, A's first."""
    na = len(steadiness_a)
    n = na + len(steadiness_b)
    totals = [0] * n
    unit_totals(rng, buf, totals, list(steadiness_a) + list(steadiness_b), n)
    totals_a = totals[:na]
    totals_b = totals[na:]
    enter_a, enter_b = collision_result(totals_a, totals_b)
    return totals_a, totals_b, enter_a, enter_b
