"""Word aligners behind one interface, symmetrization, and the align stage.

An aligner takes the tokens of every sentence pair of a language pair (source tokens, target
tokens) and returns one set of links `(source index, target index)` per pair. `eflomal` (the
default) learns from all pairs of the collection in both directions and is run as the separate
program `eflomal-align` (it is GPLv3; xel does not import it); `simalign` reads contextual
embeddings from a transformer the user has on disk.

The stage `align:<lang>` tokenizes English and `lang` and aligns all their sentence pairs,
storing tokens and links (`alignments`) for projection; languages go to the executor a few at
a time.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import xel.tokenizers
from xel.config import AlignConfig, Config, TokenizeConfig
from xel.corpus import DDL as CORPUS_DDL
from xel.corpus import sentences, source_language
from xel.errors import XelError
from xel.executors import executor
from xel.registry import aligners
from xel.stages import Work, code_digest, digest_of, versions
from xel.store import Store
from xel.tokenizers import Span, tokenizer_for, tokenizer_name

Link = tuple[int, int]
Links = set[Link]
Aligner = Callable[[Sequence[Sequence[str]], Sequence[Sequence[str]], AlignConfig], list[Links]]


# --- symmetrization ------------------------------------------------------------------------


def parse_links(line: str, reverse: bool = False) -> Links:
    """Pharaoh `i-j` links; `reverse` swaps them (eflomal's reverse file is target-source)."""
    links = set()
    for item in line.split():
        i, _, j = item.partition("-")
        links.add((int(j), int(i)) if reverse else (int(i), int(j)))
    return links


def format_links(links: Links) -> str:
    return " ".join(f"{i}-{j}" for i, j in sorted(links))


def grow_diag_final_and(forward: Links, reverse: Links) -> Links:
    """Koehn's grow-diag-final-and: the intersection grown through neighbouring union links."""
    union = forward | reverse
    links = forward & reverse
    aligned_src = {i for i, _ in links}
    aligned_tgt = {j for _, j in links}
    neighbours = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]
    grown = True
    while grown:
        grown = False
        for i, j in sorted(links):
            for di, dj in neighbours:
                cand = (i + di, j + dj)
                if cand in union and cand not in links and (
                    cand[0] not in aligned_src or cand[1] not in aligned_tgt
                ):
                    links.add(cand)
                    aligned_src.add(cand[0])
                    aligned_tgt.add(cand[1])
                    grown = True
    for direction in (forward, reverse):  # final-and: unaligned on both sides
        for i, j in sorted(direction):
            if i not in aligned_src and j not in aligned_tgt:
                links.add((i, j))
                aligned_src.add(i)
                aligned_tgt.add(j)
    return links


SYMMETRIZE: dict[str, Callable[[Links, Links], Links]] = {
    "intersection": lambda f, r: f & r,
    "union": lambda f, r: f | r,
    "grow-diag-final-and": grow_diag_final_and,
}


# --- eflomal --------------------------------------------------------------------------------


def eflomal_command(source: Path, target: Path, forward: Path, reverse: Path,
                    config: AlignConfig) -> list[str]:
    """The `eflomal-align` command line for two token files."""
    # Beside this interpreter first: a virtualenv's programs are there even when it is not
    # activated (as when CI runs .venv/bin/pytest).
    beside = Path(sys.executable).parent / "eflomal-align"
    program = str(beside) if beside.exists() else shutil.which("eflomal-align")
    if program is None:
        raise XelError(
            "aligner 'eflomal' needs the `eflomal-align` program: `pip install 'xel[eflomal]'` "
            "(or set align.aligner: simalign in the config)"
        )
    return [program, "-s", str(source), "-t", str(target), "-f", str(forward),
            "-r", str(reverse), "--overwrite", "-m", str(config.eflomal_model),
            "-l", str(config.eflomal_length)]


def seed_library() -> Path:
    """The LD_PRELOAD library that seeds eflomal (xel/eflomal_seed.c), compiled on first use
    into the user's cache; its file name carries a digest of the source, so an edit rebuilds."""
    source = Path(__file__).with_name("eflomal_seed.c")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "xel"
    library = cache / f"eflomal_seed-{digest}.so"
    if library.exists():
        return library
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise XelError("align.seed needs a C compiler (gcc) to make eflomal reproducible: "
                       "install gcc, or set align.seed: null to let eflomal draw its own")
    cache.mkdir(parents=True, exist_ok=True)
    partial = library.with_suffix(f".{os.getpid()}.tmp")
    done = subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(partial), str(source),
                           "-ldl"], capture_output=True, text=True)
    if done.returncode != 0:
        raise XelError(f"cannot compile {source}: {done.stderr.strip()[-300:]}")
    partial.replace(library)
    return library


def seeded_environment(seed: int | None) -> dict[str, str]:
    """Environment for a reproducible eflomal run, or nothing when `seed` is None.

    eflomal seeds itself from /dev/urandom and splits that state across OpenMP threads in
    whatever order they arrive, so a fixed seed also needs one thread; xel gets its
    parallelism from aligning several languages at once instead (see `xel.executors`).
    """
    if seed is None:
        return {}
    preload = " ".join(filter(None, [str(seed_library()), os.environ.get("LD_PRELOAD")]))
    return {"LD_PRELOAD": preload, "XEL_EFLOMAL_SEED": str(seed), "OMP_NUM_THREADS": "1"}


def write_tokens(path: Path, sentences: Sequence[Sequence[str]], lowercase: bool) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for tokens in sentences:
            line = " ".join(t.replace(" ", "_") for t in tokens)
            f.write((line.lower() if lowercase else line) + "\n")


@aligners.register("eflomal")
def eflomal(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
            config: AlignConfig) -> list[Links]:
    """Both directions with eflomal over all pairs, then the configured symmetrization."""
    if len(src) != len(tgt):
        raise XelError(f"aligner: {len(src)} source sentences but {len(tgt)} target sentences")
    # eflomal cannot learn from a pair with an empty side; such pairs get no links.
    keep = [k for k in range(len(src)) if src[k] and tgt[k]]
    result: list[Links] = [set() for _ in src]
    if not keep:
        return result
    with tempfile.TemporaryDirectory(prefix="xel-eflomal-") as tmp:
        d = Path(tmp)
        write_tokens(d / "src", [src[k] for k in keep], config.lowercase)
        write_tokens(d / "tgt", [tgt[k] for k in keep], config.lowercase)
        command = eflomal_command(d / "src", d / "tgt", d / "fwd", d / "rev", config)
        done = subprocess.run(command, capture_output=True, text=True,
                              env={**os.environ, **seeded_environment(config.seed)})
        if done.returncode != 0:
            error = done.stderr.strip()[-500:]
            raise XelError(f"eflomal-align failed (exit {done.returncode}): {error}")
        forward = (d / "fwd").read_text(encoding="utf-8").split("\n")
        reverse = (d / "rev").read_text(encoding="utf-8").split("\n")
    symmetrize = SYMMETRIZE[config.symmetrization]
    for n, k in enumerate(keep):
        result[k] = symmetrize(parse_links(forward[n]), parse_links(reverse[n]))
    return result


# --- simalign -------------------------------------------------------------------------------

_SIMALIGN_METHODS = {"a": "inter", "m": "mwmf", "i": "itermax"}


@aligners.register("simalign")
def simalign(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
             config: AlignConfig) -> list[Links]:
    """Contextual-embedding alignment (Jalili Sabet et al. 2020) with a local transformer."""
    path = config.simalign_model
    if not path or not (Path(path) / "config.json").is_file():
        raise XelError(
            f"aligner 'simalign' needs a multilingual transformer on disk (e.g. "
            f"bert-base-multilingual-cased saved with save_pretrained): no model weights at "
            f"{path or '(align.simalign_model is not set)'}; set align.simalign_model to its "
            "folder, or use align.aligner: eflomal"
        )
    from simalign import SentenceAligner

    aligner = SentenceAligner(model=path, token_type="bpe", matching_methods=config.simalign_method,
                              device="cpu", layer=config.simalign_layer)
    key = _SIMALIGN_METHODS[config.simalign_method]
    result: list[Links] = []
    for s, t in zip(src, tgt, strict=True):
        if not s or not t:
            result.append(set())
            continue
        links = aligner.get_word_aligns(list(s), list(t))[key]
        result.append({(int(i), int(j)) for i, j in links})
    return result


def align(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
          config: AlignConfig) -> list[Links]:
    """Align sentence pairs with the configured aligner."""
    aligner: Aligner = aligners.get(config.aligner)
    return aligner(src, tgt, config)


def aer(predicted: Sequence[Links], sure: Sequence[Links], possible: Sequence[Links]) -> float:
    """Alignment error rate (Och & Ney 2003); `possible` includes the sure links."""
    a = sum(len(p) for p in predicted)
    s = sum(len(x) for x in sure)
    hits_s = sum(len(p & x) for p, x in zip(predicted, sure, strict=True))
    hits_p = sum(len(p & (x | y)) for p, x, y in zip(predicted, possible, sure, strict=True))
    return 1.0 - (hits_s + hits_p) / (a + s) if a + s else 0.0


# --- the align stage ----------------------------------------------------------------------

DDL = """
-- Tokens as `start:end` character spans, links as Pharaoh `i-j` (source-target) pairs.
CREATE TABLE IF NOT EXISTS alignments (
    lang       TEXT NOT NULL,
    seg        INTEGER NOT NULL,
    src_tokens TEXT NOT NULL,
    tgt_tokens TEXT NOT NULL,
    links      TEXT NOT NULL,
    PRIMARY KEY (lang, seg)
) WITHOUT ROWID;
"""


def encode_spans(spans: Sequence[Span]) -> str:
    return " ".join(f"{s}:{e}" for s, e in spans)


def decode_spans(text: str) -> list[Span]:
    return [(int(s), int(e)) for s, _, e in (x.partition(":") for x in text.split())]


# Taken when the code is imported, so a long run's signatures describe the code it runs even
# if the files change on disk meanwhile.
ALIGN_CODE = code_digest(xel.tokenizers, sys.modules[__name__])


def align_signature(store: Store, config: Config, lang: str) -> dict[str, str]:
    return {"tokenize": digest_of(config.tokenize), "align": digest_of(config.align),
            "tokenizer:src": tokenizer_name(source_language(store), config.tokenize),
            "tokenizer:tgt": tokenizer_name(lang, config.tokenize),
            "code": ALIGN_CODE,
            **versions("eflomal", "sentencepiece", "jieba", "simalign", "regex")}


@dataclass(frozen=True)
class AlignJob:
    """One language pair's sentences and settings: what an executor needs to align it."""

    source: str
    lang: str
    src_texts: list[str]
    tgt_texts: list[str]
    tokenize: TokenizeConfig
    align: AlignConfig


@dataclass(frozen=True)
class Aligned:
    src_spans: list[list[Span]]
    tgt_spans: list[list[Span]]
    links: list[Links]


def align_texts(job: AlignJob) -> Aligned:
    """Tokenize both sides and align every pair (runs in an executor's worker)."""
    src_tok = tokenizer_for(job.source, job.src_texts, job.tokenize)
    tgt_tok = tokenizer_for(job.lang, job.tgt_texts, job.tokenize)
    src_spans = [src_tok(t) for t in job.src_texts]
    tgt_spans = [tgt_tok(t) for t in job.tgt_texts]
    links = align([[t[s:e] for s, e in sp] for t, sp in zip(job.src_texts, src_spans, strict=True)],
                  [[t[s:e] for s, e in sp] for t, sp in zip(job.tgt_texts, tgt_spans, strict=True)],
                  job.align)
    return Aligned(src_spans, tgt_spans, links)


def align_job(store: Store, config: Config, lang: str) -> tuple[list[int], AlignJob]:
    """The segments and the job for aligning `lang` with the source language."""
    source = source_language(store)
    src = sentences(store, source)
    tgt = {seg: text for seg, _, text in sentences(store, lang)}
    if not tgt:
        raise XelError(f"language {lang!r} is not in the corpus of {store.path}")
    segs = [seg for seg, _, _ in src]
    return segs, AlignJob(source, lang, [text for _, _, text in src],
                          [tgt.get(seg, "") for seg in segs], config.tokenize, config.align)


def write_alignment(segs: list[int], job: AlignJob, result: Aligned) -> Work:
    def work(s: Store) -> dict[str, Any]:
        s.execute("DELETE FROM alignments WHERE lang = ?", (job.lang,))
        s.executemany(
            "INSERT INTO alignments VALUES (?, ?, ?, ?, ?)",
            [(job.lang, seg, encode_spans(a), encode_spans(b), format_links(x))
             for seg, a, b, x in zip(segs, result.src_spans, result.tgt_spans, result.links,
                                     strict=True)])
        return {"pairs": len(segs), "links": sum(len(x) for x in result.links),
                "empty_targets": sum(not t.strip() for t in job.tgt_texts)}

    return work


def align_languages(store: Store, config: Config,
                    langs: list[str]) -> Iterator[tuple[str, Work]]:
    """The align stage of several languages on the configured executor: each language's
    writer as soon as its group is aligned.

    Languages go to the executor a few at a time (twice its workers), so memory holds only
    those languages' sentences; the runner commits each as its own stage.
    """
    store.declare(CORPUS_DDL)
    store.declare(DDL)
    step = 2 * config.executor.workers
    with executor(config.executor) as ex:
        for start in range(0, len(langs), step):
            group = langs[start:start + step]
            prepared = [align_job(store, config, lang) for lang in group]
            results = ex.map(align_texts, [job for _, job in prepared],
                             f"align languages {start + 1}-{start + len(group)} of {len(langs)}")
            for lang, (segs, job), result in zip(group, prepared, results, strict=True):
                yield lang, write_alignment(segs, job, result)
