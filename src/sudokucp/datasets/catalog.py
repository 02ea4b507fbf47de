"""The catalogue: named public collections, each pinned to a commit, a SHA-256 and a size.

The pins are those of the project's data-set manifest: the exact upstream bytes at a commit of a
public repository. A set without a pin (too large for the manifest) is listed with its source
only; `sudoku-cp datasets add NAME FILE` installs a copy obtained by hand. The killer sets hold
one puzzle each (a JSON cage list), converted to a variant block.
"""

from __future__ import annotations

from dataclasses import dataclass

RAW = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class DataSet:
    """One named collection: where its upstream file is, what it holds, how to convert it."""

    name: str
    title: str
    puzzles: int | None  # in the converted file (after `side` selects); None: not known here
    shape: str  # "9x9", or "mixed"
    licence: str
    repo: str  # owner/name, or the page the file comes from
    path: str  # the file inside the repository (or the archive member)
    url: str
    converter: str  # a key of convert.CONVERTERS
    raw: str  # the upstream file's name in the cache and on a mirror
    sha256: str | None = None  # None: not pinned, so never downloaded automatically
    size: int | None = None  # bytes of the upstream file
    commit: str = ""
    side: int | None = None  # keep only the grids of this side (one file, several sets)
    notes: str = ""

    @property
    def pinned(self) -> bool:
        return self.sha256 is not None


def _github(repo: str, commit: str, path: str, quoted: str | None = None) -> str:
    return f"{RAW}/{repo}/{commit}/{quoted or path}"


NORVIG = ("norvig/pytudes", "414fe258a4181c2a819959d9a29bfcbe4c4b19c7")
BALMER = ("balmerdx/sudoku_pytorch", "9c4391b1ea32bb7a9587f668fa51f35473e68e24")
TDOKU = ("t-dillon/tdoku", "af426180dc53aef89b82868e7b3fdfcf42165654")
GECODE = ("Gecode/gecode", "e1ec3da365f6c927d937b5ae9266d892a1cb9807")
GECODE_SHA = "4427e2b95ebbfa69ffab4dd32356dd3d1c48ba121ff15475ab3871ec7e652ad1"
KILLERS = ("Wikunia/ConstraintSolver.jl", "e99db3814e88818222174e086a3024b9076fcaa1")
KILLER_LICENCE = "MIT (repo); puzzle source terms not stated"
TDOKU_NOTE = "tdoku benchmark file; tdoku itself is BSD-2-Clause, the data's terms are not stated"


def _pinned(name: str, title: str, puzzles: int, licence: str, where: tuple[str, str],
            path: str, sha256: str, size: int, converter: str = "lines", raw: str = "",
            quoted: str | None = None, shape: str = "9x9", side: int | None = None,
            notes: str = "") -> DataSet:
    repo, commit = where
    return DataSet(name, title, puzzles, shape, licence, repo, path,
                   _github(repo, commit, path, quoted), converter, raw or f"{name}.txt",
                   sha256, size, commit, side, notes)


def _gecode(name: str, title: str, puzzles: int, shape: str, side: int | None) -> DataSet:
    return _pinned(name, title, puzzles, "MIT", GECODE, "examples/sudoku-instances.hh",
                   GECODE_SHA, 45418, "gecode", "gecode_instances.hh", shape=shape, side=side,
                   notes="named by Gecode's instance number (#0 to #90)")


def _killer(name: str, title: str, stem: str, sha256: str, size: int) -> DataSet:
    return _pinned(name, title, 1, KILLER_LICENCE, KILLERS,
                   f"benchmark/killer_sudoku/data/{stem}", sha256, size, "killer",
                   f"{name}.json", notes="a killer as a JSON list of cages (ConstraintSolver.jl's "
                                         "killer benchmark), no givens; unique")


CATALOG: tuple[DataSet, ...] = (
    _pinned("royle17", "Gordon Royle's 17-clue puzzles", 49151, "unknown",
            ("rikshot/rustdoku", "5fa5444c886f8bcdcd96f8000e639bb4dc1ac1d4"), "sudoku17",
            "a4370dcc617e56fdb88958f9fe8b015fbeb397caab68a75065427fafa2afc32f", 4030382,
            notes="0 for blanks; the repository states no licence"),
    _pinned("top95", "Norvig's top95 hard set", 95, "MIT", NORVIG, "py/sudoku-top95.txt",
            "b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36", 7790),
    _pinned("norvig_hardest", "Norvig's 'hardest' set", 11, "MIT", NORVIG,
            "py/sudoku-hardest.txt",
            "398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f", 902),
    _pinned("magictour_top1465", "magictour top1465", 1465, "unknown", BALMER,
            "data/puzzles3_magictour_top1465",
            "ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce", 120176,
            notes=TDOKU_NOTE),
    _pinned("forum_hardest_1106", "Enjoy Sudoku forum hardest list, 2011-06", 375, "unknown",
            BALMER, "data/puzzles6_forum_hardest_1106",
            "45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06", 30863,
            notes=TDOKU_NOTE),
    _pinned("forum_hardest_1905_11plus", "forum hardest 1905, rated 11+ in Sudoku Explainer",
            48766, "unknown", BALMER, "data/puzzles5_forum_hardest_1905_11+",
            "56236eaf6c7445ea244db3423ec44a102349dbedf6e457af0fcdd3d07cf39996", 3998812,
            quoted="data/puzzles5_forum_hardest_1905_11%2B", notes=TDOKU_NOTE),
    _pinned("serg_benchmark", "Serg's benchmark: grids with 2 or more solutions", 10000,
            "unknown", BALMER, "data/puzzles7_serg_benchmark",
            "5468125857f02cb1e9b1fc6ba36ac88dc8d75afa47bc030c507cdfefbfe0eeaa", 830065,
            notes="CRLF lines; not proper sudoku (several solutions each); " + TDOKU_NOTE),
    _pinned("tdoku_test_puzzles", "tdoku's solver tests with solution counts", 43,
            "BSD-2-Clause", TDOKU, "test/test_puzzles",
            "b88edd4dead0de1fd7b1db6018f00a38be430674b3eb944927ebfe66b1d7a13e", 5112,
            "counted", notes="puzzle:count[:solution]; 0, 1 and 3 to 847 solutions"),
    _gecode("gecode_instances", "Gecode's example instances, every size", 91, "mixed", None),
    _gecode("gecode_9x9", "Gecode's 9x9 example instances", 18, "9x9", 9),
    _gecode("gecode_16x16", "Gecode's 16x16 example instances", 55, "16x16", 16),
    _gecode("gecode_25x25", "Gecode's 25x25 example instances", 18, "25x25", 25),
    _pinned("sudopedia_invalid", "Sudopedia's invalid test cases (7 of 15), labelled", 7,
            "AGPL-3.0", ("Emerentius/sudoku", "b3f8f46945fe3ac78e49d32162e8ef7ed12a99c6"),
            "sudokus/invalid_sudokus.txt",
            "4b839479db11a5ea673779a7690dc9932f750847cc3dd43fed143cec396121d1", 687,
            notes="duplicate givens and unsolvable grids; Sudopedia's text is GFDL"),
    _killer("killer_en_wikipedia", "Wikipedia's killer sudoku example", "en_wikipedia",
            "b447089db9da356e504a314cdab579fe24aacdf0ba796bd1ef7b0f4e41d740a0", 7974),
    _killer("killer_niallsudoku_5500", "niallsudoku.com killer 5500", "niallsudoku_5500",
            "b48e2556ce3ed857ef26d6e2ab4b52b2f5d6b081da2bb8ab99249e9089efa711", 7452),
    _killer("killer_niallsudoku_5501", "niallsudoku.com killer 5501", "niallsudoku_5501",
            "8ff0f2729eff5f98a76990b0ed523f1508611961ab19f8d697abfa10f7f29210", 7163),
    _killer("killer_niallsudoku_5502", "niallsudoku.com killer 5502", "niallsudoku_5502",
            "99862ba87c736d7a5525846e9f804a65680d0fdbf88f5d0d125a597f0be27972", 1483),
    _killer("killer_niallsudoku_5503", "niallsudoku.com killer 5503", "niallsudoku_5503",
            "b8c749a8c1ac237e36ed5fb31949205decd277b218dbc3d177d989dda06ffd3d", 1366),
    _killer("killer_niallsudoku_6249", "niallsudoku.com killer 6249", "niallsudoku_6249",
            "0d811b0571e2781f20d825bfef50d9f92de317f66bb5be6a6f2386cad74f1539", 3630),
    _killer("killer_niallsudoku_6417", "niallsudoku.com killer 6417", "niallsudoku_6417",
            "c2fb0f9322740e1352a84e220bfa839a5ab73db0d7cc15a9d82062540533ef32", 3791),
    DataSet("kaggle_1m", "Kaggle's 1 million Sudoku games (quizzes,solutions CSV)", 1000000,
            "9x9", "see the source page", "https://www.kaggle.com/datasets/bryanpark/sudoku",
            "sudoku.csv", "https://www.kaggle.com/datasets/bryanpark/sudoku", "csv",
            "sudoku.csv", notes="not pinned: Kaggle needs a login; download sudoku.csv, then "
                                "`sudoku-cp datasets add kaggle_1m sudoku.csv`"),
    DataSet("tdoku_unbiased", "tdoku's unbiased set (puzzles1_unbiased)", 1000000, "9x9",
            "unknown", TDOKU[0], "data.zip: puzzles1_unbiased",
            _github(*TDOKU, "data.zip"), "lines", "puzzles1_unbiased", commit=TDOKU[1],
            notes="not pinned: a member of tdoku's data.zip (too large for the manifest); "
                  "unzip it, then `sudoku-cp datasets add tdoku_unbiased puzzles1_unbiased`"),
    DataSet("tdoku_kaggle", "tdoku's Kaggle sample (puzzles0_kaggle)", None, "9x9", "unknown",
            TDOKU[0], "data.zip: puzzles0_kaggle", _github(*TDOKU, "data.zip"), "lines",
            "puzzles0_kaggle", commit=TDOKU[1],
            notes="not pinned: a member of tdoku's data.zip (too large for the manifest); "
                  "unzip it, then `sudoku-cp datasets add tdoku_kaggle puzzles0_kaggle`"),
)

BY_NAME: dict[str, DataSet] = {d.name: d for d in CATALOG}
