"""The machine a run measures on: `calibration.py` (a fixed loop timed among the runs, the noise
it shows, the machine's facts) and `processes.py` (the processes a run starts, reaped and killed
whole)."""
