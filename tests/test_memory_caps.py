"""Under a memory cap, what a refused allocation says is MEMOUT: an ImportError of a library that
cannot be mapped, OpenBLAS's failed buffers, as a MemoryError is; an ImportError of another kind
stays an ERROR. solve refuses a cap past any address space, as bench does."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokucp.backends.base import Backend
from sudokucp.cli import main
from sudokucp.executors import ResourceLimits, Task, make_executor
from sudokucp.executors.local import out_of_memory
from sudokucp.io.formats import parse_grid
from sudokucp.result import Status

HERE = Path(__file__).resolve().parent
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
UNMAPPED = ("\n\nIMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n\n"
            "Original error was: libopenblas.so: failed to map segment from shared object")


class Unmapped(Backend):
    name = "unmapped"
    description = "an import that fails as it does under a low address-space cap"

    def _search(self, puzzle, limit, deadline):
        raise ImportError(UNMAPPED)


class Missing(Backend):
    name = "missing"
    description = "an import of a module that is not there"

    def _search(self, puzzle, limit, deadline):
        raise ImportError("No module named 'nothing_here'")


def test_a_memory_cap_that_refuses_an_allocation_is_memout():
    assert out_of_memory(f"ImportError: {UNMAPPED}", 50)
    assert out_of_memory("worker exited with status 1; OpenBLAS error: Memory allocation "
                         "still failed after 10 retries, giving up.", 120)
    assert not out_of_memory(f"ImportError: {UNMAPPED}", None)  # no cap: not the cap's doing
    assert not out_of_memory("ImportError: No module named 'nothing_here'", 50)
    assert out_of_memory("MemoryError: ", None)


@pytest.mark.parametrize("cls, status", [(Unmapped, Status.MEMOUT), (Missing, Status.ERROR)])
def test_a_worker_under_a_cap_reads_the_error_of_an_import(monkeypatch, cls, status):
    monkeypatch.setenv("PYTHONPATH", str(HERE))
    limits = ResourceLimits(time_limit=20, memory_mb=4000)
    with make_executor("local", jobs=1) as executor:
        executor.submit(Task("k", f"test_memory_caps:{cls.__name__}", parse_grid(EASY), 1,
                             limits))
        result = next(iter(executor.results())).result
    assert result.status is status
    if status is Status.MEMOUT:
        assert "\n" not in result.error and result.error.endswith("shared object")


def test_solve_with_numpy_under_a_low_cap_is_memout(tmp_path, capsys):
    from sudokucp.backends import backend_class

    if not backend_class("sat").available():
        pytest.skip("the sat backend is not installed")
    grids = tmp_path / "easy.txt"
    grids.write_text(EASY + "\n")
    assert main(["solve", str(grids), "-b", "sat", "--memory", "50"]) == 1
    assert capsys.readouterr().out.startswith("MEMOUT")


def test_solve_refuses_a_memory_cap_past_any_address_space(tmp_path, capsys):
    grids = tmp_path / "easy.txt"
    grids.write_text(EASY + "\n")
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(grids), "--memory", "99999999999999999999"])
    assert stop.value.code == 2
    assert "more than any address space" in capsys.readouterr().err
