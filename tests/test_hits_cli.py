"""The `hits` command end to end on a small store, with the simulated crowd."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from hits.cli import app
from hits.store import batches
from hits.workflow import aggregate_names
from xel.config import Config
from xel.errors import XelError
from xel.store import Store

runner = CliRunner()


def write_config(cfg: Config, tmp_path: Path) -> Path:
    path = tmp_path / "collection.yaml"
    path.write_text(yaml.safe_dump(cfg.model_dump(mode="json", exclude={"source_file"})))
    return path


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_make_publish_collect_review_with_the_simulated_crowd(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=40, n_gold=8)
    config = str(write_config(sim_config(tmp_path), tmp_path))
    assert "made el-001: 8 HITs x 3 assignments x $0.20" in run("make", "-c", config)
    assert "published 8 HIT(s)" in run("publish", "el-001", "--backend", "simulated",
                                       "-c", config)
    assert "24 new submission(s); collected" in run("collect", "-c", config)
    report = run("review", "--send", "--truth", str(tmp_path / "truth.tsv"), "-c", config)
    assert "SIMULATED" in report and "Gold accuracy" in report
    for policy in ("unanimous", "majority", "dawid-skene"):
        assert policy in report
    assert "cost so far (approved on MTurk): $0.00" in report
    rejected = store.scalar("SELECT COUNT(*) FROM payments WHERE decision = 'reject'")
    assert f"assignments rejected (not paid): {rejected}" in report
    assert [b.state for b in batches(store)] == ["aggregated"]


def test_simulate_and_curate_round_trip_through_csv(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=60)
    config = str(write_config(sim_config(tmp_path), tmp_path))
    report = run("simulate", "--kind", "name", "--lang", "deu", "-c", config)
    assert "SIMULATED" in report
    exported = tmp_path / "cases.csv"
    assert "case(s)" in run("curate", "--export", str(exported), "-c", config)
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert rows
    rows[0]["decision"] = rows[0]["projection"]
    rows[1]["decision"] = "DISCARD"
    with exported.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert "'decided': 2" in run("curate", "--import", str(exported), "--expert", "eve",
                                 "-c", config)
    decided = store.query("SELECT query_id, name, decided_by FROM name_outcomes "
                          "WHERE outcome = 'E' ORDER BY name")
    assert {r[0] for r in decided} == {rows[0]["query_id"], rows[1]["query_id"]}
    assert {r[2] for r in decided} == {"expert:eve"}
    aggregate_names(store, sim_config(tmp_path), "deu")  # expert decisions are kept
    assert store.scalar("SELECT COUNT(*) FROM name_outcomes WHERE outcome = 'E'") == 2


def test_hits_before_any_query_say_what_to_run(tmp_path: Path, crowd_store: Any,
                                               sim_config: Any) -> None:
    """A config whose store `xel queries` has not filled: an error naming the command, not
    "nothing to ask", and no store is made."""
    crowd_store(tmp_path, n_queries=4, n_gold=1)
    config = sim_config(tmp_path)
    config.store = tmp_path / "elsewhere" / "xel.sqlite"
    path = str(write_config(config, tmp_path))
    for command in (["make", "-c", path], ["simulate", "--kind", "name", "--lang", "deu", "-c",
                                            path]):
        result = runner.invoke(app, command)
        assert isinstance(result.exception, XelError), result.output
        assert "no collection store at" in str(result.exception)
        assert f"run `xel queries {path}`" in str(result.exception)
    assert not (tmp_path / "elsewhere" / "xel.sqlite").exists()
    (tmp_path / "elsewhere").mkdir()
    Store(tmp_path / "elsewhere" / "xel.sqlite").close()
    result = runner.invoke(app, ["make", "-c", path])
    assert "holds no queries" in str(result.exception)


def test_bad_input_is_a_one_line_error(tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    crowd_store(tmp_path, n_queries=12, n_gold=4)
    config = str(write_config(sim_config(tmp_path, mturk={"environment": "live"}), tmp_path))
    run("make", "-c", config)
    result = runner.invoke(app, ["publish", "el-001", "--backend", "mturk", "-c", config])
    assert result.exit_code != 0
    assert "pass --live" in str(result.exception)
    bad = tmp_path / "bad.csv"
    bad.write_text("lang,query_id,decision\ndeu,q001,Nobody\n", encoding="utf-8")
    result = runner.invoke(app, ["curate", "--import", str(bad), "--expert", "x", "-c", config])
    assert "bad.csv, line 2" in str(result.exception)
