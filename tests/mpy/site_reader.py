# The page with no host in words and pictures (osada.site.reader) on both runtimes.
# Two feeds, every line the Reader gives printed: seeded games played through the
# engine, each action's events and the state after it handed to the Reader as the
# device's JSON lines; then CHUNKS, a JSON file of what the firmware's app wrote,
# step by step, in the page's hardware layer (its replies and events for Siege and
# each other game, some garbage).  tests/host/site/test_reader.py runs it on CPython
# and inside MicroPython on the very modules the static site carries, and requires
# the same output.
#
# usage: site_reader.py MODE SEED ACTIONS CHUNKS

import json
import sys

from osada.site import reader
from shared_rules.siege.engine import Game, RuleError

try:
    from shared_rules.siege.autoplay import RandomPlayer
except ImportError:                    # the site's modules carry no autoplay: the test puts it beside them
    from autoplay import RandomPlayer

NAMES = {"end_turn": "end turn", "reveal": "reveal"}


def say(text):
    said = reader.read(text)
    sys.stdout.write((said or "-") + "\n")


def feed(msgs):
    say("\n".join(json.dumps(m) for m in msgs) + "\n")


def engine_game(mode, seed, actions):
    players = 1 if mode in ("solo", "marshal") else 3
    game = Game(players=players, mode=mode, seed=seed)
    feed([{"ok": True, "id": 1, "game": "siege"}, {"ok": True, "id": 2, "seq": 0, "state": game.state()}])
    bot = RandomPlayer(seed, skill=1)
    n = 0
    while n < actions and game.state()["outcome"] == "playing":
        action = bot.action(game)
        n += 1
        try:
            events = game.apply(action)
        except RuleError as exc:
            feed([{"ok": False, "id": n, "error": exc.message, "rule": exc.rule}])
            continue
        feed([dict(ev) for ev in events] + [{"ev": "state", "seq": n, "state": game.state()}])


def main(mode, seed, actions, chunks):
    reader.start(json.dumps(NAMES))
    engine_game(mode, seed, actions)
    reader.start(json.dumps(NAMES))
    with open(chunks) as f:
        for text in json.load(f):
            say(text)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
