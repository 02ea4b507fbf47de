"""The registry owns backend names and hooks: outside src/sudokucp/backends/ no module compares a
backend's name, names a backend in a lookup, probes one of Backend's hooks with hasattr, or
imports a backend's own module; the capabilities are declared on Backend and the generators take
their checkers from them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from sudokucp.backends import ALIASES, BACKENDS, WRAPPERS, backend_class, checkers
from sudokucp.backends.base import Backend
from sudokucp.backends.contract import checks, run_checks
from sudokucp.backends.template import Template

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "sudokucp"
NAMES = frozenset({*BACKENDS, *WRAPPERS, *ALIASES})
LOOKUPS = frozenset({"get_backend", "backend_class", "from_spec", "canonical", "parse_spec"})
HOOKS = frozenset({*dir(Backend), *Backend.__annotations__})
SHARED = ("sudokucp.backends", "sudokucp.backends.base", "sudokucp.backends.contract")


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.Call) -> str:
    return getattr(node.func, "id", None) or getattr(node.func, "attr", "")


def breaches(source: str, where: str) -> list[str]:
    """Each place of `source` that names a backend or probes a hook, as 'where:line: why'."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        line = f"{where}:{getattr(node, 'lineno', 0)}: "
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if (any(isinstance(s, ast.Attribute) and s.attr == "name" for s in sides)
                    and any(_text(s) in NAMES for s in sides)):
                found.append(line + "compares a backend's name")
        elif isinstance(node, ast.Call) and node.args:
            if _called(node) == "hasattr" and len(node.args) == 2 and _text(node.args[1]) in HOOKS:
                found.append(line + f"probes the hook {_text(node.args[1])!r} with hasattr")
            elif _called(node) in LOOKUPS and (_text(node.args[0]) or "").lower() in NAMES:
                found.append(line + f"looks up the backend {_text(node.args[0])!r} by name")
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                       else [a.name for a in node.names])
            found += [line + f"imports {m}, a backend's own module" for m in modules
                      if m.startswith("sudokucp.backends.") and m not in SHARED]
    return found


OUTSIDE = [p for p in sorted(PACKAGE.rglob("*.py"))
           if "backends" not in p.relative_to(PACKAGE).parts]


def test_no_module_outside_the_backends_names_a_backend_or_probes_a_hook():
    assert len(OUTSIDE) > 50
    found = [b for p in OUTSIDE for b in breaches(p.read_text(), str(p.relative_to(PACKAGE)))]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("planted, why", [
    ("def f(backend):\n    return backend.name != 'jit'\n", "compares"),
    ("def f(backend):\n    return 'mrv' == backend.name\n", "compares"),
    ("def f(cls):\n    return hasattr(cls, 'compile_ahead')\n", "probes"),
    ("def f(backend):\n    return hasattr(backend, 'tracer')\n", "probes"),
    ("from sudokucp.backends import get_backend\nB = get_backend('hybrid')\n", "looks up"),
    ("def f():\n    from sudokucp.backends.jit.lines import FileBatch\n", "imports"),
    ("from sudokucp.backends.mrv import pick\n", "imports"),
])
def test_a_planted_breach_is_caught(planted, why):
    source = (PACKAGE / "generators" / "generator.py").read_text() + "\n" + planted
    assert any(why in b for b in breaches(source, "generators/generator.py"))


def test_what_is_not_a_backend_passes():
    fine = ("def f(p, backend, os):\n    a = p.name == 'ranking.csv'\n"
            "    b = hasattr(os, 'sysconf')\n    c = backend.traceable\n"
            "    from sudokucp.backends import for_role\n    return for_role('rating')\n")
    assert breaches(fine, "x.py") == []


def test_the_generators_checkers_keep_their_order():
    assert checkers("classic") == ("hybrid", "mrv", "naive-iterative")
    assert checkers("large") == ("sat", "hybrid", "mrv")
    assert checkers("variant") == ("sat", "mrv", "cpsat")
    assert checkers("hard") == ("sat", "cpsat", "mrv")


def test_capabilities_are_declared_with_a_default_that_means_no():
    assert Backend.checker == {} and not Backend.traceable and not Backend.compiles_ahead
    with pytest.raises(NotImplementedError):
        backend_class("mrv").compile_ahead()
    assert backend_class("mrv").line_batch(object(), "x.txt", None, 1, None) is None
    assert backend_class("jit").compiles_ahead and not backend_class("mrv").compiles_ahead
    traced = {n for n in BACKENDS if backend_class(n).traceable}
    assert traced == {"naive", "naive-iterative", "mrv", "hybrid"}
    for name in BACKENDS:  # a checker must be able to prove uniqueness
        cls = backend_class(name)
        assert not cls.checker or cls.complete, name


# --- sudoku-cp backends --check ---------------------------------------------------------------

LIAR = '''
from sudokucp.backends.template import Template


class Liar(Template):
    """Answers each grid with its first solution's first two digits swapped."""

    def _search(self, puzzle, limit, deadline):
        solutions, complete, stats = super()._search(puzzle, limit, deadline)
        return [(s[1], s[0], *s[2:]) for s in solutions], complete, stats


class Broken(Template):
    def _search(self, puzzle, limit, deadline):
        raise RuntimeError("no search written yet")
'''


def check(spec: str, capsys) -> tuple[int, str, str]:
    from sudokucp.cli import main

    code = main(["backends", "--check", spec])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_passes_a_backend_loaded_by_its_import_path(capsys):
    code, out, _ = check("sudokucp.backends.template:Template:reverse=true", capsys)
    lines = out.splitlines()
    assert code == 0, out
    assert [line.split()[0] for line in lines[:-1]] == ["ok"] * 9
    assert {"ok    solves 9x9", "ok    deadline", "ok    keep and count"} <= set(lines)
    assert lines[-1] == "sudokucp.backends.template:Template:reverse=True: every check passed"


def test_check_names_each_failure_of_a_planted_bad_backend(tmp_path, monkeypatch, capsys):
    (tmp_path / "planted_backends.py").write_text(LIAR)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, _ = check("planted_backends:Liar", capsys)
    assert code == 1
    failed = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert any(line.startswith("FAIL  solves 9x9: ") and "the judge refuses" in line
               for line in failed), out
    assert out.splitlines()[-1].startswith("planted_backends:Liar: ")
    code, out, _ = check("planted_backends:Broken", capsys)
    assert code == 1 and "FAIL  solves 4x4: planted_backends:Broken on 4x4: RuntimeError: no " \
                          "search written yet" in out


@pytest.mark.parametrize("spec, words", [
    ("no_such_module_xyz:Thing", "no module named 'no_such_module_xyz'"),
    ("sudokucp.puzzle:Shape", "not a Backend subclass"),
    ("no_such_backend", "unknown backend"),
    ("mrv:order=sideways", "one of dynamic, static"),
])
def test_check_refuses_a_spec_that_cannot_be_loaded(spec, words, capsys):
    code, out, err = check(spec, capsys)
    assert (code, out) == (2, "") and words in err and len(err.splitlines()) == 1


def test_every_check_runs_on_a_fresh_instance():
    made = []

    def make():
        made.append(Template())
        return made[-1]

    names = [name for name, why in run_checks(make) if why is None]
    assert len(names) == len(made) == len(checks()) == 9


# --- pytest --backend NAME ------------------------------------------------------------------------

def collected(*args: str) -> tuple[int, list[str], str]:
    """pytest's exit code, the items it lists and its error output, for tests/test_contract.py
    collected with `args`, in a process of its own."""
    run = subprocess.run([sys.executable, "-m", "pytest", "--co", "-p", "no:randomly", *args,
                          "tests/test_contract.py"], capture_output=True, text=True,
                         timeout=300, cwd=PACKAGE.parents[1])
    return run.returncode, [line for line in run.stdout.splitlines() if "::" in line], run.stderr


def test_pytest_backend_narrows_the_tests_parametrized_by_backend():
    from conftest import backend_named

    code, every, _ = collected()
    assert code == 0
    named = {backend_named(i.partition("[")[2].split("-")[0]) for i in every if "[" in i}
    assert {"mrv", "naive", "sudokucp.backends.template:Template"} <= named
    code, two, _ = collected("--backend", "mrv", "--backend", "recursive")  # an alias of naive
    assert code == 0 and 0 < len(two) < len(every) and set(two) <= set(every)
    assert "tests/test_contract.py::test_keep_holds_the_first_solutions_and_counts_them_all[mrv]" \
        in two
    kept = {backend_named(i.partition("[")[2].split("-")[0]) for i in two if "[" in i}
    assert kept - {None} == {"mrv", "naive"}
    assert any(i.endswith("[naive]") for i in two) and not any("naive-iter" in i for i in two)
    assert [i for i in every if "[" not in i] == [i for i in two if "[" not in i]  # kept


def test_pytest_backend_refuses_a_name_it_does_not_know(pytestconfig, monkeypatch):
    from conftest import narrow

    monkeypatch.setattr(pytestconfig.option, "backend", ["no_such_backend"])
    with pytest.raises(pytest.UsageError, match="unknown backend 'no_such_backend'"):
        narrow(pytestconfig, [])


def test_check_skips_what_does_not_apply_and_says_so(capsys):
    code, out, _ = check("logic", capsys)  # it proves no counts: keep and count do not apply
    assert code == 0 and "skip  keep and count: not complete" in out.splitlines()
    assert out.splitlines()[-1] == "logic: every check passed (1 not for it, skipped)"
