"""The monitor at the sizes terminals open at (issue #17): no board row
wider than the board at any width, the layout's folds at each breakpoint
(below 120 columns the keys fold into the footer and the game panel goes
under the board; below 30 rows the board is compact; below 80×24 a note
instead of the board), the event log's last lines always on screen.  Driven
through textual's pilot against a fake session over a seeded mid-game
(tests/support/monitor_fakes.py)."""

import asyncio
import re

import pytest
from rich.console import Console

pytest.importorskip("textual")

from osada.siege import board as siege_board  # noqa: E402
from shared_rules.siege.engine import Game  # noqa: E402
from tests.support.monitor_fakes import TANK_ROLLS, fake_app, mid_game  # noqa: E402

SIZES = [(80, 24), (86, 25), (99, 29), (100, 30), (110, 33), (119, 39), (120, 40), (133, 44), (160, 50),
         (200, 60), (120, 24), (80, 50)]


def lines_of(text):
    return text.plain.split("\n")


def some_states():
    """The mid-game, stale; a pending damage choice (numbered tags); a lost game."""
    g, _h = mid_game()
    yield g.state(), True
    d = Game.from_setup({
        "board": {"walls": [1, 2, 3, 4, 5, 6], "dots": [3], "buildings": [1, 2, 3, 4, 5, 6],
                  "enemies": [{"kind": "tiger", "sector": 3, "line": "tank"},
                              {"kind": "pz3", "sector": 3, "line": "tank", "armor": 1},
                              {"kind": "maus", "sector": 3, "line": "tank"},
                              {"kind": "pz3", "sector": 5, "line": "air"}]},
        "pool": ["pz3", "pz3"], "rolls": [1, 1], "seed": 1})
    d.apply({"do": "move"})
    yield d.state(), False
    lost = Game.from_setup({"board": {"walls": [], "buildings": [],
                                      "enemies": [{"kind": "maus", "sector": 1, "line": "city"}]},
                            "seed": 1}).state()
    lost["outcome"] = "lost"
    yield lost, False


def test_no_board_row_is_wider_than_the_board_at_any_width():
    for st, stale in some_states():
        for width in range(0, 241):
            for compact in (False, True):
                for cursor in ((1, 0), (3, 3), (6, 4)):
                    rows = lines_of(siege_board.render_board(st, width, cursor, None, stale, compact))
                    assert max(len(r) for r in rows) <= width, (width, compact, rows)
        wide = "\n".join(lines_of(siege_board.render_board(st, 139, (3, 3))))
        assert "[building]" in wide or "ruins" in wide
    g, _h = mid_game()
    for width in range(66, 77):                     # narrow: short labels and tags, nothing cut
        text = siege_board.render_board(g.state(), width, (3, 3)).plain
        assert ("[bldg]" if width < 72 else "[building]") in text and "sect." in text
        assert text.count("[buildin") == text.count("[building]")
        assert "Maus*3#" in text


def run_sizes(body, sizes=SIZES):
    g, history = mid_game()
    app = fake_app(g, history=history)

    async def go():
        async with app.run_test(size=sizes[0]) as pilot:
            await pilot.pause(0.1)
            for w, h in sizes:
                await pilot.resize_terminal(w, h)
                await pilot.pause(0.05)
                body(app, w, h)

    try:
        asyncio.run(go())
    finally:
        app.shutdown()


def test_each_size_reads():
    """At every size from 80×24 up: the whole board on screen and no row of it
    wrapped, the event log's last 3 lines visible, the keys panel only from
    120 columns, the game panel beside the board from 120 and under it below."""

    def check(app, w, h):
        scr = app.main
        board = scr.query_one("#board")
        width = board.content_size.width
        rows = lines_of(board.content)
        assert max(len(r) for r in rows) <= width, (w, h)
        assert board.content_size.height == len(rows), (w, h)           # no row wrapped onto two
        assert board.region.bottom <= scr.query_one("#main").region.bottom, (w, h)   # nothing cut off
        assert ("[building]" in board.content.plain) == (width >= 72), (w, h)     # else [bldg]
        log = scr.query_one("#log")
        assert log.scrollable_content_region.height >= 3, (w, h)
        assert log.max_scroll_y == 0 or log.scroll_y == log.max_scroll_y, (w, h)   # the newest lines shown
        assert scr.query_one("#keys").display == (w >= 120), (w, h)
        info = scr.query_one("#info").region
        if w >= 120:
            assert info.x >= board.region.right and info.y == board.region.y, (w, h)
        else:
            assert info.y >= board.region.bottom and board.region.width >= w - 1, (w, h)
        assert scr.query_one("Footer").compact == (w < 120)
        compact = h < 30
        assert ("\narmy " in board.content.plain) != compact, (w, h)     # the armies' row: not when compact
        assert ("red Soviet" in board.content.plain) != compact, (w, h)  # nor the colours' legend
        assert not scr.query_one("#toosmall").display

    run_sizes(check)


def test_below_80x24_it_says_so():
    def check(app, w, h):
        scr = app.main
        small = w < 80 or h < 24
        assert scr.query_one("#toosmall").display == small, (w, h)
        assert scr.query_one("#main").display != small, (w, h)
        if small:
            assert "at least 80×24" in str(scr.query_one("#toosmall").content)

    run_sizes(check, [(79, 24), (80, 23), (60, 15), (80, 24), (40, 40), (120, 40)])


def _panel_fits(app, w, h):
    """The game panel's text, wrapped at its width, within its height."""
    info = app.main.query_one("#info")
    text = info.content.copy()
    text.rstrip()
    rows = text.wrap(Console(width=200), info.content_size.width)
    assert len(rows) <= info.content_size.height, (w, h, [r.plain for r in rows])
    return text.plain


def test_the_game_panel_is_whole_at_every_size():
    """Issue #17: at 80×24 the panel used to lose its last lines (the trophies).
    Below 30 rows, or where the full panel would be cut, it closes up: no blank
    lines, no mode line, the trophies as one line of points."""

    def check(app, w, h):
        text = _panel_fits(app, w, h)
        assert "Trophies" in text and "Turn" in text, (w, h)
        for p in ("P1", "P2", "P3"):
            assert p in text, (w, h, p)
        if h < 30:
            assert "Mode" not in text, (w, h)     # closed up in a short window
        if w >= 120 and h >= 40:
            assert "Mode" in text, (w, h)         # room for the whole panel

    run_sizes(check)


def test_a_pending_choice_fits_a_short_window():
    d = next(s for s, _ in list(some_states())[1:2])
    assert d.get("pending"), "the state should wait for a damage choice"
    g, history = mid_game()
    app = fake_app(g, history=history)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            app.state = d
            await pilot.pause(0.1)
            text = _panel_fits(app, 80, 24)
            assert "Which enemy takes 1 damage?" in text and "1)" in text and "3)" in text

    try:
        asyncio.run(go())
    finally:
        app.shutdown()


def test_tank_battles_board_fits_every_size():
    """Issue 13: while the device runs Tank battle (G switches it) the board
    area is the ring of the last roll: before one, a dark ring and "no roll
    yet"; then each roll (fire with its faces row, three units a side in a
    collision, a counter-attack's ties, 18 dice of suppression fire) with its
    words and odds.  At every size: no row wider than the board nor wrapped,
    nothing cut off, the event log's last lines and the game panel whole."""
    g, history = mid_game()
    app = fake_app(g, history=history, rolls=TANK_ROLLS)
    seen = []

    def check(w, h, want):
        scr = app.main
        board = scr.query_one("#board")
        text = board.content.plain
        rows = text.split("\n")
        width = board.content_size.width
        assert max(len(r) for r in rows) <= width, (w, h, rows)
        assert board.content_size.height == len(rows), (w, h)
        assert board.region.bottom <= scr.query_one("#main").region.bottom, (w, h)
        assert scr.query_one("#log").scrollable_content_region.height >= 3, (w, h)
        for words in want:
            assert words in text, (w, h, words, text)
        assert "Tank battle («Кубики») on the device" in _panel_fits(app, w, h)
        seen.append(len(rows))

    async def go():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.1)
            await pilot.press("G")
            await pilot.pause(0.1)
            for w, h in SIZES:
                await pilot.resize_terminal(w, h)
                await pilot.pause(0.05)
                check(w, h, ["no roll yet", "1", "6"])
            for ev in TANK_ROLLS:
                await pilot.press("o")
                await pilot.pause(0.1)
                assert app.view_for('tank').roll["test"] == ev["test"]
                for w, h in SIZES:
                    await pilot.resize_terminal(w, h)
                    await pilot.pause(0.05)
                    check(w, h, ["chance" if ev["test"] != "collision" else "nobody"])

    try:
        asyncio.run(go())
    finally:
        app.shutdown()
    assert len(seen) == len(SIZES) * (1 + len(TANK_ROLLS))


def test_tank_board_never_breaks_on_a_roll_it_cannot_read():
    """A roll event the device should never send (wrong counts, missing or
    mistyped fields) says so on the board, within the width, and raises nothing."""
    import random

    from osada.tank.board import render_tank
    rng = random.Random(13)
    junk = [None, -1, 0, 7, 300, "x", [], [1, 2], [0], {"a": 1}, True, 2.5]
    said = 0
    for k in range(600):
        ev = dict(rng.choice(TANK_ROLLS))
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(sorted(ev) + ["test", "a", "totals"])
            if rng.random() < 0.2:
                ev.pop(key, None)
            else:
                ev[key] = rng.choice(junk)
        width = rng.choice([30, 57, 80, 120])
        rows = render_tank(ev, width, compact=k % 2 == 0).plain.split("\n")
        assert max(len(r) for r in rows) <= width
        said += any("does not add up" in r or "cannot be read" in r for r in rows)
    assert said > 300


# ------------------------------------------------- the board's row labels (issue 26 item 7)

LINE_NAMES = {"rear": ("rear", "тыл"), "air": ("air", "авиация"), "artillery": ("artillery", "артиллерия", "art."),
              "tank": ("tank", "танки"), "wall": ("wall", "укрепление"), "city": ("city", "город")}
CYRILLIC_WORD = re.compile(r"[А-Яа-яЁё]")


def crowded():
    """A board with a cell of every line over-full at every width (7 enemies in sector 2)."""
    enemies = [{"kind": k, "sector": 2, "line": line} for line in ("rear", "air", "artillery", "tank")
               for k in ("pz3", "tiger", "sdkfz", "pz3", "tiger", "sdkfz", "pz3")]
    enemies += [{"kind": "maus", "sector": 5, "line": "city"}, {"kind": "pz3", "sector": 5, "line": "city"}]
    return Game.from_setup({"board": {"walls": [1, 3, 4, 6], "dots": [3], "buildings": [1, 2, 3, 4, 6],
                                      "enemies": enemies}, "seed": 1}).state()


def check_legend(legend, width):
    """The line under the board: the armies by colour, and what a colour means."""
    assert ("red Soviet" in legend and "green US" in legend and "blue British" in legend
            and ("only its colour" in legend or "only their colour" in legend
                 or "only in the sectors of its colour" in legend or "only in sectors of its colour" in legend)
            ) or (width < 70 and legend == "Colours: a strike card hits only in sectors of its colour"), legend


def check_row_labels(plain, width, compact):
    """Each line's name labels exactly one row (in English; the Russian beside
    it, never alone); the rows after it are marked ↳ and hold an enemy (no
    empty twin row); the colours and the armies are explained (not in a
    compact board: no army row, no legend)."""
    fitting = siege_board.Fit(width, compact)
    rows = plain.split("\n")
    where = [k for k, r in enumerate(rows) if r.startswith(("sector", "sect."))]
    assert where, rows
    body = rows[where[0] + 1:]
    if compact:
        assert "Soviet" not in plain, rows
    else:
        armies = [c.strip() for c in body[0][fitting.label_w:].split("│")[:6]]
        assert body[0].startswith("army ") and armies == ["Soviet", "Soviet", "US", "US", "British", "British"], rows
        body = body[1:]
        check_legend(body.pop(), width)
    current = None
    seen = []
    for r in body:
        label = r[:fitting.label_w].strip()
        cells = [c.strip() for c in r[fitting.label_w:].split("│")[:6]]
        assert len(cells) == 6, r
        if label == "↳":
            assert current is not None and current != "wall", r
            assert any(cells), ("an empty continuation row", r)
            continue
        assert label, ("a row without a label", r)
        names = label.split(" · ")
        line = next((ln for ln, ns in LINE_NAMES.items() if names[0] in ns and not CYRILLIC_WORD.search(names[0])),
                    None)
        assert line is not None, ("a row label that is not a line's English name", r)
        if len(names) > 1:
            assert names[1] == LINE_NAMES[line][1], r
        assert line not in seen, ("a second row named %s" % line, r)
        seen.append(line)
        current = line
    assert seen == ["rear", "air", "artillery", "tank", "wall", "city"], (seen, rows)
    return seen


@pytest.mark.parametrize("width", [66, 73, 79, 99, 113, 137, 138, 153, 200])
def test_board_rows_are_labelled_once_and_never_empty_twins(width):
    g, _h = mid_game()
    for st in (g.state(), crowded()):
        for compact in (False, True):
            plain = siege_board.render_board(st, width, (3, 3), None, False, compact).plain
            check_row_labels(plain, width, compact)
            if st["enemies"][0]["sector"] == 2:                  # the crowded one: ↳ rows at every width
                assert "\n  ↳" in plain, (width, plain)
    wide = siege_board.render_board(crowded(), width).plain
    assert ("rear · тыл" in wide) == (width >= 138), width        # the Russian names beside, where they fit
    assert ("тыл" in wide) == (width >= 138), width                 # and nowhere else


def test_board_labels_read_at_80_120_200_columns():
    """Through the app, at the widths a newcomer tried: the same checks on the
    widget's own text, and on a crowded board (↳ rows)."""
    seen = []

    def check(app, w, h):
        board = app.main.query_one("#board")
        check_row_labels(board.content.plain, board.content_size.width, h < 30)
        seen.append((w, h))

    run_sizes(check, [(80, 24), (80, 30), (120, 40), (200, 50)])
    assert len(seen) == 4
    g, history = mid_game()
    app = fake_app(g, history=history)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            app.state = crowded()
            for w, h in [(80, 24), (120, 40), (200, 50)]:
                await pilot.resize_terminal(w, h)
                await pilot.pause(0.1)
                board = app.main.query_one("#board")
                text = board.content.plain
                check_row_labels(text, board.content_size.width, h < 30)
                assert "↳" in text

    try:
        asyncio.run(go())
    finally:
        app.shutdown()
