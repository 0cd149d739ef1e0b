# One target's protection over a turn (spec T16, T17, T19; E1 is the test).
#
# T19's model: keep the hits taken this turn; remaining protection is
# max(0, base + terrain - hits_taken), and terrain counts 0 while the unit is
# suppressed (T18, T22; TA6: dropped at once).  A batch of h hits deals
# max(0, h - remaining) damage.  Hits from every shooter and order of the turn
# add up (T16); new_turn() restores the initial value (T17).


class TargetTurn:
    """A target unit's protection and strength across the turns of a game."""

    def __init__(self, base, terrain=0, strength=3, suppressed=False):
        if base < 0 or terrain < 0 or strength < 0:
            raise ValueError("protection, terrain and strength must be >= 0")
        self.base = base
        self.terrain = terrain
        self.strength = strength          # T2: tanks left (a full platoon is 3)
        self.suppressed = suppressed
        self.hits_taken = 0

    def protection(self):
        """The initial protection of the turn: base + terrain, base only while suppressed."""
        return self.base + (0 if self.suppressed else self.terrain)

    def remaining(self):
        r = self.protection() - self.hits_taken
        return r if r > 0 else 0

    def take(self, hits, suppression=False):
        """Apply one order's batch of hits (several shooters of one step pooled
        first, TA4).  Returns (absorbed, damage, morale_test_due): a test is due
        on any damage, or always after suppression fire (T20, TA5: one test)."""
        if hits < 0:
            raise ValueError("hits must be >= 0")
        left = self.remaining()
        absorbed = hits if hits < left else left
        damage = hits - absorbed
        self.hits_taken += hits
        lost = damage if damage < self.strength else self.strength
        self.strength -= lost             # T12 step 10, T2: each damage is one tank
        return absorbed, damage, (damage > 0 or suppression)

    def suppress(self):
        """T22: a failed morale test; the terrain bonus is gone at once (TA6)."""
        self.suppressed = True

    def rally(self):
        """T10: a passed phase-3 test: orders again next turn, terrain counts again."""
        self.suppressed = False

    def new_turn(self):
        """T17: protection returns to its initial value at the start of a turn."""
        self.hits_taken = 0

    def destroyed(self):
        return self.strength == 0
