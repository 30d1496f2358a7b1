"""Command-line shells over the library; one module per command group."""
