"""The code condition's pinned sandbox: the task declares tsolve's compose file,
the file parses as a compose spec Inspect can use, its image pins every
library, and the package ships both files."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib
import yaml

from tsolve.adapters.inspect_ai.conditions import parse_condition
from tsolve.adapters.inspect_ai.tasks import family_task
from tsolve.sandbox import COMPOSE_FILE, DOCKERFILE

ROOT = Path(__file__).resolve().parents[1]


def test_the_code_condition_declares_the_pinned_compose_file() -> None:
    assert parse_condition(tools="code").sandbox_spec == ("docker", str(COMPOSE_FILE))
    assert parse_condition(tools="code", sandbox="local").sandbox_spec == "local"
    assert parse_condition(tools="calendar").sandbox_spec is None
    task = family_task("time-puzzles", count=1, tools="code")
    assert task.sandbox is not None
    assert (task.sandbox.type, task.sandbox.config) == ("docker", str(COMPOSE_FILE))
    # the guard still checks the sandbox type the condition records
    assert parse_condition(tools="code").to_json()["sandbox"] == "docker"


def test_the_compose_file_builds_the_dockerfile_with_no_network() -> None:
    spec = yaml.safe_load(COMPOSE_FILE.read_text())
    service = spec["services"]["default"]  # Inspect runs the code in "default"
    assert service["build"]["dockerfile"] == DOCKERFILE.name
    assert (COMPOSE_FILE.parent / service["build"]["context"]).resolve() == DOCKERFILE.parent
    assert service["network_mode"] == "none"


def test_the_image_pins_its_base_and_every_library() -> None:
    text = DOCKERFILE.read_text()
    base = re.search(r"^FROM (\S+)$", text, re.M)
    assert base and re.fullmatch(r"python:\d+\.\d+\.\d+-\S+", base.group(1))
    installs = text[text.index("pip install") : text.index("&&")]
    names = re.findall(r"\\\n\s+(\S+)", installs)
    assert names and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][\w.]*", n) for n in names)
    pinned = {n.split("==")[0].lower() for n in names}
    assert {"convertdate", "hijridate", "lunardate", "python-dateutil"} <= pinned


def test_the_package_data_ships_the_sandbox() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]["tsolve"]
    assert {"sandbox/Dockerfile", "sandbox/compose.yaml"} <= set(data)
