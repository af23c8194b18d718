"""Shared fixtures: the real data in ../shared/data (skipped where absent), configs, and a small
synthetic collection for the crowd tests (`crowd_store`, `sim_config`).

The crowd collection's corpus text includes hostile strings (`HOSTILE`), which every page must
show as text.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hits.reference import write_reference
from hits.store import NIL
from xel.config import Config
from xel.corpus import DDL as CORPUS_DDL
from xel.link import DDL as LINK_DDL
from xel.queries import DDL as QUERIES_DDL
from xel.store import Store
from xel.triage import DDL as TRIAGE_DDL

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("XEL_SHARED_DATA", ROOT.parent / "shared" / "data"))

os.environ.setdefault("XEL_QUIET", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
HOSTILE = (SCRIPT, IMG)

def load_script(path: Path, name: str) -> ModuleType:
    """A script of the repository that is no package module (a corpus's build.py) loaded as
    the module `name`, registered where dataclasses look their module up."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


MakeConfig = Callable[..., Config]
CrowdStore = Callable[..., tuple[Store, dict[str, str], dict[str, str]]]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or a skip saying why the test cannot run without it."""
    if not (SHARED / "ntrex128").is_dir():
        pytest.skip(f"needs the shared data at {SHARED} (absent here); see README 'Data'")
    return SHARED


def config_at(root: Path, **sections: Any) -> Config:
    """A config rooted at `root`: store `xel.sqlite`, output `out`, KB `kb.jsonl` indexed in
    `kb.sqlite` and the corpus in `root` itself unless `sections` say otherwise (a section
    given replaces the default one; paths are relative to `root`)."""
    values: dict[str, Any] = {"name": "test", "root": str(root), "store": "xel.sqlite",
                              "output": "out", "corpus": {"path": "."},
                              "kb": {"path": "kb.jsonl", "index": "kb.sqlite"}}
    values.update(sections)
    return Config.model_validate(values)


def write_parallel(root: Path, people: Mapping[str, tuple[str, str]],
                   templates: Sequence[tuple[str, str]], kb: Sequence[dict[str, Any]],
                   documents: int) -> None:
    """A synthetic English-German corpus (`corpus/c.en`, `c.de`, `docs`) and its KB
    (`kb.jsonl`): in each of `documents` documents, every template for the people in it (not
    everyone is in every document)."""
    en, de, docs = [], [], []
    for d in range(documents):
        for i, (name, (german, _)) in enumerate(people.items()):
            if (d + i) % 3 == 2:
                continue
            for e_tpl, d_tpl in templates:
                en.append(e_tpl.format(n=name))
                de.append(d_tpl.format(n=german))
                docs.append(f"news.{d}")
    (root / "corpus").mkdir(parents=True)
    (root / "corpus" / "c.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    (root / "corpus" / "c.de").write_text("\n".join(de) + "\n", encoding="utf-8")
    (root / "corpus" / "docs").write_text("\n".join(docs) + "\n", encoding="utf-8")
    (root / "kb.jsonl").write_text("".join(json.dumps(p) + "\n" for p in kb), encoding="utf-8")


@pytest.fixture(scope="session")
def make_config() -> MakeConfig:
    """`make_config(root, **sections)`: see `config_at`."""
    return config_at


@pytest.fixture(scope="session")
def hostile() -> tuple[str, str]:
    """The hostile strings the crowd collection's corpus and KB hold: (script, img)."""
    return HOSTILE


def _crowd_store(tmp: Path, n_queries: int = 40, n_gold: int = 8,
                 lang: str = "deu") -> tuple[Store, dict[str, str], dict[str, str]]:
    store = Store(tmp / "xel.sqlite")
    for ddl in (CORPUS_DDL, QUERIES_DDL, LINK_DDL, TRIAGE_DDL):
        store.declare(ddl)
    el_truth: dict[str, str] = {}
    name_truth: dict[str, str] = {}
    with store.transaction():
        store.execute("INSERT INTO languages VALUES ('eng', 'source', 'Latn', 'English', 'x', "
                      "0, 0)")
        store.execute(f"INSERT INTO languages VALUES ('{lang}', 'target', 'Latn', 'German', "
                      "'x', 0, 1)")
        seg = 0
        for n in range(n_queries):
            doc = f"doc{n:03d}"
            name = f"Anna Meyer{n}"
            english = [
                f"Before the vote {SCRIPT} was posted.",
                f"President {name} said {IMG} today.",
                f"Later, {name} left.",
            ]
            target_name = f"Anna Meyer{n}s" if n % 5 else f"Ana Majer{n}"
            german = [
                f"Vor der Wahl wurde {SCRIPT} gepostet.",
                f"Präsidentin {target_name} sagte heute {IMG}.",
                f"Später ging {target_name}.",
            ]
            store.execute("INSERT INTO documents VALUES (?, ?, ?, ?)", (doc, n, seg, 3))
            for pos, (en, de) in enumerate(zip(english, german, strict=True)):
                for code, text, start in (("eng", en, 0), (lang, de, 0)):
                    store.execute("INSERT INTO sentences VALUES (?, ?, ?, ?, ?, ?)",
                                  (code, seg + pos, doc, pos, start, text))
            start = english[1].index(name)
            qid = f"q{n:03d}"
            store.execute(
                "INSERT INTO queries(query_id, name, name_key, doc_id, mention_id, seg, start, "
                "end, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (qid, name, name.lower(), doc, n, seg + 1, start, start + len(name), n),
            )
            kb = [f"KB{n}-{k}" for k in range(3)]
            for rank, kb_id in enumerate(kb, start=1):
                store.execute(
                    "INSERT INTO candidates(query_id, rank, kb_id, score, name_score, "
                    "prior_score, context_score, why) VALUES (?, ?, ?, ?, 0, 0, 0, '[]')",
                    (qid, rank, kb_id, 1.0 / rank),
                )
                store.execute(
                    "INSERT INTO kb_entries(kb_id, name, aliases, description, wikipedia, "
                    "popularity) VALUES (?, ?, '[]', ?, NULL, ?)",
                    (kb_id, f"{name} {IMG}" if rank == 1 else f"Anna Meyer-{kb_id}",
                     f"A person {SCRIPT} " + "x" * 3000, 10.0 * rank),
                )
            el_truth[qid] = kb[n % 3] if n % 4 else NIL
            outcome = "A1" if n % 3 == 0 else "curate"
            store.execute(
                "INSERT INTO triage(lang, query_id, projection, seg, start, end, "
                "back_translation, backend, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, 'test', ?)",
                (lang, qid, target_name, seg + 1, 0, 0, name, outcome),
            )
            name_truth[f"{lang}:{qid}"] = target_name if n % 7 else "MISSING"
            seg += 3
    write_reference(tmp / "el-truth.tsv", el_truth)
    write_reference(tmp / "name-truth.tsv", name_truth)
    write_reference(tmp / "el-gold.tsv", {q: el_truth[q] for q in sorted(el_truth)[:n_gold]})
    return store, el_truth, name_truth


@pytest.fixture(scope="session")
def crowd_store() -> CrowdStore:
    """`crowd_store(tmp, n_queries=40, n_gold=8, lang="deu")`: a store in `tmp` with
    `n_queries` queries in as many documents (corpus, queries, candidates, KB entries, triage);
    returns the store, the EL truth and the name truth (lang:query -> name). The first
    `n_gold` queries are the gold file `el-gold.tsv`."""
    return _crowd_store


def _read(path: Path) -> dict[str, str]:
    return dict(line.split("\t") for line in path.read_text().splitlines())


def _crowd_config(tmp: Path, **hits: object) -> Config:
    """The state-machine tests run the `paper` policy (three workers a HIT, fixed) unless a
    test names another; `tests/test_hits_adaptive.py` tests the default policy."""
    return config_at(tmp, corpus={"path": str(tmp)}, kb={"path": str(tmp / "kb.jsonl")},
                     hits={"policy": "paper", **hits})


def _sim_config(tmp: Path, **hits: object) -> Config:
    settings: dict[str, object] = {
        "gold": str(tmp / "el-gold.tsv"),
        "simulated": {"truth": str(tmp / "truth.tsv"), "seed": 1},
    }
    settings.update(hits)
    truth = {**_read(tmp / "el-truth.tsv"), **_read(tmp / "name-truth.tsv")}
    write_reference(tmp / "truth.tsv", truth)
    return _crowd_config(tmp, **settings)


@pytest.fixture(scope="session")
def crowd_config() -> MakeConfig:
    """`crowd_config(tmp, **hits)`: the config of a `crowd_store` collection."""
    return _crowd_config


@pytest.fixture(scope="session")
def sim_config() -> MakeConfig:
    """`sim_config(tmp, **hits)`: `crowd_config` for a simulated round whose truth is the
    `crowd_store` collection's reference files."""
    return _sim_config
