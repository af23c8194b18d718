"""`xel build`: every stage in order, from corpus to exported and reported collection.

Each stage resumes from the store and is skipped when its signature is unchanged, so a build
can be stopped and rerun at any point. Crowd stages on `mturk` or `local` return with work
pending; the build then stops and says what waits and how to go on. With the `simulated` crowd
the whole run completes unattended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hits.make import gold_shortfall
from hits.store import DDL as HITS_DDL
from hits.workflow import Confirm, run_round
from xel.config import Config
from xel.corpus import import_corpus, target_languages
from xel.errors import XelError
from xel.export import export_collection
from xel.kb import build_kb
from xel.link import link_queries
from xel.ner import run_ner
from xel.partition import run_partition
from xel.project import project_languages
from xel.queries import run_queries
from xel.report import write_report
from xel.stages import StageRun
from xel.store import Store
from xel.triage import triage_languages


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


def _summary(run: StageRun) -> str:
    state = "skipped (unchanged)" if run.skipped else "done"
    counts = ", ".join(f"{k} {v}" for k, v in sorted(run.summary.items()))
    return f"{run.name}: {state}  {counts}"


def no_queries(store: Store) -> str:
    """Why there are no queries, from the queries stage's attrition: which filter removed the
    last person mentions (or that NER found none)."""
    steps = store.query("SELECT filter, mentions_before, mentions_after, names_before FROM "
                        "attrition ORDER BY step")
    found = steps[0]["mentions_before"] if steps else 0
    if not found:
        return ("no queries: NER found no person mentions in the English side of the corpus "
                "(check corpus.source and that the English files hold English text)")
    last = next((s for s in steps if s["mentions_after"] == 0), steps[-1])
    trail = "; ".join(f"{s['filter']}: {s['mentions_before']} -> {s['mentions_after']}"
                      for s in steps)
    return (f"no queries: NER found {found} person mentions, and the filter "
            f"'{last['filter']}' removed the last {last['mentions_before']} (mentions left after "
            f"each filter: {trail}). Loosen that filter in the config's `queries:` section "
            "(min_tokens, min_documents, longest_only, max_per_name, review) or use a larger "
            "corpus")


def build(store: Store, config: Config, *, crowd: str, say: Say = print,
          force: bool = False, live: bool = False, confirm: Confirm | None = None) -> BuildResult:
    """Run the whole pipeline; returns what is pending (empty when the collection is done).

    `live` lets the mturk crowd publish on live MTurk (the config must say so too), after
    `confirm` agreed to each batch's cost."""
    result = BuildResult()
    for run in (import_corpus(store, config, force=force), run_ner(store, config, force=force),
                run_queries(store, config, force=force), build_kb(config, force=force),
                link_queries(store, config, force=force)):
        say(_summary(run))
    if not store.scalar("SELECT COUNT(*) FROM queries"):
        raise XelError(no_queries(store))

    el = run_round(store, config, "el", backend=crowd, live=live, confirm=confirm)
    say(f"entity-linking HITs ({crowd}): {len(el.batches)} new batches, "
        f"aggregated {el.aggregated or '-'}")
    if el.pending:
        result.pending += [f"entity-linking batches {', '.join(el.pending)} wait for workers "
                           f"on {crowd}", HOW_TO_GO_ON.get(crowd, HOW_TO_GO_ON["mturk"])]
        return result

    langs = target_languages(store)
    for run in project_languages(store, config, langs, force=force).values():
        say(_summary(run))
    for run in triage_languages(store, config, langs, force=force).values():
        say(_summary(run))
    for lang in langs:
        if gold_shortfall(store, config, lang):
            say(f"{lang}: round trip accepted too few projections to serve as gold items: "
                "name-curation workers in this language go unchecked")
        names = run_round(store, config, "name", lang=lang, backend=crowd, live=live,
                          confirm=confirm)
        if names.pending:
            result.pending.append(f"{lang}: name-curation batches {', '.join(names.pending)} "
                                  f"wait for workers on {crowd}")
    if result.pending:
        result.pending.append(HOW_TO_GO_ON.get(crowd, HOW_TO_GO_ON["mturk"]))
        return result
    store.declare(HITS_DDL)
    queued = store.scalar(
        "SELECT COUNT(*) FROM expert_queue q WHERE NOT EXISTS (SELECT 1 FROM name_outcomes o"
        " WHERE o.lang = q.lang AND o.query_id = q.query_id AND o.outcome = 'E')")
    if queued:
        say(f"{queued} names wait for a local-language expert (`hits serve`, then the expert "
            "queue, or `hits curate`); they are left out of this export until decided")

    say(_summary(run_partition(store, config, links_policy=config.hits.policy, force=force)))
    say(_summary(export_collection(store, config, force=force)))
    out = config.resolve(config.output)
    result.collection = out / "collection"
    result.report = write_report(store, config, out / "report.html")
    say(f"collection in {result.collection}, report in {result.report}")
    return result
