"""`osada journal [save FILE | ack | get FILE | put FILE [--replace]] [--port P]`: a board's
damaged save, and its game carried to and from a file (get and put: carry.py).

When the device finds at boot that its saved game cannot be read back in
full (bytes that changed on flash, a file overwritten), it keeps those bytes
and says what was lost (firmware/README.md, the `journal` request; issue
64).  This command shows that sentence, copies the kept bytes off the board
into a file (the journal's own format: `FILE` can be read back by the
firmware's reader, or sent to us with a bug report), and acknowledges it, so
the monitor and the web pages stop showing it.  Kept bytes stay on the
board after an acknowledgement until its log reuses them (the simulator
keeps its copy as a file beside its journal)."""

import os
import sys

from osada.link.client import ProtocolError
from osada.link.device import device_cmd, fail, open_link


def add_parser(sub, port_help):
    """The `journal` command, added to the CLI's subparsers."""
    p = sub.add_parser("journal", help="a board's saved game: its game to a file and back (get, put); a damaged "
                                       "save: what was lost, copy its kept bytes off, acknowledge",
                       description="When a board (or the simulator) could not read its saved game back in full "
                                   "it keeps the bytes and says what was lost. `osada journal` prints that; "
                                   "`osada journal save FILE` copies the kept bytes into FILE; `osada journal "
                                   "ack` acknowledges it, and the monitor and the pages stop showing it. "
                                   "`osada journal get FILE` writes the board's game of Siege to FILE, the "
                                   "journal's own file that Osada in the browser imports and exports; `osada "
                                   "journal put FILE` plays such a file's game onto the board (over a game in "
                                   "progress only with --replace).")
    p.add_argument("what", nargs="?", choices=("show", "save", "ack", "get", "put"), default="show",
                   help="show (default), save FILE, ack, get FILE, or put FILE")
    p.add_argument("file", nargs="?", help="with save: where to write the kept bytes; with get: where to write "
                                           "the board's game; with put: the game to put on the board")
    p.add_argument("--replace", action="store_true", help="with put: replace a game in progress on the board")
    p.add_argument("--port", default="auto", help=port_help)
    p.set_defaults(func=run)
    return p


def _journal(link, **fields):
    reply = link.request("journal", **fields)
    if not reply.get("ok"):
        raise ProtocolError("the device refused: %s" % reply.get("error", "?"))
    return reply


def kept_bytes(link, progress=None):
    """The bytes the device keeps of a damaged save, read in pieces."""
    first = _journal(link)
    size = first.get("bytes", -1)
    if size < 0:
        raise ProtocolError("this board keeps no bytes of a damaged save")
    out = bytearray()
    while len(out) < size:
        piece = bytes.fromhex(_journal(link, read=len(out))["hex"])
        if not piece:
            break
        out += piece
        if progress is not None:
            progress(len(out), size)
    return bytes(out)


def _wrong(args):
    """What is wrong with the command's words, or None (before the device is asked anything)."""
    if args.what == "save" and not args.file:
        return "journal save: say where to write the kept bytes: osada journal save FILE"
    if args.what in ("get", "put") and not args.file:
        return "journal %s: say which file: osada journal %s FILE" % (args.what, args.what)
    if args.what not in ("save", "get", "put") and args.file:
        return "journal %s takes no file" % args.what
    if args.replace and args.what != "put":
        return "--replace goes with put"
    if args.what == "put" and not os.path.isfile(args.file):
        return "journal put: no file %s" % args.file
    return None


@device_cmd
def run(args):
    wrong = _wrong(args)
    if wrong:
        return fail(wrong)
    link = open_link(args)
    try:
        if args.what in ("get", "put"):
            from osada.link import carry
            return carry.run(args, link)
        st = _journal(link)
        if args.what == "show":
            if st.get("damaged"):
                print("damaged: %s" % st["lost"])
            else:
                print("the saved game reads back in full: nothing to acknowledge")
            if st.get("kept"):
                print("kept: %s (%d bytes); osada journal save FILE copies them" % (
                    "on the board's flash" if st["kept"] == "flash" else st["kept"], st.get("bytes", 0)))
            return 0
        if args.what == "ack":
            if not st.get("damaged"):
                print("nothing to acknowledge: the saved game reads back in full")
                return 0
            _journal(link, ack=True)
            print("acknowledged: %s" % st["lost"])
            return 0

        def progress(done, size):
            if sys.stderr.isatty():
                sys.stderr.write("\rreading %d of %d bytes" % (done, size))
        data = kept_bytes(link, progress)
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        try:
            with open(args.file, "wb") as f:
                f.write(data)
        except OSError as exc:
            return fail("journal save: cannot write %s: %s" % (args.file, exc.strerror or exc))
        print("saved %d kept bytes to %s" % (len(data), args.file))
        return 0
    finally:
        link.close()
