"""The textbook CSP backend and its variable and value orders."""
