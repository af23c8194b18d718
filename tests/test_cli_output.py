"""Both command lines print plain text: a path, name or message is never read as rich markup."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

import hits.cli
import xel.cli
from hits.store import open_tables

MARKUP = ["configs/[/x].yaml", "[red]oops.yaml", "[bold]a[/bold] [link=x.html]b[/link].yaml"]


def run_main(main: object, argv: list[str], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> str:
    """Run a command's `main` as the console script does; its stderr."""
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as exit_:
        main()  # type: ignore[operator]
    assert exit_.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("path", MARKUP)
def test_xel_errors_show_paths_literally(path: str, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    err = run_main(xel.cli.main, ["xel", "build", path], monkeypatch, capsys)
    assert err == f"error: {path}: config file not found (shipped configs are in configs/)\n"


@pytest.mark.parametrize("path", MARKUP)
def test_hits_errors_show_paths_literally(path: str, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    err = run_main(hits.cli.main, ["hits", "make", "-c", path], monkeypatch, capsys)
    assert err == f"error: {path}: config file not found (shipped configs are in configs/)\n"


def test_a_long_error_is_not_wrapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / ("[x]" + "long" * 30 + ".yaml")
    config.write_text("name: x\ncorpus: {path: c}\nkb: {path: k}\nqueries: {min_token: 2}\n",
                      encoding="utf-8")
    err = run_main(xel.cli.main, ["xel", "stages", str(config)], monkeypatch, capsys)
    assert err.splitlines() == [f"error: {config}: invalid config",
                                "  queries.min_token: unknown key: did you mean 'min_tokens'?"]


def test_tables_show_names_literally(tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=12, n_gold=4)
    cfg = sim_config(tmp_path)
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(cfg.model_dump(mode="json", exclude={"source_file"})))
    open_tables(store)
    with store.transaction():
        store.execute("INSERT INTO worker_gold VALUES ('el-001', '[red]W1[/red]', 2, 1, 0.5, 1)")
    result = CliRunner().invoke(hits.cli.app, ["review", "-c", str(path)])
    assert result.exit_code == 0, result.output
    assert "[red]W1[/red]" in result.output
