"""`osada scenario FILE` (host/osada/cli.py) as a user runs it: a subprocess.

A valid scenario prints one line of state JSON and exits 0; a malformed one
exits 2 with nothing on stdout and one line on stderr starting "osada:"; a
refused action inside a valid scenario is not an error (spec: Scenario files).
The MicroPython runtime is tested elsewhere.
"""

import json
import os
import subprocess
import sys

import pytest

from shared_rules.siege.scenario import run_text

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The state keys the spec lists (extra keys such as phase are allowed).
SPEC_STATE_KEYS = {"outcome", "turn", "player", "walls", "dots", "buildings", "enemies",
                   "pool", "discard", "trophies", "pending", "events"}
SPEC_ENEMY_KEYS = {"id", "kind", "sector", "line", "armor", "held"}

# The spec's own example scenario.
SPEC_EXAMPLE = {
    "players": 2,
    "mode": "standard",
    "variants": [],
    "seed": 1,
    "board": {
        "walls": [1, 2, 3, 4, 5, 6],
        "dots": [],
        "buildings": [1, 2, 3, 4, 5, 6],
        "enemies": [{"kind": "tiger", "sector": 3, "line": "artillery", "armor": 2}],
    },
    "pool": ["he111", "pz3"],
    "rolls": [4, 1],
    "actions": [{"do": "hit", "enemy": 1, "card": {"arm": "artillery", "color": "green"}}],
}


def osada(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "host"), ROOT])
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run([sys.executable, "-m", "osada.cli"] + list(args), cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


def write(tmp_path, content, name="scenario.json"):
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif isinstance(content, str):
        p.write_text(content, encoding="utf-8")
    else:
        p.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return str(p)


def run_ok(tmp_path, content):
    proc = osada("scenario", write(tmp_path, content))
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    out = proc.stdout.decode("utf-8")
    assert out.endswith("\n") and out.count("\n") == 1, "not exactly one line: %r" % out[:200]
    return out, json.loads(out)


def assert_usage_error(proc, word=None):
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err[-500:])
    assert proc.stdout == b""
    lines = err.splitlines()
    assert len(lines) == 1, "stderr must be one line, got: %r" % err[-500:]
    assert lines[0].startswith("osada:"), lines[0]
    assert err.endswith("\n")
    if word is not None:
        assert word in lines[0], lines[0]


# ------------------------------------------------------------- valid runs

def test_spec_example_prints_one_line_of_state_json(tmp_path):
    text, st = run_ok(tmp_path, SPEC_EXAMPLE)
    assert SPEC_STATE_KEYS <= set(st)
    assert st["outcome"] == "playing"
    assert (st["turn"], st["player"]) == (1, 1)
    assert st["walls"] == [1, 2, 3, 4, 5, 6] and st["buildings"] == [1, 2, 3, 4, 5, 6]
    assert st["pool"] == 2 and st["discard"] == [] and st["pending"] is None
    assert st["trophies"] == {"1": [], "2": []}
    assert len(st["enemies"]) == 1
    tiger = st["enemies"][0]
    assert set(tiger) >= SPEC_ENEMY_KEYS
    assert (tiger["id"], tiger["kind"], tiger["sector"], tiger["line"]) == (1, "tiger", 3, "artillery")
    assert tiger["armor"] == 1                   # 2, then hit once (R10)
    assert tiger["held"] is False
    assert [e["ev"] for e in st["events"]].count("hit") == 1
    assert all("ev" in e for e in st["events"])


def test_cli_output_is_the_library_output(tmp_path):
    text = json.dumps(SPEC_EXAMPLE)
    out, _ = run_ok(tmp_path, text)
    assert out == run_text(text) + "\n"


def test_empty_object_is_a_standard_game(tmp_path):
    _, st = run_ok(tmp_path, {})
    assert SPEC_STATE_KEYS <= set(st)
    assert sorted(e["kind"] for e in st["enemies"]) == ["pz3", "pz3", "sdkfz", "sdkfz", "sdkfz", "tiger"]
    assert all(e["line"] == "air" for e in st["enemies"])
    assert st["pool"] == 43
    assert st["walls"] == [1, 2, 3, 4, 5, 6]


def test_same_scenario_same_output(tmp_path):
    scen = {"seed": 77, "actions": [{"do": "end_turn"}, {"do": "end_turn"}]}
    out1, _ = run_ok(tmp_path, scen)
    out2, _ = run_ok(tmp_path, scen)
    assert out1 == out2


def test_non_ascii_in_an_error_message_is_printed_as_utf8(tmp_path):
    scen = {"seed": 1, "actions": [{"do": "осада"}]}
    out, st = run_ok(tmp_path, scen)
    refused = [e for e in st["events"] if e["ev"] == "refused"]
    assert len(refused) == 1 and "осада" in refused[0]["error"]


def test_refused_action_is_reported_not_an_error(tmp_path):
    scen = dict(SPEC_EXAMPLE)
    scen["actions"] = [
        {"do": "reveal"},                                                    # phase 4: refused
        {"do": "hit", "enemy": 1, "card": {"arm": "air", "color": "green"}},  # wrong line: R10
        {"do": "hit", "enemy": 1, "card": {"arm": "artillery", "color": "green"}},  # accepted
    ]
    _, st = run_ok(tmp_path, scen)
    refused = [e for e in st["events"] if e["ev"] == "refused"]
    assert [(e["action"], e["rule"]) for e in refused] == [(0, "turn"), (1, "R10")]
    assert all(e["error"] for e in refused)
    # the run went on after the refusals
    assert st["enemies"][0]["armor"] == 1


def test_malformed_action_inside_a_valid_scenario_is_refused_with_rule_format(tmp_path):
    scen = {"seed": 3, "actions": [{"do": "fire"}, 5, {"do": "hit", "enemy": -1},
                                   {"do": "end_turn"}]}
    _, st = run_ok(tmp_path, scen)
    refused = [e for e in st["events"] if e["ev"] == "refused"]
    assert [(e["action"], e["rule"]) for e in refused] == [(0, "format"), (1, "format"), (2, "format")]
    assert st["turn"] == 2                       # end_turn still ran


def test_game_over_then_more_actions_still_exit_zero(tmp_path):
    scen = {"board": {"walls": [], "buildings": [1],
                      "enemies": [{"kind": "tiger", "sector": 1, "line": "tank"}]},
            "pool": [], "actions": [{"do": "end_turn"}, {"do": "end_turn"}]}
    _, st = run_ok(tmp_path, scen)
    assert st["outcome"] == "lost"
    refused = [e for e in st["events"] if e["ev"] == "refused"]
    assert [e["action"] for e in refused] == [1]
    assert refused[0]["rule"] == "R50"


# --------------------------------------------------------- malformed input
# (scenario, a word the one-line error must contain)

def _enemy(**kw):
    e = {"kind": "tiger", "sector": 1, "line": "air"}
    e.update(kw)
    return {"board": {"walls": [1, 2, 3, 4, 5, 6], "buildings": [1, 2, 3, 4, 5, 6], "enemies": [e]}}


MALFORMED = [
    ("not-json", "{players: 2", "JSON"),
    ("truncated-json", '{"players": 2', "JSON"),
    ("empty-file", "", "JSON"),
    ("array", [1, 2], "object"),
    ("number", "42", "object"),
    ("null", "null", "object"),
    ("string", '"scenario"', "object"),
    ("unknown-key", {"player": 2}, "player"),
    ("bad-mode", {"mode": "coop"}, "mode"),
    ("players-7", {"players": 7}, "players"),
    ("players-0", {"players": 0}, "players"),
    ("players-1-standard", {"players": 1}, "players"),
    ("players-2-solo", {"mode": "solo", "players": 2}, "players"),
    ("players-6-marshal", {"mode": "marshal", "players": 6}, "players"),
    ("players-string", {"players": "2"}, "players"),
    ("unknown-variant", {"variants": ["hardcore"]}, "hardcore"),
    ("variants-not-list", {"variants": "simple_battles"}, "variants"),
    ("seed-negative", {"seed": -1}, "seed"),
    ("seed-too-big", {"seed": 2 ** 32}, "seed"),
    ("seed-float", {"seed": 1.5}, "seed"),
    ("enemy-kind-unknown", _enemy(kind="t34"), "kind"),
    ("enemy-kind-bomber", _enemy(kind="he111"), "kind"),
    ("enemy-kind-event", _enemy(kind="move_red"), "kind"),
    ("enemy-line-unknown", _enemy(line="moat"), "line"),
    ("enemy-sector-0", _enemy(sector=0), "sector"),
    ("enemy-sector-7", _enemy(sector=7), "sector"),
    ("enemy-sector-missing", {"board": {"enemies": [{"kind": "tiger", "line": "air"}]}}, "sector"),
    ("enemy-armor-0", _enemy(armor=0), "armor"),
    ("enemy-armor-above-start", _enemy(armor=4), "armor"),
    ("enemy-armor-sdkfz-2", _enemy(kind="sdkfz", armor=2), "armor"),
    ("enemy-in-city-with-building", _enemy(line="city"), "R23"),
    ("board-unknown-key", {"board": {"towers": [1]}}, "towers"),
    ("dot-without-wall", {"board": {"walls": [], "dots": [1]}}, "R14"),
    ("three-dots", {"board": {"walls": [1, 2, 3], "dots": [1, 2, 3]}}, "R14"),
    ("pool-unknown-kind", {"pool": ["pz3", "t34"]}, "t34"),
    ("pool-not-list", {"pool": "pz3"}, "pool"),
    ("rolls-7", {"rolls": [1, 7]}, "roll"),
    ("rolls-0", {"rolls": [0]}, "roll"),
    ("actions-not-list", {"actions": {"do": "end_turn"}}, "actions"),
]


@pytest.mark.parametrize("content,word", [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_scenario_exits_2_with_one_error_line(tmp_path, content, word):
    assert_usage_error(osada("scenario", write(tmp_path, content)), word)


def test_missing_file_exits_2_with_one_error_line(tmp_path):
    missing = str(tmp_path / "no-such-scenario.json")
    proc = osada("scenario", missing)
    assert_usage_error(proc, "no-such-scenario.json")


def test_directory_instead_of_file_exits_2(tmp_path):
    assert_usage_error(osada("scenario", str(tmp_path)))


# ------------------------------------------- regressions (bugs found by these tests)

def test_action_with_list_do_is_refused_not_a_crash(tmp_path):
    _, st = run_ok(tmp_path, {"actions": [{"do": ["hit"], "enemy": 1}]})
    assert [e["rule"] for e in st["events"] if e["ev"] == "refused"] == ["format"]


def test_invalid_utf8_file_exits_2_with_one_error_line(tmp_path):
    assert_usage_error(osada("scenario", write(tmp_path, b'{"seed": 1, "x": "\xff"}')))


def test_deeply_nested_json_exits_2_with_one_error_line(tmp_path):
    assert_usage_error(osada("scenario", write(tmp_path, "[" * 100000 + "]" * 100000)))
