"""The README's two set-up commands: .ci/run calls the test command exactly as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)]


def _setup_commands() -> tuple[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Set-up: two commands") :]
    section = section[: section.index("\n## ", 3)]
    blocks = _bash_blocks(section)
    assert len(blocks) == 2, blocks  # exactly two commands
    return blocks[0], blocks[1]


def test_the_readme_set_up_is_two_commands_main_job_then_tests():
    main_job, tests = _setup_commands()
    assert main_job.endswith("ragnotebook quickstart")
    assert "pip install -e ." in main_job
    assert tests.endswith("-m pytest") and "'.[test]'" in tests


def test_ci_runs_the_readme_test_command_exactly():
    _, tests = _setup_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert tests in lines
    # and the main job, on the fresh install (its --out keeps the clone clean)
    assert any("ragnotebook quickstart" in line for line in lines)
