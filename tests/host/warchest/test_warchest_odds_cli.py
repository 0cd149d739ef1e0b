"""`osada warchest odds`: for every coin type, P(at least one in the next
hand) and within R rounds as `p/q (xx.x%)`, or --json's fractions; the
spec's worked examples 1-5 word for word; bad input is one line on stderr
and exit status 2."""

import json

import pytest

from osada import cli


def run(capsys, *argv):
    code = cli.main(["warchest", "odds"] + list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def rows(text):
    """{type: [cells]} of the printed table."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("type "))
    out = {}
    for line in lines[start + 1:]:
        if not line.strip():
            break
        parts = line.split()
        out[parts[0]] = [" ".join(parts[i:i + 2]) for i in range(1, len(parts), 2)]
    return out


def test_w8_examples_1_and_3_start_bag_next_hand_and_within_two_rounds(capsys):
    code, out, err = run(capsys, "--bag", "A:2,B:2,C:2,D:2,royal:1", "--rounds", "2")
    assert code == 0 and err == ""
    table = rows(out)
    assert table["A"] == ["7/12 (58.3%)", "11/12 (91.7%)"]               # examples 1 and 3
    assert table["royal"][0] == "1/3 (33.3%)"                            # example 2
    assert out.startswith("Bag 9 coins, discard 0; a hand is 3 coins (W8).")


def test_w8_example_2_two_types_together(capsys):
    _code, out, _err = run(capsys, "--bag", "AB:4,C:2,D:2,royal:1")
    assert rows(out)["AB"] == ["37/42 (88.1%)"]


def test_w25_w17_example_4(capsys):
    assert rows(run(capsys, "--bag", "A:2,B:2,C:2,royal:1")[1])["A"] == ["5/7 (71.4%)"]
    assert rows(run(capsys, "--bag", "X:3,other:7")[1])["X"] == ["17/24 (70.8%)"]


def test_w9_example_5_the_refill_boundary_and_its_note(capsys):
    code, out, _err = run(capsys, "--bag", "A:1,royal:1", "--discard", "B:3,other:5")
    assert code == 0
    table = rows(out)
    assert table["A"] == ["1 (100%)"] and table["royal"] == ["1 (100%)"] and table["B"] == ["3/8 (37.5%)"]
    assert "The bag's 2 coins come first, then 1 from the refilled bag: the discard, mixed (W9)." in out


def test_w10_a_short_draw_is_said(capsys):
    _code, out, _err = run(capsys, "--bag", "A:1", "--discard", "B:1")
    assert "Only 2 coins to draw: the hand is short, and takes them all (W10)." in out


def test_w9_within_rounds_past_the_refill_says_how_it_is_counted(capsys):
    _code, out, _err = run(capsys, "--bag", "A:1,B:2", "--discard", "C:2", "--rounds", "2")
    # round 2 draws 3 of the refilled bag: round 1's 3 coins back and the 2 C: 1 - C(3,3)/C(5,3)
    assert rows(out)["C"] == ["0 (0%)", "9/10 (90.0%)"]              # not "0/1 (0.0%)" (issue 42)
    assert "Within 2 rounds the bag runs out and refills (W9)" in out


def test_json_fractions_in_lowest_terms(capsys):
    code, out, err = run(capsys, "--bag", "A:2,B:2,C:2,D:2,royal:1", "--rounds", "2", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["types"]["A"] == {"next_hand": "7/12", "within_rounds": "11/12"}
    assert data["types"]["royal"] == {"next_hand": "1/3", "within_rounds": "2/3"}
    assert sorted(data["types"]) == ["A", "B", "C", "D", "royal"]
    _code, out, _err = run(capsys, "--bag", "A:1,royal:1", "--discard", "B:3,other:5", "--json")
    assert json.loads(out)["types"]["B"] == {"next_hand": "3/8"}


@pytest.mark.parametrize("argv,says", [
    (["--bag", "archer:-1"], "the count of archer is negative (-1)"),
    (["--bag", "archer:0", "--discard", "royal:0"], "the bag and the discard are both empty"),
    (["--bag", "archer:2", "--bogus"], "unknown option: --bogus"),
    (["--bag", "archer"], "'archer' is not TYPE:N"),
    (["--bag", "archer:two"], "the count of archer must be a whole number"),
    (["--bag", "archer:1,archer:2"], "archer is named twice"),
    (["--bag", "archer:1", "--rounds", "0"], "--rounds must be 1 or more"),
    ([], "required: --bag"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, says):
    with pytest.raises(SystemExit) as exc:
        code = cli.main(["warchest", "odds"] + argv)
        raise SystemExit(code)
    out = capsys.readouterr()
    assert exc.value.code == 2 and out.out == ""
    assert out.err.count("\n") == 1 and out.err.startswith("osada: warchest odds: ") and says in out.err, out.err
