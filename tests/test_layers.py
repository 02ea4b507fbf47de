"""The layers of docs/ARCHITECTURE.md, kept: every import in src/ (lazy ones and those for type
checking included) goes down the list below or stays in its own layer, and no import circle; at
most a dozen modules at the top of the package, none over 400 lines, each named in the map."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sudokucp"
ARCHITECTURE = PACKAGE.parents[1] / "docs" / "ARCHITECTURE.md"
TOP_MODULES = 12  # at most, at the top of sudokucp/ (the core, __init__ and __main__ included)
LONGEST = 400  # lines, at most, of any module

# Lowest first. A module may import its own layer and the layers below it, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("", "errors", "clock", "puzzle", "rules", "layout", "check", "result", "io",
              "isomorph", "i18n", "display", "encodings")),
    ("measures", ("stats", "machine")),
    ("engine", ("engine",)),
    ("backends", ("backends",)),
    ("executors", ("executors",)),
    ("harness", ("runlog", "runplan", "runcheck", "measurement", "harness")),
    ("tools", ("reporting", "teaching", "datasets", "generators", "api")),
    ("cli", ("cli", "__main__")),
)
SHARED_BY_BACKENDS = ("backends", "backends.base", "backends.names")  # registry, contract, names
PRIVATE = ("executors.dask_cluster", "executors.worker")  # reached through executors/__init__


def module_name(path: Path) -> str:
    """'engine.techniques' for src/sudokucp/engine/techniques.py, '' for the package itself."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, module below sudokucp) of every project import in a file, relative ones resolved."""
    name, found = module_name(path), []
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, [p for p in package if p])
            targets = [base] + [f"{base}.{a.name}".strip(".") for a in node.names]
            found += [(node.lineno, t) for t in targets if _is_module(t)]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.removeprefix("sudokucp").strip("."))
                      for a in node.names if a.name.split(".")[0] == "sudokucp"]
    return found


def _absolute(node: ast.ImportFrom, package: list[str]) -> str | None:
    if node.level:
        up = package[:len(package) - (node.level - 1)]
        return ".".join(up + ([node.module] if node.module else []))
    if node.module and node.module.split(".")[0] == "sudokucp":
        return node.module.removeprefix("sudokucp").strip(".")
    return None


def _is_module(name: str | None) -> bool:
    if name is None:
        return False
    path = PACKAGE.joinpath(*name.split(".")) if name else PACKAGE
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def layer(module: str) -> int:
    """Index in LAYERS of the layer holding `module`."""
    best, at = -1, 0
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".") or prefix == "") and \
                    len(prefix) >= best:
                best, at = len(prefix), index
    return at


def family(module: str) -> str | None:
    """The backend a module of backends/ belongs to: its module or package name."""
    parts = module.split(".")
    return parts[1] if parts[0] == "backends" and len(parts) > 1 and parts[1] != "base" else None


def breaches(path: Path) -> list[str]:
    """Every import of one file that breaks a rule, as 'file:line: rule'."""
    me, out = module_name(path), []
    for line, target in imported(path):
        where = f"{path.relative_to(PACKAGE.parent)}:{line}: {me} imports {target}"
        if layer(target) > layer(me):
            out.append(f"{where}: {LAYERS[layer(target)][0]} is above {LAYERS[layer(me)][0]}")
        elif family(me) and family(target) and family(me) != family(target) \
                and target not in SHARED_BY_BACKENDS:
            out.append(f"{where}: backends meet in the registry, never import each other")
        elif target in PRIVATE and not me.startswith(target.rsplit(".", 1)[0]):
            out.append(f"{where}: {target} is private to its package")
    return out


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_sits_in_a_layer():
    assert SOURCES
    placed = {x for _, prefixes in LAYERS for x in prefixes}
    unplaced = [m for m in map(module_name, SOURCES)
                if not any(m == x or m.startswith(x + ".") for x in placed)]
    assert unplaced == [], f"add these to a layer of LAYERS: {unplaced}"


def test_no_import_goes_up_a_layer_or_across_backends():
    found = [b for path in SOURCES for b in breaches(path)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("into, source, rule", [
    ("harness/bench.py", "from sudokucp.reporting.report import write_reports\n", "above"),
    ("backends/mrv.py", "def f():\n    from sudokucp.cli import main\n", "above"),
    ("engine/techniques.py", "import sudokucp.teaching.trace\n", "above"),
    ("backends/mrv.py", "from sudokucp.backends.naive import NaiveRecursive\n",
     "never import each other"),
    ("cli/bench.py", "from sudokucp.executors import dask_cluster\n", "private"),
])
def test_the_rules_catch_a_planted_import(tmp_path, monkeypatch, into, source, rule):
    planted = PACKAGE / into
    copy = tmp_path / planted.name
    copy.write_text(planted.read_text() + "\n" + source)
    monkeypatch.setattr("pathlib.Path.read_text", _reading(planted, copy))
    assert any(rule in b for b in breaches(planted))


def backend_paths(path: Path) -> list[str]:
    """Every string of a file that names the backends' folder, as 'file:line: text': a reader or
    writer that opens a backend's files (a model, a table) depends on it without an import."""
    tree = ast.parse(path.read_text(), str(path))
    return [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and node.value.split("/")[0] == "backends"]


def test_no_reader_or_writer_opens_a_backends_file():
    found = [b for path in SOURCES if module_name(path).startswith("io") for b in
             backend_paths(path)]
    assert found == [], "\n".join(found)


def test_a_backends_path_planted_in_io_is_caught(tmp_path, monkeypatch):
    planted = PACKAGE / "io" / "exporters" / "mzn.py"
    copy = tmp_path / planted.name
    copy.write_text(planted.read_text() + '\nMODEL = ("backends", "minizinc", "sudoku.mzn")\n')
    monkeypatch.setattr("pathlib.Path.read_text", _reading(planted, copy))
    assert backend_paths(planted)


def _reading(planted: Path, copy: Path):
    original = Path.read_text

    def read_text(self: Path, *args, **kwargs) -> str:
        return original(copy if self == planted else self, *args, **kwargs)
    return read_text


def dependencies(path: Path) -> set[str]:
    """The project modules a file imports, lazy and type-checking imports included: `from pkg
    import mod` depends on pkg.mod alone, `from pkg import name` on pkg."""
    name, found = module_name(path), set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (base := _absolute(node, [p for p in package
                                                                          if p])) is not None:
            found |= {f"{base}.{a.name}".strip(".") if _is_module(f"{base}.{a.name}".strip("."))
                      else base for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("sudokucp").strip(".") for a in node.names
                      if a.name.split(".")[0] == "sudokucp"}
    return {m for m in found if _is_module(m)} - {name}


def circles(graph: dict[str, set[str]]) -> list[str]:
    """Each import circle of `graph`, written 'a -> b -> a' (one per group of modules that import
    each other, found as Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[str] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(group) > 1:
                out.append(_loop(graph, set(group)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def _loop(graph: dict[str, set[str]], group: set[str]) -> str:
    """One path from the first module of `group` back to it, inside the group."""
    start = min(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return " -> ".join(m or "sudokucp" for m in [*paths[node], start])
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                todo.append(nxt)
    raise AssertionError(group)


def import_graph() -> dict[str, set[str]]:
    return {module_name(path): dependencies(path) for path in SOURCES}


def test_no_import_circle():
    found = circles(import_graph())
    assert found == [], "import circles (lazy imports count):\n" + "\n".join(found)


def test_a_circle_planted_is_caught_and_named(tmp_path, monkeypatch):
    planted = PACKAGE / "rules.py"
    copy = tmp_path / planted.name
    lazy = "\ndef f():\n    from sudokucp.check import find_conflicts\n"
    copy.write_text(planted.read_text() + lazy)
    monkeypatch.setattr("pathlib.Path.read_text", _reading(planted, copy))
    assert "check -> rules -> check" in circles(import_graph())


def test_at_most_a_dozen_modules_at_the_top():
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= TOP_MODULES, f"{len(top)} modules at the top of sudokucp/: {top}"


def test_no_module_is_over_400_lines():
    long = [f"{path.relative_to(PACKAGE.parent)}: {count} lines" for path in SOURCES
            if (count := len(path.read_text().splitlines())) > LONGEST]
    assert long == [], "\n".join(long)


def mapped() -> list[str]:
    """The modules ARCHITECTURE.md's 'Every module' table names (path under src/sudokucp/)."""
    section = ARCHITECTURE.read_text().split("\n## Every module\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+\.py)` \|", section, re.M)


def test_the_map_names_every_module_and_no_other():
    files = {path.relative_to(PACKAGE).as_posix() for path in SOURCES}
    named = mapped()
    assert sorted(files - set(named)) == [], "add to docs/ARCHITECTURE.md's 'Every module'"
    assert sorted(set(named) - files) == [], "gone from src/: remove from 'Every module'"
    assert len(named) == len(set(named)), "a module named twice in 'Every module'"
