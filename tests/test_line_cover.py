"""tests/line_cover.py: the statement-coverage rewriter used on the emulated
Pico, checked on CPython where the answer is known."""

from line_cover import VAR, Report, instrument

SRC = '''"""doc"""
import os


def f(x):
    """f's doc"""
    if x:
        y = 1
    else:
        y = 2
    return y


class C:
    n = 0

    def m(self):
        try:
            raise ValueError
        except ValueError:
            self.n += 1
        finally:
            pass
        for _ in ():
            pass
        else:
            return self.n


def never():
    return 0
'''


def run(src):
    ns = {}
    exec(compile(src, "<cover>", "exec"), ns)
    return ns


def test_every_statement_gets_a_byte_and_only_what_ran_is_marked():
    out, stmts = instrument(SRC)
    ns = run(out)
    assert ns["__doc__"] == "doc" and ns["f"].__doc__ == "f's doc"     # docstrings kept
    assert ns["f"](1) == 1 and ns["C"]().m() == 1
    rep = Report(stmts, ns[VAR])
    missed = sorted(s.line for s in rep.missed())
    assert missed == [10, 25, 31]          # y = 2; the empty loop's body; never()'s return
    assert rep.never_entered() == ["never"]
    funcs = rep.functions()
    assert funcs["f"] == (4, 5) and funcs["C.m"][0] == funcs["C.m"][1] - 1
    assert rep.percent() == 100.0 * (len(stmts) - 3) / len(stmts)
    ns["f"](0)
    assert 10 not in [s.line for s in Report(stmts, ns[VAR]).missed()]


def test_a_report_of_the_wrong_size_is_refused():
    _out, stmts = instrument(SRC)
    try:
        Report(stmts, b"\x01")
    except ValueError as exc:
        assert "statements" in str(exc)
    else:
        raise AssertionError("a short hit list was taken")
