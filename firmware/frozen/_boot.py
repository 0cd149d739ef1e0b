# Osada's _boot.py: frozen into Osada's own MicroPython image
# (firmware/micropython/README.md) in place of the rp2 port's, which it
# follows: mount the littlefs filesystem at "/", and format it when it cannot
# be mounted.  The difference: a format leaves a mark in the globals that
# main.py then runs in, so the game can say what happened:
#   osada_fs_new   True: the flash was blank (a new board), nothing was lost
#   osada_fs_lost  why the filesystem was lost (config.json and anything
#                  saved there): it could not be read, and was formatted
# Without a working flash the board goes on with no filesystem: the game
# plays unsaved.
import machine  # noqa: F401  (the port's _boot.py leaves machine and rp2 at the REPL)
import rp2
import vfs

bdev = rp2.Flash()
try:
    fs = vfs.VfsLfs2(bdev, progsize=256)
except Exception:
    # littlefs keeps its superblock at the start of block 0 and of block 1:
    # both erased (0xff) is a blank flash, anything else a filesystem lost
    head = bytearray(64)
    bdev.readblocks(0, head)
    osada_fs_new = head == b"\xff" * 64
    bdev.readblocks(1, head)
    osada_fs_new = osada_fs_new and head == b"\xff" * 64
    if not osada_fs_new:
        osada_fs_lost = "the filesystem could not be read and was formatted"
    try:
        vfs.VfsLfs2.mkfs(bdev, progsize=256)
        fs = vfs.VfsLfs2(bdev, progsize=256)
    except Exception as exc:
        fs = None
        osada_fs_new = False
        osada_fs_lost = "the filesystem could not be read nor formatted (%r): no filesystem" % (exc,)
        print("osada:", osada_fs_lost)
    del head
if fs is not None:
    vfs.mount(fs, "/")

del vfs, bdev, fs
