"""Issue 62 item 2: every game the device plays has its own picture on the table's page,
drawn from data (each game's picture.py): Tank battle's last roll (its dice, what came out,
the exact chance of it), Victory Day's toss (the seats, who starts, the lot's chance), War
Chest's round tracker (each player's coins, markers, the initiative, whose action).  Here
the data; tests/host/web/test_web_page.py has the page drawing it in a browser."""

from fractions import Fraction

from osada.tank.panel import TankSetup
from osada.tank.picture import picture as tank_picture
from osada.victory.picture import picture as victory_picture
from osada.warchest.picture import picture as warchest_picture


def test_T12_a_fire_rolls_dice_are_drawn_with_the_exact_chance_of_its_hits():
    roll = {"ev": "roll", "test": "fire", "n": 6, "hit": 3, "protection": 1, "dice": [1, 4, 3, 6, 2, 5],
            "hits": 3, "absorbed": 1, "damage": 2, "morale": True}
    pic = tank_picture(roll, TankSetup())
    r = pic["roll"]
    assert [d["face"] for d in r["dice"]] == [1, 4, 3, 6, 2, 5]
    assert [d["mark"] for d in r["dice"]] == ["hit", "miss", "hit", "miss", "hit", "miss"]
    assert r["result"].startswith("3 hits")
    # 3 or more hits of 6 dice, each hitting with 1/2: (20 + 15 + 6 + 1) / 64
    assert Fraction(r["chance"]["p"]) == Fraction(42, 64) and r["chance"]["p"] == "21/32"
    assert r["chance"]["text"] == "65.6%" and r["chance"]["what"] == "3 hits or more"
    assert len(pic["ring"]) == 24 and pic["ring"] != ["#000000"] * 24        # the device's own drawing
    assert pic["setting"]["test"].startswith("fire") and pic["setting"]["marked"]


def test_T21_a_morale_test_and_T29_a_counter_attack_have_their_chance():
    morale = {"ev": "roll", "test": "morale", "dice": [3, 4], "steadiness": 7, "sum": 7, "passed": True}
    m = tank_picture(morale, TankSetup())["roll"]
    assert m["chance"] == {"what": "the test passes", "p": "7/12", "text": "58.3%"}    # 21 of 36 sums <= 7
    counter = {"ev": "roll", "test": "counter", "dice": [5, 2], "winner": "a", "ties": 0, "tied": []}
    c = tank_picture(counter, TankSetup())["roll"]
    assert [d["mark"] for d in c["dice"]] == ["A", "B"] and c["chance"]["p"] == "1/2"


def test_no_roll_yet_and_a_roll_that_does_not_add_up_are_said_not_drawn():
    assert tank_picture(None, TankSetup())["roll"] is None
    bad = {"ev": "roll", "test": "fire", "n": 2, "hit": 3, "protection": 0, "dice": [1, 1], "hits": 0,
           "absorbed": 0, "damage": 0, "morale": False}
    pic = tank_picture(bad, TankSetup())
    assert pic["roll"] is None and "does not add up" in pic["words"]


def test_V8_the_toss_shows_the_seats_who_starts_and_the_lots_chance():
    pic = victory_picture({"lot": "A", "game": 2, "starter": "B", "ussr": "A"})
    assert [(s["seat"], s["faction"], s["starts"]) for s in pic["seats"]] == [("A", "USSR", False),
                                                                             ("B", "Germany", True)]
    assert pic["match_game"] == 2 and pic["lot"] == {"p": "1/2", "text": "50.0%"}
    assert pic["words"][0] == "game 2: Seat B (Germany) starts: alternating, V8"
    before = victory_picture({"lot": None, "game": 1, "starter": None, "ussr": "B"})
    assert not any(s["starts"] for s in before["seats"]) and before["lot"] is None
    wrong = victory_picture({"lot": "A", "game": 2, "starter": "A", "ussr": "A"})     # V8 says B
    assert "cannot be read" in wrong["words"][0]


def test_W16_the_round_tracker_shows_each_players_counts_and_the_initiative():
    counts = {"players": 2, "round": 3, "hand": [2, 3], "markers": [4, 5], "hand_size": 3, "markers_all": 6,
              "markers_start": 4, "initiative": 2, "moved": True, "turn": 1, "winner": None, "flipped": None,
              "cursor": None, "undo": True}
    pic = warchest_picture(counts)
    p1, p2 = pic["players"]
    assert (p1["hand"], p1["markers"], p1["turn"], p1["initiative"]) == (2, 4, True, False)
    assert (p2["hand"], p2["markers"], p2["initiative"], p2["claimed"]) == (3, 5, True, True)
    assert pic["round"] == 3 and pic["words"][0].startswith("War Chest")
    assert len(pic["letters"]) == 24 and len(pic["ring"]) == 24
    assert warchest_picture(None)["players"] == []
    assert "cannot read" in warchest_picture({"players": 2})["words"][0]
