"""Statement coverage of one device module on a runtime with no tracing (the
Pico's MicroPython has no sys.settrace): the module's source is rewritten so
that every statement first sets its own byte in a module-level bytearray,
`_COV`; the rewritten module runs on the device in place of the real one,
and the bytes read back afterwards say which statements ran.

    src, statements = instrument(open("hal/pico.py").read())
    ... run src on the device, read bytes(module._COV) ...
    report = Report(statements, hits)

Setting one byte of a preallocated bytearray allocates nothing, so the
rewritten code also runs inside interrupt handlers."""

import ast

VAR = "_COV"

# statements whose bodies are code blocks that run later or several times
_BLOCK_FIELDS = ("body", "orelse", "finalbody")


class Statement:
    def __init__(self, index, line, func):
        self.index = index          # its byte in _COV
        self.line = line            # its line in the original source
        self.func = func            # "Class.method", "function" or "<module>"


def _is_doc(st):
    return isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str)


def _marker(i):
    return ast.parse("%s[%d] = 1" % (VAR, i)).body[0]


class _Rewriter:
    def __init__(self):
        self.statements = []

    def block(self, body, func):
        out = []
        for st in body:
            i = len(self.statements)
            self.statements.append(Statement(i, st.lineno, func))
            self.inner(st, func)
            if _is_doc(st) and not out:
                out.append(st)                  # a docstring stays first ...
                out.append(_marker(i))          # ... and counts as run when the block starts
                continue
            out.append(_marker(i))
            out.append(st)
        return out

    def inner(self, st, func):
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = st.name if func == "<module>" else func + "." + st.name
            st.body = self.block(st.body, name)
            return
        if isinstance(st, ast.ClassDef):
            # the class body runs at import; its methods are named Class.method
            st.body = self.block(st.body, st.name)
            return
        for field in _BLOCK_FIELDS:
            body = getattr(st, field, None)
            if body:
                setattr(st, field, self.block(body, func))
        for h in getattr(st, "handlers", ()) or ():
            h.body = self.block(h.body, func)


def instrument(source):
    """(rewritten source, [Statement]): the module with a marker before every
    statement, and `_COV = bytearray(n)` as its first statement (after the
    module docstring, if any)."""
    tree = ast.parse(source)
    rw = _Rewriter()
    tree.body = rw.block(tree.body, "<module>")
    n = len(rw.statements)
    first = tree.body[0] if tree.body else None
    at = 1 if _is_doc(first) else 0
    tree.body.insert(at, ast.parse("%s = bytearray(%d)" % (VAR, n)).body[0])
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n", rw.statements


class Report:
    """What ran, from the statements and the bytes read back."""

    def __init__(self, statements, hits):
        if len(hits) != len(statements):
            raise ValueError("%d coverage bytes for %d statements" % (len(hits), len(statements)))
        self.statements = statements
        self.hits = bytes(hits)

    def missed(self):
        return [s for s in self.statements if not self.hits[s.index]]

    def percent(self):
        return 100.0 * sum(1 for b in self.hits if b) / len(self.hits)

    def functions(self):
        """{function: (statements run, statements)}"""
        out = {}
        for s in self.statements:
            ran, total = out.get(s.func, (0, 0))
            out[s.func] = (ran + (1 if self.hits[s.index] else 0), total + 1)
        return out

    def never_entered(self):
        return sorted(f for f, (ran, _t) in self.functions().items() if ran == 0)

    def text(self, name):
        lines = ["%s: %d of %d statements ran (%.1f%%)" % (
            name, sum(1 for b in self.hits if b), len(self.hits), self.percent())]
        for f, (ran, total) in sorted(self.functions().items()):
            lines.append("  %-28s %3d/%-3d%s" % (f, ran, total, "" if ran == total else "  missed lines " + ", ".join(
                str(s.line) for s in self.missed() if s.func == f)))
        return "\n".join(lines)
