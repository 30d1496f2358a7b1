"""``tsolve tictoc``: TicToc tool-use alignment, computed from time.

Thin shells over :mod:`tsolve.families.tictoc` (``docs/tictoc.md``):

* ``score DATA... PREDICTIONS``: NAR and attempt rate with breakdowns
  (:func:`tsolve.families.tictoc.scoring.score`);
* ``audit DATA...``: timeline, sensitivity and B.5 checks per trajectory
  (:func:`tsolve.families.tictoc.audit.audit_samples`);
* ``timestamp FILE``: stamp conversations with the paper's time model
  (:func:`tsolve.families.tictoc.timestamp.stamp_file`);
* ``baseline DATA...``: always/never/freshness baselines
  (:func:`tsolve.families.tictoc.baseline.baseline_report`);
* ``convert DATA...``: the benchmark's files as tsolve's JSONL
  (:func:`tsolve.families.tictoc.data.to_record`).

Bad rows are reported on stderr (JSON output keeps them in the report too)
and the batch goes on. Exit code: 0 when everything was read and clean, 1
when a row was bad (and, for ``score``, a prediction missing or unmatched;
for ``audit``, a violation found), 2 when the input itself is unusable.
"""

import sys
from enum import Enum
from typing import Annotated, Any

import typer
from rich.table import Table

from tsolve.cli.output import (
    COMPACT,
    Fmt,
    console,
    err_console,
    json_text,
    say,
    user_text,
    write_json,
)
from tsolve.solver.backend_names import GENERATION_BACKENDS, choices_text


class Level(str, Enum):
    low = "low"
    medium = "medium"
    high = "high"


# The default (the enumerator) first, then the solvers.
BACKEND_HELP = (
    "Solver backend for the sensitivity model: "
    f"{choices_text(('enumerator', *GENERATION_BACKENDS))}."
)
DATA_HELP = (
    "TicToc data: prefer{Tool,NoTool}_elapse_{k}.json files, a bundle object, or tsolve JSONL."
)


def _report_bad(rows: list[Any]) -> None:
    err = err_console()
    for b in rows:
        say(err, "red", "bad row:", b)


DataArg = Annotated[list[str], typer.Argument(help=DATA_HELP)]
BackendOpt = Annotated[str, typer.Option(help=BACKEND_HELP)]


def _load(data: list[str]) -> tuple[list[Any], list[Any]]:
    """The samples of ``data`` and its bad rows."""
    from tsolve.families.tictoc.data import iter_samples, split_samples

    return split_samples(iter_samples(data))


def _load_reported(data: list[str]) -> tuple[list[Any], list[Any]]:
    """:func:`_load`, with the bad rows reported on stderr (the batch goes on)."""
    samples, bad = _load(data)
    _report_bad(bad)
    return samples, bad


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def register(app: typer.Typer) -> None:
    """Attach the ``tictoc`` command group to ``app``."""
    tt = typer.Typer(
        name="tictoc",
        help="TicToc: tool-call alignment with elapsed time (NAR, audit, timestamps, baselines).",
        no_args_is_help=True,
    )
    app.add_typer(tt, name="tictoc")

    @tt.command("score")
    def score_cmd(
        files: Annotated[
            list[str],
            typer.Argument(help="DATA... then PREDICTIONS (JSONL of {id, level, output})."),
        ],
        fmt: Annotated[
            Fmt, typer.Option("--format", help="text (tables), json, or jsonl (one line).")
        ] = Fmt.text,
        backend: BackendOpt = "enumerator",
    ) -> None:
        """Score model decisions: NAR, attempt rate, by level, sensitivity and length."""
        from tsolve.errors import TsolveError
        from tsolve.families.tictoc.scoring import iter_predictions, score

        if len(files) < 2:
            raise TsolveError("files: expected DATA... PREDICTIONS (at least two paths)")
        samples, bad = _load(files[:-1])
        report = score(samples, iter_predictions(files[-1]), bad, backend)
        _report_bad(report.bad_rows)
        if fmt is Fmt.text:
            _print_score(report.to_json())
        else:
            write_json(report.to_json(), indent=2 if fmt is Fmt.json else None)
        if not report.clean:
            raise typer.Exit(1)

    @tt.command("audit")
    def audit_cmd(
        data: DataArg,
        fmt: Annotated[Fmt, typer.Option("--format", help="text, json or jsonl.")] = Fmt.text,
        backend: BackendOpt = "enumerator",
    ) -> None:
        """Per trajectory: monotone times, the sensitivity its gaps allow, B.5 consistency."""
        from tsolve.families.tictoc.audit import audit_samples

        samples, bad = _load_reported(data)
        results = audit_samples(samples, backend)
        if fmt is Fmt.jsonl:
            for r in results:
                sys.stdout.write(json_text(r.to_json(), separators=COMPACT) + "\n")
        elif fmt is Fmt.json:
            write_json({"trajectories": [r.to_json() for r in results],
                        "bad_rows": [str(b) for b in bad]}, indent=2)  # fmt: skip
        else:
            _print_audit(results)
        if bad or any(not r.ok for r in results):
            raise typer.Exit(1)

    @tt.command("timestamp")
    def timestamp_cmd(
        file: Annotated[
            str,
            typer.Argument(
                help="Conversation(s): a message list (JSON), or "
                "rows with 'messages'/'history' (JSON/JSONL)."
            ),
        ],
        sensitivity: Annotated[Level, typer.Option(help="Scenario time sensitivity (Table 4).")],
        seed: Annotated[int, typer.Option(help="Run seed: record i depends on (seed, i).")] = 0,
        start: Annotated[
            str, typer.Option(help="ISO time of the first message.")
        ] = "2025-01-01T09:00:00Z",
    ) -> None:
        """Stamp conversations with the paper's time model; JSONL on stdout."""
        from tsolve.families.tictoc.timestamp import stamp_file
        from tsolve.records import BadRow

        bad = 0
        for rec in stamp_file(file, sensitivity.value, seed, start):
            if isinstance(rec, BadRow):
                bad += 1
                _report_bad([rec])
                continue
            sys.stdout.write(json_text(rec, separators=COMPACT) + "\n")
        if bad:
            raise typer.Exit(1)

    @tt.command("baseline")
    def baseline_cmd(
        data: DataArg,
        fmt: Annotated[
            Fmt, typer.Option("--format", help="text, json, or jsonl (the report on one line).")
        ] = Fmt.text,
        backend: BackendOpt = "enumerator",
    ) -> None:
        """NAR of always-tool, never-tool and the freshness rule on DATA."""
        from tsolve.errors import TsolveError
        from tsolve.families.tictoc.baseline import baseline_report

        samples, bad = _load_reported(data)
        if not samples:
            raise TsolveError("data: no readable sample")
        rep = baseline_report(samples, backend)
        if fmt is Fmt.text:
            table = Table(title=f"baselines on {len(samples)} samples", header_style="bold")
            for col in ("policy", "NAR", "attempt rate", "TPR", "TNR"):
                table.add_column(col, justify="left" if col == "policy" else "right")
            for name, s in rep.items():
                table.add_row(
                    name, _pct(s["nar"]), _pct(s["attempt_rate"]), _pct(s["tpr"]), _pct(s["tnr"])
                )
            console().print(table)
        else:
            write_json(rep, indent=2 if fmt is Fmt.json else None)
        if bad:
            raise typer.Exit(1)

    @tt.command("convert")
    def convert_cmd(data: DataArg) -> None:
        """Write DATA as tsolve's TicToc JSONL (one sample per line, label in fields)."""
        from tsolve.families.tictoc.data import to_record

        samples, bad = _load_reported(data)
        for s in samples:
            sys.stdout.write(json_text(to_record(s), separators=COMPACT) + "\n")
        if bad:
            raise typer.Exit(1)


def _print_score(rep: dict[str, Any]) -> None:
    con = console()
    con.print(f"n {rep['n']} · NAR {_pct(rep['nar'])} · attempt rate {_pct(rep['attempt_rate'])} · "
              f"TPR {_pct(rep['tpr'])} · TNR {_pct(rep['tnr'])}")  # fmt: skip
    for group in ("by_level", "by_sensitivity", "by_length"):
        table = Table(title=group.replace("_", " "), header_style="bold")
        for col in ("cell", "n", "NAR", "attempt rate", "TPR", "TNR"):
            table.add_column(col, justify="left" if col == "cell" else "right")
        for cell, s in rep[group].items():
            table.add_row(user_text(cell), str(s["n"]), _pct(s["nar"]), _pct(s["attempt_rate"]),
                          _pct(s["tpr"]), _pct(s["tnr"]))  # fmt: skip
        con.print(table)
    con.print(f"malformed outputs {rep['malformed']['count']} · missing predictions "
              f"{rep['missing']['count']} · unmatched predictions {rep['unmatched']['count']} · "
              f"bad rows {rep['bad_rows']['count']}")  # fmt: skip
    for m in rep["missing"]["items"][:20]:
        say(con, "yellow", "missing:", f"{m['id']} level {m['level']}")


def _print_audit(results: list[Any]) -> None:
    con = console()
    flagged = [r for r in results if not r.ok]
    if flagged:
        table = Table(header_style="bold", show_lines=True)
        table.add_column("id", overflow="fold", max_width=40)
        table.add_column("sensitivity", no_wrap=True)
        table.add_column("violations", overflow="fold", ratio=1)
        for r in flagged:
            text = "\n".join(f"{v.rule}: {v.message}" for v in r.violations)
            table.add_row(user_text(r.id), r.sensitivity or "none", user_text(text))
        con.print(table)
    counts: dict[str, int] = {}
    for r in results:
        key = r.sensitivity or "none"
        counts[key] = counts.get(key, 0) + 1
    shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    shown = f" ({shown})" if shown else ""
    con.print(f"{len(results)} trajectories{shown}; {len(flagged)} with violations")
