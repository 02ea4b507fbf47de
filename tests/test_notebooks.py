"""The notebooks: stored without outputs, their French versions up to date with notebooks/fr.po,
each run top to bottom in a real kernel (nbclient), one exported to HTML (nbconvert) and opened
in Chromium; compare in a kernel kills a stubborn backend at its limit."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path

import fake_backends
import pytest
from browser import chromium_path
from fake_backends import PID_DIR, Stubborn

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMED_SET = "norvig_hardest"  # the set of the comparing notebook
STORED = sorted(NOTEBOOKS.glob("*.ipynb"))
ENGLISH = [p.name for p in STORED if not p.name.endswith(".fr.ipynb")]
NEEDS = "pip install -e '.[notebook]'"


def translator():
    """notebooks/translate.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location("translate", NOTEBOOKS / "translate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_there_are_four_notebooks_each_with_its_french_version():
    assert len(ENGLISH) == 4
    assert {p.name for p in STORED} == {*ENGLISH, *(n.replace(".ipynb", ".fr.ipynb")
                                                     for n in ENGLISH)}


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_notebooks_are_stored_without_outputs(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert code
    kept = [c.get("id") for c in code if c.get("outputs") or c.get("execution_count")]
    assert kept == [], f"{path.name}: clear the outputs of cells {kept} (Kernel > Restart and " \
                       f"Clear Outputs) before committing"
    assert "widgets" not in notebook["metadata"]


def test_the_french_notebooks_are_made_from_the_english_ones_and_fr_po():
    """Every markdown cell has its French text, and the French notebooks are what
    translate.py makes (a stale one names the command that remakes it)."""
    assert translator().problems() == []


def test_the_translation_check_sees_a_cell_without_french(tmp_path):
    module = translator()
    notebook = json.loads((NOTEBOOKS / ENGLISH[0]).read_text(encoding="utf-8"))
    notebook["cells"][0]["source"] = ["# A heading no catalogue has"]
    assert module.missing(notebook, module.catalogue()) == [notebook["cells"][0]["id"]]
    french = module.translate(json.loads((NOTEBOOKS / ENGLISH[2]).read_text("utf-8")),
                              module.catalogue())
    sources = ["".join(c["source"]) for c in french["cells"] if c["cell_type"] == "code"]
    assert sum('sudokucp.set_language("fr")' in s for s in sources) == 1


# --- running them ------------------------------------------------------------------------------

def kernel_tools():
    """nbclient and nbformat, or a skip naming what to install (ipykernel gives the kernel)."""
    nbclient = pytest.importorskip("nbclient", reason=f"nbclient is not installed: {NEEDS}")
    nbformat = pytest.importorskip("nbformat", reason=f"nbformat is not installed: {NEEDS}")
    pytest.importorskip("ipykernel", reason=f"ipykernel is not installed: {NEEDS}")
    return nbclient, nbformat


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A copy of notebooks/ beside a link to puzzles/, so that the notebooks' relative paths
    hold and what they write (my_backend.py) stays out of the tree."""
    root = tmp_path_factory.mktemp("classroom")
    shutil.copytree(NOTEBOOKS, root / "notebooks")
    (root / "puzzles").symlink_to(ROOT / "puzzles")
    return root / "notebooks"


RAN: dict[str, object] = {}


def run(name: str, folder: Path, edits: dict[str, str] | None = None):
    """The notebook executed top to bottom in a fresh python3 kernel, once per test session;
    `edits`: texts of its code replaced first (a smaller sweep of the same code)."""
    if name not in RAN:
        nbclient, nbformat = kernel_tools()
        notebook = nbformat.read(folder / name, as_version=4)
        for cell in notebook.cells:
            for old, new in (edits or {}).items():
                cell.source = cell.source.replace(old, new)
        nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}}).execute()
        RAN[name] = notebook
    return RAN[name]


def outputs(notebook, ident: str) -> str:
    """Every output of one cell (by id), its mime bundles and texts joined."""
    cell = next(c for c in notebook.cells if c.get("id") == ident)
    parts = []
    for out in cell.outputs:
        parts += [str(v) for v in out.get("data", {}).values()] + [str(out.get("text", ""))]
    return "\n".join(parts)


def errors_in(notebook) -> list[str]:
    return [f"{c.get('id')}: {o.get('ename')}" for c in notebook.cells if c.cell_type == "code"
            for o in c.outputs if o.output_type == "error"]


@pytest.fixture
def named_set(tmp_path, monkeypatch):
    """An empty data-set cache and no network (a mirror that refuses): the comparing notebook's
    set installs from the copy shipped with the package."""
    from sudokucp import datasets

    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(datasets.MIRROR_ENV, "http://127.0.0.1:9")  # the discard port: refused
    assert datasets.cached(NAMED_SET) is None


SEEDS_SMALLER = {"timeout=1,": "timeout=0.2,"}  # the lesson's code, its time-outs shorter


@pytest.mark.slow
def test_the_seeds_lesson_runs_top_to_bottom(workspace):
    notebook = run("1-the-seeds-lesson.ipynb", workspace, SEEDS_SMALLER)
    assert any("timeout=0.2," in cell.source for cell in notebook.cells)
    assert errors_in(notebook) == []
    assert 'class="sudokucp-comparison"' in outputs(notebook, "compare")
    assert "image/png" in str(next(c for c in notebook.cells if c.get("id") == "cactus").outputs)
    assert "<iframe class=\"sudokucp-trace\" srcdoc=" in outputs(notebook, "trace")
    assert "hidden single: in" in outputs(notebook, "explain")
    assert "| grids | size | rung |" in outputs(notebook, "climb")


@pytest.mark.slow
def test_the_seeds_lesson_in_french_says_its_output_in_french(workspace):
    notebook = run("1-the-seeds-lesson.fr.ipynb", workspace, SEEDS_SMALLER)
    assert errors_in(notebook) == []
    assert re.search(r"singleton caché : dans (la ligne|la colonne|le bloc) \d+",
                     outputs(notebook, "explain"))
    assert "| grilles | taille | échelon |" in outputs(notebook, "climb")
    assert "<h3>Comparaison</h3>" in outputs(notebook, "compare")


@pytest.mark.slow
@pytest.mark.jit
def test_comparing_every_backend_runs_top_to_bottom(workspace, named_set):
    smaller = {"max_puzzles=3, timeout=1,": "max_puzzles=2, timeout=0.25,"}
    notebook = run("2-comparing-backends.ipynb", workspace, smaller)
    assert any("max_puzzles=2, timeout=0.25," in cell.source for cell in notebook.cells)
    assert errors_in(notebook) == []
    assert 'class="sudokucp-comparison"' in outputs(notebook, "compare")
    assert "virtual best" in outputs(notebook, "score-table")
    assert "# Comparison" in outputs(notebook, "markdown")
    for prose, table in (("scores", "score-table"), ("pairs", "pair-table")):
        said = next(c for c in notebook.cells if c.get("id") == prose).source
        for column in re.findall(r"`(\w+)`", said):  # the columns the text names are shown
            assert f"<th>{column}</th>" in outputs(notebook, table), column


def test_your_own_backend_runs_top_to_bottom(workspace):
    notebook = run("3-your-own-backend.ipynb", workspace)
    assert errors_in(notebook) == []
    assert (workspace / "my_backend.py").is_file()
    assert "<td style='text-align:left'>solved</td>" in outputs(notebook, "solve")
    assert 'class="found"' in outputs(notebook, "draw")
    assert "my_backend:FewestFirst" in outputs(notebook, "run")


def test_the_hardness_peak_runs_top_to_bottom(workspace):
    """The small sweep: balanced holes counted, every run judged, the medians and the plot."""
    smaller = {"COUNT = 2": "COUNT = 1", "LIMIT = 1.0": "LIMIT = 0.3",  # the lesson's code,
               "0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8": "0.4, 0.55, 0.8"}  # on a fifth of its runs
    notebook = run("4-the-hardness-peak.ipynb", workspace, smaller)
    assert any("COUNT = 1" in cell.source for cell in notebook.cells)
    assert errors_in(notebook) == []
    assert "doubly {'row': (15, 15), 'column': (15, 15), 'box': (15, 15)}" in outputs(
        notebook, "counts")
    table = outputs(notebook, "table")
    assert all(word in table for word in ("hybrid", "pysat", "doubly", "random", "0.55"))
    assert "image/png" in str(next(c for c in notebook.cells if c.get("id") == "plot").outputs)


def test_a_notebook_exported_to_html_shows_the_grid_and_the_table_in_chromium(workspace):
    """nbconvert's page of the own-backend notebook: the drawn grid and the comparison table are
    there, the browser logs no error, and the outputs fetch nothing (nbconvert's own scripts,
    from a CDN, are answered empty: no network here)."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (the [dev] extra has it)")
    executable = chromium_path()
    nbconvert = pytest.importorskip("nbconvert", reason=f"nbconvert is not installed: {NEEDS}")
    notebook = run("3-your-own-backend.ipynb", workspace)
    exporter = nbconvert.HTMLExporter()
    page_text, _ = exporter.from_notebook_node(notebook)
    path = workspace / "exported.html"
    path.write_text(page_text, encoding="utf-8")
    theirs = {exporter.require_js_url, exporter.mathjax_url, exporter.mermaid_js_url,
              exporter.jquery_url}
    fetched, errors = [], []

    def answer_empty(route) -> None:
        fetched.append(route.request.url)
        route.fulfill(status=200, content_type="text/javascript", body="")

    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=executable, headless=True,
                                       args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.route(re.compile(r"^https?://"), answer_empty)
            page.goto(path.resolve().as_uri())
            page.wait_for_load_state("load")
            found = page.eval_on_selector_all(
                "svg.sudoku-grid", "grids => grids.map(g => [g.dataset.side, "
                "g.querySelectorAll('text.given').length, g.querySelectorAll('text.found')"
                ".length])")
            rows = page.eval_on_selector_all(
                ".sudokucp-comparison table.sudokucp-table tbody tr",
                "rows => rows.map(r => r.textContent)")
        finally:
            browser.close()
    assert ["9", 28, 53] in [[side, given, found] for side, given, found in found]
    assert any("my_backend:FewestFirst" in row for row in rows)
    assert errors == []
    assert set(fetched) <= theirs, set(fetched) - theirs


def test_compare_in_a_kernel_kills_a_stubborn_backend_at_its_limit(tmp_path, monkeypatch):
    """A backend that never looks at the clock, run from a notebook's kernel: the cell returns
    (within nbclient's 60 s, not forever), the run is a TIMEOUT and its process is gone."""
    nbclient, nbformat = kernel_tools()
    monkeypatch.setenv("PYTHONPATH", fake_backends.pythonpath())  # the kernel and its workers
    monkeypatch.setenv(PID_DIR, str(tmp_path))
    grid = (ROOT / "puzzles" / "seeds" / "002-logic-9x9.txt").as_posix()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import sudokucp\n"
        f"done = sudokucp.compare([{fake_backends.spec(Stubborn)!r}, 'mrv'], {grid!r}, "
        "timeout=1, progress=False)\n"
        "print(sorted((r.backend, r.status.value, r.limit_hit) for r in done.rows))")])
    nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3").execute()
    printed = "".join(o.get("text", "") for o in notebook.cells[0].outputs)
    assert "('fake_backends:Stubborn', 'timeout', 'wall')" in printed, printed
    assert "('mrv', 'solved', None)" in printed
    pids = [int(p.name) for p in tmp_path.iterdir() if p.name.isdigit()]
    assert pids
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
