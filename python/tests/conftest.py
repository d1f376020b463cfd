"""Shared fixtures of the tempo package's tests.

`tempo_cli` is the `tempo` command-line program the package is checked
against (analysis records, endgame tables): `$TEMPO_BIN`, else the release
or debug build of this repository. Without one those tests are skipped,
unless `$TEMPO_REQUIRE_CLI` is set (CI sets both), when they fail.
"""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _find_cli() -> pathlib.Path | None:
    given = os.environ.get("TEMPO_BIN")
    if given:
        return pathlib.Path(given)
    for build in ("release", "debug"):
        path = ROOT / "target" / build / "tempo"
        if path.is_file():
            return path
    return None


@pytest.fixture(scope="session")
def tempo_cli() -> pathlib.Path:
    path = _find_cli()
    if path is None or not path.is_file():
        if os.environ.get("TEMPO_REQUIRE_CLI"):
            pytest.fail(f"no tempo binary (TEMPO_BIN={os.environ.get('TEMPO_BIN')!r})")
        pytest.skip("no tempo binary: set TEMPO_BIN or build the repository")
    return path


def run_cli(cli: pathlib.Path, *args: str) -> str:
    """Runs the tempo binary; its standard output."""
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="session")
def brazilian_tables(tempo_cli: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A directory of Brazilian endgame tables of up to 3 pieces."""
    path = tmp_path_factory.mktemp("egdb")
    run_cli(tempo_cli, "egdb", "build", "--variant", "brazilian", "--pieces", "3", "--dir", str(path))
    return path
