"""Word aligners behind one interface, symmetrization, and the align stage.

An aligner takes the tokens of every sentence pair of a language pair (source tokens, target
tokens) and yields one set of links `(source index, target index)` per wanted pair, in order
(a caller keeps each as compactly as it likes: a million pairs' link sets would not fit).
`eflomal` (the default) learns from all pairs of the collection in both directions and is run
as the separate program `eflomal-align` (it is GPLv3; xel does not import it); `simalign`
reads contextual embeddings from a transformer the user has on disk.

The stage `align:<lang>` tokenizes English and `lang` and aligns all their sentence pairs,
storing tokens and links (`alignments`) for projection; languages go to the executor a few at
a time.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from array import array
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

import xel.priors
import xel.tokenizers
from xel.config import AlignConfig, Config, TokenizeConfig
from xel.corpus import DDL as CORPUS_DDL
from xel.corpus import source_language
from xel.errors import XelError
from xel.executors import executor
from xel.names.match import make_matcher
from xel.names.transliterate import models_signature
from xel.ner import DDL as NER_DDL
from xel.priors import MentionPair, Prior, name_priors
from xel.progress import progress
from xel.registry import aligners
from xel.stages import Work, code_digest, digest_of, file_digest, versions
from xel.store import Store
from xel.textfile import iter_lines
from xel.tokenizers import Span, tokenizer_for, tokenizer_name

Link = tuple[int, int]
Links = set[Link]
# An aligner's arguments: source and target tokens of every pair, the settings, the pairs whose
# links are wanted (None: all) and lexical priors (`xel.priors`; aligners without them ignore them).
Aligner = Callable[[Sequence[Sequence[str]], Sequence[Sequence[str]], AlignConfig,
                    Sequence[int] | None, Mapping[Prior, float] | None], Iterator[Links]]


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


def eflomal_iterations(pairs: int, config: AlignConfig) -> tuple[int, int, int]:
    """Iterations of IBM1, HMM and fertility for `pairs` sentence pairs: eflomal's own
    schedule (its front end's: 5000 / sqrt(pairs) for the last model, times `eflomal_length`,
    a quarter of that for the earlier ones), the last model's capped at
    `eflomal_max_iterations`, since eflomal runs ever more of them the smaller the corpus."""
    iters = max(2, round(config.eflomal_length * 5000 / math.sqrt(max(pairs, 1))))
    if config.eflomal_max_iterations is not None:
        iters = min(iters, config.eflomal_max_iterations)
    quarter = max(1, iters // 4)
    return {1: (iters, 0, 0), 2: (max(2, quarter), iters, 0)}.get(
        config.eflomal_model, (max(2, quarter), quarter, iters))


def identical_priors(source: Path, target: Path, alpha: float) -> Counter[str]:
    """Lexical priors for tokens written alike on both sides of a pair (names, numbers,
    punctuation), `alpha` for each pair that has one: a small corpus then aligns them at once
    instead of after many iterations (docs/benchmarks.md: lower AER on the shared gold with
    a third of the iterations)."""
    found: Counter[str] = Counter()
    with open(source, encoding="utf-8") as fs, open(target, encoding="utf-8") as ft:
        for s, t in zip(fs, ft, strict=True):
            found.update(set(s.split()) & set(t.split()))
    return Counter({token: alpha * n for token, n in found.items()})


def eflomal_priors(folder: Path, config: AlignConfig,
                   names: Mapping[Prior, float] | None = None) -> Path | None:
    """The priors file for the token files `src` and `tgt` in `folder`: tokens written alike
    (`align.identical_prior`) and `names` (`xel.priors`, tokens as written: cased and spaced
    here as the files are); None where there are neither."""
    lexical: defaultdict[Prior, float] = defaultdict(float)
    if config.identical_prior:
        for token, count in identical_priors(folder / "src", folder / "tgt",
                                             config.identical_prior).items():
            lexical[token, token] = float(count)
    for (s, t), alpha in (names or {}).items():
        lexical[file_token(s, config.lowercase), file_token(t, config.lowercase)] += alpha
    if not lexical:
        return None
    priors = folder / "priors"
    with open(priors, "w", encoding="utf-8") as f:
        for (s, t), alpha in sorted(lexical.items()):
            f.write(f"LEX\t{s}\t{t}\t{alpha:g}\n")
    return priors


def eflomal_command(source: Path, target: Path, forward: Path, reverse: Path,
                    config: AlignConfig, pairs: int, priors: Path | None = None) -> list[str]:
    """The `eflomal-align` command line for two token files of `pairs` lines."""
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
            f"--n-samplers={config.eflomal_samplers}",
            *(f"--{name}={n}" for name, n in zip(("ibm1-iters", "hmm-iters", "fert-iters"),
                                                  eflomal_iterations(pairs, config), strict=True)),
            *(["--priors", str(priors)] if priors else [])]


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
            f.write(token_line(tokens, lowercase))


def token_line(tokens: Sequence[str], lowercase: bool) -> str:
    """A sentence as eflomal reads it: tokens joined by spaces."""
    return " ".join(file_token(t, lowercase) for t in tokens) + "\n"


def file_token(token: str, lowercase: bool) -> str:
    """A token as eflomal reads it (spaces inside it as `_`)."""
    token = token.replace(" ", "_")
    return token.lower() if lowercase else token


def _write_pairs(d: Path, src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
                 lowercase: bool) -> list[int]:
    """Write the pairs eflomal can learn from (no empty side), each sentence tokenized once;
    returns their indices."""
    keep = []
    with open(d / "src", "w", encoding="utf-8") as fs, open(d / "tgt", "w", encoding="utf-8") as ft:
        for k in range(len(src)):
            s, t = src[k], tgt[k]
            if s and t:
                fs.write(token_line(s, lowercase))
                ft.write(token_line(t, lowercase))
                keep.append(k)
    return keep


@aligners.register("eflomal")
def eflomal(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
            config: AlignConfig, wanted: Sequence[int] | None = None,
            priors: Mapping[Prior, float] | None = None) -> Iterator[Links]:
    """Both directions with eflomal over all pairs, then the configured symmetrization of the
    `wanted` pairs (default: all). eflomal learns from every pair, starting from `priors`
    beside its configured ones; memory holds the wanted pairs' output lines, each
    symmetrized only when its turn comes."""
    if len(src) != len(tgt):
        raise XelError(f"aligner: {len(src)} source sentences but {len(tgt)} target sentences")
    wanted = range(len(src)) if wanted is None else wanted
    with tempfile.TemporaryDirectory(prefix="xel-eflomal-") as tmp:
        d = Path(tmp)
        # eflomal cannot learn from a pair with an empty side; such pairs get no links.
        keep = _write_pairs(d, src, tgt, config.lowercase)
        if not keep:
            return (set() for _ in wanted)
        command = eflomal_command(d / "src", d / "tgt", d / "fwd", d / "rev", config,
                                  len(keep), eflomal_priors(d, config, priors))
        done = subprocess.run(command, capture_output=True, text=True,
                              env={**os.environ, **seeded_environment(config.seed)})
        if done.returncode != 0:
            error = done.stderr.strip()[-500:]
            raise XelError(f"eflomal-align failed (exit {done.returncode}): {error}")
        line_of: dict[int, int | None] = (
            dict(zip(keep, range(len(keep)), strict=True)) if len(wanted) == len(src)
            else {k: bisect_index(keep, k) for k in wanted})
        lines = {n for n in line_of.values() if n is not None}
        found: dict[int, tuple[str, str]] = {}
        with open(d / "fwd", encoding="utf-8") as fwd, open(d / "rev", encoding="utf-8") as rev:
            for n, (f, r) in enumerate(zip(fwd, rev, strict=False)):
                if n in lines:
                    found[n] = (f, r)
    symmetrize = SYMMETRIZE[config.symmetrization]

    def links() -> Iterator[Links]:
        for k in wanted:
            pair = found.get(line) if (line := line_of.get(k)) is not None else None
            yield symmetrize(parse_links(pair[0]), parse_links(pair[1])) if pair else set()

    return links()


def bisect_index(items: Sequence[int], value: int) -> int | None:
    """The index of `value` in the sorted `items`, or None."""
    k = bisect.bisect_left(items, value)
    return k if k < len(items) and items[k] == value else None


# --- simalign -------------------------------------------------------------------------------

_SIMALIGN_METHODS = {"a": "inter", "m": "mwmf", "i": "itermax"}


@aligners.register("simalign")
def simalign(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
             config: AlignConfig, wanted: Sequence[int] | None = None,
             priors: Mapping[Prior, float] | None = None) -> Iterator[Links]:
    """Contextual-embedding alignment (Jalili Sabet et al. 2020) with a local transformer
    (it learns nothing, so `priors` have no use)."""
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

    def links() -> Iterator[Links]:
        for k in range(len(src)) if wanted is None else wanted:
            s, t = src[k], tgt[k]
            yield ({(int(i), int(j)) for i, j in aligner.get_word_aligns(list(s), list(t))[key]}
                   if s and t else set())

    return links()


def align(src: Sequence[Sequence[str]], tgt: Sequence[Sequence[str]],
          config: AlignConfig, wanted: Sequence[int] | None = None,
          priors: Mapping[Prior, float] | None = None) -> Iterator[Links]:
    """Align sentence pairs with the configured aligner; the links of the `wanted` pairs
    (indices, default all), in that order, one at a time."""
    aligner: Aligner = aligners.get(config.aligner)
    return aligner(src, tgt, config, wanted, priors)


def priors_for(lang: str, config: Config, pairs: Sequence[MentionPair],
               names: Iterable[str]) -> dict[Prior, float] | None:
    """The name priors of `align.name_prior` for the mentions' pairs (None where it is 0),
    the matcher told the `names` it will be asked about."""
    if not config.align.name_prior:
        return None
    return name_priors(pairs, make_matcher(lang, config, names, by_sound=False),
                       config.align.name_prior)


def aer(predicted: Sequence[Links], sure: Sequence[Links], possible: Sequence[Links]) -> float:
    """Alignment error rate (Och & Ney 2003); `possible` includes the sure links."""
    a = sum(len(p) for p in predicted)
    s = sum(len(x) for x in sure)
    hits_s = sum(len(p & x) for p, x in zip(predicted, sure, strict=True))
    hits_p = sum(len(p & (x | y)) for p, x, y in zip(predicted, possible, sure, strict=True))
    return 1.0 - (hits_s + hits_p) / (a + s) if a + s else 0.0


# --- the align stage ----------------------------------------------------------------------

DDL = """
-- Tokens (character spans) and links of the sentence pairs whose English side has a person
-- mention: what projection reads. Both compact (`encode_spans`, `encode_links`).
CREATE TABLE IF NOT EXISTS alignments (
    lang       TEXT NOT NULL,
    seg        INTEGER NOT NULL,
    src_tokens BLOB NOT NULL,
    tgt_tokens BLOB NOT NULL,
    links      BLOB NOT NULL,
    PRIMARY KEY (lang, seg)
) WITHOUT ROWID;
"""


def _varints(numbers: Iterable[int]) -> bytes:
    out = bytearray()
    for n in numbers:
        while n >= 0x80:
            out.append(n & 0x7F | 0x80)
            n >>= 7
        out.append(n)
    return bytes(out)


def _unvarints(data: bytes) -> list[int]:
    out, n, shift = [], 0, 0
    for byte in data:
        n |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            out.append(n)
            n, shift = 0, 0
    return out


def encode_spans(spans: Sequence[Span]) -> bytes:
    """Token spans as varints of (gap since the last token's end, length): about two bytes a
    token, where `start:end` text takes six."""
    numbers, end = [], 0
    for s, e in spans:
        numbers += [s - end, e - s]
        end = e
    return _varints(numbers)


def decode_spans(data: bytes) -> list[Span]:
    numbers, spans, end = _unvarints(data), [], 0
    for k in range(0, len(numbers), 2):
        start = end + numbers[k]
        end = start + numbers[k + 1]
        spans.append((start, end))
    return spans


def encode_links(links: Links) -> bytes:
    """Links in order as varints of (source index step, target index)."""
    numbers, last = [], 0
    for i, j in sorted(links):
        numbers += [i - last, j]
        last = i
    return _varints(numbers)


def decode_links(data: bytes) -> Links:
    numbers, links, i = _unvarints(data), set(), 0
    for k in range(0, len(numbers), 2):
        i += numbers[k]
        links.add((i, numbers[k + 1]))
    return links


# Taken when the code is imported, so a long run's signatures describe the code it runs even
# if the files change on disk meanwhile.
ALIGN_CODE = code_digest(xel.tokenizers, xel.priors, sys.modules[__name__])


def align_signature(store: Store, config: Config, lang: str) -> dict[str, str]:
    source = source_language(store)
    learned = learned_files(config, source, lang)
    return {"tokenize": digest_of(config.tokenize),
            "align": digest_of(config.align.model_dump(mode="json", exclude={"learn_from"})),
            **({"learn_from": digest_of([file_digest(p) for p in learned])} if learned else {}),
            "tokenizer:src": tokenizer_name(source, config.tokenize),
            "tokenizer:tgt": tokenizer_name(lang, config.tokenize),
            "code": ALIGN_CODE,
            **(models_signature(lang, config) if config.align.name_prior else {}),
            **versions("eflomal", "sentencepiece", "jieba", "simalign", "regex")}


def learned_files(config: Config, source: str, lang: str) -> tuple[Path, Path] | None:
    """The source and `lang` files of `align.learn_from`, or None where it has no `lang`."""
    extra = config.align.learn_from
    if extra is None or lang not in extra.files:
        return None
    if source not in extra.files:
        raise XelError(f"align.learn_from has a file for {lang} but none for the source "
                       f"language {source}: add `{source}: FILE` to its files")
    folder = config.resolve(extra.path)
    return folder / extra.files[source], folder / extra.files[lang]


LEARNED = "align.learn_from file"


def check_line_aligned(learned: tuple[Path, Path], sources: int, targets: int) -> None:
    """Stop where the files of `align.learn_from` (source, target) differ in length."""
    if sources != targets:
        raise XelError(f"{learned[1]}: {targets} lines, but {learned[0]} has {sources}: the "
                       "files of align.learn_from must be line-aligned")


class Texts(Sequence[str]):
    """Sentences as UTF-8, compressed a block of `BLOCK` at a time (and where each ends in its
    block): a million are held, and sent to a worker, in about a third of their bytes. A
    sentence asked for decompresses its block, which is kept until another block is asked
    for, so reading them in order decompresses each block once."""

    BLOCK = 1024

    def __init__(self, texts: Iterable[str]) -> None:
        self.blocks: list[bytes] = []
        self.ends = array("I")  # within its block: 4 bytes is plenty
        block = bytearray()
        for text in texts:
            block += text.encode("utf-8", "surrogatepass")
            self.ends.append(len(block))
            if len(self.ends) % self.BLOCK == 0:
                self.blocks.append(zlib.compress(block, 1))
                block = bytearray()
        if len(self.ends) % self.BLOCK:
            self.blocks.append(zlib.compress(block, 1))
        self._open: tuple[int, bytes] = (-1, b"")

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_open": (-1, b"")}

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, k: Any) -> Any:
        k = k + len(self.ends) if isinstance(k, int) and k < 0 else k
        if not isinstance(k, int) or not 0 <= k < len(self.ends):
            raise IndexError(k)
        b, i = divmod(k, self.BLOCK)
        if self._open[0] != b:
            self._open = (b, zlib.decompress(self.blocks[b]))
        return self._open[1][self.ends[k - 1] if i else 0:self.ends[k]].decode(
            "utf-8", "surrogatepass")


@dataclass(frozen=True)
class AlignJob:
    """One language pair's sentences and settings: what an executor needs to align it.
    `wanted` are the positions (in the texts) whose tokens and links are kept."""

    source: str
    lang: str
    src_texts: Texts
    tgt_texts: Texts
    wanted: list[int]
    tokenize: TokenizeConfig
    align: AlignConfig
    # Where `align.name_prior` asks for name priors: the config (for the name models) and the
    # mentions (character spans in the source text) of each wanted pair.
    names: Config | None = None
    mentions: list[list[Span]] = field(default_factory=list)


@dataclass(frozen=True)
class Aligned:
    """Encoded tokens and links of the wanted pairs, in `AlignJob.wanted` order."""

    src_tokens: list[bytes]
    tgt_tokens: list[bytes]
    links: list[bytes]
    n_links: int


class Tokens(Sequence[list[str]]):
    """The tokens of each text, made when asked for, so a million sentences are never all
    held as token lists."""

    def __init__(self, texts: Sequence[str], tokenizer: Callable[[str], list[Span]]) -> None:
        self.texts, self.tokenizer = texts, tokenizer

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, k: Any) -> Any:
        text = self.texts[k]
        return [text[s:e] for s, e in self.tokenizer(text)]


def align_texts(job: AlignJob) -> Aligned:
    """Tokenize both sides and align every pair, keeping the wanted pairs' tokens and links
    (runs in an executor's worker); each pair's links are encoded as the aligner yields them."""
    src_tok = tokenizer_for(job.source, job.src_texts, job.tokenize)
    tgt_tok = tokenizer_for(job.lang, job.tgt_texts, job.tokenize)
    src, tgt = Tokens(job.src_texts, src_tok), Tokens(job.tgt_texts, tgt_tok)
    src_spans = [src_tok(job.src_texts[k]) for k in job.wanted]
    priors = None
    if job.names is not None:
        pairs: list[MentionPair] = []
        names: set[str] = set()
        for k, tokens, spans in zip(job.wanted, src_spans, job.mentions, strict=True):
            pairs.append((src[k], tgt[k], mention_tokens(tokens, spans)))
            names.update(job.src_texts[k][a:b] for a, b in spans)
        priors = priors_for(job.lang, job.names, pairs, names)
    links, n_links = [], 0
    for x in align(src, tgt, job.align, job.wanted, priors):
        links.append(encode_links(x))
        n_links += len(x)
    return Aligned([encode_spans(spans) for spans in src_spans],
                   [encode_spans(tgt_tok(job.tgt_texts[k])) for k in job.wanted],
                   links, n_links)


def mention_tokens(tokens: Sequence[Span], mentions: Sequence[Span]) -> list[tuple[int, int]]:
    """Mentions given as character spans, as (first, last) token (those with no token left out)."""
    out = []
    for start, end in mentions:
        inside = [k for k, (s, e) in enumerate(tokens) if s < end and e > start]
        if inside:
            out.append((inside[0], inside[-1]))
    return out


@dataclass(frozen=True)
class SourceSide:
    """What every language's job shares: the source sentences in segment order, and the
    segments with a mention (`segs`) at their positions in it (`wanted`), with the
    mentions' character spans (`mentions`)."""

    lang: str
    texts: Texts
    segs: list[int]
    wanted: list[int]
    mentions: list[list[Span]]


def source_side(store: Store) -> SourceSide:
    """Read once, whatever the number of languages: a million source sentences are the
    largest thing the stage holds."""
    source = source_language(store)
    mentioned: dict[int, list[Span]] = {}
    for seg, start, end in store.query('SELECT seg, start, "end" FROM mentions ORDER BY start'):
        mentioned.setdefault(seg, []).append((start, end))
    segs: list[int] = []
    wanted: list[int] = []
    count = 0

    def texts() -> Iterator[str]:
        nonlocal count
        for seg, text in store.execute("SELECT seg, text FROM sentences WHERE lang = ? "
                                       "ORDER BY seg", (source,)):
            if seg in mentioned:
                segs.append(seg)
                wanted.append(count)
            count += 1
            yield text

    sentences = Texts(texts())  # fills segs and wanted as it reads
    return SourceSide(source, sentences, segs, wanted, [mentioned[seg] for seg in segs])


@dataclass(frozen=True)
class Pending:
    """What the writer needs of a job once it has gone to the executor."""

    lang: str
    segs: list[int]
    pairs: int
    empty_targets: int
    learned_from: int


def align_job(store: Store, config: Config, side: SourceSide,
              lang: str) -> tuple[Pending, AlignJob]:
    """The job for aligning `lang` with the source language (every pair, since the aligner
    learns from all of them, then those of `align.learn_from`; a segment `lang` lacks is an
    empty target)."""
    if not store.scalar("SELECT 1 FROM sentences WHERE lang = ? LIMIT 1", (lang,)):
        raise XelError(f"language {lang!r} is not in the corpus of {store.path}")
    empty = 0

    def texts() -> Iterator[str]:
        nonlocal empty
        for _, text in store.execute(
                "SELECT s.seg, COALESCE(t.text, '') FROM sentences s LEFT JOIN sentences t"
                " ON t.lang = ? AND t.seg = s.seg WHERE s.lang = ? ORDER BY s.seg",
                (lang, side.lang)):
            empty += not text.strip()
            yield text

    learned = learned_files(config, side.lang, lang)
    if learned is None:
        src, tgt = side.texts, Texts(texts())
    else:
        src = Texts(chain(side.texts, iter_lines(learned[0], LEARNED)))
        tgt = Texts(chain(texts(), iter_lines(learned[1], LEARNED)))
        check_line_aligned(learned, len(src) - len(side.texts), len(tgt) - len(side.texts))
    return (Pending(lang, side.segs, len(side.texts), empty, len(src) - len(side.texts)),
            AlignJob(side.lang, lang, src, tgt, side.wanted, config.tokenize, config.align,
                     *((config, side.mentions) if config.align.name_prior else ())))


def write_alignment(job: Pending, result: Aligned) -> Work:
    def work(s: Store) -> dict[str, Any]:
        s.execute("DELETE FROM alignments WHERE lang = ?", (job.lang,))
        s.executemany(
            "INSERT INTO alignments VALUES (?, ?, ?, ?, ?)",
            [(job.lang, seg, a, b, x) for seg, a, b, x in zip(
                job.segs, result.src_tokens, result.tgt_tokens, result.links, strict=True)])
        return {"pairs": job.pairs, "kept": len(job.segs), "links": result.n_links,
                "empty_targets": job.empty_targets, "learned_from": job.learned_from}

    return work


def align_languages(store: Store, config: Config,
                    langs: list[str]) -> Iterator[tuple[str, Work]]:
    """The align stage of several languages on the configured executor: each language's
    writer as soon as it is aligned.

    Languages go to the executor as workers free up (at most two per worker read ahead), so
    memory holds only those languages' sentences; the runner commits each as its own stage.
    """
    store.declare(CORPUS_DDL)
    store.declare(NER_DDL)
    store.declare(DDL)
    pending: deque[Pending] = deque()

    def jobs() -> Iterator[AlignJob]:
        side = source_side(store)  # read when the first job is asked for
        for lang in langs:
            note, job = align_job(store, config, side, lang)
            pending.append(note)
            yield job

    with executor(config.executor) as ex:
        for result in progress(ex.imap(align_texts, jobs(), len(langs)), "align", len(langs),
                               "languages"):
            note = pending.popleft()
            yield note.lang, write_alignment(note, result)
