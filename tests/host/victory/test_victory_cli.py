"""`osada victory`: the four commands on the spec's worked examples, as text
and as JSON; a wrong input is one line on stderr with the rule's id and exit
status 2, and nothing on stdout."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
try:
    import osada  # noqa: F401
except ImportError:  # run from the tree
    sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from osada.victory import cli  # noqa: E402


def run(capsys, *argv):
    try:
        code = cli.run(list(argv))
    except SystemExit as exc:               # argparse's own exit
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def lines(capsys, *argv):
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert all(len(line) <= 80 for line in out.splitlines())
    return out.splitlines()


def said(capsys, *argv):
    """The output as one line, its whitespace runs (the 80-column wrapping included) as single spaces."""
    return " ".join(" ".join(lines(capsys, *argv)).split())


# ------------------------------------------------------------------ odds

def test_v9_v10_odds_worked_examples_1_and_2(capsys):
    out = said(capsys, "odds", "40", "16")
    assert "Redeal allowed (0, 1 or 7 resources, V10): 4829/35853 ≈ 0.1347 (13.5%)" in out
    assert "At least 2 resources: 1634/1887 ≈ 0.8659 (86.6%)" in out
    assert "Keepable (2-6) within two deals, 1 - p²: 1262118368/1285437609 ≈ 0.9819 (98.2%)" in out
    assert "At least 3 resources: 276086/466089 ≈ 0.5923 (59.2%)" in said(capsys, "odds", "40", "16",
                                                                            "--at-least", "3")


def test_v10_odds_worked_example_3(capsys):
    assert "Redeal allowed (0, 1 or 7 resources, V10): 70001/487635 ≈ 0.1436 (14.4%)" in lines(
        capsys, "odds", "60", "24")
    out = lines(capsys, "odds", "30", "6")
    assert "Redeal allowed (0, 1 or 7 resources, V10): 9614/16965 ≈ 0.5667 (56.7%)" in out
    assert "      7      0/1 = 0.0000 (impossible)" in out


def test_v10_odds_json(capsys):
    code, out, err = run(capsys, "odds", "40", "16", "--at-least", "3", "--json")
    got = json.loads(out)
    assert (code, err) == (0, "")
    assert (got["redeal"], got["at_least"], got["keep_within_two"]) == (
        "4829/35853", "276086/466089", "1262118368/1285437609")
    assert sorted(got["k"]) == [str(k) for k in range(8)] and got["k"]["7"] == "22/35853"
    assert got["decimal"]["redeal"] == "0.1347"


# ------------------------------------------------------------------ pay

def test_v15_pay_worked_example_4(capsys):
    assert "Payable: turn 6 cards: 5 S + 1 T (2 Z ← 4 S, V15)." in said(capsys, "pay", "--have", "5,0,1",
                                                                         "--cost", "1,2,1")
    assert "Payable: turn 5 cards: 3 S + 2 Z (1 T ← 2 S, V15)." in said(capsys, "pay", "--have", "3,2,0",
                                                                         "--cost", "1,2,1")
    assert "Payable: turn 5 cards: 2 Z + 3 T (1 S ← 2 T, V15)." in said(capsys, "pay", "--have", "0,2,3",
                                                                         "--cost", "1,2,1")
    assert "Payable: turn 5 cards: 3 S + 1 Z + 1 T (1 Z ← 2 S, V15)." in said(capsys, "pay", "--have", "4,1,3",
                                                                               "--cost", "1,2,1")
    assert lines(capsys, "pay", "--have", "2,2,0", "--cost", "1,2,1") == [
        "Cost 1 S + 2 Z + 1 T; at hand 2 S + 2 Z (untapped resource cards).",
        "Cannot pay (V15): 1 T short; substituting takes 2 spare cards of the other kinds",
        "  and there is only 1 (1 S): 1 card missing.",
        "The fewest cards that would pay it: 1 T."]
    assert "Cannot pay (V15): 2 Z + 1 T short" in said(capsys, "pay", "--have", "5,0,0", "--cost", "0,2,1")
    assert "Payable: turn 6 cards: 6 S (2 Z ← 4 S; 1 T ← 2 S, V15)." in said(capsys, "pay", "--have", "6,0,0",
                                                                              "--cost", "0,2,1")


def test_v15_pay_json(capsys):
    got = json.loads(run(capsys, "pay", "--have", "5,0,1", "--cost", "1,2,1", "--json")[1])
    assert (got["payable"], got["cards"], got["missing"], got["pay"]) == (True, 6, 0, {"S": 5, "Z": 0, "T": 1})
    got = json.loads(run(capsys, "pay", "--have", "2,2,0", "--cost", "1,2,1", "--json")[1])
    assert (got["payable"], got["cards"], got["missing"], got["add"]) == (False, None, 1, {"S": 0, "Z": 0, "T": 1})


# ------------------------------------------------------------------ combat

SU85 = "СУ-85, arm/AT SPG, 4/3, +1/1 vs arm"
TIGER = "«Тигр», arm/heavy tank, 5/5"
PAK40 = "PAK-40, art/anti-tank gun, 2/2, +3/2 vs arm"


def test_v28_combat_worked_example_5(capsys):
    out = said(capsys, "combat", "--att", "medium tank, arm, 3/3", "--def", "armoured car, arm, 2/2")
    assert "destroys armoured car" in out and "Result: armoured car destroyed" in out
    out = said(capsys, "combat", "--att", "medium tank, arm, 3/3", "--def", "heavy tank, arm, 5/5")
    assert "Result: medium tank destroyed" in out
    out = said(capsys, "combat", "--att", "medium tank, arm, 3/3", "--def", "infantry, inf, 3/2")
    assert out.endswith("Result: both destroyed (mutual destruction, V28): to the losses, face up (V5).")
    out = said(capsys, "combat", "--att", "A, arm, 3/4", "--def", "B, arm, 3/4")
    assert out.endswith("Result: both survive, turned (V6, V28); damage is cleared at the wave's end (V29).")


def test_v5_v6_v27_combat_worked_example_6(capsys):
    assert lines(capsys, "combat", "--att", SU85, "--def", TIGER, "--def", PAK40) == [
        "Combat (V26, V28): СУ-85 against «Тигр» and PAK-40",
        "  attacker  СУ-85   armour     4/3 (+1/1 vs arm unused: it faces armour and",
        "    artillery, V27)",
        "  defender  «Тигр»  armour     5/5",
        "  defender  PAK-40  artillery  5/4 (+3/2 vs arm: it faces arm only, V27)",
        "  Attacker's pool 4 = СУ-85 (4); damage needed: «Тигр» 5, PAK-40 4",
        "    destroys PAK-40",
        "  Defender's pool 10 = «Тигр» (5) + PAK-40 (5); damage needed: СУ-85 3",
        "    destroys СУ-85",
        "  Result: PAK-40 and СУ-85 destroyed: to the losses, face up (V5); «Тигр»",
        "    survives, turned (V6), damage cleared at the wave's end (V29)."]
    out = said(capsys, "combat", "--att", SU85, "--def", TIGER)
    assert "СУ-85 armour 5/4 (+1/1 vs arm: it faces arm only, V27)" in out
    assert out.endswith("Result: both destroyed (mutual destruction, V28): to the losses, face up (V5).")


def test_v28_combat_worked_example_7_the_attacker_picks(capsys):
    out = said(capsys, "combat", "--att", "Sturmgeschütz III, arm, 4/3, +1/1 vs arm", "--def", "КВ-1с, arm, 3/4",
               "--def", "ЗИС-3, art/anti-tank gun, 2/2, +3/2 vs arm")
    assert "destroys one of these (the attacker picks, V28): a) КВ-1с b) ЗИС-3" in out
    assert "Defender's pool 8 = КВ-1с (3) + ЗИС-3 (5); damage needed: Sturmgeschütz III 3" in out
    assert "Result: Sturmgeschütz III destroyed, and the attacker's pick above: to the losses" in out
    out = said(capsys, "combat", "--att", "Sturmgeschütz III, arm, 4/3, +1/1 vs arm", "--def", "КВ-1с, arm, 3/4",
               "--def", "усиленная стрелковая рота, inf, 3/2")
    assert "a) КВ-1с b) усиленная стрелковая рота" in out
    out = said(capsys, "combat", "--att", "Sturmgrenadier, inf, 3/3", "--def", "усиленная стрелковая рота, inf, 3/2")
    assert "Result: both destroyed (mutual destruction, V28)" in out
    out = said(capsys, "combat", "--att", "Sturmgeschütz III, arm, 4/3, +1/1 vs arm",
               "--def", "КВ-1с, arm, 3/4, turned")
    assert "КВ-1с armour 0/4 (turned: attack 0, V23)" in out and "Result: КВ-1с destroyed" in out


def test_v38_combat_worked_example_8_from_a_file(capsys, tmp_path):
    f = tmp_path / "stuka.txt"
    f.write_text("# the rulebook's air example\n"
                 "att: Ju-87 STUKA, air/dive bomber, 1/2, bombing 5\n"
                 "att: escort, air/fighter, 3/3, binds fighter\n"
                 "def: «Катюша», art/rocket launcher, 0/1\n"
                 "def: fighter, air/fighter, 3/3, intercepts Ju-87 STUKA\n", encoding="utf-8")
    out = said(capsys, "combat", "--file", str(f))
    assert out.startswith("Bombing (V37: one-way, the ground cannot hit the bomber): Ju-87 STUKA against «Катюша»")
    assert "Defender: none of its units can hit Ju-87 STUKA (V37)" in out
    assert "Result: «Катюша» destroyed: to the losses, face up (V5); Ju-87 STUKA survives" in out
    assert out.endswith("Result: both destroyed (mutual destruction, V28): to the losses, face up (V5).")
    got = json.loads(run(capsys, "combat", "--file", str(f), "--json")[1])
    kinds = {p["kind"]: p for p in got["parts"]}
    assert kinds["bombing"]["attacker"]["destroys"] == [["«Катюша»"]]
    assert kinds["bombing"]["defender"]["destroys"] == [[]]
    assert kinds["dogfight"]["attacker"]["destroys"] == [["fighter"]]


def test_v38_combat_no_escort_the_katyusha_is_untouched(capsys):
    out = said(capsys, "combat", "--att", "Ju-87 STUKA, air, 1/2, bombing 5", "--def", "«Катюша», art, 0/1",
               "--def", "fighter, air/fighter, 3/3, intercepts Ju-87 STUKA")
    assert out.startswith("Interception (V38")
    assert "Result: Ju-87 STUKA destroyed" in out
    assert out.endswith("«Катюша» (defender): untouched, nothing in this combat can hit it.")


def test_v30_combat_deck_and_resource(capsys):
    out = said(capsys, "combat", "--att", "Sturmgrenadier 1, inf, 3/3", "--att", "StuG III, arm, 4/3, support 2",
               "--target", "deck", "--deck", "8")
    assert out == ("Attack on the deck (V30): Sturmgrenadier 1 (3) + StuG III (4 + support 2) = 9 (printed attack "
                   "and artillery support; no type modifiers). The defender puts the top 8 cards of his deck of 8 "
                   "into the losses: 0 left (a shorter deck loses all). He cannot draw 2 at the start of his turn: "
                   "he loses (V39).")
    got = json.loads(run(capsys, "combat", "--att", "scouts, inf, 1/1", "--target", "resource", "--json")[1])
    assert got == {"target": "resource", "attack": 1, "destroyed": True}


# ------------------------------------------------------------------ clock

def test_v39_clock_worked_example_9(capsys):
    out = said(capsys, "clock", "40", "--vs", "40", "--new-game")
    assert ("The second player runs out first: at the start of his turn 17 (game turn 34) his deck holds 1: "
            "he cannot draw and loses (V39).") in out
    out = said(capsys, "clock", "41", "--vs", "41", "--new-game")
    assert "The first player runs out first: at the start of his turn 18 (game turn 35)" in out


def test_v39_clock_worked_example_10(capsys):
    assert ("deck 20 → 18 → 15 → 13 → 10 → 8 → 5 → 3 → 0 4 own turns left; at the start of turn 5 the deck holds "
            "0: he cannot draw 2 and loses (V39).") in said(capsys, "clock", "20", "--milled", "3")
    out = said(capsys, "clock", "40", "--vs", "40", "--new-game", "--mills", "3@5")
    assert "The second player runs out first: at the start of his turn 10 (game turn 20)" in out
    got = json.loads(run(capsys, "clock", "40", "--vs", "40", "--new-game", "--mills", "3@5", "--json")[1])
    assert (got["loser"], got["players"][1]["loses_at_turn"], got["players"][1]["game_turn"]) == ("second", 10, 20)


def test_v39_clock_table_has_every_turn(capsys):
    out = lines(capsys, "clock", "40", "--vs", "40", "--new-game", "--table")
    rows = [r.split() for r in out if r.startswith("        ")]
    assert len(rows) == 17 + 16 and rows[0] == ["1", "1st", "1", "33", "1", "0", "33"]
    assert rows[-1] == ["33", "1st", "17", "2", "2", "0", "1"]


# ------------------------------------------------------------------ refusals: one line, exit 2, nothing done

@pytest.mark.parametrize("argv,words", [
    (["odd", "40", "16"], "osada: victory: argument VICTORY_COMMAND: invalid choice: 'odd'"),
    (["odds", "5", "2"], "osada: victory odds: V9: the deck must hold at least 7 cards"),
    (["odds", "40", "41"], "osada: victory odds: VA3: "),
    (["odds", "40", "x"], "osada: victory odds: R is a whole number, not 'x'"),
    (["odds", "40", "16", "--at-least", "9"], "osada: victory odds: V9: "),
    (["pay", "--have", "1,2", "--cost", "1,1,1"], "osada: victory pay: --have is three whole"),
    (["pay", "--have", "1,2,3"], "osada: victory pay: the following arguments are required: --cost"),
    (["combat", "--att", "T-34, tank, 3/3", "--def", "B, arm, 3/3"], "osada: victory combat: T-34: 'tank' is not a"),
    (["combat", "--att", "T-34, arm, 3/3, fast", "--def", "B, arm, 3/3"], "osada: victory combat: T-34: cannot read"),
    (["combat", "--att", "T-34, arm, 3/3, turned", "--def", "B, arm, 3/3"], "osada: victory combat: V6: T-34 is"),
    (["combat", "--att", "fighter, air, 3/3", "--def", "B, arm, 3/3"], "osada: victory combat: V37: fighter is"),
    (["combat", "--file", "/nonexistent/units.txt"], "osada: victory combat: cannot read /nonexistent/units.txt"),
    (["combat", "--att", "T-34, arm, 3/3", "--def", "B, arm, 3/3", "--target", "deck"],
     "osada: victory combat: an attack on the deck has no defending units (V30)"),
    (["clock", "20", "--milled", "lots"], "osada: victory clock: a mill schedule is N"),
    (["clock", "40", "--vs", "41", "--new-game"], "osada: victory clock: V2: both decks"),
    (["clock", "20", "--mills", "3"], "osada: victory clock: --mills and --new-game need --vs"),
])
def test_v2_v9_v15_bad_input_is_one_line_naming_the_rule(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(words), err


def test_the_group_is_in_the_osada_command(capsys):
    from osada import cli as osada_cli
    assert osada_cli.main(["victory", "pay", "--have", "1,1,1", "--cost", "1,1,1"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "Payable: turn 3 cards: 1 S + 1 Z + 1 T."
