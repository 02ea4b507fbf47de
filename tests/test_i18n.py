"""English and French: every message of the code has its French entry with the same fields, both
render; the language follows --lang, then the environment; the French output reads as French."""

from __future__ import annotations

import ast
import gettext
import io
import re
import string
from pathlib import Path

import pytest

from sudokucp import i18n
from sudokucp.cli import main
from sudokucp.i18n import CatalogueError, _, catalogue, compile_mo, ngettext, read_po, speaking
from sudokucp.io.formats import load_puzzles
from sudokucp.teaching import ladder, replay
from sudokucp.teaching.explain import explain
from sudokucp.teaching.trace import record

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sudokucp"
SEEDS = ROOT / "puzzles" / "seeds"
MARKERS = ("_", "N_")
CALLED = re.compile(r"(?<![\w.])(N_|_|ngettext)\s*\(")  # a call of a marker or of ngettext


def code_messages() -> dict[object, str]:
    """Every message the code asks for: the literal first argument of _() and N_(), the two of
    ngettext(), and each {{text}} of the HTML templates; with where it is."""
    found: dict[object, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not CALLED.search(source):
            continue  # no call of a marker: not worth parsing (most modules; once per worker)
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [a.value for a in node.args[:2] if isinstance(a, ast.Constant)
                     and isinstance(a.value, str)]
            where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
            if node.func.id in MARKERS and texts:
                found.setdefault(texts[0], where)
            elif node.func.id == "ngettext" and len(texts) == 2:
                found.setdefault(tuple(texts), where)
    for path in sorted(PACKAGE.rglob("templates/*.html")):
        for text in re.findall(r"\{\{([^{}]+)\}\}", path.read_text(encoding="utf-8")):
            if text != "lang":
                found.setdefault(text, str(path.relative_to(PACKAGE)))
    return found


MESSAGES = code_messages()
FRENCH = catalogue("fr")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(autouse=True)
def english_again():
    """--lang sets the language for the rest of a process: each test starts from the
    environment's and leaves it so."""
    i18n.set_language(None)
    yield
    i18n.set_language(None)


def test_the_scan_finds_the_messages_of_every_kind():
    assert "naked pair" in MESSAGES and "given" in MESSAGES  # an N_ and a template's
    assert ("{shape}, {count} given", "{shape}, {count} givens") in MESSAGES  # an ngettext
    assert len(MESSAGES) > 150


def test_every_message_has_a_french_entry():
    missing = [f"{where}: {key!r}" for key, where in MESSAGES.items() if key not in FRENCH]
    assert missing == [], "add to src/sudokucp/i18n/fr.po:\n" + "\n".join(missing)


def test_no_french_entry_is_left_over():
    stale = [key for key in FRENCH if key != "" and key not in MESSAGES]
    assert stale == [], "no longer in the code, remove from fr.po: " + repr(stale)


@pytest.mark.parametrize("key", sorted(MESSAGES, key=str), ids=lambda k: str(k)[:40])
def test_every_message_renders_in_both_languages(key):
    """The French text keeps the English fields, and both render with every field given."""
    english = list(key) if isinstance(key, tuple) else [key]
    french = FRENCH[key] if isinstance(key, tuple) else [FRENCH[key]]
    assert {frozenset(fields(t)) for t in english + french} == {frozenset(fields(english[0]))}
    values = {name: f"<{name}>" for name in fields(english[0])}
    for language, expected in (("en", english), ("fr", french)):
        with speaking(language):
            if isinstance(key, tuple):
                shown = [ngettext(*key, n).format(**values) for n in (1, 2)]
                assert shown == [t.format(**values) for t in expected]
            else:
                assert _(key).format(**values) == expected[0].format(**values)


def test_the_environment_names_the_language_as_gettext_reads_it():
    read = i18n.from_environment
    assert read({}) == "en"
    assert read({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert read({"LANG": "fr_CA"}) == "fr"
    assert read({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}) == "fr"  # a list, in order
    assert read({"LC_ALL": "C.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"  # the first set decides
    assert read({"LC_MESSAGES": "de_DE"}) == "en"


def test_set_language_refuses_an_unknown_one_and_speaking_restores(monkeypatch):
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.language() == "fr"
    with pytest.raises(ValueError, match="unknown language 'de': choose en or fr"):
        i18n.set_language("de")
    assert i18n.set_language("en") == "en"
    with speaking("fr"):
        assert _("naked pair") == "paire nue"
    assert _("naked pair") == "naked pair"


def test_the_po_reader_and_mo_writer_make_what_gettext_reads():
    text = r'''
# a comment
msgid ""
msgstr "Plural-Forms: nplurals=2; plural=(n > 1);\n"

msgid "one {x}"
msgstr "un {x}"

msgid "a \"quoted\"\n"
"line"
msgstr "une \"citée\"\n"
"ligne"

#, fuzzy
msgid "unsure"
msgstr "incertain"

msgid "{n} cell"
msgid_plural "{n} cells"
msgstr[0] "{n} case"
msgstr[1] "{n} cases"
'''
    entries = read_po(text)
    assert "unsure" not in entries  # fuzzy: left out
    found = gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))
    assert found.gettext("one {x}") == "un {x}"
    assert found.gettext('a "quoted"\nline') == 'une "citée"\nligne'
    assert found.gettext("unsure") == "unsure"
    assert [found.ngettext("{n} cell", "{n} cells", n) for n in (0, 1, 2)] == [
        "{n} case", "{n} case", "{n} cases"]  # French: 0 is singular


def test_a_bad_po_line_is_named():
    with pytest.raises(CatalogueError, match=r"x.po: line 2: cannot read 'msgstr oops'"):
        read_po('msgid "a"\nmsgstr oops\n', "x.po")


def test_explain_in_french_names_cells_units_and_techniques_as_french_solvers_do():
    puzzle = load_puzzles(SEEDS / "002-logic-9x9.txt")[0]
    with speaking("fr"):
        moves = list(explain(puzzle))
    texts = [m.text for m in moves]
    assert texts[-1] == "résolu : chaque case contient un chiffre"
    pattern = (r"singleton caché : dans (la ligne|la colonne|le bloc) \d+, le chiffre \d ne peut "
               r"aller qu'en L\d+C\d+")
    assert any(re.fullmatch(pattern, t) for t in texts), texts[:5]
    assert not any(re.search(r"\br\d+c\d+\b|\brow\b|\bdigit\b", t) for t in texts)
    assert [m.technique for m in moves] == [m.technique for m in explain(puzzle)]  # JSON keys


def test_hints_in_french_with_lang_and_with_the_environment(capsys, monkeypatch):
    path = str(SEEDS / "001-main.txt")
    assert main(["explain", "--hint", "--lang", "fr", path]) == 0
    assert capsys.readouterr().out.strip() == "Cherchez un singleton caché."
    i18n.set_language(None)
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main(["explain", "--hint", "--level", "2", path]) == 0
    assert capsys.readouterr().out.strip() == "Cherchez un singleton caché dans la ligne 2."
    assert main(["explain", "--hint", "--lang", "en", path]) == 0
    assert capsys.readouterr().out.strip() == "Look for a hidden single."


def test_an_unknown_lang_is_a_one_line_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["explain", "--lang", "klingon", str(SEEDS / "001-main.txt")])
    assert stop.value.code == 2
    assert "unknown language 'klingon': choose en or fr" in capsys.readouterr().err


def test_the_ladder_table_in_french_writes_numbers_the_french_way():
    runs = [ladder.Run("none", "set", "9x9", "p", "solved", True, 1.5, 12345.0, 10.0)]
    with speaking("fr"):
        text = ladder.markdown(ladder.table(runs, ladder.RUNGS[:1]), 0.5)
    assert text.startswith("| grilles | taille | échelon |")
    assert "aucune propagation (retour sur trace naïf)" in text
    assert "12\u202f345" in text and "1\u202f500,00" in text
    assert "Limite de temps 0,5 s par exécution" in text


def test_the_replay_page_in_french_has_no_english_left_in_its_words():
    puzzle = load_puzzles(SEEDS / "004-telegram.txt")[0]
    from sudokucp.backends import get_backend

    events = record(get_backend("naive"), puzzle, max_steps=50)
    with speaking("fr"):
        page = replay.render(events)
    assert '<html lang="fr">' in page and "{{" not in page and "__WORDS__" not in page
    assert ">indice</span>" in page and "Profondeur de la recherche" in page
    assert '"GoForward : {cell} = {digit} (hypoth\\u00e8se, profondeur {depth})"' in page
    english = replay.render(events)
    assert '<html lang="en">' in english and ">given</span>" in english


def test_the_progress_line_and_the_trace_message_in_french(tmp_path, capsys):
    from sudokucp.cli.progress import Progress

    now = [0.0]
    progress = Progress(4, io.StringIO(), clock=lambda: now[0])
    now[0] = 2.0
    progress()
    progress()
    progress()
    with speaking("fr"):
        line = progress.line(now[0])
    assert line.endswith("3/4  1,5 exécutions/s  reste 0:00:00  écoulé 0:00:02"), line
    target = tmp_path / "page.html"
    code = main(["trace", str(SEEDS.parent / "examples/4x4.txt"), "--html", str(target),
                 "--max-steps", "3", "--lang", "fr"])  # cut short: exit status 1
    err = capsys.readouterr().err
    assert code == 1 and f"sudoku-cp: {target} écrit : 3 étapes, arrêtée à 3 étapes" in err, err


def test_bench_says_its_counts_in_french(tmp_path, capsys):
    """The runs done, the runs by status (the tables' own status words) and the files written."""
    out = tmp_path / "out"
    code = main(["bench", "--backends", "mrv", "--puzzles", str(SEEDS.parent / "examples/4x4.txt"),
                 "--out", str(out), "--jobs", "1", "--lang", "fr"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    runs = len((out / "results.jsonl").read_text().splitlines())
    assert runs > 1 and lines[0] == f"{runs} exécutions faites, 0 déjà dans {out}/results.jsonl"
    assert lines[1] == f"{runs} exécutions : {runs} solved"
    wrote = next(line for line in lines if line.startswith("écrit : "))
    assert str(out / "summary.md") in wrote
    assert lines[-3:-1] == ["Réponse :", lines[-2]] and "mrv 1 (le plus rapide)" in lines[-2]
    assert lines[-1].startswith("Classement par grilles résolues")  # the answer ends the output
