# Plays seeded random games and prints one line per game:
#   seed outcome accepted refused sha256(every event of the game) log-hex final-state-json
# It runs unchanged on CPython and inside MicroPython; tests/test_cross_runtime.py
# runs it on both and requires identical output, line for line.
#
# usage: crosscheck.py FIRST_SEED COUNT

import sys
import hashlib
import binascii

from shared_rules.autoplay import play, random_setup
from shared_rules.jsonout import dumps


def game_line(seed):
    h = hashlib.sha256()

    def keep(game, action, events):
        h.update(dumps(action).encode())
        for ev in events:
            h.update(dumps(ev).encode())

    game, accepted, refused = play(random_setup(seed), seed, keep=keep)
    return "%d %s %d %d %s %s %s" % (
        seed, game.outcome, accepted, refused,
        binascii.hexlify(h.digest()).decode(),
        binascii.hexlify(bytes(game.log.buf)).decode(),
        game.state_json(events=[]))


def main(argv):
    first = int(argv[1])
    count = int(argv[2])
    for seed in range(first, first + count):
        sys.stdout.write(game_line(seed))
        sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
