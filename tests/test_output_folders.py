"""Output folders never lose data and never follow a link out.

Every command that writes a folder (``dataset --format hub``, ``dataset
--format hf``, ``export lm-eval``) goes through :mod:`tsolve.records.folders`.
These are the hostile cases a fuzz campaign found: ``--out .`` inside an
earlier folder (old and new data both lost, then a traceback), a member of
the folder that is a link to a file outside (overwritten, exit 0), and an
``--out`` that is itself a link (the whole run generated, then a traceback).
Each must end in one line and a non-zero exit, with every file outside the
target and the old folder itself byte-for-byte and mtime-for-mtime as before.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from cli_main import run_main

from tsolve.errors import TsolveError
from tsolve.records.folders import MARKER, FolderKind, FolderWrite, check_target

pytest.importorskip("datasets", reason="the hf extra (datasets) is not installed")

from tsolve.adapters import lm_eval
from tsolve.datasets import hub
from tsolve.datasets.hub import write_hub

HUB = ("dataset", "make", "span", "-n", "3", "--format", "hub", "-q", "--out")


def _snapshot(root: Path) -> dict[str, tuple[str, bytes, int]]:
    """Every path under ``root``: (kind, bytes or link target, mtime), links not followed."""
    out: dict[str, tuple[str, bytes, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            if p.is_symlink():
                out[str(p.relative_to(root))] = ("link", os.readlink(p).encode(), st.st_mtime_ns)
            elif p.is_dir():
                out[str(p.relative_to(root))] = ("dir", b"", st.st_mtime_ns)
            else:
                out[str(p.relative_to(root))] = ("file", p.read_bytes(), st.st_mtime_ns)
    return out


def _one_line_refusal(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


@pytest.fixture
def earlier_hub(tmp_path: Path) -> Path:
    """A hub folder an earlier run wrote, and a sentinel file beside it."""
    write_hub("span", {}, count=3, out=tmp_path / "hub", seed=1)
    (tmp_path / "sentinel.txt").write_text("outside: never touched")
    return tmp_path / "hub"


@pytest.mark.parametrize("out", [".", "..", "data/.."])
def test_out_dot_inside_a_hub_folder_is_refused_and_loses_nothing(
    earlier_hub: Path, out: str, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    """Before: the spool was made inside ``.``, then ``.`` was removed."""
    before = _snapshot(earlier_hub.parent)
    monkeypatch.chdir(earlier_hub)
    code, _, err = run_main(capsys, *HUB, out)
    _one_line_refusal(code, err)
    assert "working folder" in err
    assert _snapshot(earlier_hub.parent) == before


def test_every_folder_writer_refuses_the_working_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (
        ("dataset", "make", "span", "-n", "2", "--format", "hf", "-q", "--out", "."),
        ("export", "lm-eval", ".", "--family", "span", "--count", "1"),
    ):
        code, _, err = run_main(capsys, *args)
        _one_line_refusal(code, err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("member", ["data", "utils.py", "data/test.jsonl"])
def test_export_never_writes_through_a_linked_member(
    tmp_path: Path, member: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``DIR/data`` or ``DIR/utils.py`` as a link was followed, and a
    file outside ``DIR`` overwritten, exit 0."""
    folder = tmp_path / "task"
    lm_eval.export_lm_eval(folder, "span", 1, seed=0)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "test.jsonl").write_text("the user's own data")
    (outside / "utils.py").write_text("the user's own code")
    link = folder / member
    if link.is_dir():
        for p in link.iterdir():
            p.unlink()
        link.rmdir()
    else:
        link.unlink()
    link.symlink_to(outside if member == "data" else outside / Path(member).name)
    before = _snapshot(tmp_path)
    code, _, err = run_main(capsys, "export", "lm-eval", str(folder), "--family", "span",
                            "--count", "1")  # fmt: skip
    _one_line_refusal(code, err)
    assert "symbolic link" in err
    assert _snapshot(tmp_path) == before


def test_out_that_is_a_link_is_refused_before_any_record(
    earlier_hub: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    """Before: the whole run was generated, then rmtree on the link failed."""
    link = earlier_hub.parent / "link"
    link.symlink_to(earlier_hub)

    def no_generation(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("records were generated before the target was checked")

    monkeypatch.setattr(hub, "write_split", no_generation)
    before = _snapshot(earlier_hub.parent)
    for args in (HUB, ("dataset", "make", "span", "-n", "2", "--format", "hf", "-q", "--out")):
        code, _, err = run_main(capsys, *args, str(link))
        _one_line_refusal(code, err)
        assert "symbolic link" in err
    code, _, err = run_main(capsys, "export", "lm-eval", str(link), "--family", "span")
    _one_line_refusal(code, err)
    assert _snapshot(earlier_hub.parent) == before


def test_a_failure_mid_write_leaves_the_old_folder_whole(
    earlier_hub: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    """A disk that fills after the first Parquet file: one line, the old
    folder as it was, no temporary folder left beside it."""
    real = hub._write_parquet
    calls: list[Path] = []

    def fails_second(src: Path, columns: Any, dest: Path) -> int:
        calls.append(dest)
        if len(calls) == 2:
            dest.write_bytes(b"half a file")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, columns, dest)

    monkeypatch.setattr(hub, "_write_parquet", fails_second)
    before = _snapshot(earlier_hub.parent)
    code, _, err = run_main(capsys, *HUB, str(earlier_hub))
    _one_line_refusal(code, err)
    assert "No space left" in err and "left as it was" in err and len(calls) == 2
    assert _snapshot(earlier_hub.parent) == before


def test_a_failed_export_and_hf_write_keep_the_old_folder(tmp_path: Path, monkeypatch: Any) -> None:
    from tsolve.datasets import write_dataset
    from tsolve.records import hf

    task = tmp_path / "task"
    lm_eval.export_lm_eval(task, "span", 2, seed=0)
    saved = tmp_path / "saved"
    write_dataset("span", {}, count=2, out=saved, seed=0, fmt="hf")
    before = _snapshot(tmp_path)

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("a bug in the middle of the write")

    monkeypatch.setattr(lm_eval, "json_text", broken)  # after the data file is opened
    with pytest.raises(RuntimeError, match="middle"):
        lm_eval.export_lm_eval(task, "span", 2, seed=5)
    monkeypatch.setattr(hf, "save_table", broken)
    with pytest.raises(RuntimeError, match="middle"):
        write_dataset("span", {}, count=2, out=saved, seed=5, fmt="hf")
    assert _snapshot(tmp_path) == before


def test_a_folder_holding_anything_tsolve_did_not_write_is_kept(
    earlier_hub: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (earlier_hub / "data" / "my-notes.txt").write_text("mine")
    before = _snapshot(earlier_hub.parent)
    code, _, err = run_main(capsys, *HUB, str(earlier_hub))
    _one_line_refusal(code, err)
    assert "data/my-notes.txt" in err
    assert _snapshot(earlier_hub.parent) == before


def test_a_file_added_during_the_run_is_not_lost(earlier_hub: Path, monkeypatch: Any) -> None:
    real = hub.write_split

    def adds_a_file(*args: Any, **kwargs: Any) -> Any:
        (earlier_hub / "added-meanwhile.txt").write_text("new work")
        return real(*args, **kwargs)

    monkeypatch.setattr(hub, "write_split", adds_a_file)
    with pytest.raises(TsolveError, match="changed during the run"):
        write_hub("span", {}, count=3, out=earlier_hub, seed=2)
    assert (earlier_hub / "added-meanwhile.txt").read_text() == "new work"
    assert (earlier_hub / "README.md").is_file()
    assert [p.name for p in earlier_hub.parent.iterdir() if p.name.startswith(".")] == []


def test_tsolves_marked_folders_are_replaced_and_unmarked_ones_never(
    earlier_hub: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A marked folder is replaced whole. A hub folder without the marker
    (as an older tsolve left it, its card still saying so) is refused: nothing
    proves which of its files tsolve wrote. Before: it was replaced, and a
    split file the user put in ``data/`` was deleted with it."""
    write_hub("span", {}, count=4, out=earlier_hub, seed=2)
    assert (earlier_hub / MARKER).is_file()
    (earlier_hub / MARKER).unlink()  # as an older tsolve left it: no marker
    (earlier_hub / "data" / "validation-00000-of-00001.parquet").write_bytes(b"user's split")
    before = _snapshot(earlier_hub.parent)
    code, _, err = run_main(capsys, *HUB, str(earlier_hub))
    _one_line_refusal(code, err)
    assert MARKER in err and "older tsolve" in err
    assert _snapshot(earlier_hub.parent) == before


def _user_saved_folder(path: Path) -> Path:
    """A folder made with ``datasets.save_to_disk``, as a user makes one."""
    import datasets

    datasets.Dataset.from_dict({"question": ["mine"], "answer": ["42"]}).save_to_disk(str(path))
    return path


@pytest.mark.parametrize("tsolve_rows", [False, True])
def test_a_users_save_to_disk_folder_is_never_replaced(
    tmp_path: Path, tsolve_rows: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: any ``datasets`` folder counted as tsolve's (a legacy rule), so
    ``--format hf --out`` deleted the user's own save and wrote over it, exit
    0; also when the user had saved tsolve records themselves
    (``hf.to_dataset(...).save_to_disk``): tsolve did not write that folder."""
    folder = tmp_path / "mine"
    if tsolve_rows:
        from tsolve.contract import get_family
        from tsolve.records import hf

        fam = get_family("span")
        hf.to_dataset([fam.make_record(0, 0, fam.make_options({}))]).save_to_disk(str(folder))
    else:
        _user_saved_folder(folder)
    capsys.readouterr()  # the save's own progress bar
    before = _snapshot(tmp_path)
    code, _, err = run_main(
        capsys, "dataset", "make", "span", "-n", "2", "--format", "hf", "-q", "--out", str(folder)
    )
    _one_line_refusal(code, err)
    assert "not written by tsolve" in err and MARKER in err
    assert _snapshot(tmp_path) == before
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]  # no spool left beside it


def test_unmarked_export_is_refused_and_a_marked_hf_folder_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other writer with a legacy rule (an export whose ``utils.py`` says
    tsolve wrote it) is refused without the marker too; a folder ``--format
    hf`` wrote (marked) is still replaced."""
    from tsolve.datasets.writer import write_dataset

    task = tmp_path / "task"
    lm_eval.export_lm_eval(task, "span", 1, seed=0)
    (task / MARKER).unlink()
    before = _snapshot(tmp_path)
    code, _, err = run_main(capsys, "export", "lm-eval", str(task), "--family", "span",
                            "--count", "1")  # fmt: skip
    _one_line_refusal(code, err)
    assert _snapshot(tmp_path) == before
    saved = tmp_path / "saved"
    write_dataset("span", {}, count=2, out=saved, seed=0, fmt="hf")
    write_dataset("span", {}, count=3, out=saved, seed=1, fmt="hf")
    assert (saved / MARKER).is_file() and (saved / "dataset_info.json").is_file()


def test_check_target_rules(tmp_path: Path, monkeypatch: Any) -> None:
    """The helper on its own: what it accepts and what it refuses."""
    kind = FolderKind("a test writer", members=("by-product.log",))
    assert check_target(tmp_path / "new", kind) == tmp_path / "new"
    (tmp_path / "empty").mkdir()
    check_target(tmp_path / "empty", kind)
    with FolderWrite(tmp_path / "mine", kind) as w:
        w.folder.mkdir()
        (w.folder / "a.txt").write_text("a")
        w.commit()
    (tmp_path / "mine" / "by-product.log").write_text("derived")
    check_target(tmp_path / "mine", kind)  # listed paths and by-products only
    (tmp_path / "file").write_text("x")
    (tmp_path / "mine-link").symlink_to(tmp_path / "mine")
    for bad, why in (
        ("-", "give a folder"),
        (tmp_path / "file", "is a file"),
        (tmp_path / "no" / "x", "does not exist"),
        (tmp_path / "mine-link", "symbolic link"),
        (tmp_path, "working folder"),
    ):
        monkeypatch.chdir(tmp_path / "mine")
        with pytest.raises(TsolveError, match=why):
            check_target(bad, kind)
    monkeypatch.chdir(tmp_path / "empty")
    (tmp_path / "mine" / "b.txt").write_text("user's")
    with pytest.raises(TsolveError, match=r"holds b\.txt"):
        check_target(tmp_path / "mine", kind)


def test_plot_dir_never_draws_through_a_linked_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``puzzle --plot-dir DIR`` adds pictures to DIR; one already there as a
    link to a file outside is refused, not followed."""
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    from tsolve.contract import get_family

    fam = get_family("time-puzzles")
    first = fam.make_record(0, 0, fam.make_options({}))
    folder = tmp_path / "pictures"
    folder.mkdir()
    (tmp_path / "keep.png").write_bytes(b"the user's picture")
    (folder / f"{first['id']}.png").symlink_to(tmp_path / "keep.png")
    before = _snapshot(tmp_path)
    code, _, err = run_main(capsys, "puzzle", "--count", "1", "--plot-dir", str(folder),
                            "--format", "json")  # fmt: skip
    _one_line_refusal(code, err)
    assert "symbolic link" in err
    assert _snapshot(tmp_path) == before
