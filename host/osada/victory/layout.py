"""The commands' text within 80 columns: a longer line is wrapped, its
continuation indented two more than the line (osada.words.board_text.wrap)."""

from osada.words.board_text import wrap


def fit(lines):
    """The lines as one text, each within 80 columns, ending in a newline."""
    out = []
    for line in lines:
        lead = line[:len(line) - len(line.lstrip(" "))]
        out += wrap(line, indent=lead + "  ") if len(line) > 80 else [line]
    return "\n".join(out) + "\n"
