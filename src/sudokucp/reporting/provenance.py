"""Where a report comes from: the commit of the checkout that made it (a dirty tree said so), and
the paths it prints shown relative to the checkout, `~` or `<tmp>`, never as this machine's.

Glossary: the checkout is the git work tree holding this package's source (none when the package
is installed from a wheel); "dirty" means tracked files outside reports/ differ from the commit.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

NO_CHECKOUT = "unknown (not run from a git checkout)"
DIRTY = "dirty tree: uncommitted changes"


@cache
def checkout() -> Path | None:
    """The git work tree this package was imported from, or None."""
    here = Path(__file__).resolve()
    root = next((p for p in here.parents if (p / ".git").exists()), None)
    return root if root is not None and _git(root, "rev-parse", "--git-dir") else None


def _git(root: Path, *args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=root, text=True, capture_output=True,
                              check=False).stdout.strip()
    except OSError:
        return ""


def commit(root: Path | None = None) -> tuple[str, bool]:
    """The short commit of the checkout and whether its tree is dirty (tracked changes outside
    reports/: a report being written again is no change of the code); ('', False) without one."""
    root = root or checkout()
    if root is None:
        return "", False
    head = _git(root, "rev-parse", "--short", "HEAD")
    dirty = _git(root, "status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports")
    return head, bool(dirty)


def commit_line(root: Path | None = None) -> str:
    """The commit as a report names it: 'abc1234', 'abc1234, dirty tree: ...', or unknown."""
    head, dirty = commit(root)
    if not head:
        return NO_CHECKOUT
    return f"{head}, {DIRTY}" if dirty else head


def _places(root: Path | None) -> list[tuple[str, str]]:
    """(absolute prefix, how it is shown), the longest first: the checkout, its parent, the
    temporary folder and the home folder."""
    places = []
    if root is not None:
        places += [(str(root), "."), (str(root.parent), "..")]
    for folder, shown in ((tempfile.gettempdir(), "<tmp>"), ("/tmp", "<tmp>"),
                          (os.path.expanduser("~"), "~")):
        if folder not in ("", "/"):
            places.append((os.path.realpath(folder), shown))
            places.append((folder, shown))
    return sorted(set(places), key=lambda p: -len(p[0]))


def shown_path(path: str | os.PathLike[str], root: Path | None = None) -> str:
    """A path as a report prints it: relative to the checkout (or `..` beside it), else under
    `~` or `<tmp>`; a relative path or one elsewhere as given."""
    text = os.fspath(path)
    for prefix, shown in _places(root or checkout()):
        if text == prefix:
            return shown
        if text.startswith(prefix + os.sep):
            rest = text[len(prefix) + 1:]
            return rest if shown == "." else f"{shown}/{rest}"
    return text


def shown_paths(text: str, root: Path | None = None) -> str:
    """Every absolute path inside `text` (a command, a message) shown as `shown_path` does."""
    places = _places(root or checkout())
    if not places:
        return text
    pattern = "|".join(re.escape(prefix) for prefix, _ in places)
    found = re.compile(rf"(?<![\w.~/-])(?:{pattern})(?:/[^\s`'\"()<>,;]*)?(?![\w.-])")
    return found.sub(lambda m: _shown_match(m.group(0), root), text)


def _shown_match(path: str, root: Path | None) -> str:
    """A path found in text, a sentence's full stops after it kept apart."""
    bare = path.rstrip(".")
    return shown_path(bare, root) + path[len(bare):]


def shown_command(argv: Sequence[str], program: str = "python",
                  root: Path | None = None) -> str:
    """A command line as a report prints it: `program` then the arguments, each path shown
    relative to the checkout (a script under it as `benchmarks/x.py`)."""
    import shlex

    return shlex.join([program, *(shown_paths(str(a), root) for a in argv)])
