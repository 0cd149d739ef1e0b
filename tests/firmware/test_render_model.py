"""The renderer against a plain model of what a frame shows (issue 12).

Renderer.draw is written for speed on the Pico (a prebuilt empty board, only
the cells with enemies painted, colours and ranks looked up lazily, the city
LEDs rebuilt only when a wall, dot or building changes).  This test spells the
module comment of osada_fw/siege/board.py out the slow, obvious way, LED by LED, and
checks the two agree byte for byte on many random boards, times, layouts,
brightnesses and channel orders, with the board changing between frames the
way a game changes it (walls, dots, buildings, enemies, the hedgehog, a
pending choice) and the brightness changing under a running renderer; and
over whole played games, where the renderer keeps a game's steady cells from
frame to frame (its cache), with undos replacing the game now and then."""

import os
import random
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import osada_fw  # noqa: F401  (installed by `make setup`, or on PYTHONPATH)
except ImportError:  # run from the tree
    sys.path[:0] = [os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host")]

from osada_fw.frame import GAMMA, Frame  # noqa: E402
from osada_fw.layouts import LAYOUTS, P_CITY, P_WALL, Layout  # noqa: E402
from osada_fw.siege import board as render  # noqa: E402
from osada_fw.siege import colors as C  # noqa: E402
from osada_fw.siege.board import Board as SiegeBoard  # noqa: E402
from shared_rules.siege.autoplay import RandomPlayer  # noqa: E402
from shared_rules.siege.catalog import KIND_IDS, strength  # noqa: E402
from shared_rules.siege.engine import PLAYING, Enemy, Game, RuleError, replay  # noqa: E402


def model_pal(board, layout, sector, part, now):
    """The palette number the LED of (sector, part) shows at `now`."""
    here = []
    for e in board.enemies[:render.MAX_ENEMIES]:
        line = e.line if (e.line <= 3 or layout.city) else 3
        if e.sector == sector and line == part:
            here.append(e)
    if not here:
        if part == P_WALL:
            if not board.walls[sector]:
                return C.OFF
            return C.DOT if board.dots[sector] else C.WALL
        if part == P_CITY:
            return C.BUILDING if board.buildings[sector] else C.RUIN
        return C.SECTOR_TINT[sector]
    # strongest first; among equals the one listed first
    ranked = sorted(range(len(here)), key=lambda k: (-strength(here[k].kind, here[k].armor, here[k].id), k))
    if len(here) == 1:
        e = here[0]
        phase = now % render.HELD_PERIOD_MS
    else:
        phase = now % render.SLOT_MS
        if phase >= render.SLOT_MS - render.GAP_MS:
            return C.OFF
        e = here[ranked[(now // render.SLOT_MS) % len(here)]]
    cands = board.pending["candidates"] if board.pending is not None else ()
    if any(x.id in cands for x in here) and now % render.CAND_PERIOD_MS >= render.CAND_PERIOD_MS // 2:
        return C.OFF
    if board.hedgehog and e.id == board.hedgehog and phase < render.HELD_ON_MS:
        return C.HELD
    return C.enemy_pal(e.kind, e.armor)


def model_frame(board, layout, brightness, order, now):
    out = bytearray(3 * layout.count)
    for i in range(layout.count):
        c = layout.leds[i]
        rgb = C.rgb(model_pal(board, layout, c // 6 + 1, c % 6, now))
        for ch in range(3):
            g = GAMMA[rgb[ch]]
            v = (g * brightness + 127) // 255
            out[3 * i + order.index("RGB"[ch])] = 1 if (v == 0 and rgb[ch]) else v
    return out


class Board:
    """What Renderer.draw reads of a game."""


def random_board(rng):
    b = Board()
    # ids are unique, as in a game (strength() then never ties), in any order
    ids = rng.sample(range(1, 80), rng.choice((0, 1, 3, 8, 20, 40)))
    b.enemies = [Enemy(eid, rng.randrange(len(KIND_IDS)), rng.randint(1, 6), rng.randint(0, 4), rng.randint(-1, 5))
                 for eid in ids]
    b.walls = [rng.randint(0, 1) for _ in range(7)]
    b.dots = [rng.randint(0, 1) for _ in range(7)]
    b.buildings = [rng.randint(0, 1) for _ in range(7)]
    b.hedgehog = rng.choice([0, 0] + [e.id for e in b.enemies])
    b.pending = None
    if b.enemies and rng.random() < 0.3:
        b.pending = {"choice": "damage", "candidates": [e.id for e in rng.sample(b.enemies, min(3, len(b.enemies)))]}
    return b


def mutate(rng, b):
    """One change of the kind a game makes between two frames."""
    what = rng.randrange(6)
    s = rng.randint(1, 6)
    if what == 0:
        b.walls[s] ^= 1
    elif what == 1:
        b.dots[s] ^= 1
    elif what == 2:
        b.buildings[s] ^= 1
    elif what == 3 and b.enemies:
        e = rng.choice(b.enemies)
        e.line = max(0, e.line - 1)
        e.armor -= 1
    elif what == 4 and b.enemies:
        del b.enemies[rng.randrange(len(b.enemies))]
    else:
        b.hedgehog = rng.choice([0] + [e.id for e in b.enemies])


@pytest.mark.parametrize("name", LAYOUTS)
@pytest.mark.parametrize("city", [False, True])
def test_frames_match_the_model(name, city):
    rng = random.Random("%s/%s" % (name, city))
    layout = Layout(name, city)
    frames = 0
    for _ in range(25):
        brightness = rng.randint(1, 255)
        order = rng.choice(("GRB", "RGB", "BRG", "BGR"))
        r = SiegeBoard(Frame(layout, brightness, order, max_ma=100000))
        b = random_board(rng)
        now = rng.randint(0, (1 << 29))
        for _ in range(25):
            now += rng.randint(1, 400)
            if rng.random() < 0.3:
                mutate(rng, b)
            if rng.random() < 0.05:
                brightness = rng.randint(1, 255)
                r.frame.set_brightness(brightness)
                r.rewire()
            r.draw(b, now)
            assert r.frame.buf == model_frame(b, layout, brightness, order, now), (name, city, now)
            frames += 1
    assert frames == 625


def test_the_model_check_can_fail():
    """The comparison sees a single wrong byte: a renderer whose empty board is
    off by one in one LED does not match the model."""
    layout = Layout("spokes", True)
    r = SiegeBoard(Frame(layout, 96, "GRB"))
    b = random_board(random.Random(3))
    b.enemies = []
    r._base[5] ^= 1
    r.draw(b, 1000)
    assert r.frame.buf != model_frame(b, layout, 96, "GRB", 1000)


@pytest.mark.parametrize("seed,name,city", [(1, "spokes", False), (2, "rings", True), (3, "ring24", False),
                                            (4, "spokes", True)])
def test_frames_of_played_games_match_the_model(seed, name, city):
    """Real games, drawn by one renderer all along: its cache of the steady
    cells must follow every action, refused ones, undos (a new game object),
    an undo and an action between two frames, and brightness changes."""
    rng = random.Random(seed)
    layout = Layout(name, city)
    brightness = 96
    r = SiegeBoard(Frame(layout, brightness, "GRB", max_ma=100000))
    game = Game.from_setup({"players": 2 + seed % 3, "seed": seed})
    agent = RandomPlayer(seed, skill=1)
    now = 0
    frames = most = undos = blinking = 0
    for _ in range(400):
        if game.outcome != PLAYING:
            break
        try:
            game.apply(agent.action(game))
        except RuleError:
            pass
        if len(game.log) > 1 and rng.random() < 0.08:
            game = replay(game.setup_dict(), game.log.tuples()[:-1])        # undo, as the app does it
            undos += 1
            if rng.random() < 0.5:
                try:
                    game.apply(agent.action(game))                         # ... and act before the next frame
                except RuleError:
                    pass
        if rng.random() < 0.03:
            brightness = rng.randint(1, 255)
            r.frame.set_brightness(brightness)
            r.rewire()
        for _ in range(3):
            now += rng.randint(1, 300)
            r.draw(game, now)
            assert r.frame.buf == model_frame(game, layout, brightness, "GRB", now), (seed, len(game.log), now)
            frames += 1
        most = max(most, len(game.enemies))
        blinking = max(blinking, r._ndyn)
    # the games did exercise the cache: enemies on the board, blinking cells, undos
    assert frames > 300 and most >= 5 and blinking >= 1 and undos >= 3, (frames, most, blinking, undos)


def test_a_hedgehog_or_choice_set_from_outside_is_drawn():
    """The hedgehog and the pending choice are part of what the cache keys
    on: set directly (as tests and tools do), they still show at once."""
    g = Game(board={"walls": [1, 2, 3, 4, 5, 6], "dots": [], "buildings": [1, 2, 3, 4, 5, 6],
                    "enemies": [{"kind": "tiger", "sector": 2, "line": "air"},
                                {"kind": "pz3", "sector": 4, "line": "rear"}]}, pool=["pz3"])
    layout = Layout("spokes")
    r = SiegeBoard(Frame(layout, 96, "GRB", max_ma=100000))
    tiger = layout.index(2, 1)
    r.draw(g, 1000)
    steady = bytes(r.frame.buf[3 * tiger:3 * tiger + 3])
    g.hedgehog = g.enemies[0].id
    r.draw(g, 2000)                                      # the start of a held period: white
    assert r.frame.buf == model_frame(g, layout, 96, "GRB", 2000) and r.frame.buf[3 * tiger:3 * tiger + 3] != steady
    g.hedgehog = 0
    g.pending = {"choice": "damage", "candidates": [g.enemies[0].id]}
    r.draw(g, 2200)                                      # a candidate in its dark half
    assert r.frame.buf == model_frame(g, layout, 96, "GRB", 2200) and r.frame.buf[3 * tiger:3 * tiger + 3] == b"\0\0\0"
    g.pending = None
    r.draw(g, 2200)
    assert r.frame.buf[3 * tiger:3 * tiger + 3] == steady
