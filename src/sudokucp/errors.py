"""Errors every layer may raise and catch."""


class OptionError(ValueError):
    """An option a backend does not have, or a value it does not accept."""
