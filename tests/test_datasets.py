"""Named data sets: the converters on written samples and on samples of each upstream file
(tests/data/upstream; the whole files are checked by benchmarks/datasets.py), and downloads
from a local HTTP server (good, wrong checksum, cut short, 404, offline), `datasets add`, and
names in place of files in bench, solve and rate."""

from __future__ import annotations

import csv
import dataclasses
import errno
import hashlib
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sudokucp import datasets
from sudokucp.cli import main
from sudokucp.datasets.catalog import BY_NAME, CATALOG, DataSet
from sudokucp.datasets.convert import ConvertError, convert, to_text
from sudokucp.io.formats import read_puzzles

UPSTREAM = Path(__file__).resolve().parent / "data" / "upstream"  # see its README.md
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ROYLE = PUZZLE.replace(".", "0")
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
TINY = f"# a header\n#\n{PUZZLE}\n\n{ROYLE}\n".encode()


class Handler(BaseHTTPRequestHandler):
    """GET /NAME serves files[NAME] (or ROOT/NAME); /cut/NAME sends half and hangs up."""

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        name = self.path.lstrip("/")
        cut = name.startswith("cut/")
        body = self.server.body(name.removeprefix("cut/"))
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[:len(body) // 2] if cut else body)
        self.wfile.flush()

    def log_message(self, *args: object) -> None:
        pass


class Server(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.files: dict[str, bytes] = {}
        self.root: Path | None = None
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def body(self, name: str) -> bytes | None:
        if name in self.files:
            return self.files[name]
        path = self.root / name if self.root is not None else None
        return path.read_bytes() if path is not None and path.is_file() else None


@pytest.fixture
def server(monkeypatch, tmp_path):
    """A local HTTP server the catalogue's URLs are redirected to; the cache in tmp_path."""
    pytest.importorskip("pooch", reason="downloads need the [datasets] extra (pooch)")
    httpd = Server()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(datasets.MIRROR_ENV, httpd.url)
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def tiny_set(monkeypatch, body: bytes = TINY, name: str = "tiny", **more) -> DataSet:
    """A catalogue entry pinned to `body`, served as tiny.txt."""
    data = DataSet(name, "two grids", 2, "9x9", "MIT", "someone/somewhere", "tiny.txt",
                   f"https://example.invalid/{name}.txt", "lines", f"{name}.txt",
                   hashlib.sha256(body).hexdigest(), len(body), "0" * 40, **more)
    monkeypatch.setitem(BY_NAME, name, data)
    return data


def cache_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


# --- converters on written samples -------------------------------------------------------------

def test_lines_skip_headers_blanks_and_crlf_and_keep_labels():
    text = f"# from somewhere\r\n#\r\n{PUZZLE}\r\n\r\n{ROYLE} box duplicate\r\n"
    items = convert(text, "lines")
    assert [(i.index, i.puzzle, i.comment) for i in items] == [
        (1, PUZZLE, ""), (2, PUZZLE, "box duplicate")]


def test_counted_keeps_the_count_and_the_solution():
    text = f"{PUZZLE}:1:{SOLUTION}\n{PUZZLE}:0\n{PUZZLE}:847\n"
    assert [i.comment for i in convert(text, "counted")] == [
        f"1 solution {SOLUTION}", "0 solutions", "847 solutions"]
    with pytest.raises(ConvertError, match="line 1: 'x' is not a count"):
        convert(f"{PUZZLE}:x\n", "counted")


def test_csv_reads_the_columns_its_header_names():
    text = f"quizzes,solutions\n{ROYLE},{SOLUTION}\n"
    (item,) = convert(text, "csv")
    assert (item.index, item.puzzle, item.comment) == (1, PUZZLE, f"solution {SOLUTION}")
    with pytest.raises(ConvertError, match="no CSV header"):
        convert(f"{ROYLE},{SOLUTION}\n", "csv")


GECODE = '''/* licence */
namespace {
  const char* examples[] = {
    // 0
    "1..."
    "..2."
    //"4444"
    ".3.."
    "...4"
    , // a 4x4 one, then a 9x9 with 0 for a blank and a lower-case letter
    "''' + PUZZLE[:40] + '''"
    "''' + ROYLE[40:] + '''"
  };
  const unsigned int n_examples = sizeof(examples)/sizeof(char*);
}
'''


def test_gecode_reads_the_array_of_the_cpp_source():
    items = convert(GECODE, "gecode")
    assert [(i.index, i.puzzle, i.side) for i in items] == [(0, "1.....2..3.....4", 4),
                                                            (1, PUZZLE, 9)]
    assert [i.index for i in convert(GECODE, "gecode", side=9)] == [1]
    with pytest.raises(ConvertError, match="no 'examples"):
        convert("int main() {}", "gecode")


def test_a_bad_character_or_length_names_the_line():
    with pytest.raises(ConvertError, match="line 2, column 3: '@' is no digit"):
        convert(f"{PUZZLE}\n12@\n", "lines")
    with pytest.raises(ConvertError, match="line 1: 80 cells"):
        convert(PUZZLE[:-1], "lines")


def test_converted_text_reads_back_named_by_upstream_place(tmp_path):
    items = convert(f"# h\n{PUZZLE}\n{PUZZLE} label\n", "lines")
    path = tmp_path / "tiny.txt"
    path.write_text(to_text(items, ["tiny: a header"]))
    entries = read_puzzles(path)
    assert [(e.puzzle.name, e.comment) for e in entries] == [("tiny#1", ""), ("tiny#2", "label")]


# --- samples of the upstream files ---------------------------------------------------------------

# The puzzles of each sample (tests/data/upstream), by data set: the first lines of the MIT and
# BSD files, the project's own grids in the format of the others (tests/data/README.md).
SAMPLED = {"royle17": 6, "top95": 10, "norvig_hardest": 11, "magictour_top1465": 5,
           "forum_hardest_1106": 5, "forum_hardest_1905_11plus": 5, "serg_benchmark": 5,
           "tdoku_test_puzzles": 43, "gecode_instances": 5, "gecode_9x9": 2, "gecode_16x16": 1,
           "gecode_25x25": 2, "sudopedia_invalid": 7, "killer_niallsudoku_5503": 1}


def test_every_upstream_format_has_a_sample():
    pinned = {d.name: d for d in CATALOG if d.pinned}
    assert set(SAMPLED) <= set(pinned)
    assert {d.converter for d in pinned.values()} == {pinned[n].converter for n in SAMPLED}
    unsampled = {d.raw for d in pinned.values()} - {pinned[n].raw for n in SAMPLED}
    assert all(raw.startswith("killer_") for raw in unsampled)  # one killer shows the format


@pytest.mark.parametrize("name", SAMPLED)
def test_converters_read_the_upstream_samples(tmp_path, name):
    data = BY_NAME[name]
    raw = (UPSTREAM / data.raw).read_bytes()
    items = convert(raw.decode(), data.converter, data.side)
    assert len(items) == SAMPLED[name]
    assert len({i.index for i in items}) == len(items)
    path = tmp_path / f"{data.name}.txt"
    path.write_text(to_text(items, [data.name]))
    entries = read_puzzles(path)
    bad = [e for e in entries if e.error is not None]
    assert len(entries) == len(items)
    if data.name == "sudopedia_invalid":  # 3 of its 7 repeat a given: the reader refuses them
        assert [e.comment for e in bad] == ["box duplicate", "column duplicate", "row duplicate"]
    else:
        assert not bad
        shape = {e.puzzle.shape.side for e in entries}
        assert data.shape == "mixed" or shape == {int(data.shape.split("x")[0])}
        assert entries[0].puzzle.name == f"{data.name}#{items[0].index}"


# --- downloads from the local server ------------------------------------------------------------

def test_a_good_download_is_checked_converted_and_cached(server, monkeypatch, tmp_path):
    tiny_set(monkeypatch)
    server.files["tiny.txt"] = TINY
    path = datasets.fetch("tiny")
    assert [e.puzzle.name for e in read_puzzles(path)] == ["tiny#1", "tiny#2"]
    assert cache_files(tmp_path / "cache") == ["raw/tiny.txt", "tiny.txt", "tiny.txt.sha256"]
    server.files.clear()  # the second time needs no server
    assert datasets.fetch("tiny") == path


def test_a_wrong_checksum_is_refused_and_nothing_cached(server, monkeypatch, tmp_path):
    tiny_set(monkeypatch)
    server.files["tiny.txt"] = TINY.replace(b"4.....8", b"5.....8")
    with pytest.raises(datasets.DatasetError, match="does not match the pinned SHA-256"):
        datasets.fetch("tiny")
    assert cache_files(tmp_path / "cache") == []


def test_a_download_cut_short_leaves_nothing_half_written(server, monkeypatch, tmp_path):
    tiny_set(monkeypatch, TINY * 2000)
    server.files["tiny.txt"] = TINY * 2000
    monkeypatch.setenv(datasets.MIRROR_ENV, f"{server.url}/cut")
    with pytest.raises(datasets.DatasetError, match="cannot download tiny"):
        datasets.fetch("tiny")
    assert cache_files(tmp_path / "cache") == []


def test_a_404_is_named(server, monkeypatch, tmp_path):
    tiny_set(monkeypatch)
    with pytest.raises(datasets.DatasetError, match="HTTP 404"):
        datasets.fetch("tiny")
    assert cache_files(tmp_path / "cache") == []


def test_offline_the_message_names_the_url_and_the_file_to_place(monkeypatch, tmp_path):
    data = tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    with socket_closed() as url:
        monkeypatch.setenv(datasets.MIRROR_ENV, url)
        with pytest.raises(datasets.DatasetError) as err:
            datasets.fetch("tiny")
    message = str(err.value)
    assert "no connection" in message and data.url in message and data.sha256 in message
    assert "sudoku-cp datasets add tiny FILE" in message
    assert str(tmp_path / "raw" / "tiny.txt") in message


class socket_closed:  # noqa: N801 - used as a context manager
    """A local URL on which nothing listens."""

    def __enter__(self) -> str:
        import socket

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        pass


def test_an_unpinned_set_is_never_downloaded(server, monkeypatch):
    data = tiny_set(monkeypatch)
    monkeypatch.setitem(BY_NAME, "tiny", DataSet(**{**data.__dict__, "sha256": None}))
    server.files["tiny.txt"] = TINY
    with pytest.raises(datasets.DatasetError, match="no pinned checksum.*datasets add tiny"):
        datasets.fetch("tiny")


def test_a_file_placed_by_hand_is_used_when_it_matches_the_pin(monkeypatch, tmp_path):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "tiny.txt").write_bytes(TINY + b"#")
    with socket_closed() as url:
        monkeypatch.setenv(datasets.MIRROR_ENV, url)
        with pytest.raises(datasets.DatasetError, match="no connection"):
            datasets.fetch("tiny")  # off the pin: downloaded again, which fails here
        (tmp_path / "raw" / "tiny.txt").write_bytes(TINY)
        assert len(read_puzzles(datasets.fetch("tiny"))) == 2


def test_without_pooch_the_message_names_the_extra_and_the_way_by_hand(monkeypatch, tmp_path):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    monkeypatch.setitem(sys.modules, "pooch", None)  # as if not installed
    with pytest.raises(datasets.DatasetError, match=r"needs pooch: pip install 'sudoku-cp"
                                                    r"\[datasets\]'.*datasets add tiny FILE"):
        datasets.fetch("tiny")


# --- datasets add -------------------------------------------------------------------------------

def test_add_installs_a_file_that_matches_the_pin(monkeypatch, tmp_path, capsys):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    (tmp_path / "tiny-copy.txt").write_bytes(TINY)
    assert main(["datasets", "add", "tiny", str(tmp_path / "tiny-copy.txt")]) == 0
    assert "matches the pin" in capsys.readouterr().out
    assert cache_files(tmp_path / "cache") == ["raw/tiny.txt", "tiny.txt", "tiny.txt.sha256"]


def test_add_refuses_a_file_off_its_pin(monkeypatch, tmp_path, capsys):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    (tmp_path / "other.txt").write_bytes(TINY + b"\n")
    assert main(["datasets", "add", "tiny", str(tmp_path / "other.txt")]) == 2
    err = capsys.readouterr().err
    assert "is not the pinned file of tiny" in err and "Traceback" not in err
    assert not (tmp_path / "cache").exists() or cache_files(tmp_path / "cache") == []


def test_add_accepts_an_unpinned_set_and_says_its_checksum(monkeypatch, tmp_path, capsys):
    data = tiny_set(monkeypatch)
    monkeypatch.setitem(BY_NAME, "tiny", DataSet(**{**data.__dict__, "sha256": None}))
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    (tmp_path / "mine.txt").write_bytes(TINY)
    assert main(["datasets", "add", "tiny", str(tmp_path / "mine.txt")]) == 0
    assert data.sha256 in capsys.readouterr().out


def test_add_says_a_folder_is_a_folder(monkeypatch, tmp_path, capsys):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    assert main(["datasets", "add", "tiny", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path} is a folder" in err and "Traceback" not in err


def test_add_names_a_file_it_cannot_read(monkeypatch, tmp_path, capsys):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    secret = tmp_path / "secret.txt"
    secret.write_bytes(TINY)
    secret.chmod(0)
    reason = "Permission denied"
    if _readable(secret):  # root reads whatever the mode: a file whose reading fails for anyone
        secret, reason = Path("/proc/self/mem"), os.strerror(errno.EIO)
        if not secret.exists():
            pytest.skip("root reads any file whatever its mode, and /proc/self/mem is not here")
    assert main(["datasets", "add", "tiny", str(secret)]) == 2
    err = capsys.readouterr().err
    assert f"cannot read {secret}: {reason}" in err and "Traceback" not in err


def _readable(path: Path) -> bool:
    try:
        path.read_bytes()
    except PermissionError:
        return False
    return True


def test_a_cache_that_cannot_take_files_is_blamed_not_the_download(monkeypatch, tmp_path):
    tiny_set(monkeypatch)
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "file" / "cache"))
    with socket_closed() as url:
        monkeypatch.setenv(datasets.MIRROR_ENV, url)
        with pytest.raises(datasets.DatasetError) as err:
            datasets.fetch("tiny")
    message = str(err.value)
    assert "the data-set cache cannot hold tiny" in message and "is a file" in message
    assert "download" not in message and datasets.CACHE_ENV in message


def test_fetch_of_a_cached_upstream_file_says_it_only_converts(monkeypatch, tmp_path, capsys):
    tiny_set(monkeypatch)
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "tiny.txt").write_bytes(TINY)
    with socket_closed() as url:  # offline
        monkeypatch.setenv(datasets.MIRROR_ENV, url)
        assert main(["datasets", "fetch", "tiny"]) == 0
    err = capsys.readouterr().err
    assert "converting tiny from" in err and "no download" in err and url not in err


# --- the command line ---------------------------------------------------------------------------

def test_the_listing_names_every_set_with_its_source(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    for data in CATALOG:
        assert data.name in out and data.repo in out
    assert "49,151" in out and "by hand" in out


def test_unknown_names_are_usage_errors(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path))
    assert main(["datasets", "fetch", "nosuchset"]) == 2
    assert "no data set named 'nosuchset'; known sets: royle17" in capsys.readouterr().err
    assert main(["solve", "nosuchset"]) == 2
    assert "nor a data set of that name" in capsys.readouterr().err


def test_a_name_works_in_solve_and_rate(server, monkeypatch, capsys):
    tiny_set(monkeypatch)
    server.files["tiny.txt"] = TINY
    assert main(["solve", "tiny", "-b", "mrv", "--format", "line"]) == 0
    assert capsys.readouterr().out.split() == [SOLUTION, SOLUTION]
    assert main(["rate", "tiny", "--no-guesses", "--format", "csv"]) == 0
    assert "tiny#2" in capsys.readouterr().out


def test_a_shipped_set_installs_without_a_network(monkeypatch, tmp_path):
    """norvig_hardest (the README's and the notebook's set) ships with the package: an empty
    cache and a mirror that refuses every connection still give it; top95 does not ship."""
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(datasets.MIRROR_ENV, "http://127.0.0.1:9")  # the discard port: refused
    assert datasets.next_step("norvig_hardest") == (
        "converting norvig_hardest from the copy shipped with sudoku-cp (no download)")
    entries = read_puzzles(datasets.fetch("norvig_hardest"))
    assert [e.puzzle.name for e in entries] == [f"norvig_hardest#{k}" for k in range(1, 12)]
    assert datasets.next_step("top95").startswith("fetching top95 from http://127.0.0.1:9/")
    with pytest.raises(datasets.DatasetError, match="cannot download top95"):
        datasets.fetch("top95")


def test_bench_on_top95_after_one_fetch(server, tmp_path, capsys, monkeypatch):
    """The first-use check: `bench --backends hybrid sat --puzzles top95` on a fresh cache (the
    entry pinned to the sample of its first 10 lines that the local server serves)."""
    server.root = UPSTREAM
    body = (UPSTREAM / "top95.txt").read_bytes()
    monkeypatch.setitem(BY_NAME, "top95", dataclasses.replace(
        BY_NAME["top95"], sha256=hashlib.sha256(body).hexdigest(), size=len(body), puzzles=10))
    backends = ["hybrid", "sat"] if "sat" in datasets_backends() else ["hybrid"]
    out = tmp_path / "r"
    code = main(["bench", "--backends", *backends, "--puzzles", "top95", "--out", str(out),
                 "--max-puzzles", "5", "--timeout", "20"])
    assert code == 0, capsys.readouterr().err
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert {r["puzzle"] for r in rows} == {f"top95#{k}" for k in range(1, 6)}
    assert {r["status"] for r in rows} == {"solved"} and len(rows) == 5 * len(backends)


def datasets_backends() -> list[str]:
    from sudokucp.backends import available_backends

    return available_backends()
