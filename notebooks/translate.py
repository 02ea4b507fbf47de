"""The French notebooks (`*.fr.ipynb`), made from the English ones and `fr.po` beside them: each
markdown cell translated whole (its text is the msgid), the code cells kept, and
`sudokucp.set_language("fr")` after `import sudokucp`, so that the output is French too.

    python notebooks/translate.py          # write the French notebooks
    python notebooks/translate.py --check  # exit 1 when an entry is missing or a notebook stale

tests/test_notebooks.py runs the check.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from sudokucp.i18n import read_po

HERE = Path(__file__).resolve().parent
SUFFIX = ".fr.ipynb"
SWITCH = 'sudokucp.set_language("fr")'


def english() -> list[Path]:
    """The English notebooks: every .ipynb here but the French ones."""
    return sorted(p for p in HERE.glob("*.ipynb") if not p.name.endswith(SUFFIX))


def french_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".ipynb") + SUFFIX)


def catalogue() -> dict[Any, Any]:
    return read_po((HERE / "fr.po").read_text(encoding="utf-8"), "notebooks/fr.po")


def text(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def as_lines(text: str) -> list[str]:
    """A cell's source as nbformat stores it: lines, each but the last with its newline."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + [parts[-1]]


def missing(notebook: dict[str, Any], entries: dict[Any, Any]) -> list[str]:
    """The markdown cells of a notebook without a French entry, by id."""
    return [cell.get("id", "?") for cell in notebook["cells"]
            if cell["cell_type"] == "markdown" and text(cell) not in entries]


def translate(notebook: dict[str, Any], entries: dict[Any, Any]) -> dict[str, Any]:
    """The French notebook: markdown translated, the language set after `import sudokucp`."""
    out = copy.deepcopy(notebook)
    switched = False
    for cell in out["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = as_lines(entries[text(cell)])
        elif not switched and "import sudokucp" in text(cell).splitlines():
            lines = text(cell).splitlines()
            at = lines.index("import sudokucp") + 1
            cell["source"] = as_lines("\n".join(lines[:at] + [SWITCH] + lines[at:]))
            switched = True
    return out


def dump(notebook: dict[str, Any]) -> str:
    """A notebook as the English ones are written: one-space indents, UTF-8, a last newline."""
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def problems() -> list[str]:
    """What --check finds wrong: missing entries, French notebooks missing or out of date."""
    entries, found = catalogue(), []
    for path in english():
        notebook = json.loads(path.read_text(encoding="utf-8"))
        lost = missing(notebook, entries)
        if lost:
            found.append(f"{path.name}: no French entry in notebooks/fr.po for the markdown "
                         f"cells {', '.join(lost)}")
            continue
        target = french_path(path)
        if not target.is_file() or target.read_text(encoding="utf-8") != dump(
                translate(notebook, entries)):
            found.append(f"{target.name} is missing or out of date: run "
                         f"python notebooks/translate.py")
    return found


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    entries = catalogue()
    for path in english():
        notebook = json.loads(path.read_text(encoding="utf-8"))
        lost = missing(notebook, entries)
        if lost:
            print(f"{path.name}: no French entry for the cells {', '.join(lost)}",
                  file=sys.stderr)
            return 1
        french_path(path).write_text(dump(translate(notebook, entries)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
