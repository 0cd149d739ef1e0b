"""Tank battle («Кубики») in the monitor: the test and its numbers as the
player sets them here (TankSetup), sent with the roll, and the game panel
that shows them.  The tests, their numbers, ranges and defaults are the
device's own (osada_fw.tank.mode: TESTS, FIELDS, TEST_FIELDS); the device
stays the authority: its `state` (after a connect, a switch, every roll)
replaces the numbers of its current test, so a protection a fire roll
lowered (T16) or a number set with the device's knob shows here too."""

from rich.text import Text

from osada_fw.tank import mode as M

from .keys import keys_for

TEST_WORDS = {"fire": "fire (T12)", "suppress": "suppression fire (T27)", "morale": "morale test (T21)",
              "counter": "counter-attack (T29)", "collision": "collision (T39)"}
UNIT_RANGE = (M.FIELDS[M.F_A1][1], M.FIELDS[M.F_A1][2])          # a collision unit's steadiness
SIDE_RANGE = (M.FIELDS[M.F_NA][1], M.FIELDS[M.F_NA][2])          # units a side


def defaults(test):
    """A test's numbers as the device starts them: {"dice": 6, ...}; a collision {"a": [7], "b": [7]}."""
    if test == "collision":
        return {"a": [M.FIELDS[M.F_A1][3]] * M.FIELDS[M.F_NA][3], "b": [M.FIELDS[M.F_B1][3]] * M.FIELDS[M.F_NB][3]}
    out = {}
    for f in M.TEST_FIELDS[M.TESTS.index(test)]:
        out.setdefault(M.FIELDS[f][0], M.FIELDS[f][3])
    return out


def rows(test, nums):
    """The numbers a player sets, in the device's order: (key, label, value as shown, lo, hi)."""
    if test == "collision":
        out = []
        for side in ("a", "b"):
            units = nums[side]
            out.append((side + " units", "side %s: units" % side.upper(), len(units)) + SIDE_RANGE)
            for i, s in enumerate(units):
                out.append(("%s%d" % (side, i + 1), "  %s%d steadiness" % (side.upper(), i + 1), s) + UNIT_RANGE)
        return out
    out = []
    for f in M.TEST_FIELDS[M.TESTS.index(test)]:
        key, lo, hi, _d = M.FIELDS[f]
        label = {"dice": "intensity (card)" if test == "suppress" else "dice", "hit": "hit on ≤"}.get(key, key)
        v = nums[key]
        out.append((key, label, ("yes" if v else "no") if key == "ambush" else v, lo, hi))
    return out


def changed(test, nums, key, d):
    """The numbers with `key` moved by d, wrapping in its range (a new dict)."""
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in nums.items()}
    for k, _label, _v, lo, hi in rows(test, nums):
        if k != key:
            continue
        span = hi - lo + 1
        if key.endswith(" units"):
            side = out[key[0]]
            n = lo + (len(side) - lo + d) % span
            out[key[0]] = (side + [side[-1]] * n)[:n]
        elif test == "collision":
            side, i = key[0], int(key[1:]) - 1
            out[side][i] = lo + (out[side][i] - lo + d) % span
        else:
            out[key] = lo + (int(out[key]) - lo + d) % span
    return out


def _protection(nums, p):
    """Set the target's protection in `nums` (every test's numbers, a new dict's):
    one protection, whichever of the two fire tests shoots at it."""
    for t in ("fire", "suppress"):
        nums[t] = dict(nums[t], protection=p)


class TankSetup:
    """The test the monitor rolls and every test's numbers; `field` marks the
    row + and − change, as the board's cursor does: 0 the test, then its
    numbers (1 the first).  Immutable: each change is a new one (the app's
    reactive attribute is replaced, and the panel redraws)."""

    def __init__(self, test="fire", numbers=None, field=0, turn_protection=None):
        self.test = test
        self.numbers = numbers or {t: defaults(t) for t in M.TESTS}
        self.field = field
        fire = self.numbers["fire"]
        self.turn_protection = fire["protection"] if turn_protection is None else turn_protection

    def _with(self, **kw):
        args = dict(test=self.test, numbers=self.numbers, field=self.field, turn_protection=self.turn_protection)
        args.update(kw)
        return TankSetup(**args)

    def rows(self):
        return rows(self.test, self.numbers[self.test])

    def next_test(self, d):
        return self._with(test=M.TESTS[(M.TESTS.index(self.test) + d) % len(M.TESTS)], field=0)

    def next_field(self, d):
        n = len(self.rows()) + 1                      # the test, then its numbers
        return self._with(field=(self.field + d) % n)

    def change(self, d):
        """The marked row moved by d: the test (field 0), or one of its numbers."""
        rs = self.rows()
        if self.field == 0 or not rs:
            return self.next_test(d)
        key = rs[min(self.field - 1, len(rs) - 1)][0]
        nums = dict(self.numbers)
        nums[self.test] = changed(self.test, self.numbers[self.test], key, d)
        turn = self.turn_protection
        if key == "protection":                       # what the player sets is the turn's (T17)
            turn = nums[self.test]["protection"]
            _protection(nums, turn)
        last = len(rows(self.test, nums[self.test]))       # a collision side with fewer units: fewer rows
        return self._with(numbers=nums, turn_protection=turn, field=min(self.field, last))

    def new_turn(self):
        """T17: a new game turn, the protection back to the value set."""
        nums = dict(self.numbers)
        _protection(nums, self.turn_protection)
        return self._with(numbers=nums)

    def reset(self):
        nums = dict(self.numbers)
        nums[self.test] = defaults(self.test)
        turn = nums["fire"]["protection"] if self.test in ("fire", "suppress") else self.turn_protection
        return self._with(numbers=nums, field=0, turn_protection=turn)

    def from_device(self, st):
        """The device's `state` (its "tank"): its test and that test's numbers replace ours."""
        test = st.get("test")
        nums = st.get("numbers")
        if test not in M.TESTS or not isinstance(nums, dict):
            return self
        mine = dict(self.numbers)
        merged = dict(defaults(test))
        merged.update({k: v for k, v in nums.items() if k in merged})
        if test in ("fire", "suppress"):
            _protection(mine, merged["protection"])
        mine[test] = merged
        return self._with(test=test, numbers=mine, field=self.field if test == self.test else 0)

    def request(self):
        """The `roll` request's fields: the test and its numbers."""
        out = {"test": self.test}
        out.update(self.numbers[self.test])
        return out


def panel_text(setup, stale=False, compact=False):
    """The game panel while the device runs Tank battle: the tests, the numbers
    (the marked one ▶), the keys that roll and change them."""
    t = Text()
    if stale:
        t.append("STALE (connection lost)\n", style="bold black on #d0a000")
    t.append("Tank battle («Кубики») on the device\n", style="bold")
    t.append("▶ " if setup.field == 0 else "  ", style="bold #ffd24a")
    for name in M.TESTS:
        if name == setup.test:
            t.append("[%s]" % TEST_WORDS[name], style="bold black on #7fd7ff")
        else:
            t.append(name, style="dim")
        t.append(" ")
    t.append("\n")
    rs = setup.rows()
    if not rs:
        t.append("  no numbers: one die each side, ties re-rolled\n")
    for i, (_k, label, value, lo, hi) in enumerate(rs):
        mark = i + 1 == setup.field
        t.append(("▶ " if mark else "  ") + label.ljust(19), style="bold #ffd24a" if mark else "")
        t.append(str(value).rjust(3), style="bold")
        if not compact:
            t.append("   (%s)" % ("yes / no" if _k == "ambush" else "%d–%d" % (lo, hi)), style="dim")
        t.append("\n")
    t.append("%s mark · %s change · %s roll · %s new turn\n" % (
        keys_for("field(-1)"), keys_for("change(-1)"), keys_for("roll"), keys_for("new_turn")), style="#7fd7ff")
    if not compact:
        t.append("%s: the next game; Siege's game in progress is kept.\n" % keys_for("switch_game"), style="dim")
    t.rstrip()
    return t
