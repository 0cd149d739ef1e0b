"""Helpers for the emulated-Pico tier (tests/pico/): boot the real firmware
with our app in its flash, connect the host's protocol client to it."""

import json
import os

from osada import client, deploy
from osada import pico_emu as pe
from osada.uf2 import UF2_OSADA

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware", "config.json")) as _f:
    CONFIG = json.load(_f)
PINS = {"action": CONFIG["buttons"]["action"], "back": CONFIG["buttons"]["back"],
        "a": CONFIG["encoder"]["a"], "b": CONFIG["encoder"]["b"], "switch": CONFIG["encoder"]["switch"]}
IDLE_HIGH = tuple(sorted(PINS.values()))       # every input idles high (pull-ups, not modelled)


def write_fs(tmp_path_factory, files, name="fs.img"):
    path = str(tmp_path_factory.mktemp("lfs") / name)
    with open(path, "wb") as f:
        f.write(pe.littlefs_image(files))
    return path


def boot(bundle, tmp_path_factory, romfs=True, config=None, high=IDLE_HIGH, low=(), wait=b'"ev": "boot"',
         **kw):
    """An emulated Pico with the bundle in flash: the code in ROMFS (romfs=True,
    the recommended firmware) or on the filesystem (the stock firmware)."""
    folder, image = bundle
    files = pe.flash_files(folder, with_code=not romfs, config=config)
    fs = write_fs(tmp_path_factory, files)
    return boot_fs(bundle, fs, romfs=romfs, high=high, low=low, wait=wait, **kw)


def boot_fs(bundle, fs, romfs=True, high=IDLE_HIGH, low=(), wait=b'"ev": "boot"', uf2=None, **kw):
    """An emulated Pico with the littlefs image at path fs (None: blank
    flash there); waits for `wait`.  uf2: another firmware with a ROMFS
    partition (Osada's image) instead of MicroPython's."""
    folder, image = bundle
    pico = pe.EmulatedPico(uf2=uf2 or pe.uf2_path(pe.UF2_ROMFS if romfs else pe.UF2_STOCK),
                           romfs=image if romfs else None, fs=fs, high=high, low=low, **kw)
    try:
        if wait:
            pico.wait_text(wait, timeout=60)
    except Exception:
        pico.stop()
        raise
    return pico


def osada_image():
    """Osada's own firmware image (frozen main.py and _boot.py): vendored in
    firmware/micropython/, or one built by hand given as $OSADA_FIRMWARE_UF2;
    None when there is neither."""
    own = os.environ.get(deploy.FIRMWARE_ENV) or pe.uf2_path(UF2_OSADA)
    return own if os.path.isfile(own) else None


def connect(pico):
    # the emulator runs at ~0.2x real time, slower on a loaded machine, and a
    # reboot restores the journal first: wall-clock seconds are not a Pico's
    link = client.Link(pico.transport, timeout=60.0)
    link.connect()
    return link


def accepted_actions(setup, n, seed=3, skill=1):
    """The first n actions a RandomPlayer gets accepted from setup, and the game after them."""
    from shared_rules.autoplay import RandomPlayer
    from shared_rules.engine import Game, RuleError
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
    from shared_rules.engine import Game
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
