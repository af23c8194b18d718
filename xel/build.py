"""`xel build`: every stage of the pipeline in order, from corpus to exported and reported
collection.

Each stage resumes from the store and is skipped when its signature is unchanged, so a build
can be stopped and rerun at any point. Crowd stages on `mturk` or `local` return with work
pending; the build then stops and says what waits and how to go on. With the `simulated` crowd
the whole run completes unattended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hits.workflow import Confirm
from xel.config import Config
from xel.export import collection_folder
from xel.pipeline import PIPELINE, Crowd, run_stage, stage_languages
from xel.report import report_path
from xel.stages import StageRun
from xel.store import Store


@dataclass
class BuildResult:
    pending: list[str] = field(default_factory=list)  # what waits for people, and how to go on
    collection: Path | None = None
    report: Path | None = None


Say = Callable[[str], None]

HOW_TO_GO_ON = {
    "local": "give your annotators their links (`hits serve` prints them and serves the HITs), "
             "then rerun `xel build`: it collects what they submitted and goes on",
    "mturk": "rerun `xel build` (with --live on live MTurk, or `hits collect`) once workers "
             "have submitted: it collects, reviews, pays and goes on; `hits review` shows "
             "progress and cost so far",
}


def summary(run: StageRun) -> str:
    state = "skipped (unchanged)" if run.skipped else "done"
    counts = ", ".join(f"{k} {v}" for k, v in sorted(run.summary.items()))
    return f"{run.name}: {state}  {counts}"


def build(store: Store, config: Config, *, crowd: str, say: Say = print,
          force: bool = False, live: bool = False, confirm: Confirm | None = None) -> BuildResult:
    """Run the whole pipeline; returns what is pending (empty when the collection is done).

    `force` reruns every automatic stage. `live` lets the mturk crowd publish on live MTurk
    (the config must say so too), after `confirm` agreed to each batch's cost."""
    result = BuildResult()
    people = Crowd(crowd, live, confirm)
    for stage in PIPELINE:
        langs = stage_languages(store, config, stage)
        runs = run_stage(store, config, stage, langs, force=force, crowd=people)
        for run in runs:
            if not run.waiting:
                say(summary(run))
            for note in run.notes:
                say(note)
        waiting = [line for run in runs for line in run.waiting]
        if waiting:
            result.pending = [*waiting, HOW_TO_GO_ON.get(crowd, HOW_TO_GO_ON["mturk"])]
            return result
    result.collection = collection_folder(config)
    result.report = report_path(config)
    say(f"collection in {result.collection}, report in {result.report}")
    return result
