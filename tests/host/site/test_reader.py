"""The page with no host in words and pictures (osada.site.reader, issue 63): the
same log, facts and pictures on CPython and inside real MicroPython, run there on
exactly the modules the static site carries (osada.site.build.modules: the
firmware's, and the host's SITE_MODULES); and what they say of the firmware's own
lines for every game it plays, its refusals and garbage, with the field marshal's
hand never in it."""

import json
import os
import subprocess
import sys

import pytest

from osada import mpyvm
from osada.site import build, reader
from osada.words import table
from osada_fw.hal import browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCRIPT = os.path.join(ROOT, "tests", "mpy", "site_reader.py")
CONFIG = os.path.join(ROOT, "firmware", "config.json")


def _device_chunks(tmp_path):
    """What the firmware's app writes in the page's hardware layer (on CPython), step by step:
    a Siege game by requests, then each other game by its buttons, a refusal and garbage."""
    with open(CONFIG) as f:
        config = f.read()
    out = [browser.start(12345, config, str(tmp_path / "state"))]
    rid = [0]

    def ask(cmd, **fields):
        rid[0] += 1
        out.append(browser.step(json.dumps(dict(fields, cmd=cmd, id=rid[0])) + "\n"))
        return out[-1]

    def press(*what):
        for p in what:
            out.append(browser.step("", p))

    ask("hello")
    text = ask("state")
    st = next(json.loads(ln)["state"] for ln in text.splitlines() if '"state"' in ln and ln.startswith("{"))
    target = st["enemies"][0]["id"]
    ask("act", action={"do": "hit", "enemy": target})
    ask("act", action={"do": "hit", "enemy": 999})                    # refused: no such enemy
    ask("act", action={"do": "end_turn"})
    ask("undo")
    for game, presses in (("tank", ("action", "+1", "action", "action")), ("victory", ("action", "encoder", "action")),
                          ("warchest", ("action", "action", "+1", "encoder", "action"))):
        ask("game", game=game)
        ask("state")
        press(*presses)
    ask("game", game="siege")
    out.append(browser.step("{not json\n\x00garbage\n"))
    return [t for t in out if t]


@pytest.fixture(scope="module")
def chunks(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("device")
    path = tmp / "chunks.json"
    path.write_text(json.dumps(_device_chunks(tmp)))
    return str(path)


@pytest.fixture(scope="module")
def site_modules(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("site") / "modules")
    build.modules(d)
    return d


def _runs(mode, seed, chunks, site_modules):
    args = [mode, str(seed), "150", chunks]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "host"),
                                                       os.path.join(ROOT, "firmware")]))
    cpy = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, env=env)
    assert cpy.returncode == 0, cpy.stderr.decode()
    mpy = mpyvm.run(SCRIPT, args, mounts=[(site_modules, "/lib")], timeout=300,
                    files=[(os.path.join(ROOT, "shared_rules", "siege", "autoplay.py"), "/lib/autoplay.py"),
                           (chunks, chunks)])
    assert mpy.returncode == 0, mpy.stderr.decode()
    parse = lambda out: [None if ln == "-" else json.loads(ln) for ln in out.decode().splitlines()]   # noqa: E731
    return parse(cpy.stdout), parse(mpy.stdout)


@pytest.mark.micropython
@pytest.mark.parametrize("mode,seed", [("standard", 3), ("marshal", 5)])
def test_the_same_words_and_pictures_in_the_sites_vm(mode, seed, chunks, site_modules):
    cpy, mpy = _runs(mode, seed, chunks, site_modules)
    assert cpy == mpy                 # (MicroPython's json writes UTF-8 where CPython's escapes: compared parsed)
    said = [s for s in cpy if s]
    events = []
    for s in said:                    # each: the last 14, newest first
        assert len(s["events"]) <= table.EVENTS
        events += [e for e in s["events"] if e not in events]
    text = "\n".join(events)
    assert any(e.startswith("Hit ") and " #" in e and "(sector" in e for e in events), text
    assert "— Turn 2: player" in text
    facts = [dict(s["facts"]) for s in said if s["facts"]]
    assert facts[0]["Turn"].startswith("1 · player 1 of")
    if mode == "marshal":             # his hand a count on the table's page, never its tokens
        hands = [f["Field marshal's hand"] for f in facts if "Field marshal's hand" in f]
        assert hands and all(h.endswith("his alone") for h in hands)
        states = [s["state"] for s in said if s.get("state")]
        assert all("marshal_hand" not in st for st in states) and any("marshal_hand_count" in st for st in states)
    # the firmware's own lines: the log of every game it plays, and each one's picture
    assert "The device started" in text and "Refused" not in text
    assert any(e.startswith("✗ refused") for e in events), text
    for game in ("Tank battle", "Victory Day", "War Chest"):
        assert "The device now runs %s" % game in text
    assert any(e.startswith("fire ") and "chance" in e for e in events), text       # a roll, with its exact odds
    pictures = {s["picture"]["game"]: s["picture"] for s in said if s.get("picture")}
    roll = pictures["tank"]["roll"]
    assert roll["dice"] and all(1 <= d["face"] <= 6 and d["mark"] in ("hit", "miss") for d in roll["dice"])
    num, den = map(int, roll["chance"]["p"].split("/"))
    assert 0 < num <= den and roll["chance"]["text"].endswith("%")
    toss = pictures["victory"]
    assert sorted(s["seat"] for s in toss["seats"]) == ["A", "B"] and toss["lot"]["p"] == "1/2"
    assert sum(s["starts"] for s in toss["seats"]) == 1
    chest = pictures["warchest"]
    assert [p["player"] for p in chest["players"]] == [1, 2] and len(chest["letters"]) == 24
    assert "ring" not in toss and "ring" not in chest          # the ring is the device's own LEDs
    assert said[-1]["facts"] and "picture" not in said[-1]    # back in Siege: its facts, no other picture


def test_it_names_the_enemy_of_the_state_before():
    r = reader.Reader({"end_turn": "end turn"})
    st = {"turn": 1, "player": 1, "phase": 4, "trophies": {"1": []}, "walls": [1], "dots": [], "buildings": [1, 2],
          "enemies": [{"id": 7, "kind": "tiger", "sector": 2, "line": "air", "armor": 3}]}
    said = json.loads(r.read(json.dumps({"ev": "state", "seq": 1, "state": st}) + "\n"))
    assert said["events"] == []
    assert dict(said["facts"])["Next"].endswith("“end turn” ends the turn")
    said = json.loads(r.read('{"ev": "hit", "enemy": 7, "armor": 2}\n'))
    assert said["events"] == ["Hit Tiger E #7 (sector 2 air line): armor 2 left"]
    assert r.read("") == "" and r.read("[1, 2]\n") == "" and r.read("{bad\n") == ""


def test_it_never_says_the_marshals_tokens():
    r = reader.Reader()
    st = {"turn": 1, "player": 1, "phase": 7, "trophies": {"1": []}, "walls": [], "dots": [], "buildings": [],
          "enemies": [], "marshal_hand": ["maus", "he111"], "marshal_queue": ["tiger"]}
    text = r.read(json.dumps({"ev": "state", "seq": 1, "state": st}) + "\n")
    said = json.loads(text)
    assert "2 tokens, his alone" in said["facts"][-1][1]
    assert said["state"]["marshal_hand_count"] == 2 and "marshal_hand" not in said["state"]   # the page draws this
    assert said["state"]["marshal_queue"] == ["tiger"]         # played, so public: "The field marshal plays: …"
    for secret in ("maus", "Maus", "he111", "He-111"):
        assert secret not in text


def test_named_enemies_as_whole_words():
    st = {"enemies": [{"id": 13, "kind": "tiger"}]}
    from osada.words.texts import named_enemies
    assert named_enemies("enemy 13 is in the rear; enemy 4 too", st) == "Tiger E #13 is in the rear; enemy #4 too"
    assert named_enemies("anenemy 13, enemy 13a, enemy x, (enemy 13)", st) == \
        "anenemy 13, enemy 13a, enemy x, (Tiger E #13)"
