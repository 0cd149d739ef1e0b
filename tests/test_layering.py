"""The layers import downwards only (host -> firmware -> rules core), and no
module of the rules core imports one that imports it back (issue 10, item 22:
custom.py <-> engine.py)."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = {"shared_rules": "shared_rules", "osada_fw": "firmware/osada_fw", "osada": "host/osada"}


def imports(package):
    """{module: set of modules of any project package it imports}, names dotted."""
    base = os.path.join(ROOT, PACKAGES[package])
    graph = {}
    for dirpath, _dirs, files in os.walk(base):
        for f in files:
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), base)[:-3].replace(os.sep, ".")
            name = package if rel == "__init__" else package + "." + rel.replace(".__init__", "")
            deps = set()
            with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    top = node.module.split(".")[0]
                    if top in PACKAGES:
                        if node.module in PACKAGES:          # from pkg import module
                            deps.update(node.module + "." + a.name for a in node.names)
                        else:
                            deps.add(node.module)
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names if a.name.split(".")[0] in PACKAGES)
            graph[name] = deps
    return graph


def cycles(graph):
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


def test_the_rules_core_has_no_import_cycle():
    graph = imports("shared_rules")
    assert "shared_rules.errors" in graph["shared_rules.custom"]     # the graph is really read
    assert cycles(graph) == []


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"], ["b", "a", "b"]]


def test_layers_import_downwards_only():
    for module, deps in imports("shared_rules").items():
        assert all(d.startswith("shared_rules") for d in deps), (module, deps)
    for module, deps in imports("osada_fw").items():
        assert not any(d.startswith("osada.") or d == "osada" for d in deps), (module, deps)


def test_no_two_test_files_share_a_name():
    # pytest imports test files by their base name (no __init__.py in tests/):
    # two of one name make the second fail to collect
    seen = {}
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                seen.setdefault(f, []).append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    assert {f: p for f, p in seen.items() if len(p) > 1} == {}
