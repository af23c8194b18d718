"""`xel build` end to end on a small corpus with the simulated crowd: exports, determinism,
the datasheet, scoring, and the report in a real browser."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import boto3
import pandas as pd
import pytest
import yaml
from botocore.stub import Stubber
from conftest import write_parallel
from typer.testing import CliRunner

from hits.backends.mturk import ENDPOINTS
from xel import hub
from xel.build import build
from xel.config import Config
from xel.errors import XelError
from xel.export import slice_labels
from xel.pipeline import run
from xel.report import english_attrition, for_display, html_table, table6_rows
from xel.score import read_gold, read_run, score
from xel.store import Store

HOSTILE = '<script>alert("x")</script> "><img src=x onerror=alert(1)>'
PEOPLE = {  # name -> (German form, KB id or NIL)
    "Angela Merkel": ("Angela Merkel", "P1"),
    "Boris Johnson": ("Boris Johnson", "P2"),
    "Jane Roe": ("Jane Roe", "NIL"),
}
TEMPLATES = [
    ("{n} met reporters in Berlin on Monday.", "{n} traf am Montag Reporter in Berlin."),
    ("Officials said that {n} would travel to Paris.",
     "Beamte sagten, {n} werde nach Paris reisen."),
    (HOSTILE + " was posted beside a photo of {n}.",
     HOSTILE + " wurde neben einem Foto von {n} gepostet."),
    ("The weather in London was mild.", "Das Wetter in London war mild."),
]
KB = [
    {"id": "P1", "name": "Angela Merkel", "description": "German politician, chancellor",
     "popularity": 900.0},
    {"id": "P2", "name": "Boris Johnson", "description": "British politician, prime minister",
     "popularity": 800.0},
    {"id": "P3", "name": "Boris Becker", "description": "German tennis player", "popularity": 50.0},
    {"id": "P4", "name": "Angela Bassett", "description": "American actress", "popularity": 70.0},
]


def write_corpus(root: Path) -> None:
    write_parallel(root, PEOPLE, TEMPLATES, KB, documents=6)


@pytest.fixture(scope="session")
def tiny_config(make_config: Any) -> Callable[[Path], Config]:
    """`tiny_config(root)`: the tiny collection's config, with the simulated crowd's truth and
    known answers in `truth.tsv` and `gold.tsv`."""

    def config(root: Path) -> Config:
        return make_config(root, name="tiny", store="work/xel.sqlite", output="work/out",
                           corpus={"path": "corpus", "format": "moses", "source": "eng",
                                   "files": {"eng": "c.en", "deu": "c.de"}, "doc_ids": "docs"},
                           kb={"path": "kb.jsonl", "index": "work/kb.sqlite"},
                           hits={"gold": "gold.tsv", "simulated": {"truth": "truth.tsv"}})

    return config


def write_truth(root: Path, config: Config) -> None:
    """The simulated crowd's truth (every query's KB id) and the known answers of a few."""
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["import"])
        run(store, config, ["ner"])
        run(store, config, ["kb", "persons", "queries"])
        rows = store.query("SELECT query_id, name FROM queries")
    truth = sorted((r["query_id"], PEOPLE[r["name"]][1]) for r in rows)
    (root / "truth.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in truth), encoding="utf-8")
    gold = [next(t for t in truth if t[1] == answer) for answer in ("P1", "P2", "NIL")]
    (root / "gold.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in gold), encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, tiny_config: Any) -> tuple[Path, Config]:
    root = tmp_path_factory.mktemp("tiny")
    write_corpus(root)
    config = tiny_config(root)
    write_truth(root, config)
    with Store(config.resolve(config.store)) as store:
        result = build(store, config, crowd="simulated", say=lambda _: None)
    assert result.pending == [] and result.collection is not None
    return root, config


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_export_files_agree_with_each_other_and_the_documents(built: tuple[Path, Config]) -> None:
    root, config = built
    out = root / "work" / "out" / "collection"
    assert {p.name for p in out.iterdir()} >= {"README.md", "eng", "deu"}
    simulated: list[bool] = []
    for tab in out.glob("*/*.tab"):
        xml = ET.parse(tab.with_suffix(".xml")).getroot()
        records = [json.loads(line) for line in tab.with_suffix(".jsonl").open(encoding="utf-8")]
        gold = [line.split("\t") for line in tab.read_text(encoding="utf-8").splitlines()]
        assert [q.get("id") for q in xml] == [r["id"] for r in records] == [g[0] for g in gold]
        for query, record in zip(xml, records, strict=True):
            doc = (tab.parent / "docs" / f"{record['doc_id']}.txt").read_text(encoding="utf-8")
            beg, end = int(query.findtext("beg") or -1), int(query.findtext("end") or -1)
            assert doc[beg:end + 1] == query.findtext("name") == record["name"]
            assert record["kb_id"] == PEOPLE[record["english_name"]][1]
            simulated.append(record["simulated"])
    # Most links come from the (simulated) crowd; gold items' answers were given, not asked.
    assert len(simulated) >= 12 and sum(simulated) >= len(simulated) / 2
    # Hostile corpus text is data: kept verbatim in the documents, escaped in the XML.
    docs = "".join(p.read_text(encoding="utf-8") for p in out.glob("eng/docs/*.txt"))
    assert HOSTILE in docs
    sheet = (out / "README.md").read_text(encoding="utf-8")
    assert "SIMULATED CROWD" in sheet and "export|" in sheet and "| deu |" in sheet


def test_rebuild_is_byte_identical_and_skips_work(built: tuple[Path, Config],
                                                 tmp_path: Path, tiny_config: Any) -> None:
    root, config = built
    out = root / "work" / "out" / "collection"
    before = files(out)
    with Store(config.resolve(config.store)) as store:
        build(store, config, crowd="simulated", say=lambda _: None)
    assert files(out) == before
    # A fresh build elsewhere, from the same inputs and config, writes the same bytes.
    other = tmp_path / "again"
    other.mkdir()
    shutil.copytree(root / "corpus", other / "corpus")
    for name in ("kb.jsonl", "truth.tsv", "gold.tsv"):
        shutil.copy(root / name, other / name)
    again = tiny_config(other)
    with Store(again.resolve(again.store)) as store:
        build(store, again, crowd="simulated", say=lambda _: None)
    assert files(other / "work" / "out" / "collection") == before


def test_gold_run_scores_perfectly(built: tuple[Path, Config], tmp_path: Path) -> None:
    root, _ = built
    collection = root / "work" / "out" / "collection"
    answers = tmp_path / "run.tab"
    answers.write_text("".join(p.read_text(encoding="utf-8")
                               for p in sorted(collection.glob("*/*.tab"))), encoding="utf-8")
    scores = score(read_gold(collection), read_run(answers))
    assert scores and all(s.success_at_1 == 1.0 for s in scores)


def test_report_in_a_real_browser(built: tuple[Path, Config]) -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("needs Debian's chromium (./setup installs it)")
    from playwright.sync_api import sync_playwright

    root, _ = built
    report = root / "work" / "out" / "report.html"
    dialogs: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = browser.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(report.as_uri())
        headings = page.locator("h2").all_inner_texts()
        assert any("Attrition" in h for h in headings)
        assert any("Figure 9" in h for h in headings)
        assert page.locator("#simulated").is_visible()
        assert page.locator("figure svg").count() >= 4
        width = page.locator("figure svg").first.bounding_box()
        assert width is not None and width["width"] > 100
        browser.close()
    assert dialogs == []


def test_build_with_people_stops_and_says_how_to_go_on(tmp_path: Path, tiny_config: Any) -> None:
    write_corpus(tmp_path)
    config = tiny_config(tmp_path)
    write_truth(tmp_path, config)
    with Store(config.resolve(config.store)) as store:
        first = build(store, config, crowd="local", say=lambda _: None)
        assert first.collection is None
        assert "wait for workers on local" in first.pending[0]
        assert "hits serve" in first.pending[1]
        published = store.scalar("SELECT COUNT(*) FROM hit_hits")
        # Rerunning while nobody has answered publishes nothing twice.
        again = build(store, config, crowd="local", say=lambda _: None)
        assert again.pending == first.pending
        assert store.scalar("SELECT COUNT(*) FROM hit_hits") == published


KILLED_EXPORT = """
import os, signal, sys
import xel.export as ex
from xel.config import load_config
from xel.pipeline import run
from xel.store import Store

cfg = load_config(sys.argv[1])
written = []
real = ex.jsonl


def jsonl_then_die(records):
    written.append(records)
    if len(written) == 2:  # some files of the new collection are written, not all
        os.kill(os.getpid(), signal.SIGKILL)
    return real(records)


ex.jsonl = jsonl_then_die
with Store(cfg.resolve(cfg.store)) as store:
    run(store, cfg, ["export"], force=True)
"""


def config_file(config: Config, path: Path) -> Path:
    path.write_text(yaml.safe_dump(config.model_dump(mode="json", exclude={"source_file"})),
                    encoding="utf-8")
    return path


def test_a_killed_export_leaves_the_old_collection_whole_and_its_leftovers_go(
        built: tuple[Path, Config], tmp_path: Path) -> None:
    root, config = built
    out = root / "work" / "out" / "collection"
    before = files(out)
    killed = subprocess.run([sys.executable, "-c", KILLED_EXPORT,
                             str(config_file(config, tmp_path / "c.yaml"))], check=False)
    assert killed.returncode == -signal.SIGKILL
    assert files(out) == before  # the old collection, untouched and complete
    assert list(out.parent.glob(".collection-new-*"))
    (out.parent / "tmpk1ll3dxx" / "collection" / "eng").mkdir(parents=True)  # older versions'
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["export"], force=True)
    assert sorted(p.name for p in out.parent.iterdir()) == ["baselines", "collection",
                                                            "report.html"]
    assert files(out) == before


def test_a_corpus_without_queries_is_an_error_naming_the_filter(tmp_path: Path,
                                                                tiny_config: Any) -> None:
    write_corpus(tmp_path)
    config = tiny_config(tmp_path)
    config.queries.min_documents = 100
    with Store(config.resolve(config.store)) as store, pytest.raises(XelError) as error:
        build(store, config, crowd="simulated", say=lambda _: None)
    message = str(error.value)
    assert "no queries: NER found" in message
    assert "'names in fewer than 100 documents' removed the last" in message
    assert "queries:" in message and not (tmp_path / "work" / "out" / "collection").exists()


def test_an_export_before_any_crowd_judgment_says_what_to_run(tmp_path: Path,
                                                              tiny_config: Any) -> None:
    """`xel export` runs the automatic stages up to it; with no crowd link at all it names
    the crowd stage to run, and writes no collection."""
    from xel.cli import _load_commands, app

    _load_commands()
    write_corpus(tmp_path)
    config = tiny_config(tmp_path)
    result = CliRunner().invoke(app, ["export", str(config_file(config, tmp_path / "c.yaml"))])
    assert isinstance(result.exception, XelError), result.output
    assert "nothing to export" in str(result.exception)
    assert "hits simulate --kind el" in str(result.exception)
    assert not (tmp_path / "work" / "out" / "collection").exists()


def test_build_goes_live_only_with_live_and_a_confirmation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_config: Any) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    write_corpus(tmp_path)
    config = tiny_config(tmp_path)
    write_truth(tmp_path, config)
    config.hits.crowd = "mturk"
    config.hits.mturk.environment = "live"
    path = str(config_file(config, tmp_path / "live.yaml"))
    client = boto3.client("mturk", region_name="us-east-1", endpoint_url=ENDPOINTS["live"],
                          aws_access_key_id="AKIAFAKE", aws_secret_access_key="fake")
    monkeypatch.setattr("hits.backends.mturk.mturk_client", lambda settings: client)
    runner = CliRunner()

    with Stubber(client):  # nothing may reach MTurk until confirmed
        without = runner.invoke(app, ["build", path])
        assert "pass --live to confirm" in str(without.exception)
        declined = runner.invoke(app, ["build", path, "--live"], input="n\n")
        assert isinstance(declined.exception, XelError)
        assert "not published: live publishing was not confirmed" in str(declined.exception)
        assert "on live MTurk:" in declined.output and "+ MTurk fee = $" in declined.output
        assert "Publish on live MTurk and pay this?" in declined.output
    with Store(config.resolve(config.store)) as store:
        hits = [r[0] for r in store.query("SELECT hit_id FROM hit_hits ORDER BY hit_id")]
        assert hits and store.scalar("SELECT COUNT(*) FROM hit_hits WHERE external_id IS NOT "
                                     "NULL") == 0
    with Stubber(client) as stub:
        for n, _ in enumerate(hits):
            stub.add_response("create_hit", {"HIT": {"HITId": f"LIVE{n}"}})
        for n, _ in enumerate(hits):
            stub.add_response("list_assignments_for_hit", {"Assignments": []},
                              {"HITId": f"LIVE{n}", "MaxResults": 100,
                               "AssignmentStatuses": ["Submitted", "Approved", "Rejected"]})
        accepted = runner.invoke(app, ["build", path, "--live"], input="y\n")
        stub.assert_no_pending_responses()
    assert accepted.exit_code == 3, accepted.output  # published; waiting for workers
    assert "waiting for people" in accepted.output
    with Store(config.resolve(config.store)) as store:
        assert store.scalar("SELECT environment FROM hit_batches") == "live"
    on_simulated = runner.invoke(app, ["build", str(config_file(tiny_config(tmp_path),
                                                                tmp_path / "sim.yaml")),
                                       "--live"])
    assert "--live is for the mturk crowd" in str(on_simulated.exception)


def test_report_counts_are_integers_and_costs_dollars(built: tuple[Path, Config]) -> None:
    root, _ = built
    page = (root / "work" / "out" / "report.html").read_text(encoding="utf-8")
    cells = {h: re.sub(r"<[^>]+>", " ", body) for h, body in re.findall(
        r"<h2>([^<]+)</h2>(.*?)</section>", page, re.S)}
    timing = cells["Time on task (Figure 6)"].split()
    count = timing[timing.index("el") + 1]
    assert count.isdigit()  # 15, not 15.000
    assert re.search(r"\$\d+\.\d\d", cells["Cost"])
    assert re.search(r"Rejected assignments", page)
    # A count column with a gap is stored as floats by pandas; it still prints as counts.
    raw = pd.DataFrame({"queries": [153.0, None], "cost": [1.2, 0.0], "exact_rate": [1.0, 0.5]})
    assert str(for_display(raw)["queries"].dtype) == "Int64"
    html = html_table(raw)
    assert ">153<" in html and "153.0" not in html and "$1.20" in html and "$0.00" in html
    assert "1.000" in html  # a share stays a share


def test_stages_lists_every_stage_before_the_first_build(tmp_path: Path,
                                                         tiny_config: Any) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    write_corpus(tmp_path)
    config = tiny_config(tmp_path)
    result = CliRunner().invoke(app, ["stages", str(config_file(config, tmp_path / "t.yaml"))])
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == ["import", "ner", "kb", "persons", "queries", "link", "el", "align:deu",
                     "project:deu", "triage:deu", "names:deu", "expert", "partition", "export",
                     "baseline", "card", "report"]
    assert all("never run" in line for line in result.stdout.splitlines())
    assert "project:deu  never run   after align:deu, ner" in result.stdout  # names fit
    assert "run: xel project --lang deu" in result.stdout
    assert not config.resolve(config.store).exists()  # listing created no store


def collection_bytes(root: Path) -> dict[str, bytes]:
    return files(root / "work" / "out" / "collection")


def test_a_changed_crowd_decision_reruns_partition_and_export_and_nothing_upstream(
        built: tuple[Path, Config], tmp_path: Path, tiny_config: Any) -> None:
    from hits import results
    from hits.store import Submission, batches, field_name, items, record_submission
    from hits.workflow import review_batch
    from xel.pipeline import status

    root, _ = built
    copy = tmp_path / "tiny"
    shutil.copytree(root, copy)  # corpus, KB, store and collection
    config = tiny_config(copy)
    before = collection_bytes(copy)
    with Store(config.resolve(config.store)) as store:
        assert {s.state for s in status(store, config)} == {"done"}
        # A late worker, right on the known answers, disagrees with the crowd on one query:
        # under `unanimous` that query's link is no longer decided.
        el = next(b for b in batches(store) if b.kind == "el")
        hit_id = store.scalar("SELECT hit_id FROM hit_hits WHERE batch_id = ? ORDER BY ordinal",
                              (el.batch_id,))
        links = results.links(store, config.hits.policy, gold=False)
        answers, changed = {}, None
        for item in items(store, hit_id):
            link = links.get(item.query_id)
            label = item.gold_answer if item.gold else link.label if link else "NIL"
            if link and not item.gold and changed is None:
                label, changed = "NEI", item.query_id
            answers[field_name(item.position)] = str(label)
        assert changed is not None
        record_submission(store, hit_id, Submission("LATE-1", "LATE", answers, 2.0, 1.0, "{}"))
        review_batch(store, config, el.batch_id)
        stale = {s.name: s for s in status(store, config) if s.state != "done"}
        assert stale["el"].why == "results changed"
        assert stale["partition"].why == "after:el changed"
        assert (stale["export"].why, stale["baseline"].why, stale["report"].why) == (
            "after partition", "after export", "after export, baseline")
        assert stale["card"].why == "after export, baseline"
        assert set(stale) == {"el", "partition", "export", "baseline", "card", "report"}

        said: list[str] = []
        build(store, config, crowd="simulated", say=said.append)
        # The dissent is in the decision: the query dropped, or decided on one more judgment.
        decided = results.links(store, config.hits.policy).get(changed)
        assert decided is None or decided.judgments == links[changed].judgments + 1
    ran = {m[1]: m[2] == "done" for m in map(re.compile(r"^(\S+): (done|skipped)").match, said)
           if m}
    assert {name for name, rerun in ran.items() if rerun} == {"el", "partition", "export",
                                                              "baseline", "card", "report"}
    assert {name for name, rerun in ran.items() if not rerun} == {
        "import", "ner", "kb", "persons", "queries", "link", "align:deu", "project:deu",
        "triage:deu",
        "names:deu", "expert"}
    after = collection_bytes(copy)
    assert after != before
    english = [json.loads(line) for path in sorted((copy / "work/out/collection/eng").glob(
        "*.jsonl")) for line in path.read_text(encoding="utf-8").splitlines()]
    assert (changed in {r["query_id"] for r in english}) == (decided is not None)


# --- the Hugging Face datasets layout, the dataset card and Croissant -------------------------


def card_header(collection: Path) -> dict[str, Any]:
    text = (collection / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def jsonl_records(collection: Path, lang: str) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for path in sorted((collection / lang).glob("*.jsonl"))
            for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def test_datasets_loads_every_language_and_split_as_the_jsonl_has_them(
        built: tuple[Path, Config], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")  # read at import: set before it
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets", reason="the `hub` extra (./setup installs it)")
    root, _ = built
    collection = root / "work" / "out" / "collection"
    header = card_header(collection)
    langs = [c["config_name"] for c in header["configs"] if c["config_name"] != "documents"]
    assert langs == ["eng", "deu"] and header["configs"][0].get("default") is True
    assert header["language"] == ["deu", "eng"] and header["license"] == ["other"]
    cache = root / "hf-cache"
    for lang in langs:
        loaded = datasets.load_dataset(str(collection), lang, cache_dir=str(cache))
        expected = jsonl_records(collection, lang)
        partitions = {r["partition"] for r in expected.values()}
        assert set(loaded) == {"validation" if p == "devtest" else p for p in partitions}
        rows = [row for split in loaded.values() for row in split]
        assert sorted(r["id"] for r in rows) == sorted(expected)
        for row in rows:
            record = expected[row["id"]]
            for field, value in record.items():
                got = row[field]
                if field == "votes":
                    got = {v["label"]: v["count"] for v in got}
                assert got == value, (lang, row["id"], field)
            assert row["slices"] == list(slice_labels(record))
            assert {"validation": "devtest"}.get(row["partition"], row["partition"]) \
                == record["partition"]
    documents = datasets.load_dataset(str(collection), "documents", cache_dir=str(cache))
    assert set(documents) == {"eng", "deu"}
    for lang, docs in documents.items():
        for row in docs:  # hostile corpus text (in eng) kept verbatim, as in docs/*.txt
            on_disk = (collection / lang / "docs" / f"{row['doc_id']}.txt").read_text("utf-8")
            assert row["text"] + "\n" == on_disk and row["lang"] == lang
        assert {r["doc_id"] for r in jsonl_records(collection, lang).values()} \
            == {row["doc_id"] for row in docs}
    assert any(HOSTILE in row["text"] for row in documents["eng"])


def test_croissant_validates_and_reads_the_test_split(built: tuple[Path, Config]) -> None:
    mlc = pytest.importorskip("mlcroissant", reason="the `hub` extra (./setup installs it)")
    root, _ = built
    collection = root / "work" / "out" / "collection"
    done = subprocess.run([str(Path(sys.executable).parent / "mlcroissant"), "validate",
                           "--jsonld", str(collection / "croissant.json")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    dataset = mlc.Dataset(jsonld=str(collection / "croissant.json"))
    records = [r for lang in ("eng", "deu") for r in jsonl_records(collection, lang).values()]
    # the tiny collection's smallest split (its few names may leave test empty)
    split = next(p for p in ("test", "devtest", "train") if any(r["partition"] == p
                                                                 for r in records))
    test = [{k.split("/", 1)[1]: v.decode() if isinstance(v, bytes) else v
             for k, v in row.items()} for row in dataset.records(hub.split_name(split))]
    expected = [r for r in records if r["partition"] == split]
    assert expected and sorted((r["id"], r["name"], r["kb_id"], r["beg"], r["end"]) for r in test) \
        == sorted((r["id"], r["name"], r["kb_id"], r["beg"], r["end"]) for r in expected)
    assert len(list(dataset.records("documents"))) >= 6


def test_card_shows_the_reports_figures(built: tuple[Path, Config]) -> None:
    root, config = built
    card = (root / "work" / "out" / "collection" / "README.md").read_text(encoding="utf-8")
    with Store(config.resolve(config.store)) as store:
        attrition = english_attrition(store, config.hits.policy)
    for row in attrition.itertuples(index=False):
        assert f"| {row.step} | {row.removed} | {row.left} |" in card
    # the tiny collection's few names leave its test partition empty (test_clel has Table 6)
    assert not table6_rows(config) and "no test queries to score them on" in card
    header = card_header(root / "work" / "out" / "collection")
    sizes = {c["config_name"]: {f["split"] for f in c["data_files"]} for c in header["configs"]}
    assert sizes["documents"] == {"eng", "deu"}
    assert "SIMULATED CROWD" in card and "## Slices" in card and "## Crowd" in card


def test_an_export_alone_says_the_baselines_come_later(built: tuple[Path, Config],
                                                       tmp_path: Path, tiny_config: Any) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(built[0], copy)
    config = tiny_config(copy)
    config.export.license = ["cc-by-sa-4.0"]
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["export"])  # the licence is part of its signature
    collection = copy / "work" / "out" / "collection"
    card = (collection / "README.md").read_text(encoding="utf-8")
    assert "Not run on this export yet" in card
    assert card_header(collection)["license"] == ["cc-by-sa-4.0"]
    croissant = json.loads((collection / "croissant.json").read_text(encoding="utf-8"))
    assert croissant["license"] == ["https://creativecommons.org/licenses/by-sa/4.0/"]
    assert {rs["name"] for rs in croissant["recordSet"]} >= {"train", "documents"}
