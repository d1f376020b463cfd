"""The Python example of README.md runs as written: from a copy of the files
it reads (the checkout's `tests/data/long-game.pdn`), after the command the
README gives before it (`tempo egdb build --pieces 3 --dir egdb`)."""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import re
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, "one Python example under '## Python'"
    return blocks[0]


def test_the_readme_example_runs_as_written(tempo_cli, tmp_path):
    (tmp_path / "tests" / "data").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "data" / "long-game.pdn", tmp_path / "tests" / "data")
    subprocess.run(
        [str(tempo_cli), "egdb", "build", "--pieces", "3", "--dir", "egdb"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    here = os.getcwd()
    printed = io.StringIO()
    try:
        os.chdir(tmp_path)
        with contextlib.redirect_stdout(printed):
            exec(compile(_readme_example(), "README.md", "exec"), {})
    finally:
        os.chdir(here)
    lines = printed.getvalue().strip().splitlines()
    # A line for each analysed position of the 131-move game, then the probe
    # of a king against a man: a win.
    assert len(lines) > 200, lines[:20]
    assert "win" in lines[-1].lower(), lines[-5:]
