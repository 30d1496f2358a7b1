"""``python -m tsolve`` runs the CLI."""

from tsolve.cli.app import main

main()
