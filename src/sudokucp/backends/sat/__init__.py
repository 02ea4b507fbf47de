"""SAT backends: the shared CNF encoding, pycosat (sat) and PySAT (pysat)."""
