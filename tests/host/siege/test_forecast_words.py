"""F14, issue 60: what people read of a forecast (host/osada/siege/forecast_words.py) --
percentages with one decimal, a short fraction beside, E with two places, ranges only
where the ends read differently, worst and best labelled -- and the stamp's count of
this turn's actions (turn_actions.py)."""

from fractions import Fraction as F

from osada.siege.forecast.result import Forecast
from osada.siege.forecast_words import bounds_text, cell, exact_text, percent
from osada.siege.live_forecast import LiveResult, fit
from osada.siege.turn_actions import TurnActions


def test_f14_percentages_one_decimal_and_the_ends_only_when_exact():
    assert percent(F(0)) == "0%" and percent(F(1)) == "100%"
    assert percent(F(1, 181440)) == "<0.1%" and percent(F(181439, 181440)) == ">99.9%"
    assert percent(F(1, 1000)) == "0.1%" and percent(F(999, 1000)) == "99.9%"
    assert percent(F(35, 72)) == "48.6%" and percent(F(1, 20)) == "5.0%"


def test_f14_a_fraction_beside_only_when_short():
    assert exact_text(F(35, 72)) == "48.6% (35/72)"
    assert exact_text(F(148721, 272160)) == "54.6% (148721/272160)"             # 6 digits each: shown
    assert exact_text(F(4871086084525, 9104132193522702336)) == "<0.1%"         # long: the percentage alone
    assert exact_text(F(1)) == "100%" and exact_text(F(0)) == "0%"
    assert exact_text(F(2679168479989, 1835374349952), expectation=True) == "1.46"   # E: two places
    assert exact_text(F(2), expectation=True) == "2.00"
    assert exact_text(F(35, 72), fractions=True) == "35/72"


def test_f11_bounds_a_range_only_where_the_ends_read_differently():
    assert bounds_text(F(45, 1000), F(69, 1000)) == "4.5–6.9%"
    assert bounds_text(F(0), F(899, 37023)) == "≤ 2.4%"                       # not "≥ <0.1% ≤ 2.4%"
    assert bounds_text(F(1, 10 ** 6), F(4, 1000)) == "≤ 0.4%"
    assert bounds_text(F(995, 1000), F(1)) == "≥ 99.5%"
    assert bounds_text(F(4501, 100000), F(4504, 100000)) == "≈ 4.5%"          # the same to a tenth
    assert bounds_text(F(0), F(1, 10 ** 5)) == "<0.1%"
    assert bounds_text(F(140, 100), F(152, 100), expectation=True) == "1.40–1.52"
    assert bounds_text(F(1401, 1000), F(1403, 1000), expectation=True) == "≈ 1.40"
    assert bounds_text(F(1, 8), F(3, 8), fractions=True) == "≥ 1/8 ≤ 3/8"


def _fc(values, exact=True):
    return Forecast(list(values), values, exact, 0.1, 10)


def test_f6_worst_and_best_labelled_only_where_they_read_differently():
    fc = _fc({("B", 3): (F(1, 6), F(0)), ("B", 4): (F(4871086084525, 9104132193522702336),
                                                   F(24355430112557, 45520660967613511680)),
              "L": (F(0), F(0)), "E": (F(13, 6), F(2))})
    assert cell(fc, ("B", 3)) == "worst 16.7% (1/6) · best 0%"
    assert cell(fc, ("B", 4)) == "<0.1%"                    # they differ in the 15th digit: one value
    assert cell(fc, "E", True) == "worst 2.17 · best 2.00"
    assert cell(fc, ("W", 3)) == "—"
    bounds = _fc({"L": ((F(1, 100), F(3, 100)), (F(0), F(1, 100)))}, exact=False)
    assert cell(bounds, "L") == "worst 1.0–3.0% · best ≤ 1.0%"


def test_f14_the_panels_lines_fit_and_the_best_goes_under_the_worst_when_they_do_not():
    assert fit("3 building  ", "worst 54.6% (148721/272160) · best 12.3%", 42) == [
        " 3 building  worst 54.6% (148721/272160)", "             best 12.3%"]
    assert fit("3 building  ", "worst 16.7% (1/6) · best 0%", 42) == [" 3 building  worst 16.7% (1/6) · best 0%"]
    fc = _fc({("B", 1): (F(148721, 272160), F(12345, 272161)), ("W", 1): (F(1, 2), F(1, 2)),
              "L": (F(1, 181440), F(0)), "E": (F(182935, 108864), F(1))})
    r = LiveResult(fc, 2, 17, None, states=99, in_turn=3)
    lines = r.lines()
    assert lines[0] == "Forecast for turn 2, 3 actions into it"
    assert lines[2].startswith(" lost ") and lines[4].startswith(" buildings lost ")     # L and E first
    assert lines[3].strip() == "best 0%"                        # under the worst: both would not fit
    assert all(len(line) <= 42 for line in lines), lines
    assert all(len(line) <= 36 for line in r.summary()), r.summary()


def test_the_stamp_counts_the_actions_of_this_turn_live_and_from_the_log():
    ta = TurnActions()
    assert ta.see(1, 0) is None and ta.ask() == {"from": 0}
    ta.learn({"from": 0, "actions": []}, 1, 0)
    assert ta.see(1, 0) == 0 and ta.see(1, 2) == 2 and ta.ask() is None
    assert ta.see(2, 3) == 0 and ta.see(2, 5) == 2              # end_turn at seq 3: turn 2 starts there
    assert ta.see(1, 2) == 2                                    # an undo over the end_turn: back in turn 1
    assert 2 not in ta.starts
    # a host that came in mid-game: the log's last end_turn before the seq
    late = TurnActions()
    assert late.see(7, 50) is None
    assert late.ask() == {"from": 10} and late.ask() is None   # once a turn
    assert late.see(7, 51) is None and late.ask() is None      # not again for each action of it
    acts = [{"do": "hit", "enemy": 1}] * 40
    acts[33] = {"do": "end_turn"}                               # the action at seq 43
    late.learn({"from": 10, "actions": acts}, 7, 50)
    assert late.see(7, 50) == 6
