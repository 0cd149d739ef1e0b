"""A text file a user names on the command line, read with one sentence for
whatever is wrong with it: the one home of that reading for every command
(a config, a game-state file, a combat file, a bag list, a scenario)."""


class UnreadableFile(ValueError):
    """The file cannot be read as text; str() is the sentence."""


def read_text(path, what=None):
    """The file's text (UTF-8).  UnreadableFile names it as "the <what> <path>"
    (just the path without `what`) and says why: no such file, a directory,
    another OS error, or not UTF-8 text (with the first bad byte)."""
    label = path if what is None else "the %s %s" % (what, path)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise UnreadableFile("cannot read %s: no such file" % label) from None
    except IsADirectoryError:
        raise UnreadableFile("cannot read %s: it is a directory" % label) from None
    except OSError as exc:
        raise UnreadableFile("cannot read %s: %s" % (label, (exc.strerror or str(exc)).lower())) from None
    except UnicodeDecodeError as exc:
        raise UnreadableFile("%s is not UTF-8 text (byte %d)" % (label, exc.start)) from None
