"""`osada line eval|claim|odds|status` on the spec's table T
(docs/line-table-t.json) and its worked examples, output as printed; --json
for tools; and every refusal one line on stderr, exit status 2, no traceback,
nothing written."""

import argparse
import json
import os
import re
import shutil

import pytest

from osada.line import cli as line_cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
T = os.path.join(ROOT, "docs", "line-table-t.json")
UNSEEN = "(L18: every unit card not face up, your own hand included)"


def line(capsys, *argv):
    """Run `osada line ARGV...`: (exit status, stdout lines, stderr)."""
    p = argparse.ArgumentParser(prog="osada")
    line_cli.add_parser(p.add_subparsers(dest="cmd"))
    try:
        args = p.parse_args(["line"] + list(argv))
        code = args.func(args)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def as_json(capsys, *argv):
    code, lines, err = line(capsys, *(argv + ("--json",)))
    assert code == 0 and err == "" and len(lines) == 1
    return json.loads(lines[0])


# ------------------------------------------------------------------ eval: examples 1 and 2

@pytest.mark.parametrize("cards,text", [
    ("R3 R4 R5", "wedge «Клин» (5, 12)"), ("R5 R3 R4", "wedge «Клин» (5, 12)"),
    ("G8 B8 Y8", "square «Каре» (4, 24)"), ("Y2 Y7 Y9", "column «Колонна» (3, 18)"),
    ("B4 R5 G6", "phalanx «Фаланга» (2, 15)"), ("R10 B10 G9", "skirmish «Рассыпной строй» (1, 29)"),
    ("R9 R10 R1", "column «Колонна» (3, 20)"), ("O4 O5", "incomplete 2/3"),
])
def test_l9_l10_example1_eval_prints_type_and_key(capsys, cards, text):
    assert line(capsys, "eval", *cards.split()) == (0, ["%s: %s" % (cards, text)], "")


def test_l9_l12_example1_size4(capsys):
    assert line(capsys, "eval", "--size", "4", "G1", "G2", "G3", "G4")[1] == ["G1 G2 G3 G4: wedge «Клин» (5, 10)"]
    assert line(capsys, "eval", "--size", "4", "R7", "B7", "G7", "Y7")[1] == ["R7 B7 G7 Y7: square «Каре» (4, 28)"]


def test_l10_l11_example2_eval_against(capsys):
    assert line(capsys, "eval", "R3", "R4", "R5", "--against", "G8", "B8", "Y8")[1][2] == (
        "R3 R4 R5 wins: a wedge beats a square, type before sum (L9, L10)")
    assert line(capsys, "eval", "B4", "R5", "G6", "--against", "R10", "B10", "G9")[1][2] == (
        "B4 R5 G6 wins: a phalanx beats a skirmish, type before sum (L9, L10)")
    assert line(capsys, "eval", "Y2", "Y7", "Y9", "--against", "G1", "G6", "G10")[1][2] == (
        "Y2 Y7 Y9 wins: two columns, the higher sum takes it, 18 against 17 (L10)")
    assert line(capsys, "eval", "R7", "R8", "R9", "--against", "B7", "B8", "B9")[1] == [
        "R7 R8 R9: wedge «Клин» (5, 24)", "B7 B8 B9: wedge «Клин» (5, 24)",
        "Equal keys (5, 24): whoever completed first takes the field (L11)"]
    assert line(capsys, "eval", "R7", "R8", "R9", "--against", "B7", "B8", "B9", "--first", "against")[1][2] == (
        "Equal keys (5, 24): B7 B8 B9 completed first and takes the field (L11)")


def test_eval_json(capsys):
    assert as_json(capsys, "eval", "R3", "R4", "R5") == {"formation": "wedge", "key": [5, 12], "size": 3,
                                                          "cards": ["R3", "R4", "R5"]}
    out = as_json(capsys, "eval", "R7", "R8", "R9", "--against", "B7", "B8", "B9")
    assert out["winner"] == "first completed" and out["against"]["key"] == [5, 24]
    assert as_json(capsys, "eval", "O4", "O5")["formation"] == "incomplete"
    out = as_json(capsys, "eval", "--state", T, "--field", "1")
    assert (out["south"]["key"], out["north"]["key"], out["winner"]) == ([4, 24], [3, 18], "south")


# ------------------------------------------------------------------ claim: examples 3-6 on table T

def test_l20_example3_claim_field1(capsys):
    assert line(capsys, "claim", "--state", T, "--field", "1") == (0, [
        "Field 1, South (claims): G8 R8 B8, square «Каре» (4, 24)",
        "Field 1, North: Y2 Y7 Y9, column «Колонна» (3, 18), complete",
        "PROVEN: both sides are complete, no proof needed (L20): square «Каре» (4, 24) beats column «Колонна» (3, 18)",
    ], "")


def test_l19_example4_claim_field2(capsys):
    assert line(capsys, "claim", "--state", T, "--field", "2") == (0, [
        "Field 2, South (claims): B4 G5 R6, phalanx «Фаланга» (2, 15)",
        "Field 2, North: Y8 P8, incomplete 2/3: 33 completions over the 33 unseen cards " + UNSEEN,
        "PROVEN: none of the 33 completions beats phalanx «Фаланга» (2, 15) (L19)",
        "Best North could still make: skirmish «Рассыпной строй» (1, 26), 1 way: Y8 P8 +O10",
    ], "")


def test_l18_l19_example5_claim_field3(capsys):
    assert line(capsys, "claim", "--state", T, "--field", "3") == (0, [
        "Field 3, South (claims): B2 B5 B9, column «Колонна» (3, 16)",
        "Field 3, North: P6 P7, incomplete 2/3: 33 completions over the 33 unseen cards " + UNSEEN,
        "NOT PROVEN: 1 of the 33 completions beats column «Колонна» (3, 16) (L19), strongest first:",
        "  wedge «Клин» (5, 18): P6 P7 +P5",
        "Note: P5 is in your hand, but a hand is not evidence (L18): it counts until you play it.",
        "Ties: 1 completion equals it, and a tie is South's: South completed first (L11, L19): P6 P7 +P3",
    ], "")


def test_l18_example5_after_south_plays_p5_field3_is_proven(capsys, tmp_path):
    with open(T, encoding="utf-8") as fh:
        data = json.load(fh)
    data["hand"].remove("P5")
    data["fields"]["9"] = {"south": ["P5"]}
    del data["draw_pile"], data["their_hand"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    code, lines, _ = line(capsys, "claim", "--state", str(path), "--field", "3")
    assert code == 0 and lines[1].endswith("32 completions over the 32 unseen cards " + UNSEEN)
    assert lines[2:] == [
        "PROVEN: none of the 32 completions beats column «Колонна» (3, 16) (L19)",
        "Best North could still make: column «Колонна» (3, 16), 1 way: P6 P7 +P3",
        "Ties: 1 completion equals it, and a tie is South's: South completed first (L11, L19): P6 P7 +P3"]


def test_l19_example6_claim_field4(capsys):
    assert line(capsys, "claim", "--state", T, "--field", "4")[1][2:] == [
        "PROVEN: none of the 33 completions beats square «Каре» (4, 30) (L19)",
        "Best North could still make: square «Каре» (4, 30), 1 way: Y10 P10 +O10",
        "Ties: 1 completion equals it, and a tie is South's: South completed first (L11, L19): Y10 P10 +O10",
    ]


def test_l17_claim_lists_the_fields_of_either_side(capsys):
    assert line(capsys, "claim", "--state", T) == (0, [
        "South's complete sides on open fields:",
        "  field 1: PROVEN: both complete, square «Каре» (4, 24) against column «Колонна» (3, 18) (L20)",
        "  field 2: PROVEN: phalanx «Фаланга» (2, 15), best North could make: skirmish «Рассыпной строй» (1, 26)",
        "  field 3: NOT PROVEN: 1 of 33 completions beats column «Колонна» (3, 16), the best wedge «Клин» (5, 18): "
        "P6 P7 +P5",
        "  field 4: PROVEN: square «Каре» (4, 30), best North could make: square «Каре» (4, 30), a tie, South's (L11)",
        "South could claim after playing one more card there (trying the cards in your hand):",
        "  field 5 (O4 O5): no such card",
    ], "")
    code, lines, _ = line(capsys, "claim", "--state", T, "--side", "north")
    assert lines == [
        "North's complete sides on open fields:",
        "  field 1: NOT PROVEN: both complete, column «Колонна» (3, 18) against square «Каре» (4, 24) (L20)",
        "North could claim after playing one more card there (trying the 27 cards he may hold (unseen, not in "
        "your hand)):",
        "  field 2 (Y8 P8): no such card", "  field 3 (P6 P7): no such card",
        "  field 4 (Y10 P10): no such card", "  field 7 (P4 G2): no such card"]


def test_l19_claim_json(capsys):
    out = as_json(capsys, "claim", "--state", T, "--field", "3")
    assert (out["proven"], out["completions"], out["beats"], out["ties"]) == (False, 33, 1, 1)
    assert out["beating"] == [{"formation": "wedge", "key": [5, 18], "added": ["P5"], "cards": ["P6", "P7", "P5"]}]
    out = as_json(capsys, "claim", "--state", T)
    assert [(f["field"], f["proven"]) for f in out["now"]] == [(1, True), (2, True), (3, False), (4, True)]


def test_l19_claim_inline_size4_full_deck(capsys):
    code, lines, _ = line(capsys, "claim", "--size", "4", "--mine", "R1", "B2", "G4", "Y7", "--theirs", "--limit", "2")
    assert code == 0 and lines[:5] == [
        "Your side (claims): R1 B2 G4 Y7, skirmish «Рассыпной строй» (1, 14)",
        "The other side: no card, incomplete 0/4: 367290 completions over the 56 unseen cards " + UNSEEN,
        "NOT PROVEN: 341085 of the 367290 completions beat skirmish «Рассыпной строй» (1, 14) (L19), strongest first:",
        "  wedge «Клин» (5, 34): +R7 +R8 +R9 +R10", "  wedge «Клин» (5, 34): +B7 +B8 +B9 +B10"]
    assert lines[5] == "  ... and 341083 more (--all lists every one)"


def test_l22_l23_claim_says_when_it_wins_the_game_and_status_scores_it(capsys, tmp_path):
    with open(T, encoding="utf-8") as fh:
        data = json.load(fh)
    data["fields"]["1"]["claimed"] = "south"
    data["fields"]["2"]["claimed"] = "south"
    data["fields"]["3"] = {"south": ["B2", "B5", "B9"], "north": ["Y3", "G7"]}
    del data["draw_pile"], data["their_hand"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    lines = line(capsys, "claim", "--state", str(path), "--field", "4")[1]
    assert lines[-1].startswith("Ties:")                     # fields 1 2 4: no win
    lines = line(capsys, "claim", "--state", str(path), "--field", "3")[1]
    assert lines[2] == "PROVEN: none of the 33 completions beats column «Колонна» (3, 16) (L19)"
    assert lines[-1] == "Claiming it wins the game: fields 1 2 3 in a row (L22)."
    data["fields"]["3"]["claimed"] = "south"
    data["series"] = [{"winner": "north", "loser_fields": 2}]
    path.write_text(json.dumps(data))
    code, lines, _ = line(capsys, "status", "--state", str(path))
    assert code == 0 and "South holds fields 1 2 3." in lines
    assert lines[-2:] == ["South has won: fields 1 2 3 in a row (L22).",
                          "Series (L23), 2 games: South 7, North 5. South starts the next game."]
    code, _, err = line(capsys, "claim", "--state", str(path), "--field", "4")
    assert code == 2 and "the game is over: South holds fields 1 2 3 (L22)" in err


# ------------------------------------------------------------------ odds: examples 7-9

def test_l5_example7_odds_field5_wedge(capsys):
    assert line(capsys, "odds", "--state", T, "--field", "5", "--target", "wedge", "--draws", "1", "3", "5") == (0, [
        "Field 5, South: O4 O5, incomplete 2/3; target a wedge",
        "Good cards: 2 of the 27 unknown (O3 O6)",
        "Model: North's 7 cards in hand are taken for a random part of the 27 unknown cards, so your next draws are "
        "a random set of them. He chose what to keep: an approximation.",
        "P(at least one good card within your next k draws):",
        "  k = 1: 2/27 (7.4%)", "  k = 3: 25/117 (21.4%)", "  k = 5: 40/117 (34.2%)",
        "You can draw at most 10 more: the deck holds 20 and the draws alternate (L5).",
    ], "")


def test_l5_example8_odds_weaker_targets(capsys):
    lines = line(capsys, "odds", "--state", T, "--field", "5", "--target", "column", "--draws", "1", "3", "5")[1]
    assert lines[1] == "Good cards: 7 of the 27 unknown (O1 O2 O3 O6 O7 O9 O10)"
    assert lines[4:7] == ["  k = 1: 7/27 (25.9%)", "  k = 3: 119/195 (61.0%)", "  k = 5: 10871/13455 (80.8%)"]
    lines = line(capsys, "odds", "--state", T, "--field", "5", "--target", "phalanx", "--draws", "1", "3", "5")[1]
    assert lines[1] == "Good cards: 15 of the 27 unknown (R3 B3 B6 G3 G6 Y3 Y6 P3 O1 O2 O3 O6 O7 O9 O10)"
    assert lines[4:7] == ["  k = 1: 5/9 (55.6%)", "  k = 3: 541/585 (92.5%)", "  k = 5: 4441/4485 (99.0%)"]


def test_l2_example9_odds_named_card_and_first_draw(capsys):
    lines = line(capsys, "odds", "--state", T, "--field", "5", "--need", "O3", "--draws", "1", "3", "5")[1]
    assert lines[4:7] == ["  k = 1: 1/27 (3.7%)", "  k = 3: 1/9 (11.1%)", "  k = 5: 5/27 (18.5%)"]
    assert line(capsys, "odds", "--first-draw")[1][2] == (
        "P(the two cards tie) = 5/59 (8.5%): 5 of the other 59 cards share the first card's value.")
    assert as_json(capsys, "odds", "--first-draw")["probability"] == "5/59"


def test_odds_json_and_numbers_alone(capsys):
    out = as_json(capsys, "odds", "--state", T, "--field", "5", "--target", "wedge", "--draws", "3")
    assert (out["probability"], out["good"], out["unknown"], out["approximation"]) == ("25/117", 2, 27, True)
    assert as_json(capsys, "odds", "--good", "7", "--unknown", "27", "--draws", "5")["probability"] == "10871/13455"


# ------------------------------------------------------------------ status

def test_status_of_table_t(capsys):
    code, lines, _ = line(capsys, "status", "--state", T)
    assert code == 0 and lines[0] == "Deck: 6 colours R B G Y P O x values 1-10 = 60 cards; you are South."
    assert lines[3] == "  2    B4 G5 R6  phalanx (2, 15)            Y8 P8  2/3"
    assert "Seen on the table: 27; unseen: 33; unknown to you: 27 (the deck 20 and North's hand 7)." in lines
    assert as_json(capsys, "status", "--state", T)["unseen"] == 33


# ------------------------------------------------------------------ refusals: one line, exit 2, nothing written

@pytest.mark.parametrize("argv,words", [
    (["claims", "--state", T], "argument LINE_COMMAND: invalid choice: 'claims'"),
    (["eval", "R3", "R4", "X5"], "X5 is not in the deck: its colours are R B G Y P O (L1)"),
    (["eval", "R3", "R4", "R11"], "R11 is not in the deck: its values are 1-10 (L1)"),
    (["eval", "R3", "R3", "R4"], "R3 is given twice on a side: the deck holds each card once (L1)"),
    (["eval", "R1", "R2", "R3", "R4"], "4 cards on a side, but a side holds at most 3 (L8)"),
    (["eval", "R1", "R2", "R3", "--against", "R3", "B4", "B5"], "R3 is on both sides: the deck holds each card "
                                                                 "once (L1)"),
    (["eval", "R1", "--size", "5"], "a formation holds 3 cards, or 4 where a field's card says so, not 5 (L12)"),
    (["claim", "--mine", "O4", "O5", "--theirs"], "the claimant's formation holds 2/3 cards: only a complete "
                                                  "formation can claim a field (L17)"),
    (["claim", "--mine", "R1", "R2", "R3", "--theirs", "B1", "--seen", "R2"], "R2 is given twice (on the table)"),
    (["claim", "--state", T, "--field", "5"], "only a complete formation can claim a field (L17)"),
    (["claim", "--state", T, "--field", "10"], "there is no field 10: the fields are 1-9 (L2)"),
    (["claim", "--state", "/no/such/file.json"], "cannot read the state file /no/such/file.json"),
    (["odds", "--state", T, "--field", "5", "--target", "wedge", "--draws", "11"], "you can draw at most 10 more"),
    (["odds", "--state", T, "--field", "5", "--need", "O4"], "O4 cannot be drawn: it is on the table (field 5, "
                                                             "south)"),
    (["odds", "--state", T, "--field", "6", "--target", "wedge"], "the side holds 0 of 3 cards"),
    (["odds", "--state", T, "--field", "5", "--target", "pyramid"], "invalid choice: 'pyramid'"),
    (["odds", "--state", T, "--colours", "RGB", "--field", "5", "--target", "wedge"], "the deck comes from the "
                                                                                      "state file"),
])
def test_bad_input_is_one_line_with_the_rule_and_exit_2(capsys, argv, words):
    code, lines, err = line(capsys, *argv)
    assert code == 2 and lines == []
    assert err.count("\n") == 1 and err.startswith("osada: line") and words in err, err
    assert "Traceback" not in err and not re.search(r"\((L\d+)\) \(\1\)", err)       # the rule named once


BAD_FILES = [
    ("{", "is not JSON"),
    ('{"fields": {"1": {"south": ["R8", "R8"]}}}',
     "R8 is given twice on field 1 south: the deck holds each card once (L1)"),
    ('{"hand": ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]}', "limit is 7 (L6)"),
]


@pytest.mark.parametrize("text,words", BAD_FILES)
def test_a_bad_state_file_is_one_line_and_left_unchanged(capsys, tmp_path, text, words):
    path = tmp_path / "state.json"
    path.write_text(text)
    for argv in (["claim", "--state", str(path)], ["status", "--state", str(path)],
                 ["eval", "--state", str(path), "--field", "1"]):
        code, lines, err = line(capsys, *argv)
        assert code == 2 and lines == [] and err.count("\n") == 1 and words in err, err
    assert path.read_text() == text


def test_a_claimed_field_takes_no_claim_and_no_odds(capsys, tmp_path):
    path = tmp_path / "t.json"
    shutil.copy(T, str(path))
    data = json.loads(path.read_text())
    data["fields"]["1"]["claimed"] = "south"
    data["fields"]["5"] = {"south": ["O4", "O5", "O6"], "north": ["Y1", "Y3"], "claimed": "south"}
    del data["draw_pile"], data["their_hand"]
    path.write_text(json.dumps(data))
    code, _, err = line(capsys, "claim", "--state", str(path), "--field", "1")
    assert code == 2 and "field 1 is already claimed by South: a claim is final (L21)\n" in err
    code, _, err = line(capsys, "odds", "--state", str(path), "--field", "5", "--target", "wedge")
    assert code == 2 and err.count("\n") == 1 and "(L21)" in err
