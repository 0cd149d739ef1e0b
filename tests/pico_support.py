"""Helpers for the emulated-Pico tier (tests/pico/): boot the official
MicroPython firmware (given: tests.support.pico_emu.firmware()) with our app in its
flash, connect the host's protocol client to it."""

import functools
import json
import os

from osada.flash import deploy, fsimage
from osada.link import client
from tests.support import pico_emu as pe

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware", "config.json")) as _f:
    CONFIG = json.load(_f)
PINS = {"action": CONFIG["buttons"]["action"], "back": CONFIG["buttons"]["back"],
        "a": CONFIG["encoder"]["a"], "b": CONFIG["encoder"]["b"], "switch": CONFIG["encoder"]["switch"]}
IDLE_HIGH = tuple(sorted(PINS.values()))       # every input idles high (pull-ups, not modelled)


@functools.lru_cache(maxsize=None)
def firmware():
    """The MicroPython UF2 the tier runs on (conftest skips the tier without one)."""
    return pe.firmware()


def write_fs(tmp_path_factory, files, name="fs.img", **kw):
    path = str(tmp_path_factory.mktemp("lfs") / name)
    with open(path, "wb") as f:
        f.write(fsimage.image(files, **kw))
    return path


def one_file(bundle, tmp_path_factory, config=None):
    """`make uf2`'s one-file install for this bundle: the firmware and the
    whole filesystem region (the app, config.json, the journal's file)."""
    out = str(tmp_path_factory.mktemp("uf2") / "osada-pico.uf2")
    return deploy.make_uf2(out=out, firmware=firmware(), bundle=bundle, quiet=True, config=config)


def boot(bundle, tmp_path_factory, config=None, high=IDLE_HIGH, low=(), wait=b'"ev": "boot"', **kw):
    """An emulated Pico as a user's board is after dragging `make uf2`'s
    file onto it.  config: bytes for /config.json, or False for none."""
    pico = pe.EmulatedPico(uf2=one_file(bundle, tmp_path_factory, config), high=high, low=low, **kw)
    return _started(pico, wait)


def boot_fs(bundle, fs, high=IDLE_HIGH, low=(), wait=b'"ev": "boot"', **kw):
    """An emulated Pico with the firmware and the littlefs image at path fs
    (None: blank flash there); waits for `wait`."""
    return _started(pe.EmulatedPico(uf2=firmware(), fs=fs, high=high, low=low, **kw), wait)


def _started(pico, wait):
    try:
        if wait:
            pico.wait_text(wait, timeout=60)
    except Exception:
        pico.stop()
        raise
    return pico


def connect(pico):
    # the emulator runs at ~0.2x real time, slower on a loaded machine, and a
    # reboot restores the journal first: wall-clock seconds are not a Pico's
    link = client.Link(pico.transport, timeout=60.0)
    link.connect()
    return link


def accepted_actions(setup, n, seed=3, skill=1):
    """The first n actions a RandomPlayer gets accepted from setup, and the game after them."""
    from shared_rules.siege.autoplay import RandomPlayer
    from shared_rules.siege.engine import Game, RuleError
    game = Game.from_setup(setup)
    agent = RandomPlayer(seed, skill)
    out = []
    while len(out) < n:
        a = agent.action(game)
        try:
            game.apply(a)
        except RuleError:
            continue
        out.append(a)
    return out, game


def mirror_after(setup, actions):
    """The CPython engine after these actions from setup."""
    from shared_rules.siege.engine import Game
    g = Game.from_setup(setup)
    for a in actions:
        g.apply(a)
    return g


# ------------------------------------------------------------- inputs

def press(pin, ms=60, bounce=False):
    """Pin steps for one press held `ms` simulated ms (active low), chattering if bounce."""
    steps = []
    if bounce:                                        # a real contact chatters
        steps += [(pin, False, 0), (pin, True, 1), (pin, False, 1), (pin, True, 2), (pin, False, 1)]
    else:
        steps += [(pin, False, 0)]
    steps.append((pin, True, ms))
    return steps


def turn(detents):
    """Quadrature steps for whole detents: + is A leading B."""
    a, b = PINS["a"], PINS["b"]
    first, second = (a, b) if detents > 0 else (b, a)
    steps = []
    for _ in range(abs(detents)):
        steps += [(first, False, 2), (second, False, 2), (first, True, 2), (second, True, 2)]
    return steps
