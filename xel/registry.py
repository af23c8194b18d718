"""Registries of interchangeable components, chosen by name in a config (as in spaCy).

A registry knows which modules define its members and imports them on first use, so
`registry.aligners.names()` lists every aligner without the caller importing anything.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from xel.errors import XelError

T = TypeVar("T", bound=Callable[..., Any])


class Registry(Generic[T]):
    def __init__(self, kind: str, modules: list[str]) -> None:
        self.kind = kind
        self._modules = modules
        self._items: dict[str, T] = {}
        self._loaded = False

    def register(self, name: str) -> Callable[[T], T]:
        def add(item: T) -> T:
            self._items[name] = item
            return item

        return add

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for module in self._modules:
                importlib.import_module(module)

    def get(self, name: str) -> T:
        self._load()
        if name not in self._items:
            raise XelError(
                f"unknown {self.kind} {name!r}: choose one of {', '.join(self.names())}"
            )
        return self._items[name]

    def names(self) -> list[str]:
        self._load()
        return sorted(self._items)


corpus_readers: Registry[Any] = Registry("corpus format", ["xel.corpus"])
kb_readers: Registry[Any] = Registry("knowledge-base format", ["xel.kb"])
embedders: Registry[Any] = Registry("embedding model", ["xel.link"])
tokenizers: Registry[Any] = Registry("tokenizer", ["xel.tokenizers"])
aligners: Registry[Any] = Registry("aligner", ["xel.align"])
translators: Registry[Any] = Registry("translator", ["xel.translate"])
typers: Registry[Any] = Registry("mention typer", ["xel.mention_typer"])
crowd_backends: Registry[Any] = Registry(
    "crowd backend", ["hits.backends.mturk", "hits.backends.local", "hits.backends.simulated"]
)
policies: Registry[Any] = Registry("crowd policy", ["hits.policy"])
executors: Registry[Any] = Registry("executor", ["xel.executors"])
