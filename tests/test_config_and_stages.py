"""Config validation errors, the store's transactions, and stage signatures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from xel.config import load_config
from xel.errors import XelError
from xel.registry import Registry
from xel.stages import Signature, run_unless_current
from xel.store import Store

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_configs_validate() -> None:
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        config = load_config(path)
        assert config.resolve(config.store).is_absolute()


def test_default_config_points_at_shared_ntrex() -> None:
    config = load_config(ROOT / "configs" / "default.yaml")
    assert config.corpus.path == "../shared/data/ntrex128"
    assert config.resolve(config.corpus.path) == (ROOT.parent / "shared/data/ntrex128").resolve()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\ncorpus: {path: c}\nkb: {path: k}\nqueries: {max_per_nam: 3}\n",
         r"queries\.max_per_nam: unknown key: did you mean 'max_per_name'\?"),
        ("name: x\ncorpus: {path: c}\nkb: {path: k}\nqueries: {min_token: 3}\n",
         r"queries\.min_token: unknown key: did you mean 'min_tokens'\?"),
        ("name: x\ncorpus: {path: c}\nkb: {path: k}\nhits: {mturk: {enviroment: live}}\n",
         r"hits\.mturk\.enviroment: unknown key: did you mean 'environment'\?"),
        ("name: x\ncorpus: {path: c}\nkb: {path: k}\nzzz: 1\n",
         r"zzz: unknown key \(known keys here: name, root, store"),
        ("name: x\ncorpus: {path: c}\nkb: {path: k}\nqueries: {max_per_name: ten}\n",
         r"queries\.max_per_name: Input should be a valid integer"),
        ("name: x\nkb: {path: k}\n", r"corpus: Field required"),
        ("name: x\ncorpus: {path: c, format: tbx}\nkb: {path: k}\n", r"corpus\.format"),
        ("- just\n- a list\n", "a config is a YAML mapping"),
        ("name: [unclosed\n", "not valid YAML"),
    ],
)
def test_bad_configs_name_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(XelError, match=message) as error:
        load_config(path)
    assert str(path) in str(error.value)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(XelError, match="config file not found"):
        load_config(tmp_path / "nope.yaml")


def test_stage_is_skipped_when_signature_unchanged(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    store.declare("CREATE TABLE IF NOT EXISTS t (x INTEGER);")
    calls = []

    def work(s: Store) -> dict[str, int]:
        calls.append(1)
        s.execute("DELETE FROM t")
        s.execute("INSERT INTO t VALUES (1)")
        return {"rows": 1}

    sig = Signature("demo", {"config": "a"})
    assert not run_unless_current(store, sig, lambda: work).skipped
    again = run_unless_current(store, sig, lambda: work)
    assert again.skipped and again.summary == {"rows": 1} and len(calls) == 1
    assert not run_unless_current(store, Signature("demo", {"config": "b"}), lambda: work).skipped
    assert len(calls) == 2
    assert store.query("SELECT signature FROM stages")[0][0] == "demo|config=b"


def test_a_stage_whose_file_is_gone_reruns(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    out = tmp_path / "out.txt"
    calls = []

    def prepare() -> Callable[[Store], dict[str, int]]:
        calls.append(1)
        out.write_text("x")
        return lambda s: {"files": 1}

    sig = Signature("file", {"config": "a"})
    assert not run_unless_current(store, sig, prepare, outputs=[out]).skipped
    assert run_unless_current(store, sig, prepare, outputs=[out]).skipped
    out.unlink()
    assert not run_unless_current(store, sig, prepare, outputs=[out]).skipped and len(calls) == 2


def test_declaring_tables_inside_a_transaction_keeps_it(tmp_path: Path) -> None:
    """sqlite3's executescript commits first; `declare` must not, or a crash after it would
    leave half a stage behind."""
    store = Store(tmp_path / "s.sqlite")
    store.declare("CREATE TABLE IF NOT EXISTS t (x INTEGER);")
    ddl = ("-- a comment; with a semicolon\nCREATE TABLE IF NOT EXISTS u (y TEXT);\n"
           "CREATE INDEX IF NOT EXISTS u_y ON u(y);")
    with pytest.raises(RuntimeError), store.transaction():
        store.execute("INSERT INTO t VALUES (1)")
        store.declare(ddl)
        store.execute("INSERT INTO u VALUES ('a')")
        raise RuntimeError("killed mid-stage")
    assert store.scalar("SELECT COUNT(*) FROM t") == 0
    assert not store.query("SELECT name FROM sqlite_master WHERE name = 'u'")
    store.declare(ddl)  # rolled back with the transaction, so declared again
    assert store.scalar("SELECT COUNT(*) FROM u") == 0


def test_crash_inside_a_stage_leaves_nothing_half_written(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    store.declare("CREATE TABLE IF NOT EXISTS t (x INTEGER);")

    def crash(s: Store) -> dict[str, int]:
        s.execute("INSERT INTO t VALUES (1)")
        raise RuntimeError("killed mid-stage")

    with pytest.raises(RuntimeError):
        run_unless_current(store, Signature("demo", {}), lambda: crash)
    assert store.scalar("SELECT COUNT(*) FROM t") == 0
    assert store.stage_digest("demo") is None
    # A second connection (another process) sees the same.
    assert Store(tmp_path / "s.sqlite").scalar("SELECT COUNT(*) FROM t") == 0


def test_registry_names_and_unknown_member() -> None:
    reg: Registry[object] = Registry("widget", [])
    reg.register("b")(object)
    reg.register("a")(object)
    assert reg.names() == ["a", "b"]
    with pytest.raises(XelError, match="unknown widget 'c': choose one of a, b"):
        reg.get("c")


def test_one_process_at_a_time_runs_stages_on_a_store(tmp_path: Path) -> None:
    """Two processes running stages on one store would write the same staging rows (a second
    `xel project` started while one runs): the second is refused, naming the first."""
    import fcntl
    import os
    import subprocess
    import sys

    store = Store(tmp_path / "xel.sqlite")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from xel.store import Store\n"
         "with Store(sys.argv[1]).running():\n    print('held', flush=True); time.sleep(60)",
         str(tmp_path / "xel.sqlite")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(XelError, match=f"process {holder.pid} is running stages"), \
                store.running():
            pass
    finally:
        holder.kill()
        holder.wait()
    # Free again once the holder is gone; nested runs in one process share the lock.
    with store.running(), store.running():
        fd = os.open(tmp_path / "xel.sqlite.lock", os.O_RDWR)
        with pytest.raises(BlockingIOError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(fd)
    with store.running():
        pass
