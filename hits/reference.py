"""Reference files of known answers: gold items, and truth for the simulated crowd.

One tab-separated line per task: `task<TAB>answer`. A task is a query id for entity linking
(answer: a KB id, NIL, NEI or NOT_PERSON) or `<lang>:<query id>` for name curation (answer: the
target-language name as written, or MISSING). Blank lines and lines starting with `#` are skipped.
"""

from __future__ import annotations

from pathlib import Path

from xel.errors import XelError
from xel.textfile import read_lines


def read_reference(path: str | Path) -> dict[str, str]:
    """Task -> answer; a malformed line is an error naming the file, line and fix."""
    path = Path(path)
    answers: dict[str, str] = {}
    for number, line in enumerate(read_lines(path, "reference file"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            raise XelError(
                f"{path}, line {number}: expected `task<TAB>answer` (a query id or "
                f"lang:query id, then the answer), got {line!r}"
            )
        task, answer = fields[0].strip(), fields[1].strip()
        if task in answers and answers[task] != answer:
            raise XelError(
                f"{path}, line {number}: task {task!r} was already given answer "
                f"{answers[task]!r}: keep one line per task"
            )
        answers[task] = answer
    return answers


def write_reference(path: str | Path, answers: dict[str, str]) -> None:
    lines = [f"{task}\t{answer}" for task, answer in sorted(answers.items())]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
