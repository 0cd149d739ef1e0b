"""Siege's LED frames on the device (osada_fw/siege/board.py, anim.py): the
frame on the strip is the board painter's picture of the game, it changes
as the enemies move (each one's colour moves with it), a move's sweep
lights the cells the enemies now stand on, and every animation ends."""

from osada_fw.siege import anim
from shared_rules.siege.autoplay import RandomPlayer
from shared_rules.siege.engine import PLAYING, Game, replay
from tests.support.device import CFG, Dev
from tests.support.fw_extras import board_from_config


def _quiet_frame_time(dev):
    """Advance to a time where the cursor blink is off and a frame is due."""
    dev.tick(ms=40)
    while (dev.clock.now // 250) & 1:
        dev.tick(ms=40)
    return dev.clock.now


def test_frame_after_new_is_deterministic(tmp_path):
    frames = {}
    for name, seed in (("a", 42), ("b", 42), ("c", 43)):
        dev = Dev(tmp_path / name, seed=1)
        dev.ok("new", seed=seed)
        dev.tick(100, ms=100)                   # animations over
        now = _quiet_frame_time(dev)
        frames[name] = (now, dev.hw.leds.frame, dev.ok("leds", ms=0)[0]["leds"])
        # the frame for this known state is the renderer's picture of that game
        r = board_from_config(CFG)
        r.render(Game(seed=seed), now)
        assert bytes(r.frame.buf) == dev.hw.leds.frame
    assert frames["a"] == frames["b"]
    assert Game(seed=42).state()["enemies"] != Game(seed=43).state()["enemies"]
    assert frames["a"][1] != frames["c"][1]


def test_frame_changes_when_an_enemy_moves(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", seed=42)
    dev.tick(100, ms=100)
    _quiet_frame_time(dev)
    before = dev.hw.leds.frame
    old = {e.id: (e.sector, e.line, e.armor) for e in dev.app.siege.game.enemies}
    dev.ok("act", action={"do": "move"})
    moved = [e for e in dev.app.siege.game.enemies if e.id in old and (e.sector, e.line) != old[e.id][:2]]
    assert moved
    dev.tick(100, ms=100)                       # the sweep has played
    assert dev.app.siege.anims == []
    now = _quiet_frame_time(dev)
    after = dev.hw.leds.frame
    assert after != before
    r = board_from_config(CFG)
    r.render(replay(dev.app.siege.game.setup_dict(), dev.app.siege.game.log.tuples()), now)
    assert bytes(r.frame.buf) == after
    lay = dev.app.layout
    for e in moved:
        alone = [x for x in dev.app.siege.game.enemies if (x.sector, x.line) == (e.sector, e.line)] == [e]
        was_alone = sum(1 for v in old.values() if v[:2] == old[e.id][:2]) == 1
        if alone and was_alone and e.armor == old[e.id][2] and e.line < 4:
            i_old = lay.index(old[e.id][0], old[e.id][1])
            i_new = lay.index(e.sector, e.line)
            # the enemy's colour moved with it
            assert after[3 * i_new:3 * i_new + 3] == before[3 * i_old:3 * i_old + 3]
            assert after[3 * i_old:3 * i_old + 3] != before[3 * i_old:3 * i_old + 3]


def test_move_sweep_cells(tmp_path):
    """The sweep a move starts lights the cells the moved enemies now stand
    on, grouped by line from the rear inwards; Siege.positions keeps each
    enemy's place as one small int (sector * 8 + line), no tuple."""
    dev = Dev(tmp_path)
    dev.ok("new", seed=42)
    dev.tick(100, ms=100)
    game = dev.app.siege.game
    old = {e.id: (e.sector, e.line) for e in game.enemies}
    before = dev.app.siege.positions
    assert before == {i: s * 8 + line for i, (s, line) in old.items()}
    dev.ok("act", action={"do": "move"})
    groups = [[] for _ in range(5)]
    for e in dev.app.siege.game.enemies:
        if e.id in old and (e.sector, e.line) != old[e.id]:
            groups[e.line].append((e.sector, e.line if e.line < 4 else "city"))
    want = [g for g in groups if g]
    assert want and anim.moved_cells(dev.app.siege, before) == want
    assert anim.cell(3 * 8 + 4) == (3, "city") and anim.cell(6 * 8 + 0) == (6, 0)


def test_every_animation_ends(tmp_path):
    dev = Dev(tmp_path)
    dev.ok("new", players=3, seed=5)
    agent = RandomPlayer(9, skill=1)
    names = set()
    accepted = 0
    for _ in range(400):
        if dev.app.siege.game.outcome != PLAYING:
            break
        reply, pushed = dev.act(agent.action(dev.app.siege.game))
        if not reply["ok"]:
            continue
        accepted += 1
        names.update(m["ev"] for m in pushed)
        if accepted % 5 == 0:
            dev.ok("roll")
        dev.clock.advance(10000)
        dev.tick(2)
        assert dev.app.siege.anims == [], [type(a).__name__ for a in dev.app.siege.anims]
    assert accepted > 40
    assert {"move", "reveal"} <= names
    # from the buttons too
    dev.press("encoder")
    dev.press("back", long=True)
    dev.clock.advance(10000)
    dev.tick(2)
    assert dev.app.siege.anims == []
