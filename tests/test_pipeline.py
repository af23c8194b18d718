"""The declared pipeline: its golden list, the order it implies, and the boundary between xel
and hits that it wires."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from xel.errors import XelError
from xel.pipeline import PIPELINE, STAGES, needs, upstream_of

ROOT = Path(__file__).resolve().parents[1]

# (name, upstream, per language, crowd): change it only with the pipeline, on purpose.
GOLDEN = [
    ("import", (), False, False),
    ("ner", ("import",), False, False),
    ("kb", (), False, False),
    ("persons", ("ner", "kb"), False, False),
    ("queries", ("ner", "persons"), False, False),
    ("link", ("queries", "kb"), False, False),
    ("el", ("link",), False, True),
    ("align", ("import", "ner"), True, False),
    ("project", ("align", "ner"), True, False),
    ("triage", ("project", "queries"), True, False),
    ("names", ("triage",), True, True),
    ("expert", ("names",), False, True),
    ("partition", ("queries", "el"), False, False),
    ("export", ("partition", "el", "names", "expert"), False, False),
    ("baseline", ("export", "align", "kb"), False, False),
    ("card", ("export", "baseline"), False, False),
    ("report", ("export", "baseline"), False, False),
]


def test_the_declared_pipeline_is_the_golden_list() -> None:
    assert [(s.name, s.upstream, s.per_language, s.crowd) for s in PIPELINE] == GOLDEN


def test_every_stage_comes_after_what_it_reads_and_can_run() -> None:
    seen: set[str] = set()
    for stage in PIPELINE:
        assert set(stage.upstream) <= seen, stage.name
        seen.add(stage.name)
        if stage.crowd:
            assert stage.round is not None and stage.signature is None
        else:
            assert stage.signature is not None
            assert (stage.prepare is None) != (stage.batch is None), stage.name
        assert stage.command and stage.writes


def test_languages_expand_per_language_stages_and_their_readers() -> None:
    langs = ["deu", "fra"]
    assert STAGES["align"].instance("deu") == "align:deu" and STAGES["ner"].instance() == "ner"
    project = [(s.name, lang) for s, lang in upstream_of(STAGES["project"], "fra", langs)]
    assert project == [("align", "fra"), ("ner", "")]
    export = [(s.name, lang) for s, lang in upstream_of(STAGES["export"], "", langs)]
    assert export == [("partition", ""), ("el", ""), ("names", "deu"), ("names", "fra"),
                      ("expert", "")]
    assert STAGES["names"].how("deu") == "hits simulate --kind name --lang deu"


def test_what_a_stage_needs_follows_upstream() -> None:
    assert needs(["link"]) == {"import", "ner", "kb", "persons", "queries", "link"}
    assert needs(["project"]) == {"import", "ner", "align", "project"}
    assert "el" in needs(["partition"]) and "report" not in needs(["export"])
    with pytest.raises(XelError, match="no stage 'exprot': the stages are import, ner"):
        needs(["exprot"])


def test_a_typed_collection_projects_after_the_type_check_and_triages_after_linking(
        tmp_path: Path, make_config: Any) -> None:
    # which names are translated is the type check's; translated names go back to English
    # through their KB candidates: `xel triage` alone runs both first (it linked nothing)
    people = make_config(tmp_path)
    typed = make_config(tmp_path, types={"PER": ["PERSON"], "ORG": ["ORG"]})
    assert "link" not in needs(["triage"], people) and "persons" not in needs(["project"], people)
    assert {"persons", "link"} <= needs(["triage"], typed)
    assert "persons" in needs(["project"], typed) and "link" not in needs(["project"], typed)
    langs = ["deu"]
    assert [s.name for s, _ in upstream_of(STAGES["triage"], "deu", langs, typed)] == [
        "project", "queries", "link"]
    assert [s.name for s, _ in upstream_of(STAGES["triage"], "deu", langs, people)] == [
        "project", "queries"]
    for stage in PIPELINE:  # what a stage reads in a typed collection comes before it too
        assert all(PIPELINE.index(STAGES[n]) < PIPELINE.index(stage) for n in stage.typed)


HITS_TABLES = ("hit_batches", "hit_hits", "hit_items", "hit_assignments", "judgments",
               "worker_gold", "payments", "worker_actions", "links", "name_outcomes",
               "expert_queue", "expert_decisions", "refusals", "page_views", "hit_requests",
               "local_people")
XEL_TABLES = ("languages", "documents", "sentences", "mentions", "queries", "attrition",
              "candidates", "kb_entries", "alignments", "projections", "projection_ranks",
              "chosen_projections", "projection_counts", "triage", "translations",
              "partitions", "stages")


def sql_naming(tables: tuple[str, ...], folder: Path) -> list[str]:
    """Lines of Python under `folder` with SQL that names one of `tables`."""
    pattern = re.compile(r"\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+(IF NOT EXISTS\s+)?("
                         + "|".join(tables) + r")\b")
    return [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for path in sorted(folder.rglob("*.py"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if pattern.search(line)]


def test_no_package_runs_sql_on_the_other_packages_tables() -> None:
    """xel reads the crowd's results through hits.results, and hits reads xel's stages
    through their read functions: neither names the other's tables in SQL."""
    assert sql_naming(HITS_TABLES, ROOT / "xel") == []
    assert sql_naming(XEL_TABLES, ROOT / "hits") == []
    assert sql_naming(HITS_TABLES, ROOT / "hits")  # the pattern does find SQL


def test_only_the_top_layer_imports_both_packages() -> None:
    importing = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "xel").rglob("*.py")
                       if re.search(r"^(from|import) hits\b", p.read_text(encoding="utf-8"),
                                    re.M))
    assert importing == ["xel/build.py", "xel/pipeline.py", "xel/report.py"]
