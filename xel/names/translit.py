"""Name transliteration models, both directions, shipped inside the package.

A model is a joint-sequence (grapheme-pair) n-gram model trained with Phonetisaurus, the WFST
tool Merhav & Ash (COLING 2018) used as their baseline on the Wikidata name pairs xel trains on.
Phonetisaurus runs as a separate program (the `phonetisaurus` package ships its x86_64 binaries).

What ships is the EM-aligned training corpus, xz-compressed (under 1 MB per model), with a JSON
sidecar: the compiled WFST is 10-50x larger, so `load` compiles it once (seconds) into a cache
folder keyed by the corpus digest. Rebuilding with the same data, seed and tool version gives
the same bytes.

Keys: one per script with pairs (`russian`, `arabic`, `hebrew`, `chinese`, `katakana`,
`korean`) and `romanized` for every other script: its input is the uroman romanization of a
target-script token, and it was trained on the romanized target sides of all six pair files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import lzma
import math
import os
import pickle
import random
import sqlite3
import subprocess
import tempfile
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from xel.errors import XelError

Direction = Literal["to-english", "from-english"]
DIRECTIONS: tuple[Direction, ...] = ("to-english", "from-english")
MODELS = Path(__file__).parent / "models"
PAIR_KEYS = ("russian", "arabic", "hebrew", "chinese", "katakana", "korean")
KEYS = (*PAIR_KEYS, "romanized")
NGRAM_ORDER = 8
CANDIDATES = 10  # paths decoded per token; scores are normalized over them
WORKERS = max(1, min(4, os.cpu_count() or 1))  # decoder processes for a large batch
REBUILD = "rebuild the shipped models with `xel names train`"

# ISO 15924 script -> model key. Scripts not listed (Grek, Deva, Thai, Geor, ...) use the
# romanized model; Latin needs none.
_SCRIPT_KEYS = {
    "Cyrl": "russian", "Arab": "arabic", "Hebr": "hebrew",
    "Hans": "chinese", "Hant": "chinese", "Hani": "chinese",
    "Jpan": "katakana", "Kana": "katakana", "Hira": "katakana",
    "Kore": "korean", "Hang": "korean",
}
_NO_MODEL = {"Latn", "Zyyy", "Zxxx", "Zzzz"}


def model_key(script: str) -> str | None:
    """The model for an ISO 15924 script code: a pair-trained key, `romanized`, or None."""
    if script in _NO_MODEL:
        return None
    return _SCRIPT_KEYS.get(script, "romanized")


def normalize(token: str) -> str:
    """NFC and casefolded, as the training pairs are."""
    return unicodedata.normalize("NFC", token).casefold().strip()


@cache
def _uroman() -> Any:
    """uroman's romanizer. Building it reads its tables (4 s), which every worker process of
    every stage paid: the built romanizer is kept pickled in the cache (0.2 s to read back),
    one file per uroman version; an unusable file is built again."""
    import uroman

    path = _cache_dir() / f"uroman-{metadata.version('uroman')}.pickle"
    try:
        return pickle.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError, AttributeError, pickle.UnpicklingError):
        pass
    built = uroman.Uroman()
    built.dict_num = defaultdict(_nothing, built.dict_num)  # its own default is a lambda
    _keep(path, pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL))
    return built


def _nothing() -> None:
    return None


def _keep(path: Path, data: bytes) -> None:
    """Write a cache file atomically (a concurrent reader sees all or nothing); a read-only
    cache is left alone (the work is done again next time)."""
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)


@lru_cache(maxsize=1 << 20)
def romanize(text: str) -> str:
    """uroman's romanization of any script, lower-cased."""
    return str(_uroman().romanize_string(text)).lower()


# ---------------------------------------------------------------------------------------------
# Running Phonetisaurus


def _env() -> dict[str, str]:
    try:
        import phonetisaurus
    except ImportError as e:  # pragma: no cover - it is a dependency
        raise XelError("the `phonetisaurus` package is missing: reinstall xel (./setup)") from e
    return phonetisaurus.guess_environment()


def _run(args: list[str], what: str) -> str:
    try:
        done = subprocess.run(args, env=_env(), capture_output=True, text=True,
                              encoding="utf-8")
    except OSError as e:  # the package ships x86_64 programs only
        raise XelError(f"{what}: cannot run {args[0]} ({e}): the `phonetisaurus` package "
                       "has programs for x86_64 Linux; reinstall xel (./setup) there") from e
    if done.returncode != 0:
        raise XelError(f"{what} failed ({args[0]}, exit {done.returncode}): "
                       f"{done.stderr.strip()[-500:]}")
    return done.stdout


def tool_version() -> str:
    return f"phonetisaurus {metadata.version('phonetisaurus')}"


def _compile(corpus: Path, fst: Path) -> None:
    """Aligned joint-sequence corpus -> 8-gram joint model (mitlm) -> WFST."""
    arpa = fst.with_suffix(".arpa")
    _run(["estimate-ngram", "-o", str(NGRAM_ORDER), "-t", str(corpus), "-wl", str(arpa)],
         "estimating the joint n-gram model")
    _run(["phonetisaurus-arpa2wfst", f"--lm={arpa}", f"--ofile={fst}"],
         "converting the n-gram model to a WFST")
    arpa.unlink()


# ---------------------------------------------------------------------------------------------
# Loading and decoding


@dataclass
class Transliterator:
    """One model in one direction. `nbest` starts the decoder, which reads the whole WFST
    (up to a second or two), once per core per call: pass all of a stage's tokens at once."""

    key: str
    direction: Direction
    fst: Path
    sidecar: dict[str, Any]
    letters: dict[str, int]  # the letters the model learned to read: in how many names each
    seen: dict[str, frozenset[str]]  # each training input and what it was paired with
    # to English, a token with letters this script's model never saw (Urdu's ٹ, ے in Arabic
    # script, Bulgarian's ъ ...) goes to the romanized model instead of losing those letters
    fallback: bool = True

    def nbest(self, words: Sequence[str], n: int = 5) -> list[list[tuple[str, float]]]:
        """Per input token, up to n candidates best first, scored by their share of the
        probability of the model's top CANDIDATES paths (so in (0, 1])."""
        inputs = [self._input(w) for w in words]
        foreign = self._foreign(inputs)
        unique = sorted({w for i, w in enumerate(inputs) if w and i not in foreign})
        decoded = self._decode(unique, max(n, CANDIDATES)) if unique else {}
        result = [decoded.get(w, [])[:n] for w in inputs]
        if foreign:
            romanized = load("romanized", self.direction).nbest([words[i] for i in foreign], n)
            for i, candidates in zip(foreign, romanized, strict=True):
                result[i] = candidates
        return result

    def _uses_fallback(self) -> bool:
        return self.fallback and self.direction == "to-english" and self.key != "romanized"

    def _foreign(self, inputs: list[str]) -> list[int]:
        if not self._uses_fallback():
            return []
        return [i for i, w in enumerate(inputs) if w and not set(w) <= self.letters.keys()]

    def _input(self, word: str) -> str:
        token = normalize(word)
        if self.key == "romanized" and self.direction == "to-english":
            token = normalize(romanize(token))
        # one token per line for the decoder: whitespace inside a token is the caller's split
        return "".join(token.split())

    def _decode(self, words: list[str], k: int) -> dict[str, list[tuple[str, float]]]:
        """What the decodings kept on disk have for the words (`Decoded`), the rest decoded
        in one decoder process per core (each reads a share of them) and kept."""
        kept = Decoded(self.fst.name, k)
        found = kept.get(words)
        missing = [w for w in words if w not in found]
        if not missing:
            return found
        shares = [missing[i::WORKERS] for i in range(WORKERS)] if len(missing) > 500 else [
            missing]
        with ThreadPoolExecutor(len(shares)) as pool:
            outputs = list(pool.map(lambda share: self._decode_share(share, k), shares))
        fresh = {w: c for out in outputs for w, c in out.items()}
        fresh.update({w: [] for w in missing if w not in fresh})  # nothing is an answer too
        kept.put(fresh)
        return {**found, **fresh}

    def _decode_share(self, words: list[str], k: int) -> dict[str, list[tuple[str, float]]]:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as f:
            f.write("".join(w + "\n" for w in words))
            f.flush()
            out = _run(["phonetisaurus-g2pfst", f"--model={self.fst}", f"--wordlist={f.name}",
                        f"--nbest={k}"], f"decoding with {self.fst.name}")
        # Candidates keep the decoder's order (best path first, as Merhav & Ash ranked them);
        # a candidate's score is its best path's share of the paths decoded for the token.
        paths: dict[str, dict[str, float]] = defaultdict(dict)
        for line in out.splitlines():
            fields = line.split("\t")
            if len(fields) != 3 or not fields[2].strip():
                continue
            word, cost, output = fields
            text = "".join(output.split())  # output symbols are space-separated characters
            paths[word].setdefault(text, float(cost))
        result = {}
        for word, costs in paths.items():
            # Shares from costs relative to the best path: exp(-cost) of a long token
            # underflows to 0 for every path.
            best = min(costs.values())
            weights = {text: math.exp(best - cost) for text, cost in costs.items()}
            total = sum(weights.values())
            ranked = sorted(weights.items(), key=lambda c: (-c[1], c[0]))
            result[word] = [(text, p / total) for text, p in ranked]
        return result

    def signature(self) -> dict[str, str]:
        """What identifies this model's output: goes into every stage signature using it."""
        s = self.sidecar
        parts = {"model": s["model_sha256"][:16], "data": s["data_sha256"][:16],
                 "tool": s["tool"], "seed": str(s["seed"])}
        if self._uses_fallback():
            _, romanized = model_paths("romanized", self.direction)
            try:
                parts["fallback"] = json.loads(romanized.read_text("utf-8"))["model_sha256"][:16]
            except (OSError, ValueError, KeyError):
                parts["fallback"] = "absent"
        return parts


class Decoded:
    """Decodings of one compiled model kept on disk (`decoded.sqlite` beside the compiled
    models, or $XEL_DECODED): a model decodes a token the same way every time, and the
    stages, their worker processes and every rerun ask about the same tokens (triage's
    projections are the baselines' names), each time paying a second to start the decoder
    on a large model. Where the file cannot be used, everything is decoded afresh."""

    DDL = ("CREATE TABLE IF NOT EXISTS decoded (model TEXT NOT NULL, k INTEGER NOT NULL,"
           " word TEXT NOT NULL, candidates TEXT NOT NULL, PRIMARY KEY (model, k, word))"
           " WITHOUT ROWID")

    def __init__(self, model: str, k: int) -> None:
        self.model, self.k = model, k

    @staticmethod
    def path() -> Path:
        return Path(os.environ.get("XEL_DECODED") or _cache_dir() / "decoded.sqlite")

    def _connect(self) -> sqlite3.Connection:
        path = self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=60)
        db.execute("PRAGMA journal_mode=WAL")  # several worker processes read and write
        db.execute(self.DDL)
        return db

    def get(self, words: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        found: dict[str, list[tuple[str, float]]] = {}
        try:
            with contextlib.closing(self._connect()) as db:
                for at in range(0, len(words), 500):
                    chunk = list(words[at:at + 500])
                    rows = db.execute(
                        "SELECT word, candidates FROM decoded WHERE model = ? AND k = ? AND"
                        f" word IN ({','.join('?' * len(chunk))})", (self.model, self.k, *chunk))
                    found.update((w, [(t, p) for t, p in json.loads(c)]) for w, c in rows)
        except (OSError, sqlite3.Error):
            return {}
        return found

    def put(self, decoded: dict[str, list[tuple[str, float]]]) -> None:
        try:
            with contextlib.closing(self._connect()) as db, db:
                db.executemany("INSERT OR IGNORE INTO decoded VALUES (?, ?, ?, ?)",
                               [(self.model, self.k, w, json.dumps(c, ensure_ascii=False))
                                for w, c in decoded.items()])
        except (OSError, sqlite3.Error):
            pass  # kept or not, the answers are the same


def model_paths(key: str, direction: Direction, folder: Path = MODELS) -> tuple[Path, Path]:
    stem = f"{key}.{direction}"
    return folder / f"{stem}.corpus.xz", folder / f"{stem}.json"


def _cache_dir() -> Path:
    """Where compiled WFSTs go: $XEL_CACHE, else $XDG_CACHE_HOME/xel, else ~/.cache/xel."""
    if root := os.environ.get("XEL_CACHE"):
        return Path(root) / "translit"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "xel" / "translit"


@cache
def load(key: str, direction: Direction, folder: Path = MODELS) -> Transliterator:
    """The shipped model for `key` and `direction` (compiled into the cache on first use)."""
    if key not in KEYS:
        raise XelError(f"no transliteration model {key!r}: the keys are {', '.join(KEYS)}")
    if direction not in DIRECTIONS:
        raise XelError(f"direction {direction!r}: say to-english or from-english")
    corpus_xz, sidecar_path = model_paths(key, direction, folder)
    for path in (corpus_xz, sidecar_path):
        if not path.is_file():
            raise XelError(f"{path}: transliteration model file missing: {REBUILD}")
    try:
        sidecar = json.loads(sidecar_path.read_text(encoding="utf-8"))
        expected = sidecar["model_sha256"]
    except (ValueError, KeyError, TypeError) as e:
        raise XelError(f"{sidecar_path}: not a transliteration model sidecar ({e}): "
                       f"{REBUILD}") from e
    blob = corpus_xz.read_bytes()
    if hashlib.sha256(blob).hexdigest() != expected:
        raise XelError(f"{corpus_xz}: corrupt transliteration model (digest differs from "
                       f"{sidecar_path.name}): {REBUILD}")
    try:
        text = lzma.decompress(blob)
    except lzma.LZMAError as e:
        raise XelError(f"{corpus_xz}: corrupt transliteration model ({e}): {REBUILD}") from e
    fst = _cache_dir() / f"{key}.{direction}.{expected[:16]}.fst"
    if not fst.is_file():
        fst.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=fst.parent) as tmp:
            corpus = Path(tmp) / "model.corpus"
            corpus.write_bytes(text)
            built = Path(tmp) / "model.fst"
            _compile(corpus, built)
            os.replace(built, fst)  # atomic: a concurrent loader sees all or nothing
    letters, seen = _tables(fst.with_suffix(".tables.pickle"), text)
    return Transliterator(key, direction, fst, sidecar, letters, seen)


def _tables(path: Path, corpus: bytes) -> tuple[dict[str, int], dict[str, frozenset[str]]]:
    """`_letters` and `_seen` of a model's corpus, kept beside its compiled WFST: reading
    them back takes a quarter of the time working them out does (seconds per model), which
    every worker process of every stage paid."""
    try:
        letters, seen = pickle.loads(path.read_bytes())
        return letters, seen
    except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
        pairs = corpus.decode("utf-8")
        letters, seen = _letters(pairs), _seen(pairs)
    _keep(path, pickle.dumps((letters, seen), protocol=pickle.HIGHEST_PROTOCOL))
    return letters, seen


def compile_models(folder: Path = MODELS, workers: int = WORKERS) -> list[Path]:
    """Compile every model in `folder` into the cache, `workers` at a time, and keep uroman's
    romanizer there: what `load` and `romanize` do on first use, done at setup so that a first
    build does not wait for them."""
    found = [(key, d) for key in KEYS for d in DIRECTIONS
             if model_paths(key, d, folder)[0].is_file()]
    with ThreadPoolExecutor(max(1, workers)) as pool:
        romanizer = pool.submit(_uroman)
        compiled = list(pool.map(lambda kd: load(kd[0], kd[1], folder).fst, found))
        romanizer.result()
        return compiled


def _seen(corpus: str) -> dict[str, frozenset[str]]:
    """The training pairs an aligned corpus holds (`t}т r}р u}а m}м p}п`: trump, трамп; `|`
    joins letters of one side, `_` is nothing)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for line in corpus.splitlines():
        chunks = [chunk.partition("}") for chunk in line.split()]
        source = "".join(a for a, _, _ in chunks).replace("|", "").replace("_", "")
        target = "".join(b for _, _, b in chunks).replace("|", "").replace("_", "")
        if source and target:
            seen[source].add(target)
    return {k: frozenset(v) for k, v in seen.items()}


def _letters(corpus: str) -> dict[str, int]:
    """Input letters of an aligned corpus (`ab}x c}y|z`: the input side is before `}`), with
    the number of training names (lines) using each."""
    counts: Counter[str] = Counter()
    for line in corpus.splitlines():
        counts.update({ch for chunk in line.split() for ch in chunk.partition("}")[0]})
    for marker in "|_":
        counts.pop(marker, None)
    return dict(counts)


# ---------------------------------------------------------------------------------------------
# Pairs, evaluation and training


@dataclass(frozen=True)
class Pair:
    english: str
    target: str  # characters joined (the files separate them with spaces)


def read_pairs(path: Path) -> list[Pair]:
    """A pairs file in the Merhav & Ash `wd_` format: English token, target characters
    separated by spaces, count (optional); tab-separated."""
    if not path.is_file():
        raise XelError(f"{path}: no such pairs file (the wd_<script>_80 files are in "
                       "../shared/data/translit)")
    pairs = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise XelError(f"{path}: not UTF-8 ({e}): pairs files are UTF-8 text") from e
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        english, target = (normalize(f) for f in fields[:2]) if len(fields) >= 2 else ("", "")
        target = "".join(target.split())
        if len(fields) not in (2, 3) or not english or not target or " " in english:
            raise XelError(f"{path}, line {number}: expected `english<TAB>t a r g e t[<TAB>"
                           f"count]`, got {line[:80]!r}")
        pairs.append(Pair(english, target))
    if not pairs:
        raise XelError(f"{path}: no pairs in it")
    return pairs


def split_pairs(pairs: list[Pair], seed: int, dev_fraction: float) -> tuple[list[Pair],
                                                                            list[Pair]]:
    """A seeded random split of the lines, as Merhav & Ash split theirs (80/20 of lines)."""
    if not 0 < dev_fraction < 1:
        raise XelError(f"dev fraction {dev_fraction}: give a number between 0 and 1")
    order = list(range(len(pairs)))
    random.Random(seed).shuffle(order)
    ndev = int(len(pairs) * dev_fraction)
    dev = sorted(order[:ndev])
    train = sorted(order[ndev:])
    return [pairs[i] for i in train], [pairs[i] for i in dev]


def source_and_reference(pair: Pair, key: str, direction: Direction) -> tuple[str, str]:
    """What the model reads and what it should write for a pair, in `direction`."""
    if direction == "to-english":
        return pair.target, pair.english
    return pair.english, (romanize(pair.target) if key == "romanized" else pair.target)


def evaluate(model: Transliterator, pairs: Iterable[Pair], n: int = 5) -> dict[str, Any]:
    """Top-1 and top-n exact-match word accuracy, Merhav & Ash's protocol: each distinct
    source token counts once, and any of its references in `pairs` is a match."""
    references: dict[str, set[str]] = defaultdict(set)
    for pair in pairs:
        source, reference = source_and_reference(pair, model.key, model.direction)
        references[normalize(source)].add(normalize(reference).replace(" ", ""))
    sources = list(references)
    candidates = model.nbest(sources, n)
    top1 = sum(1 for s, c in zip(sources, candidates, strict=True)
               if c and c[0][0] in references[s])
    topn = sum(1 for s, c in zip(sources, candidates, strict=True)
               if any(text in references[s] for text, _ in c))
    count = len(sources)
    return {"direction": model.direction, "words": count,
            "top1": round(top1 / count, 4) if count else 0.0,
            f"top{n}": round(topn / count, 4) if count else 0.0}


def pairs_file(pairs: Path, key: str) -> Path:
    """`pairs` is a wd_ file, or the folder holding wd_<key>_80."""
    return pairs / f"wd_{key}_80" if pairs.is_dir() else pairs


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


_RESERVED = set("}|_")  # Phonetisaurus's alignment markers


def _lexicon(pairs: Iterable[Pair], key: str, direction: Direction) -> list[str]:
    """Training lines `source<TAB>o u t p u t`, skipping any with a reserved character."""
    lines = []
    for pair in pairs:
        source, reference = source_and_reference(pair, key, direction)
        if key == "romanized" and direction == "to-english":
            source = romanize(source)  # as `nbest` romanizes what it reads
        source, reference = "".join(source.split()), "".join(reference.split())
        if source and reference and not _RESERVED & set(source + reference):
            lines.append(f"{source}\t{' '.join(reference)}\n")
    return lines


def _align(lines: list[str], corpus: Path) -> None:
    """EM alignment into joint graphemes (Merhav & Ash's recipe: `--seq2_del`, chunks <= 2)."""
    lexicon = corpus.with_suffix(".lex")
    lexicon.write_text("".join(lines), encoding="utf-8")
    _run(["phonetisaurus-align", f"--input={lexicon}", f"--ofile={corpus}",
          "--seq1_del=false", "--seq2_del=true", "--seq1_max=2", "--seq2_max=2", "--grow=false"],
         "aligning the training pairs")
    lexicon.unlink()


def training_split(pairs: Path, key: str, seed: int,
                   dev_fraction: float) -> dict[str, tuple[list[Pair], list[Pair]]]:
    """Train and dev pairs per pairs file the model learns from: its own script's file, or,
    for `romanized`, every script's (each split as that script's own model splits it)."""
    keys = PAIR_KEYS if key == "romanized" else (key,)
    if key == "romanized" and not pairs.is_dir():
        raise XelError(f"{pairs}: the romanized model trains on every wd_<script>_80 file: "
                       "give the folder holding them")
    return {k: split_pairs(read_pairs(pairs_file(pairs, k)), seed, dev_fraction) for k in keys}


def train(pairs: Path, key: str, out: Path, *, seed: int = 13, dev_fraction: float = 0.2,
          directions: Sequence[Direction] = DIRECTIONS) -> dict[str, Any]:
    """Train `key`'s models on a seeded split of the pairs, write them (corpus + sidecar) to
    `out`, and return their figures on the held-out part (top-1, top-5; per script for
    `romanized`)."""
    if key not in KEYS:
        raise XelError(f"no transliteration model {key!r}: the keys are {', '.join(KEYS)}")
    splits = training_split(pairs, key, seed, dev_fraction)
    data_files = sorted({pairs_file(pairs, k) for k in splits})
    data_digest = hashlib.sha256("".join(_sha256(p) for p in data_files).encode()).hexdigest()
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(len(directions)) as pool:  # one aligner process per direction
        sidecars = list(pool.map(lambda d: _train_direction(splits, key, d, out), directions))
    figures: dict[str, Any] = {}
    for direction, sidecar in zip(directions, sidecars, strict=True):
        sidecar.update(seed=seed, dev_fraction=dev_fraction, data=[p.name for p in data_files],
                       data_sha256=data_digest)
        _, sidecar_path = model_paths(key, direction, out)
        load.cache_clear()
        _write_sidecar(sidecar_path, sidecar)
        model = load(key, direction, out)
        model = replace(model, fallback=False)  # the figures are this model's alone
        dev = {k: evaluate(model, dev_part) for k, (_, dev_part) in splits.items()}
        sidecar["dev"] = dev if key == "romanized" else dev[key]
        _write_sidecar(sidecar_path, sidecar)
        figures[direction] = sidecar["dev"]
    load.cache_clear()
    return figures


def _train_direction(splits: dict[str, tuple[list[Pair], list[Pair]]], key: str,
                     direction: Direction, out: Path) -> dict[str, Any]:
    """Align the training pairs and write the compressed corpus; the sidecar's first fields."""
    corpus_xz, _ = model_paths(key, direction, out)
    lines = [line for train_part, _ in splits.values()
             for line in _lexicon(train_part, key, direction)]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "model.corpus"
        _align(lines, corpus)
        corpus_xz.write_bytes(lzma.compress(corpus.read_bytes(), preset=9))
    return {"key": key, "direction": direction, "tool": tool_version(),
            "ngram_order": NGRAM_ORDER, "train_pairs": len(lines),
            "model_sha256": _sha256(corpus_xz)}


def _write_sidecar(path: Path, sidecar: dict[str, Any]) -> None:
    path.write_text(json.dumps(sidecar, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
