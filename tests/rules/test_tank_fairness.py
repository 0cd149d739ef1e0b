"""The «Танковый бой» dice are fair (T1: a d6): chi-square goodness of fit over
a fixed-seed sample, so the tests are deterministic.  The critical values at
the 0.999 level come from tests/rules/test_rng.py (checked there against an
incomplete-gamma helper, and re-checked here for df = 8)."""

from test_rng import CRIT_999, chi2_cdf, chi_square

from shared_rules.rng import Rng
from shared_rules.tank import dice, odds

ROLLS = 60000
SEED = 20261123


def face_counts(roll_into, n=ROLLS):
    buf = bytearray(60)
    counts = [0] * 7
    done = 0
    while done < n:
        roll_into(buf, 60)
        for f in buf:
            counts[f] += 1
        done += 60
    return counts[1:]


def test_t1_faces_of_60000_rolls_are_uniform_chi_square():
    rng = Rng(SEED)
    counts = face_counts(lambda buf, n: dice.roll(rng, buf, n))
    stat = chi_square(counts, ROLLS / 6)
    assert sum(counts) == ROLLS
    assert stat < CRIT_999[5], (stat, counts)
    print("chi-square, 5 df, %d rolls: %.2f (0.999 quantile %.2f)" % (ROLLS, stat, CRIT_999[5]))


def test_t1_a_biased_die_is_rejected_by_the_same_test():
    rng = Rng(SEED)

    def modulo_die(buf, n):             # 3 random bits, a bare modulo: faces 1 and 2 twice as likely
        for i in range(n):
            buf[i] = (rng.next15() & 7) % 6 + 1

    assert chi_square(face_counts(modulo_die), ROLLS / 6) > CRIT_999[5]

    def slightly_loaded(buf, n):        # one 6 in 20 turned into a 1: P(6) = 0.158
        for i in range(n):
            f = rng.die()
            buf[i] = 1 if f == 6 and rng.below(20) == 0 else f

    assert chi_square(face_counts(slightly_loaded), ROLLS / 6) > CRIT_999[5]


def test_t12_rolled_hits_follow_the_exact_distribution():
    """12 dice hitting on <= 2, 5000 fire tests (60000 dice): the rolled hit
    counts fit odds.hit_counts (bins 0..7, 8+ pooled: 8 df)."""
    rng = Rng(SEED + 1)
    buf = dice.dice_buffer()
    tests = 5000
    seen = [0] * 9
    for _ in range(tests):
        h = dice.fire_test(rng, buf, 12, 2)
        seen[h if h < 8 else 8] += 1
    counts, den = odds.hit_counts(12, 2)
    expected = [tests * c / den for c in counts[:8]] + [tests * odds.at_least(counts, 8) / den]
    stat = sum((o - e) ** 2 / e for o, e in zip(seen, expected))
    crit8 = 26.12
    assert abs(chi2_cdf(crit8, 8) - 0.999) < 2e-4
    assert stat < crit8, (stat, seen)
