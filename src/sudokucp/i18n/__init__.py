"""The language of the messages: English (the text in the code) or French, through the standard
library's gettext.

A message is English text with named fields ("{cell} can only be {digit}"): `_(text)` gives it in
the current language, `ngettext(one, many, n)` picks a plural form, and `N_(text)` marks a
constant that is translated where it is used. The French catalogue is `fr.po` beside this module;
`catalogue` compiles it in memory, on first use, into the bytes of a .mo file that
`gettext.GNUTranslations` reads: no build step, nothing generated in the tree.

The language is the one `set_language` chose, else the one the environment names the way gettext
reads it (the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set: fr_FR.UTF-8 gives
French), else English.
"""

from __future__ import annotations

import contextlib
import gettext
import io
import os
import re
import struct
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.resources import files

LANGUAGES = ("en", "fr")  # English first: the text in the code
DEFAULT = "en"
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order
HEADER = ("Content-Type: text/plain; charset=UTF-8\n"
          "Plural-Forms: nplurals=2; plural=(n > 1);\n")  # the lines a catalogue's header lacks

_chosen: str | None = None  # set_language's choice; None: the environment's


class CatalogueError(ValueError):
    """A .po file this reader cannot read: names the line and the reason."""


def code_of(name: str) -> str | None:
    """'fr' for 'fr', 'fr_FR.UTF-8' or 'fr-CA'; None for a language without a catalogue."""
    code = re.split(r"[_.@-]", name.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment names: its first variable set decides (a LANGUAGE list is
    read in order); English when it names none that has a catalogue."""
    environ = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = environ.get(variable)
        if value:
            found = (code_of(item) for item in value.split(":") if item)
            return next((code for code in found if code), DEFAULT)
    return DEFAULT


def language() -> str:
    """The language messages are given in now: 'en' or 'fr'."""
    return _chosen or from_environment()


def set_language(name: str | None) -> str:
    """Give every message from now on in `name` ('fr', 'fr_FR.UTF-8', 'en'); None follows the
    environment again. Returns the language now in use; an unknown one is a ValueError."""
    global _chosen
    if name is None:
        _chosen = None
        return language()
    code = code_of(name)
    if code is None:
        raise ValueError(f"unknown language {name!r}: choose {' or '.join(LANGUAGES)}")
    _chosen = code
    return code


@contextlib.contextmanager
def speaking(name: str | None) -> Iterator[str]:
    """Messages in `name` while the block runs, then in the language of before."""
    global _chosen
    before = _chosen
    try:
        yield set_language(name)
    finally:
        _chosen = before


def N_(message: str) -> str:  # noqa: N802 (gettext's name for a marked constant)
    """`message` itself: marks a constant for the catalogue; translate it where it is used."""
    return message


def _(message: str) -> str:
    """`message` in the current language (itself in English, or when it has no translation)."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count `n`, in the current language."""
    return translations(language()).ngettext(singular, plural, n)


def number(value: float, digits: int | None = None) -> str:
    """`value` as the language writes numbers: with `digits` decimals and thousands grouped
    (1,234.50; in French 1 234,50), or as %g writes it (2, 0.5; in French 0,5)."""
    text = f"{value:g}" if digits is None else f"{value:,.{digits}f}"
    if language() == "fr":
        return text.replace(",", "\u202f").replace(".", ",")
    return text


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The translations of a language: none for English, the compiled catalogue for another."""
    if code == DEFAULT:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_mo(catalogue(code))))


# --- the catalogues: a small .po reader and a .mo writer ------------------------------------------

Key = str | tuple[str, str]  # a msgid, or (msgid, msgid_plural)
Entries = dict[Key, str | list[str]]


def catalogue(code: str) -> Entries:
    """The entries of a language's .po file: msgid -> msgstr, (msgid, plural) -> forms."""
    text = files("sudokucp.i18n").joinpath(f"{code}.po").read_text(encoding="utf-8")
    return read_po(text, f"{code}.po")


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
LINE = re.compile(r'^(msgid|msgid_plural|msgstr|msgstr\[(\d+)\])\s+"(.*)"\s*$')
MORE = re.compile(r'^"(.*)"\s*$')


def unescape(text: str, where: str) -> str:
    """A PO string's body with its escapes (\\n \\t \\" \\\\) read."""
    def one(match: re.Match[str]) -> str:
        if match.group(1) not in ESCAPES:
            raise CatalogueError(f"{where}: unknown escape \\{match.group(1)}")
        return ESCAPES[match.group(1)]
    return re.sub(r"\\(.)", one, text)


def read_po(text: str, name: str = "catalogue") -> Entries:
    """Entries of a .po text: msgid, msgid_plural, msgstr and msgstr[n], strings continued on
    the lines below, comments skipped; fuzzy and empty translations left out."""
    entries: Entries = {}
    fields: dict[str, str] = {}
    current: str | None = None
    fuzzy = marked = False  # the entry read is fuzzy; the comments since it say fuzzy
    for number, line in enumerate(text.splitlines(), 1):
        where, line = f"{name}: line {number}", line.strip()
        if not line or line.startswith("#"):
            marked |= line.startswith("#,") and "fuzzy" in line
            continue
        start, more = LINE.match(line), MORE.match(line)
        if start and start.group(1) == "msgid":
            if fields:
                _keep(entries, fields, fuzzy, where)
            fields, fuzzy, marked = {}, marked, False
        if start:
            current = start.group(1)
            fields[current] = unescape(start.group(3), where)
        elif more and current is not None:
            fields[current] += unescape(more.group(1), where)
        else:
            raise CatalogueError(f"{where}: cannot read {line[:40]!r}")
    if fields:
        _keep(entries, fields, fuzzy, f"{name}: end")
    return entries


def _keep(entries: Entries, fields: dict[str, str], fuzzy: bool, where: str) -> None:
    """One read entry into `entries`, unless fuzzy or untranslated (the header is kept)."""
    if "msgid" not in fields:
        raise CatalogueError(f"{where}: a translation without its msgid")
    msgid = fields["msgid"]
    if "msgid_plural" in fields:
        forms = [fields[k] for k in sorted(f for f in fields if f.startswith("msgstr["))]
        if forms and all(forms) and not fuzzy:
            entries[(msgid, fields["msgid_plural"])] = forms
    elif fields.get("msgstr") and (not fuzzy or msgid == ""):
        entries[msgid] = fields["msgstr"]


def compile_mo(entries: Entries) -> bytes:
    """The bytes of a GNU .mo file holding `entries` (as msgfmt writes it, without a hash
    table); the header says UTF-8 and French plurals unless the catalogue's says otherwise."""
    header = str(entries.get("", ""))
    header += "".join(line + "\n" for line in HEADER.splitlines()
                      if line.split(":")[0] not in header)
    pairs = {"": header} | {_mo_key(k): _mo_value(v) for k, v in entries.items() if k != ""}
    keys = sorted(pairs)
    ids = [k.encode("utf-8") for k in keys]
    strs = [pairs[k].encode("utf-8") for k in keys]
    start = 7 * 4 + 16 * len(keys)  # header, then the two tables of (length, offset)
    offsets, data = [], b""
    for blob in ids + strs:
        offsets.append((len(blob), start + len(data)))
        data += blob + b"\0"
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    table = b"".join(struct.pack("ii", length, offset) for length, offset in offsets)
    return head + table + data


def _mo_key(key: Key) -> str:
    return key if isinstance(key, str) else "\0".join(key)


def _mo_value(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "\0".join(value)


__all__ = ["LANGUAGES", "N_", "_", "CatalogueError", "catalogue", "compile_mo",
           "from_environment", "language", "ngettext", "number", "read_po", "set_language",
           "speaking"]
