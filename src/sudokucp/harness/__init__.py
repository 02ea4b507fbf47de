"""The harness: a bench planned, run on an executor, its rows verified and logged.

`bench.py` runs a bench in its folder over `runplan.py` (contenders, data sets, the shuffled
plan), `runcheck.py` (verified rows, time limits, cross-validation), `measurement.py` (loads and
calibration points) and `runlog.py` (the append-only results log)."""
