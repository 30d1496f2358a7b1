"""tsolve: temporal reasoning tasks compiled to constraints."""

__version__ = "0.1.0"
