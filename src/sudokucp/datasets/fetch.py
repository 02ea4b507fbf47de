"""Download (pooch, checked against the pinned SHA-256), install by hand, convert, cache.

The cache is the user's cache folder (platformdirs), or $SUDOKUCP_CACHE: `raw/` keeps the
upstream bytes, `<name>.txt` the converted set and `<name>.txt.sha256` its SHA-256, recorded at
conversion and checked on every use (an altered file is converted again from the upstream one).
The few small sets the examples use ship with the package (`shipped/`, the upstream bytes on
their pin): they install without a network.
$SUDOKUCP_MIRROR, a base URL, replaces each pinned URL by MIRROR/<upstream file name> (a local
copy of the upstream files; the tests use one).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import urlsplit

from sudokucp.datasets.catalog import BY_NAME, DataSet
from sudokucp.datasets.convert import ConvertError, convert, to_text
from sudokucp.io.files import NotWritable, atomic_write, writable_folder, write_error, write_text

CACHE_ENV, MIRROR_ENV = "SUDOKUCP_CACHE", "SUDOKUCP_MIRROR"
SHIPPED = Path(__file__).parent / "shipped"  # the upstream files of the sets the examples use
EXTRA = "pip install 'sudoku-cp[datasets]'"
SCHEMES = ("https", "http", "ftp")  # the URLs pooch downloads
TIMEOUT = 30  # seconds without a byte before a download is given up
CAUSE = re.compile(r"\[Errno -?\d+\] [^'\")]+|IncompleteRead\([^)]*\)")  # in requests' text


class DatasetError(Exception):
    """A set that cannot be had: unknown name, download refused or failed, file off its pin."""


def get(name: str) -> DataSet:
    """The catalogue entry of `name`; an unknown name lists the known ones."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise DatasetError(f"no data set named {name!r}; known sets: "
                           f"{', '.join(BY_NAME)} (`sudoku-cp datasets` lists them)") from None


def cache_dir() -> Path:
    """$SUDOKUCP_CACHE, or the user's cache folder for sudoku-cp."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    try:
        import platformdirs
    except ModuleNotFoundError:
        raise DatasetError(f"the data-set cache needs platformdirs: {EXTRA} (or set "
                           f"{CACHE_ENV} to a folder)") from None
    return Path(platformdirs.user_cache_dir("sudoku-cp"))


def converted_path(data: DataSet) -> Path:
    return cache_dir() / f"{data.name}.txt"


def raw_path(data: DataSet) -> Path:
    return cache_dir() / "raw" / data.raw


def source_url(data: DataSet) -> str:
    """The pinned URL, or its copy on the mirror named by $SUDOKUCP_MIRROR."""
    mirror = os.environ.get(MIRROR_ENV)
    return f"{mirror.rstrip('/')}/{data.raw}" if mirror else data.url


def digest_path(data: DataSet) -> Path:
    """Where the converted file's SHA-256 is recorded when it is made (sha256sum's format)."""
    return cache_dir() / f"{data.name}.txt.sha256"


def cached(name: str) -> Path | None:
    """The converted file of a set already fetched, else None."""
    path = converted_path(get(name))
    return path if path.is_file() else None


def _intact(data: DataSet) -> bool:
    """Whether the converted file is the one made at conversion: its SHA-256 the recorded one."""
    try:
        recorded = digest_path(data).read_text(encoding="ascii").split()[:1]
        return recorded == [sha256(converted_path(data))]
    except (OSError, UnicodeDecodeError):
        return False


def _checked(data: DataSet) -> Path | None:
    """The converted file when it is there and intact; None when it is missing, or altered but
    the upstream file is here to convert it again; an altered file with nothing to rebuild it
    from is a DatasetError."""
    target = converted_path(data)
    if not target.is_file():
        return None
    if _intact(data):
        return target
    if _raw_matches(data):
        return None
    raise DatasetError(f"{target}: the converted file of {data.name} does not match the SHA-256 "
                       f"recorded when it was made ({digest_path(data)}), and the upstream file "
                       f"is not in the cache to convert it again; remove {target} and run "
                       f"`sudoku-cp datasets fetch {data.name}`")


def next_step(name: str) -> str | None:
    """What fetch(name) does, in a line for the user: fetching from the URL, or converting the
    upstream file already in the cache; None when the set is converted or cannot be fetched.
    A cache that cannot take the files is a DatasetError here, before anything is said."""
    data = get(name)
    if _checked(data) is not None:
        return None
    writable_cache(data)
    if _raw_matches(data):
        return f"converting {name} from {raw_path(data)}, already downloaded (no download)"
    if shipped(data) is not None:
        return f"converting {name} from the copy shipped with sudoku-cp (no download)"
    return f"fetching {name} from {source_url(data)}" if data.pinned else None


def fetch(name: str, progress: bool = False) -> Path:
    """The converted file of `name`: from the cache when its SHA-256 is the one recorded at
    conversion, or converted again from the checked upstream file, downloaded if need be."""
    data = get(name)
    target = converted_path(data)
    if _checked(data) is not None:
        return target
    writable_cache(data)
    if not _raw_matches(data) and not _install_shipped(data):
        _download(data, progress)
    return _convert(data, raw_path(data), target)


def shipped(data: DataSet) -> Path | None:
    """The set's upstream file shipped with the package (the few small sets the examples
    use), when there is one on its pin."""
    copy = SHIPPED / data.raw
    return copy if data.pinned and copy.is_file() and sha256(copy) == data.sha256 else None


def _install_shipped(data: DataSet) -> bool:
    """Copy the shipped upstream file into the cache's raw/; whether there was one."""
    copy = shipped(data)
    if copy is None:
        return False
    _copy_in(copy, raw_path(data))
    return True


def _copy_in(source: Path, raw: Path) -> None:
    """Copy an upstream file into the cache's raw/, whole or not at all."""
    try:
        atomic_write(raw, lambda tmp: shutil.copyfile(source, tmp))
    except OSError as err:
        raise DatasetError(f"{write_error(err, raw)}; the data-set cache needs room, or set "
                           f"{CACHE_ENV} to another folder") from None


def _raw_matches(data: DataSet) -> bool:
    """Whether the cache holds the set's upstream file, on its pin when it has one."""
    raw = raw_path(data)
    try:
        return raw.is_file() and (not data.pinned or sha256(raw) == data.sha256)
    except OSError:  # unreadable: fetched again over it
        return False


def writable_cache(data: DataSet) -> None:
    """The cache folders of `data` made and able to take files, before any download; a
    DatasetError blames the cache, not the network."""
    try:
        writable_folder(raw_path(data).parent)
        writable_folder(converted_path(data).parent)
    except NotWritable as err:
        raise DatasetError(f"the data-set cache cannot hold {data.name}: {err}; set "
                           f"{CACHE_ENV} to a folder you can write") from None


def add(name: str, file: str | Path) -> tuple[Path, str]:
    """Install an upstream file obtained by hand: checked against the pin, kept, converted.

    Returns the converted file and the file's SHA-256."""
    data, source = get(name), Path(file)
    digest, size = _read_checksum(source)
    if data.pinned and (digest != data.sha256 or size != data.size):
        raise DatasetError(f"{source} is not the pinned file of {name}: SHA-256 {digest}, "
                           f"{size:,} bytes; expected {data.sha256}, {data.size:,} bytes "
                           f"(from {data.url})")
    writable_cache(data)
    raw = raw_path(data)
    _copy_in(source, raw)
    target = converted_path(data)
    target.unlink(missing_ok=True)
    digest_path(data).unlink(missing_ok=True)
    return _convert(data, raw, target), digest


def _read_checksum(source: Path) -> tuple[str, int]:
    """The SHA-256 and size of a file given by hand; a folder, a missing or unreadable file is
    a DatasetError saying which."""
    if source.is_dir():
        raise DatasetError(f"{source} is a folder: give the set's upstream file")
    if not source.exists():
        raise DatasetError(f"{source}: no such file")
    if not source.is_file():
        raise DatasetError(f"{source} is not a regular file (a device, a pipe or a socket): "
                           f"give the set's upstream file")
    try:
        return sha256(source), source.stat().st_size
    except OSError as err:
        raise DatasetError(f"cannot read {source}: {err.strerror or err}") from None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def by_hand(data: DataSet) -> str:
    """How to install a set without a network."""
    pin = (f" ({data.size:,} bytes, SHA-256 {data.sha256})" if data.pinned
           else f" ({data.path})")
    return (f"download {data.url}{pin} on a machine with a network, then run `sudoku-cp "
            f"datasets add {data.name} FILE` (or place the file at {raw_path(data)})")


def _download(data: DataSet, progress: bool) -> None:
    """Fetch the upstream file into raw/ with pooch; nothing is left there unless it matches."""
    if not data.pinned:
        raise DatasetError(f"{data.name} has no pinned checksum, so it is never downloaded "
                           f"automatically: {by_hand(data)}")
    url = source_url(data)
    scheme = urlsplit(url).scheme.lower()
    if scheme not in SCHEMES:
        given = f"{scheme}://" if scheme else "a path without one"
        raise DatasetError(f"cannot download {data.name} from {url}: a download needs an "
                           f"https://, http:// or ftp:// URL, not {given} (check {MIRROR_ENV}). "
                           f"To install it by hand: {by_hand(data)}")
    pooch = _pooch(data)
    pooch.get_logger().setLevel(logging.WARNING)
    try:
        pooch.retrieve(url, known_hash=f"sha256:{data.sha256}", fname=data.raw,
                       path=raw_path(data).parent,
                       downloader=pooch.HTTPDownloader(timeout=TIMEOUT, progressbar=_bar(progress)))
    except ValueError as err:  # pooch's checksum mismatch
        raise DatasetError(f"{url}: the download does not match the pinned SHA-256 of "
                           f"{data.name}, so it was not kept ({_first_line(err)})") from None
    except OSError as err:  # requests' errors are OSErrors: HTTP status, connection, cut short
        raise DatasetError(f"cannot download {data.name} from {url}: {_why(err)}. To install "
                           f"it by hand: {by_hand(data)}") from None


def _pooch(data: DataSet):  # the module, imported only to download
    try:
        import pooch
    except ModuleNotFoundError:
        raise DatasetError(f"downloading {data.name} needs pooch: {EXTRA}; or "
                           f"{by_hand(data)}") from None
    return pooch


def _bar(progress: bool) -> bool:
    """pooch's progress bar (tqdm) on a terminal, when tqdm is installed."""
    if not (progress and sys.stderr.isatty()):
        return False
    try:
        import tqdm  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


def _why(err: OSError) -> str:
    """One line on a failed download: the HTTP status, or what broke the connection."""
    response = getattr(err, "response", None)
    if response is not None:
        return f"HTTP {response.status_code} {response.reason}"
    kinds: dict[str, str] = {"ChunkedEncodingError": "the connection closed mid-file",
                             "ConnectionError": "no connection",
                             "Timeout": "no answer in time"}
    cause = CAUSE.search(str(err))
    detail = cause.group(0) if cause else _first_line(err)[:200]
    kind = next((kinds[c.__name__] for c in type(err).__mro__ if c.__name__ in kinds), "")
    return f"{kind} ({detail})" if kind else detail


def _first_line(err: Exception) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


def _convert(data: DataSet, raw: Path, target: Path) -> Path:
    """Convert the upstream file to the project's format, written whole or not at all."""
    try:
        items = convert(raw.read_bytes().decode("utf-8"), data.converter, data.side)
    except OSError as err:
        raise DatasetError(f"cannot read {raw}: {err.strerror or err}") from None
    except (UnicodeDecodeError, ConvertError) as err:
        raise DatasetError(f"{raw}: cannot convert {data.name}: {err}") from None
    if data.pinned and data.puzzles is not None and len(items) != data.puzzles:
        raise DatasetError(f"{raw}: {len(items)} puzzles converted, {data.puzzles} expected for "
                           f"{data.name}")
    text = to_text(items, header(data, len(items)), data.name)
    try:
        write_text(target, text)
        write_text(digest_path(data), f"{sha256(target)}  {target.name}\n")
    except OSError as err:
        raise DatasetError(f"{write_error(err, target)}; the data-set cache needs room, or set "
                           f"{CACHE_ENV} to another folder") from None
    return target


def header(data: DataSet, count: int) -> list[str]:
    """The provenance lines of a converted set."""
    return [f"{data.name}: {data.title} ({count:,} puzzles, {data.shape})",
            f"source: {data.url}",
            f"from {data.repo} at {data.commit or '?'}: {data.path}; licence: {data.licence}",
            f"upstream SHA-256: {data.sha256 or 'not pinned'}",
            f"converted by sudoku-cp ({data.converter}); {data.name}#K is puzzle K upstream"]

