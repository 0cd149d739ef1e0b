"""The layers import downwards only (host -> firmware -> rules core), and no
module of the rules core imports one that imports it back (issue 10, item 22:
custom.py <-> engine.py).  Within the host package `osada` too (issue 27,
item 5): no import circle, the relative imports (`from .x import y`) and the
imports inside functions (loaded on demand) included, and no module uses
another module's private name (`from osada.cli import _device_cmd`,
`module._name`).

The helpers take a package name (a key of PACKAGES), so each package is
checked by the same code."""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = {"shared_rules": "shared_rules", "osada_fw": "firmware/osada_fw", "osada": "host/osada"}


def modules(package):
    """{dotted module name: (its file, True if it is a package's __init__)} of a project package."""
    base = os.path.join(ROOT, PACKAGES[package])
    out = {}
    for dirpath, _dirs, files in os.walk(base):
        for f in files:
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), base)[:-3].split(os.sep)
            is_pkg = rel[-1] == "__init__"
            name = ".".join([package] + (rel[:-1] if is_pkg else rel))
            out[name] = (os.path.join(dirpath, f), is_pkg)
    return out


def all_modules():
    """Every module of every project package (what an import may name)."""
    out = {}
    for package in PACKAGES:
        out.update(modules(package))
    return out


def _tree(path):
    with open(path, encoding="utf-8") as fh:
        return ast.parse(fh.read(), path)


def _from_base(name, is_pkg, node):
    """The module a `from ... import` names: a relative one (`from . import x`,
    `from ..y import z`) resolved against module `name`."""
    if not node.level:
        return node.module
    parts = name.split(".") if is_pkg else name.split(".")[:-1]
    if node.level > 1:
        parts = parts[:len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _imported(name, is_pkg, node, known):
    """[(module imported, the name taken from it or None)] for one import
    statement of module `name`: `from pkg import mod` is the module pkg.mod,
    `from mod import thing` is mod (and the name `thing`)."""
    if isinstance(node, ast.Import):
        return [(a.name, None) for a in node.names]
    base = _from_base(name, is_pkg, node)
    out = []
    for a in node.names:
        sub = base + "." + a.name
        out.append((sub, None) if sub in known else (base, a.name))
    return out


def imports(package):
    """{module: set of modules of any project package it imports}, names dotted:
    relative imports resolved, and the imports inside functions (lazy ones)
    counted as well as those at the top."""
    known = all_modules()
    graph = {}
    for name, (path, is_pkg) in modules(package).items():
        deps = set()
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps.update(m for m, _ in _imported(name, is_pkg, node, known)
                            if m.split(".")[0] in PACKAGES and m != name)
        graph[name] = deps
    return graph


def cycles(graph):
    """Every import circle of the graph, each as the path that closes it."""
    found = []

    def visit(node, path):
        for dep in sorted(graph.get(node, ())):
            if dep in path:
                found.append(path[path.index(dep):] + [dep])
            elif dep in graph:
                visit(dep, path + [dep])

    for start in sorted(graph):
        visit(start, [start])
    return found


def circles(graph):
    """The modules caught in import circles, one sorted list per circle (the
    strongly connected components of more than one module, or of a module
    importing itself): unlike cycles(), it stays fast on a large graph."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def connect(v):                       # Tarjan's algorithm
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(out)


def _private(attr):
    return attr.startswith("_") and not (attr.startswith("__") and attr.endswith("__"))


def _module_names(name, is_pkg, tree, known):
    """({local name: the project module it stands for}, [private names taken
    with `from mod import _name`]) of one module's imports."""
    aliases, taken_private = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update((a.asname or a.name, a.name) for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            for (mod, taken), a in zip(_imported(name, is_pkg, node, known), node.names):
                if mod.split(".")[0] not in PACKAGES or mod == name:
                    continue
                if taken is None:
                    aliases[a.asname or a.name] = mod
                elif _private(taken):
                    taken_private.append("%s.%s" % (mod, taken))
    return aliases, taken_private


def private_uses(package):
    """[(module, what it uses)] where a module of `package` uses another
    module's private name: `from mod import _name`, or `mod._name` with mod an
    imported project module (`import a.b as m; m._x`, `from a import b; b._x`).
    Dunder names (__doc__, __version__) are public."""
    known = all_modules()
    found = []
    for name, (path, is_pkg) in sorted(modules(package).items()):
        tree = _tree(path)
        aliases, taken = _module_names(name, is_pkg, tree, known)
        found += [(name, t) for t in taken]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                owner = _dotted(node.value)
                mod = aliases.get(owner, owner if owner in known else None) if owner else None
                if mod is not None and mod != name:
                    found.append((name, "%s.%s" % (mod, node.attr)))
    return found


def _dotted(node):
    """'a.b.c' for the expression a.b.c, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id] + parts[::-1])


# ------------------------------------------------------------------ the checks


def test_the_rules_core_has_no_import_cycle():
    graph = imports("shared_rules")
    assert "shared_rules.errors" in graph["shared_rules.siege.custom"]     # the graph is really read
    assert cycles(graph) == []


def test_the_host_has_no_import_circle():
    graph = imports("osada")
    assert "osada.link.device" in graph["osada.cli"]                 # the graph is really read,
    assert "osada.monitor.app" in graph["osada.monitor"]             # relative imports included,
    assert "osada.monitor" in graph["osada.cli"]                     # and the ones inside functions
    assert circles(graph) == []


def test_the_host_uses_no_private_name_of_another_module():
    assert private_uses("osada") == []


def test_the_firmware_has_no_import_circle():
    # issue 27: app, commands, games, ui, ui_menu, marshal_menu, memstat were one circle,
    # flashlog <-> flashscan and tank_mode <-> tank_bench two more (lazy imports count)
    graph = imports("osada_fw")
    assert "osada_fw.gamemenu" in graph["osada_fw.link.commands"]   # the graph is really read, lazy imports too
    assert "osada_fw.store.flashscan" in graph["osada_fw.store.flashlog"]
    assert circles(graph) == []


def test_the_firmware_and_the_rules_use_no_private_name_of_another_module():
    assert private_uses("osada_fw") == []
    assert private_uses("shared_rules") == []


def test_no_module_is_over_500_lines():
    long = []
    for package, base in PACKAGES.items():
        for dirpath, _dirs, files in os.walk(os.path.join(ROOT, base)):
            for f in files:
                if f.endswith(".py"):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        n = sum(1 for _ in fh)
                    if n > 500:
                        long.append((os.path.relpath(os.path.join(dirpath, f), ROOT), n))
    assert long == []


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"], ["b", "a", "b"]]
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}, "d": {"d"}}) == [["a", "b"], ["d"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def _fake_package(tmp_path, monkeypatch, files):
    """A throwaway package `fakepkg` of `files` ({relative path: source}), checked as a project package."""
    for rel, text in files.items():
        path = tmp_path / "fakepkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", str(tmp_path))
    monkeypatch.setitem(PACKAGES, "fakepkg", "fakepkg")


def test_a_circle_through_relative_and_lazy_imports_is_found(tmp_path, monkeypatch):
    _fake_package(tmp_path, monkeypatch, {
        "__init__.py": "",
        "top.py": "from .sub import low\n",
        "sub/__init__.py": "",
        "sub/low.py": "def f():\n    from .. import top\n    return top\n",
        "leaf.py": "from . import top\n",
    })
    graph = imports("fakepkg")
    assert graph["fakepkg.top"] == {"fakepkg.sub.low"}
    assert graph["fakepkg.sub.low"] == {"fakepkg.top"}
    assert circles(graph) == [["fakepkg.sub.low", "fakepkg.top"]]


def test_private_names_of_other_modules_are_found(tmp_path, monkeypatch):
    _fake_package(tmp_path, monkeypatch, {
        "__init__.py": "",
        "cli.py": "def _device_cmd(fn):\n    return fn\n\n_device_cmd(print)\n",
        "watch.py": "from fakepkg.cli import _device_cmd\n",
        "lazy.py": "def f():\n    from fakepkg import cli\n    return cli._device_cmd\n",
        "dotted.py": "import fakepkg.cli\nfakepkg.cli._device_cmd(print)\n",
        "alias.py": "from .cli import _device_cmd as device_cmd\n",
        "fine.py": "from . import __doc__ as D\nfrom .cli import print as _print\n"
                   "class C:\n    def _own(self):\n        return self._own\n",
    })
    assert private_uses("fakepkg") == [
        ("fakepkg.alias", "fakepkg.cli._device_cmd"),
        ("fakepkg.dotted", "fakepkg.cli._device_cmd"),
        ("fakepkg.lazy", "fakepkg.cli._device_cmd"),
        ("fakepkg.watch", "fakepkg.cli._device_cmd"),
    ]


def test_layers_import_downwards_only():
    for module, deps in imports("shared_rules").items():
        assert all(d.startswith("shared_rules") for d in deps), (module, deps)
    for module, deps in imports("osada_fw").items():
        assert not any(d.startswith("osada.") or d == "osada" for d in deps), (module, deps)


GAMES = ("siege", "tank", "warchest", "line", "victory")


def test_the_rules_root_is_what_the_games_share_and_each_game_is_a_package():
    """Issue 39: shared_rules/ holds five game packages and a root of shared modules only.
    A root module imports no game (it is below them all); no game imports another game
    (what two games need lives at the root); and each root module is used by a game."""
    graph = imports("shared_rules")
    root = {m for m, (_f, is_pkg) in modules("shared_rules").items() if m.count(".") == 1 and not is_pkg}
    games = {m.split(".")[1] for m in graph if m.count(".") >= 1 and m.split(".")[1] in GAMES}
    assert games == set(GAMES)
    assert root == {"shared_rules.errors", "shared_rules.rng", "shared_rules.jsonout", "shared_rules.combin",
                    "shared_rules.exact"}, root
    for module in root:
        assert not [d for d in graph[module] if d.split(".")[1:2] and d.split(".")[1] in GAMES], module
    users = {}
    for module, deps in graph.items():
        if module.count(".") >= 2:
            game = module.split(".")[1]
            for d in deps:
                parts = d.split(".")
                if len(parts) > 1 and parts[1] in GAMES:
                    assert parts[1] == game, (module, d)          # a game imports no other game
                if d in root:
                    users.setdefault(d, set()).add(game)
    assert sorted(m for m in root if m not in users) == [], users


def test_no_two_test_files_share_a_name():
    # pytest imports test files by their base name (no __init__.py in tests/):
    # two of one name make the second fail to collect
    seen = {}
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                seen.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    assert {f: p for f, p in seen.items() if len(p) > 1} == {}
