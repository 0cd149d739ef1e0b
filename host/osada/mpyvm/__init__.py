"""Run Python code inside real MicroPython (CPython side of the bridge).

The VM is the official MicroPython WebAssembly port from npm
(``@micropython/micropython-webassembly-pyscript``, pinned in the repo's
``package.json`` and installed into ``node_modules/`` by ``make setup``), driven
by ``runner.mjs`` next to this file under Node.js.  Every call starts a fresh
VM in a new ``node`` process (about 0.1 s).

    >>> from osada import mpyvm
    >>> r = mpyvm.run_code("import sys; print(sys.implementation.name)")
    >>> r.returncode, r.stdout
    (0, b'micropython\\n')

Exit codes of a run: 0 normal end; N for ``SystemExit(N)``; 1 uncaught
exception (traceback on stderr); 3 runner error (bad option, missing path, VM
not installed); 4 the VM itself crashed.

Standard library only; Python 3.9+.  See README.md next to this file.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Sequence, Tuple, Union

from osada.files import paths

__all__ = [
    "MicroPythonUnavailable",
    "NPM_PACKAGE",
    "RUNNER",
    "ensure_vm",
    "find_node",
    "node_modules_dir",
    "project_mounts",
    "repo_root",
    "run",
    "run_code",
    "vm_available",
]

NPM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNNER = Path(__file__).resolve().with_name("runner.mjs")

EXIT_RUNNER_ERROR = 3
EXIT_VM_CRASH = 4

PathLike = Union[str, "os.PathLike[str]"]
# A mount/file mapping: (host_path, vm_path) or the string "HOST:VM".
Mapping = Union[Tuple[PathLike, str], str]


class MicroPythonUnavailable(RuntimeError):
    """Node.js or the MicroPython VM package is missing (message says how to fix it)."""


def repo_root() -> Optional[Path]:
    """The repo root (osada.files.paths.REPO) in a checkout; installed, the nearest
    directory above the current one whose package.json declares the VM."""
    if paths.REPO:
        return Path(paths.REPO)
    for start in (Path.cwd().resolve(),):
        for d in (start, *start.parents):
            pkg = d / "package.json"
            try:
                if pkg.is_file() and NPM_PACKAGE in pkg.read_text(encoding="utf-8"):
                    return d
            except OSError:
                pass
    return None


def node_modules_dir() -> Optional[Path]:
    """The repo's node_modules directory (it may not exist yet), or None if the
    repo root cannot be found."""
    root = repo_root()
    return root / "node_modules" if root else None


def find_node() -> Optional[str]:
    """Path of the Node.js binary ($OSADA_NODE, else `node`/`nodejs` on PATH), or None."""
    explicit = os.environ.get("OSADA_NODE")
    if explicit:
        return shutil.which(explicit)
    return shutil.which("node") or shutil.which("nodejs")


def _vm_entry() -> Optional[Path]:
    nm = node_modules_dir()
    if nm is None:
        return None
    entry = nm / NPM_PACKAGE / "micropython.mjs"
    return entry if entry.is_file() else None


def vm_available() -> bool:
    """True if Node.js is found and the MicroPython VM package is installed."""
    return find_node() is not None and _vm_entry() is not None


def ensure_vm() -> str:
    """Return the node binary, or raise MicroPythonUnavailable saying what to do."""
    node = find_node()
    if node is None:
        raise MicroPythonUnavailable(
            "Node.js not found; install Node 18+ (e.g. `apt-get install nodejs npm`) "
            "or set OSADA_NODE to the node binary"
        )
    if _vm_entry() is None:
        nm = node_modules_dir()
        where = f" (expected {nm / NPM_PACKAGE})" if nm else " (no package.json of the repo found)"
        raise MicroPythonUnavailable(f"MicroPython VM not installed: run `make setup`{where}")
    return node


def project_mounts() -> "list[tuple[str, str]]":
    """The standard mounts for this repo: shared_rules/ at /lib/shared_rules
    ('/lib' is on MicroPython's sys.path, so `import shared_rules` works)."""
    root = repo_root()
    if root is None:
        raise MicroPythonUnavailable("cannot find the Osada repo root (its package.json)")
    return [(str(root / "shared_rules"), "/lib/shared_rules")]


def _pair(m: Mapping) -> str:
    if isinstance(m, str):
        return m
    host, vm = m
    return f"{os.fspath(host)}:{vm}"


def run(
    script: PathLike,
    args: Sequence[str] = (),
    *,
    mounts: Iterable[Mapping] = (),
    files: Iterable[Mapping] = (),
    paths: Iterable[str] = (),
    stdin: Union[bytes, str, None] = None,
    heap: Optional[int] = None,
    drive: Optional[str] = None,
    timeout: Optional[float] = 120,
) -> "subprocess.CompletedProcess[bytes]":
    """Run the host file `script` as __main__ in a fresh MicroPython VM.

    drive: the name of a function the script defines; after the script, it is
    called again and again, each call at top level after a full gc.collect(),
    until it returns a false value (this VM only frees memory at top level).

    mounts: (host_dir, vm_dir) pairs; the dir's .py/.mpy/.json/.txt files are
    copied into the VM.  files: (host_file, vm_path) pairs.  paths: VM dirs put
    in front of sys.path.  stdin: data readable in the VM as /stdin and
    sys.stdin (None: empty).  heap: initial GC heap in bytes (default 2 MiB).
    Returns the CompletedProcess with bytes stdout/stderr; raises
    MicroPythonUnavailable if the VM cannot run, subprocess.TimeoutExpired on timeout.
    """
    node = ensure_vm()
    cmd = [node, str(RUNNER)]
    if heap is not None:
        cmd += ["--heap", str(int(heap))]
    for m in mounts:
        cmd += ["--mount", _pair(m)]
    for f in files:
        cmd += ["--file", _pair(f)]
    for p in paths:
        cmd += ["--path", p]
    if drive is not None:
        cmd += ["--drive", drive]
    cmd += ["--", os.fspath(script), *(str(a) for a in args)]

    env = dict(os.environ)
    nm = node_modules_dir()
    if nm is not None:
        env["OSADA_NODE_MODULES"] = str(nm)  # lets a non-editable install find the VM
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    return subprocess.run(
        cmd,
        input=stdin if stdin is not None else b"",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        timeout=timeout,
        check=False,
    )


def run_code(code: str, args: Sequence[str] = (), **kwargs) -> "subprocess.CompletedProcess[bytes]":
    """Like run(), for source text: it is written to a temp file named main.py
    (that path is __file__ and sys.argv[0] in the VM)."""
    with tempfile.TemporaryDirectory(prefix="osada-mpy-") as tmp:
        script = Path(tmp) / "main.py"
        script.write_text(code, encoding="utf-8")
        return run(script, args, **kwargs)


_SCENARIO_MAIN = """from shared_rules.siege.scenario import main_micropython
main_micropython('/scenario.json')
"""


def run_scenario(path: PathLike, timeout: Optional[float] = 120) -> "subprocess.CompletedProcess[bytes]":
    """`osada scenario FILE --runtime micropython`: the rules core's scenario
    runner inside real MicroPython.  Same stdout (state JSON) and exit codes
    as the CPython runtime."""
    return run_code(_SCENARIO_MAIN, mounts=project_mounts(),
                    files=[(os.fspath(path), "/scenario.json")], timeout=timeout)
