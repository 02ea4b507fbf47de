"""When `sudoku-cp compare` calls a run or a backend slower: its ratios and time floors."""

SLOWER = 2.0  # per run: a run regressed when it takes more than this many times as long
SLOWER_PAIRED = 1.1  # paired: a backend regressed when its interval lies above this ratio
FLOOR_MS = 10.0  # per run: times under this count as this much when two runs are compared
FLOOR_MS_PAIRED = 0.01  # paired: repeats and medians take the noise; CPU time counts in us
