"""No import circle in `xel` or `hits`: every module can be read, and imported, on its own.

Imports are read with `ast`, so imports inside functions and under `TYPE_CHECKING` count too:
a circle hidden from the interpreter is still one a reader has to untangle.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("xel", "hits")


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the packages."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that `module` imports: `import a.b`, `from a.b import c` (a.b,
    and a.b.c where that is a module), relative imports resolved."""
    out = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base
                                                                         else []))
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return (out & known) - {module}


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports."""
    found = modules()
    return {module: imported(module, path, set(found)) for module, path in found.items()}


def test_no_import_circle() -> None:
    graph = import_graph()
    assert len(graph) > 50 and "hits.results" in graph["xel.pipeline"]
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as e:
        raise AssertionError(f"import circle: {' -> '.join(e.args[1])}") from None


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A circle through a function-level import, a `TYPE_CHECKING` import and the package
    itself is found (the walk would miss nothing the old names package had)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg.a import A\n")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from pkg.b import B\nA = 1\n")
    (pkg / "b.py").write_text("def f():\n    from . import A\n")
    known = {"pkg", "pkg.a", "pkg.b"}
    edges = {(m, o) for m, p in (("pkg", pkg / "__init__.py"), ("pkg.a", pkg / "a.py"),
                                  ("pkg.b", pkg / "b.py")) for o in imported(m, p, known)}
    assert edges == {("pkg", "pkg.a"), ("pkg.a", "pkg.b"), ("pkg.b", "pkg")}
