"""The records surfaces of ``tsolve stress --fuzz`` (tsolve/stress/fuzz_records.py)
find the defect each was built for once its fix is replaced by the old
behaviour: malformed facts fingerprinted alike (``overlap``), a form of the
wrong type skipped (``audit-forms``), any ``datasets`` folder taken for
tsolve's (``user-folders``), a Hub table's marks read from its metadata
alone (``hub-pandas``), a misnamed ``answers`` read as absent
(``solve-check``). tests/test_fuzz.py runs a clean slice of every surface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fuzz_checks import surface_failures

HANG_GUARD = 120.0


def _failures(surface: str, n: int) -> list[Any]:
    return surface_failures(surface, n, "test-fuzz-records", HANG_GUARD)


def test_the_records_surfaces_are_clean_on_this_tree() -> None:
    for surface in ("overlap", "audit-forms", "user-folders", "solve-check"):
        assert not _failures(surface, 8), surface


def test_overlap_finds_malformed_facts_fingerprinted_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.families.relational_puzzles.fingerprint as rel
    import tsolve.families.time_puzzles.fingerprint as tp

    def unchecked(record: dict[str, Any], _read: Any, *, required: bool) -> Any:
        return record.get("facts")

    monkeypatch.setattr(tp, "checked_facts", unchecked)
    monkeypatch.setattr(rel, "checked_facts", unchecked)
    found = _failures("overlap", 10)
    assert found and any("overlap (content" in f.message for f in found)


def test_audit_forms_finds_a_form_of_the_wrong_type_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tsolve.audit.forms as forms
    import tsolve.families.logistics.audit as logistics
    import tsolve.families.span.audit as span
    import tsolve.families.time_puzzles.audit as tp

    for module in (span, logistics, tp):
        monkeypatch.setattr(module, "mistyped", lambda *a, **k: None)
    monkeypatch.setattr(forms, "_container_mismatch", lambda *a, **k: None)
    found = _failures("audit-forms", 12)
    assert found and all("audited as ok" in f.message for f in found)


def test_user_folders_finds_a_users_folder_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The old rule: an unmarked folder the writer's ``legacy`` test accepts
    (for ``--format hf``: any ``datasets`` folder) is replaced."""
    import fnmatch

    import tsolve.datasets.sinks as sinks
    import tsolve.records.folders as folders
    from tsolve.records.hf import is_dataset_folder

    def old_rule(root: Path, kind: Any) -> str | None:
        members = list(folders._members(root))
        listed = folders._listed(root)
        if listed is None and not (kind.legacy is not None and kind.legacy(root)):
            return "foreign"
        allowed = (listed or set()) | {folders.MARKER}
        for rel, _entry in members:
            if rel not in allowed and not any(fnmatch.fnmatchcase(rel, p) for p in kind.members):
                return f"holds {rel}"
        return None

    old_hf = folders.FolderKind(sinks.HF_FOLDER.name, sinks.HF_FOLDER.members, is_dataset_folder)
    monkeypatch.setattr(sinks, "HF_FOLDER", old_hf)
    monkeypatch.setattr(folders, "_why_not_ours", old_rule)
    found = _failures("user-folders", 12)
    assert found and all("never marked was replaced" in f.message for f in found)


def test_hub_pandas_finds_derived_columns_read_as_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("datasets", reason="the hf extra (datasets) is not installed")
    import tsolve.records.parquet_rows as parquet_rows
    from tsolve.records.hub_columns import Marks

    assert not _failures("hub-pandas", 4)
    monkeypatch.setattr(parquet_rows, "inferred_marks", lambda *a: Marks())
    found = _failures("hub-pandas", 4)
    assert found and any("not a record that was written" in f.message for f in found)


def test_solve_check_finds_a_misnamed_answers_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    import tsolve.families.relational_puzzles.solve as rel
    import tsolve.families.time_puzzles.solve as tp

    def lax(record: dict[str, Any], _where: str) -> Any:
        stored = record.get("answers")
        return stored if isinstance(stored, list) else None

    monkeypatch.setattr(tp, "stored_gold", lax)
    monkeypatch.setattr(rel, "stored_gold", lax)
    found = _failures("solve-check", 8)
    assert found and all("passed --check" in f.message for f in found)
