"""How far a bench's figures can be trusted: the load at the end, the calibration points and the
noise warnings of a sweep, and measurement.json, where `sudoku-cp report` finds them again."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sudokucp.executors.local import usable_cores
from sudokucp.io.files import write_text
from sudokucp.machine import calibration
from sudokucp.result import is_amount, is_real, is_strings

MEASUREMENT = ("measure", "repeat", "cpu_limit", "pin", "load", "load_end", "calibration",
               "warnings", "seed")  # the settings measurement.json keeps (report, --resume)
MEASUREMENT_FILE = "measurement.json"


def measurement(points: Sequence[calibration.Point], load_start: str) -> dict[str, Any]:
    """The load at the end, the calibration and the noise warnings, for the summary."""
    end = os.getloadavg()
    loads = [float(load_start.split()[0]), end[0]]
    found = calibration.warnings(points, loads, usable_cores()) if points else []
    return {"load_end": " ".join(f"{x:.2f}" for x in end),
            **({"calibration": calibration.summary(points)} if points else {}),
            "warnings": found}


def kept(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that measurement.json keeps, of those given."""
    return {k: settings[k] for k in MEASUREMENT if k in settings}


def write_measurement(out: Path, data: Mapping[str, Any]) -> None:
    """measurement.json beside the log: what `sudoku-cp report` shows of this bench's noise."""
    with contextlib.suppress(OSError):  # the tables say the same; the log holds every run
        write_text(out / MEASUREMENT_FILE, json.dumps(data, indent=1) + "\n")


def read_measurement(folder: Path) -> dict[str, Any]:
    """The measurement settings a bench left in `folder`, those of the expected types only ({}
    when none can be read): the file is input like any other."""
    try:
        data = json.loads((folder / MEASUREMENT_FILE).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: data[k] for k, ok in MEASUREMENT_TYPES.items() if k in data and ok(data[k])}


def _calibration(value: Any) -> bool:
    numbers = ("runs", "median_ms", "spread", "cpu_spread", "waiting")
    return isinstance(value, dict) and all(is_amount(value.get(k, 0)) for k in numbers) and all(
        isinstance(value.get(k, []), list) and all(map(is_amount, value.get(k, [])))
        for k in ("cpu_ms", "wall_ms"))


MEASUREMENT_TYPES: dict[str, Callable[[Any], bool]] = {
    "measure": lambda v: v in ("cpu", "wall"),
    "repeat": lambda v: is_real(v) and v >= 1,
    "cpu_limit": lambda v: v is None or (is_real(v) and v > 0),
    "pin": lambda v: isinstance(v, bool),
    "load": lambda v: isinstance(v, str),
    "load_end": lambda v: isinstance(v, str),
    "calibration": _calibration,
    "warnings": lambda v: isinstance(v, list) and is_strings(v),
    "seed": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
}
