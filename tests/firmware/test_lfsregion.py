"""osada_fw/store/lfsregion.py: the journal's raw-flash log inside a littlefs file,
checked against real littlefs (littlefs-python, the C library) sharing the
same bytes: littlefs keeps working around the log's erases and programs and
never hands the log's blocks to another file; a power cut between an erase
and the page that gives littlefs its pointers back is repaired at the next
open; a missing map or a full filesystem are handled."""


import pytest

from osada.flash import fsimage
from osada_fw.hal.fake import FakeNorFlash, PowerCut
from osada_fw.store import flashlog
from osada_fw.store import lfsregion as lr
from shared_rules.siege.actions import parse
from shared_rules.siege.autoplay import play
from shared_rules.siege.engine import Game

D = fsimage.STATE_DIR


def actions(n=None, seed=1):
    acts = []
    play({"players": 2, "seed": 1}, seed, keep=lambda g, a, e: acts.append(parse(a)), skill=2)
    return acts[:n] if n else acts


def board(files=None):
    """(region bytes, littlefs on them, the os shim, the flash) as `make uf2` builds them."""
    buf = bytearray(fsimage.image(files or {"/main.py": b"print(1)\n"}))
    fs = fsimage.mount(buf)
    return buf, fs, fsimage.LfsOs(fs), fsimage.flash_on(buf)


def reopen(buf):
    fs = fsimage.mount(buf)
    shim = fsimage.LfsOs(fs)
    return fs, shim, lr.open_region(fsimage.flash_on(buf), D, shim, fs.open)


def mapped_blocks(fs):
    with fs.open(D + "/" + lr.MAP, "rb") as f:
        m = f.read()
    return [m[10 + 2 * i] | m[11 + 2 * i] << 8 for i in range(lr.BLOCKS)]


def test_the_file_takes_exactly_its_blocks_and_the_map_names_them():
    buf, fs, shim, flash = board()
    size = 17 * 4096 - 4 * sum(flashlog.pointers(i) for i in range(17))
    assert fs.stat(D + "/" + lr.RAW).size == lr.file_size() == size
    blocks = mapped_blocks(fs)
    assert len(set(blocks)) == lr.BLOCKS
    page = bytearray(256)
    want = bytearray(256)
    with fs.open(D + "/" + lr.MAP, "rb") as f:
        fid = f.read()[4:8]
    for i, b in enumerate(blocks):
        flash.readblocks(b, page, 0)
        flashlog.head(blocks, fid, i, want)
        assert page == want, "block %d's first page is not what littlefs wrote" % i
    # littlefs's own skip-list: block 8 points at 7, 6, 4 and 0
    assert [flashlog.pointers(i) for i in (8, 12, 7, 0)] == [4, 3, 1, 0]


def test_a_game_through_the_region_leaves_littlefs_whole_and_never_shares_a_block():
    buf, fs, shim, flash = board()
    j = lr.open_region(flash, D, shim, fs.open)
    assert j is not None
    blocks = mapped_blocks(fs)
    setup = Game.from_setup({"players": 2, "seed": 1}).setup_dict()
    j.start(setup)
    acts = actions()
    for _ in range(12):                     # played and taken back: the 16-sector ring wraps (compactions)
        for t in acts:
            j.append(t)
            while j.idle():
                pass
        for _t in acts:
            j.undo()
    for t in acts:
        j.append(t)
    assert j._gen >= flashlog.LOG_BLOCKS, "the ring did not wrap"
    ours = {b: bytes(buf[b * 4096:(b + 1) * 4096]) for b in blocks}
    # littlefs, remounted, fills the rest of the flash with files and removes some
    fs, shim, _ = reopen(buf)
    k = 0
    while fs.block_count - fs.used_block_count > 4:
        with fs.open("/f%d.bin" % k, "wb") as f:
            f.write(bytes([k & 255]) * 9000)
        if k % 3 == 0 and k:
            fs.remove("/f%d.bin" % (k - 1))
        k += 1
    for b in blocks:
        assert bytes(buf[b * 4096:(b + 1) * 4096]) == ours[b], "littlefs wrote into the journal's block %d" % b
    for name in fs.listdir("/"):
        if name.startswith("f"):
            n = int(name[1:-4])
            with fs.open("/" + name, "rb") as f:
                assert f.read() == bytes([n & 255]) * 9000
    # and the game comes back from the region as it was
    fs, shim, j2 = reopen(buf)
    game = j2.restore()
    want = Game.from_setup(setup)
    for t in acts:
        want.apply_tuple(t)
    assert game.state_json(events=[]) == want.state_json(events=[])


def test_a_cut_between_an_erase_and_its_first_page_is_repaired_at_the_next_open():
    buf, fs, shim, flash = board()
    blocks = mapped_blocks(fs)
    j = lr.open_region(flash, D, shim, fs.open)
    j.start(Game.from_setup({"players": 2, "seed": 1}).setup_dict())
    acts = actions(40)
    for t in acts:
        j.append(t)
    # the power goes after the idle erase of sector 6, before its first page is back
    # (littlefs walks a file's list through the pointers of its even blocks)
    victim = blocks[6]
    flash.ioctl(6, victim)
    assert bytes(buf[victim * 4096:victim * 4096 + 256]) == b"\xff" * 256
    with pytest.raises(Exception):          # littlefs cannot walk journal.raw's list now (to allocate)
        fsimage.mount(bytearray(buf)).used_block_count
    fs, shim, j2 = reopen(buf)              # the app's boot: the page is put back first
    assert j2 is not None
    with fs.open(D + "/" + lr.RAW, "rb") as f:
        assert f.read(4) == flashlog.MARK         # littlefs reads its file again
    assert fs.used_block_count > lr.BLOCKS  # and can walk every file to allocate
    assert j2.restore() is not None and j2.count == len(acts)


def test_a_power_cut_inside_the_regions_erase_at_every_point_keeps_the_game():
    """FakeNorFlash cuts the erase (or the program of the first page after
    it) part way: the next open repairs or keeps the block, the game stands."""
    base, fs, shim, _ = board()
    setup = Game.from_setup({"players": 2, "seed": 1}).setup_dict()
    acts = actions(60)
    for budget in (0, 1, 2048, 4095, 4096, 4096 + 100, 4096 + 255):
        flash = FakeNorFlash(fsimage.FS_BLOCKS)
        flash.data[:] = base
        fs = fsimage.mount(flash.data)
        j = lr.open_region(flash, D, fsimage.LfsOs(fs), fs.open)
        j.start(setup)
        for t in acts:
            j.append(t)
        g = j._gen + 1
        flash.cut_after(budget)
        with pytest.raises(PowerCut):
            j.dev.ioctl(6, g)
            raise PowerCut("the whole erase and page went through")
        flash.power_on()
        fs = fsimage.mount(flash.data)
        j2 = lr.open_region(flash, D, fsimage.LfsOs(fs), fs.open)
        assert j2 is not None, "budget %d: the region was given up" % budget
        assert j2.restore() is not None and j2.count == len(acts), budget


def test_no_map_means_a_new_region_and_a_full_filesystem_means_none():
    buf, fs, shim, flash = board()
    fs.remove(D + "/" + lr.MAP)
    j = lr.open_region(flash, D, shim, fs.open)
    assert j is not None and j.restore() is None             # a new, empty journal
    assert len(set(mapped_blocks(fs))) == lr.BLOCKS
    full = bytearray(fsimage.image({"/main.py": b""}, journal=False, free_blocks=10))
    fs = fsimage.mount(full)
    fs.mkdir(D)
    assert lr.open_region(fsimage.flash_on(full), D, fsimage.LfsOs(fs), fs.open) is None
    assert D[1:] in fs.listdir("/") and lr.RAW not in fs.listdir(D)


def test_a_map_that_names_blocks_that_are_not_ours_is_not_trusted():
    buf, fs, shim, flash = board()
    blocks = mapped_blocks(fs)
    with fs.open(D + "/" + lr.MAP, "rb") as f:
        m = bytearray(f.read())
    m[10] ^= 1                                  # block 0 of the file: another block
    with fs.open(D + "/" + lr.MAP, "wb") as f:
        f.write(m)
    other = blocks[0] ^ 1
    before = bytes(buf[other * 4096:(other + 1) * 4096])
    j = lr.open_region(flash, D, shim, fs.open)
    assert j is not None and j.restore() is None     # a new region, not the stranger's block
    assert other not in mapped_blocks(fs) or bytes(buf[other * 4096:(other + 1) * 4096]) != before


def test_the_uf2_image_and_the_board_make_the_same_kind_of_file():
    """The board makes the file itself when the app came over serial: the
    same code on another filesystem gives a file of the same size and layout."""
    fs = fsimage.fresh()
    fs.mkdir(D)
    j = lr.open_region(fsimage.flash_on(fs.context.buffer), D, fsimage.LfsOs(fs),
                       fs.open)
    assert j is not None
    assert fs.stat(D + "/" + lr.RAW).size == lr.file_size()
