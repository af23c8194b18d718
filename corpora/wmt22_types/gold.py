"""Blind ORG and LOC projection gold on WMT22's Russian-, German- and Chinese-original text
(issue 36).

    python corpora/wmt22_types/gold.py draw [WORK]
    python corpora/wmt22_types/gold.py build [WORK]
    python corpora/wmt22_types/gold.py types CONFIG [tune|heldout]

WORK holds the corpora `build.py` writes (default `work`: `wmt22ru/corpus`, `wmt22de/corpus`)
and the Chinese one `corpora/wmt22_persons/build.py` writes (`wmt22/corpus`).
`draw` runs xel's English NER over each corpus's English, as `corpora/ntrex_types/draw.py`
does, and draws seeded samples stratified by coarse type from every document (`DRAWS`: a
second draw of organizations, none of the first's, since half of NER's ORG mentions here are
products, currencies and people); it writes `WORK/wmt22_types/sample-<lang>.tsv` (every draw)
and `sheet-<lang>-<k>.txt` for the k-th, the English sentence with the mention in brackets and
its translation: all the annotator reads.
`build` checks `english-<lang>.tsv` (the drawn mentions, their real type) and
`annotations/<lang>.tsv` (the name as the translation writes it, `name#k`, `ABSENT` or
`NOT_ENTITY`) against the corpora and writes `gold-tune.tsv` and `gold-heldout.tsv` beside
this file, halves by document as `corpora/wmt22_persons/build.py` draws them. The conventions
are corpora/ntrex_types/README.md's. `types` prints how many of a half's mentions the
collection of CONFIG (one of the three corpora with every type, queried) typed right, as
`corpora/ntrex_types/type_check.py` does for NTREX.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from xel.errors import XelError  # noqa: E402
from xel.evaluate import TYPED_SPAN_HEADER, UNSCORED, span_gold_row, write_span_gold  # noqa: E402

CORPORA = {"rus": "wmt22ru", "deu": "wmt22de", "zho-CN": "wmt22"}
# per language, each draw's seed, sizes by coarse type and the half it draws from (None: both),
# in the order they were annotated; Chinese's third adds organizations to the tune half only
DRAWS: dict[str, list[tuple[int, dict[str, int], str | None]]] = {
    "rus": [(4101, {"ORG": 60, "LOC": 30}, None), (4111, {"ORG": 60}, None)],
    "deu": [(4102, {"ORG": 60, "LOC": 30}, None), (4112, {"ORG": 60}, None)],
    "zho-CN": [(4103, {"ORG": 60, "LOC": 30}, None), (4113, {"ORG": 60}, None),
               (4123, {"ORG": 100}, "tune")]}


def module(path: Path) -> ModuleType:
    """A sibling corpus's script, loaded by path (each folder has its own `build.py`)."""
    spec = importlib.util.spec_from_file_location(f"{path.parent.name}_{path.stem}", path)
    assert spec and spec.loader
    sys.path.insert(0, str(path.parent))
    try:
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = loaded  # dataclasses look their module up
        spec.loader.exec_module(loaded)
    finally:
        sys.path.remove(str(path.parent))
    return loaded


NTREX_TYPES = module(ROOT / "corpora" / "ntrex_types" / "build.py")
PERSONS = module(ROOT / "corpora" / "wmt22_persons" / "build.py")


def lines(work: Path, lang: str, name: str) -> list[str]:
    path = work / CORPORA[lang] / "corpus" / name
    if not path.exists():
        raise SystemExit(f"{path} is missing: run corpora/wmt22_types/build.py first")
    return path.read_text(encoding="utf-8").split("\n")


def draw(work: Path) -> None:
    ner_mentions = module(ROOT / "corpora" / "ntrex_types" / "draw.py").ner_mentions
    out = work / "wmt22_types"
    out.mkdir(parents=True, exist_ok=True)
    for lang in CORPORA:
        english, target = lines(work, lang, "eng.txt"), lines(work, lang, f"{lang}.txt")
        found = ner_mentions(english, lines(work, lang, "doc_ids.txt"))
        taken: list[tuple[int, str, int, int, str, str, str]] = []
        for k, (seed, sizes, part) in enumerate(DRAWS[lang], start=1):
            rng = random.Random(seed)
            drawn = sorted(m for kind, n in sizes.items()
                           for m in rng.sample([m for m in found
                                                if m[5] == kind and m not in taken
                                                and part in (None, PERSONS.half(m[1]))], n))
            taken += drawn
            with open(out / f"sheet-{lang}-{k}.txt", "w", encoding="utf-8") as f:
                for seg, _doc, a, b, en, kind, label in drawn:
                    text = english[seg]
                    f.write(f"{seg}\t{a}\t{b}\t{en}\t{kind}/{label}\n  EN: {text[:a]}[[{en}]]"
                            f"{text[b:]}\n  {lang}: {target[seg]}\n\n")
        with open(out / f"sample-{lang}.tsv", "w", encoding="utf-8") as f:
            f.write("seg\tdoc\ten_start\ten_end\tenglish\ttype\tlabel\n")
            f.writelines("\t".join(map(str, m)) + "\n" for m in sorted(taken))
        print(lang, Counter(m[5] for m in found), "found;", len(taken), "drawn into", out)


def build(work: Path) -> dict[str, Counter[str]]:
    """Check the annotations and write the gold files; counts by language, keyed `half type
    outcome` (named, ABSENT or NOT_ENTITY)."""
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    counts: dict[str, Counter[str]] = {}
    for lang in CORPORA:
        english, target = lines(work, lang, "eng.txt"), lines(work, lang, f"{lang}.txt")
        docs = lines(work, lang, "doc_ids.txt")
        mentions = NTREX_TYPES.read_tsv(HERE / f"english-{lang}.tsv",
                                        NTREX_TYPES.ENGLISH_COLUMNS)
        notes = NTREX_TYPES.read_tsv(HERE / "annotations" / f"{lang}.tsv", NTREX_TYPES.COLUMNS)
        if len(notes) != len(mentions):
            raise SystemExit(f"annotations/{lang}.tsv: {len(notes)} rows for the "
                             f"{len(mentions)} mentions of english-{lang}.tsv")
        counts[lang] = Counter()
        for m, n in zip(mentions, notes, strict=True):
            seg, a, b, en = int(m["seg"]), int(m["en_start"]), int(m["en_end"]), m["english"]
            where = f"annotations/{lang}.tsv, segment {seg} {en!r}"
            if (int(n["seg"]), int(n["en_start"]), int(n["en_end"])) != (seg, a, b):
                raise SystemExit(f"{where}: not english-{lang}.tsv's mention in its order")
            if english[seg][a:b] != en or docs[seg] != m["doc"]:
                raise SystemExit(f"english-{lang}.tsv: {en!r} is not at {a}-{b} of segment "
                                 f"{seg} of document {m['doc']}")
            if m["gold_type"] not in NTREX_TYPES.GOLD_TYPES:
                raise SystemExit(f"english-{lang}.tsv, segment {seg}: gold_type is one of "
                                 f"{', '.join(NTREX_TYPES.GOLD_TYPES)}")
            if (m["gold_type"] != m["type"]) != (n["gold"] == "NOT_ENTITY"):
                raise SystemExit(f"{where}: NOT_ENTITY is where the gold_type is not the type,"
                                 " and only there")
            try:
                row = span_gold_row(lang, seg, a, b, en, n["gold"], target[seg])
            except XelError as err:
                raise SystemExit(f"{where}: {err}") from None
            part = PERSONS.half(m["doc"])
            gold[part].append([*row, m["type"], m["label"], m["gold_type"]])
            outcome = n["gold"] if n["gold"] in UNSCORED else "named"
            counts[lang][f"{part} {m['type']} {outcome}"] += 1
    for part, rows in gold.items():
        write_span_gold(
            HERE / f"gold-{part}.tsv",
            f"WMT22 type gold: ORG and LOC names of the Russian-, German- and Chinese-original "
            f"test sets ({part} half, documents drawn as corpora/wmt22_persons/build.py's "
            "half), from english-<lang>.tsv and annotations/ by corpora/wmt22_types/gold.py",
            rows, TYPED_SPAN_HEADER)
    return counts


def type_check(config_path: str, part: str) -> None:
    from xel.config import load_config

    langs = load_config(config_path).corpus.languages
    mentions = [m for lang in CORPORA if lang in langs
                for m in NTREX_TYPES.read_tsv(HERE / f"english-{lang}.tsv",
                                              NTREX_TYPES.ENGLISH_COLUMNS)
                if PERSONS.half(m["doc"]) == part]
    if not mentions:
        raise SystemExit(f"{config_path}: its corpus is neither of {', '.join(CORPORA)}")
    module(ROOT / "corpora" / "ntrex_types" / "type_check.py").report(config_path, mentions,
                                                                      part)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("draw", "build", "types"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "types":
        if len(sys.argv) < 3:
            raise SystemExit(__doc__)
        type_check(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "heldout")
        return
    work = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "work"
    if sys.argv[1] == "draw":
        draw(work)
        return
    for lang, c in build(work).items():
        print(lang, " ".join(f"{k}: {v}" for k, v in sorted(c.items())))


if __name__ == "__main__":
    main()
