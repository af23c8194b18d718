"""The collection report: the paper's tables and figures as one self-contained HTML page.

Each section is a pure function from the store to a pandas DataFrame, and each figure a small
matplotlib plot inlined as SVG, so the page opens offline and shows what is there so far: a
report made before the crowd has answered says so instead of failing. With `xel.build` and
`xel.pipeline` this module is the top layer: it reads xel's stages and the crowd's results
(`hits.results`) alike.
"""

from __future__ import annotations

import io
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from jinja2 import Environment, PackageLoader, select_autoescape  # noqa: E402
from markupsafe import Markup  # noqa: E402

from hits import results  # noqa: E402
from hits.cost import CENT, per_assignment  # noqa: E402
from hits.report import gold_checks  # noqa: E402
from hits.store import EL_CHOICES, NIL, NOT_A_PERSON, NOT_ENOUGH_INFO  # noqa: E402
from xel.clel import SYSTEMS, baselines_folder  # noqa: E402
from xel.config import Config  # noqa: E402
from xel.entity_types import Typed, a_noun, noun, read_types  # noqa: E402
from xel.export import (  # noqa: E402
    CrowdResults,
    Record,
    collection_folder,
    collection_records,
    slice_labels,
)
from xel.partition import read_partitions  # noqa: E402
from xel.persons import read_checks  # noqa: E402
from xel.queries import Query, read_queries  # noqa: E402
from xel.queries import declare as declare_queries  # noqa: E402
from xel.score import (  # noqa: E402
    SystemRow,
    pct,
    read_facts,
    read_gold,
    read_run,
    table6,
    type_table,
)
from xel.stages import Work, code_digest, digest_of, file_digest  # noqa: E402
from xel.store import Store  # noqa: E402
from xel.triage import Triaged, read_triage  # noqa: E402

OUTCOMES = ["A1", "A2", "A3", "E", "D1", "D2", "pending"]
COLOURS = {"A1": "#1b7837", "A2": "#5aae61", "A3": "#a6dba0", "E": "#762a83",
           "D1": "#d6604d", "D2": "#f4a582", "pending": "#bababa"}
TEMPLATE = Path(__file__).parent / "templates" / "report.html"
REPORT_CODE = digest_of([code_digest(sys.modules[__name__]), file_digest(TEMPLATE)])


def frame(store: Store, sql: str, params: tuple[object, ...] = ()) -> pd.DataFrame:
    rows = store.query(sql, params)
    return pd.DataFrame([tuple(r) for r in rows],
                        columns=list(rows[0].keys()) if rows else None)


def rows_frame(rows: Sequence[object], columns: list[str]) -> pd.DataFrame:
    """Typed rows (dataclasses) as a DataFrame with the given columns."""
    return pd.DataFrame([asdict(r) for r in rows] or None, columns=columns)  # type: ignore[call-overload]


# --- sections -------------------------------------------------------------------------------


def english_attrition(store: Store, policy: str) -> pd.DataFrame:
    """Table 3, English side: NER mentions through the filters to crowd-linked queries; one
    block per type, with a `type` column, when the collection has more than people."""
    steps = frame(store, "SELECT filter, mentions_before, mentions_after, names_after, type"
                         " FROM attrition ORDER BY step")
    queries = read_queries(store)
    links = results.links(store, policy)
    kinds = list(dict.fromkeys(steps["type"])) if len(steps) else ["PER"]
    if kinds == ["PER"] and {q.type for q in queries} <= {"PER"}:
        return pd.DataFrame(attrition_rows(steps, queries, links, "PER"))
    return pd.DataFrame([{"type": kind, **row} for kind in kinds
                         for row in attrition_rows(steps[steps["type"] == kind],
                                                   [q for q in queries if q.type == kind],
                                                   links, kind)])


def attrition_rows(steps: pd.DataFrame, queries: Sequence[Query],
                   links: Mapping[str, results.Link], kind: str) -> list[dict[str, object]]:
    """One type's attrition: its NER mentions, each filter, its queries and the crowd."""
    what = noun(kind)
    rows: list[dict[str, object]] = [{
        "step": f"{what} mentions found by NER", "removed": 0,
        "left": int(steps["mentions_before"].iloc[0]) if len(steps) else 0}]
    for s in steps.itertuples():
        rows.append({"step": f"filter: {s.filter}",
                     "removed": int(s.mentions_before - s.mentions_after),
                     "left": int(s.mentions_after)})
    rows.append({"step": "queries (one per name and document)", "removed": 0,
                 "left": len(queries)})
    # Each query's link: the crowd's under the policy, else its known (gold) answer.
    decided = Counter(links[q.query_id].label for q in queries if q.query_id in links)
    if decided:
        left = len(queries)
        for label, why in ((NOT_A_PERSON, f"crowd: not {a_noun(kind)}"),
                           (NOT_ENOUGH_INFO, "crowd: not enough information")):
            left -= decided.get(label, 0)
            rows.append({"step": why, "removed": decided.get(label, 0), "left": left})
        undecided = len(queries) - sum(decided.values())
        rows.append({"step": "crowd: no agreement", "removed": undecided,
                     "left": left - undecided})
    return rows


def person_rejections(store: Store, people_only: bool = True) -> pd.DataFrame:
    """The names the person check rejected, the surest first, with their evidence; in a
    collection of more types, with the type the type check gave each instead (`none`: no
    type, not asked about)."""
    rows = sorted((c for c in read_checks(store).values() if not c.person),
                  key=lambda c: (c.score, c.name_key))
    typed = {} if people_only else read_types(store)
    columns = ["name", "score", "evidence", *([] if people_only else ["type"])]
    return pd.DataFrame([{"name": c.name, "score": c.score,
                          "evidence": ", ".join(f"{k} {v:+.1f}" for k, v in c.evidence.items()),
                          **({} if people_only else {"type": _type_of(typed.get(c.name_key))})}
                         for c in rows], columns=columns)


def _type_of(typed: Typed | None) -> str:
    return typed.type if typed is not None and typed.type else "none"


def language_outcomes(store: Store) -> pd.DataFrame:
    """Figure 9: per language, how many queries each outcome accepted or discarded."""
    return outcome_table(store, read_triage(store), lambda lang, _: lang)


def outcome_table(store: Store, triaged: Sequence[Triaged],
                  group: Callable[[str, str], str]) -> pd.DataFrame:
    """Outcome counts per group of (language, query id): the crowd's and experts' decisions,
    and `pending` for triaged queries still waiting for them."""
    decided = results.name_outcomes(store)
    known = {(o.lang, o.query_id) for o in decided}
    counts = Counter((group(o.lang, o.query_id), o.outcome) for o in decided)
    counts.update((group(t.lang, t.query_id), "pending") for t in triaged
                  if (t.lang, t.query_id) not in known)
    table = pd.DataFrame(0, index=sorted({key for key, _ in counts}), columns=OUTCOMES)
    for (key, outcome), n in counts.items():
        table.loc[key, outcome] = n
    return table


def type_outcomes(store: Store) -> pd.DataFrame:
    """Per type, how many queries (over every language) each outcome accepted or discarded,
    with the round trip's acceptance (A1 of the projected)."""
    kinds = {q.query_id: q.type for q in read_queries(store)}
    triaged = read_triage(store)
    table = outcome_table(store, triaged, lambda _, query_id: kinds.get(query_id, "PER"))
    outcomes = Counter((kinds.get(t.query_id, "PER"), t.outcome) for t in triaged)
    table["A1 of projected"] = [
        outcomes[(k, "A1")] / max(1, sum(n for (kk, o), n in outcomes.items()
                                         if kk == k and o != "D1")) for k in table.index]
    return table


CROWD_ABOUT = ("The entity-linking round per type of query: queries asked, the crowd's "
               "judgments (known-answer items aside), what the policy decided and how much the "
               "judgments agreed with it (the decided answer's share of a query's judgments, "
               "averaged).")
CROWD_COLUMNS = ["type", "queries asked", "judgments", "judgments per query", "linked", "NIL",
                 "not of the type", "not enough information", "no agreement", "agreement"]


def crowd_by_type(store: Store, config: Config) -> pd.DataFrame:
    """Per type (in the config's order), the entity-linking round's work and decisions
    (`CROWD_ABOUT`): whether organizations or places cost the crowd more than people."""
    kinds = {q.query_id: q.type for q in read_queries(store)}
    said = results.votes(store, kind="el")
    decided = results.links(store, config.hits.policy, gold=False)
    rows = []
    for kind in config.types:
        asked = [q for q, k in kinds.items() if k == kind and said.get(q)]
        judgments = sum(sum(said[q].values()) for q in asked)
        labels = Counter(decided[q].label if q in decided else "" for q in asked)
        shares = [said[q].get(decided[q].label, 0) / sum(said[q].values())
                  for q in asked if q in decided]
        rows.append({"type": kind, "queries asked": len(asked), "judgments": judgments,
                     "judgments per query": judgments / len(asked) if asked else None,
                     "linked": sum(n for label, n in labels.items()
                                   if label and label not in EL_CHOICES),
                     "NIL": labels[NIL], "not of the type": labels[NOT_A_PERSON],
                     "not enough information": labels[NOT_ENOUGH_INFO],
                     "no agreement": labels[""],
                     "agreement": sum(shares) / len(shares) if shares else None})
    return pd.DataFrame(rows, columns=CROWD_COLUMNS)


def round_trip(store: Store) -> pd.DataFrame:
    """Figure 8: per language, the share of projections whose back-translation matched."""
    by_lang: dict[str, Counter[str]] = {}
    for row in read_triage(store):
        by_lang.setdefault(row.lang, Counter())[row.outcome] += 1
    t = pd.DataFrame([{"lang": lang, "exact": c["A1"], "projected": c.total() - c["D1"],
                       "queries": c.total()} for lang, c in sorted(by_lang.items())])
    if len(t):
        t["exact_rate"] = t["exact"] / t["projected"].where(t["projected"] > 0)
    return t


def per_language(records: list[Record]) -> pd.DataFrame:
    """Table 4: per language and partition, queries and non-NIL queries."""
    if not records:
        return pd.DataFrame()
    df = pd.DataFrame([{"lang": r.lang, "partition": r.partition, "non_nil": r.kb_id != "NIL"}
                       for r in records])
    table = df.pivot_table(index="lang", columns="partition", values="non_nil",
                           aggfunc="size", fill_value=0)
    table["queries"] = table.sum(axis=1)
    table["non-NIL"] = df.groupby("lang")["non_nil"].sum()
    table.columns.name = None
    return table


def worker_accuracy(store: Store) -> pd.DataFrame:
    """Figure 7: each worker's accuracy on gold items in each batch."""
    return rows_frame([w for w in results.worker_gold(store) if w.accuracy is not None],
                      ["batch_id", "worker", "gold_items", "accuracy", "dropped"])


def time_on_task(store: Store) -> pd.DataFrame:
    """Figure 6: seconds per assignment, by HIT type."""
    return rows_frame(results.timings(store), ["kind", "seconds"])


def refused(store: Store) -> pd.DataFrame:
    """Submissions the local server refused (never stored as judgments): who, what, why, when."""
    table = rows_frame(results.refusals(store),
                       ["refused_at", "worker", "hit_id", "reason", "detail"])
    table = table.rename(columns={"hit_id": "hit"})
    if len(table):
        table.insert(0, "when (UTC)", pd.to_datetime(table.pop("refused_at"), unit="s")
                     .dt.strftime("%Y-%m-%d %H:%M:%S"))
    return table


def rejected(store: Store) -> pd.DataFrame:
    """Assignments rejected (not paid), per batch, worker and reason."""
    return rows_frame(results.rejections(store),
                      ["batch_id", "worker", "assignments", "reason"]).rename(
        columns={"batch_id": "batch"})


def crowd_cost(store: Store) -> pd.DataFrame:
    """Cost per batch of every assignment received (extensions' too), at MTurk rates."""
    return pd.DataFrame([{"batch": b.batch_id, "kind": b.kind, "environment": b.environment,
                          "hits": b.hits, "assignments": b.collected,
                          "cost": float((per_assignment(b.reward, b.assignments)
                                         * b.collected).quantize(CENT))}
                         for b in results.batch_sizes(store)])


def cost_per_accepted(store: Store, policy: str) -> pd.DataFrame:
    """Judgments and dollars per accepted query, per round and language."""
    return pd.DataFrame([{
        "round": "entity linking" if c.kind == "el" else "names", "lang": c.lang or "eng",
        "assignments": c.assignments, "paid": c.paid, "judgments": c.judgments,
        "accepted": c.accepted, "judgments/accepted": c.judgments_per_accepted,
        "cost": c.dollars, "cost/accepted": c.dollars_per_accepted,
    } for c in results.round_costs(store, policy)])


def gold_check_table(store: Store, config: Config) -> pd.DataFrame:
    """Per round and language: the policy's decisions on its known-answer items when hidden."""
    return pd.DataFrame([{
        "round": "entity linking" if kind == "el" else "names", "lang": lang or "eng",
        "gold items": c.items, "decided": c.decided, "right": c.right,
        "accuracy": c.accuracy, "promised": c.expected,
    } for kind, lang, c in gold_checks(store, config)])


def table6_rows(config: Config, by_type: bool = False) -> dict[str, list[SystemRow]]:
    """Lawrie et al.'s Table 6 on the test partition (per language, or `by_type`), for the
    baselines the baseline stage ran (empty before it has)."""
    collection, folder = collection_folder(config), baselines_folder(config)
    runs = {name: read_run(folder / f"{name}.tsv") for name in SYSTEMS
            if (folder / f"{name}.tsv").is_file()}
    if not runs or not collection.is_dir():
        return {}
    gold = read_gold(collection)
    if not any(g.partition == "test" for g in gold):
        return {}
    scored = type_table if by_type else table6
    return scored(gold, runs, read_facts(collection), "test")


def table6_frame(table: dict[str, list[SystemRow]]) -> pd.DataFrame:
    """Table 6 as a page shows it: percentages, one column group per system."""
    rows = []
    for lang, systems in table.items():
        s = systems[0].score
        row: dict[str, object] = {"lang": lang, "queries": s.queries, "in-KB": s.in_kb,
                                  "NIL": s.nil}
        for r in systems:
            english = r.english.success_at_1 if r.english else None
            row |= {f"{r.system} S@1": pct(r.score.success_at_1).strip(),
                    f"{r.system} in-KB": pct(r.score.in_kb_accuracy).strip(),
                    f"{r.system} NIL": pct(r.score.nil_accuracy).strip(),
                    f"{r.system} eng S@1": pct(english).strip()}
        rows.append(row)
    return pd.DataFrame(rows)


def slice_counts(records: list[Record]) -> pd.DataFrame:
    """Queries per language and slice (the datasheet's count)."""
    counts: dict[str, Counter[str]] = {}
    for r in records:
        counts.setdefault(r.lang, Counter()).update(slice_labels(asdict(r)))
    return pd.DataFrame.from_dict(counts, orient="index").fillna(0).astype(int).sort_index(
        axis=1) if counts else pd.DataFrame()


# --- figures ---------------------------------------------------------------------------------


def svg(fig: plt.Figure) -> Markup:
    """A figure as inline SVG (no timestamp, so unchanged data gives an unchanged page)."""
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = out.getvalue()
    return Markup(text[text.index("<svg"):])


def bar(values: pd.Series, title: str, ylabel: str) -> Markup:
    fig, ax = plt.subplots(figsize=(max(4, 0.35 * len(values) + 2), 3))
    ax.bar([str(i) for i in values.index], values.to_numpy(), color="#4393c3")
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.tick_params(axis="x", labelrotation=90)
    return svg(fig)


def stacked(table: pd.DataFrame, title: str) -> Markup:
    fig, ax = plt.subplots(figsize=(max(4, 0.35 * len(table) + 2), 3.2))
    bottom = pd.Series(0, index=table.index)
    for outcome in table.columns:
        ax.bar(table.index, table[outcome], bottom=bottom, label=outcome,
               color=COLOURS.get(outcome))
        bottom = bottom + table[outcome]
    ax.set_title(title)
    ax.set_ylabel("queries")
    ax.tick_params(axis="x", labelrotation=90)
    ax.legend(ncol=len(table.columns), fontsize="small", loc="upper center",
              bbox_to_anchor=(0.5, -0.35))
    return svg(fig)


def histogram(values: pd.Series, title: str, xlabel: str, bins: int = 20) -> Markup:
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist(values.dropna().to_numpy(), bins=bins, color="#4393c3", edgecolor="white")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    return svg(fig)


def table6_figure(table: dict[str, list[SystemRow]]) -> Markup:
    """One small plot per language: each system's S@1, in-KB and NIL accuracy as bars, its
    English S@1 on the same queries as a black tick over its S@1 bar."""
    langs = list(table)
    cols = min(6, len(langs))
    rows = -(-len(langs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(2.1 * cols, 1.9 * rows), sharey=True,
                             squeeze=False)
    colours = ["#bababa", "#4393c3", "#d6604d", "#5aae61"]
    width = 0.8 / max(1, len(table[langs[0]]))
    for ax, lang in zip(axes.flat, langs, strict=False):
        for k, r in enumerate(table[lang]):
            values = [r.score.success_at_1, r.score.in_kb_accuracy, r.score.nil_accuracy]
            ax.bar([i + k * width for i in range(3)], [100 * (v or 0) for v in values], width,
                   label=r.system, color=colours[k % len(colours)])
            if r.english:
                ax.plot([k * width], [100 * r.english.success_at_1], "k_", markersize=9)
        ax.set_title(lang, fontsize="small")
        ax.set_xticks([i + 0.4 - width / 2 for i in range(3)], ["S@1", "in-KB", "NIL"],
                      fontsize="x-small")
        ax.set_ylim(0, 108)
    for ax in list(axes.flat)[len(langs):]:
        ax.axis("off")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(labels), fontsize="small")
    return svg(fig)


# --- the page --------------------------------------------------------------------------------


@dataclass
class Section:
    title: str
    note: str
    table: Markup | None = None
    figure: Markup | None = None


# Columns that hold shares, not counts, even when every value is a whole number.
SHARES = {"exact_rate", "accuracy", "support", "judgments/accepted"}


def for_display(df: pd.DataFrame) -> pd.DataFrame:
    """Counts as integers (153, not 153.000, even where a missing value made pandas store
    them as floats) and costs in dollars."""
    shown = df.copy()
    for column in shown.columns:
        values = shown[column]
        if str(column) in ("cost", "cost/accepted"):
            shown[column] = values.map(lambda v: "–" if pd.isna(v) else f"${v:,.2f}")
        elif (pd.api.types.is_float_dtype(values) and str(column) not in SHARES
              and values.dropna().map(float.is_integer).all()):
            shown[column] = values.astype("Int64")
    return shown


def html_table(df: pd.DataFrame, index: bool = False) -> Markup:
    """A DataFrame as an HTML table; pandas escapes cell text (names come from corpus data)."""
    return Markup(for_display(df).to_html(index=index, escape=True, border=0, classes="data",
                                          float_format=lambda x: f"{x:.3f}", na_rep="–"))


def crowd_results(store: Store, config: Config) -> CrowdResults:
    """What the crowd decided, as the export reads it."""
    return CrowdResults(results.links(store, config.hits.policy), results.name_outcomes(store),
                 results.votes(store))


def sections(store: Store, config: Config) -> list[Section]:
    declare_queries(store)
    out = []
    attrition = english_attrition(store, config.hits.policy)
    out.append(Section("Attrition (as Lawrie et al.'s Table 3)",
                       "What each step removed on the English side.", html_table(attrition)))
    if not config.people_only:
        by_type = type_outcomes(store)
        out.append(Section(
            "Outcomes per type",
            "Every language's queries of each type: how the round trip, the crowd and experts "
            "accepted or discarded them, and the share of projections the round trip accepted "
            "(A1 of those projected).",
            html_table(by_type.reset_index().rename(columns={"index": "type"}))
            if len(by_type) else None,
            stacked(by_type[OUTCOMES], "outcomes per type") if len(by_type) else None))
    if not config.people_only:
        crowd = crowd_by_type(store, config)
        out.append(Section(
            "The crowd's links per type", CROWD_ABOUT,
            html_table(crowd) if crowd["queries asked"].sum() else None,
            bar(crowd.set_index("type")["agreement"], "agreement per type", "agreement")
            if crowd["queries asked"].sum() else None))
    not_people = person_rejections(store, config.people_only)
    out.append(Section(
        "Names the person check rejected",
        (f"{len(not_people)} names NER called people's were not made queries: "
         if config.people_only else
         f"{len(not_people)} names NER called people's were not made people's queries (`type`:"
         " the type the type check gave each instead; `none`: not asked about): ")
        + "the evidence (log-odds) that moved each score, under the threshold "
        f"{config.persons.threshold:+.1f} (`persons.threshold`). A `yes` in the review list "
        "(`xel queries --export-review`, then `queries.review`) brings one back.",
        html_table(not_people.head(50)) if len(not_people) else None))
    records = (collection_records(store, config, crowd_results(store, config))[0]
               if read_partitions(store) else [])
    table4 = per_language(records)
    out.append(Section(
        "Queries per language (Table 4)",
        "Queries in the finished collection per partition, and how many link to the KB."
        if len(table4) else "No finished queries yet: run `xel build` to the end.",
        html_table(table4.reset_index()) if len(table4) else None,
        bar(table4["queries"], "queries per language", "queries") if len(table4) else None))
    table6 = table6_rows(config)
    out.append(Section(
        "Baselines on test (Table 6)",
        "Success@1 (NIL included), in-KB and NIL accuracy (%) on each language's test queries "
        "for the name-matching baseline (`names`) and the cross-language linker learned on "
        "train and tuned on devtest (`clel`); `eng S@1` is the same system on the same "
        "queries in English (the monolingual figure). Ticks in the plots mark it."
        if table6 else "No baseline runs yet: `xel build` runs them after the export.",
        html_table(table6_frame(table6)) if table6 else None,
        table6_figure(table6) if table6 else None))
    kinds = table6_rows(config, by_type=True) if not config.people_only else {}
    if kinds:
        out.append(Section(
            "Baselines on test per type (Table 6)",
            "The same figures per entity type, every language but English pooled; `eng S@1` "
            "is the system on the English originals of those queries.",
            html_table(table6_frame(kinds).rename(columns={"lang": "type"})),
            table6_figure(kinds)))
    slices = slice_counts(records)
    out.append(Section(
        "Queries per slice",
        "prior:top/lower/none: where the alias prior alone ranks the gold entity; "
        "train:seen/new: whether another train query has its entity or English name; "
        "nil:<type>: why a NIL query is NIL (see the datasheet).",
        html_table(slices.reset_index().rename(columns={"index": "lang"}))
        if len(slices) else None))
    rt = round_trip(store)
    out.append(Section(
        "Round-trip exact match (Figure 8)",
        "Share of projected names whose translation back to English matched exactly (A1).",
        html_table(rt) if len(rt) else None,
        bar(rt.set_index("lang")["exact_rate"], "round-trip exact match", "share")
        if len(rt) else None))
    outcomes = language_outcomes(store)
    out.append(Section(
        "Accept and discard outcomes (Figure 9)",
        "A1 round trip, A2 three workers agree, A3 two agree and one says missing, E expert; "
        "D1 no projection, D2 two or more say missing; pending waits for crowd or expert.",
        html_table(outcomes.reset_index().rename(columns={"index": "lang"}))
        if len(outcomes) else None,
        stacked(outcomes, "outcomes per language") if len(outcomes) else None))
    acc = worker_accuracy(store)
    out.append(Section(
        "Worker accuracy on gold items (Figure 7)",
        f"{len(acc)} worker-batches; {int(acc['dropped'].sum()) if len(acc) else 0} dropped "
        f"under {config.hits.threshold:.0%}.",
        None, histogram(acc["accuracy"], "gold accuracy per worker and batch", "accuracy")
        if len(acc) else None))
    tot = time_on_task(store)
    out.append(Section(
        "Time on task (Figure 6)", "Seconds from accepting to submitting an assignment.",
        html_table(tot.groupby("kind")["seconds"].describe().reset_index()) if len(tot) else None,
        histogram(tot["seconds"], "seconds per assignment", "seconds") if len(tot) else None))
    refusals = refused(store)
    reasons = refusals["reason"].value_counts() if len(refusals) else pd.Series(dtype=int)
    out.append(Section(
        "Refused submissions",
        f"{len(refusals)} submissions to the local server were refused and never stored as "
        "judgments" + (": " + ", ".join(f"{n} {r}" for r, n in reasons.items()) + "."
                       if len(refusals) else "."),
        html_table(refusals) if len(refusals) else None))
    rejections = rejected(store)
    below = config.hits.payment_threshold
    out.append(Section(
        "Rejected assignments",
        f"{int(rejections['assignments'].sum()) if len(rejections) else 0} assignments rejected "
        f"(not paid): workers under {below:.0%} on "
        "the batch's known-answer items, or with nothing answered.",
        html_table(rejections) if len(rejections) else None))
    spend = crowd_cost(store)
    final = len({r.query_id for r in records})
    total = float(spend["cost"].sum()) if len(spend) else 0.0
    out.append(Section(
        "Cost", f"${total:.2f} in all at MTurk rates (reward plus commission) for every "
        "assignment received" + (f", ${total / final:.3f} per finished English query."
                                 if final else "."),
        html_table(spend) if len(spend) else None))
    checks = gold_check_table(store, config)
    out.append(Section(
        "How sure the crowd decisions are",
        f"The policy ({config.hits.policy}) on each round's known-answer items, a fifth of them "
        "hidden from it at a time: how many it decided, how many of those were right, and the "
        "accuracy its posteriors promised. Accuracy well under the promise means the crowd is "
        "wrong in ways the model cannot see (many workers giving the same wrong answer): check "
        "the known answers and those workers' decisions by hand.",
        html_table(checks) if len(checks) else None))
    per_query = cost_per_accepted(store, config.hits.policy)
    out.append(Section(
        "Cost per accepted query",
        f"Per round and language (policy {config.hits.policy}): non-gold judgments in paid "
        "assignments and dollars paid, per query the round accepted (entity linking: linked, "
        "NIL included; names: A2 and A3).",
        html_table(per_query) if len(per_query) else None))
    return out


# --- the dataset card's figures ---------------------------------------------------------------


def markdown_table(df: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table, cells as the page shows them; `|` in names escaped."""
    shown = for_display(df)

    def cell(v: object) -> str:
        if v is None or (not isinstance(v, str) and pd.isna(v)):
            return "–"
        text = f"{v:.3f}" if isinstance(v, float) else str(v)
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(str(c) for c in shown.columns) + " |",
             "|" + "---|" * len(shown.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |"
              for row in shown.itertuples(index=False)]
    return "\n".join(lines)


def card_sections(store: Store, config: Config, baselines: bool) -> list[str]:
    """The report's attrition, crowd and (once the baseline stage has run: `baselines`) Table 6
    figures as Markdown sections for the dataset card, from the functions the page uses."""
    out = ["## Attrition (Table 3)\n\nWhat each step removed on the English side.\n\n"
           + markdown_table(english_attrition(store, config.hits.policy))]
    outcomes = language_outcomes(store)
    if len(outcomes):
        out.append("## Outcomes per language (Figure 9)\n\nA1 round trip, A2 three workers "
                   "agree, A3 two agree and one says missing, E expert; D1 no projection, D2 "
                   "two or more say missing; pending waits for crowd or expert.\n\n"
                   + markdown_table(outcomes.reset_index().rename(columns={"index": "lang"})))
    acc = worker_accuracy(store)
    spend = crowd_cost(store)
    dropped = int(acc["dropped"].sum()) if len(acc) else 0
    total = float(spend["cost"].sum()) if len(spend) else 0.0
    out.append("## Crowd\n\n"
               f"- worker-batches scored on gold items: {len(acc)}; dropped under "
               f"{config.hits.threshold:.0%}: {dropped}\n"
               f"- mean gold accuracy: "
               + (f"{acc['accuracy'].mean():.3f}" if len(acc) else "–") + "\n"
               f"- cost at MTurk rates (reward plus commission): ${total:.2f}"
               + ("\n\nThese come from xel's simulated crowd, not from people."
                  if results.simulated(store) else ""))
    table6 = table6_rows(config) if baselines else {}
    out.append("## Baselines on test (Table 6)\n\n" + (
        "Success@1 (NIL included), in-KB and NIL accuracy (%) on each language's test queries "
        "for the name-matching baseline (`names`) and the cross-language linker learned on "
        "train and tuned on devtest (`clel`); `eng S@1` is the same system on the same "
        "queries in English.\n\n" + markdown_table(table6_frame(table6)) if table6
        else "The baselines ran; the collection has no test queries to score them on."
        if baselines else
        "Not run on this export yet: `xel build` runs the baselines after the export and "
        "adds their table here."))
    if not config.people_only:
        by_type = type_outcomes(store)
        if len(by_type):
            out.append("## Outcomes per type\n\nEvery language's queries of each type, by "
                       "outcome, and the share of projections the round trip accepted.\n\n"
                       + markdown_table(by_type.reset_index().rename(
                           columns={"index": "type"})))
        crowd = crowd_by_type(store, config)
        if crowd["queries asked"].sum():
            out.append(f"## The crowd's links per type\n\n{CROWD_ABOUT}\n\n"
                       + markdown_table(crowd))
        kinds = table6_rows(config, by_type=True) if baselines else {}
        if kinds:
            out.append("## Baselines on test per type (Table 6)\n\nEvery language but English "
                       "pooled; `eng S@1` is the system on the English originals.\n\n"
                       + markdown_table(table6_frame(kinds).rename(columns={"lang": "type"})))
    return out


def report_path(config: Config) -> Path:
    return config.resolve(config.output) / "report.html"


def report_signature(store: Store, config: Config) -> dict[str, str]:
    """The report's own inputs beyond its upstream: what the crowd did, and its code."""
    return {"crowd": digest_of(results.activity(store)), "code": REPORT_CODE,
            "config": digest_of({"policy": config.hits.policy, "threshold": config.hits.threshold,
                                 "reject_below": config.hits.reject_below})}


def write_report(store: Store, config: Config, path: Path, provenance: Sequence[str]) -> Path:
    """Render the report to `path` (HTML, self-contained), listing the signatures of the
    stages it shows (`provenance`)."""
    env = Environment(loader=PackageLoader("xel", "templates"),
                      autoescape=select_autoescape(["html"]))
    page = env.get_template("report.html").render(
        name=config.name, sections=sections(store, config), simulated=results.simulated(store),
        signature=list(provenance))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def report(store: Store, config: Config, provenance: Sequence[str]) -> Work:
    """The report stage: write the page; the writer only returns its size."""
    page = write_report(store, config, report_path(config), provenance)
    sections = page.read_text(encoding="utf-8").count("<section")
    return lambda s: {"sections": sections}
