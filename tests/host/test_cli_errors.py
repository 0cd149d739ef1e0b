"""Every `osada` command's mistakes have one shape (issue 42, item 10: "osada
victory pay: argument --have" beside "osada: victory pay:", a usage block
and "error:" in others): one line on stderr, `osada: COMMAND: what is wrong
(see osada COMMAND --help)`, exit status 2, nothing on stdout."""

import os

import pytest

from osada import cli


@pytest.mark.parametrize("argv,where,says", [
    (["victory", "pay", "--have", "x", "--cost", "1,2,1"], "victory pay", "--have is three whole numbers"),
    (["tank", "odds", "--dice", "x", "--hit", "3"], "tank odds", "argument --dice: N must be a whole number"),
    (["warchest", "odds", "--bag"], "warchest odds", "argument --bag: expected one argument"),
    (["line", "eval", "R3", "--bogus"], "line eval", "unknown option: --bogus"),
    (["warchest", "replay", "a.json", "b.json"], "warchest replay", "unexpected argument: b.json"),
    (["demo", "--players", "x"], "demo", "argument --players: invalid int value: 'x'"),
    (["sim", "--bogus"], "sim", "unknown option: --bogus"),
    (["--bogus"], None, "unknown option: --bogus"),
])
def test_every_argument_error_is_one_line_of_one_shape(capsys, argv, where, says):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    got = capsys.readouterr()
    assert exc.value.code == 2 and got.out == ""
    prog = " ".join(["osada"] + (where.split() if where else []))
    assert got.err.count("\n") == 1 and got.err.startswith("osada: %s%s" % (where + ": " if where else "", says))
    assert got.err.endswith(" (see %s --help)\n" % prog), got.err


def test_the_demo_names_its_option_not_the_rules_cores_format(capsys):
    assert cli.main(["demo", "--players", "9"]) == 2
    assert capsys.readouterr().err == ("osada: demo: --players must be an integer from 2 to 6 (got 9; R3: standard "
                                       "and shoulder take 2-6)\n")


def test_every_command_that_prints_stops_quietly_when_its_reader_goes(tmp_path):
    """Issue 61, 4: `osada line claim --state docs/line-table-t.json | head` ended in a
    BrokenPipeError traceback: a closed pipe stops any command quietly."""
    import subprocess
    import sys as _sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cmd = ("import sys; sys.argv = ['osada', 'line', 'claim', '--state', %r]; from osada.cli import main; "
           "sys.exit(main())" % os.path.join(root, "docs", "line-table-t.json"))
    p = subprocess.Popen([_sys.executable, "-c", cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)
    p.stdout.close()                                       # as `head` does once it has its lines
    err = p.stderr.read().decode()
    p.wait(30)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
