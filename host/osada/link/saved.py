"""`osada journal [save FILE | ack] [--port P]`: a board's damaged save.

When the device finds at boot that its saved game cannot be read back in
full (bytes that changed on flash, a file overwritten), it keeps those bytes
and says what was lost (firmware/README.md, the `journal` request; issue
64).  This command shows that sentence, copies the kept bytes off the board
into a file (the journal's own format: `FILE` can be read back by the
firmware's reader, or sent to us with a bug report), and acknowledges it, so
the monitor and the web pages stop showing it.  Kept bytes stay on the
board after an acknowledgement until its log reuses them (the simulator
keeps its copy as a file beside its journal)."""

import sys

from osada.link.client import ProtocolError
from osada.link.device import device_cmd, fail, open_link


def add_parser(sub, port_help):
    """The `journal` command, added to the CLI's subparsers."""
    p = sub.add_parser("journal", help="a board's damaged save: what was lost, copy its kept bytes off, acknowledge",
                       description="When a board (or the simulator) could not read its saved game back in full "
                                   "it keeps the bytes and says what was lost. `osada journal` prints that; "
                                   "`osada journal save FILE` copies the kept bytes into FILE; `osada journal "
                                   "ack` acknowledges it, and the monitor and the pages stop showing it.")
    p.add_argument("what", nargs="?", choices=("show", "save", "ack"), default="show",
                   help="show (default), save FILE, or ack")
    p.add_argument("file", nargs="?", help="with save: where to write the kept bytes")
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


@device_cmd
def run(args):
    if args.what == "save" and not args.file:
        return fail("journal save: say where to write the kept bytes: osada journal save FILE")
    if args.what != "save" and args.file:
        return fail("journal %s takes no file" % args.what)
    link = open_link(args)
    try:
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
