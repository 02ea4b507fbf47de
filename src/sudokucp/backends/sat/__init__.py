"""SAT backends over the CNF of sudokucp.encodings.cnf: pycosat (sat) and PySAT (pysat)."""
