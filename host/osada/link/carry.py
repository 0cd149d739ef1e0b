"""`osada journal get FILE` / `osada journal put FILE`: Siege's game off a board into a
journal file, and a journal file's game onto a board (issue 63 item 3).

The file is the journal's own format (firmware/osada_fw/store/journal.py): the one Osada in
the browser exports and imports, and the simulator keeps (build/sim-state/journal.bin). So a
game started in a phone's browser goes on on a board, and back. It is read and written by
the firmware's own journal code, in a folder of its own, never by a second reader here:

    get   the board's setup and actions (the `log` request, in pages), played through the
          rules (so a file is only ever a game the rules accept), written as a journal file
          (a temporary file renamed over FILE: a cut leaves the old FILE or the new one)
    put   the file's game, read back by the journal's restore (a file that is no game, or
          whose bytes are damaged, is refused with what is wrong and nothing is sent), then
          on the board: a new game with the file's setup, its seed included, and each
          action in turn, each journalled by the board before it is answered; last, the
          board's state compared with the file's. Over a game in progress only with
          --replace.

The seed goes onto the board with the game: the file holds it as the board's flash and the
browser's storage do (the pool's order is the device's to keep, never a page's)."""

import os
import shutil
import sys
import tempfile

from osada.link.client import ProtocolError
from osada_fw.store.journal import NAME, Journal
from shared_rules.siege import actions as A
from shared_rules.siege.engine import Game, RuleError

NEW_FIELDS = ("players", "mode", "variants", "seed")     # what the device's `new` takes of a setup


class CarryError(Exception):
    """A file or a game that cannot be carried, in words."""


def read_file(path):
    """(setup, actions as the protocol's action objects) of the journal file `path`."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise CarryError("cannot read %s: %s" % (path, exc.strerror or exc))
    tmp = tempfile.mkdtemp(prefix="osada-carry-")
    try:
        with open(os.path.join(tmp, NAME), "wb") as f:
            f.write(data)
        j = Journal(tmp)
        try:
            game = j.restore()
            damage = j.damage or j.last_error
        finally:
            j.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if game is None:
        raise CarryError("%s holds no game: %s" % (path, damage or "no journal in it"))
    if damage:
        raise CarryError("%s is damaged (%s): nothing was carried; the simulator or the page shows what it keeps"
                         % (path, damage))
    return dict(game.setup_dict()), [A.to_dict(t) for t in game.log]


def game_of(setup, actions):
    """The game `setup` and `actions` make, played through the rules; CarryError if refused."""
    try:
        game = Game.from_setup(setup)
        for action in actions:
            game.apply(action)
    except RuleError as exc:
        raise CarryError("the game does not play back: %s" % exc)
    return game


def write_file(path, setup, actions):
    """The game as a journal file at `path`, written whole or not at all."""
    game = game_of(setup, actions)
    tmp = tempfile.mkdtemp(prefix="osada-carry-")
    try:
        j = Journal(tmp)
        try:
            j.compact(game.setup_dict(), list(game.log.tuples()))
        finally:
            j.close()
        part = path + ".part"
        try:
            shutil.copyfile(os.path.join(tmp, NAME), part)
            os.replace(part, path)
        except OSError as exc:
            raise CarryError("cannot write %s: %s" % (path, exc.strerror or exc))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return game


def _ok(reply, what):
    if not reply.get("ok"):
        raise CarryError("the board refused %s: %s%s" % (what, (reply.get("rule") + ": ") if reply.get("rule") else "",
                                                        reply.get("error", "?")))
    return reply


def get(link, path):
    """The board's game into the journal file `path`; the game."""
    scenario = link.fetch_log()
    actions = scenario.pop("actions")
    return write_file(path, scenario, actions)


def put(link, path, replace=False, progress=None):
    """The journal file's game onto the board; the board's action count after it."""
    setup, actions = read_file(path)
    extra = sorted(k for k in setup if k not in NEW_FIELDS)
    if extra:
        raise CarryError("%s is a scenario's game (its own %s): a board starts only the game's own setups"
                         % (path, ", ".join(extra)))
    game = game_of(setup, actions)
    _ok(link.request("game", game="siege"), "to switch to Siege")
    st = _ok(link.request("state"), "its state")
    if st.get("seq") and st["state"].get("outcome") == "playing" and not replace:
        raise CarryError("the board has a game in progress (turn %s, %d actions): osada journal put %s --replace "
                         "replaces it" % (st["state"].get("turn"), st["seq"], path))
    _ok(link.request("new", **{k: setup[k] for k in NEW_FIELDS if k in setup}), "the new game")
    for i, action in enumerate(actions):
        _ok(link.request("act", action=action), "action %d of %d (%r)" % (i + 1, len(actions), action))
        if progress is not None:
            progress(i + 1, len(actions))
    st = _ok(link.request("state"), "its state")
    want = game.state()
    del want["events"]
    if st.get("seq") != len(actions) or st["state"] != _jsonable(want):
        raise CarryError("the board's game is not the file's after the carry (it has %s actions): "
                         "report it, with the file" % st.get("seq"))
    return st["seq"]


def _jsonable(obj):
    import json

    from osada_fw.store.core import dumps
    return json.loads(dumps(obj))


def run(args, link):
    """`osada journal get|put FILE`: the command's own part (saved.py opens the link)."""
    def progress(done, total):
        if sys.stderr.isatty():
            sys.stderr.write("\rputting action %d of %d" % (done, total))
    try:
        if args.what == "get":
            game = get(link, args.file)
            print("wrote the board's game (turn %s, %d actions) to %s: the journal's own file, for Osada in "
                  "the browser (Import a game…) or the simulator" % (game.state()["turn"], len(game.log), args.file))
        else:
            n = put(link, args.file, replace=args.replace, progress=progress)
            if sys.stderr.isatty():
                sys.stderr.write("\n")
            print("put %s's game on the board: %d actions, the same state" % (args.file, n))
    except CarryError as exc:
        raise ProtocolError(str(exc))
    return 0
