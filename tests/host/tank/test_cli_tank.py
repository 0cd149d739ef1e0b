"""`osada tank odds`: the exact odds of a «Танковый бой» fire test as a table
(P(=k), P(>=k) to one decimal), expected values and a bar chart within 80
columns; bad input is one clear error and exit code 2."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada import cli  # noqa: E402


def odds(capsys, *argv):
    code = cli.main(["tank", "odds"] + list(argv))
    captured = capsys.readouterr()
    return code, captured.out.split("\n"), captured.err


def rows(lines, title):
    """{k: (P(=k), P(>=k), bar length)} of the table headed by title."""
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [title])
    out = {}
    for line in lines[start + 1:]:
        parts = line.split()
        if not parts or not parts[0].isdigit():
            break
        out[int(parts[0])] = (parts[1], parts[2], len(parts[3]) if len(parts) > 3 else 0)
    return out


def test_t12_six_dice_hit_on_3_table(capsys):
    code, lines, err = odds(capsys, "--dice", "6", "--hit", "3")
    assert code == 0 and err == ""
    assert lines[0] == "Fire test: 6 dice"
    table = rows(lines, "hits")
    assert sorted(table) == list(range(7))
    assert table[0][:2] == ("1.6%", "100.0%")
    assert table[2][:2] == ("23.4%", "89.1%")          # P(>=2) = 57/64
    assert table[3][2] == 40                           # the likeliest row has the full bar
    assert "expected hits: 3" in lines


def test_t16_e1_numbers_with_protection(capsys):
    code, lines, _ = odds(capsys, "--dice", "12", "--hit", "2", "--protection", "4")
    assert code == 0
    hits = rows(lines, "hits")
    assert hits[5][1] == "36.8%"                         # P(H>=5) = 65275/177147
    assert hits[6][1] == "17.8%"                         # P(H>=6) = 31483/177147
    assert "        (k = 10-12: below 0.05% each, not shown)" in lines
    assert "expected hits: 4" in lines
    damage = rows(lines, "damage")
    assert damage[0] == ("63.2%", "100.0%", 40)
    assert damage[1][1] == "36.8%"
    assert "expected damage: 0.636 (112640/177147)" in lines
    assert "at least 1 damage: 36.8%" in lines


def test_t27_suppress_raises_the_dice_and_t13_ambush_the_hit_number(capsys):
    code, lines, _ = odds(capsys, "--dice", "12", "--hit", "1", "--suppress", "--ambush", "--protection", "4")
    assert code == 0
    assert lines[0] == "Suppression fire: card intensity 12 -> 18 dice (T27)"
    assert lines[1] == "accuracy 1 +1 ambush = 2: a die hits on 1-2 (2/6)"
    assert rows(lines, "hits")[5][1] == "76.9%"          # 297898313/387420489
    assert "expected damage: 2.142 (829760146/387420489)" in lines


@pytest.mark.parametrize("argv", [
    ["--dice", "60", "--hit", "3", "--suppress", "--protection", "0"],
    ["--dice", "1", "--hit", "0"], ["--dice", "1", "--hit", "6", "--protection", "30"],
    ["--dice", "24", "--hit", "5", "--ambush", "--protection", "2"],
])
def test_output_fits_80_columns_and_percentages_have_one_decimal(capsys, argv):
    code, lines, _ = odds(capsys, *argv)
    assert code == 0
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)
    for title in ("hits", "damage") if "--protection" in argv else ("hits",):
        table = rows(lines, title)
        assert table
        for eq, ge, _bar in table.values():
            assert eq.endswith("%") and len(eq.split(".")[1]) == 2        # one decimal and '%'
            assert ge.endswith("%") and len(ge.split(".")[1]) == 2


@pytest.mark.parametrize("argv,message", [
    (["--dice", "0", "--hit", "3"], "argument --dice: N must be 1..60 (got 0)"),
    (["--dice", "61", "--hit", "3"], "argument --dice: N must be 1..60 (got 61)"),
    (["--dice", "six", "--hit", "3"], "argument --dice: N must be a whole number, not 'six'"),
    (["--dice", "6", "--hit", "7"], "argument --hit: V must be 0..6 (got 7)"),
    (["--dice", "6", "--hit", "-1"], "argument --hit: V must be 0..6 (got -1)"),
    (["--dice", "6", "--hit", "3", "--protection", "-2"], "argument --protection: P must be >= 0 (got -2)"),
    (["--hit", "3"], "the following arguments are required: --dice"),
])
def test_bad_input_is_one_clear_error_and_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        cli.main(["tank", "odds"] + argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "osada: tank odds: %s (see osada tank odds --help)\n" % message    # one line, as all


def test_tank_without_a_command_prints_help_and_exits_2(capsys):
    assert cli.main(["tank"]) == 2
    assert "odds" in capsys.readouterr().out


def test_an_outcome_that_cannot_happen_is_impossible_not_below_a_twentieth_percent(capsys):
    # no die hits on 0 (T12): 1-6 hits and any damage cannot happen at all
    code, lines, _ = odds(capsys, "--dice", "6", "--hit", "0", "--protection", "2")
    assert code == 0
    assert "        (k = 1-6: impossible, not shown)" in lines
    assert "        (d = 1-4: impossible, not shown)" in lines
    assert "at least 1 damage: impossible" in lines
    assert not any("0.05%" in line or " 0.0%" in line for line in lines)


def test_every_die_hits_so_fewer_hits_are_impossible(capsys):
    code, lines, _ = odds(capsys, "--dice", "6", "--hit", "6", "--protection", "6")
    assert code == 0
    assert "        (k = 0-5: impossible, not shown)" in lines
    assert "at least 1 damage: impossible" in lines                # 6 hits, protection 6


def test_a_tiny_but_possible_outcome_stays_below_a_twentieth_percent(capsys):
    # 6 hits from 6 dice hitting on 1: 1/46656 = 0.002%; 1 damage past protection 5 the same
    code, lines, _ = odds(capsys, "--dice", "6", "--hit", "1", "--protection", "5")
    assert code == 0
    assert "        (k = 6: below 0.05%, not shown)" in lines
    assert "        (d = 1: below 0.05%, not shown)" in lines
    assert "at least 1 damage: below 0.05%" in lines
    assert not any("impossible" in line for line in lines)
