"""`make test` ends with one SKIPPED line per reason, with a count (issue 42,
item 10: 34 near-identical lines, one per file, before): tests/conftest.py's
pytest_terminal_summary, run in a pytest of its own on three files."""

import os

pytest_plugins = "pytester"

HERE = os.path.dirname(os.path.abspath(__file__))


def test_skips_of_one_reason_in_many_files_are_one_line(pytester):
    with open(os.path.join(HERE, "conftest.py"), encoding="utf-8") as f:
        pytester.makeconftest(f.read())
    skip = 'import pytest\npytestmark = pytest.mark.skip(reason="no firmware image")\n\ndef test_a():\n    pass\n'
    pytester.makepyfile(test_one=skip, test_two=skip + "\ndef test_b():\n    pass\n",
                        test_three='import pytest\n\ndef test_c():\n    pytest.skip("no Node.js")\n')
    result = pytester.runpytest("-ra", "-p", "no:cacheprovider", "-p", "no:textual-snapshot", "-p", "no:xdist")
    lines = [ln for ln in result.outlines if ln.startswith("SKIPPED")]
    assert lines == ["SKIPPED [3] *.py (2 files): no firmware image",
                     "SKIPPED [1] test_three.py:4: no Node.js"], result.outlines
    assert "4 skipped" in result.outlines[-1]
