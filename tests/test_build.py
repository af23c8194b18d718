"""`xel build` end to end on a small corpus with the simulated crowd: exports, determinism,
the datasheet, scoring, and the report in a real browser."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from xel.build import build
from xel.config import (
    Config,
    CorpusConfig,
    HitsConfig,
    KbConfig,
    SimulatedCrowdConfig,
)
from xel.corpus import import_corpus
from xel.ner import run_ner
from xel.queries import run_queries
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
    en, de, docs = [], [], []
    for d in range(6):
        for i, (name, (german, _)) in enumerate(PEOPLE.items()):
            if (d + i) % 3 == 2:
                continue  # not everyone in every document
            for e_tpl, d_tpl in TEMPLATES:
                en.append(e_tpl.format(n=name))
                de.append(d_tpl.format(n=german))
                docs.append(f"news.{d}")
    (root / "corpus").mkdir(parents=True)
    (root / "corpus" / "c.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    (root / "corpus" / "c.de").write_text("\n".join(de) + "\n", encoding="utf-8")
    (root / "corpus" / "docs").write_text("\n".join(docs) + "\n", encoding="utf-8")
    (root / "kb.jsonl").write_text("".join(json.dumps(p) + "\n" for p in KB), encoding="utf-8")


def make_config(root: Path) -> Config:
    return Config(
        name="tiny", root=str(root), store="work/xel.sqlite", output="work/out",
        corpus=CorpusConfig(path="corpus", format="moses", source="eng",
                            files={"eng": "c.en", "deu": "c.de"}, doc_ids="docs"),
        kb=KbConfig(path="kb.jsonl", index="work/kb.sqlite"),
        hits=HitsConfig(gold="gold.tsv", simulated=SimulatedCrowdConfig(truth="truth.tsv")),
    )


def write_truth(root: Path, config: Config) -> None:
    """The simulated crowd's truth (every query's KB id) and the known answers of a few."""
    with Store(config.resolve(config.store)) as store:
        import_corpus(store, config)
        run_ner(store, config)
        run_queries(store, config)
        rows = store.query("SELECT query_id, name FROM queries")
    truth = sorted((r["query_id"], PEOPLE[r["name"]][1]) for r in rows)
    (root / "truth.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in truth), encoding="utf-8")
    gold = [next(t for t in truth if t[1] == answer) for answer in ("P1", "P2", "NIL")]
    (root / "gold.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in gold), encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Config]:
    root = tmp_path_factory.mktemp("tiny")
    write_corpus(root)
    config = make_config(root)
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
                                                 tmp_path: Path) -> None:
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
    again = make_config(other)
    with Store(again.resolve(again.store)) as store:
        build(store, again, crowd="simulated", say=lambda _: None)
    assert files(other / "work" / "out" / "collection") == before


def test_gold_run_scores_perfectly(built: tuple[Path, Config], tmp_path: Path) -> None:
    root, _ = built
    collection = root / "work" / "out" / "collection"
    run = tmp_path / "run.tab"
    run.write_text("".join(p.read_text(encoding="utf-8")
                           for p in sorted(collection.glob("*/*.tab"))), encoding="utf-8")
    scores = score(read_gold(collection), read_run(run))
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


def test_build_with_people_stops_and_says_how_to_go_on(tmp_path: Path) -> None:
    write_corpus(tmp_path)
    config = make_config(tmp_path)
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
