"""The logic engine: propagation (tables, board, place / eliminate / settle), the techniques."""
