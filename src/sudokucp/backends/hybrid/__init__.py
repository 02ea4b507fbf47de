"""The hybrid backend: logic between guesses, and its branching rules."""
