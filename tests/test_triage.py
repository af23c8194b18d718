"""Round-trip triage: locating the chosen projection, translating back, A1/D1/curate."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_project import as_if_run, bare_config, projected, small_store

import xel.triage as triage_module
from xel.config import Config
from xel.errors import XelError
from xel.names import transliterate
from xel.pipeline import run
from xel.queries import DDL as QUERIES_DDL
from xel.registry import translators
from xel.stages import StageRun
from xel.store import Store
from xel.translate import (
    Translation,
    googletrans,
    offline,
    round_trip_key,
    translate,
)
from xel.triage import locate, surname_of

QUERY_COLUMNS = ("INSERT INTO queries(query_id, name, name_key, doc_id, mention_id, seg,"
                 " start, end, ordinal)")


def test_locate_prefers_the_query_sentence_then_rank_and_whole_words() -> None:
    doc = [(10, "Trumpet und Trump."), (11, "Donald  Trump kam."), (12, "Trump ging.")]
    # The query's sentence writes the surname alone: that is its name there.
    assert locate(["Donald Trump", "Trump"], doc, 12, unspaced=False) == ("Trump", 12, 0, 5)
    assert locate(["Donald Trump", "Trump"], doc, 11, unspaced=False) == (
        "Donald  Trump", 11, 0, 13)
    # A frequent surname inside the full name written there gives the full name.
    assert locate(["Trump", "Donald Trump"], doc, 11, unspaced=False) == (
        "Donald  Trump", 11, 0, 13)
    assert locate(["卡瓦諾", "布雷特·卡瓦諾"], [(1, "法官布雷特·卡瓦諾說")], 1, unspaced=True) == (
        "布雷特·卡瓦諾", 1, 2, 9)
    assert locate(["Donald Trump"], doc, 12, unspaced=False) == ("Donald  Trump", 11, 0, 13)
    assert locate(["Trump"], doc, 12, unspaced=False) == ("Trump", 12, 0, 5)
    assert locate(["Trump"], doc, 10, unspaced=False) == ("Trump", 10, 12, 17)
    assert locate(["Merkel"], doc, 10, unspaced=False) is None


def test_locate_passes_over_the_english_copy_in_brackets_in_other_scripts() -> None:
    """NTREX's Chinese writes `牛津 (Oxford)`: where the name's first-ranked projection is
    `Oxford` (another sentence keeps it in Latin), the name this sentence writes is `牛津`."""
    doc = [(1, "BMW 將關閉位於牛津 (Oxford) 的 Mini 車廠"), (2, "在 Oxford Grove 區域")]
    assert locate(["Oxford", "牛津"], doc, 1, unspaced=True, copies=False) == ("牛津", 1, 9, 11)
    assert locate(["Oxford", "牛津"], doc, 1, unspaced=True) == ("Oxford", 1, 13, 19)
    assert locate(["Oxford"], doc, 1, unspaced=True, copies=False) == ("Oxford", 2, 2, 8)
    # the copy is still better than no name at all
    assert locate(["Oxford"], doc[:1], 1, unspaced=True, copies=False) == ("Oxford", 1, 13, 19)
    # an acronym is what the translation keeps: its bracketed copy is the name
    bbc = [(1, "英國廣播公司 (BBC) 報導")]
    assert locate(["BBC"], bbc, 1, unspaced=True, copies=False) == ("BBC", 1, 8, 11)
    assert locate(["川普"], [(1, "美國總統川普說")], 1, unspaced=True) == ("川普", 1, 4, 6)


def test_round_trip_key_folds_case_and_spaces() -> None:
    assert round_trip_key("  donald\u00a0 TRUMP ") == round_trip_key("Donald Trump")
    assert round_trip_key("Donald Trumps") != round_trip_key("Donald Trump")


def test_offline_translator_without_models() -> None:
    config = bare_config(names={"models": None})
    out = offline(["Donald Trump", "Дональд Трамп", "金正恩"], "rus", config)
    assert out["Donald Trump"] == Translation("Donald Trump", "identity")
    assert out["Дональд Трамп"] == Translation("Donal'd Tramp", "icu")
    assert out["金正恩"].method == "icu"


def test_offline_translator_reads_with_the_shipped_models() -> None:
    out = offline(["Борис Джонсон", "Boris Džonson", "Boris Johnson"], "rus", bare_config())
    assert out["Борис Джонсон"] == Translation("Boris Johnson", "model")
    assert out["Boris Johnson"].method == "identity"
    # Serbian respells English names in Latin letters: the model reads them.
    serbian = offline(["Boris Džonson"], "srp-Latn", bare_config())
    assert serbian["Boris Džonson"] == Translation("Boris Johnson", "model")


def test_cache_translates_each_name_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def counting(names: list[str], lang: str, config: Config) -> dict[str, Translation]:
        calls.append(names)
        return {n: Translation(n.upper(), "test") for n in names}

    monkeypatch.setitem(translators._items, "counting", counting)
    translators._load()
    config = bare_config(triage={"translator": "counting"})
    with Store(":memory:") as store:
        first, _ = translate(store, ["b", "a", "b"], "deu", config)
        second, backend = translate(store, ["a", "c"], "deu", config)
    assert calls == [["a", "b"], ["c"]]
    assert second["a"] == Translation("A", "test") and backend == "counting"


class FakeGoogle:
    """Stands in for googletrans.Translator (async translate returning `.text`)."""

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs

    async def translate(self, text: str, src: str, dest: str) -> Any:
        assert dest == "en" and src == "ru"
        return type("Result", (), {"text": {"Трамп": "Trump"}[text]})()


def test_googletrans_answers_through_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("googletrans.Translator", FakeGoogle)
    out = googletrans(["Трамп"], "rus", bare_config())
    assert out == {"Трамп": Translation("Trump", "googletrans")}


@pytest.fixture
def silent_server() -> Any:
    """A local server that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for s in held:
        s.close()
    server.close()


def test_googletrans_offline_fails_fast_and_falls_back_or_stops(silent_server: str) -> None:
    config = bare_config(triage={"translator": "googletrans", "timeout": 0.5,
                                 "service_urls": [silent_server]}, names={"models": None})
    with Store(":memory:") as store:
        started = time.monotonic()
        answers, backend = translate(store, ["Трамп"], "rus", config)
        assert time.monotonic() - started < 30  # a short timeout, not a hang
        assert backend == "offline" and answers["Трамп"].method == "icu"
        assert store.scalar(
            "SELECT COUNT(*) FROM translations WHERE backend = 'googletrans'") == 0
        stop = config.model_copy(update={
            "triage": config.triage.model_copy(update={"on_error": "stop"})})
        with pytest.raises(XelError, match="googletrans could not reach .* needs the network"):
            translate(store, ["Путин"], "rus", stop)


def triaged(store: Store, config: Any, langs: list[str] | None = None) -> dict[str, StageRun]:
    """Triage each language (its own stage); the runs by language."""
    return {r.name.partition(":")[2]: r for r in run(store, config, ["triage"], langs=langs)}


def test_triage_stage_outcomes(tmp_path: Path) -> None:
    store, config = small_store(tmp_path)
    projected(store, config)
    store.declare(QUERIES_DDL)
    queries = [("q1", "Donald Trump", "donald trump", "d1", 0, 0),
               ("q2", "Angela Merkel", "angela merkel", "d2", 16, 15),
               ("q3", "Kenny Miler", "kenny miler", "d1", 3, 3),
               ("q4", "Trump", "trump", "d2", 17, 17)]
    for k, (qid, name, key, doc, mention, seg) in enumerate(queries):
        store.execute(QUERY_COLUMNS + " VALUES (?, ?, ?, ?, ?, ?, 0, 1, ?)",
                      (qid, name, key, doc, mention, seg, k))
    store.record_stage("queries", "test", "queries|test", {})
    runs = triaged(store, config)
    assert runs["deu"].summary == {"queries": 4, "backend": "offline", "A1": 3, "D1": 1,
                                   "curate": 0}
    rows = {r["query_id"]: r for r in store.query("SELECT * FROM triage")}
    assert rows["q3"]["outcome"] == "D1" and rows["q3"]["reason"] == "no-aligned-sentence"
    assert rows["q3"]["projection"] == ""
    q1 = rows["q1"]
    sentence = store.scalar("SELECT text FROM sentences WHERE lang = 'deu' AND seg = ?",
                            (q1["seg"],))
    assert sentence[q1["start"]:q1["end"]] == "Donald Trump" == q1["back_translation"]
    assert q1["outcome"] == "A1" and q1["backend"] == "offline"
    counts = store.query("SELECT * FROM projection_counts WHERE lang = 'deu'")[0]
    assert (counts["queries"], counts["a1"], counts["d1"], counts["curate"]) == (4, 3, 1, 0)
    assert triaged(store, config, ["deu"])["deu"].skipped


BULGARIAN = [
    "Доналд Тръмп се срещна с Ангела Меркел в Берлин.",
    "Ангела Меркел каза, че разговорите са били добри.",
    "Тръмп замина във <b>вторник</b> <script>alert(1)</script>.",
    "",
    "Времето беше лошо.",
]


def trump_and_merkel(store: Store) -> None:
    """Two queries of the Bulgarian corpus, as the queries stage would leave them."""
    store.declare(QUERIES_DDL)
    store.execute(QUERY_COLUMNS + " VALUES ('q1', 'Donald Trump', 'donald trump', 'd1', 0,"
                  " 0, 0, 1, 0)")
    store.execute(QUERY_COLUMNS + " VALUES ('q2', 'Angela Merkel', 'angela merkel', 'd2',"
                  " 16, 15, 0, 1, 1)")
    store.record_stage("queries", "test", "queries|test", {})


def test_a_collection_anywhere_is_triaged_with_the_shipped_models(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of ../shared is read: the models ship inside xel. Bulgarian spells `Trump` its
    own way (`Тръмп`, not Russian's `Трамп`); the Cyrillic model reads it back as Donald
    Trump, so even the paper's exact round trip accepts it (ICU romanization gives
    `Donald Tr"mp`)."""
    monkeypatch.setenv("XEL_SHARED_DATA", str(tmp_path / "absent"))
    store, config = small_store(tmp_path, lang="bul", target=BULGARIAN, models="shipped")
    projected(store, config)
    trump_and_merkel(store)
    triaged(store, config)
    rows = {r["query_id"]: r for r in store.query("SELECT * FROM triage")}
    assert rows["q1"]["projection"] == "Доналд Тръмп" and rows["q1"]["outcome"] == "A1"
    assert rows["q2"]["projection"] == "Ангела Меркел" and rows["q2"]["outcome"] == "A1"
    assert store.scalar("SELECT method FROM translations WHERE text = 'Доналд Тръмп'") == "model"
    assert "agreement" in rows["q1"]["why"] or "round trip" in rows["q1"]["why"]
    exact = config.model_copy(update={"triage": config.triage.model_copy(
        update={"accept": "exact"})})
    triaged(store, exact)
    q1 = store.query("SELECT * FROM triage WHERE query_id = 'q1'")[0]
    assert (q1["back_translation"], q1["outcome"], q1["why"]) == (
        "Donald Trump", "A1", "round trip: exact")


def test_triage_needs_projection_and_queries(tmp_path: Path) -> None:
    store, config = small_store(tmp_path, repeat=1)
    with pytest.raises(XelError, match="xel project --lang deu"):
        triaged(store, config)


def test_triage_on_worker_processes_is_triage_in_this_process(tmp_path: Path) -> None:
    """Workers read the store and decide; the writer alone writes: the triage table, the
    counts and the translation cache are those of one process."""
    from xel.config import ExecutorConfig

    store, config = small_store(tmp_path, also=("fra",))
    projected(store, config)
    store.declare(QUERIES_DDL)
    for k, (qid, name, key, doc, mention, seg) in enumerate([
            ("q1", "Donald Trump", "donald trump", "d1", 0, 0),
            ("q2", "Angela Merkel", "angela merkel", "d2", 16, 15)]):
        store.execute(QUERY_COLUMNS + " VALUES (?, ?, ?, ?, ?, ?, 0, 1, ?)",
                      (qid, name, key, doc, mention, seg, k))
    store.record_stage("queries", "test", "queries|test", {})
    tables = ["triage", "translations", "projection_counts"]

    def tables_now() -> list[list[tuple[object, ...]]]:
        return [[tuple(r) for r in store.query(f"SELECT * FROM {t} ORDER BY 1, 2, 3")]
                for t in tables]

    assert [r.summary["A1"] for r in triaged(store, config).values()] == [2, 2]  # here
    here = tables_now()
    assert {r[1] for r in here[1]} == {"deu", "fra"}
    for table in tables[:2]:
        store.execute(f"DELETE FROM {table}")
    config.executor = ExecutorConfig(workers=2, in_process_below=0)
    runs = run(store, config, ["triage"], force=True)
    assert [r.summary["queries"] for r in runs] == [2, 2]
    assert tables_now() == here


def test_every_language_of_a_model_is_decoded_in_one_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Triage decodes what all languages will ask a model before deciding any (the decoder
    reads the whole model each time it starts): one run per model and direction for three
    Cyrillic languages, not one per language; the rows are those of deciding one by one."""
    from xel.names import translit

    monkeypatch.setenv("XEL_SHARED_DATA", str(tmp_path / "absent"))
    store, config = small_store(tmp_path, lang="bul", target=BULGARIAN, models="shipped",
                                also=("rus", "ukr"))
    for lang, bulgarian, own in [("rus", "Тръмп", "Трамп"), ("ukr", "Доналд", "Дональд")]:
        store.execute("UPDATE sentences SET text = replace(text, ?, ?) WHERE lang = ?",
                      (bulgarian, own, lang))
    projected(store, config)
    trump_and_merkel(store)
    started: list[str] = []
    real = translit._run

    def counted(args: list[str], what: str) -> str:
        started.extend(".".join(a.split("/")[-1].split(".")[:2]) for a in args
                       if a.startswith("--model="))
        return real(args, what)

    monkeypatch.setattr(translit, "_run", counted)

    def triage_afresh(decoded: Path) -> list[tuple[object, ...]]:
        monkeypatch.setenv("XEL_DECODED", str(decoded))
        transliterate.decoded.cache_clear()
        transliterate.language_models.cache_clear()
        started.clear()
        run(store, config, ["triage"], force=True)
        return [tuple(r) for r in store.query("SELECT * FROM triage ORDER BY lang, query_id")]

    ahead = triage_afresh(tmp_path / "ahead.sqlite")
    assert sorted(started) == ["russian.from-english", "russian.to-english"]
    assert {(r[0], r[2], r[8]) for r in ahead if r[1] == "q1"} == {
        ("bul", "Доналд Тръмп", "A1"), ("rus", "Доналд Трамп", "A1"),
        ("ukr", "Дональд Тръмп", "curate")}
    monkeypatch.setattr(triage_module, "decode_ahead", lambda requests: None)
    one_by_one = triage_afresh(tmp_path / "one-by-one.sqlite")
    assert sorted(started) == ["russian.from-english"] + ["russian.to-english"] * 3
    assert one_by_one == ahead


def test_project_and_triage_commands(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from xel.cli import _load_commands, app

    store, config = small_store(tmp_path, repeat=2)
    (tmp_path / "kb.jsonl").write_text('{"id": "P1", "name": "Angela Merkel"}\n',
                                       encoding="utf-8")
    run(store, config, ["kb", "persons"])  # what the queries stage reads from
    store.declare(QUERIES_DDL)
    store.execute(QUERY_COLUMNS + " VALUES ('q1', 'Angela Merkel', 'angela merkel', 'd1', 2,"
                  " 1, 0, 13, 0)")
    as_if_run(store, config, "queries")
    store.close()
    _load_commands()
    runner = CliRunner()
    result = runner.invoke(app, ["project", config.source_file, "--lang", "de"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["triage", config.source_file])
    assert result.exit_code == 0, result.output
    with Store(config.resolve(config.store)) as db:
        row = db.query("SELECT outcome, projection FROM triage")[0]
    assert (row["outcome"], row["projection"]) == ("A1", "Angela Merkel")


def test_locate_finds_a_name_after_a_proclitic() -> None:
    doc = [(1, "فاز وجاستن توماس أمس"), (2, "جاستنية")]
    assert locate(["جاستن توماس"], doc, 1, unspaced=False, proclitics="وفبلك") == (
        "جاستن توماس", 1, 5, 16)
    assert locate(["جاستن توماس"], doc, 1, unspaced=False) is None
    assert locate(["جاستن"], doc[1:], 2, unspaced=False, proclitics="وفبلك") is None


def test_locate_finds_a_name_before_a_korean_particle() -> None:
    doc = [(1, "도널드 트럼프는 말했다")]
    found = locate(["도널드 트럼프"], doc, 1, unspaced=False, enclitics=("는", "은"))
    assert found == ("도널드 트럼프", 1, 0, 7)
    assert locate(["도널드 트럼프"], doc, 1, unspaced=False) is None


def test_a_surname_alone_is_accepted_where_the_collection_writes_the_full_name() -> None:
    forms = ["川普", "唐納德·川普"]
    assert surname_of("川普", "Donald Trump", "PER", forms, "美國總統") == "唐納德·川普"
    # The given name stands right before it: the projection is only a piece of the name.
    assert surname_of("川普", "Donald Trump", "PER", forms, "美國總統唐納德·") is None
    assert surname_of("川普", "Donald Trump", "PER", ["川普"], "美國總統") is None
    # The full form must have a part per English token, ending with the surname.
    assert surname_of("川普", "Donald John Trump", "PER", forms, "") is None
    assert surname_of("唐納德", "Donald Trump", "PER", forms, "") is None
    assert surname_of("Trump", "Donald Trump", "PER", ["Trump", "Donald Trump"], "sagte ") == (
        "Donald Trump")
    # People only: the last word of a club's or a group's name is not that name
    assert surname_of("Wien", "Rapid Vienna", "ORG", ["Rapid Wien"], "") is None
    assert surname_of("estadounidenses", "U.S.", "LOC", ["investigadores estadounidenses"],
                      "") is None
    assert surname_of("Wien", "Rapid Vienna", "PER", ["Rapid Wien"], "") == "Rapid Wien"


CHINESE = [
    "唐納德·特朗普在柏林會見了安格拉·默克爾。",
    "安格拉·默克爾說會談很好。",
    "特朗普週二離開了。",
    "",
    "天氣很糟。",
]


def test_a_chinese_name_cut_before_more_of_it_goes_to_curation(tmp_path: Path) -> None:
    """A transliteration cut short still reads as the name (`默克` is Merkel), so the round
    trip would accept it; the character after it, written in many transliterated names
    (`爾`), sends it to curation instead."""
    store, config = small_store(tmp_path, lang="zho-TW", target=CHINESE, models="shipped")
    projected(store, config)
    store.declare(QUERIES_DDL)
    store.execute(QUERY_COLUMNS + " VALUES ('q2', 'Angela Merkel', 'angela merkel', 'd2',"
                  " 16, 15, 0, 1, 1)")
    store.record_stage("queries", "test", "queries|test", {})
    store.execute("UPDATE projection_ranks SET text = '安格拉·默克爾' WHERE lang = 'zho-TW'"
                  " AND name_key = 'angela merkel' AND rank = 1")
    run(store, config, ["triage"], force=True)
    whole = store.query("SELECT * FROM triage WHERE query_id = 'q2'")[0]
    assert (whole["projection"], whole["outcome"]) == ("安格拉·默克爾", "A1")
    store.execute("UPDATE projection_ranks SET text = '安格拉·默克' WHERE lang = 'zho-TW'"
                  " AND name_key = 'angela merkel' AND rank = 1")
    run(store, config, ["triage"], force=True)
    cut = store.query("SELECT * FROM triage WHERE query_id = 'q2'")[0]
    assert (cut["projection"], cut["outcome"]) == ("安格拉·默克", "curate")
    assert cut["why"] == "the name may run on: `爾` is beside it"
