"""Japanese morphemes: Janome's analyzer (IPADIC), whose dictionary also gives each word's
reading. The tokenizer splits Japanese sentences with it, and the name rules read kanji names
out with it; both share one instance, which takes a second to load."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def janome() -> Any:
    """The Janome tokenizer, loaded once (`tokenize(text)` gives words with `reading`)."""
    from janome.tokenizer import Tokenizer

    return Tokenizer()
