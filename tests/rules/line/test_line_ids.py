"""Every rule id the line-of-battle package declares (shared_rules.line.IMPLEMENTED)
exists in the spec and is named by a test (`test_l9_...`, `test_l10_l11_...`)
somewhere under tests/."""

import os
import re

import pytest

from shared_rules.line import IMPLEMENTED

TESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(os.path.dirname(os.path.dirname(TESTS)), "shared", "spec", "line-of-battle.md")


def ids_named(names):
    """The L ids test names carry: 'test_l10_l11_x' -> {'L10', 'L11'}."""
    found = set()
    for n in names:
        found.update("L" + d for d in re.findall(r"(?:^test|_)l(\d+)(?=_|$)", n))
    return found


def test_ids_are_read_from_test_names():
    assert ids_named({"test_l10_l11_compare", "test_l9", "test_example_l2_x", "test_la3_no_wrap"}) == {
        "L10", "L11", "L9", "L2"}


def test_every_implemented_id_is_named_by_a_test():
    names = set()
    for dirpath, _dirs, files in os.walk(TESTS):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    names.update(re.findall(r"^\s*def (test_\w+)", fh.read(), re.M))
    assert len(IMPLEMENTED) == len(set(IMPLEMENTED)) > 10
    missing = sorted(set(IMPLEMENTED) - ids_named(names), key=lambda i: int(i[1:]))
    assert missing == [], "declared but no test names them: %s" % ", ".join(missing)


@pytest.mark.skipif(not os.path.isfile(SPEC), reason="the spec (../shared/spec) is not beside this checkout")
def test_every_implemented_id_is_a_rule_of_the_spec():
    with open(SPEC, encoding="utf-8") as fh:
        spec_ids = set(re.findall(r"^- \*\*(L\d+)\.\*\*", fh.read(), re.M))
    assert len(spec_ids) == 25
    assert sorted(set(IMPLEMENTED) - spec_ids) == []
