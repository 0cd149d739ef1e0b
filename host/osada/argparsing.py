"""The argument parser of every `osada` command: a mistake is one line on
stderr, `osada: COMMAND SUB: what is wrong (see osada COMMAND SUB --help)`,
exit status 2 -- the same shape as every refusal (`osada: …`), no usage
block; an option or argument the command does not take is named by the
command it was given to."""

import argparse
import re


class OneLineParser(argparse.ArgumentParser):
    """argparse.ArgumentParser with one-line errors; its subparsers are of this class too."""

    def error(self, message):
        where = self.prog.split(" ", 1)[1] + ": " if " " in self.prog else ""
        message = re.sub(r"^argument (\S+): (?=\1\b)", "", message)    # "argument --have: --have is …"
        self.exit(2, "osada: %s%s (see %s --help)\n" % (where, message, self.prog))

    def parse_known_args(self, args=None, namespace=None):
        ns, extra = super().parse_known_args(args, namespace)
        if extra:
            options = [a for a in extra if a.startswith("-")]
            what = "unknown option" if options else "unexpected argument"
            shown = options or extra
            self.error("%s%s: %s" % (what, "" if len(shown) == 1 else "s", " ".join(shown)))
        return ns, []
