# The error every rule check raises, and the two helpers that raise it.
# Its own module so that engine.py and custom.py (scenario boards) both use it
# without importing each other.


class RuleError(Exception):
    """An action or setup that breaks a rule.  `rule` names it (R10, R25, ...,
    'turn' for turn order, 'format' for a malformed action or scenario)."""

    def __init__(self, rule, message):
        super().__init__("%s: %s" % (rule, message))
        self.rule = rule
        self.message = message


def bad(rule, message):
    raise RuleError(rule, message)


def need_int(v, lo, hi, what):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        bad("format", "%s must be an integer from %d to %d (got %r)" % (what, lo, hi, v))
    return v
