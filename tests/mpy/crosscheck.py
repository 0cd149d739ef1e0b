# Plays seeded random games and prints one line per game:
#   seed outcome accepted refused sha256(every event of the game) log-hex final-state-json
# It runs unchanged on CPython and inside MicroPython; tests/rules/test_cross_runtime.py
# runs it on both and requires identical output, line for line.
#
# usage: crosscheck.py FIRST_SEED COUNT [SKILL]
# SKILL 0 (default): random setups of every mode and variant, pure random play;
# SKILL 1: standard 2-player games played to the end with aimed plays.

import binascii
import hashlib
import sys

from shared_rules.jsonout import dumps
from shared_rules.siege.autoplay import play, random_setup


def game_line(seed, skill):
    h = hashlib.sha256()

    def keep(game, action, events):
        h.update(dumps(action).encode())
        for ev in events:
            h.update(dumps(ev).encode())

    setup = random_setup(seed) if skill == 0 else {"players": 2, "seed": seed}
    game, accepted, refused = play(setup, seed, keep=keep, skill=skill)
    return "%d %s %d %d %s %s %s" % (
        seed, game.outcome, accepted, refused,
        binascii.hexlify(h.digest()).decode(),
        binascii.hexlify(bytes(game.log.buf)).decode(),
        game.state_json(events=[]))


def main(argv):
    first = int(argv[1])
    count = int(argv[2])
    skill = int(argv[3]) if len(argv) > 3 else 0
    for seed in range(first, first + count):
        sys.stdout.write(game_line(seed, skill))
        sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
