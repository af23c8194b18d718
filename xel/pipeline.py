"""The pipeline, declared once: every stage in order, crowd rounds included.

`PIPELINE` is the one list. `xel build` runs it in order (`xel.build`); each command runs its
stages and the automatic stages they need (`make`); `xel stages` lists every stage of a config
with its state, before the first run too (`status`); and a stage's signature gets the digests
of its upstream stages from here. A stage function reads its inputs from the store and
returns the `Work` that writes its outputs, which the runner commits with the signature; stage
functions never call one another.

Automatic stages are skipped while their signature is unchanged. Crowd stages (`el`, `names`,
`expert`) always take their round as far as it goes (nothing is asked twice) and their
signatures hold a digest of what the crowd decided, read through `hits.results`, so a changed
decision reruns partition and export and nothing upstream.

With `xel.build` and `xel.report` this module is the top layer: the only ones that import both
xel's stages and `hits`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hits import results
from hits.make import gold_shortfall
from hits.workflow import Confirm, run_round
from xel.align import align_languages, align_signature
from xel.clel import baseline_signature, baselines_folder, run_baselines
from xel.config import Config
from xel.corpus import (
    import_corpus,
    import_signature,
    import_under_way,
    read_source,
    target_languages,
)
from xel.errors import XelError
from xel.export import (
    Datasheet,
    collection_folder,
    collection_records,
    dataset_card,
    export_collection,
    export_signature,
    write_card,
)
from xel.hub import read_hub_files
from xel.kb import index_kb, index_path, kb_signature
from xel.languages import canonical
from xel.link import link_queries, link_signature
from xel.ner import ner_signature, ner_under_way, run_ner
from xel.partition import partition_signature, run_partition
from xel.persons import persons_signature, run_persons
from xel.progress import progress
from xel.project import project_languages, project_signature
from xel.queries import no_queries, queries_signature, read_queries, run_queries
from xel.report import card_sections, crowd_results, report, report_path, report_signature
from xel.stages import (
    Signature,
    StageRun,
    Work,
    commit,
    digest_of,
    is_current,
    parse_signature,
    versions,
)
from xel.store import Store
from xel.triage import triage_languages, triage_signature


@dataclass(frozen=True)
class Crowd:
    """How crowd rounds reach people: the backend, and for live MTurk the go-ahead."""

    backend: str
    live: bool = False
    confirm: Confirm | None = None


@dataclass(frozen=True)
class Stage:
    """One stage. Automatic stages have `signature` (their own settings: config section,
    inputs' digests, code, versions) and `prepare` (or `batch`, for several languages at once);
    crowd stages have `round` and `results` (what the crowd decided, as signature parts).
    Per-language stages run once per target language as `<name>:<lang>`; an upstream
    per-language stage is the same language's, or every language's for a stage that is not."""

    name: str
    writes: str  # what it writes, for `xel stages` and the reader
    upstream: tuple[str, ...] = ()  # the stages it reads from
    command: str = "xel build"  # the command that runs it ({lang}: a target language)
    per_language: bool = False
    signature: Callable[..., dict[str, str]] | None = None
    prepare: Callable[..., Work] | None = None
    batch: Callable[..., Iterator[tuple[str, Work]]] | None = None
    round: Callable[..., StageRun] | None = None
    results: Callable[..., dict[str, str]] | None = None
    outputs: Callable[[Config], list[Path]] | None = None  # files: rerun when one is missing
    home: Callable[[Config], Path] | None = None  # a store of its own (the shared KB index)
    under_way: Callable[[Store], str | None] | None = None  # how far an unfinished run got
    typed: tuple[str, ...] = ()  # what it also reads in a collection of more types than people

    @property
    def crowd(self) -> bool:
        return self.results is not None

    def instance(self, lang: str = "") -> str:
        return f"{self.name}:{lang}" if self.per_language else self.name

    def how(self, lang: str = "") -> str:
        return self.command.format(lang=lang or "L")


# --- crowd rounds and the stages that read the crowd's results --------------------------------


def el_round(store: Store, config: Config, crowd: Crowd) -> StageRun:
    """The entity-linking round: the crowd picks each query's KB entry (or NIL)."""
    if not read_queries(store):
        raise XelError(no_queries(store))
    done = run_round(store, config, "el", backend=crowd.backend, live=crowd.live,
                     confirm=crowd.confirm)
    waiting = (f"entity-linking batches {', '.join(done.pending)} wait for workers on "
               f"{crowd.backend}",) if done.pending else ()
    note = (f"entity-linking HITs ({crowd.backend}): {len(done.batches)} new batches, "
            f"aggregated {done.aggregated or '-'}")
    return StageRun("el", False, done.aggregated, waiting, (note,))


def el_results(store: Store, config: Config) -> dict[str, str]:
    links = results.links(store, config.hits.policy)
    return {"policy": config.hits.policy,
            "results": digest_of([[tuple(vars(link).values()) for _, link in sorted(links.items())],
                                  results.votes(store, "el")])}


def name_round(store: Store, config: Config, lang: str, crowd: Crowd) -> StageRun:
    """A name-curation round in one language: the crowd copies the name from the translation."""
    notes: tuple[str, ...] = ()
    if gold_shortfall(store, config, lang):
        notes = (f"{lang}: round trip accepted too few projections to serve as gold items: "
                 "name-curation workers in this language go unchecked",)
    done = run_round(store, config, "name", lang=lang, backend=crowd.backend, live=crowd.live,
                     confirm=crowd.confirm)
    waiting = (f"{lang}: name-curation batches {', '.join(done.pending)} wait for workers on "
               f"{crowd.backend}",) if done.pending else ()
    return StageRun(f"names:{lang}", False, done.aggregated, waiting, notes)


def name_results(store: Store, config: Config, lang: str) -> dict[str, str]:
    decided = [(o.query_id, o.outcome, o.name, o.simulated)
               for o in results.name_outcomes(store, lang) if o.outcome != "E"]
    queued = [(q.query_id, q.answers) for q in results.expert_queue(store, lang)]
    return {"results": digest_of([decided, queued, results.votes(store, "name", lang)])}


def expert_round(store: Store, config: Config, crowd: Crowd) -> StageRun:
    """Expert decisions are made by people (`hits serve`, `hits curate`) at their own pace:
    what waits is left out of this export, not waited for."""
    queued = len(results.expert_pending(store))
    decided = sum(o.outcome == "E" for o in results.name_outcomes(store))
    notes = (f"{queued} names wait for a local-language expert (`hits serve`, then the expert "
             "queue, or `hits curate`); they are left out of this export until decided",
             ) if queued else ()
    return StageRun("expert", False, {"decided": decided, "pending": queued}, (), notes)


def expert_results(store: Store, config: Config) -> dict[str, str]:
    decided = [(o.lang, o.query_id, o.name) for o in results.name_outcomes(store)
               if o.outcome == "E"]
    return {"results": digest_of(decided)}


def partition(store: Store, config: Config) -> Work:
    """Partition with the crowd's links (entity groups need each query's KB id)."""
    links = results.links(store, config.hits.policy, gold=False)
    return run_partition(store, config, {q: link.kb_id for q, link in links.items()})


def export(store: Store, config: Config) -> Work:
    """Export with the crowd's results; the card gets the signatures that made it and the
    report's figures. Table 6 needs the baselines, which run on the export (the `card` stage
    adds it then); when they already ran on an export with this very signature (a rerun: the
    export is byte for byte the same), the card has it at once."""
    langs = languages(store, config)
    own = signature(store, config, STAGES["export"], "", langs)
    ran = recorded(store, config, STAGES["baseline"])
    baselines = ran is not None and parse_signature(ran["signature"]).get("after:export") \
        == own.digest
    crowd = crowd_results(store, config)
    if not crowd.links:
        raise XelError(f"nothing to export from {store.path}: no query has a link the crowd "
                       f"agreed on yet (stage 'el'): run {STAGES['el'].how('')} first, or "
                       "`xel build` with the simulated crowd")
    sheet = Datasheet(own.text, provenance(store, config, "export", langs),
                      card_sections(store, config, baselines=baselines))
    return export_collection(store, config, crowd, sheet)


def card(store: Store, config: Config) -> Work:
    """The dataset card again, now with the baselines' Table 6 (they run on the export)."""
    langs = languages(store, config)
    exported = store.stage("export")
    if exported is None:
        raise XelError("the card is written after the export: run `xel export` first")
    sheet = Datasheet(exported["signature"], provenance(store, config, "export", langs),
                      card_sections(store, config, baselines=True))
    records, left_out = collection_records(store, config, crowd_results(store, config))
    text = dataset_card(config, store, records, left_out, sheet,
                        read_hub_files(collection_folder(config)))
    write_card(collection_folder(config), text)
    return lambda s: {"queries": len(records)}


def card_signature(store: Store, config: Config) -> dict[str, str]:
    return {"config": digest_of(config.export), **versions()}


def write_report(store: Store, config: Config) -> Work:
    return report(store, config, provenance(store, config, "report", languages(store, config)))


# --- the pipeline -----------------------------------------------------------------------------

PIPELINE = [
    Stage("import", "languages, documents, sentences (aligned across languages by segment)",
          command="xel corpus import", signature=import_signature, prepare=import_corpus,
          under_way=import_under_way),
    Stage("ner", "mentions: English person mentions", ("import",), "xel queries",
          signature=ner_signature, prepare=run_ner, under_way=ner_under_way),
    Stage("kb", "the KB index (its own file, kb.index, shared by collections)",
          command="xel kb build", signature=kb_signature, prepare=index_kb, home=index_path),
    Stage("persons", "person_check: each name's person score, evidence and verdict",
          ("ner", "kb"), "xel queries", signature=persons_signature, prepare=run_persons),
    Stage("queries", "queries and the attrition of each filter", ("ner", "persons"),
          "xel queries", signature=queries_signature, prepare=run_queries),
    Stage("link", "candidates (top k per query, scores, why) and their kb_entries",
          ("queries", "kb"), "xel queries", signature=link_signature, prepare=link_queries),
    Stage("el", "HITs, judgments, worker gold accuracy, payments, links", ("link",),
          "hits simulate --kind el (or hits make/publish/collect/review)",
          round=el_round, results=el_results),
    Stage("align", "alignments: tokens and word links of the sentence pairs with a mention",
          ("import", "ner"),
          "xel project --lang {lang}", per_language=True, signature=align_signature,
          batch=align_languages),
    Stage("project", "projections, projection_ranks (the chosen projection per name)",
          ("align", "ner"), "xel project --lang {lang}", per_language=True,
          signature=project_signature, batch=project_languages, typed=("persons",)),
    Stage("triage", "triage: back-translations, outcome A1, D1 or to curate",
          ("project", "queries"), "xel triage --lang {lang}", per_language=True,
          signature=triage_signature, batch=triage_languages, typed=("link",)),
    Stage("names", "name_outcomes A1/D1 (triage), A2/A3/D2 (crowd); expert_queue",
          ("triage",), "hits simulate --kind name --lang {lang}", per_language=True,
          round=name_round, results=name_results),
    Stage("expert", "name_outcomes E, expert_decisions (who, when)", ("names",),
          "hits serve (expert queue) or hits curate", round=expert_round,
          results=expert_results),
    Stage("partition", "partitions: train / devtest / test", ("queries", "el"), "xel export",
          signature=partition_signature, prepare=partition),
    Stage("export", "<output>/collection: TAC XML + tab, JSONL, documents, Parquet, card, "
          "croissant.json",
          ("partition", "el", "names", "expert"), "xel export", signature=export_signature,
          prepare=export, outputs=lambda config: [collection_folder(config)]),
    Stage("baseline", "<output>/baselines: the names and clel baselines' runs, clel's weights",
          ("export", "align", "kb"), "xel build", signature=baseline_signature,
          prepare=run_baselines, outputs=lambda config: [baselines_folder(config) / "names.tsv"]),
    Stage("card", "<output>/collection/README.md: the dataset card, with the baselines' Table 6",
          ("export", "baseline"), "xel build", signature=card_signature, prepare=card),
    Stage("report", "<output>/report.html: the paper's tables and figures", ("export", "baseline"),
          "xel report", signature=report_signature, prepare=write_report,
          outputs=lambda config: [report_path(config)]),
]
STAGES = {stage.name: stage for stage in PIPELINE}


# --- signatures -------------------------------------------------------------------------------


def languages(store: Store, config: Config, wanted: Sequence[str] | None = None) -> list[str]:
    """The target languages (canonical codes): the imported corpus's, or before the import the
    configured corpus's; `wanted` picks some (aliases such as `de` allowed)."""
    known = target_languages(store) or read_source(config).languages[1:]
    return [canonical(code, known) for code in wanted] if wanted else known


def reads(stage: Stage, config: Config | None) -> tuple[str, ...]:
    """The stages `stage` reads from in `config`'s collection (a people-only one's without a
    config)."""
    return stage.upstream + (stage.typed if config is not None and not config.people_only
                             else ())


def upstream_of(stage: Stage, lang: str, langs: Sequence[str], config: Config | None = None
                ) -> list[tuple[Stage, str]]:
    """The stage instances `stage` (in `lang`) reads from in `config`'s collection."""
    found = []
    for name in reads(stage, config):
        up = STAGES[name]
        codes = ([lang] if stage.per_language else list(langs)) if up.per_language else [""]
        found += [(up, code) for code in codes]
    return found


def recorded(store: Store, config: Config, stage: Stage, lang: str = "") -> Any:
    """The stored record of a stage instance (None if it never ran)."""
    if stage.home is None:
        return store.stage(stage.instance(lang))
    path = stage.home(config)
    if not path.is_file():
        return None
    with Store(path) as home:
        return home.stage(stage.instance(lang))


def signature(store: Store, config: Config, stage: Stage, lang: str,
              langs: Sequence[str]) -> Signature:
    """A stage instance's signature now: its upstream digests (`after:<stage>`; an automatic
    stage's as recorded, a crowd stage's as its results are now) and its own parts."""
    parts = {}
    for up, code in upstream_of(stage, lang, langs, config):
        key = "after:" + (up.name if stage.per_language or not up.per_language
                          else up.instance(code))
        if up.crowd:
            parts[key] = signature(store, config, up, code, langs).digest
            continue
        row = recorded(store, config, up, code)
        if row is None:
            where = up.home(config) if up.home else store.path
            raise XelError(f"stage {up.instance(code)!r} has not run on {where}: run "
                           f"`{up.how(code)}` first")
        parts[key] = row["digest"]
    own = stage.results if stage.crowd else stage.signature
    assert own is not None
    parts.update(own(store, config, lang) if stage.per_language else own(store, config))
    return Signature(stage.instance(lang), parts)


def provenance(store: Store, config: Config, name: str, langs: Sequence[str]) -> list[str]:
    """The signatures of every stage instance `name` is made from, by name."""
    found: dict[str, str] = {}
    todo = upstream_of(STAGES[name], "", langs, config)
    while todo:
        stage, lang = todo.pop()
        key = stage.instance(lang)
        if key in found:
            continue
        row = None if stage.crowd else recorded(store, config, stage, lang)
        found[key] = (row["signature"] if row is not None
                      else signature(store, config, stage, lang, langs).text)
        todo += upstream_of(stage, lang, langs, config)
    return [found[key] for key in sorted(found)]


# --- running ----------------------------------------------------------------------------------


def run_stage(store: Store, config: Config, stage: Stage, langs: Sequence[str], *,
              force: bool = False, crowd: Crowd | None = None) -> list[StageRun]:
    """Run one stage in every language of `langs` (once if it is not per language)."""
    codes = list(langs) if stage.per_language else [""]
    if stage.crowd:
        return [run_round_stage(store, config, stage, code, langs, crowd) for code in codes]
    home = Store(stage.home(config)) if stage.home else None
    target = home or store
    try:
        outputs = stage.outputs(config) if stage.outputs else []
        signatures = {code: signature(store, config, stage, code, langs) for code in codes}
        runs = {code: StageRun(sig.stage, True, target.stage_summary(sig.stage))
                for code, sig in signatures.items()
                if not force and is_current(target, sig, outputs)}
        todo = [code for code in codes if code not in runs]
        for code, work in prepared(target, config, stage, todo):
            runs[code] = commit(target, signatures[code], work)
    finally:
        if home is not None:
            home.close()
    return [runs[code] for code in codes]


def prepared(store: Store, config: Config, stage: Stage,
             codes: list[str]) -> Iterator[tuple[str, Work]]:
    """Each instance's writer, prepared one at a time (the runner commits each at once)."""
    if not codes:
        return
    if stage.batch is not None:
        yield from stage.batch(store, config, codes)
        return
    assert stage.prepare is not None
    if not stage.per_language:
        yield "", stage.prepare(store, config)
        return
    for code in progress(codes, f"{stage.name} languages"):
        yield code, stage.prepare(store, config, code)


def run_round_stage(store: Store, config: Config, stage: Stage, lang: str,
                    langs: Sequence[str], crowd: Crowd | None) -> StageRun:
    """Take a crowd round as far as it goes; once nothing waits, record what it decided."""
    if crowd is None:
        raise XelError(f"stage {stage.instance(lang)} needs a crowd: run `{stage.how(lang)}`")
    assert stage.round is not None
    done = (stage.round(store, config, lang, crowd) if stage.per_language
            else stage.round(store, config, crowd))
    if done.waiting:
        return done
    sig = signature(store, config, stage, lang, langs)
    unchanged = store.stage_digest(sig.stage) == sig.digest
    if not unchanged:
        with store.transaction():
            store.record_stage(sig.stage, sig.digest, sig.text, done.summary)
    return StageRun(sig.stage, unchanged, done.summary, (), done.notes)


def needs(names: Sequence[str], config: Config | None = None) -> set[str]:
    """`names` and every stage they read from, directly or not, in `config`'s collection."""
    found: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in STAGES:
            raise XelError(f"no stage {name!r}: the stages are {', '.join(STAGES)}")
        if name not in found:
            found.add(name)
            todo += reads(STAGES[name], config)
    return found


def run(store: Store, config: Config, names: Sequence[str], *,
        langs: Sequence[str] | None = None, force: bool = False,
        crowd: Crowd | None = None) -> list[StageRun]:
    """Run exactly the named stages, in pipeline order; each needs its upstream to have run.
    Per-language stages run in `langs` (default: every target language)."""
    needs(names)  # an unknown name is an error
    runs = []
    with store.running():
        for stage in PIPELINE:
            if stage.name in names:
                runs += run_stage(store, config, stage,
                                  stage_languages(store, config, stage, langs),
                                  force=force, crowd=crowd)
    return runs


def stage_languages(store: Store, config: Config, stage: Stage,
                    wanted: Sequence[str] | None = None) -> list[str]:
    """The languages a stage runs in (per-language stages: `wanted`, by default all) or reads
    from (a stage with per-language upstream reads every language's)."""
    if stage.per_language:
        return languages(store, config, wanted)
    if any(STAGES[name].per_language for name in stage.upstream):
        return languages(store, config)
    return []


def make(store: Store, config: Config, targets: Sequence[str], *,
         langs: Sequence[str] | None = None, force: bool = False) -> list[StageRun]:
    """Run `targets` and every automatic stage they need that is missing or stale, in
    pipeline order (`force` reruns the targets). Crowd rounds are not run: their results are
    read as they are."""
    wanted = needs(targets, config)
    runs = []
    for stage in PIPELINE:
        if stage.name in wanted and not stage.crowd:
            runs += run(store, config, [stage.name], langs=langs,
                        force=force and stage.name in targets)
    return runs


# --- what has run, and what would -------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    name: str  # the stage instance, e.g. `align:deu`
    stage: Stage
    state: str  # done, stale, never run, under way, waiting, unknown
    why: str  # what changed, what it waits for, or what went wrong
    row: Any  # its record (digest, signature, summary, finished_at), if it ran


def changed(old: str, new: Signature) -> str:
    """Which parts of a signature changed, e.g. `config, after:ner`."""
    before = parse_signature(old)
    keys = sorted(set(before) | set(new.parts), key=lambda k: (k.startswith("after:"), k))
    return ", ".join(k for k in keys if before.get(k) != new.parts.get(k))


def status(store: Store, config: Config) -> list[Status]:
    """Every stage instance of the config in order, with its state and why: `done`, `stale`
    (and which part of its signature changed, or which upstream stage reruns first), `never
    run`, `under way` (interrupted or running: how far, how fast, the time left), `waiting`
    (crowd batches out with people) or `unknown` (its inputs cannot be read).

    Runs nothing and writes nothing. A crowd stage whose results changed since `xel build`
    recorded them is stale, but what reads it is judged by its results as they are now."""
    found: list[Status] = []
    settled: dict[str, bool] = {}  # would downstream stages see this instance as it is now?
    langs: list[str] = []
    for stage in PIPELINE:
        if stage.per_language and not langs:
            try:
                langs = (target_languages(store) if settled.get("import")
                         else read_source(config).languages[1:])
            except XelError as e:
                found.append(Status(f"{stage.name}:*", stage, "unknown", str(e), None))
                continue
        for code in langs if stage.per_language else [""]:
            name = stage.instance(code)
            row = recorded(store, config, stage, code)
            state, why = _state(store, config, stage, code, langs, row, settled)
            partial = stage.under_way(store) if stage.under_way and state != "done" else None
            if partial:
                state, why = "under way", partial
            settled[name] = state == "done" or (stage.crowd and state in ("stale", "never run")
                                                and not why.startswith("after "))
            found.append(Status(name, stage, state, why, row))
    return found


def _state(store: Store, config: Config, stage: Stage, lang: str, langs: list[str],
           row: Any, settled: dict[str, bool]) -> tuple[str, str]:
    if stage.crowd and stage.name != "expert":
        batches = results.open_batches(store, "el" if stage.name == "el" else "name", lang)
        if batches:
            return "waiting", f"batches {', '.join(batches)} are out with people"
    behind = [up.instance(code) for up, code in upstream_of(stage, lang, langs, config)
              if not settled.get(up.instance(code))]
    if behind:
        shown = ", ".join(behind[:3]) + (f" and {len(behind) - 3} more" if len(behind) > 3
                                          else "")
        return ("stale" if row else "never run"), f"after {shown}"
    try:
        sig = signature(store, config, stage, lang, langs)
    except XelError as e:
        return "unknown", str(e)
    if row is None:
        return "never run", ""
    if row["digest"] != sig.digest:
        return "stale", f"{changed(row['signature'], sig)} changed"
    missing = [str(p) for p in (stage.outputs(config) if stage.outputs else []) if not p.exists()]
    if missing:
        return "stale", f"{', '.join(missing)} is missing"
    return "done", ""
