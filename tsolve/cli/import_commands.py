"""``tsolve import``: another benchmark's published release, as tsolve records.

The group holds one subcommand per family that declares an ``import_cli``
part (:class:`tsolve.contract.Family`): ``tsolve import time-puzzles FILE
--out OUT.jsonl`` is the time-puzzles family's. Each is a thin shell over its
family's importer; see the subcommand's help for its exit codes.
"""

import typer


def register(app: typer.Typer) -> None:
    """Attach the ``import`` command group to ``app``, with each built-in
    family's importer (no entry-point scan: the root's commands are built-in)."""
    from tsolve.contract import builtin_families
    from tsolve.contract.family import resolve

    imp = typer.Typer(
        name="import",
        help="Read another benchmark's published release into tsolve records (Time Puzzles).",
        no_args_is_help=True,
    )
    app.add_typer(imp, name="import")
    for family in builtin_families():
        if family.import_cli is not None:
            resolve(family.import_cli)(imp)
