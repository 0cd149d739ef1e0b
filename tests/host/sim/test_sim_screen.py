"""`osada sim`'s LED window (host/osada/sim/view.py Screen), rendered to text:
sectors and lines labelled, readable on a dark terminal, its header in step
with the device UI (the new-game menu reads as a menu), and fitting an 80x24
terminal (a taller one gets a bigger board; a smaller one is told to grow)."""


import pytest

from osada.sim import view as S
from osada_fw.app import App
from osada_fw.config import led_count, validate
from osada_fw.hal.fake import FakeHardware, ManualClock


def make(tmp_path, layout="spokes", city=False, menu=False):
    cfg = validate({"state_dir": str(tmp_path), "leds": {"layout": layout, "city": city}})
    clock = ManualClock()
    hw = FakeHardware(led_count(cfg), str(tmp_path), clock=clock, seed=3)
    app = App(hw, cfg)
    app.boot()
    if menu:
        return app, hw, clock
    hw.inputs.press("back")                           # BACK cancels the game menu of the boot
    step(app, clock, 1)
    return app, hw, clock


def step(app, clock, n=3):
    for _ in range(n):
        clock.advance(40)
        app.tick()


def plain(line):
    import re
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line)


def board_of(lines, cols=80, rows=24):
    """The board's rows of a rendered window (the margin legend cut off)."""
    lay = S.Layout(cols, rows)
    return [plain(ln)[lay.pad:] for ln in lines[lay.top:lay.top + lay.H]]


@pytest.mark.parametrize("layout,city", [("spokes", False), ("rings", True), ("ring24", False), ("ring24", True)])
@pytest.mark.parametrize("cols,rows", [(80, 24), (80, 27), (80, 28), (80, 32), (120, 50)])
def test_fits_the_terminal_and_is_labelled(tmp_path, layout, city, cols, rows):
    app, hw, clock = make(tmp_path, layout, city)
    screen = S.Screen(app)
    lines = screen.render(cols, rows)
    assert len(lines) <= rows and (len(lines) == 24 or rows > 24)
    assert max(S.visible_len(ln) for ln in lines) <= 80
    assert all(len(plain(ln)) <= 80 for ln in lines)
    assert plain(lines[0]).startswith("Osada simulator · turn 1 · player 1")      # the header
    assert plain(lines[1]).startswith("PLAY · cursor: sector 1, rear")
    board = "\n".join(board_of(lines, cols, rows))
    for s in "123456":
        assert s in board                             # the sectors, around the edge
    for tag in "RAGT" + ("WC" if city else ""):
        assert board.count(tag) >= 1                  # each LED tagged with its line
    # every LED is drawn (lit or not), none hidden by a label
    assert board.count("●") + board.count("○") == app.layout.count
    text = "\n".join(plain(ln) for ln in lines)
    for words in ("R rear", "A air", "G artillery", "T tank", "W wall", "C city", "sectors 1-6"):
        assert words in text                          # the legend: a line, or down the board's margin
    assert "n new game · g game menu · q quit" in text  # the keys
    if rows >= 28:
        assert any(ln.startswith("R rear · A air · G artillery · T tank") for ln in lines)


def test_a_taller_terminal_gets_a_bigger_board(tmp_path):
    app, hw, clock = make(tmp_path)
    screen = S.Screen(app)
    small, tall = screen.render(80, 24), screen.render(80, 40)
    assert len(small) == 24 and 32 <= len(tall) <= 40
    assert S.Layout(80, 24).H == 19 and S.Layout(80, 40).H == S.BOARD_MAX_H
    heights = [S.Layout(80, r).H for r in range(24, 45)]
    assert heights == sorted(heights)                 # never smaller for a taller window
    assert board_of(tall, 80, 40)[0].strip() == "1" and board_of(small)[0].strip() == "1"


@pytest.mark.parametrize("cols,rows", [(79, 24), (80, 23), (40, 10), (20, 3)])
def test_below_80x24_it_says_so(tmp_path, cols, rows):
    app, hw, clock = make(tmp_path)
    lines = [plain(ln) for ln in S.Screen(app).render(cols, rows)]
    assert len(lines) <= rows and all(len(ln) <= cols for ln in lines)
    assert "at least 80×24" in " ".join(lines)
    assert "●" not in "".join(lines) and "○" not in "".join(lines)


def test_lit_leds_are_bright_and_dark_ones_visible():
    assert S.display_rgb(0, 0, 0) is None
    r, g, b = S.display_rgb(0, 0, 12)                 # a dim blue on the wire
    assert (r, g) == (0, 0) and b >= S.MIN_LIT
    r, g, b = S.display_rgb(40, 20, 0)                # hue kept, brought up
    assert r >= S.MIN_LIT and abs(g * 2 - r) <= 2 and b == 0
    assert S.display_rgb(255, 255, 255) == (255, 255, 255)
    assert min(S.OFF_RGB) >= 90


def test_the_rendered_board_uses_the_display_colours(tmp_path):
    app, hw, clock = make(tmp_path)
    step(app, clock)
    out = "\n".join(S.Screen(app).render())
    import re
    lit = [tuple(map(int, m)) for m in re.findall(r"38;2;(\d+);(\d+);(\d+)m●", out)]
    assert lit and all(max(c) >= S.MIN_LIT for c in lit)
    assert "38;2;40;40;40" not in out                  # the old dim grey


def test_header_shows_the_game_menu_of_the_boot(tmp_path):
    app, hw, clock = make(tmp_path, menu=True)
    screen = S.Screen(app)
    assert plain(screen.render()[1]).startswith("GAME: [siege] tank")
    hw.inputs.turn(1)
    step(app, clock)
    assert plain(screen.render()[1]).startswith("GAME: siege [tank]")
    assert "ACTION takes" in plain(screen.render()[2])


def test_header_follows_the_new_game_menu(tmp_path):
    app, hw, clock = make(tmp_path)
    screen = S.Screen(app)
    assert plain(screen.render()[1]).startswith("PLAY · cursor: sector 1, rear")
    hw.inputs.press("encoder", long=True)             # hold ENCODER: new game setup
    step(app, clock)
    head = plain(screen.render()[1])
    assert head.startswith("NEW GAME 1/3 · players: [1] 2 3 4 5 6")
    hw.inputs.turn(1)
    hw.inputs.turn(1)
    step(app, clock)
    assert "1 2 [3] 4" in plain(screen.render()[1])
    hw.inputs.press("action")
    step(app, clock)
    assert plain(screen.render()[1]).startswith("NEW GAME 2/3 · mode: [standard] shoulder solo marshal")
    hw.inputs.press("action")
    step(app, clock)
    hw.inputs.turn(1)
    hw.inputs.press("action")                         # toggle the second variant
    step(app, clock)
    head = plain(screen.render()[1])
    assert head.startswith("NEW GAME 3/3 · variants") and "[+simple_battles]" in head
    assert len(head) <= 80
    assert "BACK starts the game" in plain(screen.render()[2])
    for _ in range(4):
        hw.inputs.turn(1)                             # to the last variant: the list scrolls
    step(app, clock)
    head = plain(screen.render()[1])
    assert "[supplies_low]" in head and head.count("…") >= 1 and len(head) <= 80
    hw.inputs.press("back")                           # start it
    step(app, clock)
    assert plain(screen.render()[1]).startswith("PLAY")
    assert app.siege.game.players == 3 and plain(screen.render()[0]).startswith("Osada simulator · turn 1 · player 1")


def test_draw_redraws_when_only_the_menu_changes(tmp_path, capsys):
    app, hw, clock = make(tmp_path)
    screen = S.Screen(app)
    hw.inputs.press("encoder", long=True)
    step(app, clock)
    screen.draw((80, 24))
    first = capsys.readouterr().out
    assert "NEW GAME 1/3" in first
    screen.draw((80, 24))
    assert capsys.readouterr().out == ""               # nothing changed: nothing written
    app.siege.ui.sel = 4                                      # the UI moved, whatever the LEDs show
    screen.draw((80, 24))
    assert "[5]" in capsys.readouterr().out
    screen.draw((100, 40))                              # the terminal grew: drawn again, bigger
    out = capsys.readouterr().out
    assert out.count("\n") == len(screen.render(100, 40)) - 1 > 24


def test_help_names_the_game_menu_key(tmp_path):
    """Issue 26 item 4: `g` (the game menu) is in the window's key help."""
    app, hw, clock = make(tmp_path)
    keys = "\n".join(plain(ln) for ln in S.Screen(app).render()[-2:])
    assert "g game menu" in keys and "n new game" in keys


def test_tank_battle_shows_its_own_header_numbers_and_keys(tmp_path):
    """Issue 26 item 4: after the game menu -> Tank battle, no Siege text is
    left: the header says Tank battle (Siege's game kept), the UI line shows
    the test and its numbers with what the encoder turns in [brackets], each
    turn of the encoder shows its change, a roll shows in words, and the key
    help is Tank battle's."""
    app, hw, clock = make(tmp_path)
    hw.inputs.press_with("action", "back")            # g: the game menu
    step(app, clock)
    screen = S.Screen(app)
    lines = [plain(ln) for ln in screen.render()]
    assert lines[1].startswith("GAME: [siege] tank victory warchest · now: Siege") and "BACK closes" in lines[2]
    hw.inputs.turn(1)
    hw.inputs.press("action")
    step(app, clock)
    assert app.mode.id == "tank"
    lines = [plain(ln) for ln in screen.render()]
    text = "\n".join(lines)
    assert lines[0].startswith("Osada simulator · Tank battle («Танковый бой») · Siege's game kept (turn 1")
    assert lines[1] == "TANK · [fire] · dice 6 · hit 3 · ambush no · protection 0"
    assert "PLAY" not in text and "undo" not in text and "phase" not in text   # nothing of Siege's
    keys = " ".join(lines[-2:])                        # the monitor's keys (gamekeys.py): one key map per game
    assert "o Enter roll" in keys and "t new turn" in keys and "g game menu" in keys
    hw.inputs.turn(1)                                 # the test: suppression fire
    step(app, clock)
    assert plain(screen.render()[1]) == "TANK · [suppress] · intensity 6 · hit 3 · ambush no · protection 0"
    hw.inputs.press("encoder")                        # r: the next number
    hw.inputs.turn(1)
    hw.inputs.turn(1)
    step(app, clock)
    assert plain(screen.render()[1]) == "TANK · suppress · [intensity 8] · hit 3 · ambush no · protection 0"
    hw.inputs.press("action")                         # Enter: roll
    step(app, clock)
    lines = [plain(ln) for ln in screen.render()]
    assert lines[1].startswith("ROLLED · suppression fire 8 -> 12 dice, hit on <= 3") and "Enter again" in lines[2]
    hw.inputs.press("back")
    step(app, clock)
    assert plain(screen.render()[1]).startswith("TANK · suppress · [intensity 8]")
