"""Puzzles made and rated: `generator.py` (classic grids, one solution, a rating asked for),
`variant_generator.py` over `variant_grids.py` (variants' structures, grids and rules) and
`rating.py` (the techniques a puzzle needs, its class)."""
