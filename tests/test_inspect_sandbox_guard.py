"""The code tool runs the model's Python only in the sandbox the task declared.

Inspect lets three things outside the task replace its sandbox: its own
``--sandbox`` option (``sandbox=`` of ``eval()``), the ``INSPECT_EVAL_SANDBOX``
variable, and a ``.env`` file in the working folder or any parent folder that
sets it. Each is tried here against the real inspect_ai, with ``local`` (the
host, unconfined) in place of the declared ``docker``: the run must stop with
the reason (in the log, and on stderr under ``--display none``), and the
model's code must not run (it would create a marker file). With tsolve's own
opt-in (``-T sandbox=local``) the code runs, with the warning on stderr and in
the log, and the sample's metadata names the sandbox that ran it.

The command line runs in-process through Inspect's real entry point
(``inspect_ai._cli.main.main``, which reads ``.env`` files before parsing the
options, as a user's shell would); the model's code is the repo's scripted
solver (``--solver tsolve/scripted``) with its python call replaced by one
that writes the marker.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall, ToolDef, python

from tsolve.adapters.inspect_ai import family_task, scripted
from tsolve.adapters.inspect_ai.tools import SANDBOX_IN_EFFECT, code_tools, local_warning

REFUSED = "the code tool refuses to run"
ENV = "INSPECT_EVAL_SANDBOX"
USAGE = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)


def _marker_call(marker: Path) -> ToolCall:
    code = f"open({str(marker)!r}, 'w').write('ran')\nprint('ran')"
    return ToolCall(id="marker", function="python", arguments={"code": code})


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    """The file the model's code creates if it runs on this machine."""
    return tmp_path / "ran-on-the-host"


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No sandbox variable going in, and none left behind: Inspect's ``.env``
    loading writes into ``os.environ`` (set, then deleted, so that pytest
    removes whatever the run sets)."""
    monkeypatch.setenv(ENV, "unset")
    monkeypatch.delenv(ENV)


@pytest.fixture
def scripted_marker(monkeypatch: pytest.MonkeyPatch, marker: Path) -> None:
    """``--solver tsolve/scripted`` calls the python tool once, with the marker code."""
    monkeypatch.setattr(scripted, "scripted_calls", lambda record, names: [_marker_call(marker)])


def _inspect(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    """``inspect ARGS`` in-process through Inspect's entry point; its exit code."""
    from inspect_ai._cli.main import main

    monkeypatch.setattr(sys, "argv", ["inspect", *args])
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # main() installs its own
    with pytest.raises(SystemExit) as done:
        main()
    return int(done.value.code or 0)


def _cli_eval(monkeypatch: pytest.MonkeyPatch, log_dir: Path, *options: str) -> EvalLog:
    code = _inspect(
        monkeypatch, "eval", "tsolve/time_puzzles", "--model", "mockllm/model",
        "--solver", "tsolve/scripted", "-T", "tools=code", "-T", "count=1",
        "--display", "none", "--log-dir", str(log_dir), *options,
    )  # fmt: skip
    assert code == 0, code  # Inspect's exit code for a run it logged, failed or not
    (path,) = log_dir.glob("*.eval")
    return read_eval_log(str(path), resolve_attachments=True)


def _assert_refused(log: EvalLog, marker: Path, err: str) -> None:
    assert not marker.exists(), "the model's code ran on the host"
    assert log.status == "error"
    assert log.error is not None and REFUSED in log.error.message
    assert "opt in with -T sandbox=local" in log.error.message
    assert REFUSED in err  # said on stderr, though --display none shows nothing
    assert log.samples is not None
    (sample,) = log.samples
    assert sample.metadata["condition"]["sandbox"] == "docker"  # asked for
    assert sample.metadata[SANDBOX_IN_EFFECT] == "local"  # given


# ------------------------------------------------------------------ refused


def test_eval_sandbox_local_is_refused(
    tmp_path: Path, marker: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``eval(task, sandbox="local")``: a model's own python call, refused."""

    def model(messages: list[ChatMessage], *args: Any) -> ModelOutput:
        done = any(isinstance(m, ChatMessageTool) for m in messages)
        message = (
            ChatMessageAssistant(content="MY ANSWER: None")
            if done
            else ChatMessageAssistant(content="", tool_calls=[_marker_call(marker)])
        )
        return ModelOutput(
            model="mockllm/model", choices=[ChatCompletionChoice(message=message)], usage=USAGE
        )

    task = family_task("time-puzzles", count=1, tools="code")
    (log,) = inspect_eval(
        task, model=get_model("mockllm/model", custom_outputs=model), sandbox="local",
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    _assert_refused(log, marker, capsys.readouterr().err)


@pytest.mark.usefixtures("clean_env", "scripted_marker")
def test_cli_sandbox_local_is_refused(
    tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    log = _cli_eval(monkeypatch, tmp_path / "logs", "--sandbox", "local")
    _assert_refused(log, marker, capsys.readouterr().err)


@pytest.mark.usefixtures("clean_env", "scripted_marker")
def test_environment_variable_is_refused(
    tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ENV, "local")
    log = _cli_eval(monkeypatch, tmp_path / "logs")
    _assert_refused(log, marker, capsys.readouterr().err)


@pytest.mark.usefixtures("clean_env", "scripted_marker")
def test_dotenv_file_in_a_parent_folder_is_refused(
    tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    (tmp_path / ".env").write_text(f"{ENV}=local\n", encoding="utf-8")
    work = tmp_path / "project" / "run"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    log = _cli_eval(monkeypatch, tmp_path / "logs")
    assert log.eval.sandbox is not None and log.eval.sandbox.type == "local"  # it took effect
    _assert_refused(log, marker, capsys.readouterr().err)


# ------------------------------------------------------------------ opted in


@pytest.mark.usefixtures("clean_env", "scripted_marker")
def test_opt_in_runs_locally_with_the_warning(
    tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """``-T sandbox=local`` (here with ``--sandbox local`` too, which then agrees)."""
    monkeypatch.chdir(tmp_path)
    log = _cli_eval(monkeypatch, tmp_path / "logs", "-T", "sandbox=local", "--sandbox", "local")
    assert log.status == "success", log.error
    assert marker.read_text(encoding="utf-8") == "ran"  # it really ran, here
    assert local_warning() in capsys.readouterr().err
    assert log.samples is not None
    (sample,) = log.samples
    assert sample.metadata["condition"]["sandbox"] == "local"
    assert sample.metadata[SANDBOX_IN_EFFECT] == "local"
    infos = [e.data for e in sample.events if e.event == "info"]
    assert local_warning() in infos


# ------------------------------------------------------------------ docker


def _docker_runs() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        done = subprocess.run(["docker", "info"], capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def test_without_docker_the_code_condition_fails_closed(
    tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default sandbox is Docker; without a Docker Engine the run stops
    before any sample, and nothing runs on the host."""
    if _docker_runs():
        pytest.skip("a Docker Engine runs here; this checks the run without one")
    monkeypatch.setattr(scripted, "scripted_calls", lambda record, names: [_marker_call(marker)])
    task = family_task("time-puzzles", count=1, tools="code")
    with pytest.raises(Exception, match="Docker"):
        inspect_eval(task, model="mockllm/model", solver=scripted.scripted(),
                     log_dir=str(tmp_path / "logs"), display="none")  # fmt: skip
    assert not marker.exists()


def test_the_model_sees_inspects_own_python_tool() -> None:
    """The guard changes nothing the model is shown: name, description, parameters."""
    (guarded,) = code_tools()
    ours, inspects = ToolDef(guarded), ToolDef(python(timeout=60))
    assert ours.name == inspects.name == "python"
    assert ours.description == inspects.description
    assert ours.parameters == inspects.parameters


# ------------------------------------------------------------------ --display none


@pytest.mark.usefixtures("clean_env")
def test_display_none_still_says_why_a_task_option_stopped_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Inspect prints its one-line errors through its display, which
    ``--display none`` silences; tsolve says its own on stderr."""
    from inspect_ai._util.error import PrerequisiteError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(PrerequisiteError):  # the process's hook: this one line, exit 1
        _inspect(monkeypatch, "eval", "tsolve/time_puzzles", "--model", "mockllm/model",
                 "-T", "tools=web", "--display", "none", "--log-dir", str(tmp_path))  # fmt: skip
    err = capsys.readouterr().err
    assert "tsolve: tools: expected one of none, calendar, knowledge, code, all" in err
